/**
 * Issue 35 part 3: the latency gate. Fixed answer times on http_exchange rows (no clock, no sleep):
 * a cell under its limit passes, one over fails with latency_p95_exceeded, one with fewer than
 * MIN_LATENCY_SAMPLES answers is "too few samples" (skipped), transient answers are no samples,
 * an operation's own limit wins over the global one, the tables show the limit beside the figure,
 * and expectations neither accept nor write a latency row.
 */
import { describe, expect, test } from 'vitest';
import { LATENCY_CHECK } from '../core/rows.js';
import type { LatencyLimits, ResultRow, RunReport } from '../core/types.js';
import { ConfigError } from '../core/errors.js';
import { fixtureReport } from '../../test/support/report.js';
import { isTransientAnswer, latencyMatrix, latencyText } from '../report/latency.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderHtml } from '../report/html.js';
import { applyExpectations, parseExpectations, updateExpectations } from './expectations.js';
import { judgeLatency, LATENCY_CASE, latencyGateRows, MIN_LATENCY_SAMPLES } from './latency-gate.js';
import { mergeReports } from '../report/merge.js';
import { summarise } from './run.js';

const base = fixtureReport().results[0]!;

/** An answered exchange of `operation` on `binding` that took `durationMs` (status line `status`). */
function answer(
  operation: string,
  binding: string,
  durationMs: number,
  status = 200,
  extra: Partial<ResultRow> = {},
): ResultRow {
  return {
    ...base,
    operation,
    binding,
    check: 'http_exchange',
    case: `c${durationMs}`,
    status: 'passed',
    durationMs,
    findings: [],
    response: `HTTP/1.1 ${status}\ncontent-type: text/xml\n\n<x/>`,
    ...extra,
  };
}

/** A gateway's page, as the run writes its row: failed, transient_answer (src/transport/transient.ts classified it). */
function gatewayPage(operation: string, binding: string, durationMs: number, status: number): ResultRow {
  return {
    ...answer(operation, binding, durationMs, status),
    status: 'failed',
    findings: [
      {
        check: 'http_exchange',
        code: 'transient_answer',
        path: '/',
        message: `a transient answer (gateway_${status}, HTTP ${status})`,
      },
    ],
  };
}

/** An exchange with no response (a time-out): its row failed, its time the time waited. */
function noResponse(operation: string, binding: string, durationMs: number): ResultRow {
  return {
    ...base,
    operation,
    binding,
    check: 'http_exchange',
    case: `t${durationMs}`,
    status: 'failed',
    durationMs,
    response: '(no response: timeout: ...)',
    findings: [{ check: 'http_exchange', code: 'no_response', path: '/', message: 'no response: timeout' }],
  };
}

const times = (n: number, ms: number, step = 0) => Array.from({ length: n }, (_, i) => ms + i * step);

function report(results: ResultRow[], latencyGate?: LatencyLimits): RunReport {
  return {
    ...fixtureReport(),
    bindings: ['soap11', 'soap12'],
    operations: ['GetMeals', 'GetThemes'],
    results,
    summary: summarise(results),
    ...(latencyGate ? { latencyGate } : {}),
  };
}

const limits = (l: Omit<LatencyLimits, 'minSamples'>): LatencyLimits => ({ minSamples: MIN_LATENCY_SAMPLES, ...l });

