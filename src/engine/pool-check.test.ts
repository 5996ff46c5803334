/**
 * A used pool is the pool's fault (issue 40, section 4): against a stateful mock told its bookings
 * (`bookings: pools`, as `npm run mock -- --bookings FILE`), pool bookings already cancelled or not
 * on the target are the pool's, never a row against the target: read before they are spent and
 * skipped (a pool with enough live ones still passes), or, for a transfer booking (no read exists),
 * found by its first cancellation: the run is INCOMPLETE (exit 6) naming the pool.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation } from '../contract/catalogue.js';
import { EMPTY_POOLS, type BookingPools } from '../core/booking-pools.js';
import type { RunReport } from '../core/types.js';
import { startMock } from '../mock/index.js';
import { call } from '../../test/support/mock.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { EXIT_POOL_EXHAUSTED } from './bookings.js';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
const transfers = (n: number) => ids('TR', n).map((id, i) => ({ id, email: `guest${Math.floor(i / 2)}@example.com` }));

/** `conformance run` of `operations` against `url` with the pools, its exit code, console and report. */
async function run(
  url: string,
  pools: BookingPools,
  operations: string,
  label: string,
): Promise<{ code: number; out: string; err: string; report: RunReport }> {
  const dir = tempDir(label);
  const file = join(dir, 'bookings.json');
  writeFileSync(file, JSON.stringify(pools));
  const r = await cli(
    [
      'run',
      '--book-url',
      url,
      '--search-url',
      url,
      '--user',
      'mock-user',
      '--allow-mutations',
      '--operations',
      operations,
      '--examples',
      '0',
      '--bookings',
      file,
      '--report-dir',
      join(dir, 'r'),
      // A local mock: the remote defaults' pace (20 requests a second) would only make the proof slow.
      '--max-rps',
      '100000',
      '--concurrency',
      '16',
    ],
    { CONFORMANCE_PASSWORD: 'mock-password' },
  );
  return { ...r, report: readReport(join(dir, 'r')) };
}

const failed = (report: RunReport) =>
  report.results.filter((r) => r.status === 'failed').map((r) => `${r.operation} ${r.binding} ${r.case}: ${r.message}`);

