/**
 * The network settings (./network-settings.ts): where a proxy comes from and in which order, which
 * scheme takes which variable, what is refused in a file, the TLS files checked before anything is
 * sent, and the extra headers' syntax. Real runs through them: suites/e2e/network.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, UsageError } from '../core/errors.js';
import { validateJson } from '../schema/json.js';
import { resolveRunSettings } from '../cli/config.js';
import { CONFIG_SCHEMA_URL, resolveRunSettingsObject } from './settings.js';
import { bypassesProxy, proxyFor } from '../transport/proxy.js';
import { TLS_FILES } from '../../test/support/network.js';
import { readFileSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'conf-network-'));
function file(name: string, json: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(json));
  return p;
}
const remote = ['--book-url', 'https://b.example', '--search-url', 'http://s.example', '--user', 'acme'];
const PW = { CONFORMANCE_PASSWORD: 'pw' };

describe('proxies', () => {
  test('none set: no network options at all (the run is what it was)', () => {
    expect(resolveRunSettings(remote, PW).network).toBeUndefined();
  });

  test(
    'the environment per scheme, lower case first (undici and curl read them so); an https target never '
      + 'takes the http proxy',
    () => {
      const s = resolveRunSettings(remote, {
        ...PW,
        HTTP_PROXY: 'http://upper:1',
        http_proxy: 'http://lower:1',
        NO_PROXY: 'internal.example',
      });
      expect(s.network).toEqual({
        httpProxy: { url: 'http://lower:1', variable: 'http_proxy' },
        noProxy: 'internal.example',
      });
      expect(proxyFor('https://b.example/x', s.network)).toBeUndefined();
      expect(proxyFor('http://s.example/x', s.network)?.url).toBe('http://lower:1');
      const both = resolveRunSettings(remote, { ...PW, HTTPS_PROXY: 'http://secure:3128' }).network!;
      expect(proxyFor('https://b.example/x', both)?.url).toBe('http://secure:3128');
    },
  );

  test(
    '--proxy, then CONFORMANCE_PROXY, then target.proxy, each for both schemes, over the environment; '
      + 'NO_PROXY still applies',
    () => {
      const cfg = file('proxy.json', { target: { proxy: 'http://file:1', noProxy: 'b.example' } });
      const env = { ...PW, HTTPS_PROXY: 'http://env:1', CONFORMANCE_PROXY: 'http://conformance:1' };
      expect(
        resolveRunSettings([...remote, '--config', cfg, '--proxy', 'http://flag:1'], env).network!.httpsProxy,
      ).toEqual({ url: 'http://flag:1' });
      expect(resolveRunSettings([...remote, '--config', cfg], env).network!.httpProxy).toEqual({
        url: 'http://conformance:1',
        variable: 'CONFORMANCE_PROXY',
      });
      const fromFile = resolveRunSettings([...remote, '--config', cfg], { ...PW, HTTPS_PROXY: 'http://env:1' })
        .network!;
      expect(fromFile.httpsProxy).toEqual({ url: 'http://file:1' });
      // The config's noProxy lets b.example bypass it.
      expect(proxyFor('https://b.example/x', fromFile)).toBeUndefined();
      expect(proxyFor('http://s.example/x', fromFile)?.url).toBe('http://file:1');
    },
  );

  test('the embedded mock is never proxied', () => {
    expect(resolveRunSettings(['--proxy', 'http://p:1'], {}).network).toBeUndefined();
  });

  test('a bad proxy names its source and hides its credentials; credentials in a file are refused', () => {
    expect(() => resolveRunSettings([...remote, '--proxy', 'socks5://u:secret@p:1'], PW)).toThrow(
      /^--proxy must be an http:\/\/ or https:\/\/ proxy URL \(got socks5: in "socks5:\/\/\*\*\*@p:1"\)$/,
    );
    expect(() => resolveRunSettings(remote, { ...PW, https_proxy: 'proxy:3128x' })).toThrow(
      /^environment variable https_proxy /,
    );
    expect(() => resolveRunSettings([...remote, '--proxy', 'http://p:1/path'], PW)).toThrow(/without path or query/);
    const cfg = file('proxy-creds.json', { target: { proxy: 'http://u:secret@p:1' } });
    expect(() => resolveRunSettings([...remote, '--config', cfg], PW)).toThrow(ConfigError);
    expect(() => resolveRunSettings([...remote, '--config', cfg], PW)).toThrow(
      /target\.proxy holds a password: not accepted in a file/,
    );
  });

  test('NO_PROXY: names, subdomains (".x" and "*.x"), ports, "*"', () => {
    expect(bypassesProxy('http://a.internal:80/', 'internal')).toBe(true);
    expect(bypassesProxy('http://a.internal/', '.internal')).toBe(true);
    expect(bypassesProxy('http://a.internal/', '*.internal')).toBe(true);
    expect(bypassesProxy('http://internalx/', 'internal')).toBe(false);
    expect(bypassesProxy('http://h:8080/', 'h:8080')).toBe(true);
    expect(bypassesProxy('http://h:8081/', 'h:8080')).toBe(false);
    expect(bypassesProxy('https://h/', 'h:443')).toBe(true);
    expect(bypassesProxy('http://anything/', ' x, * ')).toBe(true);
    expect(bypassesProxy('http://anything/', '')).toBe(false);
  });
});

describe('TLS files', () => {
  test('read and checked now; paths made absolute for the reproduce commands', () => {
    const s = resolveRunSettings(
      [
        ...remote,
        '--ca-file',
        TLS_FILES.ca,
        '--client-cert',
        TLS_FILES.clientCert,
        '--client-key',
        TLS_FILES.clientKey,
      ],
      PW,
    );
    expect(s.network).toMatchObject({
      caFile: resolve(TLS_FILES.ca),
      clientCert: resolve(TLS_FILES.clientCert),
      clientKey: resolve(TLS_FILES.clientKey),
    });
  });

  test('config keys too; a PKCS#12 with its passphrase from the variable the config names', () => {
    const cfg = file('pfx.json', {
      target: { caFile: TLS_FILES.ca, clientPfx: TLS_FILES.clientPfx, clientPfxPassphraseEnv: 'MY_PFX_PW' },
    });
    const s = resolveRunSettings([...remote, '--config', cfg], { ...PW, MY_PFX_PW: 'test-pfx-passphrase' });
    expect(s.network).toMatchObject({
      clientPfx: resolve(TLS_FILES.clientPfx),
      pfxPassphrase: 'test-pfx-passphrase',
      pfxPassphraseVariable: 'MY_PFX_PW',
    });
    expect(() => resolveRunSettings([...remote, '--config', cfg], PW)).toThrow(
      /target\.clientPfx cannot be opened with the passphrase given .* \(the passphrase is read from the environment variable MY_PFX_PW, which is not set\)/,
    );
  });

  test.each<[string, string[], RegExp]>([
    [
      'a missing CA file',
      ['--ca-file', join(dir, 'none.pem')],
      /^--ca-file cannot be read: .*none\.pem: no such file$/,
    ],
    ['a directory', ['--ca-file', dir], /^--ca-file cannot be read: .*: a directory, not a file$/],
    ['a key given as the CA', ['--ca-file', TLS_FILES.clientKey], /^--ca-file holds no PEM certificate/],
    [
      'a certificate given as the key',
      ['--client-cert', TLS_FILES.clientCert, '--client-key', TLS_FILES.clientCert],
      /^--client-key holds no PEM private key/,
    ],
    [
      'a key of another certificate',
      ['--client-cert', TLS_FILES.clientCert, '--client-key', TLS_FILES.serverKey],
      /^--client-cert does not belong to the key in --client-key/,
    ],
    ['a certificate without its key', ['--client-cert', TLS_FILES.clientCert], /^--client-cert needs its private key/],
    ['a key without its certificate', ['--client-key', TLS_FILES.clientKey], /^--client-key needs its certificate/],
    [
      'PKCS#12 and PEM both',
      ['--client-pfx', TLS_FILES.clientPfx, '--client-cert', TLS_FILES.clientCert, '--client-key', TLS_FILES.clientKey],
      /^--client-pfx and --client-cert both give a client certificate/,
    ],
    [
      'a PEM given as PKCS#12',
      ['--client-pfx', TLS_FILES.clientCert],
      /^--client-pfx is not a PKCS#12 file Node can read/,
    ],
  ])('%s is bad usage naming the flag and the file', (_what, argv, message) => {
    expect(() => resolveRunSettings([...remote, ...argv], PW)).toThrow(UsageError);
    expect(() => resolveRunSettings([...remote, ...argv], PW)).toThrow(message);
  });

  test('a garbled certificate is named as invalid', () => {
    const pem = readFileSync(TLS_FILES.ca, 'utf8');
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, pem.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA'));
    expect(() => resolveRunSettings([...remote, '--ca-file', broken], PW)).toThrow(
      /^--ca-file is not a valid PEM certificate: /,
    );
  });
});

describe('headers', () => {
  test(
    '--header "Name: value" repeatable, "Name: env:VAR" from the variable; a flag replaces a config '
      + 'header of the same name',
    () => {
      const cfg = file('headers.json', {
        target: { headers: { 'X-Team': 'from-file', 'X-Tenant': 'acme', 'X-Api-Key': { env: 'ACME_KEY' } } },
      });
      const s = resolveRunSettings(
        [...remote, '--config', cfg, '--header', 'x-team: payments', '--header', 'X-Trace:  on '],
        { ...PW, ACME_KEY: 'k' },
      );
      expect(s.network!.headers).toEqual([
        { name: 'x-team', value: 'payments' },
        { name: 'X-Tenant', value: 'acme' },
        { name: 'X-Api-Key', value: 'k', variable: 'ACME_KEY' },
        { name: 'X-Trace', value: 'on' },
      ]);
    },
  );

  test.each<[string, string[], NodeJS.ProcessEnv, RegExp]>([
    [
      "Content-Type (the binding's)",
      ['--header', 'Content-Type: text/plain'],
      {},
      /^--header .*sets Content-Type, which the harness sets itself/,
    ],
    ["SOAPAction (the binding's)", ['--header', 'soapaction: x'], {}, /sets soapaction, which the harness sets itself/],
    ["Host (the transport's)", ['--header', 'Host: x'], {}, /sets Host/],
    ['no colon', ['--header', 'X-Api-Key'], {}, /must be "Name: value"/],
    ['an invalid name', ['--header', 'X Api: v'], {}, /names an invalid header "X Api"/],
    ['a name twice', ['--header', 'X-A: 1', '--header', 'x-a: 2'], {}, /gives x-a a second time/],
    [
      'an unset variable',
      ['--header', 'X-Api-Key: env:ACME_KEY'],
      {},
      /takes X-Api-Key from the environment variable ACME_KEY, which is not set/,
    ],
    [
      'a bad variable name',
      ['--header', 'X-Api-Key: env:1X'],
      {},
      /names "1X" for X-Api-Key, which is not an environment variable's name/,
    ],
    [
      'a line break from the variable',
      ['--header', 'X-Api-Key: env:ACME_KEY'],
      { ACME_KEY: 'a\r\nInjected: 1' },
      /a line break or NUL \(from ACME_KEY\)/,
    ],
  ])('%s is bad usage', (_what, argv, env, message) => {
    expect(() => resolveRunSettings([...remote, ...argv], { ...PW, ...env })).toThrow(UsageError);
    expect(() => resolveRunSettings([...remote, ...argv], { ...PW, ...env })).toThrow(message);
  });

  test('a literal value is not echoed in the message naming the flag', () => {
    expect(() => resolveRunSettings([...remote, '--header', 'Content-Type: s3cret-literal'], PW)).toThrow(
      /^--header "Content-Type: …"/,
    );
    expect(() => resolveRunSettings([...remote, '--header', 'Content-Type: s3cret-literal'], PW)).not.toThrow(
      /s3cret-literal/,
    );
  });

  test(
    'in a config file: a string is literal, "env:X" as a string is refused (write { "env": "X" }), other '
      + 'shapes too',
    () => {
      const envString = file('h-env-string.json', { target: { headers: { 'X-Api-Key': 'env:ACME_KEY' } } });
      expect(() => resolveRunSettings([...remote, '--config', envString], { ...PW, ACME_KEY: 'k' })).toThrow(
        ConfigError,
      );
      expect(() => resolveRunSettings([...remote, '--config', envString], { ...PW, ACME_KEY: 'k' })).toThrow(
        /target\.headers\.X-Api-Key is the string "env:ACME_KEY": .*\{ "env": "ACME_KEY" \}/,
      );
      const own = file('h-own.json', { target: { headers: { SOAPAction: 'x' } } });
      expect(() => resolveRunSettings([...remote, '--config', own], PW)).toThrow(
        /target\.headers\.SOAPAction sets SOAPAction/,
      );
      const shape = file('h-shape.json', { target: { headers: { 'X-A': 3 } } });
      expect(() => resolveRunSettings([...remote, '--config', shape], PW)).toThrow(ConfigError);
    },
  );

  test('the library takes the same keys, the variables from the environment it is given', () => {
    const s = resolveRunSettingsObject(
      {
        target: {
          bookUrl: 'http://b',
          searchUrl: 'http://s',
          user: 'u',
          password: 'p',
          headers: { 'X-Api-Key': { env: 'K' } },
          proxy: 'http://p:1',
        },
      },
      { K: 'v' },
    );
    expect(s.network).toMatchObject({
      headers: [{ name: 'X-Api-Key', value: 'v', variable: 'K' }],
      httpProxy: { url: 'http://p:1' },
    });
  });

  test('the schema accepts the documented shapes and refuses others', () => {
    const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
    expect(
      validateJson(
        {
          target: {
            headers: { 'X-A': 'v', 'X-B': { env: 'B' } },
            proxy: 'http://p:1',
            noProxy: 'a,b',
            caFile: 'ca.pem',
          },
        },
        schema,
      ),
    ).toEqual([]);
    expect(validateJson({ target: { headers: { 'X-B': { env: 'B', value: 'x' } } } }, schema)).not.toEqual([]);
    expect(validateJson({ target: { proxy: 'socks5://p:1' } }, schema)).not.toEqual([]);
  });
});