describe('the latency gate', () => {
  test(
    'a cell under its limit passes, one over fails with latency_p95_exceeded, each saying figure, limit '
      + 'and source',
    () => {
      const results = [
        ...times(20, 100, 10).map((t) => answer('GetMeals', 'soap11', t)), // p95 (nearest rank, 19th of 20) = 280 ms
        ...times(20, 500, 20).map((t) => answer('GetMeals', 'soap12', t)), // p95 = 860 ms
      ];
      const rows = latencyGateRows(report(results), limits({ maxP95Ms: 800, maxP95Source: '--max-p95' }));
      const meals = rows.filter((r) => r.operation === 'GetMeals');
      expect(meals.map((r) => [r.binding, r.status])).toEqual([
        ['soap11', 'passed'],
        ['soap12', 'failed'],
      ]);
      for (const r of rows) expect([r.check, r.case, r.group]).toEqual([LATENCY_CHECK, LATENCY_CASE, 'reference']);
      expect(meals[0]!.message).toBe(
        'p95 answer time 280 ms is within the limit of 800 ms (--max-p95), over 20 answers',
      );
      expect(meals[1]!.message).toBe(
        'p95 answer time 860 ms is above the limit of 800 ms (--max-p95), over 20 answers (median 680 ms)',
      );
      expect(meals[1]!.findings).toEqual([
        {
          check: 'latency',
          code: 'latency_p95_exceeded',
          path: '/',
          message: meals[1]!.message,
          expected: 'p95 ≤ 800 ms',
          actual: 'p95 860 ms',
        },
      ]);
      // At the limit is within it: only above fails.
      const exact = latencyGateRows(
        report(times(20, 800).map((t) => answer('GetMeals', 'soap11', t))),
        limits({ maxP95Ms: 800 }),
      );
      expect(exact[0]!.status).toBe('passed');
    },
  );

  test(
    `fewer than ${MIN_LATENCY_SAMPLES} answers: "too few samples", skipped (neither passed nor failed), `
      + `whatever the times`,
    () => {
      const results = [
        ...times(4, 5000).map((t, i) => answer('GetMeals', 'soap11', t + i)),
        ...times(5, 10).map((t) => answer('GetMeals', 'soap12', t)),
      ];
      const rows = latencyGateRows(report(results), limits({ maxP95Ms: 800 }));
      expect(rows.filter((r) => r.operation === 'GetMeals').map((r) => [r.binding, r.status])).toEqual([
        ['soap11', 'skipped'],
        ['soap12', 'passed'],
      ]);
      expect(rows[0]!.message).toBe(
        'too few samples: 4 answers (not counting transient ones), at least 5 needed to judge the p95 '
          + 'against the limit of 800 ms (--max-p95)',
      );
      expect(rows[0]!.findings).toEqual([]);
      // A cell of the run with no answer at all is said too: 0 samples.
      expect(rows.find((r) => r.operation === 'GetThemes' && r.binding === 'soap11')!.message).toMatch(
        /^too few samples: 0 answers/,
      );
    },
  );

  test('transient answers are no samples: no response, 502, 503 and 504 (their times would fail the cell)', () => {
    const fast = times(6, 20).map((t) => answer('GetMeals', 'soap11', t));
    const transient = [
      noResponse('GetMeals', 'soap11', 30_000),
      gatewayPage('GetMeals', 'soap11', 9000, 502),
      gatewayPage('GetMeals', 'soap11', 9000, 503),
      gatewayPage('GetMeals', 'soap11', 9000, 504),
    ];
    expect(transient.map(isTransientAnswer)).toEqual([true, true, true, true]);
    // A service's own failure is an answer, its 500 and a SOAP fault sent with 503 alike (the transport's classifier
    // let them through): its time counts.
    expect(isTransientAnswer(answer('GetMeals', 'soap11', 1, 500))).toBe(false);
    expect(isTransientAnswer(answer('GetMeals', 'soap11', 1, 503))).toBe(false);
    expect(isTransientAnswer(answer('GetMeals', 'soap11', 1, 200))).toBe(false);
    const l = limits({ maxP95Ms: 100 });
    const rows = latencyGateRows(report([...fast, ...transient, ...transient, ...transient]), l);
    expect(rows[0]!.status).toBe('passed');
    expect(rows[0]!.message).toMatch(/over 6 answers$/);
    // Without them, four real answers are too few, however many transient ones came back.
    expect(latencyGateRows(report([...fast.slice(0, 4), ...transient, ...transient]), l)[0]!.status).toBe('skipped');
    // The table shows the same figures: the transient answers are not in them.
    expect(latencyMatrix(report([...fast, ...transient], l)).rows[0]!.cells[0]).toBe(
      '20.0 ms / 20.0 ms ≤ limit 100 ms',
    );
  });

  test("an operation's own limit wins over the global one; an operation without a limit gets no row", () => {
    const results = [
      ...times(10, 400).map((t) => answer('GetMeals', 'soap11', t)),
      ...times(10, 400).map((t) => answer('GetThemes', 'soap11', t)),
    ];
    const own = limits({
      maxP95Ms: 800,
      maxP95Source: '--max-p95',
      perOperation: { GetMeals: 300 },
      perOperationSource: 'config file c.json: latency.perOperation',
    });
    const rows = latencyGateRows(report(results), own).filter((r) => r.binding === 'soap11');
    expect(rows.map((r) => [r.operation, r.status])).toEqual([
      ['GetMeals', 'failed'],
      ['GetThemes', 'passed'],
    ]);
    expect(rows[0]!.message).toContain('the limit of 300 ms (config file c.json: latency.perOperation.GetMeals)');
    const only = latencyGateRows(report(results), limits({ perOperation: { GetThemes: 500 } }));
    expect([...new Set(only.map((r) => r.operation))]).toEqual(['GetThemes']);
  });

  test('the console, Markdown and HTML tables show the limit beside the figure', () => {
    const results = [
      ...times(20, 100, 10).map((t) => answer('GetMeals', 'soap11', t)),
      ...times(20, 500, 20).map((t) => answer('GetMeals', 'soap12', t)),
      ...times(2, 10).map((t) => answer('GetThemes', 'soap11', t)),
    ];
    const r = report(results, limits({ maxP95Ms: 800 }));
    expect(latencyText(r).split('\n')).toEqual([
      'Answer times, median / p95:',
      '  operation                                                     soap11                               soap12',
      '  GetMeals                              190 ms / 280 ms ≤ limit 800 ms  680 ms / 860 ms ✗ over limit 800 ms',
      '  GetThemes  10.0 ms / 10.0 ms (limit 800 ms: too few samples, 2 of 5)                                    —',
    ]);
    const md = renderMarkdown(r);
    expect(md).toContain('| GetMeals | 190 ms / 280 ms ≤ limit 800 ms | 680 ms / 860 ms ✗ over limit 800 ms |');
    expect(md).toContain('| GetThemes | 10.0 ms / 10.0 ms (limit 800 ms: too few samples, 2 of 5) | — |');
    const html = renderHtml(r);
    expect(html).toContain(
      '<tr data-operation="GetMeals"><td>GetMeals</td><td>190 ms / 280 ms ≤ limit 800 ms</td><td>680 ms '
        + '/ 860 ms ✗ over limit 800 ms</td></tr>',
    );
    // No limit: the figures alone, as before.
    expect(latencyMatrix(report(results)).rows[0]!.cells).toEqual(['190 ms / 280 ms', '680 ms / 860 ms']);
  });
});

