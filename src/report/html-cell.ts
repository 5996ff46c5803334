/**
 * The details of one matrix cell in conformance.html: its cases (hand-written first, then the
 * generated ones grouped), each case's rows with findings, steps and reproduce commands, and its
 * distinct exchanges. Everything from the report goes through esc().
 */
import type { ResultRow, Status, TransientCell } from '../core/types.js';
import { isGeneratedCase } from '../core/rows.js';
import { HOSTILE_GROUP } from '../core/check-groups.js';
import {
  cellState,
  COLUMN_LABELS,
  countRows,
  rowBindingLabel,
  stepText,
  truncate,
  type Column,
  type Counts,
} from './model.js';
import { canonicalDiffHtml, prettyExcerpt } from './html-exchange.js';
import { attemptsText, cellText, flakyRows } from './transient.js';
import { esc } from './html-escape.js';

/**
 * Longest request/response excerpt shown, in characters. The engine already keeps 4 KB of each
 * exchange followed by a note of how much more there was (src/engine/rows.ts): this bound leaves
 * that note whole and only guards against reports from elsewhere.
 */
export const HTML_EXCERPT_MAX = 4096 + 256;

const STATUS_ORDER: Record<Status, number> = { failed: 0, known: 1, skipped: 2, passed: 3 };
const STATUS_LABEL: Record<Status, string> = {
  failed: 'failed',
  known: 'known deviation',
  skipped: 'skipped',
  passed: 'passed',
};
const STATE_LABEL = {
  failed: 'failed',
  known: 'known deviation',
  passed: 'passed',
  skipped: 'skipped',
  empty: 'no checks',
} as const;

export function countsText(c: Counts): string {
  return (['failed', 'passed', 'known', 'skipped'] as const)
    .filter((k) => c[k] > 0)
    .map((k) => `${c[k]} ${k === 'known' ? 'known' : k}`)
    .join(' · ');
}

/**
 * An excerpt; `pretty`: its XML also pretty-printed, the raw text one click away (the cases with a problem: elsewhere
 * it would double the page).
 */
function excerptHtml(label: string, s: string | undefined, pretty = false): string {
  if (s === undefined || s === '') return `<div><h4>${label}</h4><p class="note">not recorded</p></div>`;
  const t = truncate(s, HTML_EXCERPT_MAX);
  const note = t.truncated
    ? `<p class="note">Truncated: showing the first ${t.text.length.toLocaleString('en-US')} `
      + `of ${t.length.toLocaleString('en-US')} characters. The reports keep only the start of each `
      + `exchange: its reproduce command gets it whole.</p>`
    : '';
  const formatted = pretty && !t.truncated ? prettyExcerpt(t.text) : undefined; // cut again here: a report from elsewhere
  if (formatted === undefined) return `<div><h4>${label}</h4><pre>${esc(t.text)}</pre>${note}</div>`;
  return (
    `<div><h4>${label} <span class="sum">(pretty-printed)</span></h4><pre class="pretty">${esc(formatted)}</pre>`
    + `<details class="raw"><summary>Raw, as sent and received</summary><pre `
    + `class="raw">${esc(t.text)}</pre></details>${note}</div>`
  );
}

function findingsTable(r: ResultRow): string {
  if (r.findings.length === 0) return '';
  const rows = r.findings.map(
    (f) =>
      `<tr><td><code>${esc(f.check)}</code></td><td><code>${esc(f.path)}</code></td><td>${esc(f.message)}</td>`
      + `<td>${f.expected !== undefined ? `<code>${esc(f.expected)}</code>` : ''}</td><td>${f.actual !== undefined ? `<code>${esc(f.actual)}</code>` : ''}</td></tr>`,
  );
  return (
    '<table class="findings"><colgroup><col class="c-check"><col class="c-path"><col '
    + 'class="c-msg"><col><col></colgroup>'
    + '<thead><tr><th>Check</th><th>Path</th><th>Message</th><th>Expected</th><th>Actual</th></tr></thead>'
    + `<tbody>${rows.join('')}</tbody></table>`
  );
}

