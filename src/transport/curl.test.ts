import { execFile, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { curlCommand } from './curl.js';
import { makeRedactor, swapCase as swapCaseOf } from '../core/redact.js';
import type { HttpRequest } from '../core/types.js';
import { requestAt } from '../bindings/endpoint.js';
import { DEFAULT_NAMESPACES, findOperation } from '../contract/catalogue.js';
import type { RunningMock } from '../mock/server.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../mock/handlers.js';
import {
  PFX_PASSPHRASE,
  startNetworkRig,
  TLS_FILES,
  type NetworkRig,
  type TestProxy,
  type TlsFront,
} from '../../test/support/network.js';

/** Whether curl is on this machine (the commands that need it are skipped, and say so, where it is not). */
const CURL = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Run a command in sh with only `env` (and PATH), without blocking: the servers it talks to are in this process. */
function sh(cmd: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', cmd], { env: { ...env, PATH: process.env.PATH! }, timeout: 20_000 }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out: String(out), err: String(err) });
    });
  });
}

const SECRET = 'p@ss w&rd<"$x';

describe('reproduce command', () => {
  test('GET: parameters url-encoded by curl, the password as the guarded $CONFORMANCE_PASSWORD', () => {
    const q = new URLSearchParams({ userName: 'u', password: SECRET, language: 'en' });
    const cmd = curlCommand(
      { method: 'GET', url: `http://h:8/1/SOAP/NonStaticXMLAPI.asmx/GetMeals?${q}`, headers: {} },
      SECRET,
    );
    expect(cmd).not.toContain('p@ss');
    expect(cmd).toContain('-G http://h:8/1/SOAP/NonStaticXMLAPI.asmx/GetMeals');
    expect(cmd).toContain(
      '--data-urlencode "password=${CONFORMANCE_PASSWORD:?set CONFORMANCE_PASSWORD to the password}"',
    );
    expect(cmd).toContain('--data-urlencode userName=u');
  });

  test('SOAP: the here-document expands the variable and nothing else', () => {
    const body = `<Envelope><password>${'p@ss w&amp;rd&lt;"$x'}</password><t>$HOME \`id\`</t></Envelope>`;
    const cmd = curlCommand(
      {
        method: 'POST',
        url: 'http://h/1/SOAP/Booking.asmx',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:x/Op"' },
        body,
      },
      SECRET,
    );
    expect(cmd).not.toContain('p@ss');
    expect(cmd).toContain('-H \'soapaction: "urn:x/Op"\'');
    // Expand the here-document with a real shell: the variable comes back, $HOME and `id` stay literal.
    const script = cmd.replace(/curl [^\n]*--data-binary @- /, 'cat ');
    const out = execFileSync('bash', ['-c', script], {
      env: { CONFORMANCE_PASSWORD: 'S3CRET', PATH: process.env.PATH },
    }).toString();
    expect(out).toContain('<password>S3CRET</password>');
    expect(out).toContain('<t>$HOME `id`</t>');
  });

  test("one password's commands, another's in between: each as if it came first (the last one's forms kept)", () => {
    const soap = (password: string): HttpRequest => ({
      method: 'POST',
      url: 'http://h/1/SOAP/Booking.asmx',
      headers: { 'content-type': 'text/xml' },
      body: `<u>${password}</u><p>${swapCaseOf(password)}</p><q>${password.slice(0, -1)}</q>`,
    });
    const other = 'Other-Pa55';
    const fresh = curlCommand(soap(SECRET), SECRET);
    curlCommand(soap(other), other, 'OTHER_PASSWORD');
    const again = curlCommand(soap(SECRET), SECRET);
    expect(again).toBe(fresh);
    expect(curlCommand(soap(SECRET), SECRET, 'OTHER_PASSWORD')).toBe(
      fresh.replaceAll('CONFORMANCE_PASSWORD', 'OTHER_PASSWORD'),
    );
    const otherCmd = curlCommand(soap(other), other, 'OTHER_PASSWORD');
    expect(otherCmd).not.toContain('Pa55');
    expect(otherCmd).toContain('OTHER_PASSWORD_SWAPPED');
    expect(otherCmd).toContain('OTHER_PASSWORD_PREFIX');
  });

  test('SOAP: a password with XML special characters comes back escaped, so the body stays well-formed', () => {
    const body = `<Envelope><password>${'p@ss w&amp;rd&lt;"$x'}</password></Envelope>`;
    const cmd = curlCommand(
      {
        method: 'POST',
        url: 'http://h/1/SOAP/Booking.asmx',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body,
      },
      SECRET,
    );
    expect(cmd).not.toContain('p@ss');
    // Run the whole command with a real shell, curl replaced by cat.
    const script = cmd.replace(/curl [^\n]*--data-binary @- /, 'cat ');
    expect(script).not.toBe(cmd);
    for (const [pw, xml] of [
      [SECRET, 'p@ss w&amp;rd&lt;&quot;$x'],
      [`a&b<c>d"e'f`, 'a&amp;b&lt;c&gt;d&quot;e&apos;f'],
      ['plain', 'plain'],
    ]) {
      const out = execFileSync('bash', ['-c', script], {
        env: { CONFORMANCE_PASSWORD: pw, PATH: process.env.PATH },
      }).toString();
      expect(out, pw).toBe(`<Envelope><password>${xml}</password></Envelope>\n`);
    }
  });

  test(
    'SOAP: any byte of the password survives the command, CR and LF included (the service reads the same '
      + 'password)',
    async () => {
      const { soap11, soap12 } = await import('../bindings/soap.js');
      const { findOperation, DEFAULT_NAMESPACES } = await import('../contract/catalogue.js');
      const { parseXml } = await import('../xml/tree.js');
      const op = findOperation('GetMeals')!;
      for (const [i, pw] of ['a\rb', 'a\nb\n', `q'"<&>\\ $\`{}\r\n\t%.`, 'é€\u2028 ends with a dot.'].entries()) {
        for (const b of [i % 2 ? soap12 : soap11]) {
          const req = b.encodeRequest(
            op,
            { userName: 'u', password: pw, language: 'en' },
            'http://h',
            DEFAULT_NAMESPACES.search,
          );
          const cmd = curlCommand(req, pw);
          const script = cmd.replace(/curl [^\n]*--data-binary @- /, 'cat ');
          const out = execFileSync('bash', ['-c', script], {
            env: { CONFORMANCE_PASSWORD: pw, PATH: process.env.PATH },
          }).toString();
          const call = parseXml(out).root.children[0]!.children[0]!;
          expect(call.children.find((c) => c.local === 'password')?.text, JSON.stringify(pw)).toBe(pw);
        }
      }
    },
  );

  test('the password is read from the variable it came from; unset, the command stops and says what to set', () => {
    const op = {
      method: 'POST' as const,
      url: 'http://h/x/Op',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: SECRET }).toString(),
    };
    const cmd = curlCommand(op, SECRET, 'ACME_PASSWORD');
    expect(cmd).toContain('"password=${ACME_PASSWORD:?set ACME_PASSWORD to the password}"');
    expect(cmd).not.toContain('CONFORMANCE_PASSWORD');
    const soap = curlCommand(
      {
        method: 'POST',
        url: 'http://h/s',
        headers: { 'content-type': 'text/xml' },
        body: '<p>p@ss w&amp;rd&lt;"$x</p><q>' + SECRET.replace('&', '') + '</q>',
      },
      SECRET,
      'ACME_PASSWORD',
    );
    const script = soap.replace(/curl [^\n]*--data-binary @- /, 'cat ');
    const run = (env: Record<string, string>) => {
      try {
        return {
          out: execFileSync('bash', ['-c', script], {
            env: { ...env, PATH: process.env.PATH! },
            stdio: 'pipe',
          }).toString(),
          err: '',
        };
      } catch (e) {
        return { out: '', err: String((e as { stderr: Buffer }).stderr) };
      }
    };
    expect(run({ ACME_PASSWORD: 'S3' }).out).toContain('<p>S3</p>');
    expect(run({}).err).toContain('ACME_PASSWORD: set ACME_PASSWORD to the password');
    expect(run({ CONFORMANCE_PASSWORD: 'S3' }).err).toContain('set ACME_PASSWORD to the password');
  });

  test('URL user-info is never part of the command (the transport does not send it either)', () => {
    const reqs: HttpRequest[] = [
      { method: 'GET', url: 'http://bob:urlsecret@h:8/1/SOAP/X.asmx/Op?a=1', headers: {} },
      {
        method: 'POST',
        url: 'https://bob:urlsecret@h/1/SOAP/X.asmx',
        headers: { 'content-type': 'text/xml' },
        body: '<e/>',
      },
    ];
    for (const req of reqs) {
      const cmd = curlCommand(req, SECRET);
      expect(cmd).not.toContain('urlsecret');
      expect(cmd).not.toContain('bob@');
      expect(cmd).toMatch(/https?:\/\/h(:8)?\/1\/SOAP/);
    }
  });

  test('POST form: pairs through --data-urlencode', () => {
    const cmd = curlCommand(
      {
        method: 'POST',
        url: 'http://h/x/Op',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password: SECRET, a: "it's" }).toString(),
      },
      SECRET,
    );
    expect(cmd).not.toContain('p@ss');
    expect(cmd).toContain(`--data-urlencode 'a=it'\\''s'`);
  });
});

