/**
 * The one scheduler of a run's units, for `conformance run` (./run.ts) and for the vitest suites that
 * start every unit at once (suites/conformance.test.ts): the stages (src/sequences/stages.ts), a unit
 * of each starting once the units of earlier stages it depends on have ended (STAGE_WAITS: a read-back
 * its own operation's, a write every read and read-back sequence, a race everything before it); a
 * sequence without a stage from the start, beside them all (its calls go one after another on
 * bookings of its own); a sequence that uses another family's bookings again (SequenceSpec.after)
 * once that family's unit has ended.
 *
 * Within those rules the target is kept busy (issue 43): a unit waits for nothing else, so the units
 * of a stage whose own dependencies have ended fill the connections while the last ones of the
 * stage before it are still checked. What runs at once is bounded by what it sends at once, not by a
 * count of units: a case counts its bindings (their answers are held until compared), a sequence one
 * (its calls go one at a time; a race's go together, past the bound, as the transport's burst lets
 * them). Units start in a fixed order (the sequences without a stage, then by stage, then the plan's
 * order), none overtaking an earlier one that is ready but does not fit, and each unit's result
 * keeps its place in the plan: the reports do not depend on which unit ended first.
 */
import { stageRank, waitsFor } from '../sequences/stages.js';
import type { Unit } from './unit.js';

/**
 * How much may run at once: a unit weighs `weight(u)`; those under way weigh at most `capacity` (one unit always may).
 */
export interface ScheduleBounds {
  readonly capacity: number;
  readonly weight: (u: Unit) => number;
}

/** A sequence that runs from the start, beside every stage: on bookings of its own, one call after another. */
export const runsBeside = (u: Pick<Unit, 'sequence' | 'stage'>): boolean =>
  u.sequence !== undefined && u.stage === undefined;

/**
 * Start every unit as the rules allow (unbounded when `bounds` is absent: the transport's concurrency
 * is then the only bound), each with its index in `units`; one promise per unit, in the units' order.
 * A unit whose start fails counts as ended: what waits for it is started all the same.
 */
export function schedule<T>(
  units: readonly Unit[],
  start: (u: Unit, i: number) => Promise<T>,
  bounds?: ScheduleBounds,
): Promise<T>[] {
  const rank = (i: number) => stageRank(units[i]!.stage);
  const beside = (i: number) => runsBeside(units[i]!);
  const order = [...units.keys()].sort((a, b) => Number(!beside(a)) - Number(!beside(b)) || rank(a) - rank(b) || a - b);
  // What each unit waits for: the units of earlier stages it depends on (none for a sequence
  // beside the stages, nor on one), and the unit whose bookings it uses again (not among these units:
  // a shard, --case: nothing).
  const deps = units.map((u, i) => {
    const on = beside(i) ? [] : [...units.keys()].filter((j) => !beside(j) && waitsFor(units[j]!, u));
    const after = u.sequence?.after;
    const followed = after === undefined ? -1 : units.findIndex((x) => x.sequence?.family === after.name);
    return followed < 0 ? on : [...on, followed];
  });
  // Counted down as they end (a pump after each end looks at every unit waiting: no list walked again).
  const left = deps.map((d) => d.length);
  const dependents = units.map((): number[] => []);
  for (const [i, d] of deps.entries()) for (const j of d) dependents[j]!.push(i);
  const ready = (i: number) => left[i] === 0;
  const settle: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const out = units.map(
    (_, i) =>
      new Promise<T>((resolve, reject) => {
        settle[i] = { resolve, reject };
      }),
  );
  const waiting = [...order];
  let inUse = 0;
  const pump = () => {
    for (let k = 0; k < waiting.length; k++) {
      const i = waiting[k]!;
      if (!ready(i)) continue;
      const w = bounds ? bounds.weight(units[i]!) : 0;
      // The first ready unit that does not fit waits for room, and no later one overtakes it.
      if (bounds && inUse > 0 && inUse + w > bounds.capacity) break;
      waiting.splice(k--, 1);
      inUse += w;
      Promise.resolve()
        .then(() => start(units[i]!, i))
        .then(settle[i]!.resolve, settle[i]!.reject)
        .finally(() => {
          inUse -= w;
          for (const d of dependents[i]!) left[d] = left[d]! - 1;
          pump();
        });
    }
  };
  pump();
  return out;
}
