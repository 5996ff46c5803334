/**
 * Coverage in the reports (docs/coverage.md): a short table in conformance.md, a view per operation ×
 * binding in conformance.html with the paths no answer held, one console line. conformance.json
 * carries all of it (RunReport.coverage).
 */
import type { CoverageCell, CoverageReport } from '../core/types.js';
import { mdText } from './md-text.js';
import { MODEL } from '../contract/model.js';

/**
 * The run's figure in one line: "coverage 72%: 504 of 672 answer paths held, 364 of 532 kinds of parameter value sent".
 */
export function coverageLine(c: CoverageReport): string {
  return (
    `coverage ${c.percent}%: ${c.answerPaths.seen} of ${c.answerPaths.total} answer paths held, `
    + `${c.requestKinds.sent} of ${c.requestKinds.total} kinds of parameter value sent`
    + (c.min
      ? ` `
        + `(minimum ${c.min.percent}%, ${c.min.source}${c.partial !== undefined ? ', judged when the shards are merged' : c.percent < c.min.percent ? ': below it' : ''})`
      : '')
    + (c.partial !== undefined ? ` [${c.partial}]` : '')
  );
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
    const named =
      never
        .slice(0, MAX_NAMED)
        .map((p) => `\`${mdText(shortPath(p))}\``)
        .join(', ') + (never.length > MAX_NAMED ? `, … (${never.length - MAX_NAMED} more)` : '');
    return (
      `| ${mdText(op)} `
      + `| ${bindings.map((b) => `${cells.find((x) => x.binding === b)?.percent ?? '–'}%`).join(' | ')} `
      + `| ${named || '–'} |`
    );
  });
  return [
    `<details><summary>${mdText(`C${coverageLine(c).slice(1)}`)}</summary>`,
    '',
    `| operation | ${bindings.join(' | ')} | never held by any answer |`,
    `|---|${bindings.map(() => '---:|').join('')}---|`,
    ...rows,
    '',
    `Per cell: every path, its nil, empty and absent forms, the kinds of value sent per parameter and `
      + `the outcomes: conformance.json \`coverage\` (docs/coverage.md explains the figure). Not `
      + `counted: ${mdText(c.note)}.`,
    '',
    '</details>',
    '',
  ];
}

type Esc = (s: string) => string;

/** conformance.html's view: the figure, and per operation × binding its never-held paths, parameters and outcomes. */
export function coverageHtml(c: CoverageReport, esc: Esc): string {
  const cells = c.cells.map((x) => {
    const never = x.neverSeen.length
      ? `<p>Never held by any answer `
        + `(${x.neverSeen.length}): ${x.neverSeen.map((p) => `<code>${esc(shortPath(p))}</code>`).join(', ')}</p>`
      : '<p>Every path of the model held by some answer.</p>';
    const forms = x.paths.flatMap((p) =>
      Object.entries(p.forms ?? {})
        .filter(([, seen]) => !seen)
        .map(([f]) => `${shortPath(p.path)} ${f}`),
    );
    const unseenForms = forms.length
      ? `<p>Forms never seen (${forms.length}): ${forms
          .slice(0, 40)
          .map((f) => `<code>${esc(f)}</code>`)
          .join(', ')}${forms.length > 40 ? ', …' : ''}</p>`
      : '';
    const params = x.params.length
      ? `<p>Sent: ${x.params
          .map(
            (p) =>
              `<code>${esc(p.name)}</code> ${esc(p.sent.join(', ') || 'nothing')}${p.possible.some((k) => !p.sent.includes(k)) ? ` (not: ${esc(p.possible.filter((k) => !p.sent.includes(k)).join(', '))})` : ''}`
              + `${p.enumNotSent?.length ? `; values never sent: ${esc(p.enumNotSent.join(', '))}` : ''}`,
          )
          .join('; ')}</p>`
      : '';
    const outcomes = `<p>Outcomes: ${esc(
      Object.entries(x.outcomes)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') || 'no answer',
    )}${x.probeAnswers ? esc(` (${x.probeAnswers} of ${x.answers} answers to probes)`) : ''}</p>`;
    return (
      `<details class="coverage-cell" data-operation="${esc(x.operation)}" `
      + `data-binding="${esc(x.binding)}"><summary>${esc(x.operation)} · ${esc(x.binding)}: ${x.percent}% `
      + `<span class="sum">(${x.answerPaths.seen}/${x.answerPaths.total} `
      + `paths, ${x.requestKinds.sent}/${x.requestKinds.total} `
      + `kinds)</span></summary>${never}${unseenForms}${params}${outcomes}</details>`
    );
  });
  return (
    `<details class="coverage" id="coverage"><summary>${esc(coverageLine(c))}</summary><p class="sum">Not `
    + `counted: ${esc(c.note)}.</p>${cells.join('')}</details>\n`
  );
}

