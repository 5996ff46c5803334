import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../core/errors.js';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { resolveRunSettings } from './config.js';
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
    expect(s).toMatchObject({ embedded: true, user: 'mock-user', password: 'mock-password', namespaces: DEFAULT_NAMESPACES, concurrency: 16, allowMutations: false });
    expect(s.operations).toHaveLength(14);
    expect(s.bindings).toEqual(['soap11', 'soap12', 'get', 'post']);
  });
  test('a remote target: trailing slash dropped, transfers default to search, gentle defaults, password from the environment', () => {
    const s = resolveRunSettings(remote, { CONFORMANCE_PASSWORD: 'pw' });
    expect(s).toMatchObject({ embedded: false, bookUrl: 'https://b.example', searchUrl: 'https://s.example', transfersUrl: 'https://s.example', password: 'pw', concurrency: 4, maxRps: 20 });
  });
  test('precedence: flags over environment over config file', () => {
    const cfg = file('p.json', { target: { bookUrl: 'http://file', searchUrl: 'http://file', user: 'fileuser', passwordEnv: 'MY_PW' }, concurrency: 3 });
    const s = resolveRunSettings(['--config', cfg, '--concurrency', '5'], { CONFORMANCE_BOOK_URL: 'http://env', MY_PW: 'x' });
    expect(s).toMatchObject({ bookUrl: 'http://env', searchUrl: 'http://file', user: 'fileuser', password: 'x', concurrency: 5 });
  });
  test('config cases extend the shipped ones; an existing id is replaced', () => {
    const cfg = file('c.json', { cases: { GetMeals: [{ id: 'default', params: { language: 'sv' } }, { id: 'fi', params: { language: 'fi' } }] } });
    const meals = resolveRunSettings(['--config', cfg], {}).cases.get('GetMeals')!;
    expect(meals.find((c) => c.id === 'default')!.params.language).toBe('sv');
    expect(meals.map((c) => c.id)).toContain('fi');
  });

  const usage: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    ['unknown flag', ['--bogus'], {}, /bogus/],
    ['flag without value', ['--book-url'], {}, /book-url/],
    ['bad URL', ['--book-url', 'not a url'], {}, /--book-url is not a valid URL/],
    ['non-http URL', ['--book-url', 'ftp://x'], {}, /http or https/],
    ['URL with query', ['--book-url', 'http://x/?a=1'], {}, /without query/],
    ['unknown binding', ['--bindings', 'soap11,rest'], {}, /unknown binding "rest"/],
    ['unknown operation with a case hint', ['--operations', 'getmeals'], {}, /unknown operation "getmeals".*did you mean GetMeals/],
    ['concurrency out of range', ['--concurrency', '0'], {}, /--concurrency must be a whole number from 1 to 256/],
    ['timeout not a number', ['--timeout', '10s'], {}, /--timeout/],
    ['namespace not a URI', ['--book-ns', 'book'], {}, /--book-ns must be an absolute URI/],
    ['remote target without password', remote, {}, /no password.*CONFORMANCE_PASSWORD/],
    ['remote target without user', ['--book-url', 'http://b', '--search-url', 'http://s'], { CONFORMANCE_PASSWORD: 'p' }, /no user name/],
    ['booking operations without a book URL', ['--search-url', 'http://s', '--user', 'u'], { CONFORMANCE_PASSWORD: 'p' }, /no --book-url for the booking operations/],
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
    ['a case with credentials', { cases: { GetMeals: [{ id: 'x', params: { password: 'p' } }] } }, /"password" must not be in a case/],
    ['a case with an unknown parameter', { cases: { GetMeals: [{ id: 'x', params: { lang: 'en' } }] } }, /GetMeals has no parameter "lang"/],
    ['a non-string parameter value', { cases: { GetSpecialRequest: [{ id: 'x', params: { bookingId: 7 } }] } }, /must be a string/],
    ['a bad casesMode', { casesMode: 'merge' }, /casesMode must be "extend" or "replace"/],
  ];
  test.each(config)('a config file with %s is a config error naming it', (_what, json, message) => {
    const p = file(`bad-${Math.random()}.json`, json);
    expect(() => resolveRunSettings(['--config', p], {})).toThrow(ConfigError);
    expect(() => resolveRunSettings(['--config', p], {})).toThrow(message);
  });
  test('a missing config file is named', () => {
    expect(() => resolveRunSettings(['--config', join(dir, 'absent.json')], {})).toThrow(/cannot read config file .*absent\.json: ENOENT/);
  });
});

describe('command line', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: {}, isTTY: false } };
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
