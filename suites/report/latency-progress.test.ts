/**
 * Issue 26 item 3: progress a person can follow (a live line on a terminal with the unit, done/total,
 * failures so far and an ETA; periodic lines with failures in CI), answer times per operation ×
 * binding (median, p95) in the console, Markdown and HTML, and real times in JUnit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ResultRow } from '../../src/core/types.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { fixtureReport } from '../../test/support/report.js';
import { latencies, latencyText } from '../../src/report/latency.js';
import { progressLine } from '../../src/report/progress.js';

describe('progress', () => {
  test('on a terminal: one live line with the unit, done/total, failures so far and an ETA', () => {
    const out: string[] = [];
    let clock = 1000;
    const p = progressLine(
      () => {
        throw new Error('no plain lines on a terminal');
      },
      true,
      (s) => out.push(s),
      () => clock,
    );
    clock += 2000;
    p(1, 4, 'GetMeals default', 0);
    clock += 2000;
    p(2, 4, 'GetMeals gen-1-abc', 3);
    clock += 4000;
    p(4, 4, 'GetThemes default', 3);
    expect(out).toEqual([
      '\r\x1b[K[1/4] 25% GetMeals default · 0 failed · ETA 6s',
      '\r\x1b[K[2/4] 50% GetMeals gen-1-abc · 3 failed · ETA 4s',
      '\r\x1b[K[4/4] 100% GetThemes default · 3 failed\n',
    ]);
  });

  test('in CI: a line per tenth, with the failures so far', () => {
    const lines: string[] = [];
    const p = progressLine(
      (s) => lines.push(s),
      false,
      () => {
        throw new Error('no live line in CI');
      },
    );
    for (let i = 1; i <= 20; i++) p(i, 20, `op ${i}`, Math.floor(i / 4));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('progress: 1/20 cases (5%), 0 failed so far');
    expect(lines.at(-1)).toBe('progress: 20/20 cases (100%), 5 failed so far');
  });
});

describe('answer times per operation × binding', () => {
  test('median and p95 (nearest rank) of the answered exchanges, in operation and binding order', () => {
    const base = fixtureReport().results[0]!;
    const row = (
      operation: string,
      binding: string,
      durationMs: number,
      extra: Partial<ResultRow> = {},
    ): ResultRow => ({
      ...base,
      check: 'http_exchange',
      operation,
      binding,
      durationMs,
      status: 'passed',
      case: 'c',
      ...extra,
    });
    const results = [
      ...[5, 1, 3, 2, 4, 100, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((t) =>
        row('GetMeals', 'soap12', t),
      ),
      row('GetMeals', 'get', 2),
      row('GetMeals', 'get', 4),
      row('GetMeals', 'post', 999, { status: 'failed' }),
      row('GetMeals', 'post', 999, { case: 'preflight' }),
    ];
    const report = {
      ...fixtureReport(),
      bindings: ['soap11', 'soap12', 'get', 'post'] as const,
      operations: ['GetMeals'],
      results,
    };
    expect(latencies(report as never)).toEqual([
      { operation: 'GetMeals', binding: 'soap12', count: 20, medianMs: 10, p95Ms: 19 },
      { operation: 'GetMeals', binding: 'get', count: 2, medianMs: 2, p95Ms: 4 },
    ]);
    expect(latencyText(report as never).split('\n')).toEqual([
      'Answer times, median / p95:',
      '  operation  soap11             soap12                get  post',
      '  GetMeals        —  10.0 ms / 19.0 ms  2.00 ms / 4.00 ms     —',
    ]);
  });

  test('a run shows them in the console, Markdown and HTML, and JUnit carries real times', async () => {
    const dir = tempDir('latency');
    const r = await cli(['run', '--operations', 'GetMeals,GetThemes', '--examples', '0', '--report-dir', dir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      /Answer times, median \/ p95:\n {2}operation +soap11 +soap12 +get +post\n {2}GetMeals +[\d.]+ ms \/ [\d.]+ ms +[\d.]+ ms/,
    );
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    expect(md).toMatch(
      /<summary>Answer times per operation × binding \(median \/ p95\)<\/summary>\n\n\| operation \| SOAP 1\.1 \| SOAP 1\.2 \| HTTP GET \| HTTP POST \|\n\|---\|---:\|---:\|---:\|---:\|\n\| GetMeals \| [\d.]+ ms \/ [\d.]+ ms \|/,
    );
    const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
    expect(html).toMatch(
      /<details class="latency" id="latency">.*<tr data-operation="GetThemes"><td>GetThemes<\/td><td>[\d.]+ ms \/ [\d.]+ ms<\/td>/,
    );
    // JUnit: the exchange's testcase takes the target's answer time, a check's its own time; none says 0.
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const report = readReport(dir);
    const times = [...junit.matchAll(/<testcase name="([^"]+)"[^>]* time="([\d.]+)"/g)].map(
      (m) => [m[1]!, Number(m[2])] as const,
    );
    expect(times.length).toBe(report.summary.total);
    const exchange = report.results.find(
      (x) =>
        x.check === 'http_exchange' && x.operation === 'GetMeals' && x.binding === 'soap12' && x.case === 'default',
    )!;
    expect(times.find(([n]) => n === 'GetMeals [soap12] default :: http_exchange')![1]).toBeCloseTo(
      exchange.durationMs! / 1000,
      6,
    );
    const zero = times.filter(([, t]) => t === 0);
    expect(
      zero.length,
      zero
        .slice(0, 5)
        .map(([n]) => n)
        .join(', '),
    ).toBeLessThan(times.length / 20);
  });
});
