/**
 * The conformance matrix as vitest suites, generated from the catalogue: operation × request case
 * × binding, each test asserting that every check passed on that exchange (its failure message is
 * the formatted findings), plus one binding-equivalence test per case. The target and every other
 * setting come from the environment as `conformance run` reads them (CONFORMANCE_* variables, or a
 * config file named by CONFORMANCE_CONFIG: docs/cli.md); with none, the embedded mock, started here
 * as `conformance run` starts it. A case `run` would not send is a skipped test with its reason.
 */
import * as allure from 'allure-js-commons';
import { afterAll, describe, expect, test } from 'vitest';
import { resolveRunSettingsFlags } from '../src/engine/settings.js';
import { openSession } from '../src/engine/session.js';
import { checkPools } from '../src/engine/pool-check.js';
import { bindingLabel } from '../src/bindings/index.js';
import { EQUIVALENCE_CHECK, rowKind } from '../src/core/rows.js';
import type { ResultRow, RunReport } from '../src/core/types.js';
import { applyExpectations, readExpectations } from '../src/engine/expectations.js';
import { comparesBindings, planUnits, type Unit } from '../src/engine/plan.js';
import { schedule } from '../src/engine/schedule.js';
import { runUnit } from '../src/engine/run.js';
import { formatFindings } from '../src/report/console.js';

// The target, its plan and its transport (limits, deadline, TLS) exactly as `conformance run` opens them.
const settings = resolveRunSettingsFlags({}, process.env);
// Known deviations (CONFORMANCE_EXPECTATIONS or the config's `expectations`) are known, not failed, as in `run`.
const expectations = settings.expectations ? readExpectations(settings.expectations) : undefined;
const session = await openSession(settings);
afterAll(() => session.close());
const deps = session.deps();
// The pool bookings read before any is spent, as `run` reads them (src/engine/pool-check.ts): a used one is the pool's.
const { plan } = await checkPools(session.plan, deps);
const units = planUnits(plan);

/**
 * A unit's rows with the expectations applied, unit by unit: an entry is never judged stale here
 * (it may cover other units), but an expired one fails as it does in `run`.
 */
function withExpectations(rows: ResultRow[]): ResultRow[] {
  if (!expectations || !settings.expectations) return rows;
  const report = {
    results: rows,
    summary: { passed: 0, failed: 0, skipped: 0, known: 0, total: 0 },
  } as unknown as RunReport;
  return applyExpectations(report, expectations, { source: settings.expectations, judged: () => false }).report.results;
}

// Every unit starts as the run's one scheduler lets it (src/engine/schedule.ts: reads before the calls
// that change what they read), bounded by the transport: the tests below only wait for their own unit.
const started = schedule(units, (u) => runUnit(plan, deps, u).then(withExpectations));
const pending = new Map<Unit, Promise<ResultRow[]>>(units.map((u, i) => [u, started[i]!]));

expect.extend({
  toConform(rows: ResultRow[]) {
    const failed = rows.filter((r) => r.status === 'failed');
    return { pass: failed.length === 0, message: () => formatFindings(failed) };
  },
});

declare module 'vitest' {
  interface Assertion<T> {
    toConform(): T;
  }
}

/**
 * The unit's rows the test asserts. A test whose rows were all skipped (a case not sent: a
 * state-changing call without --allow-mutations, a pool with no booking left) is skipped with the
 * reason `run` reports; so is the comparison of a unit none of whose calls was sent, which has no
 * rows of its own. A test with no rows of a unit that was sent is a harness defect: it fails.
 */
async function rowsOf(
  unit: Unit,
  pick: (r: ResultRow) => boolean,
  ctx: { skip: (note?: string) => void; task: { meta: object } },
) {
  const all = await pending.get(unit)!;
  const rows = all.filter(pick);
  const meta = ctx.task.meta as { conformance?: ResultRow[]; skipped?: string };
  meta.conformance = rows;
  const skippedAll = (rs: readonly ResultRow[]) => rs.length > 0 && rs.every((r) => r.status === 'skipped');
  const why = skippedAll(rows) ? rows[0]!.message : rows.length === 0 && skippedAll(all) ? all[0]!.message : undefined;
  if (why !== undefined) {
    // Kept beside the rows: a reporter that drops skip notes (vitest's JSON) still says why.
    meta.skipped = why;
    ctx.skip(why);
  }
  if (rows.length === 0)
    throw new Error(`no result rows for ${unit.op.name} ${unit.caseId}: the run produced nothing to assert`);
  return rows;
}

/** The tests of one unit: one per binding it was sent on, and the equivalence of those bindings. */
function unitTests(unit: Unit): void {
  const bindings = plan.bindings.filter((b) => !unit.only || unit.only.includes(b));
  test.for(bindings.map((b) => [bindingLabel(b), b] as const))('%s', async ([label, b], ctx) => {
    await allure.epic(unit.op.group);
    await allure.feature(label);
    await allure.story(unit.op.name);
    const rows = await rowsOf(unit, (r) => r.binding === b && rowKind(r) !== 'equivalence', ctx);
    expect(rows).toConform();
  });
  // A sequence over state has no comparison of bindings: its rows are per binding; nor has a DOCTYPE probe or a login
  // variant (plan.ts comparesBindings).
  if (comparesBindings(plan, unit)) {
    test(EQUIVALENCE_CHECK, async (ctx) => {
      await allure.epic(unit.op.group);
      await allure.feature('Equivalence');
      await allure.story(unit.op.name);
      const rows = await rowsOf(unit, (r) => rowKind(r) === 'equivalence', ctx);
      expect(rows).toConform();
    });
  }
}

const names = [...new Set(units.map((u) => u.op.name))];
describe.for(names)('%s', (name) => {
  describe.for(units.filter((u) => u.op.name === name).map((u) => u.caseId))('case %s', (caseId) => {
    unitTests(units.find((u) => u.op.name === name && u.caseId === caseId)!);
  });
});
