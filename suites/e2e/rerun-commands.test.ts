/**
 * Issue 31 section 1, as a user does it: a failing run's re-run commands (a plain case, a generated
 * case, a sequence over state, a case of the config file) pasted into `sh -c` one by one, each a
 * `npx conformance run` process of its own with only the password's variable set. Each reproduces
 * exactly its row, in a report directory of its own, and the reports being read stay as they were.
 * src/report/rerun.test.ts proves the same in-process (npm test); this is the process form (test:e2e).
 * Issue 41: a run through a proxy that demands credentials, given with --proxy: its re-run command
 * names the proxy by CONFORMANCE_PROXY (never its password) and pins the run's languages; pasted
 * into a shell with the variables set, it goes through the proxy again and reproduces its row.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { startProxy, type TestProxy } from '../../test/support/network.js';
import { REPO_ROOT } from '../../test/support/processes.js';
import {
  failingRun,
  htmlCommands,
  identity,
  KINDS,
  PASSWORD_VAR,
  reportDirOf,
  snapshot,
  type FailingRun,
} from '../../test/support/rerun.js';

/** `sh -c line` from the repository, with PATH, HOME and the password's variable only (or the variables given). */
function shell(
  line: string,
  env: Record<string, string> = { [PASSWORD_VAR]: 'mock-password' },
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('re-run commands pasted into a shell', () => {
  let run: FailingRun;
  beforeAll(async () => {
    run = await failingRun();
  }, 60_000);
  afterAll(() => run?.mock.close());

  test.for(Object.keys(KINDS))('%s row', { timeout: 120_000 }, async (kind) => {
    const { row, command } = run.picked[kind as keyof typeof KINDS];
    const sh = await shell(command);
    expect(sh.status, sh.stderr).toBe(1);
    const again = readReport(reportDirOf(command));
    const failed = again.results.filter((x) => x.status === 'failed');
    expect(failed.map(identity)).toContain(identity(row));
    expect(new Set(failed.map((x) => `${x.operation} ${x.case}`))).toEqual(new Set([`${row.operation} ${row.case}`]));
  });

  test('the original reports are untouched', () => {
    const after = snapshot(run.dir);
    for (const [path, bytes] of run.before) expect(after.get(path), path).toBe(bytes);
    for (const p of [...after.keys()].filter((x) => !run.before.has(x))) expect(p).toMatch(/^rerun-[a-z0-9.-]+\//);
  });
});

describe(
  'behind an authenticating proxy (issue 41): the command, pasted with the variables set, goes through it '
    + 'and reproduces its row',
  () => {
    const SECRET = 'pr0xy-s3cret';
    let mock: RunningMock;
    let proxy: TestProxy;
    let proxyUrl = '';
    let dir = '';
    let command = '';
    let row: ReturnType<typeof readReport>['results'][number];
    beforeAll(async () => {
      // A target listing languages of its own (not the harness's fixed list), and a fault on a generated case's
      // answers.
      mock = await startMock({ port: 0, faults: ['missing-required-element'], languages: ['ja', 'sv'] });
      proxy = await startProxy(`alice:${SECRET}`);
      proxyUrl = proxy.url.replace('//', `//alice:${SECRET}@`);
      dir = tempDir('rerun-proxy');
      const r = await cli(
        [
          'run',
          '--book-url',
          mock.url,
          '--search-url',
          mock.url,
          '--user',
          'mock-user',
          '--operations',
          'GetMeals,GetLanguages',
          '--bindings',
          'soap11,get',
          '--examples',
          '2',
          '--no-negative',
          '--max-rps',
          '100000',
          '--proxy',
          proxyUrl,
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_PASSWORD: 'mock-password' },
      );
      if (r.code !== 1) throw new Error(`the run through the proxy exited ${r.code}: ${r.err}`);
      const report = readReport(dir);
      row = report.results.find(
        (x) => x.status === 'failed' && x.operation === 'GetMeals' && /^gen-\d+-/.test(x.case) && x.binding === 'get',
      )!;
      command = htmlCommands(dir).find((c) => c.includes(` --case ${row.case} `) && c.includes(' --bindings get '))!;
    }, 60_000);
    afterAll(async () => {
      await mock?.close();
      await proxy?.close();
    });

    test('the command names the proxy by its variable, never its password, and pins the languages', () => {
      expect(command).toBeDefined();
      expect(command).not.toContain(SECRET);
      expect(command).toMatch(/^CONFORMANCE_PROXY="\$\{CONFORMANCE_PROXY:\?[^"]+\}" npx conformance run /);
      expect(command).toContain(' --languages ja,sv ');
    });

    test('without CONFORMANCE_PROXY the shell stops, naming it, and nothing is sent', { timeout: 60_000 }, async () => {
      const before = { ...proxy.counts };
      const sh = await shell(command, { CONFORMANCE_PASSWORD: 'mock-password' });
      expect(sh.status).not.toBe(0);
      expect(sh.stderr).toContain('CONFORMANCE_PROXY: set CONFORMANCE_PROXY to the proxy URL with its credentials');
      expect(proxy.counts).toEqual(before);
    });

    test('with it: through the proxy, authenticated, the row reproduced', { timeout: 120_000 }, async () => {
      const before = { ...proxy.counts };
      const sh = await shell(command, { CONFORMANCE_PASSWORD: 'mock-password', CONFORMANCE_PROXY: proxyUrl });
      expect(sh.status, sh.stderr).toBe(1);
      expect(proxy.counts.forwarded).toBeGreaterThan(before.forwarded);
      expect(proxy.counts.refused).toBe(before.refused);
      const again = readReport(reportDirOf(command));
      expect(reportDirOf(command).startsWith(join(dir, 'rerun-'))).toBe(true);
      const failed = again.results.filter((x) => x.status === 'failed');
      expect(failed.map(identity)).toContain(identity(row));
      expect(new Set(failed.map((x) => `${x.operation} ${x.case}`))).toEqual(new Set([`${row.operation} ${row.case}`]));
    });
  },
);
