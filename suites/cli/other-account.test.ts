/**
 * Issue 33 part 3: the second account's settings. `--other-user`, CONFORMANCE_OTHER_USER and
 * target.otherUser each give it (flags > environment > config), its password from
 * CONFORMANCE_OTHER_PASSWORD or the variable target.otherPasswordEnv names (the library's
 * target.otherPassword too), never from a flag or a file. Each bad setting is an error naming its
 * source (exit 2); the embedded mock has one built in; the reports, the console and the re-run
 * commands give its user name and never its password.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../../src/core/errors.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { findSecret, readTree, REPO_ROOT } from '../../test/support/processes.js';
import { htmlCommands } from '../../test/support/rerun.js';
import { rerunCommand } from '../../src/report/rerun.js';
import type { RunReport } from '../../src/core/types.js';
import { validateReport } from '../../src/schema/json.js';
import {
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  resolveRunSettings,
  resolveRunSettingsObject,
} from '../../src/cli/config.js';
import {
  DEFAULT_OTHER_PASSWORD as MOCK_OTHER_PASSWORD,
  DEFAULT_OTHER_USER as MOCK_OTHER_USER,
} from '../../src/mock/core.js';

const dir = tempDir('other-account');
function file(name: string, json: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(json));
  return p;
}
const remote = ['--book-url', 'https://b.example', '--search-url', 'https://s.example', '--user', 'acme'];
const pw = { CONFORMANCE_PASSWORD: 'first-pw' };
/** A remote target in a config file, with target extras. */
const config = (target: Record<string, unknown>) =>
  file(`t-${Math.random()}.json`, {
    target: { bookUrl: 'https://b.example', searchUrl: 'https://s.example', user: 'acme', ...target },
  });