describe("a used pool is the pool's fault (issue 40)", () => {
  test('the same pools twice against one stateful mock: the first run passes, the second exits 6 naming each '
    + 'pool and how many more it needs, no row failed', async () => {
    const pools: BookingPools = { ...EMPTY_POOLS, cancel: ids('BK', 15), transfers: transfers(15) };
    const mock = await startMock({ port: 0, bookings: pools });
    try {
      const first = await run(mock.url, pools, 'CancelBooking,CancelTransferBooking', 'pools-1');
      expect(first.code, first.err + failed(first.report).join('\n')).toBe(0);
      // The rejected calls' read-back was judged: its booking was read live before them.
      const readBack = first.report.results.filter((r) => r.case === 'seq-rejected-unchanged');
      expect(readBack.length).toBeGreaterThan(0);
      expect(
        readBack.every((r) => r.status === 'passed'),
        readBack.map((r) => r.message).join('\n'),
      ).toBe(true);

      const second = await run(mock.url, pools, 'CancelBooking,CancelTransferBooking', 'pools-2');
      expect(failed(second.report)).toEqual([]);
      expect(second.code, second.err).toBe(EXIT_POOL_EXHAUSTED);
      expect(second.report.verdict).toBe('INCOMPLETE');
      expect(second.report.results.some((r) => r.findings.some((f) => f.code === 'rejected_call_changed_state'))).toBe(
        false,
      );
      // The cancel pool was read before the run: every booking dead, none used, 15 more needed.
      expect(second.err).toMatch(
        /pool check: 15 bookings read before the run; not used \(the pool's, not the target's\): `bookings\.cancel` BK-1, BK-2/,
      );
      expect(second.report.verdictReason).toMatch(
        /bookings\.cancel has 0 of 15 \(15 of the 15 given unusable: BK-1, .*\) \(15 more\)/,
      );
      expect(second.report.bookings!.changed.filter((c) => c.pool === 'cancel')).toEqual([]);
      // Transfer bookings have no read: found by their first cancellation, their calls not tested, 15 more needed.
      expect(second.report.verdictReason).toMatch(
        /bookings\.transfers: 15 unusable \(TR-1, .*\): 15 more fresh bookings needed/,
      );
      expect(second.report.diagnosis!.filter((d) => d.code === 'pool_booking_unusable').map((d) => d.message)).toEqual([
        expect.stringMatching(
          /^15 bookings of `bookings\.cancel` are unusable, the pool's fault, not the target's .*BK-1: AmendmentPriceRequest soap11 before the run answered .*already cancelled; not used/,
        ),
        expect.stringMatching(/^15 bookings of `bookings\.transfers` are unusable, .*the calls on them are not tested/),
      ]);
      // Not an untested operation either (exit 5): the pool's, said apart.
      expect(second.report.untested ?? []).toEqual([]);
      expect(second.out).toMatch(/Verdict: INCOMPLETE \(exit 6\)/);
    } finally {
      await mock.close();
    }
  }, 120_000);

  test('a pool with a dead booking among live ones: the dead one (cancelled before, or unknown to the '
    + 'target) is skipped and said, the next takes its place, the run passes', async () => {
    // BK-3 is cancelled before the run; BK-6 is no booking of the target (the mock is not told it).
    const pools: BookingPools = { ...EMPTY_POOLS, cancel: ids('BK', 17) };
    const mock = await startMock({
      port: 0,
      bookings: { ...pools, cancel: pools.cancel.filter((id) => id !== 'BK-6') },
    });
    try {
      await call(mock.url, DEFAULT_NAMESPACES, findOperation('CancelBooking')!, 'soap11', {
        userName: 'mock-user',
        password: 'mock-password',
        bookingID: 'BK-3',
        language: 'en',
      });
      const r = await run(mock.url, pools, 'CancelBooking', 'pools-dead');
      expect(failed(r.report)).toEqual([]);
      expect(r.code, r.err).toBe(0);
      const used = new Set(r.report.bookings!.changed.map((c) => c.id));
      expect(used.has('BK-3') || used.has('BK-6')).toBe(false);
      expect(used.size).toBe(15);
      expect(r.report.bookings!.unusable).toEqual([
        { pool: 'cancel', id: 'BK-3', found: expect.stringMatching(/already cancelled$/) },
        { pool: 'cancel', id: 'BK-6', found: expect.stringMatching(/not found$/) },
      ]);
      expect(r.err).toMatch(
        /pool check: 17 bookings read before the run; not used \(the pool's, not the target's\): `bookings\.cancel` BK-3, BK-6/,
      );
      expect(r.report.diagnosis!.find((d) => d.code === 'pool_booking_unusable')!.message).toMatch(
        /^2 bookings of `bookings\.cancel` are unusable.*: BK-3, BK-6;/,
      );
    } finally {
      await mock.close();
    }
  }, 120_000);

  test('a transfer booking already cancelled (no read exists): its first cancellation says so, exit 6 naming '
    + 'the pool, no row failed', async () => {
    const pools: BookingPools = { ...EMPTY_POOLS, transfers: transfers(15) };
    const mock = await startMock({ port: 0, bookings: pools });
    try {
      // TR-1 is the first case's first binding's booking: the rejected calls go against it, and its cancellation is
      // their read-back.
      await call(mock.url, DEFAULT_NAMESPACES, findOperation('CancelTransferBooking')!, 'soap11', {
        userName: 'mock-user',
        password: 'mock-password',
        transferBookingID: 'TR-1',
        email: 'guest0@example.com',
        language: 'en',
      });
      const r = await run(mock.url, pools, 'CancelTransferBooking', 'pools-transfer');
      expect(failed(r.report)).toEqual([]);
      expect(r.code, r.err).toBe(EXIT_POOL_EXHAUSTED);
      expect(r.report.verdictReason).toMatch(
        /^pool bookings were already cancelled or not on the target .*: bookings\.transfers: 1 unusable \(TR-1\): 1 more fresh booking needed$/,
      );
      const readBack = r.report.results.find(
        (x) => x.operation === 'CancelTransferBooking' && x.case === 'default' && x.check === 'sequence',
      )!;
      expect(readBack.status).toBe('skipped');
      expect(readBack.message).toMatch(
        /not tested: transfer booking TR-1 of `bookings\.transfers` answered .*AlreadyCancelled.* on its first cancellation.*the pool's, not the target's/,
      );
    } finally {
      await mock.close();
    }
  }, 120_000);
});
