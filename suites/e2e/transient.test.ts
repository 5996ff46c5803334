/**
 * Issue 32, section 1: a transient 503 is not a broken contract. Whole `conformance run`s
 * (in-process) against the stateful mock on a loopback port in its transient-fault mode
 * (src/mock/transient.ts): gateway pages, dropped connections and short pauses before processing,
 * and writes processed then dropped.
 *
 * - over 6 seeds, every run exits 0 and the transient answers show as counted and retried;
 * - with writes processed then dropped, every run exits 0 and the sequences say what they read back;
 * - combined with three real faults of the mock (a read, a write and a cancellation fault), each is
 *   pinpointed (on its operation and bindings, nowhere else), every time;
 * - a target with too many transient answers is unhealthy: exit 4, not a pass, not a failure.
 * Prints the figures of every run (runs, exits, transient answers, retries).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { cli, mockTarget, readReport, tempDir } from '../../test/support/cli.js';
import { startMock, type RunningMock, type TransientMode } from '../../src/mock/index.js';
import { faultBindings, faultNamed } from '../../src/mock/fault-lookup.js';
import { rowBindings } from '../../src/core/rows.js';
import type { RunReport } from '../../src/core/types.js';

const SEEDS = [1, 2, 3, 4, 5, 6];
/** About the issue's staging service: 3% of requests meet a transient fault; pauses kept short for the test. */
const NOISE: TransientMode = { rate: 0.03, pauseMs: [20, 80] };
const figures: string[] = [];
afterAll(() => {
  console.log(`transient suite figures (${figures.length} runs):\n${figures.join('\n')}`);
});

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly report: RunReport;
  readonly injected: Readonly<Record<string, number>>;
  readonly ms: number;
}

async function runAgainst(mode: TransientMode, extra: string[] = [], faults: string[] = []): Promise<Ran> {
  const mock: RunningMock = await startMock({ transient: mode, faults });
  try {
    const dir = tempDir('transient');
    const t0 = Date.now();
    const r = await cli(['run', ...mockTarget(mock.url), '--report-dir', dir, ...extra]);
    const ms = Date.now() - t0;
    const report = readReport(dir);
    const t = report.transient;
    const injected = mock.transientCounts!();
    figures.push(
      ` `
        + ` ${JSON.stringify({ mode: { ...mode, pauseMs: undefined }, faults, extra: extra.join(' ') || undefined })}: `
        + `exit ${r.code}, `
        + `${t ? `${t.exchanges} exchanges, ${t.answers} transient, ${t.retries} retries, ${t.ambiguous} ambiguous writes` : 'nothing transient'}, `
        + `${report.summary.flaky ?? 0} flaky, ${report.summary.failed} failed; mock `
        + `injected ${JSON.stringify(injected)}; ${ms} ms`,
    );
    return { ...r, report, injected, ms };
  } finally {
    await mock.close();
  }
}

