/**
 * Issue 35 part 3 from the outside: --max-p95 and the config's `latency` resolved with their
 * sources, bad values refused naming their source (exit 2), and a run through the command line
 * whose cells have too few answers: "too few samples", skipped, the run not failed by it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../../src/core/errors.js';
import { MIN_LATENCY_SAMPLES } from '../../src/engine/latency-gate.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { resolveRunSettings, resolveRunSettingsObject } from '../../src/cli/config.js';
import { validateReport } from '../../src/schema/json.js';

const dir = tempDir('latency-settings');
function file(name: string, json: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(json));
  return p;
}

describe('--max-p95 and the config key latency', () => {
  test('none: no gate', () => {
    expect(resolveRunSettings([], {}).latency).toBeUndefined();
    expect(resolveRunSettings(['--config', file('empty.json', { latency: {} })], {}).latency).toBeUndefined();
  });

  test('--max-p95 MS, or latency.maxP95 (the flag wins), and latency.perOperation, each with its source', () => {
    expect(resolveRunSettings(['--max-p95', '800'], {}).latency).toEqual({
      maxP95Ms: 800,
      maxP95Source: '--max-p95',
      minSamples: MIN_LATENCY_SAMPLES,
    });
    const cfg = file('l.json', { latency: { maxP95: 900, perOperation: { GetMeals: 300 } } });
    expect(resolveRunSettings(['--config', cfg], {}).latency).toEqual({
      maxP95Ms: 900,
      maxP95Source: `config file ${cfg}: latency.maxP95`,
      perOperation: { GetMeals: 300 },
      perOperationSource: `config file ${cfg}: latency.perOperation`,
      minSamples: 5,
    });
    expect(resolveRunSettings(['--config', cfg, '--max-p95', '700'], {}).latency).toMatchObject({
      maxP95Ms: 700,
      maxP95Source: '--max-p95',
      perOperation: { GetMeals: 300 },
    });
    // The library's settings object takes the same key.
    expect(resolveRunSettingsObject({ latency: { perOperation: { GetThemes: 50 } } }).latency).toMatchObject({
      perOperation: { GetThemes: 50 },
    });
  });

  test('bad values are refused, naming where they came from', () => {
    expect(() => resolveRunSettings(['--max-p95', 'fast'], {})).toThrow(UsageError);
    expect(() => resolveRunSettings(['--max-p95', '0'], {})).toThrow(
      /--max-p95 must be a p95 limit in milliseconds, a whole number from 1 to 3600000 \(got "0"\)/,
    );
    const op = file('op.json', { latency: { perOperation: { GetMeal: 300 } } });
    expect(() => resolveRunSettings(['--config', op], {})).toThrow(ConfigError);
    expect(() => resolveRunSettings(['--config', op], {})).toThrow(
      /latency\.perOperation names an unknown operation "GetMeal" \(did you mean GetMeals\?\)/,
    );
    expect(() => resolveRunSettings(['--config', file('neg.json', { latency: { maxP95: -5 } })], {})).toThrow(
      ConfigError,
    );
    expect(() => resolveRunSettings(['--config', file('key.json', { latency: { maxP99: 5 } })], {})).toThrow(
      /unknown key "latency\.maxP99"/,
    );
  });

  test('a run whose cells have one answer each: "too few samples", skipped, and the run passes', async () => {
    const out = tempDir('latency-run');
    const r = await cli([
      'run',
      '--operations',
      'GetThemes',
      '--bindings',
      'soap12,get',
      '--examples',
      '0',
      '--no-negative',
      '--max-p95',
      '60000',
      '--report-dir',
      out,
    ]);
    expect(r.code, r.err).toBe(0);
    const rows = readReport(out).results.filter((x) => x.check === 'latency');
    expect(rows.map((x) => [x.operation, x.binding, x.status])).toEqual([
      ['GetThemes', 'soap12', 'skipped'],
      ['GetThemes', 'get', 'skipped'],
    ]);
    expect(rows[0]!.message).toBe(
      'too few samples: 1 answer (not counting transient ones), at least 5 needed to judge the p95 '
        + 'against the limit of 60000 ms (--max-p95)',
    );
    expect(readReport(out).latencyGate).toEqual({ maxP95Ms: 60000, maxP95Source: '--max-p95', minSamples: 5 });
    // conformance.json stays a valid report (merge and report read it back through the schema).
    expect(validateReport(readReport(out))).toEqual([]);
    expect(r.out).toMatch(/GetThemes +[\d.]+ ms \/ [\d.]+ ms \(limit 60000 ms: too few samples, 1 of 5\)/);
  });
});
