/**
 * Issue 31 section 1: a row's re-run command carries everything the row depends on (the config
 * file, where the bookings came from, the settings that change what is sent or judged) and a report
 * directory of its own; pasted, it reproduces exactly its row. Here the shell only splits and expands
 * the command (the password's variable, the bookings' variable) and the run goes in-process;
 * suites/e2e/rerun-commands.test.ts (test:e2e) runs each command as a process.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResultRow, RunReport } from '../core/types.js';
import { startMock } from '../mock/index.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import {
  failingRun,
  identity,
  KINDS,
  PASSWORD_VAR,
  reportDirOf,
  snapshot,
  type FailingRun,
} from '../../test/support/rerun.js';
import { REPO_ROOT } from '../../test/support/processes.js';
import { resolveRunSettings } from '../cli/config.js';
import { rerunBasis } from '../engine/rerun-basis.js';
import { networkFlags } from '../transport/curl.js';
import { rerunCommand } from './rerun.js';

/** What sh makes of a pasted command: `npx`'s words, and the password and bookings variables it is given. */
function shellSplit(
  command: string,
  env: Record<string, string>,
): { argv: string[]; password: string; bookings: string } | { error: string } {
  const r = spawnSync(
    'sh',
    ['-c', `npx() { printf '%s\\0' "$CONFORMANCE_PASSWORD" "$CONFORMANCE_BOOKINGS" "$@"; }; ${command}`],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' },
  );
  if (r.status !== 0) return { error: r.stderr };
  const [password, bookings, ...argv] = r.stdout.split('\0').slice(0, -1);
  return { argv, password: password!, bookings: bookings! };
}