describe('where the second account comes from', () => {
  test('--other-user, its password in CONFORMANCE_OTHER_PASSWORD', () => {
    const s = resolveRunSettings([...remote, '--other-user', 'acme-2'], {
      ...pw,
      CONFORMANCE_OTHER_PASSWORD: 'other-pw',
    });
    expect(s.other).toEqual({ user: 'acme-2', password: 'other-pw', passwordVar: 'CONFORMANCE_OTHER_PASSWORD' });
    expect(s.warnings).toEqual([]);
  });
  test('CONFORMANCE_OTHER_USER', () => {
    const s = resolveRunSettings(remote, {
      ...pw,
      CONFORMANCE_OTHER_USER: 'acme-env',
      CONFORMANCE_OTHER_PASSWORD: 'other-pw',
    });
    expect(s.other).toEqual({ user: 'acme-env', password: 'other-pw', passwordVar: 'CONFORMANCE_OTHER_PASSWORD' });
  });
  test('target.otherUser, its password in the variable target.otherPasswordEnv names', () => {
    const s = resolveRunSettings(['--config', config({ otherUser: 'acme-file', otherPasswordEnv: 'ACME_OTHER_PW' })], {
      ...pw,
      ACME_OTHER_PW: 'file-pw',
    });
    expect(s.other).toEqual({ user: 'acme-file', password: 'file-pw', passwordVar: 'ACME_OTHER_PW' });
    // Where each came from, for a message about its login (engine/other-login.ts).
    expect(s.sources).toMatchObject({
      otherUser: expect.stringMatching(/^config file .*: target\.otherUser$/),
      otherPassword: expect.stringMatching(
        /^environment variable ACME_OTHER_PW \(named by config file .*: target\.otherPasswordEnv\)$/,
      ),
    });
    expect(
      resolveRunSettings([...remote, '--other-user', 'acme-2'], { ...pw, CONFORMANCE_OTHER_PASSWORD: 'o' }).sources,
    ).toMatchObject({ otherUser: '--other-user', otherPassword: 'environment variable CONFORMANCE_OTHER_PASSWORD' });
  });
  test('flags beat the environment, the environment beats the config file', () => {
    const cfg = config({ otherUser: 'from-file' });
    const env = { ...pw, CONFORMANCE_OTHER_PASSWORD: 'o' };
    expect(
      resolveRunSettings(['--config', cfg, '--other-user', 'from-flag'], { ...env, CONFORMANCE_OTHER_USER: 'from-env' })
        .other?.user,
    ).toBe('from-flag');
    expect(resolveRunSettings(['--config', cfg], { ...env, CONFORMANCE_OTHER_USER: 'from-env' }).other?.user).toBe(
      'from-env',
    );
    expect(resolveRunSettings(['--config', cfg], env).other?.user).toBe('from-file');
  });
  test(
    "the config's variable beats a stray CONFORMANCE_OTHER_PASSWORD, with a warning naming both and no " + 'value',
    () => {
      const cfg = config({ otherUser: 'acme-2', otherPasswordEnv: 'ACME_OTHER_PW' });
      const s = resolveRunSettings(['--config', cfg], {
        ...pw,
        ACME_OTHER_PW: 'Right-0ther',
        CONFORMANCE_OTHER_PASSWORD: 'Stray-0ther',
      });
      expect(s.other).toMatchObject({ password: 'Right-0ther', passwordVar: 'ACME_OTHER_PW' });
      expect(s.warnings).toEqual([
        expect.stringMatching(
          /^two different passwords of the second account are given: the one from environment variable ACME_OTHER_PW \(named by config file .*: target\.otherPasswordEnv\) is used, the one in environment variable CONFORMANCE_OTHER_PASSWORD is not/,
        ),
      ]);
      expect(s.warnings!.join()).not.toMatch(/Right-0ther|Stray-0ther/);
    },
  );
  test('the library: target.otherPassword is accepted (a program holds it), and named as such', () => {
    const s = resolveRunSettingsObject(
      {
        target: {
          bookUrl: 'http://b',
          searchUrl: 'http://s',
          user: 'u',
          password: 'a',
          otherUser: 'v',
          otherPassword: 'lib-pw',
        },
      },
      {},
      'runConformance settings',
    );
    expect(s.other).toEqual({ user: 'v', password: 'lib-pw' });
    const t = resolveRunSettingsObject(
      {
        target: {
          bookUrl: 'http://b',
          searchUrl: 'http://s',
          user: 'u',
          password: 'a',
          otherUser: 'v',
          otherPasswordEnv: 'V_PW',
        },
      },
      { V_PW: 'env-pw' },
      'runConformance settings',
    );
    expect(t.other).toEqual({ user: 'v', password: 'env-pw', passwordVar: 'V_PW' });
  });
  test('the embedded mock has a second account built in; one given takes its place', () => {
    expect(resolveRunSettings([], {}).other).toEqual({ user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD });
    expect([DEFAULT_OTHER_USER, DEFAULT_OTHER_PASSWORD]).toEqual(['mock-other', 'mock-other-password']);
    // The embedded mock's own second account (src/mock/core.ts): the settings name the same one.
    expect([DEFAULT_OTHER_USER, DEFAULT_OTHER_PASSWORD]).toEqual([MOCK_OTHER_USER, MOCK_OTHER_PASSWORD]);
    expect(resolveRunSettings(['--other-user', 'x2'], { CONFORMANCE_OTHER_PASSWORD: 'x2-pw' }).other).toEqual({
      user: 'x2',
      password: 'x2-pw',
      passwordVar: 'CONFORMANCE_OTHER_PASSWORD',
    });
  });
  test('no second account for a real target unless one is named', () => {
    expect(resolveRunSettings(remote, pw).other).toBeUndefined();
  });
});

