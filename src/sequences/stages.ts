/**
 * The stages of a run, in the order they run: one ordered list, each named. A unit of a stage starts
 * once every unit of an earlier stage has ended (engine/schedule.ts runs them); a unit without a
 * stage is a sequence on bookings of its own, which runs beside every stage from the start. Families
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
