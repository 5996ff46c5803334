/**
 * Issue 31 section 1, as a user does it: a failing run's re-run commands (a plain case, a generated
 * case, a sequence over state, a case of the config file) pasted into `sh -c` one by one, each a
 * `npx conformance run` process of its own with only the password's variable set. Each reproduces
 * exactly its row, in a report directory of its own, and the reports being read stay as they were.
 * src/report/rerun.test.ts proves the same in-process (npm test); this is the process form (test:e2e).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReport } from '../test/support/cli.js';
import { REPO_ROOT } from '../test/support/processes.js';
import { failingRun, identity, KINDS, PASSWORD_VAR, reportDirOf, snapshot, type FailingRun } from '../test/support/rerun.js';

/** `sh -c line` from the repository, with PATH, HOME and the password's variable only. */
function shell(line: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, [PASSWORD_VAR]: 'mock-password' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('re-run commands pasted into a shell', () => {
  let run: FailingRun;
  beforeAll(async () => { run = await failingRun(); }, 60_000);
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
