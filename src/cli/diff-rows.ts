/**
 * The rows of two runs matched by their identity: new failures, fixed ones, those still failing,
 * and failures no longer reported.
 */
import type { ResultRow, RunReport } from '../core/types.js';
import { rowKind } from '../core/rows.js';
import type { DiffEntry, ReportDiff } from './diff-types.js';

/**
 * The identity of a row. A binding_equivalence row names the binding(s) that departed, which can
 * change from run to run while the case still fails (or name all bindings once it passes): it is
 * keyed by operation, case and check alone.
 */
export const rowKey = (r: Pick<ResultRow, 'operation' | 'binding' | 'case' | 'check'>) =>
  JSON.stringify([r.operation, rowKind(r) === 'equivalence' ? '*' : r.binding.replace(/\s+/g, ''), r.case, r.check]);

/** Rows by key; when a key repeats, a failed row wins (the key counts as failing). */
export function indexRows(rows: readonly ResultRow[]): Map<string, ResultRow> {
  const m = new Map<string, ResultRow>();
  for (const r of rows) {
    const k = rowKey(r);
    const had = m.get(k);
    if (!had || (had.status !== 'failed' && r.status === 'failed')) m.set(k, r);
  }
  return m;
}

export function diffReports(oldRows: readonly ResultRow[], newRows: readonly ResultRow[]): ReportDiff {
  const before = indexRows(oldRows);
  const after = indexRows(newRows);
  const d: ReportDiff = { newFailures: [], fixed: [], stillFailing: [], gone: [] };
  const entry = (r: ResultRow, o: ResultRow | undefined, n: ResultRow | undefined): DiffEntry => ({
    operation: r.operation,
    binding: r.binding,
    case: r.case,
    check: r.check,
    old: o?.status ?? 'absent',
    new: n?.status ?? 'absent',
    message: r.message,
  });
  for (const [k, n] of after) {
    const o = before.get(k);
    if (n.status === 'failed') (o?.status === 'failed' ? d.stillFailing : d.newFailures).push(entry(n, o, n));
    // A failure now skipped is not fixed: it was not tested (lost coverage).
    else if (o?.status === 'failed' && n.status !== 'skipped') d.fixed.push(entry(o, o, n));
  }
  for (const [k, o] of before) if (o.status === 'failed' && !after.has(k)) d.gone.push(entry(o, o, undefined));
  return d;
}

/** The generated cases of two runs are the same cases only with the same seed and budget. */
export function sameGeneration(a: RunReport, b: RunReport): boolean {
  return (
    JSON.stringify([a.generation?.seed, a.generation?.examples])
    === JSON.stringify([b.generation?.seed, b.generation?.examples])
  );
}
