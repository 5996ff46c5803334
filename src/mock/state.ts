/**
 * The mock's state, as the real service keeps it (issue 23): special requests written with
 * UpdateSpecialRequest and read with GetSpecialRequest, bookings cancelled with CancelBooking and
 * transfer bookings cancelled with CancelTransferBooking.
 *
 * One MockState belongs to one mock instance (one createMockCore / createHandlers / startMock call)
 * and is shared by its four bindings; it starts empty. Nothing here is global: two mocks never
 * see each other's writes. `stateless: true` (`npm run mock -- --stateless`) makes a mock without
 * one, answering every request as a function of the request alone (replaying recordings, runs
 * that send one booking on all four bindings).
 *
 * `stateStep` is the state's part of one answer: what a valid call (right credentials, parameters
 * checked) reads and what it changes. The answering pipeline (src/mock/respond.ts) applies the
 * change only when the call is answered with data. Stateful faults (src/mock/faults.ts, hook
 * `state`) wrap the BookingStore a request sees, on their operation and bindings only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Operation } from '../contract/catalogue.js';
import { EMPTY_POOLS, type BookingPools } from '../core/booking-pools.js';
import { errorResult } from './real-style.js';
import type { DataObject } from './serialize.js';

type RawParams = Readonly<Record<string, string | undefined>>;

/** ErrorType of a cancellation of a booking already cancelled (the live service's, fixtures/real-service/fact1-*). */
export const BOOKING_ALREADY_CANCELLED = 'Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException';
/**
 * ErrorType of a cancellation of a transfer booking already cancelled (in the style of
 * TransferBookingNotFoundException, fact7).
 */
export const TRANSFER_ALREADY_CANCELLED =
  'Fitruums.Framework.Booking.Exceptions.TransferBookingAlreadyCancelledException';
/** The Code of CancelBooking (and code of CancelTransferBooking) answering "already cancelled". */
export const ALREADY_CANCELLED_CODE = -2;

/** ErrorType of a call naming a booking that does not exist (the live service's). */
export const BOOKING_NOT_FOUND = 'Fitruums.Framework.Booking.Exceptions.BookingNotFoundException';
/** ErrorType of a call naming a transfer booking that does not exist, or not for that customer (fact7). */
export const TRANSFER_NOT_FOUND = 'Fitruums.Framework.Booking.Exceptions.TransferBookingNotFoundException';
/** The Code / resultCode a call naming no booking answers with. */
export const NOT_FOUND_CODE = -1;

/**
 * The bookings that exist on a mock told which (`bookings`, `--bookings FILE`: every pool's ids and
 * the example ids of fixtures/cases), as the real service has only the bookings made on it. Without
 * it any id names a booking, made on first touch; a blank id never does.
 */
export interface KnownBookings {
  /** Booking ids (bookingID as sent, trimmed; bookingId by its int value). */
  readonly ids: ReadonlySet<string>;
  /** Transfer booking ids, each with its customer's email. */
  readonly transfers: ReadonlyMap<string, string>;
}

/**
 * A mock on which every identifier exists on first touch, blank included (`everyId`, `--every-id`),
 * as an independent service may behave: a booking id names a booking whatever it is; a transfer
 * booking belongs to the customer whose email came with its first touch (the real service answers
 * "not found" for a transfer booking named with another customer's email, fact7), so a binding that
 * reads an email otherwise finds no booking where the others find one. One per mock instance.
 */
export interface EveryId {
  readonly every: true;
  /** The customer of each transfer booking touched so far (its key, the email of its first touch). */
  readonly customers: Map<string, string>;
}

/** The every-id mode's bookings of one mock instance: none touched yet. */
export function everyIdBookings(): EveryId {
  return { every: true, customers: new Map() };
}

/** The bookings that exist, from pools (every pool's ids are bookings; transfers with their emails). */
export function knownBookings(...pools: readonly BookingPools[]): KnownBookings {
  const ids = new Set<string>();
  const transfers = new Map<string, string>();
  for (const p of pools) {
    for (const id of [...p.cancel, ...p.amend, ...p.specialRequest]) ids.add(bookingKey(id)).add(intBookingKey(id));
    for (const t of p.transfers) transfers.set(bookingKey(t.id), t.email.trim());
  }
  return { ids, transfers };
}

/**
 * The bookings the hand-written cases of fixtures/cases name (BK-100234, TR-55012 of
 * guest@example.com, ...): the reads of those cases find them on a mock told its bookings.
 */
export function exampleBookings(): BookingPools {
  const dir = new URL('../../fixtures/cases/', import.meta.url);
  const ids: string[] = [];
  const transfers: { id: string; email: string }[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const file = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as {
      cases?: { params?: Record<string, string> }[];
    };
    for (const c of file.cases ?? []) {
      const p = c.params ?? {};
      if (p.transferBookingID !== undefined) transfers.push({ id: p.transferBookingID, email: p.email ?? '' });
      for (const id of [p.bookingID, p.bookingId]) if (id !== undefined) ids.push(id);
    }
  }
  return { ...EMPTY_POOLS, cancel: ids, transfers };
}

