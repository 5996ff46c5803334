/**
 * The reports of a run: conformance.json, junit.xml, conformance.md, conformance.html and
 * allure-results/, all derived from one RunReport. Everything is rendered in memory and checked
 * for secrets first, so a report that would leak a credential is never partly written.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { RunReport } from '../core/types.js';
import { renderAllure } from './allure.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { assertSummaryConsistent } from './model.js';
import { reportPaths, type ReportPaths } from './paths.js';
import { isRedactionMarker } from './schema.js';
import { SecretGuard } from './secrets.js';

export { formatFindings, formatSummary } from './console.js';
export { renderAllure } from './allure.js';
export { esc as escapeHtml, renderHtml } from './html.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { buildMatrix, columnOf, verdictOf, type Column, type Verdict } from './model.js';
export { reportPaths, type ReportPaths } from './paths.js';
export { REPORT_SCHEMA_URL, reportSchema, validateJson, validateReport } from './schema.js';
export { SecretLeakError } from './secrets.js';

/** conformance.json's text: the report as pretty JSON. */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * Write every report of `report` into `dir` (created if missing; its allure-results/ is replaced)
 * and return their paths. Throws SecretLeakError, before writing anything, if any output would
 * contain one of `secrets` (or the target password, should the report carry it unredacted), and
 * an Error if report.summary does not count report.results.
 */
export async function writeReports(report: RunReport, dir: string, secrets: readonly string[] = []): Promise<ReportPaths> {
  assertSummaryConsistent(report);
  const all = [...secrets];
  if (report.target.password !== '' && !isRedactionMarker(report.target.password)) all.push(report.target.password);
  const guard = new SecretGuard(all);
  const paths = reportPaths(dir);

  const files: Array<[string, string]> = [
    [paths.json, renderJson(report)],
    [paths.junit, renderJunit(report)],
    [paths.markdown, renderMarkdown(report)],
    [paths.html, renderHtml(report)],
  ];
  const allure = renderAllure(report);
  for (const [path, text] of files) guard.check(path, text);
  for (const p of allure.pending) guard.check(`allure-results/${p.name}`, p.bytes);

  await mkdir(paths.dir, { recursive: true });
  // Allure reads every file in its results directory: stale results of a previous run would mix in.
  await rm(paths.allureResults, { recursive: true, force: true });
  await mkdir(paths.allureResults, { recursive: true });
  await Promise.all(files.map(([path, text]) => writeFile(path, text, 'utf8')));
  allure.flushTo(paths.allureResults);
  return paths;
}
