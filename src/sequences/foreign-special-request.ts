/**
 * foreign-special-request: another account must neither read nor write this account's special
 * request. It takes no booking of its own: once the write-read sequence (./write-read.ts) has ended,
 * its first booking's text is read with the run's account (the text written last); then, through
 * every binding and with the second account's credentials, GetSpecialRequest of it must be refused
 * and reveal nothing (`foreign_booking_read`), and UpdateSpecialRequest of it, a text of its own per
 * binding, must be refused (`foreign_booking_changed`). Its own account then reads it through every
 * binding: a text the other account wrote, read back, is `foreign_booking_changed` on the binding
 * that wrote it, even when that write was answered with a rejection.
 */
import { findOperation, type BindingId } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import { foreignOutcome, ForeignVerdicts, loggedIn, notPlannedWithoutOther, notTested } from './foreign-account.js';
import { writeReadFamily } from './write-read.js';
import type { FamilyRun, PlanView, PlannedSequence, SequenceFamily, SequenceVerdict } from './types.js';

/** The text the second account tries to write through a binding: a binding's own, so a read-back names it. */
export const foreignText = (booking: string, binding: BindingId): string =>
  `conformance: the second account must not write booking ${booking} (through ${binding})`;

/** One sequence when a second account is given and write-read is planned (on its booking, once it has ended). */
function plan(p: PlanView): PlannedSequence[] {
  if (!p.otherAccount) return [];
  // As write-read (./write-read.ts): either operation brings it, the read alone where the write may be sent.
  const write = findOperation('UpdateSpecialRequest')!;
  const update = p.has('UpdateSpecialRequest') ?? (p.has('GetSpecialRequest') && p.maySend(write) ? write : undefined);
  if (!update) return [];
  return [
    {
      op: update,
      stage: 'writes',
      spec: { family: 'foreign-special-request', pool: 'specialRequest', needs: 0, after: writeReadFamily },
      description:
        "write-read's booking, its special request read and written through every binding with the "
        + "second account's credentials: each refused, "
        + 'nothing revealed; its own account then reads back its own text',
    },
  ];
}

async function foreignSpecialRequest(run: FamilyRun): Promise<SequenceVerdict[]> {
  const { bindings: bs, op: update, bookings, call, ops } = run;
  const get = ops('GetSpecialRequest');
  const booking = bookings[0];
  const other = 'the second account';
  if (!booking) return notTested([update, get], bs, 'no booking of the write-read sequence to use again');
  const login = await loggedIn(run);
  if (login.none) return notTested([update, get], bs, login.none);
  const mine = await call(get, bs[0]!, { bookingId: booking.id }, booking);
  if (mine.kind !== 'accepted') {
    return notTested(
      [update, get],
      bs,
      `booking ${booking.id} cannot be read by its own account (GetSpecialRequest ${bs[0]} `
        + `answered ${mine.how}): give bookings.specialRequest bookings that exist`,
    );
  }
  const v = new ForeignVerdicts();
  // Through a binding where its login is not proven, the second account's calls are not sent: not judged.
  const unproven = (op: typeof get, binding: BindingId): boolean => {
    if (login.proven.includes(binding)) return false;
    v.set(op, binding, { kind: 'unknown', why: login.why(binding) });
    return true;
  };
  for (const binding of bs) {
    if (unproven(get, binding)) continue;
    v.set(
      get,
      binding,
      foreignOutcome(
        get,
        binding,
        booking,
        await call(get, binding, { bookingId: booking.id }, booking, undefined, 'other'),
        other,
        mine.text,
      ),
    );
  }
  for (const binding of bs) {
    if (unproven(update, binding)) continue;
    const text = foreignText(booking.id, binding);
    v.set(
      update,
      binding,
      foreignOutcome(update, binding, booking, await call(update, binding, { text }, booking, text, 'other'), other),
    );
  }
  // Its own account reads it through every binding: a text of the other account's is that binding's write.
  const reads = await Promise.all(bs.map((reader) => call(get, reader, { bookingId: booking.id }, booking)));
  const seen = new Set<BindingId>();
  for (const [k, r] of reads.entries()) {
    const writer = bs.find((b) => r.kind === 'accepted' && r.text === foreignText(booking.id, b));
    if (!writer || seen.has(writer) || v.through(update).includes(writer)) continue;
    seen.add(writer);
    v.add(update, writer, {
      check: SEQUENCE_CHECK,
      code: 'foreign_booking_changed',
      path: `/${get.resultElement}/text`,
      message:
        `UpdateSpecialRequest ${writer} with the credentials of ${other}, of booking ${booking.id} of `
        + `this run's account, was refused, `
        + `yet GetSpecialRequest ${bs[k]} with its own account reads the text it sent: the refused write `
        + `changed another account's booking`,
      expected: mine.text === undefined ? '(no text)' : mine.text,
      actual: r.text ?? '(no text)',
    });
  }
  return v.verdicts(
    `booking ${booking.id}'s special request refused to the second account through every binding, read `
      + `and written; its own account reads its own text back`,
  );
}

/** The foreign-special-request family. */
export const foreignSpecialRequestFamily: SequenceFamily = {
  follows: writeReadFamily,
  name: 'foreign-special-request',
  caseId: 'seq-foreign-special-request',
  plan,
  alsoJudges: ['GetSpecialRequest'],
  run: foreignSpecialRequest,
  notPlanned: notPlannedWithoutOther('UpdateSpecialRequest'),
};