/**
 * The in-band "not found" of a valid call naming a booking that does not exist (a blank id, or one
 * a mock told its bookings does not know), or undefined. The message names the id as it arrived
 * (and a transfer's email): a binding that decodes it otherwise shows in it.
 */
export function bookingNotFound(
  op: Operation,
  params: RawParams,
  known: KnownBookings | EveryId | undefined,
): DataObject | undefined {
  switch (op.resultType) {
    case 'CancelTransferBookingResult': {
      const id = params.transferBookingID;
      if (id === undefined) return undefined;
      const email = (params.email ?? '').trim();
      const exists =
        known && 'every' in known
          ? customerOf(known, bookingKey(id), email) === email
          : id.trim() !== '' && (!known || known.transfers.get(bookingKey(id)) === email);
      if (exists) return undefined;
      return errorResult(
        op.resultType,
        TRANSFER_NOT_FOUND,
        `No transfer booking with ID ${id.trim()} was found for ${email === '' ? 'no email' : email}.`,
        { cancellationFeeInEuros: '0', cancellationFeeInLocalCurrency: '0', code: NOT_FOUND_CODE },
      );
    }
    case 'AmendmentPriceRequestResult':
    case 'AmendmentRequestResult':
    case 'CancelBookingResult':
    case 'UpdateSpecialRequestResult':
    case 'GetSpecialRequestResult': {
      const id = params.bookingID ?? params.bookingId;
      if (id === undefined) return undefined;
      const key = params.bookingID !== undefined ? bookingKey(id) : intBookingKey(id);
      if (known && 'every' in known) return undefined;
      if (id.trim() !== '' && (!known || known.ids.has(key))) return undefined;
      return errorResult(op.resultType, BOOKING_NOT_FOUND, `No booking with ID ${id.trim()} was found.`, {
        Code: NOT_FOUND_CODE,
        resultCode: NOT_FOUND_CODE,
        RoomId: 0,
        BookingType: 'NoAmendmentAvailable',
      });
    }
    default:
      return undefined;
  }
}

/**
 * The customer of a transfer booking in the every-id mode: the email of its first touch (this one, when it is the
 * first).
 */
function customerOf(every: EveryId, key: string, email: string): string {
  const known = every.customers.get(key);
  if (known !== undefined) return known;
  every.customers.set(key, email);
  return email;
}

/** A transfer booking cancelled, with the customer it was cancelled for. */
export interface CancelledTransfer {
  readonly transferBookingID: string;
  readonly email: string | undefined;
}

/**
 * What one request sees of the state. The pipeline calls only these; a stateful fault replaces
 * some of them for its operation and bindings (the rest pass through to the mock's store).
 */
export interface BookingStore {
  /**
   * The special request stored for a booking (its bookingId as an int's digits), or undefined when none was written.
   */
  specialRequest(bookingId: string): string | undefined;
  /** Store a booking's special request, replacing the earlier one. */
  setSpecialRequest(bookingId: string, text: string): void;
  /** Whether a booking (bookingID) has been cancelled. */
  isCancelled(bookingID: string): boolean;
  /** Mark a booking cancelled. */
  cancel(bookingID: string): void;
  /** Whether a transfer booking has been cancelled (`email` as the request names it). */
  isTransferCancelled(transferBookingID: string, email: string | undefined): boolean;
  /** Mark a transfer booking cancelled. */
  cancelTransfer(transferBookingID: string, email: string | undefined): void;
  /** The text written last, to any booking (undefined before the first write). */
  lastSpecialRequest(): { readonly bookingId: string; readonly text: string } | undefined;
  /** Bookings cancelled so far, oldest first. */
  cancelledBookings(): readonly string[];
  /** Transfer bookings cancelled so far, oldest first. */
  cancelledTransfers(): readonly CancelledTransfer[];
  /** A stateful fault's own memory in this mock instance (a map per fault name, created on first use). */
  memory(fault: string): Map<string, unknown>;
}

/** The key of a booking named by bookingID (a string parameter): as sent, without surrounding white space. */
export const bookingKey = (id: string): string => id.trim();

/** The key of a booking named by bookingId (an int parameter): its value's digits ("007" and "7" are one booking). */
export function intBookingKey(id: string): string {
  const m = /^\s*([+-]?)0*(\d+)\s*$/.exec(id);
  if (!m) return id.trim();
  return m[2] === '' || /^0+$/.test(m[2]!) ? '0' : `${m[1] === '-' ? '-' : ''}${m[2]}`;
}

/** The state of one mock instance: empty when made. */
export class MockState implements BookingStore {
  readonly #texts = new Map<string, string>();
  #last: { bookingId: string; text: string } | undefined;
  readonly #cancelled = new Set<string>();
  readonly #transfers = new Map<string, CancelledTransfer>();
  readonly #memory = new Map<string, Map<string, unknown>>();

  specialRequest(bookingId: string): string | undefined {
    return this.#texts.get(intBookingKey(bookingId));
  }

