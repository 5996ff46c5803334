/**
 * conformance.html: one self-contained page (inline CSS and JS, nothing fetched) with the
 * operations × bindings matrix; a cell links to its details below (a <details> element, so the page
 * works without JS; with JS a click opens and scrolls to it).
 *
 * Everything from the report is untrusted (responses come from the target): all of it goes
 * through esc() into text or quoted attribute values, never into the script or style, and a
 * Content-Security-Policy allows only the page's own script and style (by hash) and no fetches.
 */
import { driftLine } from './drift.js';
import { formatPart, networkParts, secondAccountPart } from './header.js';
import { coverageHtml } from './coverage.js';
import { createHash } from 'node:crypto';
import { BINDINGS } from '../contract/catalogue.js';
import type { ResultRow, RunReport, Status, TransientCell } from '../core/types.js';
import { isGeneratedCase } from '../core/rows.js';
import { groupDefects } from './defects.js';
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
  truncate,
  verdictOf,
  visibleText,
  changedBookingsLine,
  stepText,
  type Column,
  type Counts,
} from './model.js';
import { HOSTILE_GROUP } from '../core/check-groups.js';
import { rerunCommand } from './rerun.js';
import { latencyMatrix } from './latency.js';
import { canonicalDiffHtml, departingBindings, departsMark, EXCHANGE_CSS, prettyExcerpt } from './html-exchange.js';
import { attemptsText, cellText, flakyRows, transientCell, transientLine } from './transient.js';

/**
 * Longest request/response excerpt shown, in characters. The engine already keeps 4 KB of each
 * exchange followed by a note of how much more there was (src/engine/rows.ts): this bound leaves
 * that note whole and only guards against reports from elsewhere.
 */
export const HTML_EXCERPT_MAX = 4096 + 256;

