/** Plain-text renderings: the findings text (vitest failure message, console detail) and the CLI's closing summary. */
import { coverageLine } from './coverage.js';
import { latencyText } from './latency.js';
import { relative, sep } from 'node:path';
import type { ResultRow, RunReport } from '../core/types.js';
import {
  consoleText,
  countsLine,
  formatDuration,
  inBandCases,
  inBandNote,
  deviations,
  deviationFlags,
  rowTitle,
  skippedOperations,
  truncate,
  verdictOf,
  stepText,
} from './model.js';
import type { ReportPaths } from './paths.js';
import { defectCases, defectTitle, groupDefects } from './defects.js';
import { transientLines } from './transient.js';

/** Longest expected/actual/message value printed before it is cut. */
const VALUE_MAX = 600;

function value(s: string): string {
  const t = truncate(s, VALUE_MAX);
  const text = consoleText(t.text);
  return t.truncated ? `${text}… (${t.length - t.text.length} more characters)` : text;
}

/** Indent every line after the first so multi-line values stay inside their block. */
function hang(s: string, indent: string): string {
  return s.split('\n').join(`\n${indent}`);
}

/**
 * The failed rows as text, one block per row: operation [binding] case :: check, where (path), what
 * (message, each finding with expected/actual) and the command that reproduces it. Rows that did
 * not fail are left out. All target-supplied text is made terminal-safe.
 */
