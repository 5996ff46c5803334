/**
 * The reports a run writes, held against golden copies: conformance.json, junit.xml, conformance.md
 * and conformance.html of (a) the embedded mock and (b) a mock committing a handful of faults, all
 * timing taken out (start, durations, ports, HTTP Date headers). A change to the code that changes
 * a report shows here, line by line; a change that should not (a refactoring) proves it does not.
 *
 * After an intended change of the reports: `UPDATE_GOLDEN=1 npx vitest run suites/report-golden.test.ts`
 * rewrites test/golden/, and the diff of those files is the review of the change.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, readReport, tempDir } from '../test/support/cli.js';
import type { RunReport } from '../src/core/types.js';
import { startMock, type RunningMock } from '../src/mock/index.js';
import { renderHtml, renderJson, renderJunit, renderMarkdown } from '../src/report/index.js';
import { summarise } from '../src/engine/rows.js';

const GOLDEN = fileURLToPath(new URL('../test/golden/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/**
 * The faults of run (b): one per report feature a failure shows (a finding with paths, a comparison, a status,
 * credentials).
 */
const FAULTS = [
  'missing-required-element',
  'soap12-drops-list-item',
  'status-500-with-result',
  'wrong-credentials-error-with-data',
  'active-cancellation-policy-nil-in-get',
];

/** The temporary directory the runs write into: its name differs from run to run (re-run commands name it). */
let work = '';

/**
 * Rows and ledger entries of the races (src/sequences/race-*.ts): whether their calls overlapped, and which won, is
 * timing.
 */
const RACE = /^seq-race-/;

/**
 * The report without the races' rows and ledger entries, its summary counted again (the races are held by a test
 * below).
 */
function withoutRaces(report: RunReport): RunReport {
  const results = report.results.filter((r) => !RACE.test(r.case));
  const { passedUnreached } = report.summary;
  return {
    ...report,
    results,
    summary: { ...summarise(results), ...(passedUnreached !== undefined ? { passedUnreached } : {}) },
    ...(report.bookings
      ? { bookings: { ...report.bookings, changed: report.bookings.changed.filter((c) => !RACE.test(c.case)) } }
      : {}),
  };
}

/**
 * The report with everything that differs from run to run fixed: time, ports, HTTP Date headers, the report directory,
 * the races.
 */
function timeless(given: RunReport): RunReport {
  const report = withoutRaces(given);
  const text = JSON.stringify({ ...report, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1234 })
    .split(JSON.stringify(work).slice(1, -1))
    .join('/tmp/golden')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    // The nonce of the external-entity probes' paths (src/engine/callback.ts) is new for each run.
    .replace(/\/conformance-probe\/[0-9a-f]{16}\//g, '/conformance-probe/NONCE/')
    .replace(/\\ndate: [^\\]*? GMT\\n/g, '\\ndate: (date)\\n')
    .replace(/"durationMs":[\d.]+/g, '"durationMs":1')
    // How close together a race's calls went (src/sequences/race-*.ts) is timing too.
    .replace(/sent within [\d.]+ ms/g, 'sent within 1 ms');
  return { ...JSON.parse(text), startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1234 } as RunReport;
}

const RENDERERS: Record<string, (r: RunReport) => string> = {
  'conformance.json': renderJson,
  'junit.xml': renderJunit,
  'conformance.md': renderMarkdown,
  'conformance.html': renderHtml,
};

/** The first line where two texts differ, with both lines, for the failure message. */
function firstDifference(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return (
        `line ${i + 1}:\n  golden: ${(a[i] ?? '(none)').slice(0, 400)}\n  now:   `
        + ` ${(b[i] ?? '(none)').slice(0, 400)}`
      );
  }
  return 'no difference';
}

function holdAgainstGolden(name: string, report: RunReport): void {
  const dir = join(GOLDEN, name);
  for (const [file, render] of Object.entries(RENDERERS)) {
    const got = render(timeless(report));
    const path = join(dir, `${file}.gz`);
    if (UPDATE) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, gzipSync(got, { level: 9 }));
      continue;
    }
    const want = gunzipSync(readFileSync(path)).toString('utf8');
    expect(got === want, `${name}/${file} differs from its golden copy at ${firstDifference(want, got)}`).toBe(true);
  }
}

let faulty: RunningMock;
let embedded: RunReport;
let faults: RunReport;

beforeAll(async () => {
  work = tempDir('golden');
  faulty = await startMock({ port: 0, faults: FAULTS });
  const [a, b] = await Promise.all([
    cli(['run', '--quiet', '--report-dir', join(work, 'embedded')]),
    cli(
      [
        'run',
        '--quiet',
        '--report-dir',
        join(work, 'faults'),
        '--book-url',
        faulty.url,
        '--search-url',
        faulty.url,
        '--user',
        'mock-user',
        '--allow-mutations',
        '--bookings',
        'examples/mock-bookings.json',
        '--max-rps',
        '10000',
        '--concurrency',
        '8',
      ],
      { CONFORMANCE_PASSWORD: 'mock-password' },
    ),
  ]);
  expect(a.code, a.err).toBe(0);
  expect(b.code, b.err).toBe(1);
  embedded = readReport(join(work, 'embedded'));
  faults = readReport(join(work, 'faults'));
}, 180_000); // two whole runs and every report: about 5 s measured, 47 s at load 19
afterAll(() => faulty?.close());

describe('reports against their golden copies (timing aside)', () => {
  test('the embedded mock: every report', () => holdAgainstGolden('embedded', embedded));
  test('a mock with five faults: every report', () => holdAgainstGolden('faults', faults));
  test(
    'the races left out above are in both runs, each held or not tested (its calls did not overlap), ' + 'never failed',
    () => {
      for (const r of [embedded, faults]) {
        const races = r.results.filter((x) => RACE.test(x.case));
        expect(new Set(races.map((x) => x.case))).toEqual(
          new Set(['seq-race-cancel', 'seq-race-cancel-transfer', 'seq-race-write']),
        );
        for (const x of races)
          expect(
            x.status === 'passed' || (x.status === 'skipped' && /^not tested: .*did not overlap/.test(x.message)),
            `${x.case} ${x.binding}: ${x.status} ${x.message}`,
          ).toBe(true);
      }
    },
  );
});
