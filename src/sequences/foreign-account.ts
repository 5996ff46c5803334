/**
 * foreign-account: one agency must not reach another's bookings (broken object-level authorization, first of OWASP's
 * API Security Top 10). A booking of the run's account (a `cancel` pool booking) is first priced with that account, to
 * show it usable; then, through every binding and with the second account's credentials (`--other-user`, Target.other),
 * it is priced, amended and cancelled: each must be refused, as the target refuses a booking that does not exist or
 * with any rejection. Then its own account prices it again (still usable) and cancels it (still cancellable). A price
 * quoted to the other account is `foreign_booking_read`; an amendment or cancellation accepted, or a booking found
 * cancelled after the other account's refused calls, is `foreign_booking_changed`; each is pinned on the operation and
 * binding that let it through. Every family of the second account first asks whether its login is proven (loggedIn):
 * its calls are sent, and judged, only where it is. foreign-special-request (./foreign-special-request.ts) and
 * foreign-account-transfer (./foreign-account-transfer.ts) do the same for a special request and a transfer booking;
 * the helpers here are theirs too.
 */
import type { Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import { DEFAULT_READ } from './cancel.js';
import type { Booking, FamilyRun, PlanView, PlannedSequence, Read, SequenceFamily, SequenceVerdict } from './types.js';

/** What every report says when no second account is given (one note for the three families). */
export const NO_SECOND_ACCOUNT =
  'authorization across accounts was not tested: no second account was given. Give one with --other-user NAME and '
  + 'its password in CONFORMANCE_OTHER_PASSWORD (or target.otherUser and target.otherPasswordEnv in the config): '
  + "another agency's account of the same service, which must not reach this account's bookings "
  + '(docs/real-service.md, "A second account")';

/**
 * The note of a family that plans nothing for want of a second account, where it would run with one:
 * the plan runs `op` and may send it (without --allow-mutations the reports already say that state-changing
 * calls were not sent, and how to allow them; authorization needs them too).
 */
export const notPlannedWithoutOther =
  (op: string) =>
  (p: PlanView): string | undefined => {
    const o = p.has(op);
    return p.otherAccount || !o || !p.maySend(o) ? undefined : NO_SECOND_ACCOUNT;
  };

/** The operations judged, when the plan runs them, in the order sent: a read, then the calls that change a booking. */
const JUDGED = ['AmendmentPriceRequest', 'AmendmentRequest', 'CancelBooking'] as const;

/** One sequence when a second account is given and the plan runs CancelBooking (the own account's last call). */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelBooking');
  if (!p.otherAccount || !cancel) return [];
  const judges = JUDGED.filter((n) => p.has(n));
  const stepParams = Object.fromEntries(
    ['AmendmentPriceRequest', 'AmendmentRequest'].flatMap((n) => {
      const given = p.firstParams(n) ?? (n === 'AmendmentPriceRequest' ? DEFAULT_READ : undefined);
      return given ? [[n, { ...given }]] : [];
    }),
  );
  return [
    {
      op: cancel,
      stage: 'writes',
      spec: { family: 'foreign-account', pool: 'cancel', needs: 1, judges, stepParams },
      description:
        'a booking of this account, priced, amended and cancelled through every binding with the second '
        + "account's credentials: each refused; "
        + 'then its own account prices it (unchanged) and cancels it (still cancellable)',
    },
  ];
}

/** What the other account's call got: refused (held), let through (a finding), or not known (not judged). */
export type ForeignOutcome =
  | { readonly kind: 'refused' }
  | { readonly kind: 'through'; readonly finding: Finding }
  | { readonly kind: 'unknown'; readonly why: string };

/**
 * The verdict on one call of the other account. Accepted is let through: a read is
 * `foreign_booking_read`, a change `foreign_booking_changed`. A refusal that carries the booking's
 * own text all the same (`secret`) revealed it.
 */
