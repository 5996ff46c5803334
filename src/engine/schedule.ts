/**
 * The one scheduler of a run's units, for `conformance run` (./run.ts) and for the vitest suites that
 * start every unit at once (suites/conformance.test.ts): the stages (src/sequences/stages.ts), each
 * starting once every unit of the stages before it has ended; a sequence without a stage from the
 * start, beside them all (its calls go one after another on bookings of its own); a sequence that
 * uses another family's bookings again (SequenceSpec.after) once that family's unit has ended.
 *
 * Within those rules the target is kept busy (issue 43): a unit waits for nothing else. What runs
 * at once is bounded by what it sends at once, not by a count of units: a case counts its bindings
 * (their answers are held until compared), a sequence one (its calls go one at a time; a race's go
 * together, past the bound, as the transport's burst lets them). Units start in a fixed order (the
 * sequences without a stage, then by stage, then the plan's order), none overtaking an earlier one
 * that is ready but does not fit, and each unit's result keeps its place in the plan: the reports
 * do not depend on which unit ended first.
 */
import { stageRank } from '../sequences/stages.js';
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
  // Units of each stage not ended yet.
  const open = new Map<number, number>();
  for (const i of units.keys()) if (!beside(i)) open.set(rank(i), (open.get(rank(i)) ?? 0) + 1);
  // The unit whose bookings each one uses again (-1: none, or not among these units: a shard, --case).
  const dep = units.map((u) =>
    u.sequence?.after === undefined ? -1 : units.findIndex((x) => x.sequence?.family === u.sequence!.after),
  );
  const ended = new Set<number>();
  const ready = (i: number) =>
    (beside(i) || ![...open].some(([s, n]) => s < rank(i) && n > 0)) && (dep[i]! < 0 || ended.has(dep[i]!));
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
          ended.add(i);
          if (!beside(i)) open.set(rank(i), open.get(rank(i))! - 1);
          pump();
        });
    }
  };
  pump();
  return out;
}
