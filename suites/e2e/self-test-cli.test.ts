/**
 * The self-test's command-line part (suites/self-test.test.ts proves the harness in-process): the
 * documented commands as processes, `conformance run` against `npm run mock -- --fault NAME` exits 1
 * and its conformance.json names the operation and binding; against a clean mock, 0. Processes
 * started and waited for: in `npm run test:e2e` (everything under suites/e2e/).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, test } from 'vitest';
import type { RunReport } from '../../src/core/types.js';
import { rowBindings } from '../../src/core/rows.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/index.js';
import { faultBindings, faultNamed } from '../../src/mock/fault-lookup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// ---- the command line ----------------------------------------------------------------------------

describe('conformance run against npm run mock -- --fault', () => {
  const children: ReturnType<typeof spawn>[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) continue;
      const gone = new Promise((resolve) => c.once('exit', resolve));
      try {
        process.kill(-c.pid, 'SIGTERM'); // the group npm → tsx → node started below
      } catch {
        continue;
      }
      await gone;
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** `npm run mock -- --port 0 ...args`, resolved with its URL once it listens. */
  async function mock(args: string[]): Promise<string> {
    const child = spawn('npm', ['run', '--silent', 'mock', '--', '--port', '0', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(child);
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      err += s;
    });
    return new Promise((resolve, reject) => {
      const rl = createInterface({ input: child.stdout! });
      rl.on('line', (line) => {
        const m = /^mock listening on (http:\/\/\S+)$/.exec(line);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`mock exited ${code}: ${err}`)));
    });
  }

  /** `node bin/conformance.js run` against a URL; the exit code and the JSON report. */
  async function conformance(url: string): Promise<{ code: number | null; report: RunReport; stdout: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'self-test-'));
    dirs.push(dir);
    const child = spawn(
      process.execPath,
      [
        'bin/conformance.js',
        'run',
        '--book-url',
        url,
        '--search-url',
        url,
        '--user',
        DEFAULT_USER,
        '--report-dir',
        dir,
        '--quiet',
        // A target that is not the embedded mock gets gentle defaults (20 requests/s); this one is local.
        '--max-rps',
        '100000',
        '--concurrency',
        '16',
        // Exit codes and what conformance.json names are the point: the hand-written cases are enough.
        '--examples',
        '0',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CONFORMANCE_PASSWORD: DEFAULT_PASSWORD },
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport, stdout };
  }

  // Concurrent: each test starts its own processes and waits for them.
  test.concurrent.for([
    ['media-type-text-xml-on-soap12', 'content_type'],
    ['missing-required-element', 'shape'],
  ] as const)(
    '--fault %s: exit 1, conformance.json names the operation and binding (%s)',
    async ([name, check], { expect }) => {
      const fault = faultNamed(name)!;
      const url = await mock(['--fault', name]);
      const { code, report, stdout } = await conformance(url);
      expect(code, stdout).toBe(1);
      const failed = report.results.filter((r) => r.status === 'failed');
      const binding = faultBindings(fault)[0]!;
      expect(
        failed.some((r) => r.operation === fault.operation && r.binding === binding && r.check === check),
        stdout,
      ).toBe(true);
      expect(
        failed.every((r) => r.operation === fault.operation && rowBindings(r).every((b) => b === binding)),
        stdout,
      ).toBe(true);
    },
  );

  test.concurrent('a clean mock: exit 0', async ({ expect }) => {
    const url = await mock([]);
    const { code, report, stdout } = await conformance(url);
    expect(code, stdout).toBe(0);
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(500);
  });
});
