/**
 * The reports of a run: conformance.json, junit.xml, conformance.md, conformance.html and
 * allure-results/, all derived from one RunReport. Everything is rendered in memory and searched
 * for secrets first; what the guard finds is redacted before the first byte is written.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { renderAllure, type DeferredWriter } from './allure.js';
import { DRIFT_JSON, DRIFT_MD, renderDriftJson, renderDriftMarkdown } from './drift.js';
import { renderHtml } from './html.js';
import { prettyExcerpt } from './html-exchange.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { assertSummaryConsistent, buildMatrix, jsonText } from './model.js';
import { reportPaths, type ReportPaths } from './paths.js';
import { isRedactionMarker } from '../schema/json.js';
import { searchAhead } from './guard-search.js';
import { jsonBytes } from './json-bytes.js';
import { SecretGuard, stderrWarn, type Warn } from './secrets.js';

export { formatFindings, formatSummary } from './console.js';
export { renderAllure } from './allure.js';
export { renderHtml } from './html.js';
export { esc as escapeHtml } from './html-escape.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { buildMatrix, columnOf, verdictOf, type Column } from './model.js';
export { poolShortage } from '../core/verdict.js';
export { reportPaths, type ReportPaths } from './paths.js';
export { REPORT_SCHEMA_URL, reportSchema, validateJson, validateReport } from '../schema/json.js';

/** conformance.json's text: the report as pretty JSON. */
export function renderJson(report: RunReport): string {
  return `${jsonText(JSON.stringify(report, null, 2))}\n`;
}

/**
 * The report with everything that was sent to the target or came back from it left out (target
 * URLs, user and password, messages, paths, findings, excerpts, reproduce commands): what is left is the
 * harness's own text. A short password can be spelled in that text ("en" in "content_type"); the
 * guard leaves a file alone when it holds no more spellings than this skeleton does. `shaped` false
 * skips shaping the excerpts' and diffs' placeholders like them (for the JSON guard, which only asks
 * which strings are the harness's own, not how a page lays them out).
 */
export function harnessOnly(report: RunReport, shaped = true): RunReport {
  // A placeholder per distinct value, not '': the writers' layout must stay the same (a Copy button
  // shows for a command, equal excerpts are shown once). Private-use characters spell no word.
  const seen = new Map<string, string>();
  const x = (v: string | undefined) => {
    if (v === undefined || v === '') return v;
    let p = seen.get(v);
    if (p === undefined) {
      let n = seen.size;
      p = '';
      do {
        p += String.fromCharCode(0xe000 + (n % 6400));
        n = Math.floor(n / 6400);
      } while (n > 0);
      seen.set(v, p);
    }
    return p;
  };
  return {
    ...report,
    // The target's addresses are the harness's own words once user-info is hidden (no other secret can be there).
    target: {
      ...report.target,
      bookUrl: redactUserInfo(report.target.bookUrl),
      searchUrl: redactUserInfo(report.target.searchUrl),
      transfersUrl: redactUserInfo(report.target.transfersUrl),
      user: x(report.target.user)!,
      password: isRedactionMarker(report.target.password) ? report.target.password : x(report.target.password)!,
    },
    results: report.results.map((r) => ({
      ...r,
      message: x(r.message)!,
      path: x(r.path)!,
      reproduce: x(r.reproduce)!,
      findings: r.findings.map((f) => ({
        check: f.check,
        code: f.code,
        path: x(f.path)!,
        message: x(f.message)!,
        ...(f.expected !== undefined ? { expected: x(f.expected) } : {}),
        ...(f.actual !== undefined ? { actual: x(f.actual) } : {}),
        ...(f.diff !== undefined ? { diff: shaped ? diffSkeleton(f.diff, x) : x(f.diff) } : {}),
      })),
      ...(r.request !== undefined ? { request: shaped ? excerptSkeleton(r.request, x) : x(r.request) } : {}),
      ...(r.response !== undefined ? { response: shaped ? excerptSkeleton(r.response, x) : x(r.response) } : {}),
    })),
  };
}

/**
 * An excerpt's placeholder in the skeleton, shaped so the HTML lays it out alike: one with a
 * pretty-printed form (and so the page's labels for it) gets a placeholder that has one too.
 */
function excerptSkeleton(text: string, x: (v: string) => string | undefined): string {
  const p = x(text)!;
  return prettyExcerpt(text) === undefined ? p : `<x><y>${p}</y></x>`;
}

/** A diff's placeholder in the skeleton: its lines kept, each line's marker (which sets its class in the HTML) kept. */
function diffSkeleton(diff: string, x: (v: string) => string | undefined): string {
  return diff
    .split('\n')
    .map((l) => {
      const marker = /^(?:---|\+\+\+|@@|[-+ ])?/.exec(l)![0];
      return `${marker}${x(l) ?? ''}`;
    })
    .join('\n');
}

/** The reports searched whole (conformance.json is the guarded tree's values and the harness's own text). */
type Rendered = Record<'junit' | 'markdown' | 'html', string>;

function render(report: RunReport): Rendered {
  return {
    junit: renderJunit(report),
    markdown: renderMarkdown(report),
    html: renderHtml(report),
  };
}