export function reproHtml(command: string, label = 'Reproduce', cls = 'repro'): string {
  return (
    `<div class="${cls}"><div class="repro-head"><span>${label}</span><button type="button" `
    + `data-action="copy" data-js-only hidden>Copy</button></div>`
    + `<pre class="cmd"><code>${esc(command)}</code></pre></div>`
  );
}

/** The re-run command of a row (src/report/rerun.ts), or undefined. */
export type Rerun = (r: ResultRow) => string | undefined;

function problemRow(r: ResultRow, multiBinding: boolean, withRepro: boolean, rerun: Rerun): string {
  const head =
    `<div class="row-head"><span class="badge ${r.status}">${STATUS_LABEL[r.status]}</span>`
    + `<code class="check"><b>${esc(r.check)}</b></code>`
    + (multiBinding ? `<span class="sum">${esc(rowBindingLabel(r.binding))}</span>` : '')
    + (r.path ? `<code class="path">${esc(r.path)}</code>` : '')
    + '</div>';
  const msg = r.message ? `<p class="msg">${esc(r.message)}</p>` : '';
  const repro =
    withRepro && r.reproduce ? reproHtml(r.reproduce, r.steps ? 'Reproduce the whole sequence' : 'Reproduce') : '';
  // A sequence as numbered steps, in the order sent.
  const steps = r.steps
    ? `<ol class="steps">${r.steps.map((s) => `<li value="${s.n}">${esc(stepText(s))}</li>`).join('')}</ol>`
    : '';
  const again = rerun(r);
  const rerunBlock = again ? reproHtml(again, 'Re-run just this row', 'repro rerun') : '';
  return (
    `<article `
    + `class="row ${r.status}">${head}${msg}${findingsTable(r)}${steps}${canonicalDiffHtml(r.findings, esc)}${repro}${rerunBlock}</article>`
  );
}

function caseSection(caseName: string, rows: ResultRow[], rerun: Rerun): string {
  const sorted = [...rows].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  const multiBinding = new Set(rows.map((r) => r.binding)).size > 1 || rows.some((r) => r.binding.includes(','));
  const problems = sorted.filter((r) => r.status === 'failed' || r.status === 'known');
  const others = sorted.filter((r) => r.status === 'passed' || r.status === 'skipped');
  const c = countRows(rows);
  let html =
    `<section class="case"><h3>case <code>${esc(caseName)}</code> <span `
    + `class="sum">${esc(countsText(c))}</span></h3>`;
  // Checks of one exchange share its command: show it once under them rather than once per check.
  const commands = new Set(problems.map((r) => r.reproduce));
  const shared = problems.length > 1 && commands.size === 1 ? problems[0]!.reproduce : '';
  // So do their re-run commands (one operation, binding and case).
  const reruns = new Set(problems.map((r) => rerun(r)));
  const sharedRerun = problems.length > 1 && reruns.size === 1 ? rerun(problems[0]!) : undefined;
  html += problems.map((r) => problemRow(r, multiBinding, !shared, sharedRerun ? () => undefined : rerun)).join('');
  if (shared) html += reproHtml(shared, `Reproduce (${problems.length} checks above)`);
  if (sharedRerun) html += reproHtml(sharedRerun, `Re-run just these ${problems.length} checks`, 'repro rerun');
  // Each distinct exchange once, in order (keyed by its texts as they are: no copy of the excerpts).
  const exchanges: ResultRow[] = [];
  const seen = new Map<string, Set<string>>();
  for (const r of sorted) {
    if (r.request === undefined && r.response === undefined) continue;
    let responses = seen.get(r.request ?? '');
    if (responses === undefined) seen.set(r.request ?? '', (responses = new Set()));
    if (responses.has(r.response ?? '')) continue;
    responses.add(r.response ?? '');
    exchanges.push(r);
  }
  for (const r of exchanges) {
    const label = exchanges.length > 1 ? ` (${esc(rowBindingLabel(r.binding))}, ${esc(r.check)})` : '';
    html +=
      `<details class="exchange"${problems.length > 0 ? ' open' : ''}><summary>Request and response${label}</summary>`
      + `<div `
      + `class="ex-grid">${excerptHtml('Request', r.request, problems.length > 0)}${excerptHtml('Response', r.response, problems.length > 0)}</div></details>`;
  }
  if (others.length > 0) {
    html +=
      '<ul class="others">'
      + others
        .map(
          (r) =>
            `<li class="${r.status}" title="${esc(STATUS_LABEL[r.status])}">`
            + `${r.status === 'passed' ? '✓' : '○'} <code>${esc(r.check)}</code>`
            + (multiBinding ? ` <span class="why">${esc(rowBindingLabel(r.binding))}</span>` : '')
            + (r.status === 'skipped' && r.message ? ` <span class="why">— ${esc(r.message)}</span>` : '')
            + '</li>',
        )
        .join('')
      + '</ul>';
  }
  return `${html}</section>`;
}

