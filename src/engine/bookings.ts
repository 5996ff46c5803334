/**
 * Bookings are resources people create by hand, so a run spends as few as it can (issue 30). A
 * state-changing call (AmendmentRequest, CancelBooking, CancelTransferBooking, UpdateSpecialRequest)
 * is one of three kinds, each with its own booking rule:
 *
 * - real: meant to change a real booking (an operation's first hand-written case, and for an
 *   operation that does not use its booking up, any case naming a hand-written booking). Only a
 *   successful cancellation uses a booking up: the first case of CancelBooking and
 *   CancelTransferBooking takes a booking per binding; AmendmentRequest and UpdateSpecialRequest
 *   take one booking each for the whole run, which every binding changes in turn (a live booking may
 *   be amended again, a special request rewritten), so their answers compare fairly by value.
 * - probe: the identifier itself under test (generated ids: long, with separators, negative, the
 *   xs:int maximum, empty; emails: non-ASCII, empty), sent as generated and naming no booking: it
 *   uses nothing up. Where a successful call would use a booking up, each binding sends its own
 *   value of the same kind (probeVariant), so a service where any id exists on first touch answers
 *   every binding alike, as one where only real bookings exist does ("not found").
 * - rejection: wrong credentials, a missing or unparsable parameter, a misrouted call; sent against
 *   one live pool booking (the first binding's booking of the first case), which must come out
 *   unchanged: read back before the real calls change it (src/sequences/unchanged.ts).
 *
 * Probes and real calls go out after every read of the run (stage `writes`, src/sequences/stages.ts), so no read of the
 * same booking or id overlaps them; the read-backs of the rejections between the two (stage `read-backs`). When a pool
 * runs out, the calls left without a booking are not sent, each with the reason; a run that skipped calls for want of
 * bookings exits EXIT_POOL_EXHAUSTED (6).
 */
import type { BindingId } from '../contract/catalogue.js';
import type { Params } from '../bindings/types.js';
import { stateRuleOf } from '../contract/state-rules.js';
import {
  EMPTY_POOLS,
  POOL_NAMES,
  parseBookings,
  type Booking,
  type BookingPools,
  type PoolName,
  type TransferBooking,
} from '../core/booking-pools.js';

export { EMPTY_POOLS, POOL_NAMES, parseBookings, type Booking, type BookingPools, type PoolName, type TransferBooking };

/** Exit code of a run that left state-changing calls unsent because a pool ran out (and nothing failed). */
export const EXIT_POOL_EXHAUSTED = 6;

/** The pool each state-changing operation draws from, and how a booking goes into its parameters. */
const USES: Readonly<Record<string, { readonly pool: PoolName; readonly put: (p: Params, b: Booking) => Params }>> = {
  CancelBooking: { pool: 'cancel', put: (p, b) => ({ ...p, bookingID: b.id }) },
  AmendmentRequest: { pool: 'amend', put: (p, b) => ({ ...p, bookingID: b.id }) },
  UpdateSpecialRequest: { pool: 'specialRequest', put: (p, b) => ({ ...p, bookingId: b.id }) },
  CancelTransferBooking: {
    pool: 'transfers',
    put: (p, b) => ({ ...p, transferBookingID: b.id, email: b.email ?? p.email ?? '' }),
  },
};

/** The pool an operation's calls consume, or undefined for an operation that changes nothing. */
export function poolOf(operation: string): PoolName | undefined {
  return USES[operation]?.pool;
}

/** The parameter naming the booking a state-changing operation changes. */
export function idParamOf(operation: string): string | undefined {
  return stateRuleOf(operation)?.idParam;
}

/** Whether a successful call of the operation uses its booking up (a booking cancels once). */
export function consumesBooking(operation: string): boolean {
  return stateRuleOf(operation)?.consumes === true;
}

/**
 * Whether a call of `operation` with `params` (case `caseId`) names a booking it may change: not when
 * it leaves the booking id out or sends it unparsable on purpose (the negative cases), nor for an
 * operation that changes nothing.
 */
export function needsBooking(operation: string, caseId: string, params: Params): boolean {
  const k = idParamOf(operation);
  return k !== undefined && params[k] !== undefined && caseId !== `unparsable-${k}` && caseId !== `missing-${k}`;
}

