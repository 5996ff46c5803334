/**
 * conformance.md: the CI job summary (GitHub's $GITHUB_STEP_SUMMARY). Verdict and counts first,
 * then the operations × bindings matrix, then every failure with where it is and how to reproduce
 * it. Short when everything passes (the matrix folds away). Report text is escaped so a hostile
 * response cannot inject markup, links or table breaks.
 */
import { transientLines } from './transient.js';
import type { RunReport } from '../core/types.js';
import { rerunCommand } from './rerun.js';
import { driftSection } from './drift.js';
import { formatPart, networkParts } from './header.js';
import { coverageMarkdown } from './coverage.js';
import { mdCode, mdText } from './md-text.js';
import { latencyMatrix } from './latency.js';
import { groupDefects, type Defect } from './defects.js';
import {
  rowBindingLabel,
  buildMatrix,
  cellState,
  COLUMN_LABELS,
  COLUMNS,
  countRows,
  formatDuration,
  GROUP_LABELS,
  inBandCases,
  inBandNote,
  deviations,
  deviationFlags,
  passwordVariableOf,
  skippedOperations,
  verdictOf,
  visibleText,
  changedBookingsLine,
  stepText,
  type Counts,
  type MatrixGroup,
} from './model.js';

/** GitHub rejects job summaries over 1 MiB; failure details stop well before that. */
const MAX_DEFECTS = 100;
/** Cases named per defect. */
const MAX_CASES = 12;
const MAX_CHARS = 600_000;

