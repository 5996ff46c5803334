/**
 * cancel: a read (AmendmentPriceRequest) shows each booking usable; then they are cancelled one after
 * another, a binding each, and a last one besides (so every binding's cancellation is followed by
 * another). A booking seen usable and never cancelled answered "already cancelled" is state leaking
 * from the cancellation just before: that cancellation's binding is named. A second cancellation of
 * a booking is never a failure, either way (the contract does not say which). cancel-transfer
 * (./cancel-transfer.ts) runs the same steps on transfer bookings, which have no read.
 */
import type { Params } from '../bindings/types.js';
import { findOperation, type BindingId } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import type { Booking, FamilyRun, PlanView, PlannedSequence, SequenceFamily, SequenceVerdict } from './types.js';

/** The read that shows a booking usable when the plan has no AmendmentPriceRequest case. */
export const DEFAULT_READ: Params = {
  checkInDate: '2027-03-10T00:00:00',
  checkOutDate: '2027-03-17T00:00:00',
  language: 'en',
};

/** One sequence when the plan runs CancelBooking. */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelBooking');
  if (!cancel) return [];
  return [
    {
      op: cancel,
      spec: {
        family: 'cancel',
        pool: 'cancel',
        needs: 2 * (p.bindings.length + 1),
        readParams: p.firstParams('AmendmentPriceRequest') ?? DEFAULT_READ,
      },
      description:
        'AmendmentPriceRequest shows each booking usable; CancelBooking of each in turn, a binding '
        + 'each, is never answered "already cancelled"; a second cancellation may go either way',
    },
  ];
}