/**
 * A coverage figure in percent with one decimal; 100 when there is nothing to count (the run's and a merge's alike).
 */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.floor((1000 * part) / whole) / 10;
}

/**
 * The coverage of several shards of one plan, joined: a path held, a form seen, a kind or value sent
 * in any shard is in the whole; requests, answers and outcomes are summed; the figures computed again.
 * Undefined when no report has coverage (older versions).
 */
export function mergeCoverage(reports: readonly (CoverageReport | undefined)[]): CoverageReport | undefined {
  const all = reports.filter((r): r is CoverageReport => r !== undefined);
  const first = all[0];
  if (!first) return undefined;
  const cells = new Map<string, CoverageCell>();
  for (const r of all) {
    for (const c of r.cells) {
      const k = `${c.operation}\u0000${c.binding}`;
      const had = cells.get(k);
      cells.set(k, had ? joinCells(had, c) : c);
    }
  }
  return coverageReportOf([...cells.values()], first.note, first.min);
}

/** A coverage report of its cells: the run's figures are their sums (a run's report, and the shards' joined). */
export function coverageReportOf(cells: CoverageCell[], note: string, min?: CoverageReport['min']): CoverageReport {
  const sum = (f: (c: CoverageCell) => number) => cells.reduce((n, c) => n + f(c), 0);
  const answerPaths = { seen: sum((c) => c.answerPaths.seen), total: sum((c) => c.answerPaths.total) };
  const requestKinds = { sent: sum((c) => c.requestKinds.sent), total: sum((c) => c.requestKinds.total) };
  return {
    percent: percentOf(answerPaths.seen + requestKinds.sent, answerPaths.total + requestKinds.total),
    answerPaths,
    requestKinds,
    ...(min ? { min } : {}),
    note,
    cells,
  };
}

/** The values of the model's enumeration a parameter is named after (as src/engine/coverage.ts finds it). */
function enumValues(param: string): readonly string[] | undefined {
  for (const t of MODEL.values())
    if (t.kind === 'enum' && t.name.toLowerCase() === param.toLowerCase()) return t.values;
  return undefined;
}

function joinCells(a: CoverageCell, b: CoverageCell): CoverageCell {
  const other = new Map(b.paths.map((p) => [p.path, p]));
  const paths = a.paths.map((p) => {
    const q = other.get(p.path);
    if (!q) return p;
    const forms = p.forms
      ? Object.fromEntries(
          Object.entries(p.forms).map(([f, seen]) => [f, seen || (q.forms?.[f as keyof typeof q.forms] ?? false)]),
        )
      : undefined;
    return { path: p.path, seen: p.seen || q.seen, ...(forms ? { forms } : {}) };
  });
  const otherParams = new Map(b.params.map((p) => [p.name, p]));
  let sent = 0;
  let total = 0;
  const params = a.params.map((p) => {
    const q = otherParams.get(p.name);
    const kinds = new Set([...p.sent, ...(q?.sent ?? [])]);
    total += p.possible.length;
    sent += p.possible.filter((k) => kinds.has(k)).length;
    // The enumeration's values in the model's order, as the run lists them.
    const values = p.enumSent ? (enumValues(p.name) ?? [...p.enumSent, ...(p.enumNotSent ?? [])]) : undefined;
    const given = new Set([...(p.enumSent ?? []), ...(q?.enumSent ?? [])]);
    return {
      ...p,
      sent: ['absent', 'empty', 'valid', 'boundary', 'invalid'].filter((k) => kinds.has(k)),
      ...(values
        ? { enumSent: values.filter((v) => given.has(v)), enumNotSent: values.filter((v) => !given.has(v)) }
        : {}),
    };
  });
  const outcomes: Record<string, number> = { ...a.outcomes };
  for (const [k, n] of Object.entries(b.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + n;
  const seen = paths.filter((p) => p.seen).length;
  const probeAnswers = (a.probeAnswers ?? 0) + (b.probeAnswers ?? 0);
  return {
    operation: a.operation,
    binding: a.binding,
    percent: percentOf(seen + sent, paths.length + total),
    requests: a.requests + b.requests,
    answers: a.answers + b.answers,
    ...(probeAnswers ? { probeAnswers } : {}),
    answerPaths: { seen, total: paths.length },
    requestKinds: { sent, total },
    outcomes: Object.fromEntries(Object.entries(outcomes).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))),
    params,
    paths,
    neverSeen: paths.filter((p) => !p.seen).map((p) => p.path),
  };
}
