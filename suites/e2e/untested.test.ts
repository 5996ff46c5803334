/**
 * Never green on what it did not test (issue 22): whole `conformance run`s (in-process, against
 * in-process servers on port 0) whose valid calls never reach the data path — a wrong password, a
 * base URL that doubles the service path, a static file server, a server answering 404, 405 or 501
 * to everything, a misspelled service path — end UNTESTED (exit 5) or failed, with the diagnosis
 * first in every report and not one passed rejection or comparison row where the valid calls were
 * not tested. And no false alarm: the mock, its variation mode and its real-service style with the
 * right credentials pass with no untested cell. Also: the real-service style answers every wrong
 * credential with 200 and a result holding only Error, on every operation and binding.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { call, resultElement, validParams } from '../../test/support/mock.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { stableHash } from '../../src/mock/rng.js';
import { BINDINGS, DEFAULT_NAMESPACES, OPERATIONS } from '../../src/contract/catalogue.js';
import { rejectionFields } from '../../src/contract/model.js';
import type { RunReport } from '../../src/core/types.js';

const RIGHT = { CONFORMANCE_PASSWORD: 'mock-password' };
const WRONG = { CONFORMANCE_PASSWORD: 'wrong-pass' };
const FAST = ['--user', 'mock-user', '--examples', '0', '--max-rps', '100000', '--concurrency', '16', '--quiet'];
const at = (book: string, search = book) => ['--book-url', book, '--search-url', search];

let real: RunningMock;
let work: string;
const servers: Server[] = [];

/** A server answering every request with `answer`. */
async function serve(answer: (method: string, url: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    answer(req.method ?? 'GET', req.url ?? '/', res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTML error page as Python's http.server writes it. */
function errorPage(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/html;charset=utf-8' });
  res.end(
    `<!DOCTYPE HTML><html lang="en"><head><meta charset="utf-8"><title>Error `
      + `response</title></head><body><h1>Error response</h1><p>Error `
      + `code: ${status}</p><p>Message: ${message}.</p></body></html>`,
  );
}

/** `python3 -m http.server` over an empty directory: a listing at /, 404 for any other GET, 501 for POST. */
function pythonHttpServer(method: string, url: string, res: ServerResponse): void {
  if (method === 'POST') return void errorPage(res, 501, `Unsupported method ('POST')`);
  if (url === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(
      '<!DOCTYPE HTML><html><head><title>Directory listing for /</title></head><body><h1>Directory '
        + 'listing for /</h1><hr><ul></ul><hr></body></html>',
    );
  }
  errorPage(res, 404, 'File not found');
}

/** The rows whose pass would mean the target refused what it had to, or that its bindings agree. */
const judging = (report: RunReport, ops?: readonly string[]) =>
  report.results.filter(
    (r) =>
      (r.check === 'credentials_rejected' || r.check === 'bad_request_rejected' || r.check === 'binding_equivalence')
      && (!ops || ops.includes(r.operation)),
  );

beforeAll(async () => {
  work = tempDir('untested');
  real = await startMock({ port: 0, realService: true });
});
afterAll(async () => {
  await real?.close();
  for (const s of servers) s.closeAllConnections?.(), s.close();
});

describe('a wrong password tests nothing, and the run says so', () => {
  test(
    'the real-service-style mock with a wrong password: exit 5, UNTESTED, the diagnosis first in every ' + 'report',
    async () => {
      const dir = join(work, 'wrong-password');
      const ops = ['GetMeals', 'GetLanguages', 'GetSpecialRequest', 'SearchTransfers', 'AmendmentPriceRequest'];
      const config = join(work, 'acme.json');
      writeFileSync(
        config,
        JSON.stringify({
          target: { bookUrl: real.url, searchUrl: real.url, user: 'mock-user', passwordEnv: 'ACME_SERVICE_PASSWORD' },
        }),
      );
      const r = await cli(
        [
          'run',
          '--config',
          config,
          '--operations',
          ops.join(','),
          '--examples',
          '0',
          '--max-rps',
          '100000',
          '--concurrency',
          '16',
          '--report-dir',
          dir,
        ],
        { ACME_SERVICE_PASSWORD: 'wrong-pass' },
      );
      expect(r.code, r.out).toBe(5);
      expect(r.err).toMatch(/no valid call reached the data path: nothing was tested \(exit 5\)/);
      const report = readReport(dir);
      const first = report.diagnosis?.[0];
      expect(first).toEqual({
        level: 'error',
        code: 'nothing_tested',
        message: expect.stringMatching(
          /^nothing was tested: every valid call \(\d+\) was rejected with System\.Security\.Authentication\.AuthenticationException \("Authentication failed[^"]*"\), on every operation and binding called: check the credentials/,
        ),
      });
      // Every operation × binding is listed as not tested, with why.
      expect(report.untested?.map((c) => `${c.operation} ${c.binding}`).sort()).toEqual(
        ops.flatMap((o) => BINDINGS.map((b) => `${o} ${b}`)).sort(),
      );
      for (const c of report.untested!)
        expect(c.reason).toMatch(
          /^every valid call \(\d+\) was rejected with System\.Security\.Authentication\.AuthenticationException/,
        );
      // No rejection or comparison passes: they would only say that a wrong password is refused as the right one is.
      expect(judging(report).length).toBeGreaterThan(100);
      expect(judging(report).filter((x) => x.status === 'passed')).toEqual([]);
      expect(report.summary.failed).toBe(0);
      // AmendmentPriceRequest's rejection is a 200 like the others (it was a 500 "internal mock error").
      expect(
        report.results.filter((x) => x.check === 'http_exchange' && /internal mock error/.test(x.response ?? '')),
      ).toEqual([]);
      expect(
        report.results.filter(
          (x) => x.check === 'http_exchange' && x.case === 'default' && !/^HTTP\/1\.1 200/.test(x.response ?? ''),
        ),
      ).toEqual([]);
      // First in every report.
      expect(r.out.indexOf('Diagnosis:')).toBeLessThan(r.out.indexOf('Conformance UNTESTED'));
      expect(r.out).toMatch(/^Diagnosis:\n {2}✗ nothing was tested: every valid call/);
      const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
      expect(md).toMatch(/^## ❌ Conformance UNTESTED/);
      expect(md.indexOf('nothing was tested')).toBeLessThan(md.indexOf('Operations × bindings'));
      expect(md).toContain('Not tested (20 operation × binding)');
      const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
      expect(html).toMatch(/<div class="verdict untested" id="verdict">UNTESTED<\/div>/);
      expect(html).toMatch(/id="diagnosis"[^]*nothing was tested: every valid call[^]*id="matrix-title"/);
      // Every cell of the matrix that was called is marked: its rows' counts say nothing was broken, not that it was
      // tested.
      const marked = [...html.matchAll(/<tr data-operation="(\w+)">(.*?)<\/tr>/g)].flatMap((m) =>
        [...m[2]!.matchAll(/<td class="cell [^"]*\buntested\b[^"]*" data-column="(\w+)"/g)].map(
          (c) => `${m[1]} ${c[1]}`,
        ),
      );
      expect(marked.sort()).toEqual(ops.flatMap((o) => BINDINGS.map((b) => `${o} ${b}`)).sort());
      expect(html).toMatch(/title="GetMeals · SOAP 1\.1: [^"]*; NOT TESTED: every valid call/);
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(
        /<testsuite [^>]*name="GetMeals"[^>]*>\n {4}<properties>\n {6}<property name="conformance.verdict" value="UNTESTED"\/>\n(?: {6}<property [^\n]*\n)*? {6}<property name="conformance.diagnosis" value="nothing was tested: /,
      );
      expect(junit).toMatch(/<property name="conformance.untested.soap11" value="every valid call/);
    },
  );

  test('without the shape check (which records an in-band Error), a wrong password still tests nothing', async () => {
    const dir = join(work, 'wrong-password-no-shape');
    const r = await cli(
      [
        'run',
        ...at(real.url),
        '--operations',
        'GetMeals,GetSpecialRequest',
        '--skip-checks',
        'shape',
        ...FAST,
        '--report-dir',
        dir,
      ],
      WRONG,
    );
    expect(r.code, r.out).toBe(5);
    const report = readReport(dir);
    expect(report.diagnosis?.[0]?.message).toMatch(
      /^nothing was tested: every valid call \(16\) was rejected with System\.Security\.Authentication\.AuthenticationException/,
    );
    expect(report.untested).toHaveLength(8);
  });

  test('an operation none of whose cases has data on the target is not tested; one case with data is enough', async () => {
    // Booking ids the real-service style answers BookingNotFoundException for (a stable pick per id), and one it
    // answers.
    const picked = (id: string) => stableHash(['in-band GetSpecialRequest', id].join('\u0000')) % 3 === 0;
    const ids = Array.from({ length: 200 }, (_, i) => String(300_000 + i));
    const missing = ids.filter(picked).slice(0, 2);
    const present = ids.find((id) => !picked(id))!;
    // The id-based picks are the stateless real-service style's: with state, whether a booking exists
    // or was cancelled is the state's to say (issue 23), so this test uses the stateless style.
    const noState = await startMock({ port: 0, realService: true, stateless: true });
    onTestFinished(() => noState.close());
    const run = async (label: string, bookingIds: string[]) => {
      const config = join(work, `${label}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          target: { bookUrl: noState.url, searchUrl: noState.url, user: 'mock-user' },
          casesMode: 'replace',
          cases: { GetSpecialRequest: bookingIds.map((id, i) => ({ id: `case-${i}`, params: { bookingId: id } })) },
        }),
      );
      const dir = join(work, label);
      const r = await cli(
        ['run', '--config', config, '--operations', 'GetSpecialRequest,GetThemes', ...FAST, '--report-dir', dir],
        RIGHT,
      );
      return { r, report: readReport(dir) };
    };
    const none = await run('no-data', missing);
    expect(none.r.code, none.r.out).toBe(5);
    expect(none.report.untested?.map((c) => c.operation)).toEqual([
      'GetSpecialRequest',
      'GetSpecialRequest',
      'GetSpecialRequest',
      'GetSpecialRequest',
    ]);
    expect(none.report.diagnosis).toEqual([
      {
        level: 'error',
        code: 'untested_operation',
        message: expect.stringMatching(
          /^GetSpecialRequest was not tested on any binding: every valid call \(8\) was rejected with Fitruums\.Framework\.Booking\.Exceptions\.BookingNotFoundException .*give GetSpecialRequest a case with data that exists on this target/,
        ),
      },
    ]);
    expect(judging(none.report, ['GetSpecialRequest']).filter((x) => x.status === 'passed')).toEqual([]);
    // GetThemes was tested: its rejections still count.
    expect(judging(none.report, ['GetThemes']).filter((x) => x.status === 'passed').length).toBeGreaterThan(10);
    expect(none.r.out).toMatch(/^Conformance UNTESTED: 0 failed/m);

    expect(
      readFileSync(join(work, 'no-data', 'conformance.html'), 'utf8').match(/<td class="cell [^"]*\buntested\b/g) ?? [],
    ).toHaveLength(4);
    const some = await run('some-data', [missing[0]!, present]);
    expect(some.r.code, some.r.out).toBe(0);
    expect(some.report.untested).toBeUndefined();
    expect(readFileSync(join(work, 'some-data', 'conformance.html'), 'utf8')).not.toMatch(
      /<td class="cell [^"]*\buntested\b/,
    );
    expect(some.report.diagnosis).toBeUndefined();
    // The case without data stays a note.
    expect(some.r.out).toMatch(/Note: 1 valid case answered with an in-band Error/);
  });
});

describe('shards', () => {
  test('the shards of a run with a wrong password each exit 5, and so does their merge, saying it once', async () => {
    const dirs = [join(work, 'shard-1'), join(work, 'shard-2')];
    for (const [i, dir] of dirs.entries()) {
      const r = await cli(
        [
          'run',
          ...at(real.url),
          '--operations',
          'GetMeals,GetThemes,GetLanguages',
          ...FAST,
          '--shard',
          `${i + 1}/2`,
          '--report-dir',
          dir,
        ],
        WRONG,
      );
      expect(r.code, r.out).toBe(5);
    }
    const out = join(work, 'merged');
    const m = await cli(['merge', ...dirs, '--report-dir', out, '--quiet']);
    expect(m.code, m.out).toBe(5);
    const report = readReport(out);
    expect(report.diagnosis?.filter((d) => d.code === 'nothing_tested')).toHaveLength(1);
    expect(report.untested).toHaveLength(12);
    expect(m.out).toMatch(/^Conformance UNTESTED/m);
  });
});

describe('a wrong path, a wrong host or another server: the diagnosis, and no passed rejection or comparison', () => {
  test('a base URL that already ends in the service path: the hint, the ?WSDL 404, exit 5', async () => {
    const dir = join(work, 'doubled');
    const r = await cli(
      [
        'run',
        ...at(`${real.url}/1/SOAP/Booking.asmx`),
        '--operations',
        'GetSpecialRequest,AmendmentPriceRequest',
        ...FAST,
        '--report-dir',
        dir,
      ],
      RIGHT,
    );
    expect(r.code, r.out).toBe(5);
    const report = readReport(dir);
    expect(report.diagnosis?.[0]).toMatchObject({
      code: 'nothing_tested',
      message: expect.stringMatching(
        /^nothing was tested: every valid call \(\d+\) got HTTP 404 .*check the base URL and the service path/,
      ),
    });
    expect(report.diagnosis).toEqual(
      expect.arrayContaining([
        {
          level: 'hint',
          code: 'url_holds_service_path',
          message:
            `the URL already ends in the service path: pass the host only (--book-url `
            + `is ${real.url}/1/SOAP/Booking.asmx, so GetSpecialRequest is sent `
            + `to ${real.url}/1/SOAP/Booking.asmx/1/SOAP/Booking.asmx): pass --book-url ${real.url}`,
        },
        {
          level: 'hint',
          code: 'wsdl_not_found',
          message: expect.stringMatching(
            /^the WSDL at .*\/1\/SOAP\/Booking\.asmx\/1\/SOAP\/Booking\.asmx\?WSDL is not there \(HTTP 404\)/,
          ),
        },
      ]),
    );
    expect(judging(report).length).toBeGreaterThan(30);
    expect(judging(report).filter((x) => x.status === 'passed')).toEqual([]);
    expect(r.out).toContain('hint: the URL already ends in the service path: pass the host only');
  });

  test('the hint names the environment variable the URL came from', async () => {
    const dir = join(work, 'doubled-env');
    const r = await cli(
      ['run', '--search-url', real.url, '--operations', 'GetSpecialRequest', ...FAST, '--report-dir', dir],
      { ...RIGHT, CONFORMANCE_BOOK_URL: `${real.url}/1/SOAP/Booking.asmx/` },
    );
    expect(r.code, r.out).toBe(5);
    expect(readReport(dir).diagnosis?.find((d) => d.code === 'url_holds_service_path')?.message).toMatch(
      new RegExp(
        `^the URL already ends in the service path: pass the host only \\(environment variable `
          + `CONFORMANCE_BOOK_URL is .*: set CONFORMANCE_BOOK_URL to ${real.url.replace(/[.]/g, '\\.')}$`,
      ),
    );
  });

  const targets: [string, (m: string, u: string, res: ServerResponse) => void][] = [
    ['python3 -m http.server', pythonHttpServer],
    ['404 to everything', (_m, _u, res) => errorPage(res, 404, 'Not Found')],
    ['405 to everything', (_m, _u, res) => errorPage(res, 405, 'Method Not Allowed')],
    ['501 to everything', (_m, _u, res) => errorPage(res, 501, 'Not Implemented')],
    [
      'an HTML error page with 200',
      (_m, _u, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><h1>Oops</h1><p>Something went wrong.</p></body></html>');
      },
    ],
  ];
  test.each(targets)('%s: exit 5, nothing tested, zero passed rejection or equivalence rows', async (label, answer) => {
    const url = await serve(answer);
    const dir = join(work, `server-${label.replace(/\W+/g, '-')}`);
    const r = await cli(
      ['run', ...at(url), '--operations', 'GetMeals,GetThemes,GetSpecialRequest', ...FAST, '--report-dir', dir],
      RIGHT,
    );
    expect(r.code, r.out).toBe(5);
    const report = readReport(dir);
    expect(report.diagnosis?.[0]?.code).toBe('nothing_tested');
    expect(report.diagnosis?.filter((d) => d.code === 'not_this_service')).toHaveLength(2);
    expect(report.untested).toHaveLength(12);
    expect(judging(report).length).toBeGreaterThan(20);
    expect(judging(report).filter((x) => x.status === 'passed')).toEqual([]);
    expect(r.out).toMatch(/^Diagnosis:\n {2}✗ nothing was tested/);
    if (label.startsWith('python')) {
      expect(report.diagnosis?.filter((d) => d.code === 'wsdl_not_found')).toHaveLength(2);
      expect(report.diagnosis![0]!.message).toMatch(/HTTP 501 \(text\/html;charset=utf-8\) with body "Error response/);
    }
  });

  test(
    'a misspelled --search-path: the ?WSDL 404 names the flag, the reference data is not tested, the '
      + 'booking group is',
    async () => {
      const dir = join(work, 'search-path');
      const r = await cli(
        [
          'run',
          ...at(real.url),
          '--search-path',
          '/1/SOAP/NonStaticXMLAPl.asmx',
          '--operations',
          'GetSpecialRequest,GetMeals',
          ...FAST,
          '--report-dir',
          dir,
        ],
        RIGHT,
      );
      // Its 404s are the symptom of the wrong path, not findings of the service (issue 31): UNTESTED, as the README
      // says.
      expect(r.code, r.out).toBe(5);
      const report = readReport(dir);
      expect(report.diagnosis).toEqual([
        {
          level: 'hint',
          code: 'wsdl_not_found',
          message:
            `the WSDL at ${real.url}/1/SOAP/NonStaticXMLAPl.asmx?WSDL is not there (HTTP 404): check the `
            + `host and the service path (--search-path: /1/SOAP/NonStaticXMLAPl.asmx)`,
        },
        {
          level: 'error',
          code: 'not_this_service',
          message: expect.stringMatching(
            /NonStaticXMLAPl\.asmx does not answer like this service: no valid call of the NonStaticXMLAPI service returned its result element \(8 tried; for example GetMeals \[soap11\] default got HTTP 404/,
          ),
        },
      ]);
      expect(report.untested?.map((c) => c.operation)).toEqual(['GetMeals', 'GetMeals', 'GetMeals', 'GetMeals']);
      expect(judging(report, ['GetMeals']).filter((x) => x.status === 'passed')).toEqual([]);
      expect(judging(report, ['GetSpecialRequest']).filter((x) => x.status === 'passed').length).toBeGreaterThan(20);
    },
  );

  test('an https:// URL to a plain-HTTP port: "use http://", once, exit 4', async () => {
    const url = real.url.replace(/^http:/, 'https:');
    const dir = join(work, 'https-plain');
    const r = await cli(
      ['run', ...at(url), '--operations', 'AmendmentPriceRequest,GetMeals', ...FAST, '--report-dir', dir],
      RIGHT,
    );
    expect(r.code, r.out).toBe(4);
    const report = readReport(dir);
    const host = new URL(url).host;
    // The whole target refuses TLS: the run stops at the first answer (issue 41), the fix first, and no row fails
    // against an operation.
    expect(report.diagnosis).toEqual([
      {
        level: 'error',
        code: 'tls_refused',
        message:
          `${host} does not answer TLS: the port answers plain HTTP: use http:// (${real.url}) in `
          + `--book-url, --search-url, --transfers-url`,
      },
    ]);
    expect(report.results.filter((x) => x.status === 'failed')).toEqual([]);
    expect(r.out).not.toMatch(/SSL|ssl3|wrong version number/);
  });
});

describe('a namespace hint names where the namespace came from', () => {
  const wrong = 'http://wrong.example/search/1/';
  test.each([
    ['the flag', ['--search-ns', wrong], {}, `pass --search-ns ${DEFAULT_NAMESPACES.search}`],
    [
      'the environment variable',
      [],
      { CONFORMANCE_SEARCH_NS: wrong },
      `set CONFORMANCE_SEARCH_NS to ${DEFAULT_NAMESPACES.search}`,
    ],
    [
      'the config key',
      ['--config', 'CONFIG'],
      {},
      `set target.searchNs to ${DEFAULT_NAMESPACES.search} in config file CONFIG`,
    ],
  ] as const)('%s', async (_, flags, env, advice) => {
    const config = join(work, 'ns.json');
    writeFileSync(config, JSON.stringify({ target: { searchNs: wrong } }));
    const dir = join(work, `ns-${Object.keys(env).length}-${flags.length}`);
    const args = flags.map((f) => (f === 'CONFIG' ? config : f));
    const r = await cli(['run', ...at(real.url), ...args, '--operations', 'GetMeals', ...FAST, '--report-dir', dir], {
      ...RIGHT,
      ...env,
    });
    expect(r.code).toBe(1);
    const hints = readReport(dir)
      .diagnosis!.filter((d) => d.level === 'hint')
      .map((d) => d.message);
    expect(hints).toHaveLength(2);
    for (const h of hints) expect(h.endsWith(`: ${advice.replace('CONFIG', config)}`), h).toBe(true);
  });
});

describe('no false alarm', () => {
  test.each([
    ['the mock', {}],
    ['the mock in variation mode', { vary: true }],
    ['the mock in real-service style', { realService: true }],
  ] as const)('%s with the right credentials: exit 0, no untested cell, no diagnosis', async (label, options) => {
    const mock = await startMock({ port: 0, ...options });
    try {
      const dir = join(work, `ok-${label.replace(/\W+/g, '-')}`);
      // With the mock's second account: authorization across accounts is tested too, and nothing is left to say.
      const r = await cli(
        [
          'run',
          ...at(mock.url),
          ...FAST,
          '--allow-mutations',
          '--bookings',
          'examples/mock-bookings.json',
          '--other-user',
          'mock-other',
          '--report-dir',
          dir,
        ],
        { ...RIGHT, CONFORMANCE_OTHER_PASSWORD: 'mock-other-password' },
      );
      expect(r.code, r.out).toBe(0);
      const report = readReport(dir);
      expect(report.untested).toBeUndefined();
      expect(report.diagnosis).toBeUndefined();
      expect(report.results.filter((x) => x.case.startsWith('seq-foreign')).every((x) => x.status === 'passed')).toBe(
        true,
      );
      expect(r.out).toMatch(/^Conformance PASS/m);
      expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).not.toContain('conformance.untested');
    } finally {
      await mock.close();
    }
  });

  test(
    'without a second account, a run with mutations says in every report that authorization across '
      + 'accounts was not tested, and how to enable it: a note, PASS all the same',
    async () => {
      const dir = join(work, 'ok-no-other');
      // A mock of its own: the run uses bookings up.
      const mock = await startMock({ port: 0, realService: true });
      const r = await cli(
        [
          'run',
          ...at(mock.url),
          ...FAST,
          '--allow-mutations',
          '--bookings',
          'examples/mock-bookings.json',
          '--report-dir',
          dir,
        ],
        RIGHT,
      ).finally(() => mock.close());
      expect(r.code, r.out).toBe(0);
      const note = readReport(dir).diagnosis?.find((d) => d.code === 'sequence_not_planned');
      expect(note?.level).toBe('note');
      expect(note?.message).toMatch(
        /^authorization across accounts was not tested: no second account was given\. Give one with --other-user NAME/,
      );
      for (const [file, text] of [
        ['console', r.out],
        ...['conformance.md', 'conformance.html', 'junit.xml'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
      ] as const) {
        expect(text, file).toMatch(/authorization across accounts was not tested/);
      }
    },
  );

  test('the real-service style without the shape check: still no untested cell', async () => {
    const dir = join(work, 'ok-no-shape');
    const r = await cli(
      [
        'run',
        ...at(real.url),
        ...FAST,
        '--allow-mutations',
        '--bookings',
        'examples/mock-bookings.json',
        '--skip-checks',
        'shape',
        '--report-dir',
        dir,
      ],
      RIGHT,
    );
    expect(r.code, r.out).toBe(0);
    expect(readReport(dir).untested).toBeUndefined();
  });

  test('state-changing operations not called (no --allow-mutations) are not untested', async () => {
    const dir = join(work, 'no-mutations');
    const r = await cli(['run', ...at(real.url), ...FAST, '--report-dir', dir], RIGHT);
    expect(r.code, r.out).toBe(0);
    expect(readReport(dir).untested).toBeUndefined();
  });
});

describe('the real-service style rejects every wrong credential in-band', () => {
  test('every operation × binding: status 200 and a result holding only Error (and ErrorAttributes)', async () => {
    const rejection = new Set(rejectionFields('BaseResult'));
    for (const op of OPERATIONS) {
      for (const b of BINDINGS) {
        const res = await call(real.url, DEFAULT_NAMESPACES, op, b, validParams(op, { password: 'wrong-pass' }));
        expect(res.status, `${op.name} [${b}]: ${res.body.slice(0, 300)}`).toBe(200);
        const result = resultElement(op, b, res.body);
        expect(
          result.children.map((c) => c.local).filter((n) => !rejection.has(n)),
          `${op.name} [${b}]`,
        ).toEqual([]);
        const error = result.children.find((c) => c.local === 'Error');
        expect(error?.children.find((c) => c.local === 'ErrorType')?.text, `${op.name} [${b}]`).toBe(
          'System.Security.Authentication.AuthenticationException',
        );
      }
    }
  });
});