  setSpecialRequest(bookingId: string, text: string): void {
    const key = intBookingKey(bookingId);
    this.#texts.set(key, text);
    this.#last = { bookingId: key, text };
  }

  isCancelled(bookingID: string): boolean {
    return this.#cancelled.has(bookingKey(bookingID));
  }

  cancel(bookingID: string): void {
    this.#cancelled.add(bookingKey(bookingID));
  }

  isTransferCancelled(transferBookingID: string, _email?: string): boolean {
    return this.#transfers.has(bookingKey(transferBookingID));
  }

  cancelTransfer(transferBookingID: string, email: string | undefined): void {
    const key = bookingKey(transferBookingID);
    if (!this.#transfers.has(key)) this.#transfers.set(key, { transferBookingID: key, email });
  }

  lastSpecialRequest(): { readonly bookingId: string; readonly text: string } | undefined {
    return this.#last;
  }

  cancelledBookings(): readonly string[] {
    return [...this.#cancelled];
  }

  cancelledTransfers(): readonly CancelledTransfer[] {
    return [...this.#transfers.values()];
  }

  memory(fault: string): Map<string, unknown> {
    let m = this.#memory.get(fault);
    if (!m) this.#memory.set(fault, (m = new Map()));
    return m;
  }

  /** Whether nothing was written or cancelled yet. */
  get empty(): boolean {
    return this.#texts.size === 0 && this.#cancelled.size === 0 && this.#transfers.size === 0;
  }
}

/** The operations whose valid calls read or change the state. */
const STATE_RESULTS = new Set([
  'UpdateSpecialRequestResult',
  'GetSpecialRequestResult',
  'CancelBookingResult',
  'CancelTransferBookingResult',
  'AmendmentPriceRequestResult',
  'AmendmentRequestResult',
]);

/** Whether valid calls of this operation read or change the state (their answers depend on earlier calls). */
export function touchesState(op: Operation): boolean {
  return STATE_RESULTS.has(op.resultType);
}

/** The state's part of one answer. */
export interface StateStep {
  /** The whole result instead of the generated one (an in-band Error: already cancelled). */
  readonly error?: DataObject;
  /** GetSpecialRequest: the stored text, shown whatever the style would otherwise leave out. */
  readonly text?: string;
  /** The change this call makes, applied once it is answered with data. */
  readonly commit?: () => void;
}

/** A special request's text that clears it (as the answer's resultCode 1 says): empty or only white space. */
export const clearsSpecialRequest = (text: string): boolean => text.trim() === '';

/**
 * What a valid call of `op` reads from the store and would change in it; undefined for an
 * operation that does not touch the state or a call that names no booking.
 */
export function stateStep(op: Operation, params: RawParams, store: BookingStore): StateStep | undefined {
  switch (op.resultType) {
    case 'UpdateSpecialRequestResult': {
      const id = params.bookingId;
      const text = params.text ?? '';
      if (id === undefined) return undefined;
      // A blank text clears the special request (resultCode 1): it reads back empty.
      return { commit: () => store.setSpecialRequest(id, clearsSpecialRequest(text) ? '' : text) };
    }
    case 'GetSpecialRequestResult': {
      const id = params.bookingId;
      const text = id === undefined ? undefined : store.specialRequest(id);
      return text === undefined ? undefined : { text };
    }
    case 'CancelBookingResult': {
      const id = params.bookingID;
      if (id === undefined) return undefined;
      if (store.isCancelled(id)) {
        return {
          error: errorResult(
            op.resultType,
            BOOKING_ALREADY_CANCELLED,
            `The booking with ID ${bookingKey(id)} has already been cancelled.`,
            { Code: ALREADY_CANCELLED_CODE },
          ),
        };
      }
      return { commit: () => store.cancel(id) };
    }
    case 'CancelTransferBookingResult': {
      const id = params.transferBookingID;
      if (id === undefined) return undefined;
      if (store.isTransferCancelled(id, params.email)) {
        return {
          error: errorResult(
            op.resultType,
            TRANSFER_ALREADY_CANCELLED,
            `The transfer booking with ID ${bookingKey(id)} has already been cancelled.`,
            { cancellationFeeInEuros: '0', cancellationFeeInLocalCurrency: '0', code: ALREADY_CANCELLED_CODE },
          ),
        };
      }
      return { commit: () => store.cancelTransfer(id, params.email) };
    }
    case 'AmendmentPriceRequestResult':
    case 'AmendmentRequestResult': {
      const id = params.bookingID;
      if (id === undefined || !store.isCancelled(id)) return undefined;
      // An amendment of a cancelled booking: the Error, then the value types the result still writes (no room, no
      // amendment).
      return {
        error: errorResult(
          op.resultType,
          BOOKING_ALREADY_CANCELLED,
          `The booking with ID ${bookingKey(id)} has been cancelled and cannot be amended.`,
          { RoomId: 0, BookingType: 'NoAmendmentAvailable' },
        ),
      };
    }
    default:
      return undefined;
  }
}
