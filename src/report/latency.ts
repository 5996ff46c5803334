/**
 * The target's answer times per operation × binding ("is the SOAP 1.2 binding slower?"): the median
 * and the 95th percentile of the exchanges that got a response (their http_exchange rows carry the
 * time from sending to the last body byte), transient answers left out. Shown in the console
 * summary, the Markdown and the HTML, each beside its limit when the latency gate sets one
 * (src/engine/latency-gate.ts judges the same figures).
 */
import { EXCHANGE_CHECK, PREFLIGHT_CASE } from '../core/rows.js';
import { findOperation } from '../contract/catalogue.js';
import type { LatencyLimits, ResultRow, RunReport } from '../core/types.js';

/**
 * Whether an exchange row is no sample of the service's answer time: not a passed exchange. The
 * transport's classifier of transient answers (src/transport/transient.ts) already made a gateway
 * page, a dropped connection or a time-out a failed `transient_answer` row (an ambiguous write a
 * skipped one), and a service's own fault, whatever its status, a passed one: one reading of
 * "transient" for the run, its retries and this table alike.
 */
export function isTransientAnswer(row: Pick<ResultRow, 'status' | 'durationMs'>): boolean {
  return row.status !== 'passed' || row.durationMs === undefined;
}

/** One operation × binding's answer times. */
export interface Latency {
  readonly operation: string;
  readonly binding: string;
  readonly count: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

/** The q-quantile of sorted values, nearest rank (a value that was measured, not an interpolation). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Answer times per operation × binding, in the report's operation and binding order. */
export function latencies(report: Pick<RunReport, 'results' | 'operations' | 'bindings'>): Latency[] {
  const times = new Map<string, number[]>();
  for (const r of report.results) {
    if (r.check !== EXCHANGE_CHECK || r.case === PREFLIGHT_CASE || isTransientAnswer(r)) continue;
    const key = `${r.operation}\u0000${r.binding}`;
    const t = times.get(key);
    if (t) t.push(r.durationMs!);
    else times.set(key, [r.durationMs!]);
  }
  // The operations of the contract: a probe of one the service does not have (NoSuchOperation) is no operation to time.
  const ops = [...new Set([...report.operations, ...report.results.map((r) => r.operation)])].filter(
    (o) => findOperation(o) !== undefined,
  );
  const out: Latency[] = [];
  for (const operation of ops) {
    for (const binding of report.bindings) {
      const t = times.get(`${operation}\u0000${binding}`);
      if (!t || t.length === 0) continue;
      const sorted = [...t].sort((a, b) => a - b);
      out.push({ operation, binding, count: t.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95) });
    }
  }
  return out;
}

/** A time in milliseconds, short. */
export function ms(v: number): string {
  return v >= 100 ? `${Math.round(v)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`;
}

/** An operation's p95 limit and where it was set (its own in the config, else the global one), or undefined. */
export function p95LimitOf(
  limits: LatencyLimits | undefined,
  operation: string,
): { readonly ms: number; readonly source: string } | undefined {
  const own = limits?.perOperation?.[operation];
  if (own !== undefined)
    return { ms: own, source: `${limits!.perOperationSource ?? 'latency.perOperation'}.${operation}` };
  if (limits?.maxP95Ms !== undefined) return { ms: limits.maxP95Ms, source: limits.maxP95Source ?? '--max-p95' };
  return undefined;
}

/** How a cell of `count` answers and this p95 stands against its limit: within, over, or too few samples to say. */
export function p95Verdict(
  count: number,
  p95Ms: number,
  limitMs: number,
  minSamples: number,
): 'within' | 'over' | 'too-few' {
  if (count < minSamples) return 'too-few';
  return p95Ms > limitMs ? 'over' : 'within';
}

/**
 * What a cell's limit says beside its figures: " (limit 800 ms)", " (over the limit of 800 ms)", or too few samples.
 */
function limitNote(l: Latency, limits: LatencyLimits | undefined): string {
  const limit = p95LimitOf(limits, l.operation);
  if (!limit) return '';
  switch (p95Verdict(l.count, l.p95Ms, limit.ms, limits!.minSamples)) {
    case 'over':
      return ` ✗ over limit ${ms(limit.ms)}`;
    case 'too-few':
      return ` (limit ${ms(limit.ms)}: too few samples, ${l.count} of ${limits!.minSamples})`;
    default:
      return ` ≤ limit ${ms(limit.ms)}`;
  }
}

/**
 * The table as rows of operation, then per binding "median / p95" (or "—"), each followed by its
 * p95 limit where the gate sets one: the same shape for every format.
 */
export function latencyMatrix(report: RunReport): {
  bindings: readonly string[];
  rows: { operation: string; cells: string[] }[];
} {
  const all = latencies(report);
  const ops = [...new Set(all.map((l) => l.operation))];
  return {
    bindings: report.bindings,
    rows: ops.map((operation) => ({
      operation,
      cells: report.bindings.map((b) => {
        const l = all.find((x) => x.operation === operation && x.binding === b);
        return l ? `${ms(l.medianMs)} / ${ms(l.p95Ms)}${limitNote(l, report.latencyGate)}` : '—';
      }),
    })),
  };
}

/** The console's table: a header line, then one line per operation, aligned. */
export function latencyText(report: RunReport): string {
  const m = latencyMatrix(report);
  if (m.rows.length === 0) return '';
  const w0 = Math.max(9, ...m.rows.map((r) => r.operation.length));
  const widths = m.bindings.map((b, i) => Math.max(b.length, ...m.rows.map((r) => r.cells[i]!.length)));
  const line = (first: string, cells: readonly string[]) =>
    `  ${first.padEnd(w0)}  ${cells.map((c, i) => c.padStart(widths[i]!)).join('  ')}`.trimEnd();
  return [
    'Answer times, median / p95:',
    line('operation', m.bindings),
    ...m.rows.map((r) => line(r.operation, r.cells)),
  ].join('\n');
}
