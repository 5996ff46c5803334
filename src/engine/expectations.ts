/**
 * Known deviations: an expectations file lists failures of a target that are accepted for now.
 * Applied after the run, on the RunReport: matching failed rows become `known` (they do not fail the
 * gate), and an entry that no longer fails (stale) or whose `expires` date has passed becomes a
 * failed row of its own, check `expectations`, so the file stays true. The summary is recomputed.
 *
 * Applying is idempotent: rows a previous application marked known are failed again first, and
 * earlier `expectations` rows are dropped, so a merged report can be re-judged with the same file.
 */
import { DEFECT_CODE_NAMES } from '../core/defect-codes.js';
import { didYouMean } from '../core/suggest.js';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from '../core/json-file.js';
import { findOperation, OPERATIONS } from '../contract/catalogue.js';
import { CHECK_NAMES } from '../checks/registry.js';
import { ConfigError } from '../core/errors.js';
import type { Expectation, ExpectationsSummary, ResultRow, RunReport } from '../core/types.js';
import { validateJson } from '../schema/json.js';
import { EQUIVALENCE_CHECK, EXCHANGE_CHECK, LATENCY_CHECK, NOT_RUN_CHECK } from '../core/rows.js';
import { summarise } from './rows.js';
import { UNKNOWN_OPERATION } from './plan.js';

/** Whether a row is the latency gate's (./latency-gate.ts): never matched by an expectation, nor written into one. */
function isLatencyRow(r: Pick<ResultRow, 'check'>): boolean {
  return r.check === LATENCY_CHECK;
}

/** Check name of the rows about the expectations file itself (stale or expired entries). */
export const EXPECTATIONS_CHECK = 'expectations';
/** Reason written for entries --update-expectations adds. */
export const TODO_REASON = 'TODO: explain';
export const EXPECTATIONS_SCHEMA_URL = new URL('../../schemas/expectations.schema.json', import.meta.url);

export interface ExpectationsFile {
  readonly $schema?: string;
  readonly description?: string;
  readonly expectations: readonly Expectation[];
}

/** Check names a row can carry: the registry's, plus the engine's own. */
export function knownCheckNames(): string[] {
  return [...new Set([EXCHANGE_CHECK, ...CHECK_NAMES, EQUIVALENCE_CHECK, NOT_RUN_CHECK])];
}

const normBinding = (b: string): string => b.replace(/\s+/g, '');

function realDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Check a parsed expectations file completely; every problem is named (ConfigError, exit 2). */
export function parseExpectations(json: unknown, where: string): ExpectationsFile {
  const schema = JSON.parse(readFileSync(EXPECTATIONS_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  const errors = validateJson(json, schema);
  if (errors.length)
    throw new ConfigError(
      `${where} is not a valid expectations `
        + `file: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`,
    );
  const file = json as ExpectationsFile;
  const checks = knownCheckNames();
  const seen = new Map<string, number>();
  file.expectations.forEach((e, i) => {
    const at = `${where}: /expectations/${i}`;
    if (!findOperation(e.operation) && e.operation !== UNKNOWN_OPERATION) {
      throw new ConfigError(
        `${at}: unknown operation "${e.operation}"${didYouMean(
          e.operation,
          OPERATIONS.map((o) => o.name),
        )}`,
      );
    }
    if (e.check === EXPECTATIONS_CHECK)
      throw new ConfigError(`${at}: check "${EXPECTATIONS_CHECK}" reports the file itself and cannot be accepted`);
    if (e.check === LATENCY_CHECK || e.code === 'latency_p95_exceeded') {
      throw new ConfigError(
        `${at}: latency is never an expectation (the latency gate, --max-p95, is judged on every run); `
          + `raise the limit in the config's latency instead`,
      );
    }
    if (!checks.includes(e.check))
      throw new ConfigError(
        `${at}: unknown check "${e.check}"${didYouMean(e.check, checks)} (checks: ${checks.join(', ')})`,
      );
    if (e.code !== undefined && !(DEFECT_CODE_NAMES as readonly string[]).includes(e.code)) {
      throw new ConfigError(
        `${at}: unknown defect code "${e.code}"${didYouMean(e.code, DEFECT_CODE_NAMES)} (codes: `
          + `docs/checks.md, "Defect codes")`,
      );
    }
    const bs = normBinding(e.binding).split(',');
    if (new Set(bs).size !== bs.length) throw new ConfigError(`${at}: binding "${e.binding}" names a binding twice`);
    if (e.expires !== undefined && !realDate(e.expires))
      throw new ConfigError(`${at}: expires "${e.expires}" is not a calendar date (YYYY-MM-DD)`);
    const key = keyOf(e);
    if (seen.has(key))
      throw new ConfigError(
        `${at}: the same deviation as /expectations/${seen.get(key)} (one entry per operation, binding, `
          + `check and case)`,
      );
    seen.set(key, i);
  });
  return file;
}

/** Read and check an expectations file. */
export function readExpectations(path: string): ExpectationsFile {
  const what = `expectations file ${path}`;
  return parseExpectations(
    readJsonFile(path, what, (m) => new ConfigError(m)),
    what,
  );
}

/** The file's text as --update-expectations writes it. */
export function renderExpectations(file: ExpectationsFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

function keyOf(e: Pick<Expectation, 'operation' | 'binding' | 'check' | 'case' | 'code'>): string {
  return JSON.stringify([e.operation, normBinding(e.binding), e.check, e.case ?? null, e.code ?? null]);
}

/** Whether the entry is about this row (its operation, binding, check and case). */
export function matches(e: Expectation, row: Pick<ResultRow, 'operation' | 'binding' | 'check' | 'case'>): boolean {
  return (
    row.operation === e.operation
    && normBinding(row.binding) === normBinding(e.binding)
    && row.check === e.check
    && (e.case === undefined || row.case === e.case)
  );
}

/** Whether the entry's deviation occurs in this failing row: any failure, or one finding of the entry's code. */
function occursIn(e: Expectation, row: ResultRow): boolean {
  return (
    matches(e, row)
    && (row.status === 'failed' || row.status === 'known')
    && (e.code === undefined || row.findings.some((f) => f.code === e.code))
  );
}

/**
 * Whether these entries together cover this failing row: one of them names no code, or every
 * finding's code is named by one of them (a new kind of defect in the row is not hidden).
 */
function covers(es: readonly Expectation[], row: ResultRow): boolean {
  const mine = es.filter((e) => occursIn(e, row));
  return (
    mine.length > 0
    && (mine.some((e) => e.code === undefined) || row.findings.every((f) => mine.some((e) => e.code === f.code)))
  );
}

/**
 * Whether the entry still waits for its reason ("TODO: explain", as --update-expectations writes
 * it). Such an entry accepts nothing: a file written by one command must not turn a red gate green
 * before a person has said why each deviation is acceptable.
 */
export function unexplained(e: Pick<Expectation, 'reason'>): boolean {
  return /^TODO\b/i.test(e.reason.trim());
}

/** `operation [binding] case :: check` of an entry (`*` for every case; `check/code` for one kind of defect). */
export function describeEntry(e: Expectation): string {
  return (
    `${e.operation} [${normBinding(e.binding)}] ${e.case ?? '*'} `
    + `:: ${e.check}${e.code !== undefined ? `/${e.code}` : ''}`
  );
}

const KNOWN_PREFIX_RE = /^known deviation: ("(?:[^"\\]|\\.)*") — /;

function knownMessage(reason: string, message: string): string {
  return `known deviation: ${JSON.stringify(reason)} — ${message}`;
}

/** A row as the run produced it: status known undone (message restored). */
function unapplied(row: ResultRow): ResultRow {
  if (row.status !== 'known') return row;
  return { ...row, status: 'failed', message: row.message.replace(KNOWN_PREFIX_RE, '') };
}

/** Today's date in UTC, YYYY-MM-DD. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export interface ApplyOptions {
  /** The date the expiry is judged on (YYYY-MM-DD); default today (UTC). */
  readonly today?: string;
  /** Name of the file, for messages. */
  readonly source?: string;
  /**
   * Whether the run saw every row the entry is about, so that "no failure" means stale. Default: rows
   * for it exist. A shard passes a stricter test: an entry without a case is judged only by the shard
   * that ran every case of its operation.
   */
  readonly judged?: (e: Expectation, rows: readonly ResultRow[]) => boolean;
}

export interface EntryVerdict {
  readonly index: number;
  readonly entry: Expectation;
  /** 'ok': still fails, accepted; 'stale': no longer fails; 'expired': still fails, no longer accepted;
   *  'unexplained': still fails, not accepted while its reason is "TODO: explain";
   *  'unexercised': the run had no (judgeable) rows for it. */
  readonly state: 'ok' | 'stale' | 'expired' | 'unexplained' | 'unexercised';
  /** Rows the entry marked known (ok) or left failed (expired). */
  readonly failing: number;
}

export interface Applied {
  readonly report: RunReport;
  readonly verdicts: readonly EntryVerdict[];
}

const defaultJudged = (_e: Expectation, rows: readonly ResultRow[]) => rows.length > 0;

/** Apply the expectations to a report: a new report with known rows, stale/expired rows and a recomputed summary. */
export function applyExpectations(report: RunReport, file: ExpectationsFile, opts: ApplyOptions = {}): Applied {
  const day = opts.today ?? today();
  const source = opts.source ?? 'the expectations file';
  const judged = opts.judged ?? defaultJudged;
  const ran = report.results.filter((r) => r.check !== EXPECTATIONS_CHECK).map(unapplied);
  // The latency gate's rows are never accepted, nor judged by an entry (judgeable: the rest).
  const judgeable = ran.filter((r) => !isLatencyRow(r));
  const expiredEntry = (e: Expectation) => e.expires !== undefined && day > e.expires;
  // The entries that accept: neither expired nor still without a reason. A row is accepted when
  // they cover it together (one entry per kind of defect, as --update-expectations writes them).
  const accepting = file.expectations.filter((e) => !expiredEntry(e) && !unexplained(e));
  const rows = ran.map((r) => {
    if (r.status !== 'failed' || isLatencyRow(r) || !covers(accepting, r)) return r;
    const reasons = [...new Set(accepting.filter((e) => occursIn(e, r)).map((e) => e.reason))];
    return { ...r, status: 'known' as const, message: knownMessage(reasons.join('; '), r.message) };
  });
  const verdicts: EntryVerdict[] = [];
  const extra: ResultRow[] = [];
  file.expectations.forEach((entry, index) => {
    const mine = judgeable.filter((r) => matches(entry, r));
    const failing = mine.filter((r) => occursIn(entry, r));
    const expired = expiredEntry(entry);
    const decided = judged(entry, mine);
    // Gone: its rows pass, or (an entry of one code) fail only with other kinds of defect.
    const gone = mine.some((r) => r.status === 'passed' || (entry.code !== undefined && r.status === 'failed'));
    let state: EntryVerdict['state'];
    if (failing.length > 0) state = expired ? 'expired' : unexplained(entry) ? 'unexplained' : 'ok';
    else if (decided && gone) state = 'stale';
    else state = 'unexercised';
    verdicts.push({ index, entry, state, failing: failing.length });
    // An unexplained entry's rows fail as they are: they say what is wrong better than a row of its own.
    if (state === 'ok' || state === 'unexercised' || state === 'unexplained') return;

    const what = describeEntry(entry);
    const passing = mine.filter((r) => r.status === 'passed').length;
    const message =
      state === 'stale'
        ? `stale expectation: ${what} no longer fails (${passing} passing `
          + `row${passing === 1 ? '' : 's'})${expired ? ` and expired on ${entry.expires}` : ''}; `
          + `remove /expectations/${index} from ${source} or run with --update-expectations (reason `
          + `was: ${JSON.stringify(entry.reason)})`
        : `expired expectation: ${what} was accepted until ${entry.expires} and still fails `
          + `(${failing.length} rows, not accepted any more); `
          + `fix the target, or renew "expires" of /expectations/${index} in ${source} `
          + `(reason: ${JSON.stringify(entry.reason)})`;
    extra.push({
      operation: entry.operation,
      group: mine[0]?.group ?? findOperation(entry.operation)?.group ?? 'booking',
      binding: normBinding(entry.binding),
      case: entry.case ?? '*',
      check: EXPECTATIONS_CHECK,
      status: 'failed',
      message,
      path: `/expectations/${index}`,
      reproduce: '',
      findings: [
        {
          check: entry.check,
          code: state === 'stale' ? 'expectation_stale' : 'expectation_expired',
          path: `/expectations/${index}`,
          message:
            state === 'stale'
              ? `${what}: the accepted deviation no longer occurs`
              : `${what}: the acceptance has expired`,
          expected:
            state === 'stale'
              ? `a failing ${entry.check} row (the accepted deviation)`
              : `accepted until ${entry.expires}`,
          actual: state === 'stale' ? 'no failing row: the deviation is gone' : `today is ${day}`,
        },
      ],
    });
  });
  const results = [...rows, ...extra];
  const summary: ExpectationsSummary = {
    file: opts.source ?? 'expectations',
    today: day,
    entries: verdicts.map((v) => ({
      index: v.index,
      operation: v.entry.operation,
      binding: normBinding(v.entry.binding),
      check: v.entry.check,
      ...(v.entry.case !== undefined ? { case: v.entry.case } : {}),
      ...(v.entry.code !== undefined ? { code: v.entry.code } : {}),
      reason: v.entry.reason,
      ...(v.entry.expires !== undefined ? { expires: v.entry.expires } : {}),
      state: v.state,
      rows: v.failing,
    })),
  };
  return { report: { ...report, results, summary: summarise(results), expectations: summary }, verdicts };
}

/** The warning line a verdict needs (stale, expired, unexplained), or undefined; `source` names the file. */
export function verdictWarning(v: EntryVerdict, source: string): string | undefined {
  const at = `${source} /expectations/${v.index} (${describeEntry(v.entry)})`;
  switch (v.state) {
    case 'stale':
      return `${at} is stale: it no longer fails; remove it or run --update-expectations`;
    case 'expired':
      return `${at} is expired on ${v.entry.expires} and still fails`;
    case 'unexplained':
      return (
        `${at} has no reason yet (${JSON.stringify(v.entry.reason)}): it accepts nothing, `
        + `its ${v.failing} failing row${v.failing === 1 ? '' : 's'} still fail${v.failing === 1 ? 's' : ''} `
        + `the run; write why the deviation is acceptable`
      );
    default:
      return undefined;
  }
}

export interface UpdateOutcome {
  readonly file: ExpectationsFile;
  readonly added: number;
  readonly removed: readonly Expectation[];
  readonly kept: number;
}

/** The `$schema` a written file names: the published schema, relative to the file's directory. */
export function expectationsSchemaRef(file: string): string {
  const rel = relative(dirname(resolve(file)), fileURLToPath(EXPECTATIONS_SCHEMA_URL))
    .split(sep)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * The file --update-expectations writes: existing entries that still match a failure (or that the
 * run could not judge) are kept with their reason and expiry, judged entries that no longer fail are
 * dropped, and every defect no entry covers gets a new entry with reason "TODO: explain": one per
 * operation, binding, check and defect code, for every case (a generated case's id changes with
 * --seed; the defect does not). `schema` is the `$schema` to write when the file has none.
 */
export function updateExpectations(
  report: RunReport,
  old: ExpectationsFile | undefined,
  opts: Pick<ApplyOptions, 'judged'> & { readonly schema?: string } = {},
): UpdateOutcome {
  const judged = opts.judged ?? defaultJudged;
  // Latency is never written into expectations: its rows are left out of what the file is made from.
  const rows = report.results.filter((r) => r.check !== EXPECTATIONS_CHECK && !isLatencyRow(r)).map(unapplied);
  const failing = rows.filter((r) => r.status === 'failed');
  const kept: Expectation[] = [];
  const removed: Expectation[] = [];
  for (const e of old?.expectations ?? []) {
    const mine = rows.filter((r) => matches(e, r));
    if (
      failing.some((r) => occursIn(e, r))
      || !judged(e, mine)
      || !mine.some((r) => r.status === 'passed' || (e.code !== undefined && r.status === 'failed'))
    )
      kept.push(e);
    else removed.push(e);
  }
  const added: Expectation[] = [];
  for (const r of failing) {
    if (covers([...kept, ...added], r)) continue;
    const entry = { operation: r.operation, binding: normBinding(r.binding), check: r.check };
    // One entry per kind of defect the row has and no entry covers yet (none: the row has no findings).
    const codes = [...new Set(r.findings.map((f) => f.code))].filter(
      (code) => ![...kept, ...added].some((e) => e.code === code && occursIn(e, r)),
    );
    if (r.findings.length === 0) added.push({ ...entry, reason: TODO_REASON });
    for (const code of codes) added.push({ ...entry, code, reason: TODO_REASON });
  }
  const schema = old?.$schema ?? opts.schema;
  const file: ExpectationsFile = {
    ...(schema !== undefined ? { $schema: schema } : {}),
    ...(old?.description !== undefined ? { description: old.description } : {}),
    expectations: [...kept, ...added],
  };
  return { file, added: added.length, removed, kept: kept.length };
}
