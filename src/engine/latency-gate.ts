/**
 * The latency gate (issue 35): an operation × binding whose 95th-percentile answer time is above its
 * limit (--max-p95, or the config's `latency`) fails, with its own row (check `latency`, case "*")
 * and defect code `latency_p95_exceeded`. A cell with fewer answers than MIN_LATENCY_SAMPLES is
 * neither passed nor failed: its row is skipped, "too few samples". Transient answers (no response,
 * a gateway's 502/503/504) are no samples. The figures are the latency table's (src/report/latency.ts),
 * so the limit stands beside the very number it judged. Latency is a property of the target on a
 * day, not a deviation to accept: expectations never match these rows, nor write them.
 */
import { findOperation } from '../contract/catalogue.js';
import { LATENCY_CHECK } from '../core/rows.js';
import type { LatencyLimits, ResultRow, RunReport } from '../core/types.js';
import { latencies, ms, p95LimitOf, p95Verdict } from '../report/latency.js';
import { summarise } from './rows.js';

/** Answers a cell needs before its p95 is judged: below five, the 95th percentile is simply the slowest answer. */
export const MIN_LATENCY_SAMPLES = 5;

/** Case id of the gate's rows: a cell's every case. */
export const LATENCY_CASE = '*';

/** Whether the limits set any limit at all. */
export function hasLatencyLimit(limits: LatencyLimits | undefined): limits is LatencyLimits {
  return limits !== undefined && (limits.maxP95Ms !== undefined || Object.keys(limits.perOperation ?? {}).length > 0);
}

/**
 * The gate's rows for a report's results: one per operation × binding of the run that has a limit,
 * passed (within), failed (over) or skipped (too few samples), in operation and binding order.
 */
export function latencyGateRows(
  report: Pick<RunReport, 'results' | 'bindings' | 'operations'>,
  limits: LatencyLimits,
): ResultRow[] {
  const measured = latencies(report);
  const out: ResultRow[] = [];
  for (const operation of report.operations) {
    const limit = p95LimitOf(limits, operation);
    if (!limit) continue;
    const group = findOperation(operation)?.group ?? 'reference';
    for (const binding of report.bindings) {
      const l = measured.find((x) => x.operation === operation && x.binding === binding);
      const count = l?.count ?? 0;
      const base = { operation, group, binding, case: LATENCY_CASE, check: LATENCY_CHECK, path: '/', reproduce: '' };
      const over = `the limit of ${ms(limit.ms)} (${limit.source})`;
      const verdict = p95Verdict(count, l?.p95Ms ?? 0, limit.ms, limits.minSamples);
      if (verdict === 'too-few') {
        out.push({
          ...base,
          status: 'skipped',
          findings: [],
          message:
            `too few samples: ${count} answer${count === 1 ? '' : 's'} (not counting transient ones), at `
            + `least ${limits.minSamples} needed to judge the p95 against ${over}`,
        });
      } else if (verdict === 'over') {
        const message =
          `p95 answer time ${ms(l!.p95Ms)} is above ${over}, over ${count} answers ` + `(median ${ms(l!.medianMs)})`;
        out.push({
          ...base,
          status: 'failed',
          message,
          findings: [
            {
              check: LATENCY_CHECK,
              code: 'latency_p95_exceeded',
              path: '/',
              message,
              expected: `p95 ≤ ${ms(limit.ms)}`,
              actual: `p95 ${ms(l!.p95Ms)}`,
            },
          ],
        });
      } else {
        out.push({
          ...base,
          status: 'passed',
          findings: [],
          message: `p95 answer time ${ms(l!.p95Ms)} is within ${over}, over ${count} answers`,
        });
      }
    }
  }
  return out;
}

/**
 * A report judged by the latency gate its `latencyGate` carries (a merge of shards: each judged its
 * own answers, the merged report all of them): earlier latency rows replaced, the summary recomputed.
 */
export function judgeLatency(report: RunReport): RunReport {
  if (!hasLatencyLimit(report.latencyGate)) return report;
  const ran = report.results.filter((r) => r.check !== LATENCY_CHECK);
  const results = [...ran, ...latencyGateRows({ ...report, results: ran }, report.latencyGate)];
  return { ...report, results, summary: summarise(results) };
}