export function foreignOutcome(
  op: Operation,
  binding: BindingId,
  booking: Booking,
  r: Read,
  other: string,
  secret?: string,
): ForeignOutcome {
  const kind = booking.pool === 'transfers' ? 'transfer booking' : 'booking';
  if (r.kind === 'unknown') return { kind: 'unknown', why: `${op.name} ${binding} as ${other} answered ${r.how}` };
  const revealed = r.kind === 'rejected' && secret !== undefined && secret !== '' && r.rejectedText === secret;
  if (r.kind === 'rejected' && !revealed) return { kind: 'refused' };
  const code = op.mutates ? 'foreign_booking_changed' : 'foreign_booking_read';
  const what = revealed
    ? `refused it but revealed its special request (${JSON.stringify(secret)})`
    : op.mutates
      ? `accepted it `
        + `(${op.name === 'CancelBooking' || op.name === 'CancelTransferBooking' ? 'cancelled' : 'changed'} `
        + `another account's ${kind})`
      : `answered with its `
        + `data${r.text !== undefined ? ` (${JSON.stringify(r.text.length > 120 ? `${r.text.slice(0, 120)}…` : r.text)})` : ''}`;
  return {
    kind: 'through',
    finding: {
      check: SEQUENCE_CHECK,
      code,
      path: `/${op.resultElement}${revealed ? '/text' : ''}`,
      message:
        `${op.name} ${binding} with the credentials of ${other}, of ${kind} ${booking.id} of this run's `
        + `account: the target ${what}; `
        + `another account's ${kind} must be refused as one that does not exist, and reveal nothing`,
      expected: `a rejection, as for a ${kind} that does not exist`,
      actual: revealed ? 'its special request revealed' : 'accepted',
    },
  };
}

/**
 * A finding on calls the target refused, after which its own account found the booking changed: every binding that sent
 * one is named.
 */
export function changedAfterRefusal(
  op: Operation,
  booking: Booking,
  other: string,
  through: readonly BindingId[],
  seen: string,
): Finding {
  const kind = booking.pool === 'transfers' ? 'transfer booking' : 'booking';
  return {
    check: SEQUENCE_CHECK,
    code: 'foreign_booking_changed',
    path: `/${op.resultElement}`,
    message:
      `${op.name} of ${kind} ${booking.id} with the credentials of ${other}, `
      + `through ${through.join(', ')}, was refused, yet its own account then ${seen}: `
      + "one of those calls changed another account's booking (which one cannot be told apart: each is named)",
    expected: `${booking.id} unchanged after the refused calls`,
    actual: seen,
  };
}

/** Verdicts of the other account's calls, per operation and binding, with findings added after the read-back. */
export class ForeignVerdicts {
  private readonly out = new Map<
    string,
    { op: Operation; binding: BindingId; outcome: ForeignOutcome; more: Finding[] }
  >();

  /** Records one call's outcome. */
  set(op: Operation, binding: BindingId, outcome: ForeignOutcome): void {
    this.out.set(`${op.name} ${binding}`, { op, binding, outcome, more: [] });
  }

  /** Bindings whose call of this operation was let through. */
  through(op: Operation): BindingId[] {
    return [...this.out.values()].filter((v) => v.op === op && v.outcome.kind === 'through').map((v) => v.binding);
  }

  /** Bindings whose call of this operation was refused. */
  refused(op: Operation): BindingId[] {
    return [...this.out.values()].filter((v) => v.op === op && v.outcome.kind === 'refused').map((v) => v.binding);
  }

  /** Adds a finding to a call's row (a change its own account found afterwards). */
  add(op: Operation, binding: BindingId, f: Finding): void {
    this.out.get(`${op.name} ${binding}`)?.more.push(f);
  }

  /** One verdict per call: its findings, passed with `note`, or why it was not judged. */
  verdicts(note: string): SequenceVerdict[] {
    return [...this.out.values()].map(({ op, binding, outcome, more }) => {
      const findings = [...(outcome.kind === 'through' ? [outcome.finding] : []), ...more];
      if (findings.length) return { op, binding, outcome: findings };
      if (outcome.kind === 'unknown') return { op, binding, outcome: [], skipped: `not judged: ${outcome.why}` };
      return { op, binding, outcome: [], note };
    });
  }
}

/** The bindings on which the second account's login is proven, why not on the others, and why on none (`none`). */
export interface LoggedIn {
  readonly proven: readonly BindingId[];
  readonly why: (binding: BindingId) => string;
  readonly none?: string;
}

/**
 * Where the second account's calls may be judged (issue 40): only on bindings where its login is
 * proven (FamilyRun.otherLogin, engine/other-login.ts), since with a wrong password every call of it
 * is refused as a wrong login and would pass as an authorization refusal. A family asks it before
 * anything else, so a login refused everywhere spends no booking.
 */
