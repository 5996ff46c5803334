/**
 * How two runs differ besides their rows: another target, another seed of the generated cases,
 * another selection of operations or bindings.
 */
import type { RunReport } from '../core/types.js';
import { sameGeneration } from './diff-rows.js';

/**
 * How the two runs differ besides their rows: another target, another seed of the generated cases, another selection.
 */
export function runContext(a: RunReport, b: RunReport): string[] {
  const out: string[] = [];
  const t = (r: RunReport) => ({
    'book URL': r.target.bookUrl,
    'search URL': r.target.searchUrl,
    'transfers URL': r.target.transfersUrl,
    'book namespace': r.target.namespaces.book,
    'search namespace': r.target.namespaces.search,
    user: r.target.user,
    'service paths': r.target.paths === undefined ? undefined : JSON.stringify(r.target.paths),
  });
  const [ta, tb] = [t(a), t(b)];
  // The embedded mock listens on a port of its own each run: its URLs say nothing.
  const bothEmbedded = a.target.embedded && b.target.embedded;
  for (const k of Object.keys(ta) as (keyof typeof ta)[]) {
    if (bothEmbedded && k.endsWith(' URL')) continue;
    if (ta[k] !== undefined && tb[k] !== undefined && ta[k] !== tb[k])
      out.push(`another target: ${k} ${ta[k]} → ${tb[k]}`);
  }
  if (a.target.embedded !== b.target.embedded)
    out.push(
      `another target: ${a.target.embedded ? 'the embedded mock' : 'an external service'} `
        + `→ ${b.target.embedded ? 'the embedded mock' : 'an external service'}`,
    );
  if (!sameGeneration(a, b)) {
    const g = (r: RunReport) =>
      r.generation ? `seed ${r.generation.seed}, ${r.generation.examples} per operation` : 'none';
    out.push(
      `other generated cases: ${g(a)} → ${g(b)} (their rows are not compared one by one; repeat with `
        + `--seed ${a.generation?.seed ?? b.generation?.seed})`,
    );
  }
  const missing = (x: readonly string[], y: readonly string[]) => x.filter((v) => !y.includes(v));
  const ops = missing(a.operations, b.operations);
  if (ops.length) out.push(`operations not selected now: ${ops.join(', ')}`);
  const bindings = missing(a.bindings, b.bindings);
  if (bindings.length) out.push(`bindings not selected now: ${bindings.join(', ')}`);
  return out;
}