describe('3% transient answers: every run passes, the transient answers counted and retried', () => {
  test.for(SEEDS)('seed %i', async (seed) => {
    const r = await runAgainst({ ...NOISE, seed });
    expect(r.code, r.err).toBe(0);
    const t = r.report.transient!;
    const injected = r.injected.gateway_503! + r.injected.gateway_502! + r.injected.drop!;
    expect(injected).toBeGreaterThan(0);
    // Every gateway page and dropped connection the mock gave is counted (the preflight's and GetLanguages' aside: a
    // few).
    expect(t.answers).toBeGreaterThanOrEqual(injected - 3);
    expect(t.answers).toBeLessThanOrEqual(injected);
    expect(t.retries).toBeGreaterThan(0);
    expect(t.unhealthy).toBe(false);
    expect(t.cells.reduce((n, c) => n + c.answers, 0)).toBe(t.answers);
    // No row blames the contract for the noise.
    expect(r.report.results.filter((x) => x.status === 'failed')).toEqual([]);
    expect(r.out).toMatch(/^Transient: \d+ transient answers? \(/m);
  });
});

describe('writes processed then dropped: every run passes; the sequences say what they read back', () => {
  const OPS = [
    '--operations',
    'UpdateSpecialRequest,GetSpecialRequest,CancelBooking,AmendmentPriceRequest,CancelTransferBooking,AmendmentRequest',
  ];
  test.for(SEEDS)('seed %i', async (seed) => {
    const r = await runAgainst({ ...NOISE, seed, dropWrites: 0.15 }, OPS);
    expect(r.code, r.err).toBe(0);
    expect(r.injected.dropped_write).toBeGreaterThan(0);
    // The noise never makes the harness give up on the target: everything planned was sent.
    expect(r.report.results.filter((x) => /stopped answering/.test(x.message))).toEqual([]);
    const t = r.report.transient!;
    expect(t.ambiguous).toBeGreaterThanOrEqual(r.injected.dropped_write!);
    // Each ambiguous write is recorded so: its booking and the row, never a failure.
    const ambiguousBookings = r.report.bookings!.changed.filter((b) => /ambiguous/.test(b.outcome));
    expect(ambiguousBookings.length).toBeGreaterThan(0);
    const steps = r.report.results
      .filter((x) => x.check === 'sequence')
      .flatMap((x) => x.steps ?? [])
      .filter((s) => /ambiguous/.test(s.outcome));
    const readBack = steps.filter((s) =>
      /it took effect|it did not take effect|it had not taken effect|state is unknown/.test(s.outcome),
    );
    // A sequence with an ambiguous write says what it read back of it.
    if (steps.some((s) => /^(UpdateSpecialRequest|CancelBooking|CancelTransferBooking)$/.test(s.operation)))
      expect(readBack.length).toBeGreaterThan(0);
  });
});

describe('real faults under the same noise are pinpointed, every time', () => {
  const FAULTS = ['missing-required-element', 'update-acknowledged-not-stored', 'cancel-leak-already-cancelled'];
  test.for(FAULTS.flatMap((f) => [1, 2, 3].map((seed) => [f, seed] as const)))('%s, seed %i', async ([name, seed]) => {
    const fault = faultNamed(name)!;
    // Louder than the issue's 3%: these runs are short (35 to 85 exchanges). Noise can take the answers of one of the
    // cancellation sequence's two rounds; the binding seen working elsewhere in the sequence is then cleared
    // (sequences.ts).
    const r = await runAgainst(
      { ...NOISE, rate: 0.1, seed },
      ['--operations', fault.operation, '--examples', '0'],
      [name],
    );
    expect(r.code, r.err).toBe(1);
    const failed = r.report.results.filter((x) => x.status === 'failed');
    const bindings: readonly string[] = faultBindings(fault);
    expect(
      failed
        .filter((x) => x.operation !== fault.operation || !rowBindings(x).every((b) => bindings.includes(b)))
        .map((x) => `${x.operation} ${x.binding} ${x.case} ${x.check}: ${x.message}`),
    ).toEqual([]);
    for (const b of bindings)
      expect(
        failed.some((x) => rowBindings(x).includes(b)),
        `${name}: nothing on ${b}`,
      ).toBe(true);
    // The noise itself blames nothing.
    expect(
      failed.filter((x) => x.findings.some((f) => f.code === 'transient_answer' || f.code === 'no_response')),
    ).toEqual([]);
  });
});

describe('an unhealthy target: an outage, not a verdict', () => {
  test('40% transient answers: exit 4, the diagnosis says unhealthy, no failure blamed on the contract', async () => {
    const r = await runAgainst({ rate: 0.4, seed: 9, pauseMs: [5, 20] }, [
      '--operations',
      'GetMeals,GetThemes',
      '--examples',
      '0',
    ]);
    expect(r.code, r.err).toBe(4);
    expect(r.report.transient!.unhealthy).toBe(true);
    expect(r.report.diagnosis?.[0]?.code).toBe('unhealthy_target');
    expect(r.err).toMatch(/the target is unhealthy: more than --max-transient 20%/);
  });

  test('the same target with --max-transient 60 is judged: no contract failure, exit 0', async () => {
    const r = await runAgainst({ rate: 0.4, seed: 9, pauseMs: [5, 20] }, [
      '--operations',
      'GetMeals,GetThemes',
      '--examples',
      '0',
      '--max-transient',
      '60',
    ]);
    expect(r.report.transient!.unhealthy).toBe(false);
    expect(r.code, r.out).toBe(0);
  });
});
