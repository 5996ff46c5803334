/**
 * use-after-cancel: a cancelled booking sells nothing more. It takes no booking of its own: once the
 * cancel sequence (./cancel.ts) has ended, its first booking is cancelled again through the first
 * binding (answered "already cancelled", or accepted when that sequence could not cancel it: either
 * way it is cancelled now, anything else leaves the family not judged); then AmendmentPriceRequest
 * and AmendmentRequest of it, through every binding, must be refused in-band. A price quoted or an
 * amendment accepted is `use_after_cancel`, pinned on the operation and binding that answered it.
 * UpdateSpecialRequest of it through every binding is sent and recorded (the report's bookings list
 * what each binding answered, the rows say it), not judged: the contract sets no rule for it; it is
 * not sent for a booking id that is no xs:int (its bookingId is one).
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import { cancelFamily, DEFAULT_READ } from './cancel.js';
import type { FamilyRun, PlanView, PlannedSequence, SequenceFamily, SequenceVerdict } from './types.js';

/**
 * The operations judged, when the plan runs them: each prices or changes a booking, so a cancelled one must be refused.
 */
const JUDGED = ['AmendmentPriceRequest', 'AmendmentRequest'] as const;

/** One sequence when the plan runs CancelBooking and an amendment operation (on the cancel sequence's bookings). */
function plan(p: PlanView): PlannedSequence[] {
  const cancel = p.has('CancelBooking');
  const judged = JUDGED.filter((n) => p.has(n));
  if (!cancel || judged.length === 0) return [];
  const params = Object.fromEntries(JUDGED.map((n) => [n, { ...(p.firstParams(n) ?? DEFAULT_READ) }]));
  return [
    {
      op: cancel,
      spec: {
        family: 'use-after-cancel',
        pool: 'cancel',
        needs: 0,
        after: cancelFamily,
        judges: judged,
        stepParams: params,
        ...(p.has('UpdateSpecialRequest') ? { records: ['UpdateSpecialRequest'] } : {}),
      },
      description:
        'after the cancel sequence: AmendmentPriceRequest and AmendmentRequest of a cancelled booking, '
        + 'through every binding, are refused in-band (UpdateSpecialRequest of it is recorded, not judged)',
    },
  ];
}

async function useAfterCancel({
  bindings: bs,
  op: cancel,
  spec,
  bookings,
  call,
  ops,
}: FamilyRun): Promise<SequenceVerdict[]> {
  const judged = (spec.judges ?? []).map((n) => ops(n));
  const booking = bookings[0];
  const notJudged = (why: string): SequenceVerdict[] =>
    judged.flatMap((op) => bs.map((binding) => ({ op, binding, outcome: [], skipped: `not judged: ${why}` })));
  if (!booking) return notJudged('no booking of the cancel sequence to use again');
  const confirmed = await call(cancel, bs[0]!, { language: 'en' }, booking);
  // No answer of the service's (a gateway page, a reset, a time-out): the network's, not the pool's.
  if (confirmed.unanswered)
    return notJudged(
      `step ${confirmed.n} (CancelBooking ${bs[0]}) got ${confirmed.unanswered}, so `
        + `booking ${booking.id} was not shown cancelled; run again`,
    );
  if (!confirmed.alreadyCancelled && confirmed.kind !== 'accepted') {
    return notJudged(
      `booking ${booking.id} could not be shown cancelled (CancelBooking ${bs[0]} `
        + `answered ${confirmed.how}): give bookings.cancel bookings that can be cancelled`,
    );
  }
  const verdicts: SequenceVerdict[] = [];
  for (const op of judged) {
    for (const binding of bs) {
      const r = await call(op, binding, { ...spec.stepParams?.[op.name], bookingID: booking.id }, booking);
      if (r.kind === 'rejected') {
        verdicts.push({ op, binding, outcome: [] });
        continue;
      }
      if (r.kind === 'unknown') {
        verdicts.push({
          op,
          binding,
          outcome: [],
          skipped: `not judged: ${op.name} ${binding} of cancelled booking ${booking.id} answered ${r.how}`,
        });
        continue;
      }
      verdicts.push({
        op,
        binding,
        outcome: [
          usedAfterCancel(
            op,
            binding,
            booking.id,
            confirmed.alreadyCancelled ? 'the cancel sequence' : `CancelBooking ${bs[0]}`,
          ),
        ],
      });
    }
  }
  // Recorded, not judged: what the target does with a special request of a cancelled booking.
  const recorded: string[] = [];
  for (const name of spec.records ?? []) {
    // UpdateSpecialRequest names its booking by an xs:int: a booking id that is none cannot be sent.
    if (!/^\s*[+-]?\d+\s*$/.test(booking.id)) {
      recorded.push(`${name} of it not sent: its id ${booking.id} is no xs:int (the bookingId ${name} takes)`);
      continue;
    }
    const answers: string[] = [];
    for (const binding of bs) {
      const r = await call(
        ops(name),
        binding,
        { text: `conformance: special request of cancelled booking ${booking.id} through ${binding}` },
        booking,
      );
      answers.push(`${binding} ${r.how}`);
    }
    recorded.push(`${name} of it, not judged (the contract sets no rule): ${answers.join(', ')}`);
  }
  const note = `booking ${booking.id} cancelled, then refused${recorded.length ? `; ${recorded.join('; ')}` : ''}`;
  return verdicts.map((v) => (v.outcome.length === 0 && !v.skipped ? { ...v, note } : v));
}

function usedAfterCancel(op: Operation, binding: BindingId, id: string, by: string): Finding {
  const what = op.name === 'AmendmentRequest' ? 'accepted an amendment of it' : 'quoted an amendment price for it';
  return {
    check: SEQUENCE_CHECK,
    code: 'use_after_cancel',
    path: `/${op.resultElement}/Error`,
    message:
      `CancelBooking → ${op.name} ${binding}: booking ${id} was cancelled (by ${by}), yet ${op.name} `
      + `through ${binding} ${what} instead of refusing it in-band`,
    expected: `an in-band Error: booking ${id} is cancelled`,
    actual: 'accepted',
  };
}

/** The use-after-cancel family. */
export const useAfterCancelFamily: SequenceFamily = {
  follows: cancelFamily,
  name: 'use-after-cancel',
  caseId: 'seq-use-after-cancel',
  plan,
  run: useAfterCancel,
};
