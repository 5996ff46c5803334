/** `conformance run` and booking pools: the issue 23 false alarm gone, a pool that runs out exits 6. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { EXIT_POOL_EXHAUSTED } from '../../src/engine/bookings.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock.close();
});

describe('conformance run with state-changing operations', () => {
  test(
    '--allow-mutations --operations CancelBooking against the embedded (stateful) mock: exit 0, each '
      + 'cancellation a booking of its own',
    async () => {
      const dir = tempDir('cancel');
      const r = await cli([
        'run',
        '--allow-mutations',
        '--operations',
        'CancelBooking',
        '--quiet',
        '--report-dir',
        dir,
      ]);
      expect(r.code, r.out + r.err).toBe(0);
      const report = readReport(dir);
      expect(report.summary.failed).toBe(0);
      const cases = report.bookings!.changed.filter((c) => c.step === undefined);
      // The first case's four bindings cancel four bookings; the other cases are probes (no booking), and
      // the rejected calls all went against the first binding's booking, which they left usable.
      const accepted = cases.filter((c) => c.outcome === 'accepted');
      expect(accepted.map((c) => c.case)).toEqual(['default', 'default', 'default', 'default']);
      expect(new Set(accepted.map((c) => c.id)).size).toBe(4);
      const rejected = cases.filter((c) => c.outcome !== 'accepted');
      expect(rejected.length).toBeGreaterThan(4);
      expect(new Set(rejected.map((c) => c.id))).toEqual(new Set([accepted.find((c) => c.binding === 'soap11')!.id]));
      // The embedded mock has a second account built in: the foreign-account sequence takes one more (issue 33).
      expect(report.bookings!.needed).toMatchObject({ cancel: 16 });
    },
  );

  test('against a mock URL with a pool too small: the rest is skipped with reasons, exit 6 (nothing failed)', async () => {
    const dir = tempDir('short');
    const pool = join(dir, 'bookings.json');
    writeFileSync(pool, JSON.stringify({ cancel: ['BK-1', 'BK-2', 'BK-3', 'BK-4', 'BK-5'] }));
    const r = await cli(
      [
        'run',
        '--book-url',
        mock.url,
        '--search-url',
        mock.url,
        '--user',
        'mock-user',
        '--allow-mutations',
        '--operations',
        'CancelBooking',
        '--examples',
        '0',
        '--no-negative',
        '--bookings',
        pool,
        '--quiet',
        '--report-dir',
        join(dir, 'r'),
      ],
      { CONFORMANCE_PASSWORD: 'mock-password' },
    );
    expect(r.code, r.out + r.err).toBe(EXIT_POOL_EXHAUSTED);
    expect(r.err).toMatch(
      /the booking pools hold fewer bookings than this run needs, so 4 state-changing calls were not sent: bookings\.cancel has 5 of 15 \(10 more\) \(exit 6\)/,
    );
    const report = readReport(join(dir, 'r'));
    expect(report.summary.failed).toBe(0);
    expect(report.results.filter((x) => x.status === 'skipped').map((x) => x.message)).toContain(
      'CancelBooking seq-cancel: needs 10 bookings, 1 left in `bookings.cancel`',
    );
    // The cancellation race takes the last one: its five cancellations at once.
    expect(report.bookings!.changed.map((c) => c.id)).toEqual([
      'BK-1',
      'BK-2',
      'BK-3',
      'BK-4',
      ...Array(5).fill('BK-5'),
    ]);
  });

  test(
    'hints that name the real cause (issue 31), read before the run (issue 40): a pool an earlier run '
      + 'used up, and a pool booking the target does not know',
    async () => {
      const dir = tempDir('spent');
      const pool = join(dir, 'bookings.json');
      writeFileSync(pool, JSON.stringify({ cancel: Array.from({ length: 15 }, (_, i) => `BK-${i + 1}`) }));
      const known = await startMock({
        port: 0,
        bookings: { cancel: ['BK-1', 'BK-2', 'BK-3', 'BK-5'], amend: [], specialRequest: [], transfers: [] },
      });
      try {
        const args = (url: string, out: string) => [
          'run',
          '--book-url',
          url,
          '--search-url',
          url,
          '--user',
          'mock-user',
          '--allow-mutations',
          '--operations',
          'CancelBooking',
          '--examples',
          '0',
          '--no-negative',
          '--bookings',
          pool,
          '--report-dir',
          join(dir, out),
        ];
        // BK-4 is no booking of this target: read before the run, named with its pool, never used, never blamed on a
        // binding.
        const a = await cli(args(known.url, 'a'), { CONFORMANCE_PASSWORD: 'mock-password' });
        const ra = readReport(join(dir, 'a'));
        expect(
          ra.results.filter((x) => x.status === 'failed'),
          a.out,
        ).toEqual([]);
        expect(ra.bookings!.unusable!.find((u) => u.id === 'BK-4')).toMatchObject({
          pool: 'cancel',
          found: expect.stringMatching(/BookingNotFoundException.*: not found$/),
        });
        expect(ra.bookings!.changed.some((c) => c.id === 'BK-4')).toBe(false);
        expect(a.out).toMatch(/bookings of `bookings\.cancel` are unusable, the pool's fault, not the target's .*BK-4/);
        // The same pool again: every booking is cancelled now, read so before the run: exit 6 naming the pool and how
        // many more it needs.
        await cli(args(mock.url, 'b'), { CONFORMANCE_PASSWORD: 'mock-password' });
        const c = await cli(args(mock.url, 'c'), { CONFORMANCE_PASSWORD: 'mock-password' });
        expect(c.code, c.out + c.err).toBe(EXIT_POOL_EXHAUSTED);
        // (The earlier test of this file used BK-1 to BK-5 of this mock already.)
        expect(c.err).toMatch(
          /bookings\.cancel has \d+ of 15 \(\d+ of the 15 given unusable: BK-1, BK-2, BK-3, BK-4, BK-5, … \(\d+ more\)\) \(\d+ more\)/,
        );
        expect(readReport(join(dir, 'c')).results.filter((x) => x.status === 'failed')).toEqual([]);
      } finally {
        await known.close();
      }
    },
  );
});
