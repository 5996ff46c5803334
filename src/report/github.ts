/**
 * CI output where GitHub Actions looks: an `::error` workflow command per failed row (title =
 * operation [binding] check, message = the finding), and the Markdown summary appended to the file
 * named by $GITHUB_STEP_SUMMARY. Both capped: GitHub shows a few annotations per step and takes at
 * most 1 MiB of summary per step; the rest stays in the reports.
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { ResultRow, RunReport } from '../core/types.js';
import { truncate } from './model.js';
import { attemptsText, flakyRows } from './transient.js';

/** Annotations written at most; one more line says how many were left out. */
export const MAX_ANNOTATIONS = 50;
/** Characters of one annotation's message kept. */
const MAX_MESSAGE = 1000;
/** Bytes of step summary written at most (GitHub's limit per step is 1 MiB). */
export const MAX_STEP_SUMMARY_BYTES = 1024 * 1024 - 1024;

/** A workflow command's message: %, CR and LF escaped (GitHub's toolkit rules). */
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: also ":" and ",". */
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The annotation of one failed row. */
function annotation(r: ResultRow): string {
  const title = `${r.operation} [${r.binding}] ${r.check}`;
  const first = r.findings[0];
  const text = first
    ? `case ${r.case}: ${first.path ? `at ${first.path}: ` : ''}${first.message}${r.findings.length > 1 ? ` (and ${r.findings.length - 1} more findings)` : ''}`
    : `case ${r.case}: ${r.message}`;
  return `::error title=${escapeProperty(title)}::${escapeData(truncate(text, MAX_MESSAGE).text)}`;
}

/** The `::warning` of a FLAKY row: a failure that did not reproduce when its case was sent again. */
function flakyAnnotation(r: ResultRow): string {
  const title = `FLAKY ${r.operation} [${r.binding}] ${r.check}`;
  const first = r.flaky!.attempts[0];
  const text = `case ${r.case}: ${attemptsText(r)} (does not fail the run); first failure: ${first?.message ?? r.message}`;
  return `::warning title=${escapeProperty(title)}::${escapeData(truncate(text, MAX_MESSAGE).text)}`;
}

/** The `::error` lines of a report's failed rows, at most MAX_ANNOTATIONS, then a notice of the rest; then a `::warning` per FLAKY row. */
export function githubAnnotations(report: RunReport, max = MAX_ANNOTATIONS): string[] {
  const failed = report.results.filter((r) => r.status === 'failed');
  const lines = failed.slice(0, max).map(annotation);
  if (failed.length > max) {
    lines.push(`::notice title=${escapeProperty('conformance')}::${escapeData(`${failed.length - max} more failed checks are not annotated: see the job summary and the reports (conformance.html, junit.xml)`)}`);
  }
  const flaky = flakyRows(report);
  lines.push(...flaky.slice(0, max).map(flakyAnnotation));
  if (flaky.length > max) lines.push(`::notice title=${escapeProperty('conformance')}::${escapeData(`${flaky.length - max} more flaky rows are not annotated: see the reports`)}`);
  return lines;
}

/**
 * Append the Markdown summary (the file the run wrote, already guarded against secrets) to the step
 * summary file, cut to what GitHub accepts. Returns a warning when there is nowhere to write.
 */
export async function writeStepSummary(markdownFile: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const target = env.GITHUB_STEP_SUMMARY;
  if (!target) return 'warning: --github: GITHUB_STEP_SUMMARY is not set, so no job summary was written (the annotations were)';
  let text = await readFile(markdownFile, 'utf8');
  if (Buffer.byteLength(text) > MAX_STEP_SUMMARY_BYTES) {
    text = `${Buffer.from(text).subarray(0, MAX_STEP_SUMMARY_BYTES - 200).toString('utf8').replace(/\uFFFD$/, '')}\n\n… cut to GitHub's step summary limit: see conformance.md\n`;
  }
  await appendFile(target, text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  return undefined;
}
