import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../core/errors.js';
import { BINDINGS, DEFAULT_NAMESPACES, DEFAULT_PATHS, OPERATIONS } from '../contract/catalogue.js';
import { CHECK_GROUPS, CHECK_NAMES } from '../checks/registry.js';
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from '../engine/generate.js';
import { validateJson } from '../schema/json.js';
import { CONFIG_SCHEMA_URL, resolveRunSettings, resolveRunSettingsObject } from './config.js';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'conf-config-'));
function file(name: string, json: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof json === 'string' ? json : JSON.stringify(json));
  return p;
}
const remote = ['--book-url', 'https://b.example/', '--search-url', 'https://s.example', '--user', 'acme'];

describe('run settings', () => {
  test('no target: the embedded mock with its credentials and namespaces', () => {
    const s = resolveRunSettings([], {});
    expect(s).toMatchObject({
      embedded: true,
      user: 'mock-user',
      password: 'mock-password',
      namespaces: DEFAULT_NAMESPACES,
      concurrency: 16,
      allowMutations: false,
    });
    expect(s.operations).toHaveLength(14);
    expect(s.bindings).toEqual(['soap11', 'soap12', 'get', 'post']);
  });
  test(
    'a remote target: trailing slash dropped, transfers default to search, gentle defaults, password from '
      + 'the environment',
    () => {
      const s = resolveRunSettings(remote, { CONFORMANCE_PASSWORD: 'pw' });
      expect(s).toMatchObject({
        embedded: false,
        bookUrl: 'https://b.example',
        searchUrl: 'https://s.example',
        transfersUrl: 'https://s.example',
        password: 'pw',
        concurrency: 4,
        maxRps: 20,
      });
    },
  );
  test('precedence: flags over environment over config file', () => {
    const cfg = file('p.json', {
      target: { bookUrl: 'http://file', searchUrl: 'http://file', user: 'fileuser', passwordEnv: 'MY_PW' },
      concurrency: 3,
    });
    const s = resolveRunSettings(['--config', cfg, '--concurrency', '5'], {
      CONFORMANCE_BOOK_URL: 'http://env',
      MY_PW: 'x',
    });
    expect(s).toMatchObject({
      bookUrl: 'http://env',
      searchUrl: 'http://file',
      user: 'fileuser',
      password: 'x',
      concurrency: 5,
    });
  });
  test(
    'generated cases: --seed and --examples, or seed and examples in the config file; the defaults ' + 'otherwise',
    () => {
      expect(resolveRunSettings([], {})).toMatchObject({ seed: DEFAULT_SEED, examples: DEFAULT_EXAMPLES });
      expect(resolveRunSettings(['--seed', '42', '--examples', '0'], {})).toMatchObject({ seed: 42, examples: 0 });
      const cfg = file('g.json', { seed: 7, examples: 9 });
      expect(resolveRunSettings(['--config', cfg], {})).toMatchObject({ seed: 7, examples: 9 });
      expect(resolveRunSettings(['--config', cfg, '--seed', '8'], {})).toMatchObject({ seed: 8, examples: 9 });
      expect(() => resolveRunSettings(['--examples=-1'], {})).toThrow(
        /--examples must be a whole number from 0 to 1000 \(got "-1"\)/,
      );
      expect(() => resolveRunSettings(['--seed', 'abc'], {})).toThrow(/--seed must be a whole number/);
      expect(() => resolveRunSettings(['--config', file('g2.json', { examples: 'many' })], {})).toThrow(
        /examples.*g2\.json|g2\.json.*examples/,
      );
    },
  );
  test(
    '--languages (config languages) pins the values of language, each once; none given: the target is '
      + 'asked; a bad one names its source',
    () => {
      expect(resolveRunSettings([], {}).languages).toBeUndefined();
      expect(resolveRunSettings(['--languages', 'ja,sv,ja'], {}).languages).toEqual({
        values: ['ja', 'sv'],
        source: '--languages',
      });
      const cfg = file('l.json', { languages: ['it', 'pt'] });
      expect(resolveRunSettings(['--config', cfg], {}).languages).toEqual({
        values: ['it', 'pt'],
        source: `config file ${cfg}: languages`,
      });
      expect(() => resolveRunSettings(['--languages', ' , '], {})).toThrow(/--languages names no language/);
      expect(() => resolveRunSettings(['--config', file('l2.json', { languages: ['en gb'] })], {})).toThrow(
        /languages/,
      );
    },
  );
  test('config cases extend the shipped ones; an existing id is replaced', () => {
    const cfg = file('c.json', {
      cases: {
        GetMeals: [
          { id: 'default', params: { language: 'sv' } },
          { id: 'fi', params: { language: 'fi' } },
        ],
      },
    });
    const meals = resolveRunSettings(['--config', cfg], {}).cases.get('GetMeals')!;
    expect(meals.find((c) => c.id === 'default')!.params.language).toBe('sv');
    expect(meals.map((c) => c.id)).toContain('fi');
  });

  test(
    "service paths: section 4's by default; per group and binding kind from flags, environment or config; "
      + 'HTTP and transfers follow',
    () => {
      expect(resolveRunSettings([], {}).paths).toEqual(DEFAULT_PATHS);
      const postGet = resolveRunSettings(
        [
          ...remote,
          '--book-http-path',
          '/1/PostGet/Booking.asmx',
          '--search-http-path',
          '/1/PostGet/NonStaticXMLAPI.asmx',
        ],
        { CONFORMANCE_PASSWORD: 'pw' },
      ).paths;
      expect(postGet).toEqual({
        booking: { soap: '/1/SOAP/Booking.asmx', http: '/1/PostGet/Booking.asmx' },
        reference: { soap: '/1/SOAP/NonStaticXMLAPI.asmx', http: '/1/PostGet/NonStaticXMLAPI.asmx' },
        transfers: { soap: '/1/SOAP/NonStaticXMLAPI.asmx', http: '/1/PostGet/NonStaticXMLAPI.asmx' },
      });
      const one = '/15/SOAP/NonStaticXMLAPI.asmx';
      const v15 = resolveRunSettings(remote, {
        CONFORMANCE_PASSWORD: 'pw',
        CONFORMANCE_BOOK_PATH: one,
        CONFORMANCE_SEARCH_PATH: one,
      }).paths;
      expect(
        new Set([
          v15.booking.soap,
          v15.booking.http,
          v15.reference.soap,
          v15.reference.http,
          v15.transfers.soap,
          v15.transfers.http,
        ]),
      ).toEqual(new Set([one]));
      const cfg = file('paths.json', {
        target: { transfersPath: '/t/Transfers.asmx', transfersHttpPath: '/t/PostGet/Transfers.asmx' },
      });
      expect(resolveRunSettings(['--config', cfg, ...remote], { CONFORMANCE_PASSWORD: 'pw' }).paths.transfers).toEqual({
        soap: '/t/Transfers.asmx',
        http: '/t/PostGet/Transfers.asmx',
      });
      // Flags over environment over config.
      expect(
        resolveRunSettings(['--config', cfg, ...remote, '--transfers-path', '/flag.asmx'], {
          CONFORMANCE_PASSWORD: 'pw',
          CONFORMANCE_TRANSFERS_PATH: '/env.asmx',
        }).paths.transfers.soap,
      ).toBe('/flag.asmx');
      expect(
        resolveRunSettings(['--config', cfg, ...remote], {
          CONFORMANCE_PASSWORD: 'pw',
          CONFORMANCE_TRANSFERS_PATH: '/env.asmx',
        }).paths.transfers.soap,
      ).toBe('/env.asmx');
    },
  );

  test.each<[string, string[], NodeJS.ProcessEnv, RegExp]>([
    ['a flag', ['--book-path', 'Booking.asmx'], {}, /^--book-path is not a service path: .*\(got "Booking\.asmx"\)/],
    [
      'an environment variable',
      [],
      { CONFORMANCE_SEARCH_HTTP_PATH: '/a b' },
      /^environment variable CONFORMANCE_SEARCH_HTTP_PATH is not a service path/,
    ],
    ['a query', ['--transfers-http-path', '/x.asmx?a=1'], {}, /--transfers-http-path is not a service path/],
  ])('a bad service path in %s is a usage error naming its source', (_what, argv, env, message) => {
    expect(() => resolveRunSettings(argv, env)).toThrow(UsageError);
    expect(() => resolveRunSettings(argv, env)).toThrow(message);
  });

  test(
    'a bad value names where it came from: the flag, the environment variable, or the config key and its '
      + 'file (issue 15)',
    () => {
      expect(() => resolveRunSettings([], { CONFORMANCE_BOOK_URL: 'zzz' })).toThrow(
        /^environment variable CONFORMANCE_BOOK_URL is not a valid URL: "zzz"$/,
      );
      const cfg = file('bad-url.json', { target: { bookUrl: 'zzz' }, concurrency: 0 });
      expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(ConfigError);
      expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(
        new RegExp(`^config file ${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: target\\.bookUrl is not a valid URL`),
      );
      const cfg2 = file('bad-int.json', { concurrency: 0 });
      expect(() => resolveRunSettings(['--config', cfg2], {})).toThrow(
        /: concurrency must be a whole number from 1 to 256 \(got 0\)/,
      );
      expect(() => resolveRunSettings(['--concurrency', '0'], {})).toThrow(/^--concurrency must be a whole number/);
      expect(() => resolveRunSettings([], { CONFORMANCE_SEARCH_NS: 'search' })).toThrow(
        /^environment variable CONFORMANCE_SEARCH_NS must be an absolute URI/,
      );
    },
  );

  test('--operations and --bindings: duplicates refused, near misses get a "did you mean" (issue 15)', () => {
    expect(() => resolveRunSettings(['--operations', 'GetMeals,GetMeals'], {})).toThrow(
      /^--operations names the operation GetMeals twice/,
    );
    expect(() => resolveRunSettings(['--operations', 'GetMeal'], {})).toThrow(
      /unknown operation "GetMeal" \(did you mean GetMeals\?\)/,
    );
    expect(() => resolveRunSettings(['--operations', 'SerchTransfers'], {})).toThrow(/did you mean SearchTransfers\?/);
    expect(() => resolveRunSettings(['--bindings', 'soap11,soap11'], {})).toThrow(
      /^--bindings names the binding soap11 twice/,
    );
    expect(() => resolveRunSettings(['--bindings', 'soap1.1'], {})).toThrow(
      /unknown binding "soap1\.1" \(did you mean soap11\?\)/,
    );
    expect(() => resolveRunSettings(['--bindings', 'rest'], {})).toThrow(
      /unknown binding "rest" \(bindings: soap11, soap12, get, post\)/,
    );
    const cfg = file('dup-ops.json', { operations: ['GetThemes', 'GetThemes'] });
    expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(ConfigError);
  });

  test('a password in URL user-info is never printed, even one holding "/", ":" or "@"', () => {
    let message = '';
    try {
      resolveRunSettings(['--book-url', 'http://user:p/a:s@s@ho st/'], {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/is not a valid URL/);
    expect(message).not.toMatch(/p\/a|s@s/);
  });

  test(
    'a report directory that cannot hold the reports is refused before anything is sent, naming its '
      + 'source (issue 15)',
    () => {
      const f = file('a-file', 'x');
      expect(() => resolveRunSettings(['--report-dir', f], {})).toThrow(
        /^--report-dir cannot hold the reports: .*a-file is a file, not a directory/,
      );
      expect(() => resolveRunSettings(['--report-dir', join(f, 'sub', 'dir')], {})).toThrow(
        /^--report-dir cannot hold the reports: .*would sit under .*a-file, which is a file/,
      );
      const cfg = file('rd.json', { reportDir: join(f, 'x') });
      expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(ConfigError);
      expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(/: reportDir cannot hold the reports/);
      expect(resolveRunSettings(['--report-dir', join(dir, 'new', 'deeper')], {}).reportDir).toBe(
        join(dir, 'new', 'deeper'),
      );
      expect(() => resolveRunSettings(['--expectations', join(f, 'e.json'), '--update-expectations'], {})).toThrow(
        /^--expectations cannot be written: .*a-file is a file, not a directory/,
      );
    },
  );

  test('the variable the password came from is kept, for reproduce commands', () => {
    const cfg = file('pwenv.json', { target: { passwordEnv: 'ACME_PW' } });
    expect(resolveRunSettings([...remote, '--config', cfg], { ACME_PW: 'x' }).passwordVar).toBe('ACME_PW');
    expect(resolveRunSettings(remote, { CONFORMANCE_PASSWORD: 'x' }).passwordVar).toBe('CONFORMANCE_PASSWORD');
    expect(resolveRunSettings([...remote, '--password', 'x'], {}).passwordVar).toBeUndefined();
  });

  describe('one order of precedence for the password, and a warning when two sources disagree (issue 22)', () => {
    const cfg = () =>
      file('acme.json', {
        target: { bookUrl: 'http://b', searchUrl: 'http://s', user: 'acme', passwordEnv: 'ACME_SERVICE_PASSWORD' },
      });
    test(
      "a stray CONFORMANCE_PASSWORD does not override target.passwordEnv: the config's variable wins, "
        + 'with a warning naming both, never a value',
      () => {
        const s = resolveRunSettings(['--config', cfg()], {
          CONFORMANCE_PASSWORD: 'mock-password',
          ACME_SERVICE_PASSWORD: 'Tr4vel-S3cret',
        });
        expect(s.password).toBe('Tr4vel-S3cret');
        expect(s.passwordVar).toBe('ACME_SERVICE_PASSWORD');
        expect(s.warnings).toHaveLength(1);
        expect(s.warnings![0]).toMatch(
          /^two different passwords are given: the one from environment variable ACME_SERVICE_PASSWORD \(named by config file .*acme\.json: target\.passwordEnv\) is used, the one in environment variable CONFORMANCE_PASSWORD is not \(precedence: --password, then the variable named by target\.passwordEnv, then CONFORMANCE_PASSWORD\)$/,
        );
        expect(s.warnings!.join()).not.toMatch(/mock-password|Tr4vel/);
      },
    );
    test('--password comes first; it warns about each source that disagrees', () => {
      const s = resolveRunSettings(['--config', cfg(), '--password', 'flag-pw'], {
        CONFORMANCE_PASSWORD: 'other',
        ACME_SERVICE_PASSWORD: 'flag-pw',
      });
      expect(s.password).toBe('flag-pw');
      expect(s.passwordVar).toBeUndefined();
      expect(s.warnings).toEqual([
        expect.stringMatching(
          /^two different passwords are given: the one from --password is used, the one in environment variable CONFORMANCE_PASSWORD is not/,
        ),
      ]);
    });
    test('sources that agree, or a single one, give no warning', () => {
      expect(
        resolveRunSettings(['--config', cfg()], { CONFORMANCE_PASSWORD: 'same', ACME_SERVICE_PASSWORD: 'same' })
          .warnings,
      ).toEqual([]);
      expect(resolveRunSettings(['--config', cfg()], { ACME_SERVICE_PASSWORD: 'x' }).warnings).toEqual([]);
      expect(resolveRunSettings(remote, { CONFORMANCE_PASSWORD: 'x' }).warnings).toEqual([]);
    });
    test("the library's target.password is named as such", () => {
      const s = resolveRunSettingsObject(
        { target: { bookUrl: 'http://b', searchUrl: 'http://s', user: 'u', password: 'a', passwordEnv: 'ACME_PW' } },
        { ACME_PW: 'b' },
        'runConformance settings',
      );
      expect(s.password).toBe('a');
      expect(s.warnings).toEqual([
        expect.stringMatching(
          /^two different passwords are given: the one from runConformance settings: target\.password is used, the one in environment variable ACME_PW \(named by runConformance settings: target\.passwordEnv\) is not/,
        ),
      ]);
    });
    test("the config's variable unset: CONFORMANCE_PASSWORD is used, and the warning says so", () => {
      const s = resolveRunSettings(['--config', cfg()], { CONFORMANCE_PASSWORD: 'general' });
      expect(s.password).toBe('general');
      expect(s.warnings).toEqual([
        expect.stringMatching(
          /target\.passwordEnv names the variable ACME_SERVICE_PASSWORD, which is not set: using the password from environment variable CONFORMANCE_PASSWORD instead/,
        ),
      ]);
    });
  });

  test('a config file with a JSON syntax error: the line and column, not a character position (issue 22)', () => {
    const cfg = file('syntax.json', '{\n  "target": {\n    "bookUrl": "http://b"\n    "user": "acme"\n  }\n}\n');
    expect(() => resolveRunSettings(['--config', cfg], {})).toThrow(
      /config file .*syntax\.json is not valid JSON: .* at line 4, column 5$/,
    );
    expect(() => resolveRunSettings(['--config', cfg], {})).not.toThrow(/position/);
    const cut = file('cut.json', '{\n  "target": {\n');
    expect(() => resolveRunSettings(['--config', cut], {})).toThrow(/at line 3, column 1/);
  });

  test('a URL without its scheme says that the scheme is missing (issue 22)', () => {
    expect(() => resolveRunSettings(['--search-url', 'localhost:8942'], {})).toThrow(
      /^--search-url has no scheme: "localhost:8942" needs http:\/\/ or https:\/\/ in front \(e\.g\. http:\/\/localhost:8942\)$/,
    );
    expect(() => resolveRunSettings(['--book-url', 'book.example.com'], {})).toThrow(/--book-url has no scheme/);
    expect(() => resolveRunSettings([], { CONFORMANCE_SEARCH_URL: 'localhost:8942' })).toThrow(
      /^environment variable CONFORMANCE_SEARCH_URL has no scheme/,
    );
  });

  const usage: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    ['unknown flag', ['--bogus'], {}, /bogus/],
    ['flag without value', ['--book-url'], {}, /book-url/],
    ['bad URL', ['--book-url', 'not a url'], {}, /--book-url is not a valid URL/],
    ['non-http URL', ['--book-url', 'ftp://x'], {}, /http or https/],
    ['URL with query', ['--book-url', 'http://x/?a=1'], {}, /without query/],
    ['unknown binding', ['--bindings', 'soap11,rest'], {}, /unknown binding "rest"/],
    [
      'unknown operation with a case hint',
      ['--operations', 'getmeals'],
      {},
      /unknown operation "getmeals".*did you mean GetMeals/,
    ],
    ['concurrency out of range', ['--concurrency', '0'], {}, /--concurrency must be a whole number from 1 to 256/],
    ['timeout not a number', ['--timeout', '10s'], {}, /--timeout/],
    ['namespace not a URI', ['--book-ns', 'book'], {}, /--book-ns must be an absolute URI/],
    ['remote target without password', remote, {}, /no password.*CONFORMANCE_PASSWORD/],
    [
      'remote target without user',
      ['--book-url', 'http://b', '--search-url', 'http://s'],
      { CONFORMANCE_PASSWORD: 'p' },
      /no user name/,
    ],
    [
      'booking operations without a book URL',
      ['--search-url', 'http://s', '--user', 'u'],
      { CONFORMANCE_PASSWORD: 'p' },
      /no --book-url for the booking operations/,
    ],
  ];
  test.each(usage)('%s is a usage error naming it', (_what, argv, env, message) => {
    expect(() => resolveRunSettings(argv, env)).toThrow(UsageError);
    expect(() => resolveRunSettings(argv, env)).toThrow(message);
  });

  const config: [string, unknown, RegExp][] = [
    ['not JSON', '{ nope', /not valid JSON/],
    ['an array', '[]', /top level must be an object/],
    ['an unknown key', { tagret: {} }, /unknown key "tagret"/],
    ['an unknown target key', { target: { bookURL: 'x' } }, /unknown key "target.bookURL"/],
    ['a password in the file', { target: { password: 'x' } }, /target.password is not accepted in a file/],
    ['a case for an unknown operation', { cases: { NoSuch: [] } }, /unknown operation "NoSuch"/],
    [
      'a case with credentials',
      { cases: { GetMeals: [{ id: 'x', params: { password: 'p' } }] } },
      /"password" must not be in a case/,
    ],
    [
      'a case with an unknown parameter',
      { cases: { GetMeals: [{ id: 'x', params: { lang: 'en' } }] } },
      /GetMeals has no parameter "lang"/,
    ],
    [
      'a non-string parameter value',
      { cases: { GetSpecialRequest: [{ id: 'x', params: { bookingId: 7 } }] } },
      /must be a string/,
    ],
    ['a bad casesMode', { casesMode: 'merge' }, /casesMode must be "extend" or "replace"/],
    [
      'a bad service path',
      { target: { bookHttpPath: 'PostGet/Booking.asmx' } },
      /: target\.bookHttpPath is not a service path/,
    ],
  ];
  test.each(config)('a config file with %s is a config error naming it', (_what, json, message) => {
    const p = file(`bad-${Math.random()}.json`, json);
    expect(() => resolveRunSettings(['--config', p], {})).toThrow(ConfigError);
    expect(() => resolveRunSettings(['--config', p], {})).toThrow(message);
  });
  test('a missing config file is named', () => {
    expect(() => resolveRunSettings(['--config', join(dir, 'absent.json')], {})).toThrow(
      /cannot read config file .*absent\.json: ENOENT/,
    );
  });
});

describe('command line', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: {}, isTTY: false },
    };
  };
  test('bad usage exits 2 with a message; the password of a bad URL is not printed', async () => {
    const a = io();
    expect(await main(['run', '--book-url', 'http://u:hunter2@x y'], a.io)).toBe(2);
    expect(a.err.join('\n')).toMatch(/^conformance: --book-url is not a valid URL/);
    expect(a.err.join('\n')).not.toContain('hunter2');
    for (const pw of ['hun/ter2', 'p/a@s:s']) {
      const c = io();
      expect(await main(['run', '--book-url', `http://u:${pw}@host.example:99999/p`], c.io)).toBe(2);
      expect(c.err.join('\n'), pw).toMatch(/is not a valid URL: "http:\/\/\*\*\*@host\.example:99999\/p"/);
      expect(c.err.join('\n'), pw).not.toContain(pw.slice(0, 4));
    }
    const b = io();
    expect(await main(['frobnicate'], b.io)).toBe(2);
    expect(b.err.join()).toContain('unknown command "frobnicate"');
    const c = io();
    expect(await main(['run', '--checks', 'shape,nope'], c.io)).toBe(2);
    expect(c.err.join()).toContain('nope');
  });
  test('help exits 0', async () => {
    const a = io();
    expect(await main(['run', '--help'], a.io)).toBe(0);
    expect(a.out.join()).toContain('--allow-mutations');
  });
});

