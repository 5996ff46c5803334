/**
 * The coverage lost between two runs (issue 22): rows, operation × binding cells, operations and
 * bindings tested in OLD and not in NEW (skipped, not called, or not reaching the data path), and
 * what the coverage report of NEW lost against OLD's (docs/coverage.md).
 */
import type { ResultRow, RunReport } from '../core/types.js';
import { isGeneratedCase, notCalledReason, PREFLIGHT_CASE, rowBindings, rowKind } from '../core/rows.js';
import { EXPECTATIONS_CHECK } from '../engine/expectations.js';
import { REJECTION_CHECKS } from '../checks/registry.js';
import { shape } from '../checks/shape.js';
import type { CoverageDrop, DiffEntry, LostCoverage, ReportDiff } from './diff-types.js';
import { indexRows, rowKey, sameGeneration } from './diff-rows.js';

/** What the coverage report of NEW lost against OLD's: cells in `skip` (lost whole, listed apart) are left out. */
export function coverageDrops(
  oldReport: RunReport,
  newReport: RunReport,
  skip: ReadonlySet<string> = new Set(),
): Pick<LostCoverage, 'dropped' | 'figure'> {
  const a = oldReport.coverage;
  const b = newReport.coverage;
  if (!a || !b) return {};
  const now = new Map(b.cells.map((c) => [JSON.stringify([c.operation, c.binding]), c]));
  const dropped: CoverageDrop[] = [];
  for (const o of a.cells) {
    const k = JSON.stringify([o.operation, o.binding]);
    const n = now.get(k);
    if (!n || skip.has(k)) continue;
    const never = new Set(n.neverSeen);
    const paths = o.paths.filter((p) => p.seen && never.has(p.path)).map((p) => p.path);
    const sentNow = new Set(n.params.flatMap((p) => p.sent.map((x) => `${p.name}: ${x}`)));
    const kinds = o.params
      .flatMap((p) => p.sent.filter((x) => p.possible.includes(x)).map((x) => `${p.name}: ${x}`))
      .filter((x) => !sentNow.has(x));
    if (paths.length > 0 || kinds.length > 0)
      dropped.push({ operation: o.operation, binding: o.binding, old: o.percent, new: n.percent, paths, kinds });
  }
  return {
    ...(dropped.length ? { dropped } : {}),
    ...(b.percent < a.percent ? { figure: { old: a.percent, new: b.percent } } : {}),
  };
}

const tested = (r: Pick<ResultRow, 'status'>) => r.status !== 'skipped';
/** Rows about the run itself rather than a cell of the matrix: the preflight, the expectations file. */
const aboutRun = (r: ResultRow) => r.case === PREFLIGHT_CASE || r.check === EXPECTATIONS_CHECK;

/**
 * A report's operation × binding cells: their rows (single-binding rows only), and why a cell did not reach the data
 * path.
 */
function cellsOf(
  report: RunReport,
): Map<string, { operation: string; binding: string; rows: ResultRow[]; untested?: string }> {
  const cells = new Map<string, { operation: string; binding: string; rows: ResultRow[]; untested?: string }>();
  const cell = (operation: string, binding: string) => {
    const k = JSON.stringify([operation, binding]);
    if (!cells.has(k)) cells.set(k, { operation, binding, rows: [] });
    return cells.get(k)!;
  };
  for (const r of report.results) {
    // The matrix's cells only: not the unknown-operation probes, not the comparison of bindings.
    if (
      aboutRun(r)
      || rowKind(r) === 'equivalence'
      || rowBindings(r).length !== 1
      || !report.operations.includes(r.operation)
    )
      continue;
    cell(r.operation, rowBindings(r)[0]!).rows.push(r);
  }
  for (const u of report.untested ?? []) cell(u.operation, u.binding).untested = u.reason;
  return cells;
}

/**
 * The check that walks a result's data: a cell none of whose valid cases' shape rows ran did not reach the data path.
 */
const DATA_CHECK = shape.name;

/**
 * Why a cell of NEW does not count as tested: its untested reason, not called, its rows skipped, or its results not
 * walked.
 */
