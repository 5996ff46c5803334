/**
 * allure-results/: Allure 2 results written through allure-js-commons' own ReporterRuntime and
 * FileSystemWriter, so the file format is the library's. One test per operation × binding × case,
 * one step per check; labels epic = group, feature = binding, story = operation, and
 * parentSuite / suite / subSuite = group / operation / binding.
 *
 * Known deviations do not fail the test: their steps are "skipped" with a message starting
 * "known deviation:", the test gets the tag known-deviation, and categories.json files them under
 * "Known deviations".
 */
import { ContentType, LabelName, Stage, Status, type Label, type StepResult, type TestResult, type TestResultContainer, type Globals } from 'allure-js-commons';
import { ReporterRuntime, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow, RunReport, Status as RowStatus } from '../core/types.js';
import { formatFindings } from './console.js';
import { bindingLabel, COLUMN_LABELS, GROUP_LABELS, groupTests, jsonText, stepText, truncate, visibleText, type TestGroup } from './model.js';

/** Longest request/response attachment, in characters (attachments are excerpts, not archives). */
const ATTACHMENT_MAX = 64 * 1024;

type Category = { name: string; matchedStatuses?: Status[]; messageRegex?: string; description?: string };

/** One write the runtime asked for, with the bytes it will produce (checked before anything is written). */
interface PendingWrite {
  readonly name: string;
  bytes: Buffer;
  apply(to: Writer): void;
}

/**
 * A Writer that records what the runtime writes and replays it onto a real writer later: all
 * report bytes are checked for secrets before the first file exists.
 */
export class DeferredWriter implements Writer {
  readonly pending: PendingWrite[] = [];

  writeResult(result: TestResult): void {
    const snapshot = JSON.parse(JSON.stringify(result)) as TestResult;
    this.pending.push({ name: `${result.uuid}-result.json`, bytes: Buffer.from(jsonText(JSON.stringify(snapshot))), apply: (w) => w.writeResult(snapshot) });
  }

  writeGroup(result: TestResultContainer): void {
    const snapshot = JSON.parse(JSON.stringify(result)) as TestResultContainer;
    this.pending.push({ name: `${result.uuid}-container.json`, bytes: Buffer.from(jsonText(JSON.stringify(snapshot))), apply: (w) => w.writeGroup(snapshot) });
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    const copy = Buffer.from(content);
    this.pending.push({ name: distFileName, bytes: copy, apply: (w) => w.writeAttachment(distFileName, copy) });
  }

  writeAttachmentFromPath(distFileName: string): void {
    throw new Error(`attachment ${distFileName}: report attachments are written from memory, never copied from a path`);
  }

  writeEnvironmentInfo(info: Record<string, string | undefined>): void {
    const copy = { ...info };
    this.pending.push({ name: 'environment.properties', bytes: Buffer.from(stringifyEnvInfo(copy)), apply: (w) => w.writeEnvironmentInfo(copy) });
  }

  writeCategoriesDefinitions(categories: Category[]): void {
    const copy = JSON.parse(JSON.stringify(categories)) as Category[];
    this.pending.push({ name: 'categories.json', bytes: Buffer.from(jsonText(JSON.stringify(copy))), apply: (w) => w.writeCategoriesDefinitions(copy) });
  }

  writeGlobals(distFileName: string, info: Globals): void {
    const copy = JSON.parse(JSON.stringify(info)) as Globals;
    this.pending.push({ name: distFileName, bytes: Buffer.from(jsonText(JSON.stringify(copy))), apply: (w) => w.writeGlobals(distFileName, copy) });
  }

  /** Replay every recorded write onto a FileSystemWriter for dir. */
  flushTo(dir: string): void {
    // The bytes checked (and, where the secret guard found something, redacted) are the bytes
    // written: the same text allure-js-commons' FileSystemWriter writes, without its fsync per file.
    for (const p of this.pending) writeFileSync(join(dir, p.name), p.bytes);
  }
}

