/**
 * foreign-account-transfer: a transfer booking of the run's account (a `transfers` pool booking),
 * cancelled through every binding with the second account's credentials and its own customer's
 * email: each must be refused (a transfer booking is not the email's to cancel, whatever the
 * account). Then its own account cancels it: accepted, it was still cancellable. A cancellation let
 * through is `foreign_booking_changed` on its binding; "already cancelled" to its own account after
 * refused calls names every binding that sent one. A transfer booking has no read, so its own
 * account's cancellation is the read-back.
 */
import { changedAfterRefusal, FOREIGN_STAGE, foreignOutcome, ForeignVerdicts, notPlannedWithoutOther, notTested } from './foreign-account.js';
import type { FamilyRun, PlanView, PlannedSequence, SequenceFamily, Verdict } from './types.js';

/** One sequence when a second account is given and the plan runs CancelTransferBooking. */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelTransferBooking');
  if (!p.otherAccount || !cancel) return [];
  return [{
    op: cancel, stage: FOREIGN_STAGE,
    spec: { family: 'foreign-account-transfer', pool: 'transfers', needs: 1 },
    description: 'a transfer booking of this account cancelled through every binding with the second account\'s credentials and its customer\'s email: '
      + 'each refused; then its own account cancels it (still cancellable)',
  }];
}

async function foreignTransfer({ bindings: bs, op: cancel, bookings, call }: FamilyRun): Promise<Verdict[]> {
  const booking = bookings[0];
  const other = 'the second account';
  if (!booking) return notTested([cancel], bs, 'no booking of bookings.transfers was given to it');
  const params = { language: 'en', email: booking.email ?? '' };
  const v = new ForeignVerdicts();
  for (const binding of bs) v.set(cancel, binding, foreignOutcome(cancel, binding, booking, await call(cancel, binding, params, booking, undefined, 'other'), other));
  const own = await call(cancel, bs[0]!, params, booking);
  if (own.alreadyCancelled && v.through(cancel).length === 0) {
    const refused = v.refused(cancel);
    for (const b of refused) v.add(cancel, b, changedAfterRefusal(cancel, booking, other, refused, `could not cancel it: "already cancelled" (${own.how})`));
  } else if (own.kind !== 'accepted' && !own.alreadyCancelled && v.through(cancel).length === 0) {
    // Neither account could cancel it: nothing shows the refusals were about another account's booking.
    return notTested([cancel], bs, `transfer booking ${booking.id} could not be cancelled by its own account either (CancelTransferBooking ${bs[0]} answered ${own.how}): `
      + 'give bookings.transfers bookings that can be cancelled');
  }
  return v.verdicts(`transfer booking ${booking.id} of this account refused to the second account through every binding; its own account then cancelled it`);
}

/** The foreign-account-transfer family. */
export const foreignAccountTransferFamily: SequenceFamily = {
  name: 'foreign-account-transfer', caseId: 'seq-foreign-account-transfer', plan, run: foreignTransfer, notPlanned: notPlannedWithoutOther('CancelTransferBooking'),
};
