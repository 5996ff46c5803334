/**
 * Bookings are resources a run consumes. A state-changing call (AmendmentRequest, CancelBooking,
 * CancelTransferBooking, UpdateSpecialRequest) changes the booking it names, so every such call gets
 * a booking of its own from a configured pool: one per binding, per case and per sequence step.
 * The four bindings are then compared on an equal footing (by outcome, not by the booking's values),
 * and no booking is used twice. When a pool runs out, the calls left without a booking are not sent,
 * each with the reason; a run that skipped calls for want of bookings exits EXIT_POOL_EXHAUSTED (6).
 */
import type { BindingId } from '../contract/catalogue.js';
import type { Params } from '../bindings/types.js';

/** A transfer booking: its id and the customer's email (CancelTransferBooking sends both). */
export interface TransferBooking {
  readonly id: string;
  readonly email: string;
}

/** The pools of bookings a run may change (config key `bookings`). */
export interface BookingPools {
  /** Bookings that may be cancelled (CancelBooking). */
  readonly cancel: readonly string[];
  /** Bookings that may be amended (AmendmentRequest). */
  readonly amend: readonly string[];
  /** Bookings whose special request may be rewritten (UpdateSpecialRequest; an int id). */
  readonly specialRequest: readonly string[];
  /** Transfer bookings that may be cancelled (CancelTransferBooking). */
  readonly transfers: readonly TransferBooking[];
}

export type PoolName = keyof BookingPools;
export const POOL_NAMES: readonly PoolName[] = ['cancel', 'amend', 'specialRequest', 'transfers'];

/** One booking as a call uses it. */
export interface Booking {
  readonly pool: PoolName;
  readonly id: string;
  readonly email?: string;
}

/** Exit code of a run that left state-changing calls unsent because a pool ran out (and nothing failed). */
export const EXIT_POOL_EXHAUSTED = 6;

/** The pool each state-changing operation draws from, and how a booking goes into its parameters. */
const USES: Readonly<Record<string, { readonly pool: PoolName; readonly put: (p: Params, b: Booking) => Params }>> = {
  CancelBooking: { pool: 'cancel', put: (p, b) => ({ ...p, bookingID: b.id }) },
  AmendmentRequest: { pool: 'amend', put: (p, b) => ({ ...p, bookingID: b.id }) },
  UpdateSpecialRequest: { pool: 'specialRequest', put: (p, b) => ({ ...p, bookingId: b.id }) },
  CancelTransferBooking: { pool: 'transfers', put: (p, b) => ({ ...p, transferBookingID: b.id, email: b.email ?? p.email ?? '' }) },
};

/** The pool an operation's calls consume, or undefined for an operation that changes nothing. */
export function poolOf(operation: string): PoolName | undefined {
  return USES[operation]?.pool;
}

/** The parameter naming the booking, per state-changing operation. */
const ID_PARAM: Readonly<Record<string, string>> = {
  CancelBooking: 'bookingID', AmendmentRequest: 'bookingID', UpdateSpecialRequest: 'bookingId', CancelTransferBooking: 'transferBookingID',
};

/**
 * Whether a call of `operation` with `params` (case `caseId`) names a booking it may change: not when
 * it leaves the booking id out or sends it unparsable on purpose (the negative cases), nor for an
 * operation that changes nothing.
 */
export function needsBooking(operation: string, caseId: string, params: Params): boolean {
  const k = ID_PARAM[operation];
  return k !== undefined && params[k] !== undefined && caseId !== `unparsable-${k}` && caseId !== `missing-${k}`;
}

/** The parameters of a call with its booking put in. */
export function withBooking(operation: string, params: Params, b: Booking): Params {
  const use = USES[operation];
  return use ? use.put(params, b) : params;
}

