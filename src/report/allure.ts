/**
 * allure-results/: Allure 2 results written through allure-js-commons' own ReporterRuntime, so the
 * file format is the library's. One test per operation × column cell of the matrix (a binding, or
 * equivalence for the comparisons of bindings), fullName `group.operation.column`, the same in every
 * run and seed, so Allure keeps its history and retries; inside it one step per case and, under
 * each, one step per check (a sequence's calls numbered beneath). Labels: epic = group, feature =
 * binding, story = operation, parentSuite / suite / subSuite = group / operation / binding.
 *
 * A case with a failed or known row has its requests and responses attached to its step, one
 * attachment each; the exchanges of the other cases of the cell are one attachment of the test,
 * "Exchanges (N cases)", its excerpts sharing ATTACHMENT_MAX characters. A clean run so writes about
 * two files per cell instead of a result per case and a file per exchange.
 *
 * Known deviations do not fail the test: their steps are "skipped" with a message starting
 * "known deviation:", the test gets the tag known-deviation, and categories.json files them under
 * "Known deviations".
 */
import {
  ContentType,
  LabelName,
  Stage,
  Status,
  type Label,
  type StepResult,
  type TestResult,
  type TestResultContainer,
  type Globals,
} from 'allure-js-commons';
import { ReporterRuntime, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow, RunReport, Status as RowStatus } from '../core/types.js';
import { formatFindings } from './console.js';
import { rerunCommand } from './rerun.js';
import {
  rowBindingLabel,
  COLUMN_LABELS,
  countRows,
  countsLine,
  GROUP_LABELS,
  groupCells,
  jsonText,
  stepText,
  truncate,
  visibleText,
  type CellGroup,
  type TestGroup,
} from './model.js';

/**
 * Longest request/response attachment, in characters (attachments are excerpts, not archives); the
 * excerpts of a cell's "Exchanges" attachment share this many between them.
 */
export const ATTACHMENT_MAX = 64 * 1024;
/** Lines of a test's status message (its failed checks) before "… and N more". */
export const MESSAGE_LINES = 50;

type Category = { name: string; matchedStatuses?: Status[]; messageRegex?: string; description?: string };

/** One write the runtime asked for, with the bytes it will produce (checked before anything is written). */
interface PendingWrite {
  readonly name: string;
  bytes: Buffer;
  apply(to: Writer): void;
}

/**
 * A Writer that records what the runtime writes and replays it onto a real writer later: all
 * report bytes are checked for secrets before the first file exists. Each write is serialised once,
 * when the runtime hands it over (the runtime may reuse its objects afterwards); those bytes are what
 * is written, and what a replay onto another Writer parses back.
 */
export class DeferredWriter implements Writer {
  readonly pending: PendingWrite[] = [];

  private pushJson<T>(name: string, value: T, write: (w: Writer, v: T) => void): void {
    const p: PendingWrite = {
      name,
      bytes: Buffer.from(jsonText(JSON.stringify(value))),
      apply: (w) => write(w, JSON.parse(p.bytes.toString('utf8')) as T),
    };
    this.pending.push(p);
  }

  writeResult(result: TestResult): void {
    this.pushJson(`${result.uuid}-result.json`, result, (w, v) => w.writeResult(v));
  }

  writeGroup(result: TestResultContainer): void {
    this.pushJson(`${result.uuid}-container.json`, result, (w, v) => w.writeGroup(v));
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    const p: PendingWrite = {
      name: distFileName,
      bytes: Buffer.from(content),
      apply: (w) => w.writeAttachment(distFileName, p.bytes),
    };
    this.pending.push(p);
  }

  writeAttachmentFromPath(distFileName: string): void {
    throw new Error(`attachment ${distFileName}: report attachments are written from memory, never copied from a path`);
  }

  writeEnvironmentInfo(info: Record<string, string | undefined>): void {
    const copy = { ...info };
    this.pending.push({
      name: 'environment.properties',
      bytes: Buffer.from(stringifyEnvInfo(copy)),
      apply: (w) => w.writeEnvironmentInfo(copy),
    });
  }

  writeCategoriesDefinitions(categories: Category[]): void {
    this.pushJson('categories.json', categories, (w, v) => w.writeCategoriesDefinitions(v));
  }

  writeGlobals(distFileName: string, info: Globals): void {
    this.pushJson(distFileName, info, (w, v) => w.writeGlobals(distFileName, v));
  }

