/**
 * junit.xml: one <testsuite> per operation, one <testcase> per result row, named the same in every
 * run (testName: the departing binding of a comparison is the property conformance.binding, not part
 * of the name), so CI test history and "new vs existing" failures hold.
 *
 * Known deviations are testcases that pass (they do not gate a release) and carry
 * <property name="conformance.status" value="known"/> plus the deviation in <system-out>, so
 * tests / failures / skipped equal summary.total / failed / skipped exactly.
 */
import type { ResultRow, RunReport } from '../core/types.js';
import { NOTHING_TESTED } from '../core/rows.js';
import { verdictOfReport } from '../core/verdict.js';
import { escapeAttr, escapeText } from '../core/escape.js';
import { formatFindings } from './console.js';
import { rerunCommand } from './rerun.js';
import { columnOf, countRows, stepText, testName, truncate, visibleText } from './model.js';

/** Longest request/response excerpt copied into <system-out>. */
const EXCERPT_MAX = 2048;

const xmlAttr = (s: string): string => escapeAttr(visibleText(s));
const text = (s: string): string => escapeText(visibleText(s));
/** Seconds to the microsecond: a check takes a fraction of a millisecond, and 0.000 would say it took nothing. */
const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(6);

function excerpt(label: string, s: string | undefined): string {
  if (s === undefined || s === '') return '';
  const t = truncate(s, EXCERPT_MAX);
  const note = t.truncated ? ` (first ${t.text.length} of ${t.length} characters)` : '';
  return `--- ${label}${note} ---\n${t.text}\n`;
}

function rowMessage(r: ResultRow): string {
  const first = r.findings[0];
  const msg = r.message || first?.message || r.check;
  const more =
    r.findings.length > 1 ? ` (+${r.findings.length - 1} more finding${r.findings.length > 2 ? 's' : ''})` : '';
  return `${r.path ? `${r.path}: ` : ''}${msg}${more}`;
}

function testcase(r: ResultRow, again: string | undefined): string {
  const open =
    `    <testcase name="${xmlAttr(testName(r))}" `
    + `classname="${xmlAttr(`${r.group}.${r.operation}.${columnOf(r)}`)}" time="${seconds(r.durationMs)}"`;
  const body: string[] = [];
  const props: Array<[string, string]> = [
    ['conformance.status', r.status],
    ['conformance.check', r.check],
    ['conformance.case', r.case],
    ['conformance.binding', r.binding],
  ];
  if (r.path) props.push(['conformance.path', r.path]);
  if (r.status === 'known') props.push(['known_deviation', r.message]);
  body.push('      <properties>');
  for (const [k, v] of props) body.push(`        <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`);
  body.push('      </properties>');
  if (r.status === 'failed') {
    body.push(
      `      <failure message="${xmlAttr(rowMessage(r))}" `
        + `type="${xmlAttr(r.check)}">${text(formatFindings([r]))}</failure>`,
    );
  } else if (r.status === 'skipped') {
    body.push(`      <skipped message="${xmlAttr(r.message || 'skipped')}"/>`);
  }
  let out = '';
  if (r.status === 'known') {
    out += `known deviation (accepted, does not fail the run): ${rowMessage(r)}\n`;
    for (const f of r.findings) out += `  ${f.check} at ${f.path}: ${f.message}\n`;
  }
  if (r.status === 'failed' || r.status === 'known') {
    if (r.steps) out += `steps:\n${r.steps.map((s) => `  ${s.n}. ${stepText(s)}`).join('\n')}\n`;
    if (r.reproduce) out += `reproduce:\n${r.reproduce}\n`;
    if (again) out += `re-run just this row:\n${again}\n`;
    out += excerpt('request', r.request) + excerpt('response', r.response);
  }
  if (out) body.push(`      <system-out>${text(out)}</system-out>`);
  return `${open}>\n${body.join('\n')}\n    </testcase>`;
}

function hostOrTarget(url: string): string {
  try {
    return new URL(url).host || 'target';
  } catch {
    return 'target';
  }
}

/** Render junit.xml for a report (totals are counted from the rows, which equal report.summary). */
export function renderJunit(report: RunReport): string {
  const byOp = new Map<string, ResultRow[]>();
  for (const op of report.operations) byOp.set(op, []);
  for (const r of report.results) {
    const list = byOp.get(r.operation) ?? [];
    list.push(r);
    byOp.set(r.operation, list);
  }
  const all = countRows(report.results);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  lines.push(
    `<testsuites name="${xmlAttr(`${report.tool.name} ${report.tool.version}`)}" tests="${all.total}" `
      + `failures="${all.failed}" errors="0" skipped="${all.skipped}" time="${seconds(report.durationMs)}" `
      + `timestamp="${xmlAttr(report.startedAt)}">`,
  );
  let id = 0;
  const errors = (report.diagnosis ?? []).filter((d) => d.code === NOTHING_TESTED);
  // What no sequence tested, and how to enable it (authorization across accounts without a second account).
  const notPlanned = (report.diagnosis ?? []).filter((d) => d.code === 'sequence_not_planned');
  // The run's one verdict on every suite: a CI page showing one suite sees the run's exit code and why.
  const judged = verdictOfReport(report);
  const verdictProps = [
    ['conformance.verdict', judged.verdict],
    ['conformance.exitCode', String(judged.exitCode)],
    ['conformance.verdictReason', judged.reason],
  ] as const;
  const property = ([k, v]: readonly [string, string]) =>
    `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`;
  if (report.results.length === 0) {
    lines.push(
      `  <testsuite id="0" name="conformance" tests="0" failures="0" errors="0" skipped="0" `
        + `time="0.000000" timestamp="${xmlAttr(report.startedAt)}" `
        + `hostname="${xmlAttr(hostOrTarget(report.target.bookUrl))}">`,
      '    <properties>',
      ...verdictProps.map(property),
      '    </properties>',
      '  </testsuite>',
    );
  }
  for (const [op, rows] of byOp) {
    if (rows.length === 0) continue;
    const c = countRows(rows);
    const ms = rows.reduce((a, r) => a + (r.durationMs ?? 0), 0);
    lines.push(
      `  <testsuite id="${id++}" name="${xmlAttr(op)}" package="${xmlAttr(rows[0]!.group)}" `
        + `tests="${c.total}" failures="${c.failed}" errors="0" skipped="${c.skipped}" time="${seconds(ms)}" `
        + `timestamp="${xmlAttr(report.startedAt)}" `
        + `hostname="${xmlAttr(hostOrTarget(report.target.bookUrl))}">`,
    );
    // What the run concluded about the target, and the cells of this operation never tested: a
    // CI page showing only this file still sees that its passes prove nothing.
    const props = [
      ...verdictProps,
      ...errors.map((d) => ['conformance.diagnosis', d.message] as const),
      ...notPlanned.map((d) => ['conformance.notTested', d.message] as const),
      ...(report.untested ?? [])
        .filter((u) => u.operation === op)
        .map((u) => [`conformance.untested.${u.binding}`, u.reason] as const),
    ];
    if (props.length) {
      lines.push('    <properties>');
      for (const p of props) lines.push(property(p));
      lines.push('    </properties>');
    }
    for (const r of rows) lines.push(testcase(r, rerunCommand(report, r)));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