/**
 * The `k`th variant (k ≥ 1) of a probe value, of the same kind and different from it and from every
 * other variant: digits get k more leading zeros after their sign ("-01" → "-001"), any other value
 * k's digits after its first character (white space around kept), a blank value stays as it is (no
 * booking has a blank id). Each binding sends its own variant where a call would use a booking up.
 */
export function probeVariant(value: string, k: number): string {
  if (value.trim() === '') return value;
  const digits = /^(\s*[+-]?)(\d+)(\s*)$/.exec(value);
  if (digits) return `${digits[1]}${'0'.repeat(k)}${digits[2]}${digits[3]}`;
  const lead = /^\s*/.exec(value)![0].length;
  const first = String.fromCodePoint(value.codePointAt(lead)!);
  return `${value.slice(0, lead)}${first}${k}${value.slice(lead + first.length)}`;
}

/**
 * Variants 1 to this of a probe value are the id-probe sequences' (src/sequences/id-probe.ts: each
 * kind's value and its witness's, a transfer's email kinds' ids): the per-binding probes take the
 * variants after them, so no other call of the run names an identifier those sequences judge.
 */
export const ID_PROBE_VARIANTS = 4;

/**
 * The identifier a login variant of a state-changing operation names (issue 42): one no booking has, of the parameter's
 * type, its own per variant and binding (`key`), so a login let in changes nothing and shows as a data-path answer
 * ("not found"). An int: a negative number (no booking's id is negative); a string: "PROBE-V" and a number (no word a
 * refusal of a login uses: the check reads the answer's words, and the id may be quoted in them).
 */
export function loginProbeId(type: string, key: string): string {
  let h = 0;
  for (const c of key) h = (h * 31 + c.codePointAt(0)!) % 1_000_000;
  return type === 'int' ? String(-(1_000_000 + h)) : `PROBE-V${1_000_000 + h}`;
}

/** The parameters of a call with its booking put in. */
export function withBooking(operation: string, params: Params, b: Booking): Params {
  const use = USES[operation];
  return use ? use.put(params, b) : params;
}

/**
 * The bookings of the embedded mock: enough for every state-changing call of a full run, generated (the mock accepts
 * any id).
 */
export function mockBookings(n = 400): BookingPools {
  const range = (f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
  return {
    cancel: range((i) => `BK-${700000 + i}`),
    amend: range((i) => `BK-${800000 + i}`),
    specialRequest: range((i) => String(300000 + i)),
    // Two transfer bookings per customer: cancelling one must leave the other cancellable.
    transfers: Array.from({ length: n }, (_, i) => ({
      id: `TR-${900000 + i}`,
      email: `guest${Math.floor(i / 2)}@example.com`,
    })),
  };
}

/** Hands out each booking of the pools once, in order. */
export class BookingLedger {
  readonly #next: Record<PoolName, number> = { cancel: 0, amend: 0, specialRequest: 0, transfers: 0 };
  constructor(readonly pools: BookingPools) {}

  /** The next unused booking of a pool, or undefined when the pool has run out. */
  take(pool: PoolName): Booking | undefined {
    const i = this.#next[pool];
    const list = this.pools[pool];
    if (i >= list.length) return undefined;
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

// ---- what the pool check found (./pool-check.ts), here so the plan and the diagnosis read it without importing the
// check ----

/** A pool booking found unusable: its pool, id, what showed it, and whether calls were spent on it all the same. */
export interface UnusableBooking {
  readonly pool: PoolName;
  readonly id: string;
  /** What answered, and how ("AmendmentPriceRequest soap11 answered in-band Error …: already cancelled"). */
  readonly found: string;
  /**
   * Found by its first cancellation (a transfer booking: no read exists): calls went to it and are not tested. Else
   * skipped before use.
   */
  readonly spent?: boolean;
}

/** What the pool check found: the bookings shown live, those unusable, and how many reads it sent. */
export interface PoolCheck {
  /** Keys (poolKey) of the bookings a read showed live before the run. */
  readonly shown: ReadonlySet<string>;
  readonly unusable: readonly UnusableBooking[];
  readonly reads: number;
  /** Per pool, the bookings given (the plan's pools are the live ones, in order). */
  readonly given: Readonly<Record<PoolName, number>>;
  /** The dead ones were not replaced (a shard): the plan hands out the pools as given. */
  readonly kept?: true;
}

/** The key of a booking in PoolCheck.shown. */
export const poolKey = (b: Pick<Booking, 'pool' | 'id'>): string => `${b.pool}\u0000${b.id}`;