  /** Write every recorded file into dir. */
  flushTo(dir: string): void {
    // The bytes checked (and, where the secret guard found something, redacted) are the bytes
    // written: the same text allure-js-commons' FileSystemWriter writes, without its fsync per file.
    for (const p of this.pending) writeFileSync(join(dir, p.name), p.bytes);
  }
}

const STEP_STATUS: Record<RowStatus, Status> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  skipped: Status.SKIPPED,
  known: Status.SKIPPED,
};

function stepMessage(r: ResultRow): string | undefined {
  const base = r.message || r.findings[0]?.message;
  if (r.status === 'known') return `known deviation: ${base ?? r.check}`;
  if (r.status === 'failed') return `${r.path ? `${r.path}: ` : ''}${base ?? 'failed'}`;
  return base || undefined;
}

function testStatus(rows: readonly ResultRow[]): Status {
  if (rows.some((r) => r.status === 'failed')) return Status.FAILED;
  if (rows.some((r) => r.status === 'passed' || r.status === 'known')) return Status.PASSED;
  return Status.SKIPPED;
}

function labelsOf(c: CellGroup): Label[] {
  const binding = COLUMN_LABELS[c.column];
  const labels: Label[] = [
    { name: LabelName.EPIC, value: c.group },
    { name: LabelName.FEATURE, value: binding },
    { name: LabelName.STORY, value: c.operation },
    { name: LabelName.PARENT_SUITE, value: GROUP_LABELS[c.group] ?? c.group },
    { name: LabelName.SUITE, value: c.operation },
    { name: LabelName.SUB_SUITE, value: binding },
    { name: LabelName.FRAMEWORK, value: 'accommodation-conformance' },
  ];
  if (c.rows.some((r) => r.status === 'known')) labels.push({ name: LabelName.TAG, value: 'known-deviation' });
  return labels;
}

/**
 * What a test's or a case step's status message lists: its failed rows; else, when every row was
 * skipped, why; else its known deviations. Undefined for a plain pass.
 */
function statusLines(rows: readonly ResultRow[], prefix: (r: ResultRow) => string): string[] | undefined {
  const failed = rows.filter((r) => r.status === 'failed');
  if (failed.length > 0) return failed.map((r) => `${prefix(r)}${r.check}: ${stepMessage(r) ?? ''}`);
  if (rows.every((r) => r.status === 'skipped'))
    return rows.map((r) => `${prefix(r)}${r.check}: ${r.message || 'skipped'}`);
  const known = rows.filter((r) => r.status === 'known');
  if (known.length > 0) return known.map((r) => `${prefix(r)}${r.check}: ${stepMessage(r) ?? ''}`);
  return undefined;
}

/** The first MESSAGE_LINES lines, then "… and N more <what>". */
function capLines(lines: readonly string[], what: string): string {
  if (lines.length <= MESSAGE_LINES) return lines.join('\n');
  return [...lines.slice(0, MESSAGE_LINES), `… and ${lines.length - MESSAGE_LINES} more ${what}`].join('\n');
}

/** An excerpt cut to `max` characters, saying so when it was. */
function cut(text: string, max: number): string {
  const t = truncate(text, max);
  return t.truncated ? `${t.text}\n\n[truncated: first ${t.text.length} of ${t.length} characters]` : t.text;
}

interface Excerpt {
  readonly kind: 'Request' | 'Response';
  /** The excerpt as written (visible text). */
  readonly text: string;
  /** A further distinct request (or response) of the case names its row: "soap11, sequence". */
  readonly detail?: string;
}

/** Each distinct request and response of a case's rows, in row order. */
function excerptsOf(t: TestGroup): Excerpt[] {
  const seen = { Request: new Set<string>(), Response: new Set<string>() };
  const out: Excerpt[] = [];
  for (const r of t.rows) {
    for (const [kind, text] of [
      ['Request', r.request],
      ['Response', r.response],
    ] as const) {
      if (text === undefined || text === '' || seen[kind].has(text)) continue;
      seen[kind].add(text);
      out.push({
        kind,
        text: visibleText(text),
        ...(seen[kind].size > 1 ? { detail: `${r.binding}, ${r.check}` } : {}),
      });
    }
  }
  return out;
}

