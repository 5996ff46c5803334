/**
 * One verdict per run (issue 31): each exit code's situation run in-process, and the exit code, the
 * console headline, conformance.md, conformance.html, junit.xml's properties and conformance.json
 * all say the same verdict. Before, a run that sent nothing said PASS (exit 0), an interrupted run
 * "✅ Conformance PASS" (exit 130), an unreachable port "FAIL" (exit 4), and a wrong service path
 * exited 1 with its 404s counted as failures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { main } from '../../src/cli/main.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { judgeRun } from '../../src/core/verdict.js';
import { FAULTS } from '../../src/mock/faults.js';
import type { RunReport, ResultRow } from '../../src/core/types.js';

let mock: RunningMock;
let faulty: RunningMock;
let notFound: Server;
let notFoundUrl: string;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  faulty = await startMock({ port: 0, faults: ['charset-missing'] });
  notFound = createServer((req, res) => {
    req.resume();
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not here');
  });
  await new Promise<void>((r) => notFound.listen(0, '127.0.0.1', r));
  notFoundUrl = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock?.close();
  await faulty?.close();
  notFound?.close();
});

const FAST = ['--user', 'mock-user', '--examples', '0', '--max-rps', '100000', '--concurrency', '8'];
const RIGHT = { CONFORMANCE_PASSWORD: 'mock-password' };
const at = (url: string) => ['--book-url', url, '--search-url', url];

/** What every output says of the run in `dir`. */
function outputs(dir: string, out: string) {
  const json = readReport(dir);
  const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
  const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  const prop = (name: string) =>
    [...junit.matchAll(new RegExp(`<property name="${name}" value="([^"]*)"`, 'g'))].map((m) => m[1]);
  return {
    json: [json.verdict, json.exitCode],
    console: /^Conformance (\w+):/m.exec(out)?.[1],
    md: /^## \S+ Conformance (\w+)$/m.exec(md)?.[1],
    mdIcon: /^## (\S+) Conformance/m.exec(md)?.[1],
    html: /id="verdict">(\w+)</.exec(html)?.[1],
    htmlReason: /id="verdict-reason">([^<]*)</.exec(html)?.[1],
    junitVerdict: [...new Set(prop('conformance.verdict'))],
    junitExit: [...new Set(prop('conformance.exitCode'))],
    report: json,
  };
}

/** Each outputs' verdict is `verdict`, and the exit code is `code` everywhere. */
function agree(o: ReturnType<typeof outputs>, code: number, verdict: string): void {
  expect(o.json).toEqual([verdict, code]);
  expect(o.console).toBe(verdict);
  expect(o.md).toBe(verdict);
  expect(o.mdIcon).toBe(verdict === 'PASS' ? '✅' : '❌');
  expect(o.html).toBe(verdict);
  expect(o.htmlReason).toMatch(new RegExp(`^${verdict} \\(exit ${code}\\): `));
  expect(o.junitVerdict).toEqual([verdict]);
  expect(o.junitExit).toEqual([String(code)]);
}

