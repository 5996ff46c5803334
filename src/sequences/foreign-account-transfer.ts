/**
 * foreign-account-transfer: a transfer booking of the run's account (a `transfers` pool booking),
 * cancelled through every binding with the second account's credentials and its own customer's
 * email: each must be refused (a transfer booking is not the email's to cancel, whatever the
 * account). Then its own account cancels it: accepted, it was this account's and still cancellable.
 * A transfer booking has no read, so its own account's cancellation is both the proof that the
 * booking is this account's and the read-back (issue 40): a cancellation let through is
 * `foreign_booking_changed` on its binding when its own account then cancels it, or finds it "already
 * cancelled" (the target calls it this account's, and let the other cancel it). Any other answer to
 * its own account is no verdict on the target, and says which pool: "not found" (the booking was
 * never this account's: on a service where an id exists on first touch, the second account's call
 * made it its own), or "already cancelled" after refused calls only (a pool booking used before, or a
 * refused call that cancelled it: without a read the two cannot be told apart).
 */
import { foreignOutcome, ForeignVerdicts, loggedIn, notPlannedWithoutOther, notTested } from './foreign-account.js';
import type { FamilyRun, PlanView, PlannedSequence, SequenceFamily, SequenceVerdict } from './types.js';

/** One sequence when a second account is given and the plan runs CancelTransferBooking. */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelTransferBooking');
  if (!p.otherAccount || !cancel) return [];
  return [
    {
      op: cancel,
      stage: 'writes',
      spec: { family: 'foreign-account-transfer', pool: 'transfers', needs: 1 },
      description:
        "a transfer booking of this account cancelled through every binding with the second account's "
        + "credentials and its customer's email: "
        + 'each refused; then its own account cancels it (still cancellable)',
    },
  ];
}

async function foreignTransfer(run: FamilyRun): Promise<SequenceVerdict[]> {
  const { bindings: bs, op: cancel, bookings, call } = run;
  const booking = bookings[0];
  const other = 'the second account';
  if (!booking) return notTested([cancel], bs, 'no booking of bookings.transfers was given to it');
  const login = await loggedIn(run);
  if (login.none) return notTested([cancel], bs, login.none);
  const params = { language: 'en', email: booking.email ?? '' };
  const v = new ForeignVerdicts();
  for (const binding of bs) {
    if (!login.proven.includes(binding)) {
      v.set(cancel, binding, { kind: 'unknown', why: login.why(binding) });
      continue;
    }
    v.set(
      cancel,
      binding,
      foreignOutcome(cancel, binding, booking, await call(cancel, binding, params, booking, undefined, 'other'), other),
    );
  }
  const own = await call(cancel, bs[0]!, params, booking);
  const through = v.through(cancel);
  const whose = `transfer booking ${booking.id} of \`bookings.transfers\``;
  // Cancelled by its own account: it was this account's, and still cancellable after the refused calls.
  if (own.kind === 'accepted')
    return v.verdicts(
      `${whose} refused to the second account through every binding where its login is proven; its own `
        + `account then cancelled it`,
    );
  // "Already cancelled" to its own account after a cancellation of the second account's was accepted:
  // the target calls the booking this account's, and let another account cancel it.
  if (own.alreadyCancelled && through.length > 0) {
    return v.verdicts(
      `${whose} refused to the second account through this binding; its cancellation was accepted `
        + `through ${through.join(', ')}, and its own account then found it "already cancelled"`,
    );
  }
  if (own.alreadyCancelled) {
    return notTested(
      [cancel],
      bs,
      `${whose} was not shown to be this account's and live: its own account's cancellation `
        + `(CancelTransferBooking ${bs[0]}) answered ${own.how}, "already cancelled": `
        + `either the pool's booking was cancelled before this run (give fresh bookings for every run), `
        + `or one of the second account's refused calls `
        + `(through ${v.refused(cancel).join(', ') || 'none'}) cancelled it; `
        + 'no read of a transfer booking exists to tell which, so no verdict on the target',
    );
  }
  return notTested(
    [cancel],
    bs,
    `${whose} was not shown to be this account's: its own account's cancellation `
      + `(CancelTransferBooking ${bs[0]}) answered ${own.how}`
      + `${own.kind === 'rejected' ? ' (not found, or not its own)' : ''}, so the second account's `
      + `refusals say nothing of authorization: `
      + 'give `bookings.transfers` transfer bookings of this account that can be cancelled',
  );
}

/** The foreign-account-transfer family. */
export const foreignAccountTransferFamily: SequenceFamily = {
  name: 'foreign-account-transfer',
  caseId: 'seq-foreign-account-transfer',
  plan,
  run: foreignTransfer,
  notPlanned: notPlannedWithoutOther('CancelTransferBooking'),
};