/**
 * Share `budget` characters between texts of the given lengths: each gets its whole length or an
 * equal share of what the shorter ones left, whichever is less. The shares add up to at most the
 * budget, and no text gets less than an equal share of it.
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const out = lengths.map(() => 0);
  let left = budget;
  order.forEach((i, k) => {
    out[i] = Math.min(lengths[i]!, Math.floor(left / (order.length - k)));
    left -= out[i]!;
  });
  return out;
}

/**
 * The one attachment that holds the exchanges of a cell's cases with no failed or known row: each
 * case's excerpts under its id, sharing ATTACHMENT_MAX characters (a long excerpt is cut, and says
 * so; every case keeps its heading). Undefined when none of them has an exchange.
 */
function exchangesText(c: CellGroup, cases: readonly TestGroup[]): { text: string; cases: number } | undefined {
  const blocks = cases.map((t) => ({ t, excerpts: excerptsOf(t) })).filter((b) => b.excerpts.length > 0);
  if (blocks.length === 0) return undefined;
  const all = blocks.flatMap((b) => b.excerpts);
  const shares = shareBudget(
    all.map((e) => e.text.length),
    ATTACHMENT_MAX,
  );
  let i = 0;
  const where =
    c.column === 'equivalence'
      ? `${c.operation}, the bindings compared`
      : `${c.operation} on ${rowBindingLabel(c.column)}`;
  const out = [
    `${where}: the exchanges of the ${blocks.length} case${blocks.length === 1 ? '' : 's'} with no `
      + `failed check and no known deviation `
      + `(a failing case's exchanges are attached to its step). The excerpts share ${ATTACHMENT_MAX} `
      + `characters; a longer one is cut.`,
  ];
  for (const b of blocks) {
    out.push('', `=== case ${b.t.case}`);
    for (const e of b.excerpts)
      out.push(`--- ${e.kind}${e.detail !== undefined ? ` (${e.detail})` : ''}`, cut(e.text, shares[i++]!));
  }
  return { text: out.join('\n'), cases: blocks.length };
}

/**
 * A finished step (the shape of allure-js-commons' createStepResult) starting at `start`; `stop` is set when its rows
 * are laid out.
 */
function newStep(
  name: string,
  start: number,
  status?: Status,
  statusDetails: StepResult['statusDetails'] = {},
  parameters: StepResult['parameters'] = [],
): StepResult {
  return {
    status,
    statusDetails,
    stage: Stage.FINISHED,
    steps: [],
    attachments: [],
    parameters,
    name,
    start,
    stop: start,
  };
}

/**
 * Produce the Allure results of a report into a DeferredWriter (nothing touches the disk yet): one
 * test per operation × column cell. Times are laid end to end from startedAt using each row's
 * duration.
 */
/** The re-run command of a row, as the end of its step's trace (src/report/rerun.ts). */
function rerunTrace(report: RunReport, r: ResultRow): string {
  const again = rerunCommand(report, r);
  return again ? `\n\nre-run just this row:\n${again}` : '';
}

