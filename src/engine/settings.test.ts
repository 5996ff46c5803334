/**
 * Issue 31 section 5: every setting of `run` has an environment form (RUN_ENV), so that what has
 * no flags (the vitest suites, a CI job) runs exactly what `run` would; a config file may be named
 * by CONFORMANCE_CONFIG, and a bad value names the variable it came from. The re-run basis a report
 * keeps of those settings: ./rerun-basis.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../core/errors.js';
import { resolveRunSettingsFlags, RUN_ENV, RUN_OPTIONS, type RunSettings } from './settings.js';

const dir = mkdtempSync(join(tmpdir(), 'settings-env-'));
const file = (name: string, json: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof json === 'string' ? json : JSON.stringify(json));
  return p;
};
const target = {
  CONFORMANCE_BOOK_URL: 'http://127.0.0.1:9',
  CONFORMANCE_SEARCH_URL: 'http://127.0.0.1:9',
  CONFORMANCE_USER: 'u',
  CONFORMANCE_PASSWORD: 'p',
};
const resolve = (env: NodeJS.ProcessEnv, flags: Parameters<typeof resolveRunSettingsFlags>[0] = {}) =>
  resolveRunSettingsFlags(flags, env);

describe('every run setting from the environment', () => {
  test("each flag that is a setting has a variable, and the command's own switches have none", () => {
    const own = ['quiet', 'update-expectations', 'shard', 'case', 'list', 'dry-run', 'list-format', 'help'];
    const settings = Object.keys(RUN_OPTIONS).filter((f) => !own.includes(f));
    expect(Object.keys(RUN_ENV).sort()).toEqual(settings.sort());
  });

  const cases: [string, string, (s: RunSettings) => unknown, unknown][] = [
    ['CONFORMANCE_ALLOW_MUTATIONS', 'true', (s) => s.allowMutations, true],
    ['CONFORMANCE_MAX_RPS', '7', (s) => s.maxRps, 7],
    ['CONFORMANCE_BINDINGS', 'soap11,get', (s) => s.bindings, ['soap11', 'get']],
    ['CONFORMANCE_OPERATIONS', 'GetMeals', (s) => s.operations.map((o) => o.name), ['GetMeals']],
    ['CONFORMANCE_CONCURRENCY', '3', (s) => s.concurrency, 3],
    ['CONFORMANCE_TIMEOUT', '1234', (s) => s.timeoutMs, 1234],
    ['CONFORMANCE_DEADLINE', '60000', (s) => s.deadlineMs, 60000],
    ['CONFORMANCE_MAX_BODY_BYTES', '4096', (s) => s.maxBodyBytes, 4096],
    ['CONFORMANCE_MAX_FAILURES', '9', (s) => s.maxFailures, 9],
    ['CONFORMANCE_MAX_FAILED_LOGINS', '12', (s) => s.maxFailedLogins, 12],
    ['CONFORMANCE_GIVE_UP_AFTER', '0', (s) => s.giveUpAfter, 0],
    ['CONFORMANCE_INSECURE_TLS', '1', (s) => s.insecureTls, true],
    ['CONFORMANCE_REPORT_DIR', join(dir, 'out'), (s) => s.reportDir, join(dir, 'out')],
    ['CONFORMANCE_CHECKS', 'shape,status_code', (s) => s.checks, ['shape', 'status_code']],
    ['CONFORMANCE_SKIP_CHECKS', 'shape', (s) => s.skipChecks, ['shape']],
    ['CONFORMANCE_NEGATIVE', 'false', (s) => s.negative, false],
    ['CONFORMANCE_EQUIVALENCE', 'no', (s) => s.equivalence, false],
    ['CONFORMANCE_SEED', '99', (s) => s.seed, 99],
    ['CONFORMANCE_EXAMPLES', '0', (s) => s.examples, 0],
    [
      'CONFORMANCE_LANGUAGES',
      'de, sv',
      (s) => s.languages,
      { values: ['de', 'sv'], source: 'environment variable CONFORMANCE_LANGUAGES' },
    ],
  ];
  test.for(cases)('%s=%s', ([name, value, pick, want]) => {
    expect(pick(resolve({ ...target, [name]: value }))).toEqual(want);
  });

  test('flags beat the environment, the environment beats the config file', () => {
    const config = file('mut.json', { allowMutations: false, maxRps: 3 });
    const s = resolve({
      ...target,
      CONFORMANCE_CONFIG: config,
      CONFORMANCE_ALLOW_MUTATIONS: 'true',
      CONFORMANCE_MAX_RPS: '9',
    });
    expect([s.allowMutations, s.maxRps]).toEqual([true, 9]);
    expect(resolve({ ...target, CONFORMANCE_MAX_RPS: '9' }, { 'max-rps': '4' }).maxRps).toBe(4);
    expect(resolve({ ...target, CONFORMANCE_NEGATIVE: 'true' }, { 'no-negative': true }).negative).toBe(false);
    // --max-failed-logins (issue 42): flag, then variable, then the config's maxFailedLogins; absent: all the variants.
    const logins = file('logins.json', { maxFailedLogins: 30 });
    expect(resolve({ ...target, CONFORMANCE_CONFIG: logins }).maxFailedLogins).toBe(30);
    expect(
      resolve({ ...target, CONFORMANCE_CONFIG: logins, CONFORMANCE_MAX_FAILED_LOGINS: '20' }).maxFailedLogins,
    ).toBe(20);
    expect(
      resolve(
        { ...target, CONFORMANCE_CONFIG: logins, CONFORMANCE_MAX_FAILED_LOGINS: '20' },
        { 'max-failed-logins': '10' },
      ).maxFailedLogins,
    ).toBe(10);
    expect(resolve(target).maxFailedLogins).toBeUndefined();
    expect(() => resolve({ ...target, CONFORMANCE_MAX_FAILED_LOGINS: 'few' })).toThrow(
      /environment variable CONFORMANCE_MAX_FAILED_LOGINS must be a whole number/,
    );
  });

  test('a bad value names its variable: exit 2', () => {
    expect(() => resolve({ ...target, CONFORMANCE_ALLOW_MUTATIONS: 'maybe' })).toThrow(UsageError);
    expect(() => resolve({ ...target, CONFORMANCE_ALLOW_MUTATIONS: 'maybe' })).toThrow(
      /environment variable CONFORMANCE_ALLOW_MUTATIONS must be true or false \(got "maybe"\)/,
    );
    expect(() => resolve({ ...target, CONFORMANCE_MAX_RPS: 'fast' })).toThrow(
      /environment variable CONFORMANCE_MAX_RPS must be a whole number/,
    );
    expect(() => resolve({ ...target, CONFORMANCE_BINDINGS: 'soap13' })).toThrow(
      /environment variable CONFORMANCE_BINDINGS names an unknown binding "soap13"/,
    );
  });
});

describe('CONFORMANCE_CONFIG', () => {
  test('names the config file (its target included); --config wins over it', () => {
    const a = file('a.json', {
      target: { bookUrl: 'http://127.0.0.1:1', searchUrl: 'http://127.0.0.1:1', user: 'ua' },
    });
    const b = file('b.json', {
      target: { bookUrl: 'http://127.0.0.1:2', searchUrl: 'http://127.0.0.1:2', user: 'ub' },
    });
    const s = resolve({ CONFORMANCE_CONFIG: a, CONFORMANCE_PASSWORD: 'p' });
    expect([s.bookUrl, s.user, s.configFile]).toEqual(['http://127.0.0.1:1', 'ua', a]);
    expect(resolve({ CONFORMANCE_CONFIG: a, CONFORMANCE_PASSWORD: 'p' }, { config: b }).user).toBe('ub');
  });

  test('a problem in the file names the variable that named it: exit 2', () => {
    const broken = file('broken.json', '{ "target": ');
    expect(() => resolve({ CONFORMANCE_CONFIG: broken })).toThrow(ConfigError);
    expect(() => resolve({ CONFORMANCE_CONFIG: broken })).toThrow(
      `config file ${broken} (environment variable CONFORMANCE_CONFIG) is not valid JSON`,
    );
    expect(() => resolve({ CONFORMANCE_CONFIG: join(dir, 'missing.json') })).toThrow(
      /cannot read config file .*missing\.json \(environment variable CONFORMANCE_CONFIG\): ENOENT/,
    );
    const badValue = file('bad-value.json', { maxRps: 0 });
    expect(() => resolve({ ...target, CONFORMANCE_CONFIG: badValue })).toThrow(
      /config file .*bad-value\.json \(environment variable CONFORMANCE_CONFIG\): maxRps/,
    );
  });
});

describe('docs/cli.md', () => {
  test('its table of variables names every one of RUN_ENV', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const from = text.indexOf('### Every setting from the environment');
    expect(from).toBeGreaterThan(0);
    const section = text.slice(from, text.indexOf('\n### ', from + 1));
    for (const [flag, variable] of Object.entries(RUN_ENV)) {
      const stem = variable.replace(/^CONFORMANCE_(BOOK|SEARCH|TRANSFERS)_(HTTP_)?PATH$/, 'CONFORMANCE_BOOK_$2PATH');
      expect(section, `--${flag}`).toContain(stem);
    }
  });
});

describe('operations the settings forbid calling (issue 40 section 5)', () => {
  // A state-changing operation named without --allow-mutations, against a target other than the
  // embedded mock: the user's own setting, a usage error before anything is sent, naming where the
  // list came from and how to fix it. Before, the run sent the rest and failed the target with
  // `operation_not_called` in every report.
  const fix =
    /which changes state on the target: not called without --allow-mutations .*add --allow-mutations \(or CONFORMANCE_ALLOW_MUTATIONS=true, or "allowMutations": true in the config file\).* or drop CancelBooking from /;
  const refusal = (f: () => unknown): Error => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error('not refused');
  };

  test('--operations: a usage error naming the operation, the flag and the fix', () => {
    const e = refusal(() => resolve(target, { operations: 'GetMeals,CancelBooking' }));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toMatch(/^--operations names CancelBooking, /);
    expect(e.message).toMatch(fix);
    expect(e.message).toMatch(/drop CancelBooking from --operations$/);
  });

  test(
    "CONFORMANCE_OPERATIONS (the vitest suites' path): the same, naming the variable; every forbidden one " + 'named',
    () => {
      const e = refusal(() =>
        resolve({ ...target, CONFORMANCE_OPERATIONS: 'GetMeals,CancelBooking,AmendmentRequest' }),
      );
      expect(e).toBeInstanceOf(UsageError);
      expect(e.message).toMatch(
        /^environment variable CONFORMANCE_OPERATIONS names CancelBooking, AmendmentRequest, which change state on the target: /,
      );
      expect(e.message).toMatch(
        /drop CancelBooking, AmendmentRequest from environment variable CONFORMANCE_OPERATIONS$/,
      );
    },
  );

  test("the config file's `operations`: a config error naming the file and the key", () => {
    const config = file('ops.json', { operations: ['CancelBooking'] });
    const e = refusal(() => resolve({ ...target, CONFORMANCE_CONFIG: config }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toContain(
      `config file ${config} (environment variable CONFORMANCE_CONFIG): operations names CancelBooking, `
        + `which changes state`,
    );
    expect(e.message).toMatch(fix);
  });

  test(
    'allowed: with mutations allowed (flag, variable), on the embedded mock, when only reads are named, '
      + 'when nothing is named, or when nothing is called (--dry-run, drift)',
    () => {
      const named = (s: RunSettings) => s.operations.map((o) => o.name);
      expect(named(resolve(target, { operations: 'GetMeals,CancelBooking', 'allow-mutations': true }))).toEqual([
        'GetMeals',
        'CancelBooking',
      ]);
      expect(
        named(resolve({ ...target, CONFORMANCE_ALLOW_MUTATIONS: 'true', CONFORMANCE_OPERATIONS: 'CancelBooking' })),
      ).toEqual(['CancelBooking']);
      // The embedded mock allows mutations: its bookings are its own.
      const embedded = resolve({}, { operations: 'GetMeals,CancelBooking' });
      expect([embedded.embedded, named(embedded)]).toEqual([true, ['GetMeals', 'CancelBooking']]);
      expect(named(resolve(target, { operations: 'GetMeals' }))).toEqual(['GetMeals']);
      expect(resolve(target).operations.some((o) => o.mutates)).toBe(true);
      expect(named(resolve(target, { operations: 'CancelBooking', 'dry-run': true }))).toEqual(['CancelBooking']);
      expect(named(resolveRunSettingsFlags({ operations: 'CancelBooking' }, target, false))).toEqual(['CancelBooking']);
      // Named, then skipped by --skip-operations: not named for the run.
      expect(
        named(resolve(target, { operations: 'GetMeals,CancelBooking', 'skip-operations': 'CancelBooking' })),
      ).toEqual(['GetMeals']);
    },
  );
});
