/**
 * `conformance diff OLD NEW [--format text|markdown|json]`: what changed between two runs, keyed by operation, binding,
 * case and check (binding_equivalence rows: operation, case and check): new failures, fixed ones, those still failing,
 * and failures that are no longer reported at all (the row is gone: not fixed, not tested), and the coverage lost
 * (tested in OLD, not in NEW). Exit 1 on any new failure or lost coverage (unless --allow-lost-coverage), 0 otherwise,
 * 2 on bad input (unreadable file, invalid JSON, not a conformance report).
 */
import { UsageError } from '../core/errors.js';
import type { ResultRow, RunReport } from '../core/types.js';
import { isGeneratedCase, notCalledReason, PREFLIGHT_CASE, rowBindings, rowKind } from '../core/rows.js';
import { EXPECTATIONS_CHECK } from '../engine/expectations.js';
import { REJECTION_CHECKS } from '../checks/registry.js';
import { shape } from '../checks/shape.js';
import { consoleText, rowTitle } from '../report/model.js';
import { helpText, parseFlags } from './config.js';
import { DIFF_HELP } from './help.js';
import { DIFF_OPTIONS } from './command-settings.js';
import { readReportInput } from './report-input.js';
import type { CommandIO } from './run.js';

export const DIFF_USAGE = `usage: conformance diff OLD NEW [--format text|markdown|json]

OLD and NEW are conformance.json files (or report directories). Lists new failures, fixed ones,
those still failing and failures no longer reported, keyed by operation, binding, case and check,
and the coverage lost: rows, operation × binding cells, operations and bindings tested in OLD and not
in NEW (skipped, not called, or not reaching the data path), the answer paths and kinds of parameter
value of the coverage report OLD had and NEW lost (docs/coverage.md), and another target or seed.
Known deviations are not failures. Exit 1 on any new failure or lost coverage (unless
--allow-lost-coverage), 0 otherwise, 2 on bad input.`;

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
  /** What OLD tested and NEW did not (lostCoverage in diffRuns). */
  readonly lostCoverage?: LostCoverage;
  /** How the two runs differ besides their rows: target, seed, selection (diffRuns). */
  readonly context?: readonly string[];
}

/** What was tested in OLD and is not in NEW: skipped, not called, or not reaching the data path. */
export interface LostCoverage {
  /** Rows OLD tested (passed, failed or known) that NEW skipped, or does not have. */
  readonly rows: readonly DiffEntry[];
  /**
   * Operation × binding cells OLD tested that NEW did not test at all, or whose valid calls did not reach the data
   * path.
   */
  readonly cells: readonly { readonly operation: string; readonly binding: string; readonly reason: string }[];
  /** Operations OLD tested none of whose cells NEW tested. */
  readonly operations: readonly { readonly operation: string; readonly reason: string }[];
  /** Bindings OLD tested none of whose cells NEW tested. */
  readonly bindings: readonly { readonly binding: string; readonly reason: string }[];
  /**
   * The coverage report's drops (both reports carrying one, docs/coverage.md): per cell not lost
   * above, the answer paths some answer of OLD held and none of NEW, the kinds of parameter value
   * OLD sent and NEW did not, and its figure before and after.
   */
  readonly dropped?: readonly CoverageDrop[];
  /** The run's coverage figure, when it dropped. */
  readonly figure?: { readonly old: number; readonly new: number };
}

/** One operation × binding whose coverage dropped (LostCoverage.dropped). */
export interface CoverageDrop {
  readonly operation: string;
  readonly binding: string;
  readonly old: number;
  readonly new: number;
  /** Answer paths held before, by no answer now. */
  readonly paths: readonly string[];
  /** "parameter: kind" sent before, not now. */
  readonly kinds: readonly string[];
}

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
  const example = c.rows.find((r) => walked.includes(keyOf(r)));
  return (
    `valid calls did not reach the data path: no result was walked `
    + `(${DATA_CHECK} ${example ? `${example.case}: ${example.message}` : 'rows absent'})`
  );
}