export function renderAllure(report: RunReport): DeferredWriter {
  const writer = new DeferredWriter();
  const runtime = new ReporterRuntime({
    writer,
    environmentInfo: {
      'target.bookUrl': report.target.bookUrl,
      'target.searchUrl': report.target.searchUrl,
      'target.transfersUrl': report.target.transfersUrl,
      'target.embedded': String(report.target.embedded),
      bindings: report.bindings.join(','),
      tool: `${report.tool.name} ${report.tool.version}`,
    },
    categories: [
      {
        name: 'Known deviations',
        matchedStatuses: [Status.SKIPPED, Status.PASSED],
        messageRegex: '[\\s\\S]*known deviation:[\\s\\S]*',
      },
      { name: 'Contract violations', matchedStatuses: [Status.FAILED] },
    ],
  });
  const started = Date.parse(report.startedAt);
  let clock = Number.isNaN(started) ? Date.now() : started;

  for (const c of groupCells(report.results)) {
    // The identity (fullName, and the parameters Allure hashes into historyId) is operation ×
    // column, the same in every run and seed; which binding departed in a comparison is an
    // excluded parameter.
    const fullName = `${c.group}.${c.operation}.${c.column}`;
    const departing = [
      ...new Set(c.rows.filter((r) => r.binding.includes(',') || c.column === 'equivalence').map((r) => r.binding)),
    ];
    const counts = countRows(c.rows);
    const start = clock;
    const uuid = runtime.startTest({
      name: `${c.operation} [${c.column}]`,
      fullName,
      titlePath: [c.group, c.operation, c.column],
      labels: labelsOf(c),
      parameters: [
        { name: 'binding', value: c.column },
        ...(c.column === 'equivalence'
          ? [{ name: 'bindings', value: departing.join(' | ') || 'all', excluded: true }]
          : []),
      ],
      description:
        `${
          c.column === 'equivalence'
            ? `${c.operation}: the bindings compared (${departing.map(rowBindingLabel).join('; ') || 'all agree'})`
            : `${c.operation} on ${rowBindingLabel(c.column)}`
        }, ${c.cases.length} case${c.cases.length === 1 ? '' : 's'}: ${countsLine(counts)}. `
        + 'One step per case, one sub-step per check.',
      start,
      stage: Stage.RUNNING,
    });
    // The steps are built as the library's StepResult objects and handed to the test whole: a
    // cell holds hundreds of them, and the runtime's per-step bookkeeping only cost time here.
    const steps: StepResult[] = [];
    const clean: TestGroup[] = [];
    for (const t of c.cases) {
      const caseStep = newStep(t.case, clock);
      for (const r of t.rows) {
        const message = stepMessage(r);
        const step = newStep(
          r.check,
          clock,
          STEP_STATUS[r.status],
          {
            ...(message !== undefined ? { message } : {}),
            ...(r.status === 'failed' || r.status === 'known'
              ? { trace: formatFindings([{ ...r, status: 'failed' }]) + rerunTrace(report, r) }
              : {}),
            ...(r.findings[0]?.expected !== undefined ? { expected: r.findings[0].expected } : {}),
            ...(r.findings[0]?.actual !== undefined ? { actual: r.findings[0].actual } : {}),
          },
          [
            ...(r.path ? [{ name: 'path', value: r.path }] : []),
            ...(c.column === 'equivalence' ? [{ name: 'bindings', value: r.binding }] : []),
          ],
        );
        // A sequence's calls, as numbered sub-steps in the order sent.
        for (const x of r.steps ?? []) step.steps.push(newStep(`${x.n}. ${stepText(x)}`, clock));
        clock += Math.max(0, Math.round(r.durationMs ?? 0));
        step.stop = clock;
        caseStep.steps.push(step);
      }
      // A case that failed or holds a known deviation: each distinct exchange attached to its step.
      if (t.rows.some((r) => r.status === 'failed' || r.status === 'known')) {
        for (const e of excerptsOf(t)) {
          const source = `${randomUUID()}-attachment.txt`;
          writer.writeAttachment(source, Buffer.from(cut(e.text, ATTACHMENT_MAX), 'utf8'));
          caseStep.attachments.push({
            name: `${e.kind} (${t.case}${e.detail !== undefined ? `, ${e.detail}` : ''})`,
            source,
            type: ContentType.TEXT,
          });
        }
      } else {
        clean.push(t);
      }
      const lines = statusLines(t.rows, () => '');
      caseStep.status = testStatus(t.rows);
      if (lines !== undefined) caseStep.statusDetails = { message: capLines(lines, 'checks') };
      caseStep.stop = clock;
      steps.push(caseStep);
    }
    const exchanges = exchangesText(c, clean);
    if (exchanges !== undefined) {
      runtime.writeAttachment(
        uuid,
        null,
        `Exchanges (${exchanges.cases} case${exchanges.cases === 1 ? '' : 's'})`,
        Buffer.from(exchanges.text, 'utf8'),
        { contentType: ContentType.TEXT, fileExtension: 'txt' },
      );
    }
    const failed = c.rows.filter((r) => r.status === 'failed');
    const lines = statusLines(c.rows, (r) => `${r.case}: `);
    runtime.updateTest(uuid, (result: TestResult) => {
      result.steps.push(...steps);
      result.status = testStatus(c.rows);
      result.stage = Stage.FINISHED;
      if (lines !== undefined) {
        result.statusDetails = {
          message: capLines(lines, failed.length > 0 ? 'failed checks' : 'checks'),
          ...(failed.length > 0
            ? {
                trace:
                  formatFindings(failed.slice(0, MESSAGE_LINES))
                  + (failed.length > MESSAGE_LINES
                    ? `\n\n… and ${failed.length - MESSAGE_LINES} more failed checks (see the case steps)`
                    : ''),
              }
            : {}),
        };
      }
    });
    runtime.stopTest(uuid, { stop: Math.max(clock, start) });
    runtime.writeTest(uuid);
  }
  runtime.writeEnvironmentInfo();
  runtime.writeCategoriesDefinitions();
  return writer;
}
