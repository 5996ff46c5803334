/**
 * unchanged: the read-back of an operation's rejected calls, after they were sent against one live
 * booking (the plan hands it that booking and names the calls: SequenceSpec.readsBack). An operation
 * it plans no read-back for (a transfer booking has no read) is read back by its first case's real
 * call on the same booking (engine/rejected-before.ts).
 */
import type { BindingId } from '../contract/catalogue.js';
import { findOperation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import type { FamilyRun, PlanView, PlannedSequence, RejectedCall, SequenceFamily, SequenceVerdict } from './types.js';

/**
 * The rejected calls of an operation changed nothing: their booking reads back through every
 * binding without any text a rejected write sent (each names its call: the finding is pinned on that
 * call's binding), and a booking a rejected cancellation or amendment was sent for is still usable
 * (AmendmentPriceRequest prices it; a cancelled one is refused). A booking that cannot be read at all
 * is not judged (the pool's problem, said in the row). The verdict needs evidence (issue 40): a
 * booking not shown live before the rejected calls (spec.shownLive: the engine's pool check read it,
 * or the run started the embedded mock) may have been used up by an earlier run, so what the calls
 * did cannot be told: every row is not tested, naming the booking and its pool, and nothing is read.
 */
async function unchanged({ bindings: bs, op, spec, bookings, call }: FamilyRun): Promise<SequenceVerdict[]> {
  const booking = bookings[0]!;
  if (spec.shownLive === undefined) {
    const skipped =
      `not tested: booking ${booking.id} of \`bookings.${spec.pool}\` was not shown live before the `
      + `rejected calls sent against it `
      + '(no read of it before the run: the pool check reads the pools of a run with --allow-mutations), '
      + 'so a used booking could not be told from one they changed';
    return bs.map((b) => ({ op, binding: b, outcome: [], skipped }));
  }
  const rejected = spec.rejected ?? [];
  const sentThrough = [...new Set(rejected.map((r) => r.binding))];
  const names = (rs: readonly RejectedCall[]) => rs.map((r) => `${r.caseId} through ${r.binding}`).join(', ');
  const findings = new Map<BindingId, Finding[]>();
  const notJudged: string[] = [];
  const add = (b: BindingId, f: Finding) => findings.set(b, [...(findings.get(b) ?? []), f]);
  if (op.name === 'UpdateSpecialRequest') {
    const get = findOperation('GetSpecialRequest')!;
    const reads = bs.map((reader) => ({ reader, r: call(get, reader, { bookingId: booking.id }, booking) }));
    for (const { reader, r: pending } of reads) {
      const r = await pending;
      if (r.kind !== 'accepted') {
        notJudged.push(`GetSpecialRequest ${reader} of booking ${booking.id} answered ${r.how}`);
        continue;
      }
      const stored = rejected.find((x) => x.text !== undefined && x.text === r.text);
      if (!stored) continue;
      add(stored.binding, {
        check: SEQUENCE_CHECK,
        code: 'rejected_call_changed_state',
        path: `/${get.resultElement}/text`,
        message:
          `UpdateSpecialRequest ${stored.binding} (${stored.caseId}) was rejected, yet `
          + `GetSpecialRequest ${reader} of booking ${booking.id} reads the text it sent: `
          + `a rejected call changed the booking`,
        expected: 'none of the texts the rejected calls sent',
        actual: r.text ?? '(no text)',
      });
    }
  } else {
    const read = findOperation('AmendmentPriceRequest')!;
    const reads = bs.map((reader) => ({
      reader,
      r: call(read, reader, { ...spec.readParams, bookingID: booking.id }, booking),
    }));
    for (const { reader, r: pending } of reads) {
      const r = await pending;
      if (r.kind === 'accepted') continue;
      if (!r.alreadyCancelled) {
        notJudged.push(`AmendmentPriceRequest ${reader} of booking ${booking.id} answered ${r.how}`);
        continue;
      }
      // Which rejected call cancelled it cannot be told apart: every binding that sent one is named.
      for (const b of sentThrough) {
        add(b, {
          check: SEQUENCE_CHECK,
          code: 'rejected_call_changed_state',
          path: `/${read.resultElement}/Error`,
          message:
            `${op.name} was rejected (${names(rejected.filter((x) => x.binding === b))}, `
            + `among ${rejected.length} rejected calls through ${sentThrough.join(', ')}), `
            + `yet AmendmentPriceRequest ${reader} now finds booking ${booking.id} cancelled (${r.how}): `
            + `a rejected call changed the booking`,
          expected: `${booking.id} usable`,
          actual: r.how,
        });
      }
      break;
    }
  }
  return bs.map((b) => {
    if (findings.has(b)) return { op, binding: b, outcome: findings.get(b)! };
    if (notJudged.length === bs.length)
      return {
        op,
        binding: b,
        outcome: [],
        skipped: `not judged: ${notJudged.join('; ')}: give \`bookings.${spec.pool}\` bookings that exist`,
      };
    return { op, binding: b, outcome: [] };
  });
}

/**
 * What reads a booking back, per operation whose rejected calls it judges: none for a transfer booking (no read
 * exists).
 */
const READ_BACK: Readonly<Record<string, { pool: 'cancel' | 'amend' | 'specialRequest' }>> = {
  CancelBooking: { pool: 'cancel' },
  AmendmentRequest: { pool: 'amend' },
  UpdateSpecialRequest: { pool: 'specialRequest' },
};

/**
 * One read-back per state-changing operation with a read that the plan may send: it runs once the
 * rejected calls (`reads`) have ended, before the real calls (`writes`) change the booking; the plan
 * drops it where no rejected call was sent.
 */
function plan(p: PlanView): PlannedSequence[] {
  return Object.entries(READ_BACK).flatMap(([name, { pool }]) => {
    const op = p.has(name);
    if (!op || !p.maySend(op)) return [];
    const read = p.firstParams('AmendmentPriceRequest');
    return [
      {
        op,
        stage: 'read-backs' as const,
        spec: { family: 'unchanged', pool, needs: 0, readsBack: true, ...(read ? { readParams: read } : {}) },
        description: `the rejected calls of ${op.name} changed nothing: their booking reads back unchanged and usable`,
      },
    ];
  });
}

/** The unchanged family. */
export const unchangedFamily: SequenceFamily = {
  name: 'unchanged',
  caseId: 'seq-rejected-unchanged',
  plan,
  run: unchanged,
};
