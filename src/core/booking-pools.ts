/**
 * The booking pools a person provides (config key `bookings`, `--bookings FILE`, the variables
 * CONFORMANCE_BOOKINGS_FILE and CONFORMANCE_BOOKINGS, and the mock's `--bookings FILE`): bookings
 * created by hand that a run may change. What a run does with them is the engine's
 * (src/engine/bookings.ts); which of them exist is the mock's (src/mock/state.ts).
 */
/** One booking as a call uses it: its pool, its id, and (a transfer booking) its customer's email. */
export interface Booking {
  readonly pool: PoolName;
  readonly id: string;
  readonly email?: string;
}

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

export const EMPTY_POOLS: BookingPools = { cancel: [], amend: [], specialRequest: [], transfers: [] };

/**
 * Check a `bookings` value (config key, file or variable): an object of the four pools, each a list
 * of non-empty ids (transfers: `{ id, email }`), no id twice in a pool. Returns the problem, naming
 * the place under `source`, or the pools.
 */
export function parseBookings(v: unknown, source: string): BookingPools | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return `${source} must be an object with the pools ${POOL_NAMES.join(', ')}`;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!(POOL_NAMES as readonly string[]).includes(k))
      return `${source}: unknown pool "${k}" (pools: ${POOL_NAMES.join(', ')})`;
  const ids = (k: 'cancel' | 'amend' | 'specialRequest'): string[] | string => {
    const a = o[k] ?? [];
    if (!Array.isArray(a)) return `${source}.${k} must be an array of booking ids`;
    const out: string[] = [];
    for (const [i, x] of a.entries()) {
      const id = typeof x === 'number' && Number.isInteger(x) ? String(x) : x;
      if (typeof id !== 'string' || id.trim() === '')
        return `${source}.${k}[${i}] must be a non-empty booking id (got ${JSON.stringify(x)})`;
      if (k === 'specialRequest' && !/^-?\d+$/.test(id.trim()))
        return (
          `${source}.${k}[${i}] must be an int booking id: UpdateSpecialRequest's bookingId is an int `
          + `(got ${JSON.stringify(x)})`
        );
      if (out.includes(id.trim()))
        return `${source}.${k} lists the booking ${id.trim()} twice: a booking is consumed once`;
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
    if (
      typeof x !== 'object'
      || x === null
      || typeof r.id !== 'string'
      || r.id.trim() === ''
      || typeof r.email !== 'string'
      || r.email.trim() === ''
      || Object.keys(r).some((k) => k !== 'id' && k !== 'email')
    ) {
      return (
        `${source}.transfers[${i}] must be { "id": "...", "email": "..." } with non-empty strings `
        + `(got ${JSON.stringify(x)})`
      );
    }
    if (transfers.some((b) => b.id === (r.id as string).trim()))
      return (
        `${source}.transfers lists the transfer booking ${(r.id as string).trim()} twice: a booking is `
        + `consumed once`
      );
    transfers.push({ id: (r.id as string).trim(), email: (r.email as string).trim() });
  }
  return { cancel, amend, specialRequest, transfers };
}
