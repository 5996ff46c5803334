/**
 * `conformance run --shard i/n` and `conformance merge`: two shards merged equal one unsharded run
 * (same rows, timing aside), JUnit counts agree after the merge, and a merge that could pass checks
 * that never ran is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/core/types.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { cli, doctoredTarget, junitAgrees, mockTarget, readReport, tempDir } from '../../test/support/cli.js';

let mock: RunningMock;
const work = tempDir('shards');
beforeAll(async () => {
  // Stateful, as the real service is; a test whose runs consume the same bookings starts a fresh one.
  mock = await startMock();
});
afterAll(() => mock.close());

/** A row without its timing: the duration, and the Date header in the response excerpt. */
const untimed = (r: RunReport['results'][number]) =>
  JSON.stringify({ ...r, durationMs: undefined, response: r.response?.replace(/^date: .*$/im, 'date: (time)') })
    // The listener of the external-entity probes (src/engine/callback.ts): its port and the run's nonce are each run's
    // own.
    .replace(/\d+\.\d+\.\d+\.\d+:\d+\/conformance-probe\/[0-9a-f]{16}\//g, 'LISTENER/conformance-probe/NONCE/');

describe('run --shard and merge', () => {
  test('two shards merged equal the unsharded run, and JUnit agrees with the merged summary', async () => {
    const flags = ['run', ...mockTarget(mock.url)];
    // The mock keeps state and a run consumes the bookings it names: the unsharded run first, then
    // the shards (bookings of their own each: the plan hands them out alike in every shard) against
    // a fresh mock at the same address.
    const whole = await cli([...flags, '--report-dir', join(work, 'whole')]);
    const port = Number(new URL(mock.url).port);
    await mock.close();
    mock = await startMock({ port });
    const [s1, s2] = await Promise.all([
      cli([...flags, '--shard', '1/2', '--report-dir', join(work, 's1')]),
      cli([...flags, '--shard', '2/2', '--report-dir', join(work, 's2')]),
    ]);
    expect([whole.code, s1.code, s2.code]).toEqual([0, 0, 0]);
    const a = readReport(join(work, 's1'));
    const b = readReport(join(work, 's2'));
    expect(a.results.length).toBeGreaterThan(100);
    expect(b.results.length).toBeGreaterThan(100);
    expect(JSON.parse(readFileSync(join(work, 's1', 'shard.json'), 'utf8'))).toMatchObject({
      index: 1,
      count: 2,
      units: expect.any(Number),
    });

    const m = await cli(['merge', join(work, 's2'), join(work, 's1'), '--report-dir', join(work, 'merged')]);
    expect(m.code, m.err).toBe(0);
    const merged = readReport(join(work, 'merged'));
    const unsharded = readReport(join(work, 'whole'));
    expect(merged.results.map(untimed).sort()).toEqual(unsharded.results.map(untimed).sort());
    expect(merged.summary).toEqual(unsharded.summary);
    // The shards consumed the bookings the unsharded run did, none twice; each sequence ran whole in one shard.
    const used = (r: RunReport) =>
      r.bookings!.changed.map((c) => `${c.pool} ${c.id} ${c.operation} ${c.binding} ${c.case} ${c.step ?? ''}`).sort();
    expect(used(merged)).toEqual(used(unsharded));
    for (const seq of ['seq-write-read', 'seq-cancel', 'seq-cancel-transfer']) {
      expect(
        [a, b].filter((r) => r.results.some((x) => x.case === seq)),
        seq,
      ).toHaveLength(1);
    }
    expect({ ...merged.target }).toEqual(unsharded.target);
    expect(merged.operations).toEqual(unsharded.operations);
    expect(merged.bindings).toEqual(unsharded.bindings);
    // Each shard's coverage is of its cases (said so); joined, it is the unsharded run's.
    expect(a.coverage!.partial).toMatch(/^shard 1\/2: its cases only/);
    const figures = (r: RunReport) =>
      r.coverage!.cells.map((c) => ({
        cell: `${c.operation} ${c.binding}`,
        percent: c.percent,
        never: c.neverSeen,
        params: c.params,
        requests: c.requests,
      }));
    expect(merged.coverage!.partial).toBeUndefined();
    expect(figures(merged)).toEqual(figures(unsharded));
    expect(merged.coverage!.percent).toBe(unsharded.coverage!.percent);
    const { junit, summary } = junitAgrees(join(work, 'merged'));
    expect([junit.tests, junit.failures, junit.skipped, junit.testcases]).toEqual([
      summary.total,
      summary.failed,
      summary.skipped,
      summary.total,
    ]);
    // A plain run leaves no shard.json behind that a later merge could mistake for a shard.
    expect((await cli([...flags, '--operations', 'GetThemes', '--report-dir', join(work, 's1')])).code).toBe(0);
    expect(() => readFileSync(join(work, 's1', 'shard.json'))).toThrow();
  }, 240_000); // three whole runs (the login variants of issue 42 included): 25 s measured at load 9

  test('shards of the embedded mock (a port each) merge', async () => {
    const parts = await Promise.all(
      [1, 2].map((i) =>
        cli([
          'run',
          '--quiet',
          '--operations',
          'GetThemes,GetMeals',
          '--shard',
          `${i}/2`,
          '--report-dir',
          join(work, `emb${i}`),
        ]),
      ),
    );
    expect(parts.map((p) => p.code)).toEqual([0, 0]);
    expect(readReport(join(work, 'emb1')).target.bookUrl).not.toBe(readReport(join(work, 'emb2')).target.bookUrl);
    const m = await cli(['merge', join(work, 'emb1'), join(work, 'emb2'), '--report-dir', join(work, 'embm')]);
    expect(m.code, m.err).toBe(0);
    expect(readReport(join(work, 'embm')).operations).toEqual(['GetMeals', 'GetThemes']);
  });

  test('a failing shard fails the merge (exit 1); expectations spanning shards are judged by the merge', async () => {
    const target = await doctoredTarget('GetMeals');
    try {
      const flags = ['run', ...mockTarget(target.url), '--operations', 'GetMeals', '--examples', '0'];
      const parts = await Promise.all(
        [1, 2, 3].map((i) => cli([...flags, '--shard', `${i}/3`, '--report-dir', join(work, `f${i}`)])),
      );
      expect(parts.map((p) => p.code).sort()).toEqual([0, 0, 1]);
      const m = await cli([
        'merge',
        join(work, 'f1'),
        join(work, 'f2'),
        join(work, 'f3'),
        '--report-dir',
        join(work, 'fm'),
      ]);
      expect(m.code).toBe(1);
      expect(m.out).toMatch(/Conformance FAIL/);
      const { junit, summary } = junitAgrees(join(work, 'fm'));
      expect(summary.failed).toBeGreaterThan(0);
      expect([junit.tests, junit.failures, junit.skipped]).toEqual([summary.total, summary.failed, summary.skipped]);

      // An expectation without a case spans the shards: only the merge can judge it.
      const exp = join(work, 'spanning.json');
      writeFileSync(
        exp,
        JSON.stringify({
          expectations: [
            { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: 'r' },
            { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' },
            { operation: 'GetMeals', binding: 'get', check: 'binding_equivalence', reason: 'r' },
            { operation: 'GetMeals', binding: 'post', check: 'shape', reason: 'fixed: stale' },
          ],
        }),
      );
      const withExp = await Promise.all(
        [1, 2, 3].map((i) =>
          cli([...flags, '--shard', `${i}/3`, '--expectations', exp, '--report-dir', join(work, `e${i}`)]),
        ),
      );
      expect(withExp.map((p) => p.code)).toEqual([0, 0, 0]);
      const em = await cli([
        'merge',
        join(work, 'e1'),
        join(work, 'e2'),
        join(work, 'e3'),
        '--expectations',
        exp,
        '--report-dir',
        join(work, 'em'),
      ]);
      expect(em.code).toBe(1);
      expect(em.err).toMatch(/\/expectations\/3 \(GetMeals \[post\] \* :: shape\) is stale/);
      const r = readReport(join(work, 'em'));
      expect(r.results.filter((x) => x.status === 'failed').map((x) => x.check)).toEqual(['expectations']);
      expect(r.summary.known).toBeGreaterThan(0);
      const agreed = junitAgrees(join(work, 'em'));
      expect([agreed.junit.tests, agreed.junit.failures]).toEqual([agreed.summary.total, agreed.summary.failed]);
    } finally {
      await target.close();
    }
  });

  test(
    'shards of a target that is down: each says so (exit 4), the merge holds one preflight row and the '
      + 'diagnosis once',
    async () => {
      const down = 'http://127.0.0.1:9';
      const flags = ['run', '--book-url', down, '--search-url', down, '--user', 'u', '--password', 'p', '--quiet'];
      const [s1, s2] = await Promise.all([
        cli([...flags, '--shard', '1/2', '--report-dir', join(work, 'down1')]),
        cli([...flags, '--shard', '2/2', '--report-dir', join(work, 'down2')]),
      ]);
      expect([s1.code, s2.code]).toEqual([4, 4]);
      const m = await cli([
        'merge',
        join(work, 'down1'),
        join(work, 'down2'),
        '--report-dir',
        join(work, 'down-merged'),
      ]);
      // The merge judges as a run does (issue 31): no shard got an answer, so it is an outage, not a failure.
      expect(m.code, m.err).toBe(4);
      const merged = readReport(join(work, 'down-merged'));
      expect(merged.results.filter((r) => r.case === 'preflight').map((r) => r.findings[0]!.code)).toEqual([
        'host_unreachable',
      ]);
      expect(merged.diagnosis).toEqual([
        {
          level: 'error',
          code: 'host_unreachable',
          message: expect.stringMatching(/^127\.0\.0\.1:9 does not answer: connection refused/),
        },
      ]);
    },
  );

  test('bad input exits 2 naming it', async () => {
    const flags = ['run', ...mockTarget(mock.url), '--operations', 'GetThemes,GetMeals'];
    expect((await cli([...flags, '--shard', '1/2', '--report-dir', join(work, 'b1')])).code).toBe(0);
    expect(
      (await cli([...flags, '--operations', 'GetThemes', '--shard', '2/2', '--report-dir', join(work, 'b2')])).code,
    ).toBe(0);
    const cases: Array<[string[], RegExp]> = [
      [['merge', join(work, 'b1')], /shard 2\/2 missing/],
      [['merge', join(work, 'b1'), join(work, 'b1')], /given twice/],
      [['merge', join(work, 'b1'), join(work, 'b2')], /different plans/],
      [['merge'], /at least one report/],
      [['merge', join(work, 'nowhere')], /cannot read report .*nowhere: ENOENT/],
      [['run', '--shard', '3/2'], /--shard: the shard number must be from 1 to 2/],
      [['run', '--shard', 'half'], /--shard must be i\/n/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(msg);
    }
    const notReport = join(work, 'not-a-report.json');
    writeFileSync(notReport, JSON.stringify({ summary: {} }));
    expect(await cli(['merge', notReport])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/not a conformance report .*missing required property tool/),
    });
  });
});