/** The bookings of the embedded mock: enough for every state-changing call of a full run, generated (the mock accepts any id). */
export function mockBookings(n = 400): BookingPools {
  const range = (f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
  return {
    cancel: range((i) => `BK-${700000 + i}`),
    amend: range((i) => `BK-${800000 + i}`),
    specialRequest: range((i) => String(300000 + i)),
    // Two transfer bookings per customer: cancelling one must leave the other cancellable.
    transfers: Array.from({ length: n }, (_, i) => ({ id: `TR-${900000 + i}`, email: `guest${Math.floor(i / 2)}@example.com` })),
  };
}

export const EMPTY_POOLS: BookingPools = { cancel: [], amend: [], specialRequest: [], transfers: [] };

/**
 * Check a `bookings` value (config key, file or variable): an object of the four pools, each a list
 * of non-empty ids (transfers: `{ id, email }`), no id twice in a pool. Returns the problem, naming
 * the place under `source`, or the pools.
 */
export function parseBookings(v: unknown, source: string): BookingPools | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${source} must be an object with the pools ${POOL_NAMES.join(', ')}`;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!(POOL_NAMES as readonly string[]).includes(k)) return `${source}: unknown pool "${k}" (pools: ${POOL_NAMES.join(', ')})`;
  const ids = (k: 'cancel' | 'amend' | 'specialRequest'): string[] | string => {
    const a = o[k] ?? [];
    if (!Array.isArray(a)) return `${source}.${k} must be an array of booking ids`;
    const out: string[] = [];
    for (const [i, x] of a.entries()) {
      const id = typeof x === 'number' && Number.isInteger(x) ? String(x) : x;
      if (typeof id !== 'string' || id.trim() === '') return `${source}.${k}[${i}] must be a non-empty booking id (got ${JSON.stringify(x)})`;
      if (k === 'specialRequest' && !/^-?\d+$/.test(id.trim())) return `${source}.${k}[${i}] must be an int booking id: UpdateSpecialRequest's bookingId is an int (got ${JSON.stringify(x)})`;
      if (out.includes(id.trim())) return `${source}.${k} lists the booking ${id.trim()} twice: a booking is consumed once`;
      out.push(id.trim());
    }
    return out;
  };
  const cancel = ids('cancel');
  if (typeof cancel === 'string') return cancel;
  const amend = ids('amend');
  if (typeof amend === 'string') return amend;
  const specialRequest = ids('specialRequest');
  if (typeof specialRequest === 'string') return specialRequest;
  const t = o.transfers ?? [];
  if (!Array.isArray(t)) return `${source}.transfers must be an array of { "id": "...", "email": "..." }`;
  const transfers: TransferBooking[] = [];
  for (const [i, x] of t.entries()) {
    const r = x as Record<string, unknown>;
    if (typeof x !== 'object' || x === null || typeof r.id !== 'string' || r.id.trim() === '' || typeof r.email !== 'string' || r.email.trim() === ''
      || Object.keys(r).some((k) => k !== 'id' && k !== 'email')) {
      return `${source}.transfers[${i}] must be { "id": "...", "email": "..." } with non-empty strings (got ${JSON.stringify(x)})`;
    }
    if (transfers.some((b) => b.id === (r.id as string).trim())) return `${source}.transfers lists the transfer booking ${(r.id as string).trim()} twice: a booking is consumed once`;
    transfers.push({ id: (r.id as string).trim(), email: (r.email as string).trim() });
  }
  return { cancel, amend, specialRequest, transfers };
}

/** Hands out each booking of the pools once, in order. */
export class BookingLedger {
  readonly #next: Record<PoolName, number> = { cancel: 0, amend: 0, specialRequest: 0, transfers: 0 };
  /** Calls left without a booking, per pool. */
  readonly short: Record<PoolName, number> = { cancel: 0, amend: 0, specialRequest: 0, transfers: 0 };
  constructor(readonly pools: BookingPools) {}

  /** The next unused booking of a pool, or undefined when the pool has run out (counted). */
  take(pool: PoolName): Booking | undefined {
    const i = this.#next[pool];
    const list = this.pools[pool];
    if (i >= list.length) {
      this.short[pool]++;
      return undefined;
    }
    this.#next[pool] = i + 1;
    const x = list[i]!;
    return typeof x === 'string' ? { pool, id: x } : { pool, id: x.id, email: x.email };
  }

  /** How many bookings of a pool are left. */
  left(pool: PoolName): number {
    return this.pools[pool].length - this.#next[pool];
  }

  /** How many bookings of a pool were handed out. */
  used(pool: PoolName): number {
    return this.#next[pool];
  }
}

/** Why a binding's call is not sent: no booking left in its pool. */
export function noBookingReason(operation: string, binding: BindingId, caseId: string, pool: PoolName): string {
  return `${operation} ${binding} ${caseId}: no booking left in \`bookings.${pool}\``;
}