describe('schemas/config.schema.json (ajv)', () => {
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_URL, 'utf8')) as {
    properties: Record<string, { anyOf?: { items?: { enum: string[] } }[]; propertyNames?: { enum: string[] } }>;
  };
  test("its names are the catalogue's and the registry's", () => {
    expect(schema.properties.operations!.anyOf![0]!.items!.enum).toEqual(OPERATIONS.map((o) => o.name));
    expect(schema.properties.cases!.propertyNames!.enum).toEqual(OPERATIONS.map((o) => o.name));
    expect(schema.properties.bindings!.anyOf![0]!.items!.enum).toEqual([...BINDINGS]);
    // The checks, then the groups of checks (src/core/check-groups.ts), both taken by name.
    expect(schema.properties.checks!.anyOf![0]!.items!.enum).toEqual([...CHECK_NAMES, ...Object.keys(CHECK_GROUPS)]);
    expect(schema.properties.skipChecks!.anyOf![0]!.items!.enum).toEqual([
      ...CHECK_NAMES,
      ...Object.keys(CHECK_GROUPS),
    ]);
  });
  test('the example configs are valid', () => {
    for (const f of ['examples/target.json', 'examples/run-embedded.json'])
      expect(validateJson(JSON.parse(readFileSync(f, 'utf8')), schema), f).toEqual([]);
  });
  test('an unknown key gets a "did you mean"; a problem only the schema sees is named with its key and file', () => {
    const typo = file('typo.json', { target: { bookUrll: 'https://b.example' } });
    expect(() => resolveRunSettings(['--config', typo], {})).toThrow(
      /^config file .*typo\.json: unknown key "target\.bookUrll" \(did you mean bookUrl\?\) \(known: bookUrl, /,
    );
    const extra = file('extra.json', { cases: { GetMeals: [{ id: 'x', params: {}, note: 'y' }] } });
    expect(() => resolveRunSettings(['--config', extra], {})).toThrow(ConfigError);
    expect(() => resolveRunSettings(['--config', extra], {})).toThrow(
      /^config file .*extra\.json: unknown key "cases\.GetMeals\[0\]\.note"/,
    );
    const bad = file('type.json', { negative: 'no' });
    expect(() => resolveRunSettings(['--config', bad], {})).toThrow(
      /^config file .*type\.json: negative must be true or false/,
    );
  });
});