const STEP_STATUS: Record<RowStatus, Status> = {
  passed: Status.PASSED, failed: Status.FAILED, skipped: Status.SKIPPED, known: Status.SKIPPED,
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

function labelsOf(t: TestGroup): Label[] {
  const binding = COLUMN_LABELS[t.column];
  const labels: Label[] = [
    { name: LabelName.EPIC, value: t.group },
    { name: LabelName.FEATURE, value: binding },
    { name: LabelName.STORY, value: t.operation },
    { name: LabelName.PARENT_SUITE, value: GROUP_LABELS[t.group] ?? t.group },
    { name: LabelName.SUITE, value: t.operation },
    { name: LabelName.SUB_SUITE, value: binding },
    { name: LabelName.FRAMEWORK, value: 'accommodation-conformance' },
  ];
  if (t.rows.some((r) => r.status === 'known')) labels.push({ name: LabelName.TAG, value: 'known-deviation' });
  return labels;
}

function attachmentText(s: string): Buffer {
  const t = truncate(visibleText(s), ATTACHMENT_MAX);
  return Buffer.from(t.truncated ? `${t.text}\n\n[truncated: first ${t.text.length} of ${t.length} characters]` : t.text, 'utf8');
}

/**
 * Produce the Allure results of a report into a DeferredWriter (nothing touches the disk yet).
 * Test times are laid end to end from startedAt using each row's duration.
 */
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
      { name: 'Known deviations', matchedStatuses: [Status.SKIPPED, Status.PASSED], messageRegex: '[\\s\\S]*known deviation:[\\s\\S]*' },
      { name: 'Contract violations', matchedStatuses: [Status.FAILED] },
    ],
  });
  const started = Date.parse(report.startedAt);
  let clock = Number.isNaN(started) ? Date.now() : started;

  for (const t of groupTests(report.results)) {
    // The identity (fullName, and the parameters Allure hashes into historyId) is operation × column ×
    // case, the same in every run; which binding departed in a comparison is an excluded parameter.
    const fullName = `${t.group}.${t.operation}.${t.column}.${t.case}`;
    const departing = [...new Set(t.rows.filter((r) => r.binding.includes(',') || t.column === 'equivalence').map((r) => r.binding))];
    const status = testStatus(t.rows);
    const failed = t.rows.filter((r) => r.status === 'failed');
    const start = clock;
    const uuid = runtime.startTest({
      name: `${t.operation} [${t.column}] ${t.case}`,
      fullName,
      titlePath: [t.group, t.operation, t.column],
      labels: labelsOf(t),
      parameters: [{ name: 'binding', value: t.column }, { name: 'case', value: t.case },
        ...(t.column === 'equivalence' ? [{ name: 'bindings', value: departing.join(' | ') || 'all', excluded: true }] : [])],
      description: t.column === 'equivalence'
        ? `${t.operation}, case ${t.case}: the bindings compared (${departing.map(bindingLabel).join('; ') || 'all agree'}).`
        : `${t.operation} on ${bindingLabel(t.column)}, case ${t.case}: ${t.rows.length} check${t.rows.length === 1 ? '' : 's'}.`,
      start,
      stage: Stage.RUNNING,
    });
    for (const r of t.rows) {
      const stepStart = clock;
      const stepUuid = runtime.startStep(uuid, null, {
        name: r.check,
        start: stepStart,
        parameters: r.path ? [{ name: 'path', value: r.path }] : [],
      });
      if (stepUuid === undefined) throw new Error(`allure: could not start step ${r.check} of ${fullName}`);
      runtime.updateStep(stepUuid, (step: StepResult) => {
        step.status = STEP_STATUS[r.status];
        const message = stepMessage(r);
        step.statusDetails = {
          ...(message !== undefined ? { message } : {}),
          ...(r.status === 'failed' || r.status === 'known' ? { trace: formatFindings([{ ...r, status: 'failed' }]) } : {}),
          ...(r.findings[0]?.expected !== undefined ? { expected: r.findings[0].expected } : {}),
          ...(r.findings[0]?.actual !== undefined ? { actual: r.findings[0].actual } : {}),
        };
      });
      // A sequence's calls, as numbered sub-steps in the order sent.
      for (const s of r.steps ?? []) {
        const sub = runtime.startStep(uuid, stepUuid, { name: `${s.n}. ${stepText(s)}`, start: clock });
        if (sub !== undefined) runtime.stopStep(sub, { stop: clock });
      }
      clock += Math.max(0, Math.round(r.durationMs ?? 0));
      runtime.stopStep(stepUuid, { stop: clock });
    }
    // Attach each distinct exchange once (rows of one test usually share one).
    const seen = new Set<string>();
    for (const r of t.rows) {
      for (const [kind, text] of [['Request', r.request], ['Response', r.response]] as const) {
        if (text === undefined || text === '' || seen.has(`${kind}\u0000${text}`)) continue;
        seen.add(`${kind}\u0000${text}`);
        const name = seen.size > 2 ? `${kind} (${r.binding}, ${r.check})` : kind;
        runtime.writeAttachment(uuid, null, name, attachmentText(text), { contentType: ContentType.TEXT, fileExtension: 'txt' });
      }
    }
    runtime.updateTest(uuid, (result: TestResult) => {
      result.status = status;
      result.stage = Stage.FINISHED;
      if (failed.length > 0) {
        result.statusDetails = {
          message: failed.map((r) => `${r.check}: ${stepMessage(r) ?? ''}`).join('\n'),
          trace: formatFindings(failed),
        };
      } else if (status === Status.SKIPPED) {
        result.statusDetails = { message: t.rows.map((r) => `${r.check}: ${r.message || 'skipped'}`).join('\n') };
      } else if (t.rows.some((r) => r.status === 'known')) {
        result.statusDetails = {
          message: t.rows.filter((r) => r.status === 'known').map((r) => `${r.check}: ${stepMessage(r) ?? ''}`).join('\n'),
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
