/**
 * CI output where GitHub Actions looks: a notice with the verdict and the count of defects, an
 * `::error` workflow command per defect (title = operation [binding] check/code, message = its cases
 * and one finding), most severe first, and the Markdown summary appended to the file
 * named by $GITHUB_STEP_SUMMARY. Both capped: GitHub shows a few annotations per step and takes at
 * most 1 MiB of summary per step; the rest stays in the reports.
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { ResultRow, RunReport } from '../core/types.js';
import { verdictOfReport } from '../core/verdict.js';
import { defectCases, firstRank, groupDefects, type Defect } from './defects.js';
import { truncate } from './model.js';
import { attemptsText, flakyRows } from './transient.js';

/** Error annotations GitHub shows per step: one per defect, at most this many, most severe first. */
export const MAX_ANNOTATIONS = 10;
/** Characters of one annotation's message kept. */
const MAX_MESSAGE = 1000;
/** Bytes of step summary written at most (GitHub's limit per step is 1 MiB). */
export const MAX_STEP_SUMMARY_BYTES = 1024 * 1024 - 1024;

/** A workflow command's message: %, CR and LF escaped (GitHub's toolkit rules). */
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also ":" and ",". */
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * How badly a failure of a row's check breaks a client, the smallest the worst (a check declares its
 * own, and the rows that are not checks have theirs: src/checks/registry.ts severityOf). Given by the
 * caller: the reports sit beside the checks, not above them.
 */
export type SeverityOf = (check: string) => number;

/**
 * The defects of failed rows, most severe first: another account's access (defects.ts FIRST_CODES), then by check, then
 * the most cases, then the most findings (plan order breaks ties).
 */
export function defectsBySeverity(rows: readonly ResultRow[], severityOf: SeverityOf): Defect[] {
  return groupDefects(rows)
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        firstRank(a.d.code) - firstRank(b.d.code)
        || severityOf(a.d.check) - severityOf(b.d.check)
        || b.d.cases.length - a.d.cases.length
        || b.d.occurrences - a.d.occurrences
        || a.i - b.i,
    )
    .map(({ d }) => d);
}

/** The annotation of one defect: where, which cases, one finding. */
function annotation(d: Defect): string {
  const title = `${d.operation} [${d.binding}] ${d.check}${d.code ? `/${d.code}` : ''}`;
  const text = `${defectCases(d, 6)}: ${d.example.path ? `at ${d.example.path}: ` : ''}${d.example.message}${d.occurrences > d.cases.length ? ` (${d.occurrences} findings)` : ''}`;
  return `::error title=${escapeProperty(title)}::${escapeData(truncate(text, MAX_MESSAGE).text)}`;
}

/** The `::warning` of a FLAKY row: a failure that did not reproduce when its case was sent again. */
function flakyAnnotation(r: ResultRow): string {
  const title = `FLAKY ${r.operation} [${r.binding}] ${r.check}`;
  const first = r.flaky!.attempts[0];
  const text =
    `case ${r.case}: ${attemptsText(r)} (does not fail the run); first ` + `failure: ${first?.message ?? r.message}`;
  return `::warning title=${escapeProperty(title)}::${escapeData(truncate(text, MAX_MESSAGE).text)}`;
}

/**
 * The workflow commands of a run: a notice with the verdict and the count of defects (GitHub shows
 * only MAX_ANNOTATIONS errors per step: the count says what the list below may not), then one
 * `::error` per defect, most severe first, at most `max`. A run that is neither PASS nor FAIL
 * (nothing tested, an outage, incomplete) gets an error saying why even without a failed row.
 */
export function githubAnnotations(report: RunReport, severityOf: SeverityOf, max = MAX_ANNOTATIONS): string[] {
  const failed = report.results.filter((r) => r.status === 'failed');
  const defects = defectsBySeverity(failed, severityOf);
  const v = verdictOfReport(report);
  const why = v.verdict !== 'PASS' && v.verdict !== 'FAIL';
  // The verdict's own error takes one of the step's slots.
  const shown = defects.slice(0, Math.max(0, max - (why ? 1 : 0)));
  const count =
    `${defects.length} defect${defects.length === 1 ? '' : 's'} in ${failed.length} failed `
    + `check${failed.length === 1 ? '' : 's'}`
    + (defects.length > shown.length
      ? `: the ${shown.length} most severe annotated, ${defects.length - shown.length} more in the job `
        + `summary and the reports (conformance.html, junit.xml)`
      : '');
  const lines = [
    `::notice `
      + `title=${escapeProperty(`Conformance ${v.verdict}`)}::${escapeData(`${count} (exit ${v.exitCode}: ${v.reason})`)}`,
  ];
  if (why)
    lines.push(
      `::error `
        + `title=${escapeProperty(`Conformance ${v.verdict}`)}::${escapeData(truncate(v.reason, MAX_MESSAGE).text)}`,
    );
  lines.push(...shown.map(annotation));
  // FLAKY rows: a warning each, never an error (they do not fail the run).
  const flaky = flakyRows(report);
  lines.push(...flaky.slice(0, max).map(flakyAnnotation));
  if (flaky.length > max)
    lines.push(
      `::notice `
        + `title=${escapeProperty('conformance')}::${escapeData(`${flaky.length - max} more flaky rows are not annotated: see the reports`)}`,
    );
  return lines;
}

/**
 * Append the Markdown summary (the file the run wrote, already guarded against secrets) to the step
 * summary file, cut to what GitHub accepts. Returns a warning when there is nowhere to write.
 */
export async function writeStepSummary(markdownFile: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const target = env.GITHUB_STEP_SUMMARY;
  if (!target)
    return 'warning: --github: GITHUB_STEP_SUMMARY is not set, so no job summary was written (the annotations were)';
  let text = await readFile(markdownFile, 'utf8');
  if (Buffer.byteLength(text) > MAX_STEP_SUMMARY_BYTES) {
    text = `${Buffer.from(text)
      .subarray(0, MAX_STEP_SUMMARY_BYTES - 200)
      .toString('utf8')
      .replace(/\uFFFD$/, '')}\n\n… cut to GitHub's step summary limit: see conformance.md\n`;
  }
  await appendFile(target, text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  return undefined;
}
