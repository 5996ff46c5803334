/**
 * A diff of two runs (src/cli/diff.ts) written for a terminal (text) or a pull request (markdown):
 * the counts, the context, the coverage lost, then each section of rows.
 */
import { consoleText, rowTitle } from '../report/model.js';
import type { DiffEntry, LostCoverage, ReportDiff } from './diff-types.js';
import { coverageLost } from './lost-coverage.js';

/** The lost coverage in lines: operations, bindings, cells, then the rows by cell (a count and one example each). */
function lostLines(l: LostCoverage, max = 40): string[] {
  const lines: string[] = [];
  for (const o of l.operations) lines.push(`operation ${o.operation}: ${o.reason}`);
  for (const b of l.bindings) lines.push(`binding ${b.binding}: ${b.reason}`);
  const lostOps = new Set(l.operations.map((o) => o.operation));
  for (const c of l.cells.filter((x) => !lostOps.has(x.operation)))
    lines.push(`${c.operation} [${c.binding}]: ${c.reason}`);
  // Rows of a cell listed above are explained there; the others by cell, a count and one example.
  const listed = new Set(l.cells.map((c) => `${c.operation} [${c.binding}]`));
  const byCell = new Map<string, DiffEntry[]>();
  for (const r of l.rows) {
    const cell = `${r.operation} [${r.binding}]`;
    if (!listed.has(cell)) byCell.set(cell, [...(byCell.get(cell) ?? []), r]);
  }
  for (const [cell, rs] of byCell) {
    const e = rs[0]!;
    lines.push(
      `${cell}: ${rs.length} row${rs.length === 1 ? '' : 's'} tested `
        + `before, ${e.new === 'absent' ? 'absent' : 'skipped'} now (e.g. ${e.case} `
        + `:: ${e.check}: ${e.message.slice(0, 160)})`,
    );
  }
  if (l.figure) lines.push(`coverage figure: ${l.figure.old}% before, ${l.figure.new}% now`);
  for (const d of l.dropped ?? []) {
    const what = [
      ...(d.paths.length
        ? [
            `${d.paths.length} answer path${d.paths.length === 1 ? '' : 's'} held before, by no answer `
              + `now (${d.paths.slice(0, 4).join(', ')}${d.paths.length > 4 ? ', …' : ''})`,
          ]
        : []),
      ...(d.kinds.length ? [`not sent now: ${d.kinds.slice(0, 6).join(', ')}${d.kinds.length > 6 ? ', …' : ''}`] : []),
    ];
    lines.push(`${d.operation} [${d.binding}]: coverage ${d.old}% → ${d.new}%: ${what.join('; ')}`);
  }
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more: see --format json`] : lines;
}

function lostHead(l: LostCoverage | undefined): string {
  if (l === undefined) return '';
  return (
    `, coverage lost: ${l.rows.length} rows, ${l.cells.length} cells, ${l.operations.length} `
    + `operations, ${l.bindings.length} bindings`
    + (l.dropped?.length ? `, ${l.dropped.length} cells with fewer answer paths held or kinds of value sent` : '')
  );
}

const SECTIONS = [
  ['newFailures', 'New failures'],
  ['fixed', 'Fixed'],
  ['stillFailing', 'Still failing'],
  ['gone', 'Failed before, not reported now'],
] as const;

export function diffText(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [
    `diff ${oldName} → ${newName}: ${d.newFailures.length} new failures, ${d.fixed.length} fixed, `
      + `${d.stillFailing.length} still failing, ${d.gone.length} no longer reported${lostHead(d.lostCoverage)}`,
  ];
  if (d.context?.length) lines.push('', 'Not the same run:', ...d.context.map((c) => `  ${consoleText(c)}`));
  if (d.lostCoverage && coverageLost(d))
    lines.push(
      '',
      'Lost coverage (tested before, not now):',
      ...lostLines(d.lostCoverage).map((x) => `  ${consoleText(x)}`),
    );
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push('', `${title} (${d[k].length}):`);
    for (const e of d[k]) {
      const was = k === 'fixed' ? ` (now ${e.new})` : k === 'newFailures' ? ` (was ${e.old})` : '';
      lines.push(
        ` `
          + ` ${consoleText(rowTitle(e))}${was}${e.message && k !== 'fixed' ? `: ${consoleText(e.message.slice(0, 200))}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

const mdCell = (s: string) =>
  s
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

export function diffMarkdown(d: ReportDiff, oldName: string, newName: string): string {
  const lines = [
    `## Conformance diff`,
    '',
    `\`${mdCell(oldName)}\` → \`${mdCell(newName)}\`: **${d.newFailures.length} new failures**, `
      + `${d.fixed.length} fixed, ${d.stillFailing.length} still failing, ${d.gone.length} no longer `
      + `reported${lostHead(d.lostCoverage)}`,
  ];
  if (d.context?.length)
    lines.push('', '> [!WARNING]', '> Not the same run:', ...d.context.map((c) => `> - ${mdCell(c)}`));
  if (d.lostCoverage && coverageLost(d))
    lines.push(
      '',
      '### Lost coverage (tested before, not now)',
      '',
      ...lostLines(d.lostCoverage).map((x) => `- ${mdCell(x)}`),
    );
  for (const [k, title] of SECTIONS) {
    if (d[k].length === 0) continue;
    lines.push(
      '',
      `### ${title} (${d[k].length})`,
      '',
      '| operation | binding | case | check | was | now | message |',
      '|---|---|---|---|---|---|---|',
    );
    for (const e of d[k])
      lines.push(
        `| ${mdCell(e.operation)} | ${mdCell(e.binding)} | ${mdCell(e.case)} | ${mdCell(e.check)} `
          + `| ${e.old} | ${e.new} | ${mdCell(e.message.slice(0, 200))} |`,
      );
  }
  return lines.join('\n');
}
