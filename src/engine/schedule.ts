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
 * them). A unit whose answers are all in (it says so: `answered`) sends nothing more: its weight moves
 * from what is sent at once (`capacity`) to what waits to be checked (`held`, bounded apart), and the
 * next units take its place on the wire. Checks go one at a time in the process (./check-exchange.ts
 * inTurn): before, the units waiting for their turn kept the room of those that would have sent, and
 * the connections stood idle while the checks caught up. A unit still ends, for what waits for it,
 * only once it is checked.
 *
 * Units start in a fixed order (the sequences without a stage, then by stage, an external-entity
 * probe first within a stage after the first, then the plan's order), none overtaking an earlier one that is ready
 * but does not fit, and each unit's result keeps its place in the plan: the reports do not depend on
 * which unit ended first.
 */
import { stageRank, waitsFor } from '../sequences/stages.js';
import type { Unit } from './unit.js';

/**
 * How much may run at once: a unit weighs `weight(u)`; those under way weigh at most `capacity` (one unit always may).
 */
export interface ScheduleBounds {
  readonly capacity: number;
  /**
   * What units whose answers are all in, and wait to be checked, weigh at most at once (default: none beyond
   * `capacity`).
   */
  readonly held?: number;
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
  start: (u: Unit, i: number, answered: () => void) => Promise<T>,
  bounds?: ScheduleBounds,
): Promise<T>[] {
  // Read once per unit, not per pair of units (the dependencies below look at every pair).
  const ranks = units.map((u) => stageRank(u.stage));
  const besides = units.map(runsBeside);
  const rank = (i: number) => ranks[i]!;
  const beside = (i: number) => besides[i]!;
  // Within a stage after the first, an external-entity probe first: the run's end waits a moment after the last one for
  // the fetch it may cause (./fetches.ts), and that moment passes while the rest of its stage runs. The first stage
  // keeps the plan's order (its probes are far from the end; and --max-failures meets the valid cases' failures first).
  const late = (i: number) => Number(rank(i) === 0 || units[i]!.doctype?.entity !== 'external');
  const order = [...units.keys()].sort(
    (a, b) => Number(!beside(a)) - Number(!beside(b)) || rank(a) - rank(b) || late(a) - late(b) || a - b,
  );
  // What each unit waits for: the units of earlier stages it depends on (none for a sequence
  // beside the stages, nor on one), and the unit whose bookings it uses again (not among these units:
  // a shard, --case: nothing).
  // Only a unit of an earlier stage can be waited for (waitsFor): each unit asks about those only, the units in a
  // stage walked by rank (a list of every unit per unit was most of this function's time and garbage on a full plan).
  const staged = [...units.keys()].filter((j) => !beside(j)).sort((a, b) => rank(a) - rank(b) || a - b);
  const deps = units.map((u, i) => {
    const on: number[] = [];
    if (!beside(i)) {
      for (const j of staged) {
        if (rank(j) >= rank(i)) break;
        if (waitsFor(units[j]!, u)) on.push(j);
      }
      on.sort((a, b) => a - b);
    }
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
  // The weight of the units sending (`sending`) and of those whose answers are all in (`checking`).
  let sending = 0;
  let checking = 0;
  const held = bounds?.held ?? 0;
  const fits = (w: number) =>
    !bounds
    || ((sending === 0 || sending + w <= bounds.capacity)
      && (sending + checking === 0 || sending + checking + w <= bounds.capacity + held));
  const pump = () => {
    for (let k = 0; k < waiting.length; k++) {
      const i = waiting[k]!;
      if (!ready(i)) continue;
      const w = bounds ? bounds.weight(units[i]!) : 0;
      // The first ready unit that does not fit waits for room, and no later one overtakes it.
      if (!fits(w)) break;
      waiting.splice(k--, 1);
      sending += w;
      let answered = false;
      const onAnswered = () => {
        if (answered) return;
        answered = true;
        sending -= w;
        checking += w;
        pump();
      };
      Promise.resolve()
        .then(() => start(units[i]!, i, onAnswered))
        .then(settle[i]!.resolve, settle[i]!.reject)
        .finally(() => {
          if (answered) checking -= w;
          else sending -= w;
          answered = true;
          for (const d of dependents[i]!) left[d] = left[d]! - 1;
          pump();
        });
    }
  };
  pump();
  return out;
}
