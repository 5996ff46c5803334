/** A failing generated unit shrunk to a minimal parameter set (moved whole from ./run.ts). */
import { EXCHANGE_CHECK, NOT_RUN_CHECK } from '../core/rows.js';
import type { ResultRow } from '../core/types.js';
import type { EngineDeps } from './deps.js';
import type { RunPlan, Unit } from './plan.js';
import { runUnit } from './unit-rows.js';

/** At most this many re-sends of a unit while shrinking it. */
const SHRINK_ATTEMPTS = 16;

/**
 * Shrink a failing generated unit to a minimal parameter set: each generated value in turn is put
 * back to the first hand-written case's (an optional parameter left out when that case leaves it
 * out), and kept back when the unit still fails one of the checks it failed. Deterministic: the
 * same seed and target give the same minimal set, reported under the unit's case id (stable for
 * the seed); its rows are those of the minimal unit, their reproduce commands its requests, and a
 * failed row names the generated values that the failure needs.
 */
export async function shrinkUnit(plan: RunPlan, deps: EngineDeps, unit: Unit, rows: ResultRow[]): Promise<ResultRow[]> {
  const baseline = unit.baseline;
  // A state-changing call is sent once per booking, never again (as it is never retried): shrinking
  // would re-send it with a booking already consumed.
  if (!baseline || unit.op.mutates) return rows;
  // A transport failure (no response, the deadline) says nothing about the inputs: not shrunk.
  const failing = new Set(
    rows
      .filter((r) => r.status === 'failed' && r.check !== EXCHANGE_CHECK && r.check !== NOT_RUN_CHECK)
      .map((r) => r.check),
  );
  if (failing.size === 0) return rows;
  const stillFails = (rs: readonly ResultRow[]) => rs.some((r) => r.status === 'failed' && failing.has(r.check));
  const isCredential = (k: string) => k === 'userName' || k === 'password';
  const keys = [...new Set([...Object.keys(unit.params), ...Object.keys(baseline)])].filter(
    (k) => !isCredential(k) && unit.params[k] !== baseline[k],
  );
  let current = unit;
  let best = rows;
  // A case no value of which differs from the hand-written one has nothing to shrink: no note.
  if (keys.length === 0) return rows;
  let tried = 0;
  for (const k of keys) {
    if (tried >= SHRINK_ATTEMPTS) break;
    if (deps.transport.options.deadline !== undefined && Date.now() >= deps.transport.options.deadline) break;
    tried++;
    const params: Record<string, string> = { ...current.params };
    if (baseline[k] === undefined) delete params[k];
    else params[k] = baseline[k];
    const candidate: Unit = { ...current, params };
    const candidateRows = await runUnit(plan, deps, candidate);
    if (stillFails(candidateRows)) {
      current = candidate;
      best = candidateRows;
    }
  }
  if (tried === 0) return rows;
  const needed = keys.slice(0, tried).filter((k) => current.params[k] !== baseline[k]);
  const untried = keys.slice(tried);
  // What was sent differs from what the case id names: say from which values, to which (issue 31).
  const putBack = keys
    .slice(0, tried)
    .filter((k) => !needed.includes(k))
    .map(
      (k) =>
        `${k} ${JSON.stringify(unit.params[k] ?? '')} `
        + `→ ${baseline[k] === undefined ? 'left out' : JSON.stringify(baseline[k])}`,
    );
  const note =
    ` [generated case `
    + `shrunk: ${needed.length ? `the failure needs ${needed.join(', ')}` : 'the failure needs none of the generated values tried'}; `
    + `${tried - needed.length} of ${keys.length} generated values put back to the first hand-written `
    + `case's${putBack.length ? ` (sent: ${putBack.join(', ')})` : ''}`
    + `${untried.length ? `; not tried (${tried >= SHRINK_ATTEMPTS ? `at most ${SHRINK_ATTEMPTS} attempts` : 'the deadline passed'}): ${untried.join(', ')}` : ''}]`;
  return best.map((r) => (r.status === 'failed' ? { ...r, message: `${r.message}${note}` } : r));
}