describe('the re-run command of each kind of row, pasted', () => {
  let run: FailingRun;
  beforeAll(async () => {
    run = await failingRun();
  }, 60_000);
  afterAll(() => run?.mock.close());

  test.for(Object.keys(KINDS))('%s row: reproduced exactly, in a report directory of its own', async (kind) => {
    const { row, command } = run.picked[kind as keyof typeof KINDS];
    // Everything the row depends on, by name: the config file, the bookings file, the password's variable.
    expect(command).toContain(`--config ${run.report.rerun!.config}`);
    expect(command).toContain('--bookings examples/mock-bookings.json');
    expect(command).toMatch(new RegExp(`^CONFORMANCE_PASSWORD="\\$${PASSWORD_VAR}" npx conformance run `));
    expect(command).not.toContain('mock-password');
    const dir = reportDirOf(command);
    expect(dir.startsWith(`${run.dir}/rerun-`)).toBe(true);
    // Only the variable the config names is set, as in a fresh shell: no bookings variable, no CONFORMANCE_PASSWORD.
    const sh = shellSplit(command, { [PASSWORD_VAR]: 'mock-password' });
    if ('error' in sh) throw new Error(sh.error);
    expect(sh.argv.slice(0, 2)).toEqual(['conformance', 'run']);
    const r = await cli(sh.argv.slice(1), { [PASSWORD_VAR]: 'mock-password', CONFORMANCE_PASSWORD: sh.password });
    expect(r.code, r.err).toBe(1);
    const again = readReport(dir);
    const failed = again.results.filter((x) => x.status === 'failed');
    expect(failed.map(identity)).toContain(identity(row));
    // Only that case of that operation fails.
    expect(new Set(failed.map((x) => `${x.operation} ${x.case}`))).toEqual(new Set([`${row.operation} ${row.case}`]));
    expect(failed.find((x) => identity(x) === identity(row))!.message).toBe(row.message);
  });

  test('the reports being read are untouched: every file as it was, the re-runs beside them in rerun-* only', () => {
    const after = snapshot(run.dir);
    for (const [path, bytes] of run.before) expect(after.get(path), path).toBe(bytes);
    const added = [...after.keys()].filter((p) => !run.before.has(p));
    expect(added.length).toBeGreaterThan(0);
    for (const p of added) expect(p).toMatch(/^rerun-[a-z0-9.-]+\//);
  });

  test('the console, conformance.md, junit.xml and the Allure results give the same command as the HTML report', () => {
    const { command } = run.picked.plain;
    expect(readFileSync(join(run.dir, 'conformance.md'), 'utf8')).toContain(command);
    expect(run.console).toContain(`  re-run (case default):\n    ${command}`);
    const xml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(readFileSync(join(run.dir, 'junit.xml'), 'utf8')).toContain(`re-run just this row:\n${xml(command)}`);
    const allure = readdirSync(join(run.dir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => readFileSync(join(run.dir, 'allure-results', f), 'utf8'));
    expect(allure.some((t) => t.includes(JSON.stringify(`re-run just this row:\n${command}`).slice(1, -1)))).toBe(true);
  });
});

/** A report of one failed row, for the command's shape. */
function reportWith(rerun: RunReport['rerun'], extra: Partial<RunReport> = {}): { report: RunReport; row: ResultRow } {
  const row: ResultRow = {
    operation: 'CancelBooking',
    group: 'booking',
    binding: 'soap11',
    case: 'default',
    check: 'shape',
    status: 'failed',
    message: 'm',
    path: '/x',
    reproduce: 'curl',
    findings: [],
  };
  const report = {
    tool: { name: 't', version: '0' },
    target: {
      bookUrl: 'https://t.example',
      searchUrl: 'https://t.example',
      transfersUrl: 'https://t.example',
      namespaces: { book: 'urn:b', search: 'urn:s' },
      user: 'u',
      password: '***',
      embedded: false,
    },
    startedAt: '',
    durationMs: 0,
    bindings: ['soap11', 'get'],
    operations: ['CancelBooking'],
    summary: { passed: 0, failed: 1, skipped: 0, known: 0, total: 1 },
    results: [row],
    ...(rerun ? { rerun } : {}),
    ...extra,
  } as RunReport;
  return { report, row };
}

describe('rerunCommand', () => {
  test(
    'pools given as JSON in a variable are named by the variable (sh stops when it is unset), never by ' + 'their ids',
    () => {
      const { report, row } = reportWith(
        { bookings: { variable: 'CONFORMANCE_BOOKINGS' }, flags: ['--allow-mutations'], reportDir: 'out' },
        { passwordVariable: 'TARGET_PW' },
      );
      const c = rerunCommand(report, row)!;
      expect(c).toMatch(
        /^CONFORMANCE_PASSWORD="\$TARGET_PW" CONFORMANCE_BOOKINGS="\$\{CONFORMANCE_BOOKINGS:\?[^"]*\}" npx conformance run /,
      );
      expect(c).not.toContain('--bookings');
      expect(c).toContain(' --allow-mutations ');
      expect(c.endsWith(' --report-dir out/rerun-cancelbooking-default-soap11')).toBe(true);
      const unset = shellSplit(c, { TARGET_PW: 'x' });
      expect('error' in unset && unset.error).toMatch(
        /CONFORMANCE_BOOKINGS: the run read its booking pools from this variable/,
      );
      const set = shellSplit(c, { TARGET_PW: 'x', CONFORMANCE_BOOKINGS: '{"cancel":["B1"]}' });
      expect(set).toMatchObject({ password: 'x', bookings: '{"cancel":["B1"]}' });
    },
  );

  test(
    'the settings that change what is sent or judged come along; a state-changing row without '
      + '--allow-mutations in the run gets none',
    () => {
      const flags = [
        '--checks',
        'shape,xsd_valid',
        '--no-negative',
        '--expectations',
        'exp.json',
        '--timeout',
        '2000',
        '--insecure-tls',
        '--max-rps',
        '5',
      ];
      const { report, row } = reportWith({
        config: 'conf/target.json',
        bookings: { file: 'pools.json' },
        flags,
        reportDir: 'reports/',
      });
      const c = rerunCommand(report, row)!;
      expect(c).toContain(
        ' --config conf/target.json --bookings pools.json --checks shape,xsd_valid --no-negative '
          + '--expectations exp.json --timeout 2000 --insecure-tls --max-rps 5 ',
      );
      expect(c).not.toContain('--allow-mutations');
      expect(c.endsWith(' --report-dir reports/rerun-cancelbooking-default-soap11')).toBe(true);
    },
  );

  test('a report of an older version (no rerun record) still re-runs into a directory of its own', () => {
    const { report, row } = reportWith(undefined);
    const c = rerunCommand(report, row)!;
    expect(c).toContain(' --allow-mutations ');
    expect(c.endsWith(' --report-dir reports/rerun-cancelbooking-default-soap11')).toBe(true);
  });
});

