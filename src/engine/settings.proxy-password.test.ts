/**
 * The proxy's password apart from its URL (issue 41, item 4): a config file names the user in
 * target.proxy and the password comes from CONFORMANCE_PROXY_PASSWORD or the variable
 * target.proxyPasswordEnv names; the library may give target.proxyPassword, or a proxy URL with
 * credentials (no file is involved), and its messages name its own keys, never a flag.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { resolveRunSettings } from '../cli/config.js';
import { resolveRunSettingsObject } from './settings.js';
import { secretsOf } from './plan.js';
import { TLS_FILES } from '../../test/support/network.js';

const dir = mkdtempSync(join(tmpdir(), 'conf-proxy-pw-'));
let n = 0;
function config(target: Record<string, unknown>): string {
  const p = join(dir, `c${n++}.json`);
  writeFileSync(
    p,
    JSON.stringify({
      target: { bookUrl: 'https://b.example', searchUrl: 'https://b.example', user: 'acme', ...target },
    }),
  );
  return p;
}
const PW = { CONFORMANCE_PASSWORD: 'pw' };
const SECRET = 'pr0xy:p@ss/w%rd';
const LIB = 'runConformance settings';
const lib = (target: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  resolveRunSettingsObject(
    {
      target: { bookUrl: 'https://b.example', searchUrl: 'https://b.example', user: 'acme', password: 'pw', ...target },
    },
    env,
    LIB,
  );

describe('a config file: the user in target.proxy, the password in a variable', () => {
  test(
    'CONFORMANCE_PROXY_PASSWORD fills in the password of a proxy URL naming a user only; the variable is '
      + 'kept for re-run commands',
    () => {
      const s = resolveRunSettings(['--config', config({ proxy: 'http://alice@proxy.corp:3128' })], {
        ...PW,
        CONFORMANCE_PROXY_PASSWORD: SECRET,
      });
      const proxy = s.network!.httpsProxy!;
      expect(decodeURIComponent(new URL(proxy.url).password)).toBe(SECRET);
      expect(new URL(proxy.url).username).toBe('alice');
      expect(proxy.passwordVariable).toBe('CONFORMANCE_PROXY_PASSWORD');
      // A secret: every redactor of the run finds it.
      expect(
        secretsOf({ ...s, bookUrl: s.bookUrl!, searchUrl: s.searchUrl!, transfersUrl: s.transfersUrl! }),
      ).toContain(SECRET);
    },
  );

  test(
    'target.proxyPasswordEnv names another variable; named and not set is an error naming the key and the '
      + 'proxy, never a password',
    () => {
      const file = config({ proxy: 'http://alice@proxy.corp:3128', proxyPasswordEnv: 'CORP_PROXY_PW' });
      const s = resolveRunSettings(['--config', file], {
        ...PW,
        CORP_PROXY_PW: SECRET,
        CONFORMANCE_PROXY_PASSWORD: 'not this one',
      });
      expect(decodeURIComponent(new URL(s.network!.httpsProxy!.url).password)).toBe(SECRET);
      expect(s.network!.httpsProxy!.passwordVariable).toBe('CORP_PROXY_PW');
      expect(() => resolveRunSettings(['--config', file], PW)).toThrow(ConfigError);
      expect(() => resolveRunSettings(['--config', file], PW)).toThrow(
        /target\.proxyPasswordEnv names CORP_PROXY_PW for the proxy's password, which is not set \(the proxy of config file .* target\.proxy names the user alice and no password\)/,
      );
      expect(() => resolveRunSettings(['--config', config({ proxyPasswordEnv: 'bad-name' })], PW)).toThrow(
        /target\.proxyPasswordEnv must name an environment variable/,
      );
    },
  );

  test('a proxy from HTTPS_PROXY naming a user takes the password too; one with its own password keeps it', () => {
    const s = resolveRunSettings(
      ['--book-url', 'https://b.example', '--search-url', 'https://b.example', '--user', 'acme'],
      { ...PW, HTTPS_PROXY: 'http://alice@proxy.corp:3128', CONFORMANCE_PROXY_PASSWORD: SECRET },
    );
    expect(decodeURIComponent(new URL(s.network!.httpsProxy!.url).password)).toBe(SECRET);
    expect(s.network!.httpsProxy!.variable).toBe('HTTPS_PROXY');
    const own = resolveRunSettings(
      [
        '--book-url',
        'https://b.example',
        '--search-url',
        'https://b.example',
        '--user',
        'acme',
        '--proxy',
        'http://alice:own@proxy.corp:3128',
      ],
      { ...PW, CONFORMANCE_PROXY_PASSWORD: SECRET },
    );
    expect(new URL(own.network!.httpsProxy!.url).password).toBe('own');
    expect(own.network!.httpsProxy!.passwordVariable).toBeUndefined();
  });

  test('a proxy without a user: the variable is not used (a variable left in a shell does not stop a run)', () => {
    const s = resolveRunSettings(['--config', config({ proxy: 'http://proxy.corp:3128' })], {
      ...PW,
      CONFORMANCE_PROXY_PASSWORD: SECRET,
    });
    expect(s.network!.httpsProxy).toEqual({ url: 'http://proxy.corp:3128' });
  });

  test('target.proxyPassword and a password in target.proxy are refused in a file, naming the variable to use', () => {
    expect(() =>
      resolveRunSettings(['--config', config({ proxy: 'http://alice@proxy.corp:3128', proxyPassword: 'x' })], PW),
    ).toThrow(
      /target\.proxyPassword is not accepted in a file \(files get committed\); name the user in target\.proxy .* CONFORMANCE_PROXY_PASSWORD, or name another variable with target\.proxyPasswordEnv/,
    );
    expect(() => resolveRunSettings(['--config', config({ proxy: 'http://alice:x@proxy.corp:3128' })], PW)).toThrow(
      /target\.proxy holds a password: not accepted in a file .* CONFORMANCE_PROXY_PASSWORD/,
    );
  });
});

describe('the library: its own keys, no file', () => {
  test(
    'target.proxy with credentials is accepted (a program holds them, as target.password), and redacted '
      + 'as a secret',
    () => {
      const s = lib({ proxy: `http://alice:${encodeURIComponent(SECRET)}@proxy.corp:3128` });
      expect(decodeURIComponent(new URL(s.network!.httpsProxy!.url).password)).toBe(SECRET);
    },
  );

  test(
    "target.proxyPassword gives the password of target.proxy's user; target.proxyPasswordEnv a variable "
      + 'of options.env',
    () => {
      const s = lib({ proxy: 'http://alice@proxy.corp:3128', proxyPassword: SECRET });
      expect(decodeURIComponent(new URL(s.network!.httpsProxy!.url).password)).toBe(SECRET);
      expect(s.network!.httpsProxy!.passwordVariable).toBeUndefined();
      const v = lib({ proxy: 'http://alice@proxy.corp:3128', proxyPasswordEnv: 'PW_VAR' }, { PW_VAR: SECRET });
      expect(v.network!.httpsProxy!.passwordVariable).toBe('PW_VAR');
    },
  );

  test('its messages name its keys and options.env, never a flag or a file', () => {
    const messages: string[] = [];
    const refused = (target: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => {
      try {
        lib(target, env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        messages.push((e as Error).message);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ proxy: 'http://proxy.corp:3128', proxyPassword: SECRET })).toMatch(
      new RegExp(
        `^${LIB}: target\\.proxyPassword is given but no proxy names a user to go with it: give `
          + `target\\.proxy as http://user@host:port`,
      ),
    );
    expect(refused({ proxy: 'http://alice@proxy.corp:3128', proxyPasswordEnv: 'PW_VAR' })).toMatch(
      /target\.proxyPasswordEnv names PW_VAR for the proxy's password, which is not set in options\.env/,
    );
    expect(refused({ proxyPassword: '' })).toMatch(/target\.proxyPassword must be a non-empty string/);
    expect(refused({ clientCert: TLS_FILES.clientCert })).toMatch(
      /target\.clientCert needs its private key: give target\.clientKey too$/,
    );
    expect(refused({ clientKey: TLS_FILES.clientKey })).toMatch(
      /target\.clientKey needs its certificate: give target\.clientCert too$/,
    );
    for (const m of messages) {
      expect(m, m).not.toMatch(/--[a-z]|not accepted in a file/);
      expect(m, m).not.toContain(SECRET);
    }
  });
});
