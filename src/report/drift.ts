/**
 * Drift's reports: drift.json (schemas/drift.schema.json), drift.md, the console's list (breaking
 * first) and GitHub annotations (::error per breaking difference, ::warning per compatible one).
 * Written by `conformance drift` and beside a run's reports when its preflight compared WSDLs.
 */
import type { DriftDifference, DriftReport } from '../core/types.js';
import { TOOL } from '../core/version.js';
import { MAX_ANNOTATIONS } from './github.js';
import { mdText } from './md-text.js';

export const DRIFT_JSON = 'drift.json';
export const DRIFT_MD = 'drift.md';

/** The schema of drift.json, in the repository. */
export const DRIFT_SCHEMA_URL = new URL('../../schemas/drift.schema.json', import.meta.url);

const VERDICT_WORDS: Record<DriftReport['verdict'], string> = {
  match: 'the WSDL matches the contract',
  compatible: 'the WSDL differs from the contract, compatibly',
  breaking: 'the WSDL differs from the contract in ways that break its clients',
  not_fetched: 'a WSDL could not be had from the target: not compared',
  unreachable: 'the target did not answer: nothing compared',
};

/** drift.json's text. */
export function renderDriftJson(r: DriftReport): string {
  return `${JSON.stringify({ tool: { name: TOOL.name, version: TOOL.version }, ...r }, null, 2)}\n`;
}

const cell = (s: string | undefined) => (s === undefined ? '' : mdText(s));

/** drift.md's text (and the section a run's Markdown report carries, `level` the heading's). */
export function renderDriftMarkdown(r: DriftReport, level = 1): string {
  const h = '#'.repeat(level);
  const out = [
    `${h} WSDL drift: ${r.verdict.toUpperCase()}`,
    '',
    `${VERDICT_WORDS[r.verdict]}: ${r.breaking} breaking, ${r.compatible} compatible.`,
    '',
  ];
  for (const s of r.services) {
    out.push(`${h}# ${mdText(s.service)}`, '', `- WSDL: ${mdText(s.wsdl)}`, `- compared with: ${mdText(s.against)}`);
    if (s.status !== 'compared') {
      out.push(`- not compared (${s.status}): ${mdText(s.reason ?? '')}`, '');
      continue;
    }
    out.push(`- ${s.breaking} breaking, ${s.compatible} compatible`, '');
    if (s.differences.length === 0) continue;
    out.push('| | rule | where | contract | target | what |', '|---|---|---|---|---|---|');
    for (const d of s.differences) {
      out.push(
        `| ${d.severity === 'breaking' ? '**breaking**' : 'compatible'} | ${d.rule} | ${cell(d.where)} `
          + `| ${cell(d.contract)} | ${cell(d.target)} | ${cell(d.message)} |`,
      );
    }
    out.push('');
  }
  out.push('Rules and their reasons: docs/drift.md.', '');
  return out.join('\n');
}

/** One difference in a line. */
function line(d: DriftDifference): string {
  const values =
    d.contract !== undefined || d.target !== undefined
      ? ` (contract: ${d.contract ?? '-'}; target: ${d.target ?? '-'})`
      : '';
  return `${d.severity === 'breaking' ? 'BREAKING  ' : 'compatible'} ${d.where}: ${d.message}${values} [${d.rule}]`;
}

/** The console's lines: per service, its differences, breaking first, then the verdict. */
export function formatDrift(r: DriftReport, max = 200): string {
  const out: string[] = [];
  for (const s of r.services) {
    if (s.status !== 'compared') {
      out.push(`${s.service}: ${s.wsdl} not compared (${s.status}): ${s.reason ?? ''}`);
      continue;
    }
    out.push(
      `${s.service}: ${s.wsdl} `
        + `against ${s.against}: ${s.differences.length === 0 ? 'no difference' : `${s.breaking} breaking, ${s.compatible} compatible`}`,
    );
    for (const d of s.differences.slice(0, max)) out.push(`  ${line(d)}`);
    if (s.differences.length > max) out.push(`  … ${s.differences.length - max} more: see drift.md`);
  }
  out.push(
    `drift: ${r.verdict.toUpperCase()}: ${VERDICT_WORDS[r.verdict]} (${r.breaking} `
      + `breaking, ${r.compatible} compatible)`,
  );
  return out.join('\n');
}

const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub annotations: ::error per breaking difference, ::warning per compatible one, at most `max`. */
export function driftAnnotations(r: DriftReport, max = MAX_ANNOTATIONS): string[] {
  const all = r.services.flatMap((s) => s.differences.map((d) => ({ s, d })));
  const lines = all
    .slice(0, max)
    .map(
      ({ s, d }) =>
        `::${d.severity === 'breaking' ? 'error' : 'warning'} `
        + `title=${escapeProperty(`WSDL drift ${s.service}: ${d.rule}`)}::${escapeData(`${d.where}: ${d.message}${d.contract !== undefined || d.target !== undefined ? ` (contract: ${d.contract ?? '-'}; target: ${d.target ?? '-'})` : ''}`)}`,
    );
  if (all.length > max)
    lines.push(
      `::notice title=drift::${escapeData(`${all.length - max} more differences are not annotated: see drift.md`)}`,
    );
  for (const s of r.services)
    if (s.status !== 'compared')
      lines.push(
        `::error `
          + `title=${escapeProperty(`WSDL drift ${s.service}`)}::${escapeData(`not compared (${s.status}): ${s.reason ?? ''}`)}`,
      );
  return lines;
}

/** The preflight's line: whether the target's WSDLs match the contract. */
export function driftLine(r: DriftReport, file = 'drift.md'): string {
  const fetched = r.services.filter((s) => s.status === 'compared');
  const missed = r.services.filter((s) => s.status !== 'compared');
  // A transport's words (OpenSSL's) are the diagnosis's to explain: here only that nothing answered.
  const why = missed
    .map((s) => `${s.service}: ${s.status === 'unreachable' ? 'no answer' : (s.reason ?? s.status)}`)
    .join('; ');
  if (fetched.length === 0) return `the target's WSDL could not be compared with the contract (${why || 'no service'})`;
  const head =
    r.breaking + r.compatible === 0
      ? `the target's WSDL matches the contract`
      : `the target's WSDL differs: ${r.breaking} breaking, ${r.compatible} compatible: see ${file}`;
  return missed.length ? `${head} (not compared: ${why})` : head;
}

/** The run's Markdown section: the preflight's line, then the differences, breaking first (at most `max`). */
export function driftSection(r: DriftReport, max = 20): string[] {
  const all = r.services.flatMap((s) => s.differences.map((d) => ({ s, d })));
  const out = [
    '',
    `> [!${r.verdict === 'breaking' ? 'WARNING' : 'NOTE'}]`,
    `> **WSDL drift**: ${mdText(driftLine(r))}`,
  ];
  if (all.length > 0) out.push('>');
  for (const { s, d } of all.slice(0, max))
    out.push(
      `> `
        + `- ${d.severity === 'breaking' ? '**breaking**' : 'compatible'} ${d.place.service ? '' : `${mdText(s.service)}, `}${mdText(d.where)}: ${mdText(d.message)} `
        + `(${d.rule})`,
    );
  if (all.length > max) out.push(`> - … and ${all.length - max} more (drift.md)`);
  return out;
}