/**
 * Write every report of `report` into `dir` (created if missing; its allure-results/ is replaced)
 * and return their paths. Every file is searched for `secrets` (and the target password, should the
 * report carry it unredacted) first: a spelling found beyond what the harness's own text holds is
 * redacted in that file, and `warn` (stderr) names the file. A finished run is never thrown away.
 * Throws an Error if report.summary does not count report.results.
 */
export async function writeReports(
  report: RunReport,
  dir: string,
  secrets: readonly string[] = [],
  warn: Warn = stderrWarn,
): Promise<ReportPaths> {
  assertSummaryConsistent(report);
  const all = [...secrets];
  if (report.target.password !== '' && !isRedactionMarker(report.target.password)) all.push(report.target.password);
  const guard = new SecretGuard(all, warn);
  const paths = reportPaths(dir);

  // Every value the harness did not write itself (what was sent and received, messages, findings,
  // reproduce commands, the user) is guarded once, distinct value by distinct value, in every decoded
  // view: a secret found there is redacted in the tree every report is then rendered from, so it
  // reaches none of them. conformance.json is that tree's values and its keys and the harness's own
  // strings, so nothing else can spell a secret there. The other reports also lay that text out
  // (joined, cut, pretty-printed, escaped again): each is searched whole as well, and what is found
  // beyond what the harness's own text holds is redacted there.
  // The whole-file searches run on the other core (./guard-search.ts), each started as soon as its
  // file is rendered, while this thread renders the next one; once all are rendered, this thread
  // takes the searches the worker has not started, and the rest are awaited below.
  const ahead = searchAhead(guard, all);
  try {
    const tree = guard.protectTree(
      paths.json,
      report,
      harnessOnly(report, false),
      'redacted there as *** (in every report, each rendered from the redacted values)',
    );
    const groups = buildMatrix(tree);
    const html = renderHtml(tree, groups);
    const htmlFound = ahead.find(html);
    const junit = renderJunit(tree);
    const junitFound = ahead.find(junit);
    const markdown = renderMarkdown(tree, groups);
    const markdownFound = ahead.find(markdown);
    const json = jsonBytes(tree);
    const allure = renderAllure(tree);
    const allureFound = allure.pending.map((p) => ahead.find(p.bytes));
    // Everything is rendered: the searches the worker has not started yet are done here, from the last.
    ahead.help();
    let skeleton: Rendered | undefined;
    let skeletonAllure: DeferredWriter | undefined;
    const harness = () => (skeleton ??= render(harnessOnly(tree)));
    const allowed = (key: keyof Rendered) => () => harness()[key];
    const files: Array<[string, string | Buffer]> = [
      [paths.json, json],
      [paths.junit, guard.protect(paths.junit, junit, allowed('junit'), await junitFound)],
      [paths.markdown, guard.protect(paths.markdown, markdown, allowed('markdown'), await markdownFound)],
      [paths.html, guard.protect(paths.html, html, allowed('html'), await htmlFound)],
    ];
    // Allure's file names are random: the whole directory is compared with the skeleton's.
    const hits = (await Promise.all(allureFound)).map((f) => f.spans.length);
    ahead.close();
    const total = hits.reduce((a, b) => a + b, 0);
    if (total > 0) {
      skeletonAllure ??= renderAllure(harnessOnly(tree));
      const harnessTotal = skeletonAllure.pending.reduce(
        (n, p) => n + guard.find(p.bytes.toString('utf8')).spans.length,
        0,
      );
      if (total > harnessTotal) {
        allure.pending.forEach((p, i) => {
          if (hits[i] === 0) return;
          p.bytes = Buffer.from(guard.protect(`allure-results/${p.name}`, p.bytes.toString('utf8')), 'utf8');
        });
      }
    }
    return await writeFiles(paths, tree, guard, files, allure);
  } finally {
    ahead.close();
  }
}

/** Write the guarded files, the drift files (or remove stale ones), and the Allure results. */
async function writeFiles(
  paths: ReportPaths,
  tree: RunReport,
  guard: SecretGuard,
  files: Array<[string, string | Buffer]>,
  allure: DeferredWriter,
): Promise<ReportPaths> {
  await mkdir(paths.dir, { recursive: true });
  // Allure reads every file in its results directory: stale results of a previous run would mix in.
  await rm(paths.allureResults, { recursive: true, force: true });
  await mkdir(paths.allureResults, { recursive: true });
  // The preflight's WSDL comparison, beside the run's reports (a report without one leaves none from an earlier run).
  const driftFiles = [join(paths.dir, DRIFT_JSON), join(paths.dir, DRIFT_MD)] as const;
  if (tree.drift)
    files.push(
      [driftFiles[0], guard.protect(driftFiles[0], renderDriftJson(tree.drift))],
      [driftFiles[1], guard.protect(driftFiles[1], renderDriftMarkdown(tree.drift))],
    );
  else await Promise.all(driftFiles.map((f) => rm(f, { force: true })));
  await Promise.all(files.map(([path, text]) => writeFile(path, text, 'utf8')));
  allure.flushTo(paths.allureResults);
  return paths;
}