describe('merged shards', () => {
  test("each shard's latency rows are dropped, and the merged report is judged on every shard's answers", () => {
    const l = limits({ maxP95Ms: 800 });
    // Shard 1: three fast answers (too few alone); shard 2: three slow ones (too few alone). Together: six, p95 slow.
    const shard = (ms: number, from: number) => {
      const results = times(3, ms).map((t, i) => answer('GetMeals', 'soap11', t, 200, { case: `case-${from + i}` }));
      const judged = [...results, ...latencyGateRows(report(results), l)];
      return { ...report(judged, l), operations: ['GetMeals'], bindings: ['soap11'] as const };
    };
    const a = shard(100, 0);
    const b = shard(900, 3);
    expect([a, b].map((r) => r.results.find((x) => x.check === LATENCY_CHECK)!.status)).toEqual(['skipped', 'skipped']);
    const merged = judgeLatency(
      mergeReports([
        { source: 'a', report: a },
        { source: 'b', report: b },
      ]),
    );
    const rows = merged.results.filter((x) => x.check === LATENCY_CHECK);
    expect(rows.map((x) => [x.binding, x.status])).toEqual([['soap11', 'failed']]);
    expect(rows[0]!.message).toMatch(/^p95 answer time 900 ms is above the limit of 800 ms .*over 6 answers/);
    expect(merged.summary.failed).toBe(1);
  });
});

describe('latency never goes into expectations', () => {
  const failedCell = () => {
    const r = report([...times(20, 900).map((t) => answer('GetMeals', 'soap11', t))]);
    const gate = latencyGateRows(r, limits({ maxP95Ms: 800 }));
    const results = [...r.results, ...gate];
    return { ...r, results, summary: summarise(results) };
  };

  test('--update-expectations writes no entry for a failed latency row', () => {
    const r = failedCell();
    expect(r.results.some((x) => x.check === LATENCY_CHECK && x.status === 'failed')).toBe(true);
    const up = updateExpectations(r, undefined);
    expect(up.file.expectations).toEqual([]);
    expect(up.added).toBe(0);
  });

  test('no entry accepts a latency row (it stays failed), and a file naming one is refused', () => {
    const r = failedCell();
    const entry = { operation: 'GetMeals', binding: 'soap11', check: LATENCY_CHECK, reason: 'slow on Mondays' };
    const applied = applyExpectations(r, {
      expectations: [entry, { ...entry, check: 'status_code', code: 'latency_p95_exceeded' as never }],
    });
    const row = applied.report.results.find((x) => x.check === LATENCY_CHECK)!;
    expect(row.status).toBe('failed');
    expect(applied.report.summary.known).toBe(0);
    expect(() => parseExpectations({ expectations: [entry] }, 'expectations file e.json')).toThrow(ConfigError);
    expect(() => parseExpectations({ expectations: [entry] }, 'expectations file e.json')).toThrow(
      /latency is never an expectation/,
    );
    expect(() =>
      parseExpectations({ expectations: [{ ...entry, check: 'shape', code: 'latency_p95_exceeded' }] }, 'e.json'),
    ).toThrow(/latency is never an expectation/);
  });
});