describe('the password in other letter case (the password-case variant)', () => {
  /**
   * The command run by bash with curl replaced by a function printing its arguments, one per line (and stdin, for a
   * here-document).
   */
  const args = (cmd: string, env: Record<string, string>) =>
    execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; [ -t 0 ] || cat; }; ${cmd}`], {
      env: { ...env, PATH: process.env.PATH! },
      stdio: 'pipe',
    }).toString();
  const PASSWORD = `Mock-Pa55&<word>"'`;
  const SWAPPED = `mOCK-pA55&<WORD>"'`;

  test('GET and POST form: the command makes it from the variable with tr', () => {
    const get = curlCommand(
      { method: 'GET', url: `http://h/x/Op?${new URLSearchParams({ userName: 'u', password: SWAPPED })}`, headers: {} },
      PASSWORD,
    );
    const form = curlCommand(
      {
        method: 'POST',
        url: 'http://h/x/Op',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password: SWAPPED }).toString(),
      },
      PASSWORD,
    );
    for (const cmd of [get, form]) {
      expect(cmd).not.toContain('pA55');
      expect(
        cmd.startsWith(
          ': "${CONFORMANCE_PASSWORD:?set CONFORMANCE_PASSWORD to the password}" && CONFORMANCE_PASSWORD_SWAPPED=',
        ),
      ).toBe(true);
      expect(args(cmd, { CONFORMANCE_PASSWORD: PASSWORD })).toContain(`\npassword=${SWAPPED}\n`);
      expect(() => args(cmd, {})).toThrow(/set CONFORMANCE_PASSWORD to the password/);
    }
  });

  test('SOAP: swapped, then XML-escaped, trailing line breaks kept', () => {
    for (const pw of [PASSWORD, 'abc\n\n']) {
      const escaped = swapCaseOf(pw).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const cmd = curlCommand(
        { method: 'POST', url: 'http://h/s', headers: { 'content-type': 'text/xml' }, body: `<p>${escaped}</p>` },
        pw,
      );
      expect(cmd).not.toContain('pA55');
      const out = args(cmd, { CONFORMANCE_PASSWORD: pw });
      expect(out.slice(out.indexOf('<p>')), JSON.stringify(pw)).toBe(
        `<p>${swapCaseOf(pw).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')}</p>\n`,
      );
    }
  });

  test(
    'a password beyond ASCII is not swapped by the command (tr would not do it as JavaScript does): it '
      + 'stays for the redactor',
    () => {
      const pw = 'straße-Ǆ';
      const cmd = curlCommand(
        { method: 'GET', url: `http://h/x/Op?${new URLSearchParams({ password: swapCaseOf(pw) })}`, headers: {} },
        pw,
      );
      expect(cmd).not.toContain('_SWAPPED');
      expect(makeRedactor([pw])(cmd)).toContain('password=***');
    },
  );
});

