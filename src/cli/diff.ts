/**
 * `conformance diff OLD NEW [--format text|markdown|json]`: what changed between two runs, keyed by
 * operation, binding, case and check (binding_equivalence rows: operation, case and check): new failures, fixed ones, those still failing, and failures
 * that are no longer reported at all (the row is gone: not fixed, not tested). Exit 1 on any new
 * failure, 0 otherwise, 2 on bad input (unreadable file, invalid JSON, not a conformance report).
 */
import { UsageError } from '../core/errors.js';
import type { ResultRow } from '../core/types.js';
import { rowKind } from '../core/rows.js';
import { consoleText, rowTitle } from '../report/model.js';
import { helpText, parseFlags } from './config.js';
import { DIFF_HELP } from './help.js';
import { readReportInput } from './report-input.js';
import type { CommandIO } from './run.js';

export const DIFF_USAGE = `usage: conformance diff OLD NEW [--format text|markdown|json]

OLD and NEW are conformance.json files (or report directories). Lists new failures, fixed ones,
those still failing and failures no longer reported, keyed by operation, binding, case and check.
Known deviations are not failures. Exit 1 on any new failure, 0 otherwise, 2 on bad input.`;

export interface DiffEntry {
  readonly operation: string;
  readonly binding: string;
  readonly case: string;
  readonly check: string;
  /** Status in OLD and in NEW ('absent': no such row). */
  readonly old: ResultRow['status'] | 'absent';
  readonly new: ResultRow['status'] | 'absent';
  /** NEW's message (OLD's for fixed and gone rows). */
  readonly message: string;
}

export interface ReportDiff {
  readonly newFailures: DiffEntry[];
  readonly fixed: DiffEntry[];
  readonly stillFailing: DiffEntry[];
  /** Failed in OLD, no row in NEW. */
  readonly gone: DiffEntry[];
}

/**
 * The identity of a row. A binding_equivalence row names the binding(s) that departed, which can
 * change from run to run while the case still fails (or name all bindings once it passes): it is
 * keyed by operation, case and check alone.
 */
const keyOf = (r: Pick<ResultRow, 'operation' | 'binding' | 'case' | 'check'>) =>
  JSON.stringify([r.operation, rowKind(r) === 'equivalence' ? '*' : r.binding.replace(/\s+/g, ''), r.case, r.check]);

/** Rows by key; when a key repeats, a failed row wins (the key counts as failing). */
function index(rows: readonly ResultRow[]): Map<string, ResultRow> {
  const m = new Map<string, ResultRow>();
  for (const r of rows) {
    const k = keyOf(r);
    const had = m.get(k);
    if (!had || (had.status !== 'failed' && r.status === 'failed')) m.set(k, r);
  }
  return m;
}

export function diffReports(oldRows: readonly ResultRow[], newRows: readonly ResultRow[]): ReportDiff {
  const before = index(oldRows);
  const after = index(newRows);
  const d: ReportDiff = { newFailures: [], fixed: [], stillFailing: [], gone: [] };
  const entry = (r: ResultRow, o: ResultRow | undefined, n: ResultRow | undefined): DiffEntry => ({
    operation: r.operation, binding: r.binding, case: r.case, check: r.check,
    old: o?.status ?? 'absent', new: n?.status ?? 'absent', message: r.message,
  });
  for (const [k, n] of after) {
    const o = before.get(k);
    if (n.status === 'failed') (o?.status === 'failed' ? d.stillFailing : d.newFailures).push(entry(n, o, n));
    else if (o?.status === 'failed') d.fixed.push(entry(o, o, n));
  }
  for (const [k, o] of before) if (o.status === 'failed' && !after.has(k)) d.gone.push(entry(o, o, undefined));
  return d;
}

const SECTIONS = [
  ['newFailures', 'New failures'], ['fixed', 'Fixed'], ['stillFailing', 'Still failing'], ['gone', 'Failed before, not reported now'],
] as const;

function text(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [`diff ${oldName} → ${newName}: ${d.newFailures.length} new failures, ${d.fixed.length} fixed, `
    + `${d.stillFailing.length} still failing, ${d.gone.length} no longer reported`];
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push('', `${title} (${d[k].length}):`);
    for (const e of d[k]) {
      const was = k === 'fixed' ? ` (now ${e.new})` : k === 'newFailures' ? ` (was ${e.old})` : '';
      lines.push(`  ${consoleText(rowTitle(e))}${was}${e.message && k !== 'fixed' ? `: ${consoleText(e.message.slice(0, 200))}` : ''}`);
    }
  }
  return lines.join('\n');
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

function markdown(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [`## Conformance diff`, '', `\`${mdCell(oldName)}\` → \`${mdCell(newName)}\`: **${d.newFailures.length} new failures**, `
    + `${d.fixed.length} fixed, ${d.stillFailing.length} still failing, ${d.gone.length} no longer reported`];
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push('', `### ${title} (${d[k].length})`, '', '| operation | binding | case | check | was | now | message |', '|---|---|---|---|---|---|---|');
    for (const e of d[k]) lines.push(`| ${mdCell(e.operation)} | ${mdCell(e.binding)} | ${mdCell(e.case)} | ${mdCell(e.check)} | ${e.old} | ${e.new} | ${mdCell(e.message.slice(0, 200))} |`);
  }
  return lines.join('\n');
}

export const DIFF_OPTIONS = { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export async function diffCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, DIFF_OPTIONS, true);
  if (f.help) {
    io.out(helpText(DIFF_USAGE, DIFF_OPTIONS, DIFF_HELP));
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`diff needs two reports, OLD and NEW (got ${positionals.length})`);
  const format = f.format ?? 'text';
  if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json (got ${JSON.stringify(format)})`);
  const [oldPath, newPath] = positionals as [string, string];
  const oldIn = readReportInput(oldPath, 'OLD report');
  const newIn = readReportInput(newPath, 'NEW report');
  const d = diffReports(oldIn.report.results, newIn.report.results);
  io.out(format === 'json' ? JSON.stringify({ old: oldIn.source, new: newIn.source, ...d }, null, 2)
    : format === 'markdown' ? markdown(d, oldPath, newPath) : text(d, oldPath, newPath));
  return d.newFailures.length > 0 ? 1 : 0;
}
