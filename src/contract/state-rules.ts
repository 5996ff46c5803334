/**
 * What the contract and the real service say about the operations that change state, as data: the
 * parameter naming the booking, whether a successful call uses the booking up (a booking cancels
 * once), and which places of an answer belong to no booking, so that the four bindings asking the
 * same thing must answer them alike (issue 30). The planner (src/engine/bookings.ts), the
 * comparison (src/equivalence/compare.ts) and docs/real-service.md read this one table.
 */

export interface StateRule {
  readonly operation: string;
  /** The parameter naming the booking the call changes. */
  readonly idParam: string;
  /** A successful call uses the booking up: it can never be sent again with the same booking. */
  readonly consumes: boolean;
  /**
   * Places of an accepted answer (local names from the result element, no indexes) compared by
   * value across the bindings: what the request decides or the contract fixes. Every other place
   * belongs to the booking (its fees, its policies, its own codes) and is held to the contract's
   * shape by each binding's checks.
   */
  readonly byValue: readonly string[];
  /** Why those places, in a sentence (docs/real-service.md quotes it). */
  readonly why: string;
  /**
   * The parameter carrying what the call writes to the booking, read back later (a special request
   * written is what is read back): a rejected call sends a text of its own per binding there, so a
   * read-back names the call that stored it. Absent: the call writes nothing readable.
   */
  readonly writes?: string;
}

export const STATE_RULES: readonly StateRule[] = [
  {
    operation: 'AmendmentRequest',
    idParam: 'bookingID',
    consumes: false,
    byValue: [
      'amendmentRequestResult/AmendmentBooking/bookingStatus',
      'amendmentRequestResult/OriginalBooking/bookingStatus',
    ],
    why:
      'whether the amendment is made follows the request (its dates, maxPrice and bookingType) for one '
      + 'booking, which every binding amends',
  },
  {
    operation: 'UpdateSpecialRequest',
    idParam: 'bookingId',
    consumes: false,
    writes: 'text',
    byValue: ['updateSpecialRequestResult/resultCode', 'updateSpecialRequestResult/resultMessage'],
    why: 'the result code and message follow the text written to one booking, which every binding writes',
  },
  {
    operation: 'CancelBooking',
    idParam: 'bookingID',
    consumes: true,
    byValue: [],
    why: "each binding cancels a booking of its own: Code, fees and policies are that booking's",
  },
  {
    operation: 'CancelTransferBooking',
    idParam: 'transferBookingID',
    consumes: true,
    byValue: [],
    why: "each binding cancels a transfer booking of its own: its fees, currency and code are that booking's",
  },
];

/** The state rule of an operation, or undefined for one that changes nothing. */
export function stateRuleOf(operation: string): StateRule | undefined {
  return STATE_RULES.find((r) => r.operation === operation);
}