const MARKUP_CHARS = /[&<>"']/;

/** Escape text for HTML text or a double/single-quoted attribute value. */
export function esc(s: string): string {
  const v = visibleText(s);
  return MARKUP_CHARS.test(v)
    ? v
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;')
    : v;
}

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

const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;
--fail:#b42318;--fail-bg:#fdecea;--pass:#1a7f37;--pass-bg:#e6f4ea;--known:#9a6700;--known-bg:#fff4d6;
--skip:#59636e;--skip-bg:#eef1f4;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
[hidden]{display:none !important}
html{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
code,pre{font-family:var(--mono);font-size:12.5px}
a{color:inherit}
.page{max-width:1180px;margin:0 auto;padding:20px 24px 48px}
header.top{display:grid;grid-template-columns:auto 1fr;gap:6px 20px;align-items:center;padding-bottom:16px;border-bottom:1px solid var(--line)}
.verdict{grid-row:span 2;font-weight:700;font-size:26px;letter-spacing:.04em;padding:14px 22px;border-radius:10px;color:#fff}
.verdict.pass{background:var(--pass)}.verdict.fail,.verdict.untested,.verdict.incomplete,.verdict.outage{background:var(--fail)}
.cell.untested{outline:2px dashed var(--fail);outline-offset:-3px}.cell .untested-mark{display:block;font-size:11px;font-weight:700;color:var(--fail);text-transform:uppercase}
h1{font-size:20px;margin:0;font-weight:600}
h2{font-size:16px;margin:28px 0 10px}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0;list-style:none}
.counts li{padding:2px 10px;border-radius:999px;background:var(--soft);border:1px solid var(--line)}
.counts b{font-variant-numeric:tabular-nums}
.counts .failed{background:var(--fail-bg);border-color:#f5c2bd;color:var(--fail)}
.counts .passed{background:var(--pass-bg);border-color:#b7e0c2;color:var(--pass)}
.counts .known{background:var(--known-bg);border-color:#f0d58a;color:var(--known)}
.counts .skipped{background:var(--skip-bg);color:var(--skip)}
.meta{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:4px 14px;margin:14px 0 0;font-size:13px}
.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.meta dd code{font-size:12.5px}
table{border-collapse:collapse}
.matrix{width:100%;table-layout:fixed;border:1px solid var(--line)}
.matrix th,.matrix td{border:1px solid var(--line);padding:0;text-align:center;vertical-align:middle}
.matrix thead th{background:var(--soft);padding:8px 6px;font-weight:600}
.matrix thead th:first-child,.matrix tbody th[scope=row]{text-align:left;width:26%}
.matrix tbody th[scope=row]{padding:6px 10px;font-weight:500;font-family:var(--mono);font-size:13px}
.matrix th.grp{background:#eaeef2;text-align:left;padding:5px 10px;font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.cell a,.cell .none{display:flex;gap:8px;justify-content:center;align-items:center;min-height:34px;padding:4px 6px;text-decoration:none}
.cell a:hover,.cell a:focus-visible{outline:2px solid #0969da;outline-offset:-2px}
.cell.failed{background:var(--fail-bg)}.cell.passed{background:var(--pass-bg)}.cell.known{background:var(--known-bg)}
.cell.skipped{background:var(--skip-bg)}.cell.empty{color:#9aa4ae}
.cell.selected{box-shadow:inset 0 0 0 3px #0969da}
.n{font-variant-numeric:tabular-nums;font-weight:600;white-space:nowrap}
.n.failed{color:var(--fail)}.n.passed{color:var(--pass)}.n.known{color:var(--known)}.n.skipped{color:var(--skip)}
.legend{color:var(--muted);font-size:12.5px;margin:8px 0 0}
.legend span{margin-right:14px}
.toolbar{display:flex;gap:8px;align-items:center;margin:0 0 10px}
button{font:inherit;font-size:12.5px;padding:3px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);cursor:pointer}
button:hover{background:#eaeef2}
details.cell-detail{border:1px solid var(--line);border-left-width:4px;border-radius:6px;margin:0 0 8px;background:#fff}
details.cell-detail.failed{border-left-color:var(--fail)}details.cell-detail.passed{border-left-color:var(--pass)}
details.cell-detail.known{border-left-color:var(--known)}details.cell-detail.skipped{border-left-color:#afb8c1}
details.cell-detail>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
details.cell-detail>summary::marker{color:var(--muted)}
details.cell-detail[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.cell-detail:has(>.body:target),details.cell-detail.selected{box-shadow:0 0 0 3px rgba(9,105,218,.35)}
.ttl{font-weight:600;font-family:var(--mono)}
.sum{color:var(--muted);font-size:13px}
.only-failures details.cell-detail:not(.failed),.only-failures .others-title{display:none}
details.generated>summary{cursor:pointer;list-style-position:inside}details.generated>summary h3.sub{display:inline}
h3.sub{font-size:13px;font-weight:600;color:var(--muted);margin:16px 0 8px;text-transform:uppercase;letter-spacing:.05em}
.body{padding:4px 14px 12px}
.case h3{font-size:13.5px;margin:12px 0 8px;font-weight:600}
.row{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:0 0 10px}
.row.failed{border-color:#f1b7b0;background:#fffafa}.row.known{border-color:#ecd189;background:#fffdf5}
.row-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.badge{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;padding:1px 7px;border-radius:4px;color:#fff;white-space:nowrap}
.badge.failed{background:var(--fail)}.badge.passed{background:var(--pass)}.badge.known{background:var(--known)}.badge.skipped{background:#8c959f}
.path{color:var(--muted);overflow-wrap:anywhere}
.msg{margin:6px 0;white-space:pre-wrap;overflow-wrap:anywhere}
table.findings{width:100%;margin:6px 0 8px;font-size:12.5px;table-layout:fixed}
table.findings th,table.findings td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
table.findings th{background:var(--soft);font-weight:600}
table.findings col.c-check{width:16%}table.findings col.c-path{width:24%}table.findings col.c-msg{width:28%}
table.findings td code{white-space:pre-wrap}
.repro{margin:8px 0 0}
.repro-head{display:flex;justify-content:space-between;align-items:center;font-size:12px;color:var(--muted);margin-bottom:3px}
pre{margin:0;padding:8px 10px;background:#0d1117;color:#e6edf3;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:22em;overflow:auto}
pre.cmd{background:#1f2328}
details.exchange{margin:0 0 10px}
details.exchange>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin-bottom:6px}
.ex-grid{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.ex-grid h4{margin:0 0 3px;font-size:12px;color:var(--muted);font-weight:600}
.note{color:var(--known);font-size:12px;margin:3px 0 0}
tr.flagged td{background:var(--known-bg,#fff8c5)}table.in-band{border-collapse:collapse;font-size:13px;margin:6px 0 14px}table.in-band td,table.in-band th{border:1px solid var(--line);padding:3px 8px;text-align:left;overflow-wrap:anywhere}
ul.others{list-style:none;padding:0;margin:4px 0 6px;display:flex;flex-wrap:wrap;gap:6px}
ul.others li{font-size:12.5px;padding:1px 8px;border-radius:4px;background:var(--soft);border:1px solid var(--line)}
ul.others li.passed{background:var(--pass-bg);border-color:#b7e0c2}
ul.others li.skipped{background:var(--skip-bg)}
ul.others li .why{color:var(--muted)}
footer{margin-top:32px;color:var(--muted);font-size:12px}
@media (max-width:760px){.ex-grid{grid-template-columns:1fr}.meta{grid-template-columns:max-content 1fr}}
@media print{details.cell-detail{break-inside:avoid}.toolbar,button{display:none}}
`;

const PAGE_CSS = CSS + EXCHANGE_CSS;

// Static: no report data is ever interpolated into the script.
const SCRIPT = `
(function () {
  'use strict';
  var d = document;
  d.documentElement.classList.add('js');
  Array.prototype.forEach.call(d.querySelectorAll('[data-js-only]'), function (el) { el.hidden = false; });
  // A cell links to the body inside its <details> (so fragment navigation reveals it without JS).
  function detailsOf(id) {
    var el = id && d.getElementById(id);
    return el ? el.closest('details.cell-detail') : null;
  }
  function select(id) {
    Array.prototype.forEach.call(d.querySelectorAll('.selected'), function (el) { el.classList.remove('selected'); });
    Array.prototype.forEach.call(d.querySelectorAll('.cell a[aria-expanded]'), function (a) {
      var target = detailsOf(a.getAttribute('href').slice(1));
      a.setAttribute('aria-expanded', target && target.open ? 'true' : 'false');
    });
    if (!id) return;
    var det = detailsOf(id);
    var link = d.querySelector('.cell a[href="#' + id + '"]');
    if (det) det.classList.add('selected');
    if (link) link.parentNode.classList.add('selected');
  }
  function copy(btn) {
    var code = btn.closest('.repro').querySelector('code');
    var text = code.textContent;
    function done(ok) {
      btn.textContent = ok ? 'Copied' : 'Select and copy';
      setTimeout(function () { btn.textContent = 'Copy'; }, 1600);
    }
    function fallback() {
      var range = d.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = d.execCommand('copy'); } catch (e) { ok = false; }
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else { fallback(); }
  }
  d.addEventListener('click', function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    var link = t.closest('.cell a');
    if (link) {
      e.preventDefault();
      var id = link.getAttribute('href').slice(1);
      var det = detailsOf(id);
      if (!det) return;
      if (det.open && det.classList.contains('selected')) { det.open = false; select(null); return; }
      det.open = true;
      select(id);
      det.scrollIntoView({ block: 'start' });
      return;
    }
    var btn = t.closest('button');
    if (!btn) return;
    var action = btn.getAttribute('data-action');
    if (action === 'copy') copy(btn);
    if (action === 'expand-failures') {
      Array.prototype.forEach.call(d.querySelectorAll('details.cell-detail.failed'), function (x) { x.open = true; });
      select(null);
    }
    if (action === 'collapse') {
      Array.prototype.forEach.call(d.querySelectorAll('details.cell-detail'), function (x) { x.open = false; });
      select(null);
    }
    if (action === 'only-failures') {
      var on = d.body.classList.toggle('only-failures');
      btn.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  });
  function fromHash() {
    var id = location.hash.slice(1);
    var det = detailsOf(id);
    if (det) { det.open = true; select(id); }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
`;

function sha256(s: string): string {
  return `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
}

function formatDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')
    .replace(/Z$/, '')} UTC`;
}

function countsHtml(c: Counts, cls = 'n'): string {
  const parts: string[] = [];
  if (c.failed) parts.push(`<span class="${cls} failed" title="failed">✗ ${c.failed}</span>`);
  if (c.passed) parts.push(`<span class="${cls} passed" title="passed">✓ ${c.passed}</span>`);
  if (c.known) parts.push(`<span class="${cls} known" title="known deviations">! ${c.known}</span>`);
  if (c.skipped) parts.push(`<span class="${cls} skipped" title="skipped">○ ${c.skipped}</span>`);
  return parts.join(' ');
}

function countsText(c: Counts): string {
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

function reproHtml(command: string, label = 'Reproduce', cls = 'repro'): string {
  return (
    `<div class="${cls}"><div class="repro-head"><span>${label}</span><button type="button" `
    + `data-action="copy" data-js-only hidden>Copy</button></div>`
    + `<pre class="cmd"><code>${esc(command)}</code></pre></div>`
  );
}

/** The re-run command of a row (src/report/rerun.ts), or undefined. */
type Rerun = (r: ResultRow) => string | undefined;

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
function operationAttribute(operation: string, group?: string): string {
  return `${group === HOSTILE_GROUP ? 'data-hostile-operation' : 'data-operation'}="${esc(operation)}"`;
}

function cellDetail(
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
  for (const r of rows) cases.set(r.case, [...(cases.get(r.case) ?? []), r]);
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

/** The accepted deviations the run judged, as a table, flagged where a person must act (empty when none). */
function deviationSection(report: RunReport): string {
  const accepted = deviations(report);
  if (accepted.length === 0) return '';
  const rows = accepted
    .map((d) => {
      const e = d.entry;
      return (
        `<tr${d.flagged ? ' class="flagged"' : ''}><td>${esc(e.operation)}</td><td>${esc(e.binding)}</td><td><code>${esc(e.check)}</code></td>`
        + `<td>${e.case === undefined ? 'all' : `<code>${esc(e.case)}</code>`}</td><td>${esc(truncate(e.reason, 300).text)}</td><td>${esc(e.expires ?? '—')}</td>`
        + `<td>${esc(deviationFlags(d))}</td></tr>`
      );
    })
    .join('');
  const flagged = accepted.filter((d) => d.flagged).length;
  return (
    `<section class="in-band" id="deviations" aria-labelledby="deviations-title"><h2 `
    + `id="deviations-title">Accepted deviations `
    + `(${accepted.length}${flagged ? `, ${flagged} need attention` : ''})</h2>`
    + `<p class="note">From <code>${esc(report.expectations!.file)}</code>.</p>`
    + `<table class="in-band"><thead><tr><th scope="col">Operation</th><th scope="col">Binding</th><th `
    + `scope="col">Check</th><th scope="col">Case</th>`
    + `<th scope="col">Reason</th><th scope="col">Expires</th><th `
    + `scope="col">Attention</th></tr></thead><tbody>${rows}</tbody></table></section>\n`
  );
}

/** Defects listed in the page at most; the cells below hold every failed row. */
const MAX_DEFECTS = 100;

/**
 * The failures grouped by defect (report/defects.ts): each once, with the cases that hit it, one
 * finding and one reproduce command (empty when nothing failed).
 */
function defectSection(report: RunReport): string {
  const failed = report.results.filter((r) => r.status === 'failed');
  const defects = groupDefects(failed);
  if (defects.length === 0) return '';
  const items = defects
    .slice(0, MAX_DEFECTS)
    .map((d) => {
      const e = d.example;
      const head =
        `<div class="row-head"><span class="badge failed">failed</span><span class="ttl">${esc(d.operation)}</span>`
        + `<span class="sum">${esc(rowBindingLabel(d.binding))}</span><code `
        + `class="check"><b>${esc(d.check)}</b>${d.code ? ` ${esc(d.code)}` : ''}</code>`
        + (d.path ? `<code class="path">${esc(d.path)}</code>` : '')
        + '</div>';
      const cases =
        `<p class="msg">${d.cases.length} case${d.cases.length === 1 ? '' : 's'}: ${d.cases
          .slice(0, 20)
          .map((c) => `<code>${esc(c)}</code>`)
          .join(', ')}`
        + `${d.cases.length > 20 ? `, … and ${d.cases.length - 20} more` : ''}${d.occurrences > d.cases.length ? ` (${d.occurrences} findings)` : ''}</p>`;
      const detail =
        `<p `
        + `class="msg">${esc(truncate(e.message, 600).text)}${e.expected !== undefined ? `<br>expected <code>${esc(truncate(e.expected, 300).text)}</code>` : ''}`
        + `${e.actual !== undefined ? `<br>actual <code>${esc(truncate(e.actual, 300).text)}</code>` : ''}</p>`;
      const repro = d.reproduce ? reproHtml(d.reproduce, `Reproduce (case ${esc(d.reproduceCase)})`) : '';
      return `<article class="row failed defect">${head}${cases}${detail}${repro}</article>`;
    })
    .join('');
  const more =
    defects.length > MAX_DEFECTS
      ? `<p class="note">… and ${defects.length - MAX_DEFECTS} more defects: see the cells below.</p>`
      : '';
  return (
    `<section id="defects" aria-labelledby="defects-title"><h2 id="defects-title">Defects `
    + `(${defects.length}, in ${failed.length} failed row${failed.length === 1 ? '' : 's'})</h2>`
    + `<p class="note">Failed rows grouped by operation, binding, check, defect code and path; each with `
    + `the cases that hit it and one command that reproduces it.</p>`
    + `${items}${more}</section>\n`
  );
}

/** The valid cases answered with an in-band Error, as a table (empty when there are none). */
/** What the run consumed of its booking pools: every booking and what each call did to it. */
function bookingsSection(report: RunReport): string {
  const line = changedBookingsLine(report);
  if (!line || !report.bookings) return '';
  const rows = report.bookings.changed
    .map(
      (c) =>
        `<tr><td><code>${esc(c.pool)}</code></td><td><code>${esc(c.id)}</code>${c.email ? ` ${esc(c.email)}` : ''}</td>`
        + `<td>${esc(c.operation)}</td><td>${esc(c.binding)}</td><td><code>${esc(c.case)}</code>${c.step ? ` step ${c.step}` : ''}</td><td>${esc(c.outcome)}</td></tr>`,
    )
    .join('');
  return (
    `<section class="bookings" id="bookings"><details><summary>${esc(line)}</summary>`
    + `<table class="in-band"><thead><tr><th scope="col">Pool</th><th scope="col">Booking</th><th `
    + `scope="col">Operation</th><th scope="col">Binding</th><th scope="col">Case</th><th `
    + `scope="col">Outcome</th></tr></thead><tbody>${rows}</tbody></table></details></section>\n`
  );
}

/** The run's transient answers per operation × binding and its FLAKY rows (empty when none). */
function transientSection(report: RunReport): string {
  const t = report.transient;
  const flaky = flakyRows(report);
  if (!t && flaky.length === 0) return '';
  const cells = (t?.cells ?? [])
    .map(
      (c) =>
        `<tr><td>${esc(c.operation)}</td><td>${esc(c.binding)}</td><td>${c.answers}</td><td>${c.retries}</td><td>${c.ambiguous}</td><td>${c.exchanges}</td></tr>`,
    )
    .join('');
  const flakyList = flaky
    .map((r) => `<li>${esc(`${r.operation} [${r.binding}] ${r.case} :: ${r.check}: ${attemptsText(r)}`)}</li>`)
    .join('');
  return (
    `<section class="transient" `
    + `id="transient"><details${t?.unhealthy ? ' open' : ''}><summary>${esc(t ? `Transient: ${transientLine(t)}${t.unhealthy ? ': the target is UNHEALTHY' : ''}` : 'Transient: none')}`
    + `${flaky.length ? esc(`; ${flaky.length} flaky`) : ''}</summary>`
    + `${
      cells
        ? `<table class="in-band"><thead><tr><th scope="col">Operation</th><th `
          + `scope="col">Binding</th><th scope="col">Transient answers</th><th scope="col">Retries</th>`
          + `<th scope="col">Ambiguous writes</th><th `
          + `scope="col">Exchanges</th></tr></thead><tbody>${cells}</tbody></table>`
        : ''
    }`
    + `${flakyList ? `<p class="note">Failures that did not reproduce when the case was sent again (they do not fail the run):</p><ul>${flakyList}</ul>` : ''}</details></section>\n`
  );
}

function inBandSection(report: RunReport): string {
  const noData = inBandCases(report);
  if (noData.length === 0) return '';
  const rows = noData
    .map(
      (c) =>
        `<tr><td>${esc(c.operation)}</td><td><code>${esc(c.case)}</code></td><td>${esc(c.bindings.join(', '))}</td>`
        + `<td><code>${esc(c.type || '(none)')}</code></td><td>${esc(truncate(c.message, 300).text)}</td></tr>`,
    )
    .join('');
  return (
    `<section class="in-band" id="in-band" aria-labelledby="in-band-title"><h2 id="in-band-title">Cases `
    + `that did not reach the data path (${noData.length})</h2>`
    + `<p class="note">${esc(inBandNote(noData.length))}</p>`
    + `<table class="in-band"><thead><tr><th scope="col">Operation</th><th scope="col">Case</th><th `
    + `scope="col">Bindings</th><th scope="col">ErrorType</th><th `
    + `scope="col">Message</th></tr></thead><tbody>${rows}</tbody></table></section>\n`
  );
}

/** The target's answer times per operation × binding (median / p95), as a table ('' when no exchange was answered). */
function latencySection(report: RunReport): string {
  const m = latencyMatrix(report);
  if (m.rows.length === 0) return '';
  return (
    `<details class="latency" id="latency"><summary>Answer times per operation × binding (median / p95)</summary>`
    + `<table class="in-band"><thead><tr><th `
    + `scope="col">Operation</th>${m.bindings.map((b) => `<th scope="col">${esc(COLUMN_LABELS[b as Column] ?? b)}</th>`).join('')}</tr></thead>`
    + `<tbody>${m.rows.map((r) => `<tr data-operation="${esc(r.operation)}"><td>${esc(r.operation)}</td>${r.cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></details>\n`
  );
}

/**
 * The diagnosis of the target as a whole, whether the run is complete, and the operations not called: shown before the
 * matrix.
 */
function diagnosisSection(report: RunReport): string {
  const items = [
    ...(report.incomplete ? [`<li class="error">Incomplete run: ${esc(report.incomplete)}</li>`] : []),
    ...(report.diagnosis ?? []).map(
      (d) =>
        `<li `
        + `class="${d.level}">${d.level === 'error' ? '✗ ' : `${d.level}: `}${esc(truncate(d.message, 600).text)}</li>`,
    ),
    ...skippedOperations(report).map(
      (o) => `<li class="hint">Not called: ${esc(o.operation)}: ${esc(truncate(o.reason, 300).text)}</li>`,
    ),
  ];
  if (items.length === 0) return '';
  return `<section class="in-band" id="diagnosis" aria-labelledby="diagnosis-title"><h2 id="diagnosis-title">Diagnosis</h2><ul>${items.join('')}</ul></section>
`;
}

/** Render conformance.html. */
export function renderHtml(report: RunReport): string {
  const s = report.summary;
  const judged = verdictOf(report);
  const verdict = judged.verdict;
  const unreached = s.passedUnreached ?? 0;
  const groups = buildMatrix(report);
  const ran = new Set<string>(report.bindings);
  const departing = departingBindings(report);
  const rerun: Rerun = (r) => rerunCommand(report, r);
  // Cells whose valid calls never reached the data path: whatever their rows say, nothing was tested there.
  const untested = new Map((report.untested ?? []).map((u) => [`${u.operation} ${u.binding}`, u.reason]));

  const matrixRows: string[] = [];
  const problemDetails: string[] = [];
  const otherDetails: string[] = [];
  let rowIndex = 0;
  for (const g of groups) {
    matrixRows.push(
      `<tbody data-group="${esc(g.group)}"><tr><th class="grp" colspan="${COLUMNS.length + 1}" `
        + `scope="rowgroup">${esc(GROUP_LABELS[g.group] ?? g.group)}</th></tr>`,
    );
    for (const row of g.rows) {
      rowIndex += 1;
      const cells = COLUMNS.map((col) => {
        const rows = row.cells[col];
        const c = countRows(rows);
        const state = cellState(c);
        if (c.total === 0) {
          const why = (BINDINGS as readonly string[]).includes(col) && !ran.has(col) ? 'not run' : '—';
          return `<td class="cell empty" data-column="${col}" data-state="empty"><span class="none">${why}</span></td>`;
        }
        const id = `cell-${rowIndex}-${col}`;
        (state === 'failed' || state === 'known' ? problemDetails : otherDetails).push(
          cellDetail(id, row.operation, col, rows, rerun, transientCell(report, row.operation, col), row.group),
        );
        // The hostile requests' row of an operation: no comparison departs there, and "not tested" is said on the
        // operation's own row.
        const own = row.group !== HOSTILE_GROUP;
        const departs = own ? (departing.get(row.operation)?.get(col) ?? 0) : 0;
        const notTested = own ? untested.get(`${row.operation} ${col}`) : undefined;
        const title =
          `${row.operation} `
          + `· ${COLUMN_LABELS[col]}: ${countsText(c)}${departs ? `; departs from the other bindings in ${departs} comparison${departs === 1 ? '' : 's'}` : ''}`
          + (notTested !== undefined ? `; NOT TESTED: ${truncate(notTested, 300).text}` : '');
        return (
          `<td `
          + `class="cell ${state}${departs ? ' departing' : ''}${notTested !== undefined ? ' untested' : ''}" `
          + `data-column="${col}" `
          + `data-state="${state}"${departs ? ` data-departs="${departs}"` : ''}${notTested !== undefined ? ' data-untested="true"' : ''}>`
          + `<a href="#${id}" aria-controls="d-${id}" aria-expanded="false" `
          + `title="${esc(title)}">${countsHtml(c)}${departs ? departsMark(departs, esc) : ''}`
          + `${notTested !== undefined ? '<span class="untested-mark">not tested</span>' : ''}</a></td>`
        );
      });
      matrixRows.push(
        `<tr ${operationAttribute(row.operation, row.group)}><th `
          + `scope="row">${esc(row.operation)}</th>${cells.join('')}</tr>`,
      );
    }
    matrixRows.push('</tbody>');
  }

  const t = report.target;
  const urlRows: Array<[string, string]> = [
    ['Book URL', t.bookUrl],
    ['Search URL', t.searchUrl],
    ['Transfers URL', t.transfersUrl],
  ];
  const network = networkParts(report);
  const meta: Array<[string, string]> = [
    ['Verdict', `<span id="verdict-reason">${esc(`${verdict} (exit ${judged.exitCode}): ${judged.reason}`)}</span>`],
    ...urlRows.map(([k, v]): [string, string] => [k, `<code>${esc(v)}</code>`]),
    ['User', `<code>${esc(t.user)}</code> / password <code>${esc(t.password)}</code>`],
    ['Password variable', `reproduce commands read it from <code>$${esc(passwordVariableOf(report))}</code>`],
    // Who called, and the way the requests went (never a password, a proxy's credentials or a header's value).
    ['Second account', formatPart(secondAccountPart(report), esc, (v) => `<code>${esc(v)}</code>`)],
    ...(network.length
      ? [
          [
            'Network path',
            network.map((p) => `${esc(p.label)}: ${formatPart(p, esc, (v) => `<code>${esc(v)}</code>`)}`).join('<br>'),
          ] as [string, string],
        ]
      : []),
    ['Namespaces', `book <code>${esc(t.namespaces.book)}</code><br>search <code>${esc(t.namespaces.search)}</code>`],
    ...(t.paths
      ? [
          [
            'Service paths',
            (['booking', 'reference', 'transfers'] as const)
              .map((g) => {
                const p = t.paths![g];
                return (
                  `${g} `
                  + `<code>${esc(p.soap)}</code>${p.http !== p.soap ? ` (GET/POST <code>${esc(p.http)}</code>)` : ''}`
                );
              })
              .join('<br>'),
          ] as [string, string],
        ]
      : []),
    ['Started', esc(formatDate(report.startedAt))],
    ['Duration', esc(formatDuration(report.durationMs))],
    ['Target', t.embedded ? 'embedded mock' : 'external service'],
    ['Bindings', esc(report.bindings.map((b) => COLUMN_LABELS[b]).join(', '))],
    ...(report.generation
      ? [
          [
            'Generated cases',
            `seed <code>${report.generation.seed}</code> (<code>--seed ${report.generation.seed}</code> repeats them), `
              + `${report.generation.examples} per operation; language from ${esc(report.generation.languagesFrom)}`,
          ] as [string, string],
        ]
      : []),
    ['Tool', esc(`${report.tool.name} ${report.tool.version}`)],
    // The preflight's WSDL comparison (drift.md beside this page lists the differences).
    ...(report.drift ? [['WSDL', esc(driftLine(report.drift))] as [string, string]] : []),
  ];
  const counts =
    (['failed', 'passed', 'skipped', 'known'] as const)
      .map(
        (k) =>
          `<li `
          + `class="${k}"><b>${k === 'passed' ? s.passed - unreached : s[k]}</b> ${k === 'known' ? `known deviation${s.known === 1 ? '' : 's'}` : k}</li>`,
      )
      .join('')
    // Passes on answers that never reached the data path are no passes of the contract: counted apart.
    + (unreached
      ? `<li class="unreached"><b>${unreached}</b> passed on answers that never reached the data path</li>`
      : '')
    + `<li><b>${s.total}</b> check${s.total === 1 ? '' : 's'}</li>`;
  const title = `Conformance ${verdict}: ${s.failed} failed, ${s.passed - unreached} passed`;
  const csp =
    `default-src 'none'; style-src ${sha256(PAGE_CSS)}; script-src ${sha256(SCRIPT)}; img-src data:; `
    + `base-uri 'none'; form-action 'none'`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
</head>
<body class="verdict-${verdict.toLowerCase()}">
<div class="page">
<header class="top">
<div class="verdict ${verdict.toLowerCase()}" id="verdict">${verdict}</div>
<h1>Accommodation Search and Booking Service: conformance</h1>
<ul class="counts" id="counts">${counts}</ul>
</header>
<dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
<main>
${diagnosisSection(report)}<h2 id="matrix-title">Operations × bindings</h2>
<table class="matrix" id="matrix" aria-labelledby="matrix-title">
<thead><tr><th scope="col">Operation</th>${COLUMNS.map((c) => `<th scope="col" data-column="${c}">${esc(COLUMN_LABELS[c])}</th>`).join('')}</tr></thead>
${matrixRows.join('\n')}
</table>
${deviationSection(report)}${inBandSection(report)}${defectSection(report)}${latencySection(report)}${report.coverage ? coverageHtml(report.coverage, esc) : ''}${bookingsSection(report)}${transientSection(report)}<p class="legend"><span class="n failed">✗ failed</span><span class="n passed">✓ passed</span><span class="n known">! known deviation (accepted)</span><span class="n skipped">○ skipped</span>Select a cell to see its checks, findings and how to reproduce them.</p>
<h2 id="details-title">Details</h2>
<div class="toolbar" data-js-only hidden><button type="button" data-action="expand-failures">Expand all failures</button><button type="button" data-action="collapse">Collapse all</button><button type="button" data-action="only-failures" aria-pressed="false">Failures only</button></div>
<section id="details" aria-labelledby="details-title">
${problemDetails.length > 0 ? `<h3 class="sub">Failures and known deviations (${problemDetails.length} ` + `cell${problemDetails.length === 1 ? '' : 's'})</h3>\n${problemDetails.join('\n')}` : ''}
${otherDetails.length > 0 ? `<h3 class="sub others-title">Passed and skipped (${otherDetails.length} ` + `cell${otherDetails.length === 1 ? '' : 's'})</h3>\n${otherDetails.join('\n')}` : ''}
${problemDetails.length + otherDetails.length === 0 ? '<p>No checks ran.</p>' : ''}
</section>
</main>
<footer>Generated by ${esc(`${report.tool.name} ${report.tool.version}`)} from conformance.json. Request and response excerpts are redacted by the harness and keep the first 4 KB of each exchange; a reproduce command gets it whole.</footer>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