describe('a bad second account is an error naming its source (exit 2)', () => {
  const usage: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    [
      '--other-user with no password',
      [...remote, '--other-user', 'acme-2'],
      pw,
      /^--other-user is given but CONFORMANCE_OTHER_PASSWORD is not set/,
    ],
    [
      'CONFORMANCE_OTHER_USER with no password',
      remote,
      { ...pw, CONFORMANCE_OTHER_USER: 'acme-2' },
      /^environment variable CONFORMANCE_OTHER_USER is given but CONFORMANCE_OTHER_PASSWORD is not set/,
    ],
    [
      'an empty CONFORMANCE_OTHER_PASSWORD',
      [...remote, '--other-user', 'acme-2'],
      { ...pw, CONFORMANCE_OTHER_PASSWORD: '' },
      /CONFORMANCE_OTHER_PASSWORD is not set \(or it is empty\)/,
    ],
    [
      'the first user again',
      [...remote, '--other-user', 'acme'],
      { ...pw, CONFORMANCE_OTHER_PASSWORD: 'o' },
      /^--other-user names the same account as the first user \("acme", from --user\)/,
    ],
    [
      'the first user in other letter case',
      [...remote, '--other-user', 'ACME'],
      { ...pw, CONFORMANCE_OTHER_PASSWORD: 'o' },
      /^--other-user names the same account as the first user/,
    ],
    [
      "the mock's first user as the second",
      ['--other-user', 'mock-user'],
      {},
      /^--other-user names the same account as the first user \("mock-user", from the embedded mock's default\)/,
    ],
    ['an empty --other-user', [...remote, '--other-user', ''], pw, /^--other-user must be a non-empty string/],
  ];
  test.each(usage)('%s', (_what, argv, env, message) => {
    expect(() => resolveRunSettings(argv, env)).toThrow(UsageError);
    expect(() => resolveRunSettings(argv, env)).toThrow(message);
  });

  const files: [string, Record<string, unknown>, NodeJS.ProcessEnv, RegExp][] = [
    [
      'target.otherUser with no password',
      { otherUser: 'acme-2' },
      pw,
      /config file .*: target\.otherUser is given but CONFORMANCE_OTHER_PASSWORD is not set/,
    ],
    [
      'target.otherUser whose named variable is unset',
      { otherUser: 'acme-2', otherPasswordEnv: 'ACME_OTHER_PW' },
      pw,
      /config file .*: target\.otherUser is given but neither ACME_OTHER_PW \(named by config file .*: target\.otherPasswordEnv\) nor CONFORMANCE_OTHER_PASSWORD is set/,
    ],
    [
      'target.otherPasswordEnv not a variable name',
      { otherUser: 'acme-2', otherPasswordEnv: 'ACME-OTHER PW' },
      pw,
      /config file .*: target\.otherPasswordEnv must name an environment variable \(letters, digits, _; got "ACME-OTHER PW"\)/,
    ],
    [
      'target.otherPassword in a file',
      { otherUser: 'acme-2', otherPassword: 'x' },
      pw,
      /config file .*: target\.otherPassword is not accepted in a file \(files get committed\); use CONFORMANCE_OTHER_PASSWORD/,
    ],
    [
      'an empty target.otherUser',
      { otherUser: '' },
      pw,
      /config file .*: target\.otherUser must be a non-empty string/,
    ],
    [
      'target.otherUser the first user',
      { otherUser: 'acme' },
      { ...pw, CONFORMANCE_OTHER_PASSWORD: 'o' },
      /: target\.otherUser names the same account as the first user \("acme", from config file .*: target\.user\)/,
    ],
  ];
  test.each(files)('%s: a ConfigError naming the key and the file', (_what, target, env, message) => {
    const p = config(target);
    expect(() => resolveRunSettings(['--config', p], env)).toThrow(ConfigError);
    expect(() => resolveRunSettings(['--config', p], env)).toThrow(message);
  });

  test('the library says it in its own words, as ConfigErrors', () => {
    const lib =
      (target: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
      () =>
        resolveRunSettingsObject(
          { target: { bookUrl: 'http://b', searchUrl: 'http://s', user: 'u', password: 'a', ...target } },
          env,
          'runConformance settings',
        );
    expect(lib({ otherUser: 'v' })).toThrow(ConfigError);
    expect(lib({ otherUser: 'v' })).toThrow(
      /^runConformance settings: target\.otherUser is given but no password for it: give target\.otherPassword, or target\.otherPasswordEnv/,
    );
    expect(lib({ otherUser: 'v', otherPassword: '' })).toThrow(
      /^runConformance settings: target\.otherPassword must be a non-empty string/,
    );
    expect(lib({ otherUser: 'v', otherPassword: 7 })).toThrow(ConfigError);
  });

  test('the command exits 2 with the message', async () => {
    const r = await cli(['run', ...remote, '--other-user', 'acme-2'], pw);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--other-user is given but CONFORMANCE_OTHER_PASSWORD is not set/);
  });
});

