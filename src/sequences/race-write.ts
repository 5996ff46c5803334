/**
 * race-write: once the write-read sequence has ended, its first booking (no booking of its own) is
 * read through every binding (a connection each), then written at the same moment through every
 * binding, each with a text of its own; then read back through every binding. Every binding must
 * read the same text, and it must be exactly one of those written. Anything else is
 * `race_torn_write`, pinned on the write (UpdateSpecialRequest) and every binding that wrote. Writes
 * that did not overlap leave the race not tested; so does a write the service did not answer itself
 * (a gateway page, a reset, a time-out), naming the step.
 */
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import { unansweredRace } from './race-cancel.js';
import { writeReadFamily } from './write-read.js';
import { q } from './runner.js';
import type { FamilyRun, PlanView, PlannedSequence, SequenceFamily, SequenceVerdict } from './types.js';

/**
 * The text each binding writes in the race: letters, digits and hyphens only, under 255 characters
 * (what an encoding or a column mangles is write-read's to find), between a start and an end mark
 * of its own, so a text made of two writes shows both writers' marks.
 */
export function raceText(k: number, binding: string): string {
  return `${startMark(k)}-race-write-through-${binding}-${`${binding}-wrote-this-whole-text-`.repeat(5)}${endMark(k)}`;
}
const startMark = (k: number) => `QSTART${k}Q`;
const endMark = (k: number) => `QEND${k}Q`;

/** The writers whose marks a text holds. */
function writersIn(text: string, n: number): number[] {
  return Array.from({ length: n }, (_, k) => k).filter((k) => text.includes(startMark(k)) || text.includes(endMark(k)));
}

/** One race when the write-read sequence is planned (on its bookings). */
function plan(p: PlanView): PlannedSequence[] {
  const update = p.has('UpdateSpecialRequest');
  if (!update || !p.maySend(update)) return [];
  return [
    {
      op: update,
      spec: { family: 'race-write', pool: 'specialRequest', needs: 0, after: writeReadFamily },
      description:
        'one booking written at the same moment through every binding, a text each: afterwards every '
        + 'binding reads the same text, exactly one of those written',
      stage: 'race-write',
    },
  ];
}

async function writeRace({ bindings: bs, op, spec, bookings, together, ops }: FamilyRun): Promise<SequenceVerdict[]> {
  const booking = bookings[0];
  const notTested = (why: string): SequenceVerdict[] =>
    bs.map((binding) => ({ op, binding, outcome: [], skipped: `not tested: ${why}` }));
  if (!booking) return notTested('no booking of the write-read sequence to use again');
  const get = ops('GetSpecialRequest');
  const readAll = () =>
    together(bs.map((binding) => ({ op: get, binding, params: { bookingId: booking.id }, booking })));
  const warm = await readAll();
  if (warm.unanswered)
    return notTested(`${warm.unanswered}, so booking ${booking.id} was not shown readable: the race was not run`);
  const unusable = warm.reads.find((r) => r.kind !== 'accepted');
  if (unusable)
    return notTested(
      `booking ${booking.id} cannot be read (GetSpecialRequest answered ${unusable.how}): give `
        + `bookings.${spec.pool} bookings that exist`,
    );
  const texts = bs.map((b, k) => raceText(k, b));
  const race = await together(
    bs.map((binding, k) => ({ op, binding, params: { text: texts[k]! }, booking, text: texts[k]! })),
  );
  const sentOver = Number.isNaN(race.spreadMs) ? 'not every write was answered' : `sent within ${race.spreadMs} ms`;
  // Read back whether or not the writes overlapped: the run sends the same calls either way (its coverage and ledger do
  // not depend on timing).
  const after = await readAll();
  // A write the service did not answer itself (a gateway page, a reset, a time-out): whether the writes overlapped is
  // unknown.
  if (race.unanswered)
    return notTested(unansweredRace(race.unanswered, `${bs.length} writes of booking ${booking.id}`));
  if (!race.overlapped)
    return notTested(
      `the ${bs.length} writes of booking ${booking.id} did not overlap (${sentOver}; one was answered `
        + `before the last went): the target serialises them`,
    );
  const wrote = bs.filter((_, k) => race.reads[k]!.kind === 'accepted');
  if (wrote.length === 0)
    return notTested(`no write of booking ${booking.id} was accepted (${race.reads.map((r) => r.how).join('; ')})`);
  // A write left ambiguous (no real answer, never re-sent) may have taken effect: its text counts as one written.
  const written = texts.filter((_, k) => race.reads[k]!.kind === 'accepted' || race.reads[k]!.ambiguous);
  const read = bs.map((b, k) => ({ b, r: after.reads[k]! })).filter((x) => x.r.kind === 'accepted');
  if (read.length === 0)
    return notTested(`booking ${booking.id} could not be read back (${after.reads.map((r) => r.how).join('; ')})`);
  const seen = [...new Set(read.map((x) => x.r.text ?? ''))];
  if (seen.length === 1 && written.includes(seen[0]!)) {
    // Said the same way every run (which write won, and by how much, differ): reports of two runs compare equal.
    const note =
      `${wrote.length} writes of booking ${booking.id} at once, all in flight together: every binding `
      + `reads the same text, one of those written`;
    return bs.map((binding) => ({ op, binding, outcome: [], note }));
  }
  // Torn: a text holding the marks of two writers, or bindings reading different texts, each one written.
  const mixed = seen.filter((t) => writersIn(t, bs.length).length > 1);
  const split = mixed.length === 0 && seen.length > 1 && seen.every((t) => written.includes(t));
  if (mixed.length === 0 && !split) {
    // A text none of the writes sent nor a mix of them: a write or a read that changes the text, write-read's to find.
    return notTested(
      `booking ${booking.id} reads back ${seen.map((t) => q(t)).join(' | ')}, none of the texts written `
        + `nor a mix of them (a write or read that changes a text is seq-write-read's to find)`,
    );
  }
  const finding: Finding = {
    check: SEQUENCE_CHECK,
    code: 'race_torn_write',
    path: `/${get.resultElement}/text`,
    message:
      `UpdateSpecialRequest of booking ${booking.id} through ${wrote.join(', ')} at once (${sentOver}, `
      + `all in flight together), then GetSpecialRequest through every binding: `
      + (mixed.length
        ? `the text read holds parts of ${writersIn(mixed[0]!, bs.length)
            .map((k) => bs[k])
            .join(' and ')}'s writes (${q(mixed[0])})`
        : `the bindings read different texts, each one written `
          + `(${read.map((x) => `${x.b}: ${q(x.r.text)}`).join('; ')})`)
      + ': overlapping writes left a torn or mixed text',
    expected: 'one of the texts written, the same through every binding',
    actual: seen.map((t) => q(t)).join(' | '),
  };
  return bs.map((binding) => ({ op, binding, outcome: wrote.includes(binding) ? [finding] : [] }));
}

/** The race-write family. */
export const raceWriteFamily: SequenceFamily = {
  name: 'race-write',
  caseId: 'seq-race-write',
  plan,
  run: writeRace,
  follows: writeReadFamily,
};
