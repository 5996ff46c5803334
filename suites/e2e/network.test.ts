/**
 * A company's network (issue 32, section 2), with real runs of the command in-process against the
 * mock on a loopback port: through a proxy started here (a plain forward proxy for http://, CONNECT
 * for https://), past it by NO_PROXY, to a TLS server whose certificate comes from the test CA
 * (test/support/tls/) and which demands a client certificate, and with a secret header read from a
 * variable, redacted in every report and the console and named as its variable in curl commands.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/server.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/handlers.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { findSecret, runCli } from '../../test/support/processes.js';
import { rerunCommand } from '../../src/report/rerun.js';
import { validateJson } from '../../src/schema/json.js';
import {
  PFX_PASSPHRASE,
  startHeaderGate,
  startProxy,
  startTlsFront,
  TLS_FILES,
  type TestProxy,
  type TlsFront,
} from '../../test/support/network.js';
import type { DriftReport } from '../../src/core/types.js';

let mock: RunningMock;
let work: string;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  work = tempDir('network');
});
afterAll(async () => {
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * A small real run against `url`: two operations, two bindings, no generated cases (each exchange is counted, not the
 * matrix).
 */
function runArgs(url: string, dir: string, ...more: string[]): string[] {
  return [
    'run',
    '--book-url',
    url,
    '--search-url',
    url,
    '--user',
    DEFAULT_USER,
    '--operations',
    'GetLanguages,GetMeals',
    '--bindings',
    'soap11,get',
    '--examples',
    '0',
    '--no-negative',
    '--report-dir',
    join(work, dir),
    ...more,
  ];
}
const ENV = { CONFORMANCE_PASSWORD: DEFAULT_PASSWORD };

/**
 * Where `secret` occurs, in any spelling (test/support/processes.ts: encodings, base64, its start
 * before a cut), in any file a run wrote (Allure's results included) or on the console; and the run
 * must have redacted it itself (the report writers' guard, the last line of defence, says so when not).
 */
function leaks(secret: string, dir: string, r: { out: string; err: string }): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)],
    );
  const guarded = /would have contained secret/.test(r.err) ? ['the guard redacted what the run did not'] : [];
  return [
    ...guarded,
    ...findSecret(secret, [
      ...walk(join(work, dir)).map((f) => ({ name: f, bytes: readFileSync(f) })),
      { name: 'stdout', bytes: r.out },
      { name: 'stderr', bytes: r.err },
    ]),
  ];
}