describe('a password with no second account named: a warning, and the run goes on', () => {
  test('a real target: it is not used, and authorization is not tested', () => {
    const s = resolveRunSettings(remote, { ...pw, CONFORMANCE_OTHER_PASSWORD: 'Unused-0ther' });
    expect(s.other).toBeUndefined();
    expect(s.warnings).toEqual([
      expect.stringMatching(
        /^environment variable CONFORMANCE_OTHER_PASSWORD gives a second account's password, but no second account is named \(--other-user, CONFORMANCE_OTHER_USER or target\.otherUser\): it is not used, and authorization across accounts is not tested$/,
      ),
    ]);
    expect(s.warnings!.join()).not.toContain('Unused-0ther');
  });
  test('target.otherPasswordEnv alone names its key', () => {
    const s = resolveRunSettings(['--config', config({ otherPasswordEnv: 'ACME_OTHER_PW' })], pw);
    expect(s.warnings).toEqual([
      expect.stringMatching(
        /: target\.otherPasswordEnv names ACME_OTHER_PW for a second account's password, but no second account is named/,
      ),
    ]);
  });
  test('the embedded mock: its own second account, whatever the variable', () => {
    const s = resolveRunSettings([], { CONFORMANCE_OTHER_PASSWORD: 'x' });
    expect(s.other).toEqual({ user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD });
    expect(s.warnings).toEqual([
      expect.stringMatching(/it is not used; the embedded mock's own second account \(mock-other\) is$/),
    ]);
  });
});

describe('--dry-run says whether a second account is given', () => {
  test(
    'its user name, or that authorization will not be tested and how to enable it; no password needed to ' + 'list',
    async () => {
      const given = await cli(
        ['run', ...remote, '--other-user', 'acme-2', '--dry-run', '--operations', 'GetMeals'],
        pw,
      );
      expect(given.code, given.err).toBe(0);
      expect(given.out).toMatch(/^Second account: acme-2 \(/m);
      const none = await cli(['run', ...remote, '--dry-run', '--operations', 'GetMeals'], pw);
      expect(none.out).toMatch(
        /^Second account: none: authorization across accounts will not be tested \(name one with --other-user NAME, its password in CONFORMANCE_OTHER_PASSWORD/m,
      );
      const embedded = await cli(['run', '--list', '--list-format', 'json', '--operations', 'GetMeals'], {});
      expect(JSON.parse(embedded.out)).toMatchObject({ otherUser: 'mock-other' });
      expect(embedded.out).not.toContain(DEFAULT_OTHER_PASSWORD);
    },
  );
});

describe('reports and re-run commands: the user name, never the password', () => {
  const SECRET = 'Oth3r "pw\' <&> %+é';
  const VAR = 'H33_OTHER_SECRET';
  let mock: RunningMock;
  let out: string;
  let report: RunReport;
  let result: Awaited<ReturnType<typeof cli>>;
  beforeAll(async () => {
    mock = await startMock({ port: 0, faults: ['missing-required-element'] });
    const cfg = file('with-other.json', {
      target: {
        bookUrl: mock.url,
        searchUrl: mock.url,
        user: 'mock-user',
        otherUser: 'agency-two',
        otherPasswordEnv: VAR,
      },
    });
    out = tempDir('other-account-run');
    result = await cli(
      [
        'run',
        '--config',
        cfg,
        '--operations',
        'GetMeals',
        '--bindings',
        'soap11,get',
        '--examples',
        '0',
        '--max-rps',
        '100000',
        '--report-dir',
        out,
      ],
      { CONFORMANCE_PASSWORD: 'mock-password', [VAR]: SECRET },
    );
    report = readReport(out);
  }, 60_000);
  afterAll(() => mock?.close());

  test('conformance.json names the second account and its variable', () => {
    expect(result.code, result.err).toBe(1);
    expect(report.target.otherUser).toBe('agency-two');
    expect(report.otherPasswordVariable).toBe(VAR);
    // The schema knows both, and still refuses a second account's password in the target.
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
    expect(validateReport({ ...report, target: { ...report.target, otherPassword: SECRET } }).join()).toMatch(
      /otherPassword/,
    );
  });
  test('the password is in no report file and not on the console, in any spelling', () => {
    const files = readTree(out).map((f) => ({ name: f.path, bytes: f.bytes }));
    expect(files.length).toBeGreaterThan(3);
    expect(
      findSecret(SECRET, [...files, { name: 'stdout', bytes: result.out }, { name: 'stderr', bytes: result.err }]),
    ).toEqual([]);
  });
  test('each re-run command carries --other-user and reads the password from the variable again', () => {
    const commands = htmlCommands(out);
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) {
      expect(c).toContain(' --other-user agency-two ');
      expect(c).toMatch(new RegExp(`^CONFORMANCE_OTHER_PASSWORD="\\$${VAR}" `));
      expect(findSecret(SECRET, [{ name: 'command', bytes: c }])).toEqual([]);
    }
    // Pasted in a shell that has the run's variable, it gives the second account back.
    const sh = spawnSync('sh', ['-c', `npx() { printf '%s\\0' "$CONFORMANCE_OTHER_PASSWORD" "$@"; }; ${commands[0]}`], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, [VAR]: SECRET },
      encoding: 'utf8',
    });
    const [password, ...argv] = sh.stdout.split('\0').slice(0, -1);
    expect(password).toBe(SECRET);
    const s = resolveRunSettings(argv.slice(2), {
      CONFORMANCE_PASSWORD: 'mock-password',
      CONFORMANCE_OTHER_PASSWORD: password,
    });
    expect(s.other).toMatchObject({ user: 'agency-two', password: SECRET });
  });
  test(
    'a report whose password came from CONFORMANCE_OTHER_PASSWORD needs no assignment; an embedded one no ' + 'flag',
    () => {
      const row = report.results.find((r) => r.status === 'failed')!;
      const { otherPasswordVariable: _, ...plain } = report;
      expect(rerunCommand({ ...plain, otherPasswordVariable: 'CONFORMANCE_OTHER_PASSWORD' }, row)).not.toContain(
        'CONFORMANCE_OTHER_PASSWORD=',
      );
      expect(rerunCommand({ ...plain, otherPasswordVariable: 'CONFORMANCE_OTHER_PASSWORD' }, row)).toContain(
        '--other-user agency-two',
      );
      const embedded = rerunCommand(
        { ...report, target: { ...report.target, embedded: true, otherUser: 'mock-other' } },
        row,
      );
      expect(embedded).not.toContain('--other-user');
      expect(embedded).not.toContain('OTHER_PASSWORD');
      const { otherUser: __, ...noOther } = report.target;
      expect(rerunCommand({ ...plain, target: noOther }, row)).not.toContain('--other-user');
    },
  );
});