/** A fenced block whose fence is longer than any backtick run inside. */
function mdBlock(s: string, lang = ''): string {
  const v = visibleText(s);
  const longest = Math.max(2, ...[...v.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${v}\n${fence}`;
}

function cell(c: Counts): string {
  if (c.total === 0) return '·';
  const parts: string[] = [];
  if (c.failed) parts.push(`❌ ${c.failed}`);
  if (c.passed) parts.push(`✅ ${c.passed}`);
  if (c.known) parts.push(`⚠️ ${c.known}`);
  if (c.skipped) parts.push(`⏭ ${c.skipped}`);
  return parts.join(' ');
}

function matrix(groups: readonly MatrixGroup[]): string {
  const head = `| Operation | ${COLUMNS.map((c) => COLUMN_LABELS[c]).join(' | ')} |`;
  const sep = `|:--|${COLUMNS.map(() => ':-:').join('|')}|`;
  const lines = [head, sep];
  for (const g of groups) {
    lines.push(`| **${mdText(GROUP_LABELS[g.group] ?? g.group)}** |${COLUMNS.map(() => ' ').join('|')}|`);
    for (const row of g.rows) {
      const cells = COLUMNS.map((c) => cell(countRows(row.cells[c])));
      const failed = COLUMNS.some((c) => cellState(countRows(row.cells[c])) === 'failed');
      const name = failed ? `**${mdText(row.operation)}**` : mdText(row.operation);
      lines.push(`| ${name} | ${cells.join(' | ')} |`);
    }
  }
  lines.push('', '✅ passed · ❌ failed · ⚠️ known deviation (accepted) · ⏭ skipped · `·` not run');
  return lines.join('\n');
}

/** One defect: check, code and where; the cases that hit it; one finding; the one command that reproduces it. */
function defectBlock(d: Defect, report: RunReport): string {
  const out: string[] = [];
  const cases =
    d.cases
      .slice(0, MAX_CASES)
      .map((c) => mdCode(c))
      .join(', ') + (d.cases.length > MAX_CASES ? `, … and ${d.cases.length - MAX_CASES} more` : '');
  out.push(
    `- **${mdCode(d.check)}**${d.code ? ` ${mdCode(d.code)}` : ''}${d.path ? ` at ${mdCode(d.path)}` : ''}`
      + ` · ${d.cases.length} `
      + `case${d.cases.length === 1 ? '' : 's'}: ${cases}${d.occurrences > d.cases.length ? ` (${d.occurrences} findings)` : ''}`,
  );
  let line =
    `  `
    + `- ${d.example.path && d.example.path !== d.path ? `at ${mdCode(d.example.path)}: ` : ''}${mdText(d.example.message)}`;
  if (d.example.expected !== undefined) line += `<br>expected ${mdCode(d.example.expected)}`;
  if (d.example.actual !== undefined) line += `<br>actual ${mdCode(d.example.actual)}`;
  out.push(line);
  // A sequence's steps, numbered, in the order sent (write binding → read binding).
  const steps = d.rows.find((r) => r.steps)?.steps;
  if (steps) {
    out.push('  <details><summary>the sequence, step by step</summary>', '');
    for (const st of steps) out.push(`  ${st.n}. ${mdText(stepText(st), 400)}`);
    out.push('', '  </details>');
  }
  if (d.reproduce) out.push('', `Reproduce (case ${mdCode(d.reproduceCase)}):`, '', mdBlock(d.reproduce, 'sh'));
  const again = rerunCommand(report, d.rows.find((r) => r.case === d.reproduceCase) ?? d.rows[0]!);
  if (again) out.push('', `Re-run just this (case ${mdCode(d.reproduceCase)}):`, '', mdBlock(again, 'sh'));
  out.push('');
  return out.join('\n');
}

/**
 * Render conformance.md. `groups`: buildMatrix(report), when the caller has it already (the HTML
 * report's, in writeReports).
 */
export function renderMarkdown(report: RunReport, groups: readonly MatrixGroup[] = buildMatrix(report)): string {
  const s = report.summary;
  const judged = verdictOf(report);
  const verdict = judged.verdict;
  const icon = verdict === 'PASS' ? '✅' : '❌';
  const unreached = s.passedUnreached ?? 0;
  const lines: string[] = [];
  lines.push(`## ${icon} Conformance ${verdict}`, '');
  if (verdict !== 'PASS') lines.push(`Exit ${judged.exitCode}: ${mdText(judged.reason)}`, '');
  const counts = [
    s.failed ? `**${s.failed} failed**` : '0 failed',
    `${s.passed - unreached} passed`,
    ...(unreached ? [`${unreached} passed on answers that never reached the data path`] : []),
    `${s.skipped} skipped`,
    `${s.known} known deviation${s.known === 1 ? '' : 's'}`,
    `${s.total} checks`,
  ];
  lines.push(`${counts.join(' · ')} — ${formatDuration(report.durationMs)}, started ${mdText(report.startedAt)}`);
  lines.push('');
  const urls = [...new Set([report.target.bookUrl, report.target.searchUrl, report.target.transfersUrl])];
  // Who called (the second account: never its password), and the way the requests went (never a proxy's credentials or
  // a header's value).
  const other = report.target.otherUser;
  const second =
    other !== undefined
      ? `second account ${mdCode(other)} (authorization across accounts)`
      : 'no second account (authorization across accounts not tested)';
  lines.push(
    `Target: ${urls.map((u) => mdCode(u)).join(', ')}${report.target.embedded ? ' (embedded mock)' : ''} `
      + `· ${second} · ${mdText(`${report.tool.name} ${report.tool.version}`)}`,
  );
  const network = networkParts(report);
  if (network.length)
    lines.push(
      '',
      `Network: ${network
        .map(
          (p) =>
            `${p.label} ${formatPart(
              p,
              (t) => mdText(t),
              (v) => mdCode(v),
            )}`,
        )
        .join(' · ')}`,
    );
  lines.push('', `Reproduce commands read the password from ${mdCode(`$${passwordVariableOf(report)}`)}.`);
  const g = report.generation;
  if (g)
    lines.push(
      '',
      `Generated cases: seed ${g.seed} (repeat with \`--seed ${g.seed}\`), ${g.examples} per operation; `
        + `language from ${mdText(g.languagesFrom)}`,
    );
  const noise = transientLines(report, 8);
  if (noise.length) lines.push('', ...noise.map((l) => (l.startsWith('  ') ? `- ${mdText(l.trim())}` : mdText(l))));
  if (s.total === 0) lines.push('', '> [!WARNING]', '> No checks ran.');
  if (report.incomplete) lines.push('', '> [!WARNING]', `> Incomplete run: ${mdText(report.incomplete)}`);
  if (report.diagnosis?.length) {
    lines.push('', '> [!CAUTION]', '> **Diagnosis**', '>');
    for (const d of report.diagnosis)
      lines.push(`> - ${d.level === 'error' ? '✗' : `${d.level}:`} ${mdText(d.message, 600)}`);
  }
  if (report.untested?.length) {
    lines.push(
      '',
      '> [!WARNING]',
      `> Not tested (${report.untested.length} operation × binding): no valid call reached the data path`,
      '>',
    );
    for (const c of report.untested.slice(0, 20))
      lines.push(`> - ${mdText(c.operation)} [${mdText(c.binding)}]: ${mdText(c.reason, 300)}`);
    if (report.untested.length > 20)
      lines.push(`> - … and ${report.untested.length - 20} more (conformance.json, \`untested\`)`);
  }
  const notCalled = skippedOperations(report);
  if (notCalled.length > 0) {
    lines.push('', '> [!NOTE]', `> Not called (${notCalled.length}):`, '>');
    for (const o of notCalled) lines.push(`> - ${mdText(o.operation)}: ${mdText(o.reason, 300)}`);
  }
  if (report.drift) lines.push(...driftSection(report.drift));
  lines.push('');
  const accepted = deviations(report);
  if (accepted.length > 0) {
    const flagged = accepted.filter((d) => d.flagged).length;
    lines.push(
      `### Accepted deviations `
        + `(${accepted.length}${flagged ? `, ${flagged} need${flagged === 1 ? 's' : ''} attention` : ''})`,
      '',
      `From ${mdCode(report.expectations!.file)}:`,
      '',
      '| | operation | binding | check | case | reason | expires | |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const d of accepted.slice(0, 100)) {
      const e = d.entry;
      lines.push(
        `| ${d.flagged ? '⚠️' : '✔️'} | ${mdText(e.operation)} | ${mdText(e.binding)} `
          + `| ${mdCode(e.check)} | ${e.case === undefined ? 'all' : mdCode(e.case)} | `
          + `${mdText(e.reason, 200)} | ${e.expires ?? '—'} | ${mdText(deviationFlags(d))} |`,
      );
    }
    if (accepted.length > 100) lines.push('', `… and ${accepted.length - 100} more: see conformance.json.`);
    lines.push('');
  }
  const bookings = changedBookingsLine(report);
  if (bookings)
    lines.push(`${mdText(bookings)} (every booking and what each call did to it: conformance.json \`bookings\`).`, '');
  const noData = inBandCases(report);
  if (noData.length > 0) {
    lines.push(
      '> [!NOTE]',
      `> ${mdText(inBandNote(noData.length))}`,
      '',
      '| operation | case | bindings | ErrorType | Message |',
      '|---|---|---|---|---|',
    );
    for (const c of noData.slice(0, 50)) {
      lines.push(
        `| ${mdText(c.operation)} | ${mdCode(c.case)} | ${mdText(c.bindings.join(', '))} `
          + `| ${mdCode(c.type || '(none)')} | ${mdText(c.message, 200)} |`,
      );
    }
    if (noData.length > 50) lines.push('', `… and ${noData.length - 50} more: see conformance.json.`);
    lines.push('');
  }
  const times = latencyMatrix(report);
  if (times.rows.length > 0) {
    lines.push(
      '<details><summary>Answer times per operation × binding (median / p95)</summary>',
      '',
      `| operation | ${times.bindings.map((b) => mdText(rowBindingLabel(b))).join(' | ')} |`,
      `|---|${times.bindings.map(() => '---:').join('|')}|`,
      ...times.rows.map((r) => `| ${mdText(r.operation)} | ${r.cells.join(' | ')} |`),
      '',
      '</details>',
      '',
    );
  }
  if (report.coverage) lines.push(...coverageMarkdown(report.coverage));
  if (verdict === 'PASS') {
    lines.push('<details><summary>Operations × bindings</summary>', '', matrix(groups), '', '</details>', '');
    return lines.join('\n');
  }
  lines.push('### Operations × bindings', '', matrix(groups), '');
  // Failures by defect (report/defects.ts): each once, with the cases that hit it and one command.
  const failed = report.results.filter((r) => r.status === 'failed');
  const defects = groupDefects(failed);
  lines.push(
    `### Failures: ${defects.length} defect${defects.length === 1 ? '' : 's'} (${failed.length} failed `
      + `row${failed.length === 1 ? '' : 's'})`,
    '',
  );
  const byCell = new Map<string, Defect[]>();
  for (const d of defects) {
    const key = JSON.stringify([d.operation, d.binding]);
    byCell.set(key, [...(byCell.get(key) ?? []), d]);
  }
  let size = lines.join('\n').length;
  let shown = 0;
  outer: for (const ds of byCell.values()) {
    const d0 = ds[0]!;
    const rows = new Set(ds.flatMap((d) => d.rows)).size;
    const head =
      `#### ${mdText(d0.operation)} · ${mdText(rowBindingLabel(d0.binding))} (${ds.length} `
      + `defect${ds.length === 1 ? '' : 's'}, ${rows} failed row${rows === 1 ? '' : 's'})`;
    const mark = lines.length;
    lines.push(head, '');
    size += head.length + 2;
    for (const d of ds) {
      const block = defectBlock(d, report);
      if (shown + 1 > MAX_DEFECTS || size + block.length > MAX_CHARS) {
        if (lines.length === mark + 2) lines.splice(mark);
        break outer;
      }
      lines.push(block);
      size += block.length + 1;
      shown += 1;
    }
  }
  if (shown < defects.length) {
    lines.push(`… and ${defects.length - shown} more defects: see conformance.html or junit.xml.`, '');
  }
  return lines.join('\n');
}
