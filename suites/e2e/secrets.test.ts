/**
 * The password never appears in any output: whole conformance runs through the command line (the
 * embedded mock; a target that echoes the password back in every encoding, in faults, documents and
 * headers; one that puts it where excerpts are cut), then every written file (allure-results
 * included) and the console are searched for it in every spelling (test/support/processes.ts:
 * secretSpellings, one or two layers of URL, form, XML, HTML and JSON escaping, base64, and its
 * start before a cut). Also: credentials from the environment, reproduce commands, and error paths.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostileServer, type Behaviour, type HostileServer } from '../../test/support/hostile-server.js';
import {
  findSecret,
  readReport,
  readTree,
  REPORT_FILES,
  runCli,
  tempDir,
  type CliResult,
} from '../../test/support/processes.js';

/** Distinctive, and different in every encoding: quotes, markup, backslash, space, %, +, non-ASCII. */
const PASSWORD = `Zx9 "q'<&>\\ %+é/=Kv`;
const USER = 'secrets-user';

let work: string;
let hostile: HostileServer;

beforeAll(async () => {
  work = tempDir('secrets');
  hostile = await startHostileServer({});
});
afterAll(async () => {
  await hostile?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function scan(secret: string, cli: CliResult, dir: string | undefined): string[] {
  const files =
    dir && existsSync(dir) ? readTree(dir).map((f) => ({ name: f.path.slice(dir.length + 1), bytes: f.bytes })) : [];
  return findSecret(secret, [...files, { name: 'stdout', bytes: cli.stdout }, { name: 'stderr', bytes: cli.stderr }]);
}

/** XML's character references and the five named entities, decoded. */
const decodeRefs = (t: string) =>
  t
    .replace(/&#[xX]([0-9a-fA-F]{1,6});/g, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]{1,7});/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (_m, n: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[n]!);
/** CDATA delimiters and comments taken out: what is left of a text's markup is its content. */
const stripMarkup = (t: string) => t.replace(/<!\[CDATA\[|\]\]>|<!--[\s\S]*?-->/g, '');

/**
 * Where the secret occurs in the text content of any output (kept apart from src/core/redact.ts):
 * each file read with its markup taken out and its references decoded, in turn, three times (a report
 * escapes the markup of the excerpt it quotes), every reading searched for every spelling.
 */
function scanContent(secret: string, cli: CliResult, dir: string): string[] {
  const sources = [
    ...readTree(dir).map((f) => ({ name: f.path.slice(dir.length + 1), text: f.bytes.toString('utf8') })),
    { name: 'stdout', text: cli.stdout },
    { name: 'stderr', text: cli.stderr },
  ];
  return sources.flatMap(({ name, text }) => {
    const readings: { name: string; bytes: string }[] = [];
    let t = text;
    for (let i = 1; i <= 3; i++) {
      t = stripMarkup(t);
      readings.push({ name: `${name} (markup out, ${i})`, bytes: t });
      t = decodeRefs(t);
      readings.push({ name: `${name} (references decoded, ${i})`, bytes: t });
    }
    return findSecret(secret, readings);
  });
}

function expectAllReports(dir: string): void {
  for (const f of REPORT_FILES) expect(existsSync(join(dir, f)), f).toBe(true);
  expect(
    readdirSync(join(dir, 'allure-results')).some((f) => f.endsWith('-attachment.txt') || f.endsWith('-result.json')),
  ).toBe(true);
}

describe('the password appears in no output', () => {
  test(
    'a whole run against the embedded mock (--password flag): console, JSON, HTML, Markdown, JUnit, ' + 'Allure',
    async () => {
      const dir = join(work, 'embedded');
      const cli = await runCli(['run', '--password', PASSWORD, '--report-dir', dir]);
      expect(cli.code, cli.stderr).toBe(0);
      expectAllReports(dir);
      const report = readReport(dir);
      expect(report.summary.total).toBeGreaterThan(1000);
      expect(scan(PASSWORD, cli, dir)).toEqual([]);
      // Reproduce commands name the variable instead: GET/POST through --data-urlencode, SOAP in the here-document.
      const commands = report.results.filter((r) => r.case === 'default').map((r) => r.reproduce);
      expect(
        commands.some((c) =>
          c.includes('"password=${CONFORMANCE_PASSWORD:?set CONFORMANCE_PASSWORD to the password}"'),
        ),
      ).toBe(true);
      // (this password holds XML special characters: the command escapes it into CONFORMANCE_PASSWORD_XML first)
      expect(
        commands.some(
          (c) =>
            c.startsWith(
              ': "${CONFORMANCE_PASSWORD:?set CONFORMANCE_PASSWORD to the password}" && '
                + 'CONFORMANCE_PASSWORD_XML=$(printf',
            ) && c.includes('<password>${CONFORMANCE_PASSWORD_XML}</password>'),
        ),
      ).toBe(true);
      expect(report.target.password).toBe('***');
    },
  );

  for (const b of ['echo', 'echo-cut'] as Behaviour[]) {
    test(`a target that ${
      b === 'echo'
        ? 'echoes the password back (raw, escaped, encoded, base64; faults, documents, a header, the whole request)'
        : 'quotes the password where a 120-character excerpt cuts it'
    }`, async () => {
      hostile.clear();
      const dir = join(work, b);
      const cli = await runCli([
        'run',
        '--book-url',
        hostile.url(b),
        '--search-url',
        hostile.url(b),
        '--user',
        USER,
        '--password',
        PASSWORD,
        '--allow-mutations',
        '--max-rps',
        '1000',
        '--concurrency',
        '8',
        '--report-dir',
        dir,
      ]);
      // An echo is not this service: no valid call reached the data path (exit 5, nothing tested).
      expect(cli.code, cli.stderr).toBe(5);
      expectAllReports(dir);
      // The target did receive the password and did send it back: the reports are clean because of redaction.
      const valid = hostile.of(b).filter((r) => r.body.includes('secrets-user') || r.url.includes('secrets-user'));
      expect(valid.length).toBeGreaterThan(50);
      const report = readReport(dir);
      const withResponse = report.results.filter((r) => r.response !== undefined);
      expect(withResponse.length).toBeGreaterThan(20);
      expect(withResponse.some((r) => r.response!.includes('***'))).toBe(true);
      expect(report.results.some((r) => /\*\*\*/.test(r.message))).toBe(true);
      expect(scan(PASSWORD, cli, dir)).toEqual([]);
    });
  }

  test(
    'a target that echoes the password split by markup (adjacent CDATA sections, a comment, a character '
      + 'reference): masked whole in every report',
    async () => {
      hostile.clear();
      const dir = join(work, 'echo-split');
      const cli = await runCli([
        'run',
        '--book-url',
        hostile.url('echo-split'),
        '--search-url',
        hostile.url('echo-split'),
        '--operations',
        'GetMeals,GetSpecialRequest',
        '--user',
        USER,
        '--password',
        PASSWORD,
        '--max-rps',
        '1000',
        '--report-dir',
        dir,
      ]);
      // An echo is not this service: no valid call reached the data path (exit 5, nothing tested).
      expect(cli.code, cli.stderr).toBe(5);
      expectAllReports(dir);
      // The target did send each split form back, and the reports show each masked whole.
      const responses = readReport(dir).results.flatMap((r) => (r.response ? [r.response] : []));
      for (const masked of [
        '<cdata><![CDATA[***]]></cdata>',
        '<comment>***</comment>',
        '<charref>***</charref>',
        '<all><![CDATA[***]]></all>',
      ]) {
        expect(
          responses.some((t) => t.includes(masked)),
          masked,
        ).toBe(true);
      }
      // Every file (JSON, JUnit, HTML, Markdown, Allure) and the console, as bytes and as text content.
      expect(scan(PASSWORD, cli, dir)).toEqual([]);
      expect(scanContent(PASSWORD, cli, dir)).toEqual([]);
    },
  );

  test(
    'credentials from the environment only (CONFORMANCE_USER, CONFORMANCE_PASSWORD): sent to the target, '
      + 'never printed',
    async () => {
      hostile.clear();
      const dir = join(work, 'env');
      const cli = await runCli(
        [
          'run',
          '--book-url',
          hostile.url('echo'),
          '--search-url',
          hostile.url('echo'),
          '--operations',
          'GetMeals,GetSpecialRequest',
          '--max-rps',
          '1000',
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_USER: 'env-user', CONFORMANCE_PASSWORD: PASSWORD },
      );
      expect(cli.code, cli.stderr).toBe(5);
      const got = hostile.of('echo');
      expect(got.length).toBeGreaterThan(10);
      const soap11 = got.filter((r) => r.headers.soapaction !== undefined && r.body.includes('<password>'));
      expect(
        soap11.some((r) =>
          r.body.includes(`<userName>env-user</userName><password>Zx9 "q'&lt;&amp;&gt;\\ %+é/=Kv</password>`),
        ),
      ).toBe(true);
      const gets = got.filter((r) => r.method === 'GET' && r.url.includes('userName=env-user'));
      expect(gets.some((r) => new URL(r.url, 'http://x').searchParams.get('password') === PASSWORD)).toBe(true);
      expect(scan(PASSWORD, cli, dir)).toEqual([]);
    },
  );

  test(
    "the second account's password (--other-user, CONFORMANCE_OTHER_PASSWORD): in no report, console line "
      + 'or re-run command',
    async () => {
      hostile.clear();
      const dir = join(work, 'other');
      const other = `Qw7 "o'<&>\\ %+ü/=Lm`;
      const cli = await runCli(
        [
          'run',
          '--book-url',
          hostile.url('echo'),
          '--search-url',
          hostile.url('echo'),
          '--operations',
          'GetMeals',
          '--other-user',
          'second-agency',
          '--max-rps',
          '1000',
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_USER: 'env-user', CONFORMANCE_PASSWORD: PASSWORD, CONFORMANCE_OTHER_PASSWORD: other },
      );
      expect(cli.code, cli.stderr).not.toBe(2);
      expect(readReport(dir).target.otherUser).toBe('second-agency');
      expect(scan(other, cli, dir)).toEqual([]);
      expect(scanContent(other, cli, dir)).toEqual([]);
    },
  );
});

describe('error paths print no password', () => {
  const URL_SECRET = 'urlSecret-7Q2x';

  test('a bad --book-url holding user:password@ (usage error, exit 2)', async () => {
    const cli = await runCli(['run', '--book-url', `http://acme:${URL_SECRET}@host.example:99999`, '--user', 'u'], {
      CONFORMANCE_PASSWORD: PASSWORD,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--book-url is not a valid URL/);
    expect(scan(URL_SECRET, cli, undefined)).toEqual([]);
    expect(scan(PASSWORD, cli, undefined)).toEqual([]);
  });

  // The redaction of an invalid URL's user-info must run to the last "@" (it once stopped at the first).
  test('a bad --book-url whose user-info password holds "@"', async () => {
    const cli = await runCli(['run', '--book-url', 'http://acme:url@Secret-7Q2x@host.example:99999', '--user', 'u'], {
      CONFORMANCE_PASSWORD: PASSWORD,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).not.toContain('Secret-7Q2x');
  });

  test(
    'a valid --book-url holding user:password@ (a host that refuses: exit 4): the run goes on and no '
      + 'output holds that password',
    async () => {
      const dir = join(work, 'userinfo');
      const book = hostile.refusedUrl.replace('http://', `http://acme:${URL_SECRET}@`);
      const cli = await runCli(
        [
          'run',
          '--book-url',
          book,
          '--search-url',
          book,
          '--operations',
          'GetMeals',
          '--user',
          'u',
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_PASSWORD: PASSWORD },
      );
      expect(cli.code, cli.stderr).toBe(4);
      expectAllReports(dir);
      expect(readReport(dir).results.some((r) => /connection_refused/.test(r.message))).toBe(true);
      expect(scan(URL_SECRET, cli, dir)).toEqual([]);
      expect(scan(PASSWORD, cli, dir)).toEqual([]);
    },
  );

  test('a password in a config file is refused without echoing it', async () => {
    const file = join(work, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        target: { bookUrl: 'http://127.0.0.1:9', searchUrl: 'http://127.0.0.1:9', user: 'u', password: PASSWORD },
      }),
    );
    const cli = await runCli(['run', '--config', file]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/target\.password is not accepted in a file/);
    expect(scan(PASSWORD, cli, undefined)).toEqual([]);
  });

  test(
    'a report that would hold the password is redacted by the guard, not refused: the run is kept, stderr '
      + 'names the files',
    async () => {
      // The guard of src/report: the run's password equal to the user name puts it in the reports'
      // target (the engine's redaction covers what was sent and received, not the configured user).
      const dir = join(work, 'guard');
      const cli = await runCli([
        'run',
        '--user',
        'same-as-password',
        '--password',
        'same-as-password',
        '--operations',
        'GetMeals',
        '--report-dir',
        dir,
      ]);
      expect(cli.code, cli.stderr).toBe(0);
      expectAllReports(dir);
      expect(cli.stderr).toMatch(
        /warning: .*conformance\.json would have contained secret #1 in \d+ places? that the run's own redaction did not cover: redacted there as \*\*\*/,
      );
      expect(readReport(dir).target.user).toBe('***');
      expect(readReport(dir).summary.failed).toBe(0);
      expect(scan('same-as-password', cli, dir)).toEqual([]);
    },
  );
});