function whyNot(
  c: { operation: string; rows: ResultRow[]; untested?: string } | undefined,
  walked: readonly string[],
): string {
  if (c === undefined || c.rows.length === 0) return 'not in the new run';
  if (c.untested !== undefined) return `valid calls did not reach the data path: ${c.untested}`;
  const notCalled = notCalledReason(c.operation, c.rows);
  if (notCalled !== undefined) return `not called: ${notCalled}`;
  if (!c.rows.some(tested)) return `every row skipped: ${c.rows.find((r) => r.status === 'skipped')?.message ?? ''}`;
  const example = c.rows.find((r) => walked.includes(rowKey(r)));
  return (
    `valid calls did not reach the data path: no result was walked `
    + `(${DATA_CHECK} ${example ? `${example.case}: ${example.message}` : 'rows absent'})`
  );
}

/**
 * What OLD tested and NEW does not: rows (OLD passed, failed or known; NEW skipped or absent),
 * cells (OLD tested, NEW tested none of its rows or says its valid calls did not reach the data
 * path), and operations and bindings all of whose cells were lost. Rows of generated cases are
 * compared one by one only when both runs drew them with the same seed and budget.
 */
export function lostCoverage(oldReport: RunReport, newReport: RunReport): LostCoverage {
  const byRow = sameGeneration(oldReport, newReport);
  const after = indexRows(newReport.results);
  const rows: DiffEntry[] = [];
  for (const [k, o] of indexRows(oldReport.results)) {
    if (!tested(o) || aboutRun(o) || (!byRow && isGeneratedCase(o.case))) continue;
    const n = after.get(k);
    if (n !== undefined && tested(n)) continue;
    rows.push({
      operation: o.operation,
      binding: o.binding,
      case: o.case,
      check: o.check,
      old: o.status,
      new: n?.status ?? 'absent',
      message: n?.message || 'not in the new run',
    });
  }
  const before = cellsOf(oldReport);
  const now = cellsOf(newReport);
  const cells: { operation: string; binding: string; reason: string }[] = [];
  const kept = new Set<string>();
  for (const [k, o] of before) {
    if (o.untested !== undefined || !o.rows.some(tested)) continue;
    const n = now.get(k);
    // The data path: a cell whose results OLD walked (shape rows tested) and NEW walked none of
    // (every one skipped: an in-band Error, a rejection) did not reach it, whatever else passed.
    const negative = new Set(
      [...o.rows, ...(n?.rows ?? [])].filter((r) => REJECTION_CHECKS.has(r.check)).map((r) => r.case),
    );
    const walked = o.rows.filter((r) => r.check === DATA_CHECK && tested(r) && !negative.has(r.case)).map(rowKey);
    const nowWalked = new Set(n?.rows.filter((r) => r.check === DATA_CHECK && tested(r)).map(rowKey));
    if (
      n !== undefined
      && n.untested === undefined
      && n.rows.some(tested)
      && (walked.length === 0 || walked.some((x) => nowWalked.has(x)))
    )
      kept.add(k);
    else cells.push({ operation: o.operation, binding: o.binding, reason: whyNot(n, walked) });
  }
  const lostAll = <T extends string>(of: (c: { operation: string; binding: string }) => T) => {
    const had = new Set(
      [...before]
        .filter(([k]) => kept.has(k) || cells.some((c) => JSON.stringify([c.operation, c.binding]) === k))
        .map(([, c]) => of(c)),
    );
    const still = new Set([...before].filter(([k]) => kept.has(k)).map(([, c]) => of(c)));
    return [...had].filter((x) => !still.has(x));
  };
  const reasonOf = (match: (c: { operation: string; binding: string }) => boolean) => {
    const reasons = [...new Set(cells.filter(match).map((c) => c.reason))];
    return reasons.length === 1
      ? reasons[0]!
      : `${reasons[0]} (and ${reasons.length - 1} other reason${reasons.length > 2 ? 's' : ''})`;
  };
  return {
    rows,
    cells,
    ...coverageDrops(oldReport, newReport, new Set(cells.map((c) => JSON.stringify([c.operation, c.binding])))),
    operations: lostAll((c) => c.operation).map((operation) => ({
      operation,
      reason: reasonOf((c) => c.operation === operation),
    })),
    bindings: lostAll((c) => c.binding).map((binding) => ({ binding, reason: reasonOf((c) => c.binding === binding) })),
  };
}

/** Whether any coverage was lost. */
export function coverageLost(d: ReportDiff): boolean {
  const l = d.lostCoverage;
  return l !== undefined && (l.rows.length > 0 || l.cells.length > 0 || (l.dropped?.length ?? 0) > 0);
}
