/**
 * The stages of a run, in the order they run: one ordered list, each named. A unit of a stage starts
 * once every unit of an earlier stage that it depends on has ended (STAGE_WAITS; engine/schedule.ts
 * runs them); a unit without a stage is a sequence on bookings of its own, which runs beside every
 * stage from the start. Families
 * (./families.ts) and the plan (engine/plan.ts, engine/plan-bookings.ts) name a stage from this list;
 * none gives a number.
 *
 * - `reads`: every call that changes nothing, and the rejected calls (they must change nothing);
 * - `read-backs`: what reads the rejected calls' booking back (the `unchanged` family), and the login
 *   variants (compared with the wrong password's refusal, read in `reads`);
 * - `writes`: the real state-changing calls and the probes, the foreign-account sequences;
 * - `id-probes`: one identifier through every binding (./id-probe.ts), when no other call names one;
 * - the races, each alone, so every connection is free for their calls at once: a booking's
 *   cancellation, a transfer booking's, then the write race on write-read's booking.
 */
export const STAGES = [
  'reads',
  'read-backs',
  'writes',
  'id-probes',
  'race-cancel',
  'race-cancel-transfer',
  'race-write',
] as const;

export type StageName = (typeof STAGES)[number];

/** A stage's place in the order (a unit without a stage: the first's). */
export function stageRank(stage: StageName | undefined): number {
  return stage === undefined ? 0 : STAGES.indexOf(stage);
}

/** What a stage's rule sees of a unit: its operation, its stage, and whether it is a sequence (it reads bookings). */
export interface Staged {
  readonly op: { readonly name: string };
  readonly stage?: StageName;
  readonly sequence?: object;
}

/** Every unit of an earlier stage. */
const everyEarlier = (): boolean => true;

/**
 * Which units of an earlier stage a unit of each stage waits for (issue 43: what does not depend on
 * an earlier step runs beside it, and the connections stay busy across a stage's end). The first
 * three stages wait by real dependency, the rest for everything before them:
 *
 * - `read-backs` waits for its own operation's units only: the login variants are compared with
 *   the refusals of their operation (the wrong password, the bad requests: engine/check-exchange.ts),
 *   the `unchanged` read-back reads the booking its operation's rejected calls were sent against.
 * - `writes` waits for every read (a read may name a booking a write changes) and every read-back
 *   sequence (it reads the booking the writes then change); not for the login variants of the reads,
 *   which send no booking a write changes and whose answers no write's check reads.
 * - `id-probes` and the races wait for every unit before them: a race needs every connection free.
 */
export const STAGE_WAITS: Readonly<Record<StageName, (earlier: Staged, unit: Staged) => boolean>> = {
  reads: everyEarlier,
  'read-backs': (earlier, unit) => earlier.op.name === unit.op.name,
  writes: (earlier) => (earlier.stage ?? 'reads') === 'reads' || earlier.sequence !== undefined,
  'id-probes': everyEarlier,
  'race-cancel': everyEarlier,
  'race-cancel-transfer': everyEarlier,
  'race-write': everyEarlier,
};

/** Whether `unit` waits for `earlier` (of an earlier stage; neither a sequence beside the stages). */
export function waitsFor(earlier: Staged, unit: Staged): boolean {
  return stageRank(earlier.stage) < stageRank(unit.stage) && STAGE_WAITS[unit.stage ?? 'reads'](earlier, unit);
}
