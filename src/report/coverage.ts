/**
 * Coverage in the reports (docs/coverage.md): a short table in conformance.md, a view per operation ×
 * binding in conformance.html with the paths no answer held, one console line. conformance.json
 * carries all of it (RunReport.coverage).
 */
import type { CoverageCell, CoverageReport } from '../core/types.js';
import { mdText } from './markdown.js';

/** The run's figure in one line: "coverage 72%: 504 of 672 answer paths held, 364 of 532 kinds of parameter value sent". */
export function coverageLine(c: CoverageReport): string {
  return `coverage ${c.percent}%: ${c.answerPaths.seen} of ${c.answerPaths.total} answer paths held, `
    + `${c.requestKinds.sent} of ${c.requestKinds.total} kinds of parameter value sent`
    + (c.min ? ` (minimum ${c.min.percent}%, ${c.min.source}${c.percent < c.min.percent ? ': below it' : ''})` : '');
}

/** A path without its result element, shorter in a table ("meals/meal/@id"). */
export function shortPath(path: string): string {
  const i = path.indexOf('/', 1);
  return i < 0 ? '(the result element)' : path.slice(i + 1);
}

/** The cells of the report by operation, in its order, each with its bindings' cells. */
function byOperation(c: CoverageReport): [string, CoverageCell[]][] {
  const m = new Map<string, CoverageCell[]>();
  for (const cell of c.cells) m.set(cell.operation, [...(m.get(cell.operation) ?? []), cell]);
  return [...m];
}

/** The paths no binding's answer held, of one operation's cells. */
function neverByAny(cells: readonly CoverageCell[]): string[] {
  const [first, ...rest] = cells;
  if (!first) return [];
  return first.neverSeen.filter((p) => rest.every((c) => c.neverSeen.includes(p)));
}

const MAX_NAMED = 4;

/** conformance.md's section: the figure, and a table of operation × binding with the paths no answer held. */
export function coverageMarkdown(c: CoverageReport): string[] {
  const bindings = [...new Set(c.cells.map((x) => x.binding))];
  const rows = byOperation(c).map(([op, cells]) => {
    const never = neverByAny(cells);
    const named = never.slice(0, MAX_NAMED).map((p) => `\`${mdText(shortPath(p))}\``).join(', ') + (never.length > MAX_NAMED ? `, … (${never.length - MAX_NAMED} more)` : '');
    return `| ${mdText(op)} | ${bindings.map((b) => `${cells.find((x) => x.binding === b)?.percent ?? '–'}%`).join(' | ')} | ${named || '–'} |`;
  });
  return [
    `<details><summary>${mdText(`C${coverageLine(c).slice(1)}`)}</summary>`, '',
    `| operation | ${bindings.join(' | ')} | never held by any answer |`,
    `|---|${bindings.map(() => '---:|').join('')}---|`,
    ...rows, '',
    `Per cell: every path, its nil, empty and absent forms, the kinds of value sent per parameter and the outcomes: conformance.json \`coverage\` (docs/coverage.md explains the figure). Not counted: ${mdText(c.note)}.`, '',
    '</details>', '',
  ];
}

type Esc = (s: string) => string;

/** conformance.html's view: the figure, and per operation × binding its never-held paths, parameters and outcomes. */
export function coverageHtml(c: CoverageReport, esc: Esc): string {
  const cells = c.cells.map((x) => {
    const never = x.neverSeen.length
      ? `<p>Never held by any answer (${x.neverSeen.length}): ${x.neverSeen.map((p) => `<code>${esc(shortPath(p))}</code>`).join(', ')}</p>` : '<p>Every path of the model held by some answer.</p>';
    const forms = x.paths.flatMap((p) => Object.entries(p.forms ?? {}).filter(([, seen]) => !seen).map(([f]) => `${shortPath(p.path)} ${f}`));
    const unseenForms = forms.length ? `<p>Forms never seen (${forms.length}): ${forms.slice(0, 40).map((f) => `<code>${esc(f)}</code>`).join(', ')}${forms.length > 40 ? ', …' : ''}</p>` : '';
    const params = x.params.length
      ? `<p>Sent: ${x.params.map((p) => `<code>${esc(p.name)}</code> ${esc(p.sent.join(', ') || 'nothing')}${p.possible.some((k) => !p.sent.includes(k)) ? ` (not: ${esc(p.possible.filter((k) => !p.sent.includes(k)).join(', '))})` : ''}`
        + `${p.enumNotSent?.length ? `; values never sent: ${esc(p.enumNotSent.join(', '))}` : ''}`).join('; ')}</p>` : '';
    const outcomes = `<p>Outcomes: ${esc(Object.entries(x.outcomes).map(([k, n]) => `${k} ×${n}`).join(', ') || 'no answer')}${x.probeAnswers ? esc(` (${x.probeAnswers} of ${x.answers} answers to probes)`) : ''}</p>`;
    return `<details class="coverage-cell" data-operation="${esc(x.operation)}" data-binding="${esc(x.binding)}"><summary>${esc(x.operation)} · ${esc(x.binding)}: ${x.percent}% `
      + `<span class="sum">(${x.answerPaths.seen}/${x.answerPaths.total} paths, ${x.requestKinds.sent}/${x.requestKinds.total} kinds)</span></summary>${never}${unseenForms}${params}${outcomes}</details>`;
  });
  return `<details class="coverage" id="coverage"><summary>${esc(coverageLine(c))}</summary><p class="sum">Not counted: ${esc(c.note)}.</p>${cells.join('')}</details>\n`;
}
