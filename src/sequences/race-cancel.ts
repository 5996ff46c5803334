/**
 * race-cancel: one fresh booking cancelled at the same moment through every binding, and twice
 * through the first (calls started in one tick, after a read through each binding has shown it usable
 * and opened a connection each). Exactly one call may be accepted; the others must be the
 * already-cancelled rejection. Two or more accepted is `race_double_accept`, pinned on the operation
 * and every binding whose call was accepted. Calls that did not overlap (the target, or the way to
 * it, serialises them) leave the race not tested, never passed; so does a call the service did not
 * answer itself (a gateway page, a reset, a time-out: the network's), naming that step and never
 * saying how the target orders calls. race-cancel-transfer
 * (./race-cancel-transfer.ts) races a transfer booking the same way (its read only opens the connections).
 */
import type { Params } from '../bindings/types.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import type {
  Booking,
  FamilyRun,
  GroupCall,
  PlanView,
  PlannedSequence,
  SequenceFamily,
  SequenceVerdict,
} from './types.js';
import { DEFAULT_READ } from './cancel.js';

/** One race when the plan runs CancelBooking: one booking of its own. */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelBooking');
  if (!cancel) return [];
  return [
    {
      op: cancel,
      spec: {
        family: 'race-cancel',
        pool: 'cancel',
        needs: 1,
        readParams: p.firstParams('AmendmentPriceRequest') ?? DEFAULT_READ,
      },
      description:
        'one booking cancelled at the same moment through every binding and twice through one: exactly '
        + 'one cancellation is accepted, every other is "already cancelled"',
      stage: 'race-cancel',
    },
  ];
}

/** A cancellation race and its verdicts (CancelBooking or CancelTransferBooking, by the spec's pool). */
export async function cancelRace({
  bindings: bs,
  op,
  spec,
  bookings,
  together,
  ops,
}: FamilyRun): Promise<SequenceVerdict[]> {
  const booking = bookings[0]!;
  const transfers = spec.pool === 'transfers';
  const kind = transfers ? 'transfer booking' : 'booking';
  const notTested = (why: string): SequenceVerdict[] =>
    bs.map((binding) => ({ op, binding, outcome: [], skipped: `not tested: ${why}` }));
  // A read through each binding of the race, at once, so each of its calls finds a connection open
  // (opening one as the race starts would space the calls out): for a booking, the read also shows it
  // usable; a transfer booking has no read, so any answer will do (AmendmentPriceRequest of its id
  // changes nothing).
  const read = ops('AmendmentPriceRequest');
  const through = [...bs, bs[0]!];
  const warm = await together(
    through.map((binding) => ({
      op: read,
      binding,
      params: { ...(spec.readParams ?? DEFAULT_READ), bookingID: booking.id },
      booking,
    })),
  );
  // A read the service did not answer (a gateway page, a reset, a time-out) says nothing of the booking: the network's,
  // not the pool's.
  if (!transfers && warm.unanswered)
    return notTested(`${warm.unanswered}, so booking ${booking.id} was not shown usable: the race was not run`);
  const unusable = warm.reads.find((r) => r.kind !== 'accepted');
  if (!transfers && unusable)
    return notTested(
      `booking ${booking.id} is not usable (AmendmentPriceRequest answered ${unusable.how}): give `
        + `bookings.${spec.pool} bookings that can be cancelled`,
    );
  const params = (b: Booking): Params => (transfers ? { language: 'en', email: b.email ?? '' } : { language: 'en' });
  const calls: GroupCall[] = through.map((binding) => ({ op, binding, params: params(booking), booking }));
  const race = await together(calls);
  const sentOver = Number.isNaN(race.spreadMs) ? 'not every call was answered' : `sent within ${race.spreadMs} ms`;
  // A call the service did not answer itself: whether the calls overlapped, and what the target made
  // of them, is unknown (the network's doing, not the target's): nothing is said of how it orders them.
  if (race.unanswered)
    return notTested(unansweredRace(race.unanswered, `${calls.length} cancellations of ${kind} ${booking.id}`));
  if (!race.overlapped) {
    return notTested(
      `the ${calls.length} cancellations of ${kind} ${booking.id} did not overlap (${sentOver}; one was `
        + `answered before the last went): the target serialises them`,
    );
  }
  const accepted = calls.filter((_, k) => race.reads[k]!.kind === 'accepted').map((c) => c.binding);
  const answers = calls.map((c, k) => `${c.binding}: ${race.reads[k]!.how}`).join('; ');
  // None accepted: the booking could not be cancelled at all, so the race showed nothing.
  if (accepted.length === 0)
    return notTested(
      `none of the ${calls.length} cancellations of ${kind} ${booking.id} was accepted (${answers}): `
        + `give bookings.${spec.pool} ${kind}s that can be cancelled`,
    );
  if (accepted.length <= 1) {
    // Said the same way every run (which call won, and by how much, differ): reports of two runs compare equal.
    const alreadyCancelled = race.reads.filter((r) => r.alreadyCancelled).length;
    const note =
      `${calls.length} cancellations of ${kind} ${booking.id} at once, all in flight `
      + `together: ${accepted.length} accepted, ${alreadyCancelled} "already cancelled"`;
    return bs.map((binding) => ({ op, binding, outcome: [], note }));
  }
  const finding: Finding = {
    check: SEQUENCE_CHECK,
    code: 'race_double_accept',
    path: `/${op.resultElement}`,
    message:
      `${op.name} of ${kind} ${booking.id} sent ${calls.length} times at once `
      + `(${calls.map((c) => c.binding).join(', ')}, ${sentOver}, all in flight together): `
      + `${accepted.length} were accepted (${accepted.join(', ')}), where one may be and the others must `
      + `be "already cancelled" (${answers})`,
    expected: 'exactly one cancellation accepted',
    actual: `${accepted.length} accepted`,
  };
  const involved = new Set(accepted);
  return bs.map((binding) => ({ op, binding, outcome: involved.has(binding) ? [finding] : [] }));
}

/**
 * Why a race with a call the service did not answer itself (./runner.ts unansweredSteps) is not
 * tested: the step, and that nothing is known of how the target orders calls (the network's doing).
 */
export function unansweredRace(steps: string, what: string): string {
  return (
    `${steps}: the service did not answer every one of the ${what} itself, so whether they overlapped and `
    + `what the target made of them is unknown (the network's doing, not the target's); run again`
  );
}

/** The race-cancel family. */
export const raceCancelFamily: SequenceFamily = {
  name: 'race-cancel',
  caseId: 'seq-race-cancel',
  plan,
  run: cancelRace,
};