export async function loggedIn({
  bindings: bs,
  otherLogin,
}: Pick<FamilyRun, 'bindings' | 'otherLogin'>): Promise<LoggedIn> {
  const login = otherLogin ? await otherLogin() : undefined;
  const why = (b: BindingId) =>
    login ? login.unproven(b) : "the second account's login was not proven (no proof of it was given to this sequence)";
  const proven = bs.filter((b) => why(b) === undefined);
  const because = (b: BindingId) => why(b) ?? '';
  if (proven.length > 0) return { proven, why: because };
  return {
    proven,
    why: because,
    none: `${because(bs[0]!)}${bs.length > 1 ? ` (and likewise through ${bs.slice(1).join(', ')})` : ''}`,
  };
}

/** Rows of every operation judged, each saying why it was not tested. */
export const notTested = (ops: readonly Operation[], bs: readonly BindingId[], why: string): SequenceVerdict[] =>
  ops.flatMap((op) => bs.map((binding) => ({ op, binding, outcome: [], skipped: `not tested: ${why}` })));

async function foreignAccount(run: FamilyRun): Promise<SequenceVerdict[]> {
  const { bindings: bs, op: cancel, spec, bookings, call, ops } = run;
  const judged = (spec.judges ?? []).map((n) => ops(n));
  const booking = bookings[0];
  const other = 'the second account';
  if (!booking) return notTested(judged, bs, 'no booking of bookings.cancel was given to it');
  const login = await loggedIn(run);
  if (login.none) return notTested(judged, bs, login.none);
  const price = ops('AmendmentPriceRequest');
  const priceParams = { ...(spec.stepParams?.AmendmentPriceRequest ?? DEFAULT_READ), bookingID: booking.id };
  const before = await call(price, bs[0]!, priceParams, booking);
  if (before.kind !== 'accepted') {
    return notTested(
      judged,
      bs,
      `booking ${booking.id} is not usable by its own account (AmendmentPriceRequest ${bs[0]} `
        + `answered ${before.how}): give bookings.cancel bookings that can be cancelled`,
    );
  }
  const v = new ForeignVerdicts();
  for (const op of judged) {
    const params: Params =
      op === cancel ? { language: 'en' } : { ...spec.stepParams?.[op.name], bookingID: booking.id };
    for (const binding of bs) {
      // An amendment needs its case's parameters: without a hand-written case it is not sent.
      if (op !== cancel && !spec.stepParams?.[op.name]) {
        v.set(op, binding, { kind: 'unknown', why: `${op.name} has no hand-written case to send` });
        continue;
      }
      if (!login.proven.includes(binding)) {
        v.set(op, binding, { kind: 'unknown', why: login.why(binding) });
        continue;
      }
      const r = await call(op, binding, params, booking, undefined, 'other');
      v.set(op, binding, foreignOutcome(op, binding, booking, r, other));
    }
  }
  // Its own account: still usable, then still cancellable. Found cancelled, a refused call changed it.
  const after = await call(price, bs[0]!, priceParams, booking);
  const own = after.alreadyCancelled ? after : await call(cancel, bs[0]!, { language: 'en' }, booking);
  const changers = judged.filter((op) => op.mutates);
  let state = `booking ${booking.id} read back usable and cancelled by its own account`;
  if (own.alreadyCancelled && changers.every((op) => v.through(op).length === 0)) {
    const seen = after.alreadyCancelled
      ? `found it cancelled (AmendmentPriceRequest ${bs[0]}: ${after.how})`
      : `could not cancel it: "already cancelled" (${own.how})`;
    for (const op of changers)
      for (const b of v.refused(op)) v.add(op, b, changedAfterRefusal(op, booking, other, v.refused(op), seen));
  } else if (own.kind !== 'accepted' && !own.alreadyCancelled) {
    state = `its own account's read-back answered ${own.how}: whether a refused call changed it is not known`;
  }
  return v.verdicts(
    `booking ${booking.id} of this account refused to the second account through every binding; ${state}`,
  );
}

/** The foreign-account family. */
export const foreignAccountFamily: SequenceFamily = {
  name: 'foreign-account',
  caseId: 'seq-foreign-account',
  plan,
  run: foreignAccount,
  notPlanned: notPlannedWithoutOther('CancelBooking'),
};
