/**
 * What every report format derives from a RunReport: the verdict, the operations × bindings
 * matrix, per-test grouping, and the text hygiene rules for hostile content (the target's
 * responses end up in reports, so every writer treats report text as untrusted).
 */
import { notCalledReason, rowBindings, rowKind } from '../core/rows.js';
import { verdictOfReport, type RunVerdict } from '../core/verdict.js';
import { BINDINGS, findOperation, OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { bindingLabel } from '../bindings/index.js';
import type { SequenceStep, ResultRow, RunReport, Status } from '../core/types.js';
import { PASSWORD_VARIABLE } from '../transport/curl.js';
import { HOSTILE_GROUP, isHostileRow } from '../core/check-groups.js';

/** Matrix columns: the four bindings, then rows that compare bindings. */
export type Column = BindingId | 'equivalence';
export const COLUMNS: readonly Column[] = [...BINDINGS, 'equivalence'];
export const COLUMN_LABELS = {
  ...Object.fromEntries(BINDINGS.map((b) => [b, bindingLabel(b)])),
  equivalence: 'Equivalence',
} as Record<Column, string>;
export const GROUP_ORDER = ['booking', 'reference', 'transfers'] as const;
/**
 * The matrix group of operations the contract does not have (the negative cases' NoSuchOperation): probes, not
 * operations.
 */
export const PROBES_GROUP = 'probes';
export const GROUP_LABELS: Record<string, string> = {
  booking: 'Booking',
  reference: 'Reference data',
  transfers: 'Transfers',
  [HOSTILE_GROUP]: 'Hostile requests: logins that must fail, secrets that must not come back (docs/checks.md)',
  [PROBES_GROUP]: 'Probes: an operation the service does not have (negative cases, per service)',
};

export type Counts = Record<Status, number> & { total: number };

/**
 * The run's one verdict (src/core/verdict.ts): what it carries, or, for a report of an older version, judged from its
 * rows.
 */
export function verdictOf(report: Parameters<typeof verdictOfReport>[0]): RunVerdict {
  return verdictOfReport(report);
}

export function emptyCounts(): Counts {
  return { passed: 0, failed: 0, skipped: 0, known: 0, total: 0 };
}

export function countRows(rows: readonly ResultRow[]): Counts {
  // Named fields, not c[row.status]: a keyed store per row cost more than the rest of the count.
  const c = emptyCounts();
  for (const row of rows) {
    switch (row.status) {
      case 'passed':
        c.passed++;
        break;
      case 'failed':
        c.failed++;
        break;
      case 'skipped':
        c.skipped++;
        break;
      case 'known':
        c.known++;
        break;
      default:
        c[row.status as Status] += 1;
    }
  }
  c.total = rows.length;
  return c;
}

/**
 * Every format states totals; they must be the totals of the rows they list. A summary that does
 * not add up is an engine bug, and a gate that reports numbers it did not count would hide it.
 */
export function assertSummaryConsistent(report: RunReport): void {
  const c = countRows(report.results);
  const s = report.summary;
  const keys = ['passed', 'failed', 'skipped', 'known', 'total'] as const;
  const bad = keys.filter((k) => c[k] !== s[k]);
  if (bad.length > 0) {
    throw new Error(
      `report.summary disagrees with `
        + `report.results: ${bad.map((k) => `${k} says ${s[k]}, rows count ${c[k]}`).join('; ')}`,
    );
  }
}

/** The matrix column of a row: its binding, or equivalence for rows about several bindings. */
export function columnOf(row: Pick<ResultRow, 'binding' | 'check'>): Column {
  if (rowKind(row) === 'equivalence') return 'equivalence';
  const names = rowBindings(row);
  if (names.length === 1 && (BINDINGS as readonly string[]).includes(names[0]!)) return names[0] as BindingId;
  return 'equivalence';
}

/** Human label of a row's binding field ("SOAP 1.2", or "SOAP 1.1 ↔ HTTP GET"). */
export function rowBindingLabel(binding: string): string {
  const names = rowBindings({ binding });
  if (names.length === 0) return binding;
  return names.map(bindingLabel).join(' ↔ ');
}

/** An operation's group: the catalogue's, else what the row says. */
export function groupOf(operation: string, fallback?: string): string {
  return findOperation(operation)?.group ?? fallback ?? 'other';
}

export interface MatrixRow {
  readonly operation: string;
  readonly group: string;
  readonly cells: Record<Column, ResultRow[]>;
}

export interface MatrixGroup {
  readonly group: string;
  readonly rows: MatrixRow[];
}

/**
 * Rows of the matrix: the run's operations (plus any the results mention), in catalogue order,
 * grouped by service group; unknown operations keep the order they appear in.
 */
export function buildMatrix(report: RunReport): MatrixGroup[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (n: string): void => {
    if (!seen.has(n)) {
      seen.add(n);
      names.push(n);
    }
  };
  report.operations.forEach(add);
  for (const r of report.results) add(r.operation);
  const catalogueIndex = new Map(OPERATIONS.map((op, i) => [op.name, i]));
  const ordered = [...names].sort(
    (a, b) =>
      (catalogueIndex.get(a) ?? Number.MAX_SAFE_INTEGER) - (catalogueIndex.get(b) ?? Number.MAX_SAFE_INTEGER)
      || names.indexOf(a) - names.indexOf(b),
  );

  const rowGroup = new Map<string, string>();
  for (const r of report.results) if (!rowGroup.has(r.operation)) rowGroup.set(r.operation, r.group);
  const byOp = new Map<string, MatrixRow>();
  const emptyCells = () =>
    Object.fromEntries(COLUMNS.map((c) => [c, [] as ResultRow[]])) as Record<Column, ResultRow[]>;
  for (const name of ordered) {
    // An operation the catalogue does not have is a probe of the service, not a 15th operation of a group.
    byOp.set(name, {
      operation: name,
      group: findOperation(name) ? groupOf(name, rowGroup.get(name)) : PROBES_GROUP,
      cells: emptyCells(),
    });
  }
  // The hostile requests' rows (their checks', and every row of a login variant) have a group of their own, an
  // operation per row, after the others.
  const hostile = new Map<string, MatrixRow>();
  for (const r of report.results) {
    if (isHostileRow(r) && findOperation(r.operation)) {
      let row = hostile.get(r.operation);
      if (!row) hostile.set(r.operation, (row = { operation: r.operation, group: HOSTILE_GROUP, cells: emptyCells() }));
      row.cells[columnOf(r)].push(r);
    } else byOp.get(r.operation)!.cells[columnOf(r)].push(r);
  }
  for (const name of ordered) {
    const row = hostile.get(name);
    if (row) byOp.set(`${HOSTILE_GROUP}\u0000${name}`, row);
  }

  const groups: string[] = [...GROUP_ORDER];
  for (const row of byOp.values())
    if (!groups.includes(row.group) && row.group !== PROBES_GROUP && row.group !== HOSTILE_GROUP)
      groups.push(row.group);
  groups.push(HOSTILE_GROUP, PROBES_GROUP);
  return groups
    .map((group) => ({ group, rows: [...byOp.values()].filter((r) => r.group === group) }))
    .filter((g) => g.rows.length > 0);
}

/** The overall state of a set of rows, worst first: failed, known, passed, skipped, empty. */
export function cellState(c: Counts): 'failed' | 'known' | 'passed' | 'skipped' | 'empty' {
  if (c.total === 0) return 'empty';
  if (c.failed > 0) return 'failed';
  if (c.known > 0) return 'known';
  if (c.passed > 0) return 'passed';
  return 'skipped';
}

/**
 * One Allure/JUnit-style "test": the rows of one operation × column × case, in report order. The
 * column is the binding of per-exchange rows and 'equivalence' for every comparison of bindings, so
 * a test keeps its identity from run to run whichever binding departs.
 */
export interface TestGroup {
  readonly operation: string;
  readonly group: string;
  readonly column: Column;
  readonly case: string;
  readonly rows: ResultRow[];
}

/** Group rows by operation × column × case, keeping first-appearance order. */
export function groupTests(rows: readonly ResultRow[]): TestGroup[] {
  // Keyed by operation, then column and case, each a map of its own: no key text built per row.
  const out: TestGroup[] = [];
  const byOperation = new Map<string, Map<Column, Map<string, TestGroup>>>();
  for (const r of rows) {
    const column = columnOf(r);
    let byColumn = byOperation.get(r.operation);
    if (!byColumn) byOperation.set(r.operation, (byColumn = new Map()));
    let byCase = byColumn.get(column);
    if (!byCase) byColumn.set(column, (byCase = new Map()));
    let g = byCase.get(r.case);
    if (!g) {
      g = { operation: r.operation, group: r.group, column, case: r.case, rows: [] };
      byCase.set(r.case, g);
      out.push(g);
    }
    g.rows.push(r);
  }
  return out;
}

/**
 * One operation × column cell of the matrix as one test (Allure): its cases in first-appearance
 * order, each with its rows in report order. Its identity is operation × column, the same in every
 * run and every seed, whichever cases the run generated.
 */
export interface CellGroup {
  readonly operation: string;
  readonly group: string;
  readonly column: Column;
  readonly cases: TestGroup[];
  readonly rows: ResultRow[];
}

/**
 * groupTests' groups gathered by operation × column, in first-appearance order: a cell's cases are
 * exactly its groups, and its rows are theirs, case by case.
 */
export function groupCells(rows: readonly ResultRow[]): CellGroup[] {
  const cells = new Map<string, CellGroup>();
  for (const t of groupTests(rows)) {
    const key = `${t.operation}\u0000${t.column}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { operation: t.operation, group: t.group, column: t.column, cases: [], rows: [] }));
    c.cases.push(t);
    c.rows.push(...t.rows);
  }
  return [...cells.values()];
}

/**
 * A row's identity as a test in JUnit and Allure, the same in every run: operation, column (the
 * binding, or 'equivalence' for a comparison whichever binding departs), case and check. The
 * departing binding is a detail of the result (a property, the message), never part of the name.
 */
export function testName(r: Pick<ResultRow, 'operation' | 'binding' | 'case' | 'check'>): string {
  return `${r.operation} [${columnOf(r)}] ${r.case} :: ${r.check}`;
}

/** The one-line name of a row, shared by JUnit, console and Markdown. */
export function rowTitle(r: Pick<ResultRow, 'operation' | 'binding' | 'case' | 'check'>): string {
  return `${r.operation} [${r.binding}] ${r.case} :: ${r.check}`;
}

// Characters XML 1.0 forbids (C0 controls but TAB/LF/CR, lone surrogates, U+FFFE/U+FFFF). HTML and
// terminals mishandle them too, so every text format shows them as visible \uXXXX escapes. So are
// characters that reorder or break lines where a reader does not see it: the bidirectional
// controls (U+202E turns "exe.txt" into "txt.exe"), NEL and the line and paragraph separators (a
// CI log or an editor starts a new line there, so a target could write a fake log line).
const BIDI_AND_LINES = String.raw`\u0085\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069`;
const LONE_SURROGATE = String.raw`[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]`;
const XML_ILLEGAL = new RegExp(
  String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF${BIDI_AND_LINES}]|${LONE_SURROGATE}`,
  'g',
);
// For terminals also DEL and C1 controls (ESC sequences can rewrite a CI log).
const CONSOLE_ILLEGAL = new RegExp(
  String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF${BIDI_AND_LINES}]|${LONE_SURROGATE}`,
  'g',
);
/** The same characters inside a JSON text, where an escape keeps the value and makes the file safe to read. */
const JSON_UNSAFE = new RegExp(String.raw`[${BIDI_AND_LINES}\u007F-\u009F]`, 'g');

function uEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A character beyond printable ASCII, tab and line breaks: only a text holding one can hold what visibleText replaces.
 */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;

/**
 * Text with XML-1.0-illegal, bidirectional-control and line-separator characters replaced by visible \uXXXX escapes.
 */
export function visibleText(s: string): string {
  // The plain test first: the replacing scan (surrogates, bidi ranges) is the slower, and most text is plain ASCII.
  return NOT_PLAIN.test(s) ? s.replace(XML_ILLEGAL, uEscape) : s;
}

/** Text safe to print to a terminal: also C1 controls and DEL made visible, CR normalised. */
export function consoleText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(CONSOLE_ILLEGAL, uEscape);
}

/**
 * A JSON text (from JSON.stringify) with the characters a reader of the file would not see written
 * as JSON escapes: the parsed values are the same, the file cannot reorder or fake lines. They can
 * only occur inside strings, where \uXXXX is their escape.
 */
export function jsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The first `max` characters of s, and whether anything was cut. Never splits a surrogate pair. */
export function truncate(s: string, max: number): { text: string; truncated: boolean; length: number } {
  if (s.length <= max) return { text: s, truncated: false, length: s.length };
  let end = max;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: s.slice(0, end), truncated: true, length: s.length };
}

/** A valid case some binding answered with an in-band Error: the case never reached the data path. */
export interface InBandCase {
  readonly operation: string;
  readonly case: string;
  readonly bindings: readonly string[];
  /** ErrorType and Message as the first binding gave them. */
  readonly type: string;
  readonly message: string;
}

/**
 * The valid cases answered with an in-band Error (rows carrying `inBandError`), one entry per
 * operation × case, in report order. Not a contract violation, but a person must see them: the case
 * needs data that exists on the target (real booking ids in the config's cases).
 */
export function inBandCases(report: Pick<RunReport, 'results'>): InBandCase[] {
  const out = new Map<string, { operation: string; case: string; bindings: string[]; type: string; message: string }>();
  for (const r of report.results) {
    if (!r.inBandError) continue;
    const key = JSON.stringify([r.operation, r.case]);
    const hit = out.get(key);
    if (hit) {
      if (!hit.bindings.includes(r.binding)) hit.bindings.push(r.binding);
    } else {
      out.set(key, {
        operation: r.operation,
        case: r.case,
        bindings: [r.binding],
        type: r.inBandError.type,
        message: r.inBandError.message,
      });
    }
  }
  return [...out.values()];
}

/** The one-line explanation that goes with a list of `n` in-band cases, in every format. */
export function inBandNote(n: number): string {
  return (
    `${n} valid case${n === 1 ? '' : 's'} answered with an in-band Error: not a contract violation, `
    + `but ${n === 1 ? 'it' : 'they'} never reached the data path. `
    + 'Give them data that exists on this target (the config file\'s "cases"; a state-changing '
    + "operation's, bookings of its pool that exist and can still be changed: docs/real-service.md)."
  );
}

/** An accepted deviation as the reports list it, with what a person should look at. */
export interface Deviation {
  readonly entry: NonNullable<RunReport['expectations']>['entries'][number];
  /** The reason is still the placeholder --update-expectations writes. */
  readonly todo: boolean;
  /** Days until the entry expires (0: it expires today; negative: expired), when it has an expiry. */
  readonly daysLeft?: number;
  /** It needs attention: no reason, expiring within 30 days, expired or stale. */
  readonly flagged: boolean;
}

/** Days from `today` to `day` (both YYYY-MM-DD, UTC). */
function daysBetween(today: string, day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/**
 * The expectations file's entries that this run judged (accepted, stale or expired), flagged where a person must act.
 */
export function deviations(report: Pick<RunReport, 'expectations'>): Deviation[] {
  const x = report.expectations;
  if (!x) return [];
  return x.entries
    .filter((e) => e.state !== 'unexercised')
    .map((entry) => {
      const todo = /^TODO\b/.test(entry.reason.trim());
      const daysLeft = entry.expires === undefined ? undefined : daysBetween(x.today, entry.expires);
      const flagged = todo || entry.state !== 'ok' || (daysLeft !== undefined && daysLeft <= 30);
      return { entry, todo, ...(daysLeft !== undefined ? { daysLeft } : {}), flagged };
    });
}

/** What is wrong with an accepted deviation, in words ('' when nothing). */
export function deviationFlags(d: Deviation): string {
  const out: string[] = [];
  if (d.entry.state === 'stale') out.push('stale: no longer fails, remove it');
  if (d.entry.state === 'expired') out.push(`expired on ${d.entry.expires}: fails again`);
  if (d.entry.state === 'unexplained') out.push('no reason given: accepts nothing, its rows fail');
  else if (d.todo) out.push('no reason given');
  if (d.entry.state === 'ok' && d.daysLeft !== undefined && d.daysLeft <= 30)
    out.push(d.daysLeft === 0 ? 'expires today' : `expires in ${d.daysLeft} day${d.daysLeft === 1 ? '' : 's'}`);
  return out.join('; ');
}

/** "12.3 s", "850 ms", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'n/a';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** "3 failed, 120 passed, 5 skipped, 2 known deviations (130 checks)". */
export function countsLine(c: Counts | RunReport['summary']): string {
  const unreached = 'passedUnreached' in c ? (c.passedUnreached ?? 0) : 0;
  // Passes on answers that never reached the data path are no passes of the contract: counted apart.
  return (
    `${c.failed} failed, ${c.passed - unreached} `
    + `passed${unreached ? ` (and ${unreached} on answers that never reached the data path)` : ''}, ${c.skipped} `
    + `skipped, ${c.known} `
    + `known deviation${c.known === 1 ? '' : 's'} (${c.total} check${c.total === 1 ? '' : 's'})`
  );
}

/** An operation not called at all, and why (the reason its rows give). */
export interface SkippedOperation {
  readonly operation: string;
  readonly reason: string;
}

/**
 * The operations of a run that got no exchange at all (every row of theirs is a not-run row), with
 * the reason: a count of skipped rows does not say that a whole operation went untested.
 */
export function skippedOperations(report: Pick<RunReport, 'results' | 'operations'>): SkippedOperation[] {
  // The rows of each operation in one pass: a full run has about 8,000 rows, read once, not once per operation.
  const rowsOf = new Map<string, ResultRow[]>(report.operations.map((o) => [o, []]));
  for (const r of report.results) rowsOf.get(r.operation)?.push(r);
  return report.operations.flatMap((operation) => {
    const reason = notCalledReason(operation, rowsOf.get(operation)!);
    return reason === undefined ? [] : [{ operation, reason }];
  });
}

/** Where reproduce commands read the password from, for the report headers. */
export function passwordVariableOf(report: Pick<RunReport, 'passwordVariable'>): string {
  return report.passwordVariable ?? PASSWORD_VARIABLE;
}

/**
 * One step of a failed sequence row, as the reports write it: "UpdateSpecialRequest soap11 · booking 300008 · wrote "…"
 * → accepted".
 */
export function stepText(s: SequenceStep): string {
  return (
    `${s.operation} ${s.binding} · `
    + `booking ${s.booking}${s.account !== undefined ? ` · as ${s.account}` : ''}${s.text !== undefined ? ` · wrote ${JSON.stringify(s.text)}` : ''} `
    + `→ ${s.outcome}`
  );
}

/** The bookings a run changed, per pool and outcome, for a summary line ("cancel 55 (54 accepted, 1 rejected)"). */
export function changedBookingsLine(report: Pick<RunReport, 'bookings'>): string | undefined {
  const b = report.bookings;
  if (!b) return undefined;
  const pools = new Map<string, { ids: Set<string>; accepted: number; other: number }>();
  for (const c of b.changed) {
    const p = pools.get(c.pool) ?? { ids: new Set(), accepted: 0, other: 0 };
    p.ids.add(c.id);
    if (c.outcome === 'accepted') p.accepted++;
    else p.other++;
    pools.set(c.pool, p);
  }
  const used = [...pools]
    .map(([k, p]) => `${k} ${p.ids.size} (${p.accepted} calls accepted${p.other ? `, ${p.other} not` : ''})`)
    .join(', ');
  const short = Object.entries(b.short ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `Bookings changed: ${used || 'none'}${short ? `; calls not sent for want of a booking: ${short}` : ''}`;
}
