/**
 * --callback-url URL and --callback-listen HOST:PORT (issue 42, section 2): where a target not on
 * this machine reaches the listener of the external-entity probe, from a flag, the environment or
 * the config file, flags first; a bad value refused naming its source.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../core/errors.js';
import { resolveRunSettings } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'callback-cli-'));
function config(json: unknown): string {
  const p = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, JSON.stringify(json));
  return p;
}

describe('--callback-url and --callback-listen', () => {
  test('from the flag, the environment or the config, flags first', () => {
    expect(resolveRunSettings(['--callback-url', 'http://10.0.0.5:8765'], {}).callbackUrl).toBe('http://10.0.0.5:8765');
    expect(resolveRunSettings([], { CONFORMANCE_CALLBACK_URL: 'https://cb.example/x' }).callbackUrl).toBe(
      'https://cb.example/x',
    );
    const cfg = config({ callbackUrl: 'http://cfg.example:1', callbackListen: '0.0.0.0:8765' });
    const s = resolveRunSettings(['--config', cfg], {});
    expect(s.callbackUrl).toBe('http://cfg.example:1');
    expect(s.callbackListen).toEqual({ host: '0.0.0.0', port: 8765 });
    expect(
      resolveRunSettings(['--config', cfg, '--callback-url', 'http://flag.example'], {
        CONFORMANCE_CALLBACK_URL: 'http://env.example',
      }).callbackUrl,
    ).toBe('http://flag.example');
    expect(resolveRunSettings([], { CONFORMANCE_CALLBACK_LISTEN: '[::1]:0' }).callbackListen).toEqual({
      host: '::1',
      port: 0,
    });
    const none = resolveRunSettings([], {});
    expect(none.callbackUrl).toBeUndefined();
    expect(none.callbackListen).toBeUndefined();
  });

  test('a bad value is refused, naming where it came from', () => {
    for (const v of ['file:///etc/passwd', 'ftp://x', 'not a url', 'http://u:p@h/', 'http://h/?q=1']) {
      expect(() => resolveRunSettings(['--callback-url', v], {}), v).toThrow(UsageError);
      expect(() => resolveRunSettings(['--callback-url', v], {}), v).toThrow(
        /^--callback-url must be an http:\/\/ or https:\/\/ URL/,
      );
    }
    expect(() => resolveRunSettings([], { CONFORMANCE_CALLBACK_URL: 'gopher://x' })).toThrow(
      /^environment variable CONFORMANCE_CALLBACK_URL must be/,
    );
    for (const v of ['8765', 'host', 'h:99999', ':1'])
      expect(() => resolveRunSettings(['--callback-listen', v], {}), v).toThrow(/^--callback-listen must be HOST:PORT/);
    expect(() => resolveRunSettings(['--config', config({ callbackUrl: 'file:///x' })], {})).toThrow(ConfigError);
  });
});
