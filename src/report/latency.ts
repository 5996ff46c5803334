/**
 * The target's answer times per operation × binding ("is the SOAP 1.2 binding slower?"): the median
 * and the 95th percentile of the exchanges that got a response (their http_exchange rows carry the
 * time from sending to the last body byte). Shown in the console summary, the Markdown and the HTML.
 */
import { EXCHANGE_CHECK, PREFLIGHT_CASE } from '../core/rows.js';
import type { RunReport } from '../core/types.js';
import { findOperation } from '../contract/catalogue.js';

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
export function latencies(report: RunReport): Latency[] {
  const times = new Map<string, number[]>();
  for (const r of report.results) {
    if (r.check !== EXCHANGE_CHECK || r.status !== 'passed' || r.durationMs === undefined || r.case === PREFLIGHT_CASE) continue;
    const key = `${r.operation}\u0000${r.binding}`;
    times.set(key, [...(times.get(key) ?? []), r.durationMs]);
  }
  // The operations of the contract: a probe of one the service does not have (NoSuchOperation) is no operation to time.
  const ops = [...new Set([...report.operations, ...report.results.map((r) => r.operation)])].filter((o) => findOperation(o) !== undefined);
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

/** The table as rows of operation, then per binding "median / p95" (or "—"): the same shape for every format. */
export function latencyMatrix(report: RunReport): { bindings: readonly string[]; rows: { operation: string; cells: string[] }[] } {
  const all = latencies(report);
  const ops = [...new Set(all.map((l) => l.operation))];
  return {
    bindings: report.bindings,
    rows: ops.map((operation) => ({
      operation,
      cells: report.bindings.map((b) => {
        const l = all.find((x) => x.operation === operation && x.binding === b);
        return l ? `${ms(l.medianMs)} / ${ms(l.p95Ms)}` : '—';
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
  const line = (first: string, cells: readonly string[]) => `  ${first.padEnd(w0)}  ${cells.map((c, i) => c.padStart(widths[i]!)).join('  ')}`.trimEnd();
  return ['Answer times, median / p95:', line('operation', m.bindings), ...m.rows.map((r) => line(r.operation, r.cells))].join('\n');
}
