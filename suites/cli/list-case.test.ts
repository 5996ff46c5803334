/**
 * Issue 26 item 2: `run --list` prints the plan and sends nothing; `--case` runs only the cases it
 * names; the re-run command a report gives a failed row, pasted into a shell, reproduces that row.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import type { ListedPlan } from '../../src/engine/plan-list.js';
import { cli, mockTarget, readReport, rowKey, tempDir } from '../../test/support/cli.js';
import { REPO_ROOT } from '../../test/support/processes.js';

let counter: Server;
let hits = 0;
let counterUrl: string;

beforeAll(async () => {
  counter = createServer((_req, res) => {
    hits++;
    res.end();
  });
  await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => counter.close(() => r())));

const SECRET = 'S3cret-Pa55';

/** Run a command line in sh from the repository, with only the password variable set. */
function shell(line: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CONFORMANCE_PASSWORD: 'mock-password' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('run --list', () => {
  test('prints every operation × binding × case with its parameters, the password masked, and sends nothing', async () => {
    const dir = tempDir('list');
    const r = await cli(
      [
        'run',
        '--list',
        '--book-url',
        counterUrl,
        '--search-url',
        counterUrl,
        '--user',
        'acme',
        '--operations',
        'GetMeals,CancelBooking',
        '--bindings',
        'soap11,get',
        '--report-dir',
        dir,
      ],
      { CONFORMANCE_PASSWORD: SECRET },
    );
    expect(r.code, r.err).toBe(0);
    expect(hits).toBe(0);
    expect(existsSync(join(dir, 'conformance.json'))).toBe(false);
    expect(r.out).toMatch(
      /^Plan \(nothing sent\): book http:\/\/127\.0\.0\.1:\d+, .*2 operations × 2 bindings \(soap11, get\)/,
    );
    expect(r.out).toMatch(/^ {2}default +valid +soap11,get +language="en" userName="acme" password="\*\*\*"$/m);
    expect(r.out).toMatch(/^ {2}wrong-soapaction +wrong-soapaction +soap11 /m);
    // A state-changing operation on a real target is listed, and says it is not sent.
    expect(r.out).toMatch(
      /^ {2}default +valid .*bookingID="BK-100234".*\[not sent: CancelBooking changes state on the target/m,
    );
    expect(r.out).toContain('valid cases: status_code, content_type, xml_wellformed');
    expect(r.out).toContain('across bindings, per case: binding_equivalence');
    // Every spelling of the password is masked, the swapped-case variant too.
    expect(r.out + r.err).not.toContain(SECRET);
    expect(r.out + r.err).not.toContain('s3CRET-pA55');
  });

  test("as JSON: the same plan, with each unit's checks; --dry-run is the same flag", async () => {
    const r = await cli([
      'run',
      '--dry-run',
      '--list-format',
      'json',
      '--operations',
      'GetMeals',
      '--examples',
      '2',
      '--checks',
      'status_code,shape',
    ]);
    expect(r.code, r.err).toBe(0);
    const plan = JSON.parse(r.out) as ListedPlan;
    expect(plan.target).toBe('the embedded mock');
    expect(plan.generation).toMatchObject({ seed: 16, examples: 2 });
    const byCase = Object.fromEntries(plan.units.map((u) => [u.case, u]));
    expect(byCase.default).toMatchObject({
      operation: 'GetMeals',
      kind: 'valid',
      bindings: ['soap11', 'soap12', 'get', 'post'],
      checks: ['status_code', 'shape'],
      equivalence: true,
    });
    expect(byCase.default!.params).toEqual({ language: 'en', userName: 'mock-user', password: '***' });
    // The 2 examples (gen-N-…), beside the coverage cases that send each value of a pool once (gen-language-…).
    expect(plan.units.filter((u) => u.kind === 'generated' && /^gen-\d+-/.test(u.case))).toHaveLength(2);
    expect(plan.units.some((u) => u.kind === 'generated' && u.case.startsWith('gen-language-'))).toBe(true);
    expect(byCase['wrong-credentials']!.checks).toEqual([]);
    expect(plan.exchanges).toBe(plan.units.reduce((n, u) => n + u.bindings.length, 0));
  });

  test('--languages: the plan lists the values the run will send, the target not asked (issue 41)', async () => {
    const args = ['run', '--dry-run', '--list-format', 'json', '--operations', 'GetMeals', '--examples', '2'];
    const pinned = JSON.parse((await cli([...args, '--languages', 'it,pt'])).out) as ListedPlan;
    const fixed = JSON.parse((await cli(args)).out) as ListedPlan;
    const sent = (p: ListedPlan) =>
      new Set(p.units.filter((u) => u.kind === 'generated').map((u) => u.params.language));
    for (const l of ['it', 'pt']) {
      expect(sent(pinned).has(l), l).toBe(true);
      expect(sent(fixed).has(l), l).toBe(false);
    }
    expect(pinned.generation?.languagesFrom).toBe(
      "--languages (pinned: it, pt; the target's GetLanguages is not asked)",
    );
  });

  test(
    'says how many failed logins the run sends, and --max-failed-logins bounds the login variants (issue ' + '42)',
    async () => {
      const all = await cli([
        'run',
        '--dry-run',
        '--list-format',
        'json',
        '--operations',
        'GetMeals',
        '--examples',
        '0',
      ]);
      expect(all.code, all.err).toBe(0);
      // A second account (the embedded mock's own): 8 variants, nil on the two SOAP bindings only.
      expect((JSON.parse(all.out) as ListedPlan).failedLogins).toEqual({
        reference: 20,
        variants: 30,
        variantsAll: 30,
      });
      const bounded = await cli([
        'run',
        '--dry-run',
        '--list-format',
        'json',
        '--operations',
        'GetMeals',
        '--examples',
        '0',
        '--max-failed-logins',
        '8',
      ]);
      const plan = JSON.parse(bounded.out) as ListedPlan;
      expect(plan.failedLogins).toEqual({ reference: 20, variants: 8, variantsAll: 30, max: 8 });
      expect(plan.units.filter((u) => u.kind === 'login-variant').map((u) => u.checks)).toEqual(
        Array(8).fill(['login_rejected', 'secret_echoed']),
      );
      const text = await cli([
        'run',
        '--dry-run',
        '--operations',
        'GetMeals',
        '--examples',
        '0',
        '--max-failed-logins',
        '8',
      ]);
      expect(text.out).toContain(
        'Failed logins sent: 28 (the wrong password and its variants: 20; login variants: 8, at most 8 by '
          + '--max-failed-logins (of 30))',
      );
    },
  );

  test(
    'says how many bookings of each pool the run takes (issue 30), against those given, and that none was ' + 'given',
    async () => {
      const pools = join(tempDir('pools'), 'pools.json');
      writeFileSync(
        pools,
        JSON.stringify({ cancel: ['C1', 'C2'], amend: ['A1'], specialRequest: [1, 2, 3, 4, 5], transfers: [] }),
      );
      const at = ['--book-url', counterUrl, '--search-url', counterUrl, '--user', 'acme', '--allow-mutations'];
      const none = await cli(['run', '--dry-run', ...at]);
      expect(none.code, none.err).toBe(0);
      expect(hits).toBe(0);
      expect(none.out).toContain(
        'Bookings taken from the pools: 36 (cancel 15, amend 1, specialRequest 5, transfers 15); no pool given',
      );
      const some = await cli(['run', '--list', ...at, '--bookings', pools]);
      expect(some.out).toContain(
        'Bookings taken from the pools: 36 (cancel 15 (2 given, 13 more needed), amend 1 (1 given), '
          + 'specialRequest 5 (5 given), transfers 15 (0 given, 15 more needed))',
      );
      const json = JSON.parse(
        (await cli(['run', '--list', '--list-format', 'json', ...at, '--bookings', pools])).out,
      ) as ListedPlan;
      expect(json.bookings).toEqual({
        needed: { cancel: 15, amend: 1, specialRequest: 5, transfers: 15 },
        given: { cancel: 2, amend: 1, specialRequest: 5, transfers: 0 },
      });
      // Without --allow-mutations nothing state-changing is sent: no pool is taken from.
      expect((await cli(['run', '--list', ...at.slice(0, -1)])).out).not.toContain('Bookings taken');
    },
  );

  test('bad usage exits 2', async () => {
    expect((await cli(['run', '--list-format', 'json'])).code).toBe(2);
    expect((await cli(['run', '--list', '--list-format', 'yaml'])).err).toMatch(/--list-format must be text or json/);
  });
});

describe('run --case', () => {
  test('runs only the named cases, globs included', async () => {
    const dir = tempDir('case');
    const r = await cli([
      'run',
      '--quiet',
      '--operations',
      'GetMeals,GetThemes',
      '--case',
      'default',
      '--case',
      'wrong-*',
      '--report-dir',
      dir,
    ]);
    expect(r.code, r.err).toBe(0);
    const cases = new Set(readReport(dir).results.map((x) => `${x.operation} ${x.case}`));
    expect([...cases].sort()).toEqual([
      'GetMeals default',
      'GetMeals wrong-credentials',
      'GetMeals wrong-soapaction',
      'GetMeals wrong-user',
      'GetThemes default',
      'GetThemes wrong-credentials',
      'GetThemes wrong-soapaction',
      'GetThemes wrong-user',
    ]);
  });

  test('a case that matches nothing is bad usage, said before anything is sent, with the cases there are', async () => {
    const r = await cli([
      'run',
      '--quiet',
      '--operations',
      'GetMeals',
      '--case',
      'no-such-case',
      '--report-dir',
      tempDir('nocase'),
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--case no-such-case matches no case of this run .*its cases: default, other-language, gen-/);
    expect((await cli(['run', '--case', 'a b'])).err).toMatch(/--case "a b": a case id is/);
  });
});

describe('the re-run command of a failed row', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, faults: ['soap12-drops-list-item', 'missing-required-element'] });
  });
  afterAll(() => mock?.close());

  test('pasted into a shell, it reproduces exactly that row (and nothing else fails)', async () => {
    const dir = tempDir('rerun-full');
    const full = await cli(
      [
        'run',
        ...mockTarget(mock.url).filter((a) => a !== '--password' && a !== 'mock-password'),
        '--operations',
        'GetMeals,GetThemes',
        '--report-dir',
        dir,
      ],
      { CONFORMANCE_PASSWORD: 'mock-password' },
    );
    expect(full.code, full.err).toBe(1);
    const report = readReport(dir);
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
    // A generated case's comparison across bindings, and one binding's check of a hand-written case.
    const picks = [
      report.results.find(
        (x) => x.status === 'failed' && x.check === 'binding_equivalence' && x.case.startsWith('gen-'),
      )!,
      report.results.find((x) => x.status === 'failed' && x.check !== 'binding_equivalence' && x.case === 'default')!,
    ];
    for (const row of picks) {
      expect(row, 'a failed row to re-run').toBeDefined();
      const unescapeHtml = (s: string) =>
        s
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&');
      const fromHtml = [...html.matchAll(/<div class="repro rerun">.*?<code>(.*?)<\/code>/g)].map((m) =>
        unescapeHtml(m[1]!),
      );
      const fromMd = [...md.matchAll(/Re-run just this \(case `[^`]+`\):\n\n```sh\n(.*)\n```/g)].map((m) => m[1]!);
      const forRow = (c: string) =>
        c.includes(`--case ${row.case} `)
        && c.includes(`--operations ${row.operation} `)
        && (row.check === 'binding_equivalence'
          ? c.includes('--bindings soap11,soap12,get,post')
          : c.includes(`--bindings ${row.binding} `));
      const command = fromHtml.find(forRow);
      expect(
        command,
        `conformance.html gives ${row.operation} ${row.binding} ${row.case} a re-run command`,
      ).toBeDefined();
      // conformance.md lists defects: each gives the command of its first hand-written case.
      if (!row.case.startsWith('gen-')) expect(fromMd).toContain(command);
      expect(command).toMatch(
        /^npx conformance run --book-url http:\/\/127\.0\.0\.1:\d+ .*--seed 16 --examples \d+ (--languages [a-z,]+ )?--report-dir \S+\/rerun-[a-z0-9.-]+$/,
      );
      const again = tempDir('rerun-one');
      // Asynchronously: the mock answers from this process.
      const sh = await shell(`${command} --quiet --report-dir ${again}`);
      expect(sh.status, sh.stderr).toBe(1);
      const rerun = readReport(again);
      const failed = rerun.results.filter((x) => x.status === 'failed');
      expect(failed.map(rowKey)).toContain(rowKey(row));
      expect(new Set(failed.map((x) => `${x.operation} ${x.case}`))).toEqual(new Set([`${row.operation} ${row.case}`]));
      const same = failed.find((x) => rowKey(x) === rowKey(row))!;
      expect(same.message).toBe(row.message);
    }
  }, 240_000);
});