/**
 * A front of a target that forwards every request and notes the operation each asks for (the HTTP
 * path's last segment, or the SOAPAction's), and, once `refuseLanguages` is set, answers
 * GetLanguages 503 itself: a re-run that cannot ask the target's GetLanguages.
 */
async function languagesFront(backend: string) {
  const asked: string[] = [];
  const state = { refuseLanguages: false };
  const { port } = new URL(backend);
  const server = createServer((req, res) => {
    const op =
      /([A-Za-z]+)"?$/.exec(String(req.headers.soapaction ?? ''))?.[1]
      ?? /\/([A-Za-z]+)(?:\?|$)/.exec(req.url ?? '')?.[1]
      ?? '';
    asked.push(op);
    if (state.refuseLanguages && op === 'GetLanguages') {
      req.resume();
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>');
      return;
    }
    const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("a generated row re-run where the target's GetLanguages cannot be asked (issue 41)", () => {
  test("the command pins the run's languages: --case finds the case and sends the same values, asking "
    + 'nothing of GetLanguages', {
    timeout: 60_000,
  }, async () => {
    // A target listing two languages of its own order: the fixed list would give other values.
    const mock = await startMock({ port: 0, faults: ['missing-required-element'], languages: ['ja', 'sv'] });
    const front = await languagesFront(mock.url);
    try {
      const dir = tempDir('rerun-languages');
      const r = await cli(
        [
          'run',
          '--book-url',
          front.url,
          '--search-url',
          front.url,
          '--user',
          'mock-user',
          '--operations',
          'GetMeals,GetLanguages',
          '--bindings',
          'get',
          '--examples',
          '2',
          '--no-negative',
          '--max-rps',
          '100000',
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_PASSWORD: 'mock-password' },
      );
      expect(r.code, r.err).toBe(1);
      const report = readReport(dir);
      expect(report.generation?.languages).toEqual(['ja', 'sv']);
      const row = report.results.find(
        (x) => x.status === 'failed' && x.operation === 'GetMeals' && /^gen-\d+-/.test(x.case),
      )!;
      expect(row, 'a failed generated GetMeals row').toBeDefined();
      const command = rerunCommand(report, row)!;
      expect(command).toContain(' --languages ja,sv ');
      front.state.refuseLanguages = true;
      front.asked.length = 0;
      const sh = shellSplit(command, { CONFORMANCE_PASSWORD: 'mock-password' });
      if ('error' in sh) throw new Error(sh.error);
      const again = await cli(sh.argv.slice(1), { CONFORMANCE_PASSWORD: 'mock-password' });
      expect(again.code, again.err).toBe(1);
      expect(front.asked).not.toContain('GetLanguages');
      const rerun = readReport(reportDirOf(command));
      const same = rerun.results.find(
        (x) => x.case === row.case && x.check === row.check && x.binding === row.binding,
      )!;
      expect(identity(same)).toBe(identity(row));
      // The same request: the same language among the same parameters.
      expect(same.reproduce).toBe(row.reproduce);
    } finally {
      await front.close();
      await mock.close();
    }
  });
});

describe("the re-run command keeps the run's network (issue 41)", () => {
  const TARGET = ['--book-url', 'https://t.example', '--search-url', 'https://t.example', '--user', 'u'];
  /** The command of a failed row of a run resolved from these flags and variables (never sent). */
  function commandOf(args: string[], env: Record<string, string>): string {
    const s = resolveRunSettings([...TARGET, ...args], { CONFORMANCE_PASSWORD: 'pw', ...env });
    const { report, row } = reportWith(rerunBasis(s));
    return rerunCommand({ ...report, target: { ...report.target, network: networkFlags(s.network) } }, row)!;
  }

  test(
    'a --proxy with credentials is referred to through CONFORMANCE_PROXY, never dropped nor written; sh '
      + 'stops naming it when unset',
    () => {
      const c = commandOf(['--proxy', 'http://alice:hunter22@proxy.example:3128'], {});
      expect(c).not.toContain('hunter22');
      expect(c).not.toContain('alice');
      expect(c).toMatch(
        /^CONFORMANCE_PROXY="\$\{CONFORMANCE_PROXY:\?set CONFORMANCE_PROXY to the proxy URL with its credentials, as for the run\}" npx conformance run /,
      );
      expect(c).not.toContain('--proxy');
      const unset = shellSplit(c, {});
      expect('error' in unset && unset.error).toMatch(
        /CONFORMANCE_PROXY: set CONFORMANCE_PROXY to the proxy URL with its credentials/,
      );
      expect('error' in shellSplit(c, { CONFORMANCE_PROXY: 'http://alice:hunter22@proxy.example:3128' })).toBe(false);
    },
  );

  test(
    "the environment's proxy with credentials by its own variable; NO_PROXY, a proxy without credentials "
      + 'and the TLS files and headers by their values or flags',
    () => {
      const c = commandOf(
        ['--ca-file', 'test/support/tls/ca.pem', '--header', 'X-Api-Key: env:ACME_KEY', '--header', 'X-Team: payments'],
        {
          HTTPS_PROXY: 'http://bob:s3cret-pw@proxy.example:3128',
          NO_PROXY: 'internal.example,.corp',
          ACME_KEY: 'k-123456789',
        },
      );
      expect(c).not.toContain('s3cret-pw');
      expect(c).not.toContain('k-123456789');
      expect(c).toContain(
        'HTTPS_PROXY="${HTTPS_PROXY:?set HTTPS_PROXY to the proxy URL with its credentials, as for the run}" ',
      );
      expect(c).toContain('no_proxy=internal.example,.corp ');
      expect(c).toContain('ACME_KEY="${ACME_KEY:?set ACME_KEY to the X-Api-Key header, as for the run}" ');
      expect(c).toMatch(
        / --ca-file \S+\/test\/support\/tls\/ca\.pem --header 'X-Api-Key: env:ACME_KEY' --header 'X-Team: payments' /,
      );
      const plain = commandOf([], { https_proxy: 'http://proxy.example:3128' });
      expect(plain).toMatch(/^https_proxy=http:\/\/proxy\.example:3128 npx conformance run /);
      // An explicit proxy without credentials, from the flag or CONFORMANCE_PROXY: the flag, for both schemes as in the
      // run.
      expect(commandOf(['--proxy', 'http://proxy.example:3128'], {})).toMatch(
        /^npx conformance run .* --proxy http:\/\/proxy\.example:3128 /,
      );
      expect(commandOf([], { CONFORMANCE_PROXY: 'http://proxy.example:3128' })).toMatch(
        /^npx conformance run .* --proxy http:\/\/proxy\.example:3128 /,
      );
    },
  );

  test(
    'a proxy naming its user, its password from CONFORMANCE_PROXY_PASSWORD: the URL without it and that '
      + "variable, required; the environment's by its variable",
    () => {
      const c = commandOf(['--proxy', 'http://alice@proxy.example:3128'], { CONFORMANCE_PROXY_PASSWORD: 'hunter22' });
      expect(c).not.toContain('hunter22');
      expect(c).toMatch(
        /^CONFORMANCE_PROXY_PASSWORD="\$\{CONFORMANCE_PROXY_PASSWORD:\?set CONFORMANCE_PROXY_PASSWORD to the proxy's password, as for the run\}" npx conformance run .* --proxy http:\/\/alice@proxy\.example:3128 /,
      );
      const unset = shellSplit(c, {});
      expect('error' in unset && unset.error).toMatch(/set CONFORMANCE_PROXY_PASSWORD to the proxy's password/);
      const env = commandOf([], {
        HTTPS_PROXY: 'http://bob@proxy.example:3128',
        CONFORMANCE_PROXY_PASSWORD: 's3cret-pw',
      });
      expect(env).not.toContain('s3cret-pw');
      expect(env).toContain('HTTPS_PROXY=http://bob@proxy.example:3128 ');
      expect(env).toContain('CONFORMANCE_PROXY_PASSWORD="${CONFORMANCE_PROXY_PASSWORD:?');
    },
  );

  test('a run without a proxy or other network setting adds nothing', () => {
    expect(commandOf([], {})).toMatch(/^npx conformance run --book-url https:\/\/t\.example /);
  });
});