describe('redaction', () => {
  test('every wire form of the secret and URL user-info passwords are replaced', () => {
    const r = makeRedactor([SECRET]);
    const forms = [
      SECRET,
      encodeURIComponent(SECRET),
      new URLSearchParams({ p: SECRET }).toString().slice(2),
      'p@ss w&amp;rd&lt;"$x',
    ];
    for (const f of forms) expect(r(`before ${f} after`)).toBe('before *** after');
    expect(r('http://bob:hunter2@host/x')).toBe('http://bob:***@host/x');
  });
  test('the forms a target may echo the secret back in are replaced too', () => {
    const r = makeRedactor([SECRET]);
    const xml = 'p@ss w&amp;rd&lt;&quot;$x';
    const echoed = [
      JSON.stringify(SECRET).slice(1, -1),
      xml,
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(SECRET).toString('base64url'),
    ];
    for (const f of echoed) expect(r(`<e>${f}</e>`)).toBe('<e>***</e>');
    const withQuote = makeRedactor([`it's "x"`]);
    for (const f of [
      'it&apos;s &quot;x&quot;',
      'it&#39;s &quot;x&quot;',
      'it&#39;s &#34;x&#34;',
      JSON.stringify(`it's "x"`).slice(1, -1),
    ]) {
      expect(withQuote(`[${f}]`)).toBe('[***]');
    }
  });
  test('two layers of escaping (a fault quoting the escaped request) are replaced', () => {
    const r = makeRedactor([SECRET]);
    const xml = 'p@ss w&amp;rd&lt;"$x';
    for (const f of [
      xml.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
      encodeURIComponent(encodeURIComponent(SECRET)),
      JSON.stringify(xml).slice(1, -1),
    ]) {
      expect(r(`<e>${f}</e>`), f).toBe('<e>***</e>');
    }
  });
  test('a secret with whitespace runs is found folded, as findings quote it', () => {
    expect(makeRedactor(['pass  \tword'])('faultstring "bad pass word"')).toBe('faultstring "bad ***"');
  });
  test('the start of a secret left where a text was cut ("…") is replaced; ordinary cuts are left alone', () => {
    const r = makeRedactor([SECRET]);
    expect(r(`faultstring "${'P'.repeat(20)}p@ss w…"`)).toBe(`faultstring "${'P'.repeat(20)}***…"`);
    expect(r(`body ${'x'.repeat(10)}p@ss w&amp;\n… (120 more characters)`)).toBe(
      `body ${'x'.repeat(10)}***\n… (120 more characters)`,
    );
    expect(r('a p@… b p@s… c')).toBe('a p@… b ***… c'); // two characters are not enough to tell
    expect(r('…leading and trailing…')).toBe('…leading and trailing…');
    expect(makeRedactor(['***abc'])('x ***a… y ***ab…')).toBe('x ***… y ***…'); // terminates when the replacement starts a form
  });
  test('a user-info password holding "@" is redacted up to the last "@" of the authority', () => {
    expect(makeRedactor([])('bad URL http://bob:p@ss@word@host:99999/x')).toBe('bad URL http://bob:***@host:99999/x');
  });
  test('an empty secret redacts nothing', () => {
    expect(makeRedactor([''])('abc')).toBe('abc');
  });
});