describe('a wrong password of the second account (issue 40): never green', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  }, 60_000);
  afterAll(() => mock?.close());
  /**
   * A run of CancelTransferBooking (its foreign-account family) against the mock, the second account's password
   * `other`.
   */
  async function run(other: string) {
    const dir = tempDir('other-login');
    const transfers = Array.from({ length: 40 }, (_, i) => ({
      id: `TR-${Math.random().toString(36).slice(2)}-${i}`,
      email: `c${i}@example.com`,
    }));
    const r = await cli(
      [
        'run',
        '--book-url',
        mock.url,
        '--search-url',
        mock.url,
        '--user',
        'mock-user',
        '--other-user',
        MOCK_OTHER_USER,
        '--operations',
        'CancelTransferBooking',
        '--allow-mutations',
        '--bookings',
        file(`pools-${Math.random()}.json`, { transfers }),
        '--examples',
        '0',
        '--max-rps',
        '100000',
        '--report-dir',
        dir,
      ],
      { CONFORMANCE_PASSWORD: 'mock-password', CONFORMANCE_OTHER_PASSWORD: other },
    );
    return { ...r, dir, report: readReport(dir) };
  }

  test('exit 5, UNTESTED, the refused login said first on the console and in every report, naming where the '
    + 'password came from', async () => {
    const r = await run('Wr0ng-0ther');
    expect(r.code, r.err).toBe(5);
    expect(r.out).toMatch(
      /^Verdict: UNTESTED \(exit 5\): the second account's login was refused: GetLanguages with the credentials of mock-other was refused as a wrong login .*check its password \(from environment variable CONFORMANCE_OTHER_PASSWORD\) and its user name \(from --other-user\)/m,
    );
    expect(r.report).toMatchObject({ verdict: 'UNTESTED', exitCode: 5 });
    expect(r.report.diagnosis![0]!.code).toBe('other_login_refused');
    expect(r.report.results.filter((x) => x.case === 'seq-foreign-account-transfer' && x.status !== 'skipped')).toEqual(
      [],
    );
    // Every report file says it; none holds the password.
    const files = readTree(r.dir).filter((f) => /\.(md|html|xml|json)$/.test(f.path) && !f.path.includes('vitest'));
    const reports = files.filter((x) => /conformance\.(json|md|html)|junit/.test(x.path));
    expect(reports.map((f) => f.path.replace(/^.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'conformance.md']),
    );
    expect(reports.some((f) => /junit/.test(f.path))).toBe(true);
    for (const f of reports)
      expect(f.bytes.toString('utf8'), f.path).toMatch(/second account(?:&#39;|&#x27;|')s login was refused/);
    expect(
      findSecret(
        'Wr0ng-0ther',
        files.map((f) => ({ name: f.path, bytes: f.bytes })),
      ),
    ).toEqual([]);
  }, 120_000);

  test('the right password: its login proven, the run passes as before', async () => {
    const r = await run(MOCK_OTHER_PASSWORD);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.report.results.filter((x) => x.check === 'account_login').map((x) => x.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
    ]);
    expect(r.report.results.filter((x) => x.case === 'seq-foreign-account-transfer').map((x) => x.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
    ]);
  }, 120_000);
});