describe('one verdict: the exit code and every headline agree (issue 31)', () => {
  test('0 PASS: the embedded mock', async () => {
    const dir = tempDir('v0');
    const r = await cli(['run', '--operations', 'GetThemes', ...FAST, '--quiet', '--report-dir', dir]);
    expect(r.code, r.out + r.err).toBe(0);
    agree(outputs(dir, r.out), 0, 'PASS');
  });

  test('1 FAIL: a mock with a fault', async () => {
    const dir = tempDir('v1');
    const r = await cli(
      [
        'run',
        ...at(faulty.url),
        '--operations',
        FAULTS.find((f) => f.name === 'charset-missing')!.operation,
        ...FAST,
        '--quiet',
        '--report-dir',
        dir,
      ],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(1);
    agree(outputs(dir, r.out), 1, 'FAIL');
  });

  test('2: bad usage writes no report, and says what was wrong', async () => {
    const r = await cli([
      'run',
      '--case',
      'nosuch',
      '--operations',
      'GetThemes',
      '--quiet',
      '--report-dir',
      tempDir('v2'),
    ]);
    expect(r).toMatchObject({ code: 2, err: expect.stringMatching(/--case nosuch matches no case/) });
  });

  test('4 OUTAGE: a closed port, not a FAIL pinned on a row', async () => {
    const dir = tempDir('v4');
    const r = await cli(
      [
        'run',
        ...at('http://127.0.0.1:9'),
        '--operations',
        'GetThemes,AmendmentPriceRequest',
        ...FAST,
        '--quiet',
        '--report-dir',
        dir,
      ],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(4);
    const o = outputs(dir, r.out);
    agree(o, 4, 'OUTAGE');
    expect(r.out).not.toMatch(/Conformance FAIL/);
  });

  test('5 UNTESTED: a wrong password against the mock; passes on rejected answers are counted apart', async () => {
    const dir = tempDir('v5a');
    const r = await cli(
      ['run', ...at(mock.url), '--operations', 'GetThemes,GetMeals', ...FAST, '--quiet', '--report-dir', dir],
      { CONFORMANCE_PASSWORD: 'wrong-pass' },
    );
    expect(r.code, r.out + r.err).toBe(5);
    const o = outputs(dir, r.out);
    agree(o, 5, 'UNTESTED');
    const s = o.report.summary;
    expect(s.passed).toBeGreaterThan(0);
    expect(s.passedUnreached).toBe(s.passed);
    // The headlines count no pass of the contract.
    expect(r.out).toMatch(
      new RegExp(
        `^Conformance UNTESTED: \\d+ failed, 0 passed \\(and ${s.passed} on answers that never reached `
          + `the data path\\)`,
        'm',
      ),
    );
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(
      new RegExp(` · 0 passed · ${s.passed} passed on answers that never reached the data path · `),
    );
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toMatch(
      /<title>Conformance UNTESTED: \d+ failed, 0 passed<\/title>/,
    );
    // The mock's "Authentication failed" fault names the cause: credentials, not a target failing or another service.
    expect(o.report.diagnosis!.map((d) => d.code)).toEqual(['nothing_tested']);
    expect(o.report.diagnosis![0]!.message).toMatch(
      /every valid call \(\d+\) was refused as wrong credentials \(HTTP 500 .*Authentication failed.*: check the credentials/,
    );
    expect(r.out).not.toMatch(/fails on valid calls|does not answer like this service/);
  });

  test('5 UNTESTED: a server answering 404 to everything', async () => {
    const dir = tempDir('v5b');
    const r = await cli(
      ['run', ...at(notFoundUrl), '--operations', 'GetThemes', ...FAST, '--quiet', '--report-dir', dir],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(5);
    const o = outputs(dir, r.out);
    agree(o, 5, 'UNTESTED');
    expect(o.report.summary.passedUnreached).toBe(o.report.summary.passed);
  });

  test(
    '5 UNTESTED: a wrong service path for one service (--book-path /x/Booking.asmx) exits 5, not 1 with '
      + 'its 404s as failures',
    async () => {
      const dir = tempDir('v5c');
      const r = await cli(
        [
          'run',
          ...at(mock.url),
          '--book-path',
          '/x/Booking.asmx',
          '--operations',
          'GetThemes,GetSpecialRequest',
          ...FAST,
          '--quiet',
          '--report-dir',
          dir,
        ],
        RIGHT,
      );
      expect(r.code, r.out + r.err).toBe(5);
      const o = outputs(dir, r.out);
      agree(o, 5, 'UNTESTED');
      expect(o.report.summary.failed).toBeGreaterThan(0);
      expect(o.report.untested!.map((u) => u.operation)).toEqual([
        'GetSpecialRequest',
        'GetSpecialRequest',
        'GetSpecialRequest',
        'GetSpecialRequest',
      ]);
    },
  );

  test(
    'the seq-cancel row re-run against bookings already cancelled (0 passed, 1 skipped was PASS, exit 0): '
      + 'the pool check skips them (issue 40), the next ones serve (exit 0), none left is exit 6',
    async () => {
      const dir = tempDir('v5d');
      const pool = join(dir, 'bookings.json');
      const ids = Array.from({ length: 40 }, (_, i) => `VD-${i + 1}`);
      writeFileSync(pool, JSON.stringify({ cancel: ids }));
      const args = (file: string, out: string) => [
        'run',
        ...at(mock.url),
        '--allow-mutations',
        '--case',
        'seq-cancel',
        ...FAST,
        '--bookings',
        file,
        '--quiet',
        '--report-dir',
        join(dir, out),
      ];
      expect((await cli(args(pool, 'first'), RIGHT)).code).toBe(0);
      // Again with the same pool: the cancelled ones are read dead and skipped, fresh ones take their place.
      const r = await cli(args(pool, 'again'), RIGHT);
      expect(r.code, r.out + r.err).toBe(0);
      agree(outputs(join(dir, 'again'), r.out), 0, 'PASS');
      // The ten the first run's sequence cancelled, each named with its pool.
      expect(readReport(join(dir, 'again')).bookings!.unusable!.map((u) => `${u.pool} ${u.id}`)).toEqual(
        ids.slice(4, 14).map((id) => `cancel ${id}`),
      );
      // A pool holding only the first 14: too few live ones left, INCOMPLETE, never PASS on nothing.
      const small = join(dir, 'small.json');
      writeFileSync(small, JSON.stringify({ cancel: ids.slice(0, 14) }));
      const s = await cli(args(small, 'small'), RIGHT);
      expect(s.code, s.out + s.err).toBe(6);
      agree(outputs(join(dir, 'small'), s.out), 6, 'INCOMPLETE');
      expect(s.err).toMatch(/bookings\.cancel has \d+ of \d+ \(\d+ of the 14 given unusable: VD-/);
    },
  );

  test('6 INCOMPLETE: a booking pool too small', async () => {
    const dir = tempDir('v6');
    const pool = join(dir, 'bookings.json');
    writeFileSync(pool, JSON.stringify({ cancel: ['BK-1', 'BK-2'] }));
    const r = await cli(
      [
        'run',
        ...at(mock.url),
        '--allow-mutations',
        '--operations',
        'CancelBooking',
        ...FAST,
        '--no-negative',
        '--bookings',
        pool,
        '--quiet',
        '--report-dir',
        join(dir, 'r'),
      ],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(6);
    agree(outputs(join(dir, 'r'), r.out), 6, 'INCOMPLETE');
  });

  test('6 INCOMPLETE: no pool given at all, not "✅ Conformance PASS"', async () => {
    const dir = tempDir('v6n');
    const r = await cli(
      [
        'run',
        ...at(mock.url),
        '--allow-mutations',
        '--operations',
        'CancelBooking,GetThemes',
        ...FAST,
        '--no-negative',
        '--quiet',
        '--report-dir',
        dir,
      ],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(6);
    agree(outputs(dir, r.out), 6, 'INCOMPLETE');
    expect(r.out).not.toMatch(/Conformance PASS/);
  });

  test.for([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s (exit %i) INCOMPLETE, not PASS', async ([sig, code]) => {
    const dir = tempDir(`v${code}`);
    const out: string[] = [];
    let sent = false;
    // The signal comes as the run starts sending (the run's own handler; nothing reaches the process).
    const err = (s: string) => {
      if (!sent && s.startsWith('conformance: testing')) {
        sent = true;
        process.emit(sig, sig);
      }
    };
    const c = await main(['run', '--operations', 'GetThemes,GetMeals', ...FAST, '--report-dir', dir], {
      out: (s) => out.push(s),
      err,
      env: {},
      isTTY: false,
      signals: true,
    });
    expect(sent).toBe(true);
    expect(c).toBe(code);
    const o = outputs(dir, out.join('\n'));
    agree(o, code, 'INCOMPLETE');
    expect(o.report.verdictReason).toMatch(new RegExp(`^interrupted by ${sig}`));
  });
});

describe('judgeRun', () => {
  const row = (status: ResultRow['status'], check = 'shape', message = ''): ResultRow => ({
    operation: 'GetThemes',
    group: 'reference',
    binding: 'soap11',
    case: 'default',
    check,
    status,
    message,
    path: '/',
    reproduce: '',
    findings: [],
  });
  test('no rows, or only skips, is never PASS', () => {
    expect(judgeRun({ results: [] })).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
    expect(judgeRun({ results: [row('skipped')] })).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
    expect(judgeRun({ results: [row('passed')] })).toMatchObject({ verdict: 'PASS', exitCode: 0 });
  });
  test("the deadline's skips with nothing failed: INCOMPLETE (exit 6); with a failure: FAIL", () => {
    const late = row('skipped', 'all', "not checked: the run's deadline passed before this exchange's turn");
    expect(judgeRun({ results: [row('passed'), late] })).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 6 });
    expect(judgeRun({ results: [row('failed'), late] })).toMatchObject({ verdict: 'FAIL', exitCode: 1 });
  });
  test(
    'an unhealthy target (more than --max-transient of its exchanges transient): OUTAGE (exit 4), '
      + 'whatever failed (issue 32)',
    () => {
      const transient = { maxPercent: 20, unhealthy: true } as NonNullable<RunReport['transient']>;
      expect(judgeRun({ results: [row('passed'), row('failed')], transient })).toMatchObject({
        verdict: 'OUTAGE',
        exitCode: 4,
        reason: expect.stringContaining('--max-transient 20%'),
      });
      expect(judgeRun({ results: [row('passed')], transient: { ...transient, unhealthy: false } })).toMatchObject({
        verdict: 'PASS',
        exitCode: 0,
      });
    },
  );
  test(
    "the second account's login refused, or shown on no binding: UNTESTED (exit 5), its diagnosis the "
      + 'reason, ahead of a pool short; a failure besides: FAIL (issue 40)',
    () => {
      const refused = {
        level: 'error' as const,
        code: 'other_login_refused',
        message: "the second account's login was refused: …",
      };
      const short = row(
        'skipped',
        'sequence',
        'CancelBooking seq-cancel: needs 10 bookings, 2 left in `bookings.cancel`',
      );
      expect(judgeRun({ results: [row('passed')], diagnosis: [refused] })).toEqual({
        verdict: 'UNTESTED',
        exitCode: 5,
        reason: refused.message,
      });
      expect(judgeRun({ results: [row('passed'), short], diagnosis: [refused] })).toMatchObject({
        verdict: 'UNTESTED',
        exitCode: 5,
      });
      expect(
        judgeRun({ results: [row('passed')], diagnosis: [{ ...refused, code: 'other_login_unproven' }] }),
      ).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
      expect(judgeRun({ results: [row('passed'), row('failed')], diagnosis: [refused] })).toMatchObject({
        verdict: 'FAIL',
        exitCode: 1,
      });
    },
  );
  test('a sequence short of bookings: INCOMPLETE (exit 6)', () => {
    expect(
      judgeRun({
        results: [
          row('passed'),
          row('skipped', 'sequence', 'CancelBooking seq-cancel: needs 10 bookings, 2 left in `bookings.cancel`'),
        ],
      }),
    ).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 6, reason: expect.stringContaining('`bookings.cancel`') });
  });
  test(
    "an untested cell's own failures: a wrong address's are its symptom (UNTESTED), an error status on "
      + 'valid calls fails (FAIL)',
    () => {
      const cell = (cause: 'address' | 'failing' | 'credentials') => ({
        results: [row('passed'), { ...row('failed', 'status_code'), operation: 'GetMeals' }],
        untested: [{ operation: 'GetMeals', binding: 'soap11', reason: 'every valid call (2) got HTTP 404', cause }],
      });
      expect(judgeRun(cell('address'))).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
      expect(judgeRun(cell('credentials'))).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
      expect(judgeRun(cell('failing'))).toMatchObject({ verdict: 'FAIL', exitCode: 1 });
    },
  );
  test('a signal wins whatever ran', () => {
    expect(judgeRun({ results: [row('failed')] }, 143)).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 143 });
  });
});

describe('a WSDL missing where the operations answer (issue 31)', () => {
  let proxy: Server;
  let url: string;
  beforeAll(async () => {
    // A server shaped like the real one: no WSDL at the service path, every operation answers there.
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (/\?wsdl$/i.test(req.url ?? '')) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers)
            .filter(([k]) => k !== 'host' && k !== 'content-length')
            .map(([k, v]) => [k, String(v)]),
        );
        void fetch(`${mock.url}${req.url}`, {
          method: req.method,
          headers,
          ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
        }).then(async (a) => {
          res.writeHead(a.status, { 'content-type': a.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(await a.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    proxy?.close();
  });

  test('is a note, not "check the host and the service path"; PASS', async () => {
    const dir = tempDir('wsdl');
    const r = await cli(
      ['run', ...at(url), '--operations', 'GetThemes', ...FAST, '--quiet', '--report-dir', dir],
      RIGHT,
    );
    expect(r.code, r.out + r.err).toBe(0);
    const report = readReport(dir);
    expect(report.diagnosis).toEqual([
      {
        level: 'note',
        code: 'wsdl_not_served',
        message:
          `the WSDL at ${url}/1/SOAP/NonStaticXMLAPI.asmx?WSDL is not there (HTTP 404), but the `
          + `NonStaticXMLAPI service answers at that path: it does not serve its WSDL there (nothing to `
          + `change in the settings)`,
      },
    ]);
    expect(r.out).toMatch(/^ {2}note: the WSDL at /m);
    expect(r.out).not.toMatch(/check the host and the service path/);
  });
});