describe('the network: proxy, TLS files, extra headers', () => {
  const GET: HttpRequest = { method: 'GET', url: 'https://svc.example.com/x/GetMeals?language=en', headers: {} };

  test('each option as curl takes it; secrets named by their variables, never written', () => {
    const net = {
      httpsProxy: { url: 'http://bob:pr0xy-pw@proxy:3128', variable: 'HTTPS_PROXY' },
      caFile: '/etc/ca dir/ca.pem',
      clientCert: '/c/client.pem',
      clientKey: '/c/client.key',
      insecureTls: true,
      headers: [
        { name: 'X-Api-Key', value: 'k3y-value', variable: 'ACME_KEY' },
        { name: 'X-Team', value: "o'neil" },
      ],
    };
    const cmd = curlCommand(GET, '', undefined, net);
    expect(cmd).toContain('--proxy "${HTTPS_PROXY:?set HTTPS_PROXY to the proxy URL}"');
    expect(cmd).toContain("-k --cacert '/etc/ca dir/ca.pem' --cert /c/client.pem --key /c/client.key");
    expect(cmd).toContain('-H "X-Api-Key: ${ACME_KEY:?set ACME_KEY to the X-Api-Key header}"');
    expect(cmd).toContain(`-H 'X-Team: o'\\''neil'`);
    expect(cmd).not.toContain('pr0xy-pw');
    expect(cmd).not.toContain('k3y-value');
    // A proxy without credentials is written as it is; one from --proxy with credentials is read from
    // CONFORMANCE_PROXY.
    expect(curlCommand(GET, '', undefined, { httpsProxy: { url: 'http://proxy:3128' } })).toContain(
      '--proxy http://proxy:3128 ',
    );
    expect(curlCommand(GET, '', undefined, { httpsProxy: { url: 'http://u:p@proxy:3128' } })).toContain(
      '--proxy "${CONFORMANCE_PROXY:?set CONFORMANCE_PROXY to the proxy URL}"',
    );
    // An https URL does not take the http proxy (curl's rule, and the transport's); a host NO_PROXY names bypasses it,
    // whatever curl's environment says.
    expect(curlCommand(GET, '', undefined, { httpProxy: { url: 'http://proxy:3128' } })).toContain("--noproxy '*'");
    expect(
      curlCommand(GET, '', undefined, { httpsProxy: { url: 'http://proxy:3128' }, noProxy: '.example.com' }),
    ).toContain("--noproxy '*'");
    // PKCS#12: the passphrase from its variable.
    const pfx = curlCommand(GET, '', undefined, {
      clientPfx: '/c/client.p12',
      pfxPassphrase: 'pfx-pw',
      pfxPassphraseVariable: 'CONFORMANCE_CLIENT_PFX_PASSPHRASE',
    });
    expect(pfx).toContain(
      '--cert-type P12 --cert /c/client.p12 --pass "${CONFORMANCE_CLIENT_PFX_PASSPHRASE:?set '
        + 'CONFORMANCE_CLIENT_PFX_PASSPHRASE to the passphrase}"',
    );
    expect(pfx).not.toContain('pfx-pw');
  });

  test('a variable the command needs and the shell lacks stops it, saying what to set', async () => {
    const cmd = curlCommand({ method: 'GET', url: 'http://127.0.0.1:9/x', headers: {} }, '', undefined, {
      headers: [{ name: 'X-Api-Key', value: 'v', variable: 'ACME_KEY' }],
    });
    const r = await sh(cmd, {});
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('ACME_KEY: set ACME_KEY to the X-Api-Key header');
  });

  describe.skipIf(!CURL)(
    'with curl (the commands run in sh against the mock, a proxy and a TLS server on loopback)',
    () => {
      let mock: RunningMock;
      let proxy: TestProxy;
      let authed: TestProxy;
      let front: TlsFront;
      let rig: NetworkRig | undefined;
      beforeAll(async () => {
        rig = await startNetworkRig('alice:pr0xy pw');
        ({ mock, proxy, authed, front } = rig);
      });
      afterAll(() => rig?.close());
      const op = findOperation('GetMeals')!;
      const params = { userName: DEFAULT_USER, password: DEFAULT_PASSWORD, language: 'en' };
      const env = { CONFORMANCE_PASSWORD: DEFAULT_PASSWORD, ACME_KEY: 'acme k3y' };

      test(
        'GET through the forward proxy with a header from its variable: the proxy counts it and sees the ' + 'header',
        async () => {
          const before = proxy.counts.forwarded;
          const cmd = curlCommand(
            requestAt(mock.url, op, 'get', params, DEFAULT_NAMESPACES),
            DEFAULT_PASSWORD,
            undefined,
            {
              httpProxy: { url: proxy.url },
              headers: [{ name: 'X-Api-Key', value: 'acme k3y', variable: 'ACME_KEY' }],
            },
          );
          const r = await sh(cmd, env);
          expect(r.out, r.err).toMatch(/^HTTP\/1\.1 200/);
          expect(r.out).toContain('MealsResult');
          expect(proxy.counts.forwarded).toBe(before + 1);
          expect(proxy.headers.at(-1)!['x-api-key']).toBe('acme k3y');
        },
      );

      test('a proxy with credentials, read from the variable named: the proxy accepts them', async () => {
        const url = authed.url.replace('//', '//alice:pr0xy%20pw@');
        const cmd = curlCommand(
          requestAt(mock.url, op, 'soap11', params, DEFAULT_NAMESPACES),
          DEFAULT_PASSWORD,
          undefined,
          { httpProxy: { url, variable: 'HTTP_PROXY' } },
        );
        expect(cmd).not.toContain('pr0xy');
        const r = await sh(cmd, { ...env, HTTP_PROXY: url });
        expect(r.out, r.err).toMatch(/^HTTP\/1\.1 200/);
        expect(authed.counts.refused).toBe(0);
        expect(authed.counts.forwarded).toBe(1);
      });

      test('SOAP over TLS through CONNECT with the CA file and the client certificate (PEM, then PKCS#12)', async () => {
        const req = requestAt(front.url, op, 'soap12', params, DEFAULT_NAMESPACES);
        const tunnels = proxy.counts.tunnels;
        const pem = await sh(
          curlCommand(req, DEFAULT_PASSWORD, undefined, {
            httpsProxy: { url: proxy.url },
            caFile: TLS_FILES.ca,
            clientCert: TLS_FILES.clientCert,
            clientKey: TLS_FILES.clientKey,
          }),
          env,
        );
        expect(pem.out, pem.err).toMatch(/^HTTP\/1\.1 200/m);
        expect(proxy.counts.tunnels).toBe(tunnels + 1);
        const p12 = await sh(
          curlCommand(req, DEFAULT_PASSWORD, undefined, {
            caFile: TLS_FILES.ca,
            clientPfx: TLS_FILES.clientPfx,
            pfxPassphrase: PFX_PASSPHRASE,
            pfxPassphraseVariable: 'CONFORMANCE_CLIENT_PFX_PASSPHRASE',
          }),
          { ...env, CONFORMANCE_CLIENT_PFX_PASSPHRASE: PFX_PASSPHRASE },
        );
        expect(p12.out, p12.err).toMatch(/^HTTP\/1\.1 200/m);
        // Without the CA file curl refuses the target's certificate, as the transport does.
        const noCa = await sh(
          curlCommand(req, DEFAULT_PASSWORD, undefined, {
            clientCert: TLS_FILES.clientCert,
            clientKey: TLS_FILES.clientKey,
          }),
          env,
        );
        expect(noCa.code).toBe(60);
      });
    },
  );
});