/**
 * The attribute naming a matrix row's or cell's operation: data-operation, or data-hostile-operation in the hostile
 * requests' group.
 */
export function operationAttribute(operation: string, group?: string): string {
  return `${group === HOSTILE_GROUP ? 'data-hostile-operation' : 'data-operation'}="${esc(operation)}"`;
}

export function cellDetail(
  id: string,
  operation: string,
  column: Column,
  rows: ResultRow[],
  rerun: Rerun,
  transient?: TransientCell,
  group?: string,
): string {
  const c = countRows(rows);
  const state = cellState(c);
  const cases = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const rs = cases.get(r.case);
    if (rs) rs.push(r);
    else cases.set(r.case, [r]);
  }
  const ordered = [...cases].sort(
    ([, a], [, b]) =>
      Math.min(...a.map((r) => STATUS_ORDER[r.status])) - Math.min(...b.map((r) => STATUS_ORDER[r.status])),
  );
  // A hostile request's cell names its operation apart: the operation's own cell is the one data-operation names.
  return (
    `<details class="cell-detail ${state}" id="d-${id}" ${operationAttribute(operation, group)} `
    + `data-column="${column}">`
    + `<summary><span class="badge ${state}">${STATE_LABEL[state]}</span><span class="ttl">${esc(operation)}</span>`
    + `<span>${esc(COLUMN_LABELS[column])}</span><span class="sum">${esc(countsText(c))}</span></summary>`
    + `<div class="body" `
    + `id="${id}">${transient ? `<p class="note transient">Transient: ${esc(cellText(transient))}</p>` : ''}`
    + `${flakyRows({ results: rows })
      .map((r) => `<p class="note flaky">FLAKY: ${esc(`${r.case} :: ${r.check}: ${attemptsText(r)}`)}</p>`)
      .join('')}${ordered
      .filter(([name]) => !isGeneratedCase(name))
      .map(([name, rs]) => caseSection(name, rs, rerun))
      .join('')}`
    + `${generatedGroup(
      ordered.filter(([name]) => isGeneratedCase(name)),
      rerun,
    )}</div></details>`
  );
}

/**
 * The generated cases of a cell, grouped after the hand-written ones so the cell stays readable:
 * one collapsible group, failing cases first (the group open when one failed).
 */
function generatedGroup(cases: readonly (readonly [string, ResultRow[]])[], rerun: Rerun): string {
  if (cases.length === 0) return '';
  const all = countRows(cases.flatMap(([, rs]) => rs));
  const failing = cases.filter(([, rs]) => rs.some((r) => r.status === 'failed')).length;
  return (
    `<details class="generated"${failing > 0 ? ' open' : ''}><summary><h3 class="sub">${cases.length} `
    + `generated case${cases.length > 1 ? 's' : ''}`
    + `${failing ? `, ${failing} failing first` : ''}</h3> <span class="sum">${esc(countsText(all))}</span></summary>`
    + `${cases.map(([name, rs]) => caseSection(name, rs, rerun)).join('')}</details>`
  );
}
