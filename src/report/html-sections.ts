/**
 * The sections of conformance.html around its matrix: the diagnosis before it; the accepted
 * deviations, the cases that did not reach the data path, the defects, the answer times, the
 * bookings consumed and the transient answers after it. Each is '' when it has nothing to say.
 */
import type { RunReport } from '../core/types.js';
import { groupDefects } from './defects.js';
import {
  changedBookingsLine,
  COLUMN_LABELS,
  deviationFlags,
  deviations,
  inBandCases,
  inBandNote,
  rowBindingLabel,
  skippedOperations,
  truncate,
  type Column,
} from './model.js';
import { latencyMatrix } from './latency.js';
import { attemptsText, flakyRows, transientLine } from './transient.js';
import { esc } from './html-escape.js';
import { reproHtml } from './html-cell.js';

/** The accepted deviations the run judged, as a table, flagged where a person must act (empty when none). */
export function deviationSection(report: RunReport): string {
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
export function defectSection(report: RunReport): string {
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

/** What the run consumed of its booking pools: every booking and what each call did to it. */
export function bookingsSection(report: RunReport): string {
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
export function transientSection(report: RunReport): string {
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

/** The valid cases answered with an in-band Error, as a table (empty when there are none). */
export function inBandSection(report: RunReport): string {
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
export function latencySection(report: RunReport): string {
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
export function diagnosisSection(report: RunReport): string {
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