describe('reproduce command of the login-password-prefix variant (issue 42)', () => {
  test('the password without its last character is made from the variable (${VAR%?}), never written', () => {
    const password = 'Tr0ub4dor&3é';
    const prefix = [...password].slice(0, -1).join('');
    const req: HttpRequest = {
      method: 'GET',
      url: `http://127.0.0.1:9/GetMeals?userName=u&password=${encodeURIComponent(prefix)}`,
      headers: {},
    };
    const cmd = curlCommand(req, password);
    expect(cmd).not.toContain('Tr0ub4dor');
    expect(cmd).toContain('"password=${CONFORMANCE_PASSWORD_PREFIX}"');
    // The step the command runs first gives the prefix back, byte for byte.
    const step = /CONFORMANCE_PASSWORD_PREFIX=\$\{CONFORMANCE_PASSWORD%\?\}/.exec(cmd)![0];
    const out = execFileSync('bash', ['-c', `${step} && printf '%s' "$CONFORMANCE_PASSWORD_PREFIX"`], {
      env: { ...process.env, CONFORMANCE_PASSWORD: password, LC_ALL: 'C.UTF-8' },
    }).toString('utf8');
    expect(out).toBe(prefix);
  });
});

describe('reproduce command of the login variants made of the password (issue 42)', () => {
  test.each([
    ['characters added', (p: string) => `${p}x`],
    ['spaces around it', (p: string) => ` ${p} `],
  ])('%s: GET and POST name the variable in its place', (_, make) => {
    const password = 'Tr0ub4$dor"3';
    for (const req of [
      {
        method: 'GET',
        url: `http://127.0.0.1:9/GetMeals?userName=u&password=${encodeURIComponent(make(password))}`,
        headers: {},
      },
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/GetMeals',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ userName: 'u', password: make(password) }).toString(),
      },
    ] as HttpRequest[]) {
      const cmd = curlCommand(req, password);
      expect(cmd).not.toContain('Tr0ub4');
      const word = /"password=[^"]*\}[^"]*"/.exec(cmd)![0];
      const out = execFileSync('bash', ['-c', `printf '%s' ${word}`], {
        env: { ...process.env, CONFORMANCE_PASSWORD: password },
      }).toString('utf8');
      expect(out).toBe(`password=${make(password)}`);
    }
  });
});
