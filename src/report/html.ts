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
import type { RunReport } from '../core/types.js';
import {
  buildMatrix,
  cellState,
  COLUMN_LABELS,
  COLUMNS,
  countRows,
  formatDuration,
  GROUP_LABELS,
  passwordVariableOf,
  truncate,
  verdictOf,
  type Counts,
  type MatrixGroup,
} from './model.js';
import { HOSTILE_GROUP } from '../core/check-groups.js';
import { rerunCommand } from './rerun.js';
import { departingBindings, departsMark } from './html-exchange.js';
import { transientCell } from './transient.js';
import { esc } from './html-escape.js';
import { PAGE_CSS, SCRIPT } from './html-assets.js';
import { cellDetail, countsText, operationAttribute, type Rerun } from './html-cell.js';
import {
  bookingsSection,
  defectSection,
  deviationSection,
  diagnosisSection,
  inBandSection,
  latencySection,
  transientSection,
} from './html-sections.js';

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

/**
 * Render conformance.html. `groups`: buildMatrix(report), when the caller has it already (the
 * Markdown report's, in writeReports).
 */
export function renderHtml(report: RunReport, groups: readonly MatrixGroup[] = buildMatrix(report)): string {
  const s = report.summary;
  const judged = verdictOf(report);
  const verdict = judged.verdict;
  const unreached = s.passedUnreached ?? 0;
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
