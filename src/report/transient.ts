/**
 * What every report says of transient answers and FLAKY cases (src/engine/transient.ts,
 * src/engine/flaky.ts): the run's totals, per operation × binding the transient answers and
 * retries, and each failure that did not reproduce with its attempts. Plain text; each writer escapes it.
 */
import type { ResultRow, RunReport, TransientCell, TransientSummary } from '../core/types.js';
import { BINDINGS } from '../contract/catalogue.js';

/** The rows of failures that did not reproduce when sent again. */
export function flakyRows(report: Pick<RunReport, 'results'>): ResultRow[] {
  return report.results.filter((r) => r.flaky !== undefined);
}

/** A flaky row's attempts in words: "attempt 1 failed, attempt 2 passed". */
export function attemptsText(r: ResultRow): string {
  return (r.flaky?.attempts ?? []).map((a) => `attempt ${a.attempt} ${a.status}`).join(', ');
}

/** The transient answers of one operation × binding (undefined: none). */
export function transientCell(
  report: Pick<RunReport, 'transient'>,
  operation: string,
  binding: string,
): TransientCell | undefined {
  return report.transient?.cells.find((c) => c.operation === operation && c.binding === binding);
}

/** A cell's transient answers in words: "3 transient answers, 2 retries, 1 write ambiguous". */
export function cellText(c: TransientCell): string {
  return (
    `${c.answers} transient answer${c.answers === 1 ? '' : 's'} of ${c.exchanges} `
    + `exchanges, ${c.retries} retr${c.retries === 1 ? 'y' : 'ies'}`
    + `${c.ambiguous ? `, ${c.ambiguous} write${c.ambiguous === 1 ? '' : 's'} ambiguous` : ''}`
  );
}

/**
 * The console's lines: totals, the cells (at most `max`), the flaky rows. None when nothing transient or flaky
 * happened.
 */
export function transientLines(report: Pick<RunReport, 'transient' | 'results'>, max = 12): string[] {
  const lines: string[] = [];
  const t = report.transient;
  if (t) {
    lines.push(`Transient: ${transientLine(t)}${t.unhealthy ? ': the target is UNHEALTHY (exit 4)' : ''}`);
    for (const c of t.cells.slice(0, max)) lines.push(`  ${c.operation} [${c.binding}]: ${cellText(c)}`);
    if (t.cells.length > max)
      lines.push(`  … and ${t.cells.length - max} more operation × binding cells: see conformance.json (transient)`);
  }
  const flaky = flakyRows(report);
  if (flaky.length) {
    lines.push(
      `Flaky: ${flaky.length} failure${flaky.length === 1 ? '' : 's'} did not reproduce when the case `
        + `was sent again (warnings: they do not fail the run):`,
    );
    for (const r of flaky.slice(0, max))
      lines.push(`  ${r.operation} [${r.binding}] ${r.case} :: ${r.check}: ${attemptsText(r)}`);
    if (flaky.length > max) lines.push(`  … and ${flaky.length - max} more: see the reports`);
  }
  return lines;
}

/**
 * One line of transient answers for a summary: "12 transient answers (1.5% of 790 exchanges), 11 retried, 1 write
 * ambiguous".
 */
export function transientLine(t: TransientSummary): string {
  const share = t.exchanges ? ((100 * t.answers) / t.exchanges).toFixed(1) : '0';
  return (
    `${t.answers} transient answer${t.answers === 1 ? '' : 's'} (${share}% of ${t.exchanges} exchanges; `
    + `unhealthy above ${t.maxPercent}%), `
    + `${t.retries} `
    + `retr${t.retries === 1 ? 'y' : 'ies'}${t.ambiguous ? `, ${t.ambiguous} write${t.ambiguous === 1 ? '' : 's'} ambiguous (not re-sent)` : ''}`
  );
}

/**
 * The transient answers of shards (`conformance merge`): totals and cells summed. A shard without
 * any transient answer writes no summary (nor how many exchanges it made), so the share over the
 * whole run cannot be computed: the merged run is unhealthy when a shard was (each judged its own
 * traffic), and says the outage as that shard did. Undefined when no shard had any.
 */
export function mergeTransient(summaries: readonly (TransientSummary | undefined)[]): TransientSummary | undefined {
  const given = summaries.filter((s): s is TransientSummary => s !== undefined);
  if (given.length === 0) return undefined;
  const cells = new Map<string, TransientCell>();
  for (const c of given.flatMap((s) => s.cells)) {
    const key = `${c.operation}\u0000${c.binding}`;
    const was = cells.get(key);
    cells.set(
      key,
      was
        ? {
            ...was,
            exchanges: was.exchanges + c.exchanges,
            answers: was.answers + c.answers,
            retries: was.retries + c.retries,
            ambiguous: was.ambiguous + c.ambiguous,
          }
        : c,
    );
  }
  const sum = (f: (s: TransientSummary) => number) => given.reduce((n, s) => n + f(s), 0);
  const order = (b: string) => (BINDINGS as readonly string[]).indexOf(b);
  return {
    exchanges: sum((s) => s.exchanges),
    answers: sum((s) => s.answers),
    retries: sum((s) => s.retries),
    ambiguous: sum((s) => s.ambiguous),
    maxPercent: given[0]!.maxPercent,
    unhealthy: given.some((s) => s.unhealthy),
    cells: [...cells.values()].sort(
      (a, b) => a.operation.localeCompare(b.operation) || order(a.binding) - order(b.binding),
    ),
  };
}
