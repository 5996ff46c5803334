/**
 * The rejected calls read back by the first real call on their booking, where no family reads it
 * back (no read exists: a transfer booking), and the pool bookings a run's calls found unusable
 * (issue 40). Moved whole from ./run.ts.
 */
import type { BindingId } from '../contract/catalogue.js';
import { bindingField, SEQUENCE_CHECK } from '../core/rows.js';
import type { BookingUse, ResultRow } from '../core/types.js';
import { ALREADY_CANCELLED, NOT_FOUND } from '../equivalence/acceptance.js';
import { shownLive, type RunPlan, type Unit } from './plan.js';
import { poolKey, type UnusableBooking } from './pool-check.js';
import type { RowMaker } from './rows.js';
import type { Checked } from './check-exchange.js';

/**
 * The rejected calls of an operation no family reads back (Unit.rejectedBefore: CancelTransferBooking,
 * whose booking no operation reads; the plan decides, ./plan-bookings.ts) went against the first
 * binding's booking of this case: its call now is their read-back. Answered "already cancelled", a
 * rejected call cancelled it, but only if the booking was shown live before them (issue 40: the
 * embedded mock, started by this run). With no read of it, on another target "already cancelled" or
 * "not found" on its first call is the pool's (an earlier run used it, or it is not there): not
 * tested, never a row against the target (the run says so and is INCOMPLETE: spentUnusable).
 */
export function rejectedBeforeRows(
  plan: RunPlan,
  rows: RowMaker,
  unit: Unit,
  checked: readonly { binding: BindingId; value: Checked }[],
): ResultRow[] {
  const first = plan.bindings[0]!;
  const outcome = checked.find((c) => c.binding === first)?.value.bookingOutcome;
  const booking = unit.bookings?.[first];
  if (!booking || outcome === undefined) return [];
  const calls = unit.rejectedBefore!;
  const through = [...new Set(calls.map((c) => c.binding))];
  const kind = booking.pool === 'transfers' ? 'transfer booking' : 'booking';
  // The row is this case's (its re-run sends this case, whose cancellation is the read-back again).
  const base = { op: unit.op, binding: bindingField(through), caseId: unit.caseId, reproduce: '' };
  if (shownLive(plan, booking) === undefined) {
    if (!ALREADY_CANCELLED.test(outcome) && !NOT_FOUND.test(outcome)) return [];
    return [
      rows.row(base, SEQUENCE_CHECK, {
        skipped:
          `not tested: ${kind} ${booking.id} of \`bookings.${booking.pool}\` answered ${outcome} on its `
          + `first cancellation, through ${first}, `
          + `after ${calls.length} rejected calls: no read of it exists, so it was never shown live, and `
          + `a booking an earlier run used (or one not on the target) `
          + "cannot be told from one a rejected call cancelled: the pool's, not the target's",
      }),
    ];
  }
  if (!ALREADY_CANCELLED.test(outcome)) return [];
  return [
    rows.row(base, SEQUENCE_CHECK, [
      {
        check: SEQUENCE_CHECK,
        code: 'rejected_call_changed_state',
        path: `/${unit.op.resultElement}/Error`,
        message:
          `${unit.op.name} of ${kind} ${booking.id} answered ${outcome} through ${first}, `
          + `and the run sent it only ${calls.length} rejected calls before `
          + `(${calls.map((c) => `${c.caseId} through ${c.binding}`).join(', ')}): a rejected call `
          + `cancelled it`,
        expected: `${booking.id} cancellable after its rejected calls`,
        actual: outcome,
      },
    ]),
  ];
}

/**
 * The pool bookings found unusable by the calls the run spent on them (issue 40): a booking never
 * shown live (a transfer booking: no read exists) none of whose own calls (the run's account, no
 * rejected call) was accepted, and one of which answered "already cancelled" or "not found". It is
 * the pool's (an earlier run used it, or it is not on the target): its calls are not tested, and the
 * run is INCOMPLETE, naming it. A booking once accepted was live: a later "already cancelled" is the
 * sequences' to judge; so is one a call of ours may have cancelled without its answer reaching us (a
 * write dropped after the target did it: ambiguous, no response).
 */
export function spentUnusable(plan: RunPlan, units: readonly Unit[], used: readonly BookingUse[][]): UnusableBooking[] {
  const by = new Map<string, { use: BookingUse; accepted: boolean; dead?: BookingUse; unknown?: boolean }>();
  used.forEach((uses, i) => {
    if (units[i]!.calls === 'rejection') return;
    for (const u of uses) {
      if (u.account !== undefined) continue;
      const booking = { pool: u.pool as UnusableBooking['pool'], id: u.id };
      if (shownLive(plan, booking) !== undefined) continue;
      const k = poolKey(booking);
      const e = by.get(k) ?? { use: u, accepted: false };
      by.set(k, e);
      if (u.outcome === 'accepted') e.accepted = true;
      // A call of ours left without a real answer (a write the network dropped after the target did
      // it) may be what cancelled it: "already cancelled" afterwards is then no evidence against the pool.
      else if (/^(unknown|ambiguous|no response)\b/.test(u.outcome)) e.unknown = true;
      else if (!e.dead && (ALREADY_CANCELLED.test(u.outcome) || NOT_FOUND.test(u.outcome))) e.dead = u;
    }
  });
  return [...by.values()]
    .filter((e) => !e.accepted && !e.unknown && e.dead)
    .map(({ dead: d }) => ({
      pool: d!.pool as UnusableBooking['pool'],
      id: d!.id,
      spent: true as const,
      found:
        `${d!.operation} ${d!.binding} (case ${d!.case}) answered ${d!.outcome} on its first `
        + `cancellation, no read of it existing`,
    }));
}