export function formatFindings(rows: readonly ResultRow[]): string {
  const failed = rows.filter((r) => r.status === 'failed');
  if (failed.length === 0) return 'no failed checks';
  const blocks = failed.map((r) => {
    const lines = [`✗ ${consoleText(rowTitle(r))}`];
    if (r.path) lines.push(`  path:      ${hang(value(r.path), '             ')}`);
    if (r.message) lines.push(`  message:   ${hang(value(r.message), '             ')}`);
    // A row whose single finding only repeats the row's own path and message adds nothing.
    const redundant =
      r.findings.length === 1
      && r.findings[0]!.path === r.path
      && r.findings[0]!.message === r.message
      && r.findings[0]!.expected === undefined
      && r.findings[0]!.actual === undefined;
    if (r.findings.length > 0 && !redundant) {
      lines.push(`  findings (${r.findings.length}):`);
      r.findings.forEach((f, i) => {
        const head = `    ${i + 1}. `;
        const pad = ' '.repeat(head.length);
        lines.push(`${head}${consoleText(f.check)} at ${hang(value(f.path || '/'), pad)}`);
        lines.push(`${pad}${hang(value(f.message), pad)}`);
        if (f.expected !== undefined) lines.push(`${pad}expected: ${hang(value(f.expected), `${pad}          `)}`);
        if (f.actual !== undefined) lines.push(`${pad}actual:   ${hang(value(f.actual), `${pad}          `)}`);
      });
    }
    if (r.reproduce) lines.push(`  reproduce:`, `    ${hang(consoleText(r.reproduce), '    ')}`);
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}

/**
 * The failed rows grouped by defect (report/defects.ts), one block per defect: operation [binding] ::
 * check/code at path, the cases that hit it, one example finding and the one command that
 * reproduces it. At most `max` blocks. All target-supplied text is made terminal-safe.
 */
export function formatDefects(
  rows: readonly ResultRow[],
  max = 50,
  rerun?: (r: ResultRow) => string | undefined,
): string {
  const defects = groupDefects(rows);
  if (defects.length === 0) return 'no failed checks';
  const blocks = defects.slice(0, max).map((d) => {
    const lines = [`✗ ${consoleText(`${d.operation} [${d.binding}] :: ${defectTitle(d)}`)}`];
    lines.push(
      `  ${consoleText(defectCases(d))}${d.occurrences > d.cases.length ? ` (${d.occurrences} findings)` : ''}`,
    );
    if (d.example.message) lines.push(`  message:   ${hang(value(d.example.message), '             ')}`);
    if (d.example.expected !== undefined)
      lines.push(`  expected:  ${hang(value(d.example.expected), '             ')}`);
    if (d.example.actual !== undefined) lines.push(`  actual:    ${hang(value(d.example.actual), '             ')}`);
    // A sequence's calls, numbered in the order sent (write binding → read binding), as the other reports show them.
    const steps = d.rows.find((r) => r.steps)?.steps;
    if (steps) lines.push('  steps:', ...steps.map((st) => `    ${st.n}. ${hang(value(stepText(st)), '       ')}`));
    if (d.reproduce)
      lines.push(
        `  reproduce (case ${consoleText(d.reproduceCase)}):`,
        `    ${hang(consoleText(d.reproduce), '    ')}`,
      );
    // The run command of that case, as conformance.md gives it (src/report/rerun.ts).
    const again = rerun?.(d.rows.find((r) => r.case === d.reproduceCase) ?? d.rows[0]!);
    if (again) lines.push(`  re-run (case ${consoleText(d.reproduceCase)}):`, `    ${consoleText(again)}`);
    return lines.join('\n');
  });
  const more = defects.length > max ? `\n\n… and ${defects.length - max} more defects: see the reports` : '';
  return blocks.join('\n\n') + more;
}

function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : path;
}

/**
 * What holds for the target as a whole (unreachable, not this service, another namespace, operations
 * not called): printed before any single failure, which it explains. Empty when there is none.
 */
export function formatDiagnosis(report: Pick<RunReport, 'diagnosis'>): string {
  if (!report.diagnosis?.length) return '';
  return [
    'Diagnosis:',
    ...report.diagnosis.map((d) => consoleText(`  ${d.level === 'error' ? '✗' : `${d.level}:`} ${d.message}`)),
  ].join('\n');
}

/**
 * The lines the CLI prints last: verdict with counts and duration, which operation × binding
 * cells failed, and where each report was written.
 */
export function formatSummary(report: RunReport, paths: ReportPaths): string {
  const s = report.summary;
  const judged = verdictOf(report);
  const verdict = judged.verdict;
  const lines: string[] = [];
  if (report.incomplete) lines.push(consoleText(`Incomplete: ${report.incomplete}`));
  lines.push(`Conformance ${verdict}: ${countsLine(s)} in ${formatDuration(report.durationMs)}`);
  // Why a run is neither PASS nor FAIL: the counts alone do not say (the failures say why a run failed).
  if (verdict !== 'PASS' && verdict !== 'FAIL')
    lines.push(consoleText(`Verdict: ${verdict} (exit ${judged.exitCode}): ${judged.reason}`));
  if (s.total === 0) lines.push('Warning: no checks ran.');
  if (report.untested?.length) {
    const ops = [...new Set(report.untested.map((c) => c.operation))];
    lines.push(
      consoleText(
        `Not tested: ${report.untested.length} operation × binding `
          + `cell${report.untested.length === 1 ? '' : 's'} never reached the data path `
          + `(${ops.slice(0, 8).join(', ')}${ops.length > 8 ? ', …' : ''}): see the diagnosis`,
      ),
    );
  }
  const notCalled = skippedOperations(report);
  if (notCalled.length > 0) {
    lines.push(`Not called: ${notCalled.length} operation${notCalled.length === 1 ? '' : 's'}:`);
    for (const o of notCalled) lines.push(consoleText(`  ${o.operation}: ${o.reason}`));
  }
  const g = report.generation;
  if (g)
    lines.push(
      `Generated cases: seed ${g.seed} (repeat with --seed ${g.seed}), ${g.examples} per operation; `
        + `language from ${g.languagesFrom}`,
    );
  for (const l of transientLines(report)) lines.push(consoleText(l));
  if (report.coverage)
    lines.push(
      consoleText(`C${coverageLine(report.coverage).slice(1)} (per cell, and the paths no answer held: the reports)`),
    );
  const times = latencyText(report);
  if (times) lines.push(consoleText(times));
  const accepted = deviations(report);
  const flagged = accepted.filter((d) => d.flagged);
  if (accepted.length > 0) {
    lines.push(
      `Accepted deviations: ${accepted.length} `
        + `(${report.expectations!.file})${flagged.length ? `, ${flagged.length} need${flagged.length === 1 ? 's' : ''} attention:` : ''}`,
    );
    for (const d of flagged.slice(0, 12)) {
      const e = d.entry;
      lines.push(
        consoleText(
          `  ${e.operation} [${e.binding}] ${e.case ?? '*'} :: ${e.check}: ${deviationFlags(d)} `
            + `(reason: ${JSON.stringify(truncate(e.reason, 80).text)})`,
        ),
      );
    }
    if (flagged.length > 12) lines.push(`  … and ${flagged.length - 12} more: see conformance.md`);
  }
  const noData = inBandCases(report);
  if (noData.length > 0) {
    lines.push(`Note: ${inBandNote(noData.length)}`);
    for (const c of noData.slice(0, 12))
      lines.push(
        consoleText(
          `  ${c.operation} ${c.case} `
            + `[${c.bindings.join(',')}]: ${c.type || '(no ErrorType)'}${c.message ? ` "${truncate(c.message, 120).text}"` : ''}`,
        ),
      );
    if (noData.length > 12) lines.push(`  … and ${noData.length - 12} more: see the reports`);
  }
  const failedCells = new Map<string, number>();
  for (const r of report.results) {
    if (r.status !== 'failed') continue;
    const key = `${r.operation} [${r.binding}]`;
    failedCells.set(key, (failedCells.get(key) ?? 0) + 1);
  }
  if (failedCells.size > 0) {
    const list = [...failedCells].map(([k, n]) => `${k} ×${n}`);
    const head = list.slice(0, 12).join(', ');
    lines.push(consoleText(`Failed: ${head}${list.length > 12 ? `, … and ${list.length - 12} more` : ''}`));
    const failedRows = report.results.filter((r) => r.status === 'failed');
    const n = groupDefects(failedRows).length;
    lines.push(
      `Defects: ${n} in ${failedRows.length} failed row${failedRows.length === 1 ? '' : 's'} (a defect: `
        + `operation, binding, check, code and path)`,
    );
  }
  lines.push('Reports:');
  lines.push(`  HTML      ${shownPath(paths.html)}`);
  lines.push(`  Markdown  ${shownPath(paths.markdown)}`);
  lines.push(`  JSON      ${shownPath(paths.json)}`);
  lines.push(`  JUnit     ${shownPath(paths.junit)}`);
  lines.push(`  Allure    ${shownPath(paths.allureResults)}${sep}`);
  return lines.join('\n');
}