/** The generated cases of two runs are the same cases only with the same seed and budget. */
function sameGeneration(a: RunReport, b: RunReport): boolean {
  return (
    JSON.stringify([a.generation?.seed, a.generation?.examples])
    === JSON.stringify([b.generation?.seed, b.generation?.examples])
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
  const after = index(newReport.results);
  const rows: DiffEntry[] = [];
  for (const [k, o] of index(oldReport.results)) {
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
    const walked = o.rows.filter((r) => r.check === DATA_CHECK && tested(r) && !negative.has(r.case)).map(keyOf);
    const nowWalked = new Set(n?.rows.filter((r) => r.check === DATA_CHECK && tested(r)).map(keyOf));
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

/**
 * How the two runs differ besides their rows: another target, another seed of the generated cases, another selection.
 */
export function runContext(a: RunReport, b: RunReport): string[] {
  const out: string[] = [];
  const t = (r: RunReport) => ({
    'book URL': r.target.bookUrl,
    'search URL': r.target.searchUrl,
    'transfers URL': r.target.transfersUrl,
    'book namespace': r.target.namespaces.book,
    'search namespace': r.target.namespaces.search,
    user: r.target.user,
    'service paths': r.target.paths === undefined ? undefined : JSON.stringify(r.target.paths),
  });
  const [ta, tb] = [t(a), t(b)];
  // The embedded mock listens on a port of its own each run: its URLs say nothing.
  const bothEmbedded = a.target.embedded && b.target.embedded;
  for (const k of Object.keys(ta) as (keyof typeof ta)[]) {
    if (bothEmbedded && k.endsWith(' URL')) continue;
    if (ta[k] !== undefined && tb[k] !== undefined && ta[k] !== tb[k])
      out.push(`another target: ${k} ${ta[k]} → ${tb[k]}`);
  }
  if (a.target.embedded !== b.target.embedded)
    out.push(
      `another target: ${a.target.embedded ? 'the embedded mock' : 'an external service'} `
        + `→ ${b.target.embedded ? 'the embedded mock' : 'an external service'}`,
    );
  if (!sameGeneration(a, b)) {
    const g = (r: RunReport) =>
      r.generation ? `seed ${r.generation.seed}, ${r.generation.examples} per operation` : 'none';
    out.push(
      `other generated cases: ${g(a)} → ${g(b)} (their rows are not compared one by one; repeat with `
        + `--seed ${a.generation?.seed ?? b.generation?.seed})`,
    );
  }
  const missing = (x: readonly string[], y: readonly string[]) => x.filter((v) => !y.includes(v));
  const ops = missing(a.operations, b.operations);
  if (ops.length) out.push(`operations not selected now: ${ops.join(', ')}`);
  const bindings = missing(a.bindings, b.bindings);
  if (bindings.length) out.push(`bindings not selected now: ${bindings.join(', ')}`);
  return out;
}

/** The diff of two reports: rows, lost coverage and context. */
export function diffRuns(oldReport: RunReport, newReport: RunReport): ReportDiff {
  return {
    ...diffReports(oldReport.results, newReport.results),
    lostCoverage: lostCoverage(oldReport, newReport),
    context: runContext(oldReport, newReport),
  };
}

/** Whether any coverage was lost. */
export function coverageLost(d: ReportDiff): boolean {
  const l = d.lostCoverage;
  return l !== undefined && (l.rows.length > 0 || l.cells.length > 0 || (l.dropped?.length ?? 0) > 0);
}

/** The lost coverage in lines: operations, bindings, cells, then the rows by cell (a count and one example each). */
function lostLines(l: LostCoverage, max = 40): string[] {
  const lines: string[] = [];
  for (const o of l.operations) lines.push(`operation ${o.operation}: ${o.reason}`);
  for (const b of l.bindings) lines.push(`binding ${b.binding}: ${b.reason}`);
  const lostOps = new Set(l.operations.map((o) => o.operation));
  for (const c of l.cells.filter((x) => !lostOps.has(x.operation)))
    lines.push(`${c.operation} [${c.binding}]: ${c.reason}`);
  // Rows of a cell listed above are explained there; the others by cell, a count and one example.
  const listed = new Set(l.cells.map((c) => `${c.operation} [${c.binding}]`));
  const byCell = new Map<string, DiffEntry[]>();
  for (const r of l.rows) {
    const cell = `${r.operation} [${r.binding}]`;
    if (!listed.has(cell)) byCell.set(cell, [...(byCell.get(cell) ?? []), r]);
  }
  for (const [cell, rs] of byCell) {
    const e = rs[0]!;
    lines.push(
      `${cell}: ${rs.length} row${rs.length === 1 ? '' : 's'} tested `
        + `before, ${e.new === 'absent' ? 'absent' : 'skipped'} now (e.g. ${e.case} `
        + `:: ${e.check}: ${e.message.slice(0, 160)})`,
    );
  }
  if (l.figure) lines.push(`coverage figure: ${l.figure.old}% before, ${l.figure.new}% now`);
  for (const d of l.dropped ?? []) {
    const what = [
      ...(d.paths.length
        ? [
            `${d.paths.length} answer path${d.paths.length === 1 ? '' : 's'} held before, by no answer `
              + `now (${d.paths.slice(0, 4).join(', ')}${d.paths.length > 4 ? ', …' : ''})`,
          ]
        : []),
      ...(d.kinds.length ? [`not sent now: ${d.kinds.slice(0, 6).join(', ')}${d.kinds.length > 6 ? ', …' : ''}`] : []),
    ];
    lines.push(`${d.operation} [${d.binding}]: coverage ${d.old}% → ${d.new}%: ${what.join('; ')}`);
  }
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more: see --format json`] : lines;
}

function lostHead(l: LostCoverage | undefined): string {
  if (l === undefined) return '';
  return (
    `, coverage lost: ${l.rows.length} rows, ${l.cells.length} cells, ${l.operations.length} `
    + `operations, ${l.bindings.length} bindings`
    + (l.dropped?.length ? `, ${l.dropped.length} cells with fewer answer paths held or kinds of value sent` : '')
  );
}

const SECTIONS = [
  ['newFailures', 'New failures'],
  ['fixed', 'Fixed'],
  ['stillFailing', 'Still failing'],
  ['gone', 'Failed before, not reported now'],
] as const;

function text(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [
    `diff ${oldName} → ${newName}: ${d.newFailures.length} new failures, ${d.fixed.length} fixed, `
      + `${d.stillFailing.length} still failing, ${d.gone.length} no longer reported${lostHead(d.lostCoverage)}`,
  ];
  if (d.context?.length) lines.push('', 'Not the same run:', ...d.context.map((c) => `  ${consoleText(c)}`));
  if (d.lostCoverage && coverageLost(d))
    lines.push(
      '',
      'Lost coverage (tested before, not now):',
      ...lostLines(d.lostCoverage).map((x) => `  ${consoleText(x)}`),
    );
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push('', `${title} (${d[k].length}):`);
    for (const e of d[k]) {
      const was = k === 'fixed' ? ` (now ${e.new})` : k === 'newFailures' ? ` (was ${e.old})` : '';
      lines.push(
        ` `
          + ` ${consoleText(rowTitle(e))}${was}${e.message && k !== 'fixed' ? `: ${consoleText(e.message.slice(0, 200))}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

const mdCell = (s: string) =>
  s
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

function markdown(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [
    `## Conformance diff`,
    '',
    `\`${mdCell(oldName)}\` → \`${mdCell(newName)}\`: **${d.newFailures.length} new failures**, `
      + `${d.fixed.length} fixed, ${d.stillFailing.length} still failing, ${d.gone.length} no longer `
      + `reported${lostHead(d.lostCoverage)}`,
  ];
  if (d.context?.length)
    lines.push('', '> [!WARNING]', '> Not the same run:', ...d.context.map((c) => `> - ${mdCell(c)}`));
  if (d.lostCoverage && coverageLost(d))
    lines.push(
      '',
      '### Lost coverage (tested before, not now)',
      '',
      ...lostLines(d.lostCoverage).map((x) => `- ${mdCell(x)}`),
    );
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push(
      '',
      `### ${title} (${d[k].length})`,
      '',
      '| operation | binding | case | check | was | now | message |',
      '|---|---|---|---|---|---|---|',
    );
    for (const e of d[k])
      lines.push(
        `| ${mdCell(e.operation)} | ${mdCell(e.binding)} | ${mdCell(e.case)} | ${mdCell(e.check)} `
          + `| ${e.old} | ${e.new} | ${mdCell(e.message.slice(0, 200))} |`,
      );
  }
  return lines.join('\n');
}

export { DIFF_OPTIONS };

export async function diffCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, DIFF_OPTIONS, true);
  if (f.help) {
    io.out(helpText(DIFF_USAGE, DIFF_OPTIONS, DIFF_HELP));
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`diff needs two reports, OLD and NEW (got ${positionals.length})`);
  const format = f.format ?? 'text';
  if (!['text', 'markdown', 'json'].includes(format))
    throw new UsageError(`--format must be text, markdown or json (got ${JSON.stringify(format)})`);
  const [oldPath, newPath] = positionals as [string, string];
  const oldIn = readReportInput(oldPath, 'OLD report');
  const newIn = readReportInput(newPath, 'NEW report');
  const d = diffRuns(oldIn.report, newIn.report);
  io.out(
    format === 'json'
      ? JSON.stringify({ old: oldIn.source, new: newIn.source, ...d }, null, 2)
      : format === 'markdown'
        ? markdown(d, oldPath, newPath)
        : text(d, oldPath, newPath),
  );
  const lost = coverageLost(d);
  if (lost && !f['allow-lost-coverage'])
    io.err(
      'conformance: coverage was lost (tested before, not now): exit 1; pass --allow-lost-coverage if that is intended',
    );
  return d.newFailures.length > 0 || (lost && !f['allow-lost-coverage']) ? 1 : 0;
}