describe('proxies', () => {
  let proxy: TestProxy;
  beforeAll(async () => {
    proxy = await startProxy();
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test('--proxy: an http target is reached through the forward proxy, every request (it counts them)', async () => {
    const before = proxy.counts.forwarded;
    const r = await cli(runArgs(mock.url, 'proxy-flag', '--proxy', proxy.url), ENV);
    expect(r.code, r.err).toBe(0);
    const report = readReport(join(work, 'proxy-flag'));
    // Each exchange of the run (one per operation × binding × case; the comparison rows send nothing) went through
    // the proxy, and the preflight's WSDL request too.
    const exchanges = new Set(
      report.results
        .filter((x) => x.status !== 'skipped' && !x.binding.includes(','))
        .map((x) => `${x.operation} ${x.binding} ${x.case}`),
    ).size;
    expect(exchanges).toBeGreaterThan(4);
    expect(proxy.counts.forwarded - before).toBeGreaterThanOrEqual(exchanges + 1);
    // The reproduce commands go the same way.
    const reproduce = report.results.find((x) => x.reproduce)!.reproduce!;
    expect(reproduce).toContain(`--proxy ${proxy.url}`);
  });

  test('HTTP_PROXY from the environment, and NO_PROXY lets the target bypass it', async () => {
    const before = proxy.counts.forwarded;
    const via = await cli(runArgs(mock.url, 'proxy-env'), { ...ENV, HTTP_PROXY: proxy.url });
    expect(via.code, via.err).toBe(0);
    const through = proxy.counts.forwarded - before;
    expect(through).toBeGreaterThan(4);
    const past = await cli(runArgs(mock.url, 'proxy-bypass'), {
      ...ENV,
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'localhost,127.0.0.1',
    });
    expect(past.code, past.err).toBe(0);
    expect(proxy.counts.forwarded - before).toBe(through);
    expect(readReport(join(work, 'proxy-bypass')).results.find((x) => x.reproduce)!.reproduce).toContain(
      "--noproxy '*'",
    );
    // An https proxy variable is not an http target's (curl's rule).
    const other = await cli(runArgs(mock.url, 'proxy-https-only'), { ...ENV, HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(other.code, other.err).toBe(0);
  });

  test(
    'a proxy with credentials: sent to the proxy, redacted in every output, named as its variable in curl '
      + 'commands',
    async () => {
      const secret = 'pr0xy-S3cret-word';
      const authed = await startProxy(`alice:${secret}`);
      try {
        const url = authed.url.replace('//', `//alice:${secret}@`);
        // Not --quiet: the console's own lines are searched too.
        const r = await cli(runArgs(mock.url, 'proxy-auth'), { ...ENV, HTTP_PROXY: url });
        expect(r.code, r.err).toBe(0);
        expect(authed.counts.forwarded).toBeGreaterThan(4);
        expect(authed.counts.refused).toBe(0);
        // The console says which proxy, its password hidden.
        expect(r.err).toContain(`through proxy http://alice:***@127.0.0.1:${new URL(authed.url).port}`);
        expect(leaks(secret, 'proxy-auth', r)).toEqual([]);
        const reproduce = readReport(join(work, 'proxy-auth')).results.find((x) => x.reproduce)!.reproduce!;
        expect(reproduce).toContain('--proxy "${HTTP_PROXY:?set HTTP_PROXY to the proxy URL}"');
        // Without them the proxy refuses: a clear failure, not a pass.
        const refused = await cli(runArgs(mock.url, 'proxy-refused', '--proxy', authed.url), ENV);
        expect(refused.code).toBe(4);
        // The first line of the diagnosis says so, naming the proxy and the setting; the run stopped at the first
        // refusal (issue 41).
        expect(refused.out).toMatch(
          /^Diagnosis:\n {2}✗ the proxy http:\/\/127\.0\.0\.1:\d+ demands credentials \(HTTP 407 Proxy Authentication Required\): give them in --proxy/m,
        );
        expect(authed.counts.refused).toBeGreaterThan(0);
        expect(authed.counts.refused).toBeLessThanOrEqual(2);
      } finally {
        await authed.close();
      }
    },
  );

  test('a bad proxy URL is bad usage naming its source, its credentials hidden', async () => {
    const flag = await cli(runArgs(mock.url, 'bad-proxy', '--proxy', 'ftp://u:hunter22@proxy:21'), ENV);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('--proxy must be an http:// or https:// proxy URL');
    expect(flag.err).not.toContain('hunter22');
    const env = await cli(runArgs(mock.url, 'bad-proxy-env'), { ...ENV, HTTPS_PROXY: 'not a url' });
    expect(env.code).toBe(2);
    expect(env.err).toContain('environment variable HTTPS_PROXY is not a valid proxy URL');
  });
});

describe('TLS: a private CA and a client certificate', () => {
  let front: TlsFront;
  let proxy: TestProxy;
  beforeAll(async () => {
    front = await startTlsFront(mock.url);
    proxy = await startProxy();
  });
  afterAll(async () => {
    await front?.close();
    await proxy?.close();
  });
  const cert = ['--client-cert', TLS_FILES.clientCert, '--client-key', TLS_FILES.clientKey];

  test('passes with --ca-file, --client-cert and --client-key', async () => {
    const before = front.counts.accepted;
    const r = await cli(runArgs(front.url, 'tls-ok', '--ca-file', TLS_FILES.ca, ...cert), ENV);
    expect(r.code, r.err + r.out).toBe(0);
    expect(front.counts.accepted).toBeGreaterThan(before);
    const report = readReport(join(work, 'tls-ok'));
    const reproduce = report.results.find((x) => x.reproduce)!.reproduce!;
    expect(reproduce).toContain(`--cacert ${TLS_FILES.ca}`);
    // The report keeps the flags a re-run needs.
    expect(report.target.network).toEqual([
      '--ca-file',
      TLS_FILES.ca,
      '--client-cert',
      TLS_FILES.clientCert,
      '--client-key',
      TLS_FILES.clientKey,
    ]);
    const schema = JSON.parse(
      readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    expect(validateJson(report, schema)).toEqual([]);
    expect(reproduce).toContain(`--cert ${TLS_FILES.clientCert} --key ${TLS_FILES.clientKey}`);
  });

  test(
    'passes with --client-pfx, its passphrase from CONFORMANCE_CLIENT_PFX_PASSPHRASE (redacted, named in '
      + 'commands)',
    async () => {
      const r = await cli(
        runArgs(front.url, 'tls-pfx', '--ca-file', TLS_FILES.ca, '--client-pfx', TLS_FILES.clientPfx),
        {
          ...ENV,
          CONFORMANCE_CLIENT_PFX_PASSPHRASE: PFX_PASSPHRASE,
        },
      );
      expect(r.code, r.err + r.out).toBe(0);
      expect(leaks(PFX_PASSPHRASE, 'tls-pfx', r)).toEqual([]);
      const reproduce = readReport(join(work, 'tls-pfx')).results.find((x) => x.reproduce)!.reproduce!;
      expect(reproduce).toContain('--cert-type P12');
      expect(reproduce).toContain('--pass "${CONFORMANCE_CLIENT_PFX_PASSPHRASE:?');
      const wrong = await cli(runArgs(front.url, 'tls-pfx-wrong', '--client-pfx', TLS_FILES.clientPfx), {
        ...ENV,
        CONFORMANCE_CLIENT_PFX_PASSPHRASE: 'not-it',
      });
      expect(wrong.code).toBe(2);
      expect(wrong.err).toContain(`--client-pfx cannot be opened with the passphrase given`);
      expect(wrong.err).not.toContain('not-it');
    },
  );

  test('through the proxy by CONNECT: every connection to the target came through a tunnel', async () => {
    const [tunnels, accepted] = [proxy.counts.tunnels, front.counts.accepted];
    const r = await cli(runArgs(front.url, 'tls-proxy', '--ca-file', TLS_FILES.ca, ...cert, '--proxy', proxy.url), ENV);
    expect(r.code, r.err + r.out).toBe(0);
    expect(proxy.counts.tunnels - tunnels).toBeGreaterThan(0);
    expect(front.counts.accepted - accepted).toBe(proxy.counts.tunnels - tunnels);
  });

  test('without --ca-file: the target is unreachable (exit 4), and the message says to pass --ca-file', async () => {
    const r = await cli(runArgs(front.url, 'tls-no-ca', ...cert), ENV);
    expect(r.code).toBe(4);
    expect(r.out).toContain("the target's certificate is not signed by a CA you trust");
    expect(r.out).toContain('--ca-file');
  });

  test('without a client certificate: exit 4, and the message says the target demands one', async () => {
    const r = await cli(runArgs(front.url, 'tls-no-cert', '--ca-file', TLS_FILES.ca), ENV);
    expect(r.code).toBe(4);
    expect(r.out).toContain('demands a client certificate');
    expect(r.out).toContain('--client-cert');
  });

  test('with a client certificate the target does not trust: exit 4, naming the file', async () => {
    // The server certificate is signed by the same CA but is no client certificate (serverAuth only).
    const r = await cli(
      runArgs(
        front.url,
        'tls-wrong-cert',
        '--ca-file',
        TLS_FILES.ca,
        '--client-cert',
        TLS_FILES.serverCert,
        '--client-key',
        TLS_FILES.serverKey,
      ),
      ENV,
    );
    expect(r.code).toBe(4);
    expect(r.out).toContain(`may have refused the client certificate in --client-cert ${TLS_FILES.serverCert}`);
  });

  test('an unreadable or invalid PEM file is bad usage naming the flag and the file (exit 2)', async () => {
    const missing = await cli(runArgs(front.url, 'tls-missing', '--ca-file', join(work, 'nope.pem')), ENV);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`--ca-file cannot be read: ${join(work, 'nope.pem')}: no such file`);
    const notPem = await cli(runArgs(front.url, 'tls-notpem', '--ca-file', TLS_FILES.clientKey), ENV);
    expect(notPem.code).toBe(2);
    expect(notPem.err).toContain(`--ca-file holds no PEM certificate`);
    const mismatch = await cli(
      runArgs(front.url, 'tls-mismatch', '--client-cert', TLS_FILES.clientCert, '--client-key', TLS_FILES.serverKey),
      ENV,
    );
    expect(mismatch.code).toBe(2);
    expect(mismatch.err).toContain(`--client-cert does not belong to the key in --client-key`);
    const alone = await cli(runArgs(front.url, 'tls-alone', '--client-cert', TLS_FILES.clientCert), ENV);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--client-cert needs its private key');
  });
});

describe('headers', () => {
  const SECRET = 'acme-K3y-7f1d9c';

  test(
    'a secret header from a variable: sent on every request, redacted in every report and the console, '
      + 'named as its variable in curl commands',
    async () => {
      const proxy = await startProxy();
      try {
        const r = await cli(
          runArgs(
            mock.url,
            'header-secret',
            '--proxy',
            proxy.url,
            '--header',
            'X-Api-Key: env:ACME_KEY',
            '--header',
            'X-Team: payments',
          ),
          { ...ENV, ACME_KEY: SECRET },
        );
        expect(r.code, r.err).toBe(0);
        expect(proxy.headers.length).toBeGreaterThan(4);
        for (const h of proxy.headers) {
          expect(h['x-api-key']).toBe(SECRET);
          expect(h['x-team']).toBe('payments');
        }
        const dir = join(work, 'header-secret');
        for (const f of ['conformance.json', 'conformance.html', 'conformance.md', 'junit.xml'])
          expect(existsSync(join(dir, f)), f).toBe(true);
        expect(readdirSync(join(dir, 'allure-results')).length).toBeGreaterThan(0);
        expect(leaks(SECRET, 'header-secret', r)).toEqual([]);
        const reproduce = readReport(dir)
          .results.filter((x) => x.reproduce)
          .map((x) => x.reproduce!);
        expect(reproduce.length).toBeGreaterThan(0);
        for (const c of reproduce) {
          expect(c).toContain('-H "X-Api-Key: ${ACME_KEY:?set ACME_KEY to the X-Api-Key header}"');
          expect(c).toContain("-H 'X-Team: payments'");
        }
      } finally {
        await proxy.close();
      }
    },
  );

  test(
    'a gateway that echoes the secret header in every answer: nothing is tested, and the key is redacted '
      + 'in every report and the console',
    async () => {
      const echo = await startProxy(undefined, 'X-Api-Key');
      try {
        const r = await cli(
          runArgs(mock.url, 'header-echo', '--proxy', echo.url, '--header', 'X-Api-Key: env:ACME_KEY'),
          { ...ENV, ACME_KEY: SECRET },
        );
        // Every valid call got the gateway's fault: nothing reached the data path (exit 5), and the rows quote the
        // fault.
        expect(r.code).toBe(5);
        const dir = join(work, 'header-echo');
        // The answers quoted the key: the rows hold the fault, with the key redacted.
        expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toContain('gateway: key *** is not allowed');
        expect(leaks(SECRET, 'header-echo', r)).toEqual([]);
        expect(r.out).toContain('${ACME_KEY:?');
        // The re-run command of a failed row goes the same way, the key named as its variable.
        const report = readReport(dir);
        const rerun = rerunCommand(
          report,
          report.results.find((x) => x.status === 'failed' && x.case === 'default' && !x.binding.includes(','))!,
        )!;
        expect(rerun).toContain(`--proxy ${echo.url} --header 'X-Api-Key: env:ACME_KEY'`);
        expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain("--header 'X-Api-Key: env:ACME_KEY'");
      } finally {
        await echo.close();
      }
    },
  );

  test('bad headers are bad usage: the binding\'s own, an unset variable, no colon, a config string "env:…"', async () => {
    const own = await cli(runArgs(mock.url, 'h1', '--header', 'Content-Type: text/plain'), ENV);
    expect(own.code).toBe(2);
    expect(own.err).toContain('sets Content-Type, which the harness sets itself');
    const soap = await cli(runArgs(mock.url, 'h2', '--header', 'SOAPAction: x'), ENV);
    expect(soap.code).toBe(2);
    const unset = await cli(runArgs(mock.url, 'h3', '--header', 'X-Api-Key: env:ACME_KEY'), ENV);
    expect(unset.code).toBe(2);
    expect(unset.err).toContain('takes X-Api-Key from the environment variable ACME_KEY, which is not set');
    const colon = await cli(runArgs(mock.url, 'h4', '--header', 'X-Api-Key'), ENV);
    expect(colon.code).toBe(2);
    expect(colon.err).toContain('must be "Name: value"');
  });
});

/**
 * `conformance drift`, a real process (issue 41, item 2): behind a gateway that demands an API-key
 * header, a TLS server of the private CA that demands a client certificate, and a proxy that demands
 * credentials (the user in --proxy, the password in CONFORMANCE_PROXY_PASSWORD), it judges the target
 * exactly as it judges the mock on localhost.
 */
describe('drift through the company network, a real process', () => {
  const KEY = 'drift-gate-key-31';
  const PROXY_PASSWORD = 'drift-proxy-pw-77';
  let gate: Awaited<ReturnType<typeof startHeaderGate>>;
  let front: TlsFront;
  let proxy: TestProxy;
  beforeAll(async () => {
    gate = await startHeaderGate(mock.url, 'X-Api-Key', KEY);
    front = await startTlsFront(gate.url);
    proxy = await startProxy(`alice:${PROXY_PASSWORD}`);
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), front?.close(), gate?.close()]);
  });

  test(
    'the same verdict and differences as on localhost; every fetch through the proxy, the TLS server and '
      + 'the gateway; no secret printed or written',
    async () => {
      const judged = (dir: string) => {
        const r = JSON.parse(readFileSync(join(work, dir, 'drift.json'), 'utf8')) as DriftReport;
        return {
          verdict: r.verdict,
          breaking: r.breaking,
          compatible: r.compatible,
          services: r.services.map((s) => ({ service: s.service, differences: s.differences })),
        };
      };
      const local = await runCli([
        'drift',
        '--book-url',
        mock.url,
        '--search-url',
        mock.url,
        '--report-dir',
        join(work, 'drift-local'),
      ]);
      expect(local.code, local.stderr).toBe(0);
      const before = { tunnels: proxy.counts.tunnels, passed: gate.counts.passed };
      const far = await runCli(
        [
          'drift',
          '--book-url',
          front.url,
          '--search-url',
          front.url,
          '--report-dir',
          join(work, 'drift-far'),
          '--proxy',
          proxy.url.replace('//', '//alice@'),
          '--ca-file',
          TLS_FILES.ca,
          '--client-cert',
          TLS_FILES.clientCert,
          '--client-key',
          TLS_FILES.clientKey,
          '--header',
          'X-Api-Key: env:GATE_KEY',
        ],
        { CONFORMANCE_PROXY_PASSWORD: PROXY_PASSWORD, GATE_KEY: KEY },
      );
      expect(far.code, far.stderr).toBe(local.code);
      expect(judged('drift-far')).toEqual(judged('drift-local'));
      expect(proxy.counts.tunnels).toBeGreaterThan(before.tunnels);
      expect(gate.counts.passed - before.passed).toBe(2);
      for (const secret of [PROXY_PASSWORD, KEY]) {
        expect(leaks(secret, 'drift-far', { out: far.stdout, err: far.stderr }), secret).toEqual([]);
      }
    },
  );
});