/** The cancellations of a cancel or cancel-transfer sequence, and their verdicts. */
export async function cancellations({
  bindings: bs,
  op,
  spec,
  bookings,
  call,
  note,
}: FamilyRun): Promise<SequenceVerdict[]> {
  const transfers = spec.pool === 'transfers';
  const kind = transfers ? 'transfer booking' : 'booking';
  const cancelParams = (b: Booking): Params =>
    transfers ? { language: 'en', email: b.email ?? '' } : { language: 'en' };
  // Each booking's usability, read first (transfer bookings have no read: not known).
  const usable = new Map<string, string | true>();
  if (!transfers) {
    const read = findOperation('AmendmentPriceRequest')!;
    const reads = bookings.map((b, k) => ({
      b,
      r: call(read, bs[k % bs.length]!, { ...spec.readParams, bookingID: b.id }, b),
    }));
    for (const { b, r: pending } of reads) {
      const r = await pending;
      usable.set(b.id, r.kind === 'accepted' ? true : `AmendmentPriceRequest answered ${r.how}`);
    }
  }
  // Two rounds, the bindings in order and then reversed, each closed by one more cancellation, so
  // every binding's cancellation is followed by another's, and by a different binding's in each round.
  const half = Math.ceil(bookings.length / 2);
  const order: BindingId[] = [
    ...bookings.slice(0, half).map((_, k) => bs[k % bs.length]!),
    ...bookings.slice(half).map((_, k) => [...bs].reverse()[k % bs.length]!),
  ];
  interface Leak {
    readonly booking: Booking;
    readonly binding: BindingId;
    readonly before: { booking: Booking; binding: BindingId };
    readonly how: string;
  }
  const leaks: Leak[] = [];
  const judged = new Set<BindingId>();
  const cleanCanceller = new Set<BindingId>();
  const cleanObserver = new Set<BindingId>();
  let ambiguousSeen = false;
  const notJudged: string[] = [];
  let before: { booking: Booking; binding: BindingId } | undefined;
  for (const [k, b] of bookings.entries()) {
    const binding = order[k]!;
    const u = usable.get(b.id);
    if (u !== undefined && u !== true) {
      notJudged.push(`booking ${b.id} is not usable (${u})`);
      continue;
    }
    const r = await call(op, binding, cancelParams(b), b);
    if (r.ambiguous) {
      ambiguousSeen = true;
      // Whether the cancellation took effect, a second one tells (cancelling twice changes nothing more).
      const again = await call(op, binding, cancelParams(b), b);
      const known = again.alreadyCancelled || again.kind === 'accepted';
      note(
        r.n,
        again.alreadyCancelled
          ? 'a second cancellation answered "already cancelled": it took effect'
          : again.kind === 'accepted'
            ? 'a second cancellation was accepted: it had not taken effect'
            : `a second cancellation answered ${again.how}: the booking's state is unknown`,
      );
      if (again.kind === 'accepted' && !again.alreadyCancelled) {
        judged.add(binding);
        if (before) judged.add(before.binding);
      }
      // Carry on from what is true: the booking is cancelled now (else the last one known cancelled stays the one
      // before).
      if (known) before = { booking: b, binding };
      continue;
    }
    if (r.alreadyCancelled && before) leaks.push({ booking: b, binding, before, how: r.how });
    else if (r.alreadyCancelled)
      notJudged.push(`${kind} ${b.id} answered "already cancelled" before this sequence cancelled anything`);
    else if (r.kind === 'accepted') {
      judged.add(binding);
      if (before) {
        judged.add(before.binding);
        // Seen working: that binding's cancellation leaked nothing into this one, and this one read no leak.
        cleanCanceller.add(before.binding);
        cleanObserver.add(binding);
      }
    }
    if (r.kind === 'accepted') before = { booking: b, binding };
  }
  // A second cancellation of the first booking, through another binding: never a failure, either way.
  const first = bookings[0];
  if (first && (usable.get(first.id) ?? true) === true) await call(op, bs[1 % bs.length]!, cancelParams(first), first);

  // Whose fault is a leak: a binding that answers "already cancelled" whichever binding cancelled
  // before it is the answering one; one whose cancellation is followed by "already cancelled"
  // whichever binding answers next is the cancelling one; otherwise both are named.
  const observers = new Set(leaks.map((l) => l.binding));
  const cancellers = new Set(leaks.map((l) => l.before.binding));
  // When an ambiguous cancellation took the answers the leaks would have been told apart by (one
  // canceller, one observer left), a binding seen working in that role elsewhere in the sequence is
  // cleared. Only then: a leak that depends on the bookings (one customer's) leaves a binding
  // working for others, and a quiet run has the evidence of both rounds.
  const thin = ambiguousSeen && cancellers.size === 1 && observers.size === 1;
  const blame = (l: Leak): BindingId[] =>
    observers.size === 1 && cancellers.size > 1
      ? [l.binding]
      : cancellers.size === 1 && observers.size > 1
        ? [l.before.binding]
        : thin
            && l.before.binding !== l.binding
            && cleanCanceller.has(l.before.binding)
            && !cleanObserver.has(l.binding)
          ? [l.binding]
          : thin
              && l.before.binding !== l.binding
              && cleanObserver.has(l.binding)
              && !cleanCanceller.has(l.before.binding)
            ? [l.before.binding]
            : [...new Set([l.before.binding, l.binding])];
  const findings = new Map<BindingId, Finding[]>();
  for (const l of leaks) {
    const f: Finding = {
      check: SEQUENCE_CHECK,
      code: 'cancellation_leaked',
      path: `/${op.resultElement}/Error`,
      message:
        `${op.name} ${l.before.binding} `
        + `→ ${op.name} ${l.binding}: ${kind} ${l.booking.id}${transfers ? '' : ', seen usable,'} was `
        + `never cancelled by this run, `
        + `but answered "already cancelled" (${l.how}) right after ${l.before.booking.id} was cancelled `
        + `through ${l.before.binding}: state leaks between bookings`
        + (transfers && l.before.booking.email === l.booking.email ? ` (both of customer ${l.booking.email})` : ''),
      expected: `${l.booking.id} cancellable`,
      actual: l.how,
    };
    for (const b of blame(l)) findings.set(b, [...(findings.get(b) ?? []), f]);
  }
  return bs.map((b) => {
    if (findings.has(b)) return { op, binding: b, outcome: findings.get(b)! };
    if (judged.has(b)) return { op, binding: b, outcome: [] };
    return {
      op,
      binding: b,
      outcome: [],
      skipped:
        `not `
        + `judged: ${notJudged.length ? notJudged.join('; ') : 'no cancellation through this binding was followed by another'}`
        + `: give bookings.${spec.pool} ${kind}s that can still be cancelled`,
    };
  });
}

/** The cancel family. */
export const cancelFamily: SequenceFamily = { name: 'cancel', caseId: 'seq-cancel', plan, run: cancellations };