describe('--max-transient (issue 32)', () => {
  test(
    'flag > environment > config key; default 20; "20%" and decimals read; bad values named with their ' + 'source',
    () => {
      expect(resolveRunSettings([], {}).maxTransient).toBe(20);
      expect(resolveRunSettings(['--max-transient', '5'], {}).maxTransient).toBe(5);
      expect(resolveRunSettings(['--max-transient', '2.5%'], { CONFORMANCE_MAX_TRANSIENT: '9' }).maxTransient).toBe(
        2.5,
      );
      expect(resolveRunSettings([], { CONFORMANCE_MAX_TRANSIENT: '9' }).maxTransient).toBe(9);
      expect(resolveRunSettings(['--config', file('mt.json', { maxTransient: '35%' })], {}).maxTransient).toBe(35);
      expect(resolveRunSettingsObject({ maxTransient: 7 }).maxTransient).toBe(7);
      expect(() => resolveRunSettings(['--max-transient', '120'], {})).toThrow(UsageError);
      expect(() => resolveRunSettings(['--max-transient', 'lots'], {})).toThrow(
        /--max-transient must be a percentage from 0 to 100, as 20 or 20% \(got "lots"\)/,
      );
      expect(() => resolveRunSettings([], { CONFORMANCE_MAX_TRANSIENT: '-3' })).toThrow(
        /environment variable CONFORMANCE_MAX_TRANSIENT must be a percentage/,
      );
      expect(() => resolveRunSettings(['--config', file('mt2.json', { maxTransient: 'high' })], {})).toThrow(
        /mt2\.json.*maxTransient/,
      );
    },
  );
});
