/**
 * cancel-transfer: the cancel family's steps (./cancel.ts) on transfer bookings, by id and the
 * customer's email; two bookings of one customer included, so cancelling one must leave the other
 * cancellable. Transfer bookings have no read: the first one cancelled is not judged.
 */
import { cancellations } from './cancel.js';
import type { PlanView, PlannedSequence, SequenceFamily } from './types.js';

/** One sequence when the plan runs CancelTransferBooking. */
function plan(p: PlanView): PlannedSequence[] {
  const transfer = p.has('CancelTransferBooking');
  if (!transfer) return [];
  return [
    {
      op: transfer,
      spec: { family: 'cancel-transfer', pool: 'transfers', needs: 2 * (p.bindings.length + 1) },
      description:
        'CancelTransferBooking of each transfer booking in turn, a binding each (bookings of one '
        + 'customer included), is never answered "already cancelled"; a second cancellation may go either '
        + 'way',
    },
  ];
}

/** The cancel-transfer family. */
export const cancelTransferFamily: SequenceFamily = {
  name: 'cancel-transfer',
  caseId: 'seq-cancel-transfer',
  plan,
  run: cancellations,
};
