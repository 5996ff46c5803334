/** The mock command: flags, the printed URL, signals, exit codes. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation } from '../contract/catalogue.js';
import { call, resultElement, validParams } from '../../test/support/mock.js';
import { parseMockFlags } from './main.js';
import { FAULTS } from './faults.js';

const ROOT = new URL('../../', import.meta.url);
const children: ReturnType<typeof spawn>[] = [];
// Each command runs in its own process group (npx → sh → tsx → node): ending the group ends them all.
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) continue;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    try {
      process.kill(-c.pid, 'SIGTERM');
    } catch {
      continue;
    }
    await gone;
  }
});

const CONFORMANCE = fileURLToPath(new URL('bin/conformance.js', ROOT));

/**
 * Start the command as `npx tsx src/mock/main.ts ...`, or (for signal tests) as `node
 * bin/conformance.js mock ...`: one node process that gets the signal itself. npm exec does not
 * hand a signal's outcome back as an exit code, and tsx's CLI relays a signal with a 30 ms wait for
 * the child's word before it kills it (exit 143 on a loaded machine).
 */
function run(args: string[], via: 'npx' | 'node' = 'npx') {
  const [cmd, pre] = via === 'npx' ? ['npx', ['tsx', 'src/mock/main.ts']] : [process.execPath, [CONFORMANCE, 'mock']];
  const child = spawn(cmd, [...pre, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
  });
  firstLine.catch(() => undefined);
  return { child, exited, firstLine, out: () => stdout, err: () => stderr };
}

describe('npm run mock -- flags', () => {
  test(
    '--port 0 --user --password --book-ns --search-ns: prints the URL, serves with them, closes on ' + 'SIGTERM',
    async () => {
      const secret = 'pa55-w0rd-not-printed';
      const ns = { book: 'urn:acme:book:1/', search: 'https://acme.example/search/1/' };
      const p = run(
        ['--port', '0', '--user', 'alice', '--password', secret, '--book-ns', ns.book, '--search-ns', ns.search],
        'node',
      );
      const line = await p.firstLine;
      const m = /^mock listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      expect(m, line).not.toBeNull();
      const url = m![1]!;
      expect(Number(m![2])).toBeGreaterThan(0);

      const meals = findOperation('GetMeals')!;
      const ok = await call(url, ns, meals, 'soap12', validParams(meals, { userName: 'alice', password: secret }));
      expect(ok.status).toBe(200);
      expect(resultElement(meals, 'soap12', ok.body).ns).toBe(ns.search);
      const cancel = findOperation('CancelBooking')!;
      const booked = await call(url, ns, cancel, 'get', validParams(cancel, { userName: 'alice', password: secret }));
      expect(resultElement(cancel, 'get', booked.body).ns).toBe(ns.book);
      const refused = await call(url, ns, cancel, 'get', validParams(cancel));
      expect(refused.status).toBe(500);

      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.out()).not.toContain(secret);
      expect(p.err()).not.toContain(secret);
      expect(p.out()).toContain('mock closed');
    },
  );

  test('npx tsx src/mock/main.ts --port 0 prints the URL and serves', async () => {
    const p = run(['--port', '0']);
    const url = /^mock listening on (\S+)$/.exec(await p.firstLine)![1]!;
    const langs = findOperation('GetLanguages')!;
    const r = await call(url, DEFAULT_NAMESPACES, langs, 'post', validParams(langs));
    expect(r.status).toBe(200);
    expect(p.out()).not.toContain('mock-password');
  });

  test('a reader that closes the pipe after the URL does not take the mock down: it goes on serving', async () => {
    const p = run(['--port', '0'], 'node');
    const url = /^mock listening on (\S+)$/.exec(await p.firstLine)![1]!;
    p.child.stdout!.destroy(); // as `| head -1` does: the next line the mock prints meets a closed pipe
    const langs = findOperation('GetLanguages')!;
    // The process must still be there and answer.
    for (let i = 0; i < 3; i++)
      expect((await call(url, DEFAULT_NAMESPACES, langs, 'post', validParams(langs))).status).toBe(200);
    expect(p.child.exitCode).toBeNull();
    p.child.kill('SIGTERM'); // "mock closed" goes to the closed pipe: dropped, and a clean exit
    expect(await p.exited).toBe(0);
    expect(p.err()).not.toMatch(/EPIPE|Unhandled/);
  });

  test('SIGINT closes cleanly too', async () => {
    const p = run(['--port', '0'], 'node');
    expect(await p.firstLine).toMatch(/^mock listening on http:\/\/127\.0\.0\.1:\d+$/);
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
  });

  test.for([
    [['--bogus'], /bogus/],
    [['--port', 'abc'], /--port must be an integer.*"abc"/],
    [['--port', '70000'], /--port/],
    [['--port'], /--port/],
    [['--book-ns', 'not a uri'], /--book-ns must be an absolute URI/],
    [['stray'], /stray/],
  ] as const)('bad flags %j → exit 2 naming the problem', async ([args, message]) => {
    // The mock's own command line in one process (the npx tsx entry is proven above): a process per flag set is enough.
    const p = run([...args], 'node');
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(message);
    expect(p.out()).toBe('');
  });
});

describe('npm run mock -- --fault / --list-faults / --vary', () => {
  test('--list-faults prints every fault with operation and bindings, exit 0', async () => {
    const p = run(['--list-faults'], 'node');
    expect(await p.exited).toBe(0);
    const lines = p.out().trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${FAULTS.length} faults`));
    expect(lines).toHaveLength(FAULTS.length + 1);
    expect(lines.some((l) => /^charset-missing\s+GetHotelNoteTypes\s+get\s+Content-Type/.test(l))).toBe(true);
  });

  test('an unknown fault name: exit 2, saying how to see the names', async () => {
    const p = run(['--port', '0', '--fault', 'charset-missing,no-such-fault'], 'node');
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(/unknown fault "no-such-fault".*--list-faults/);
    expect(p.out()).toBe('');
  });

  test('--fault NAME --vary: the fault is committed, the rest answers in varied forms', async () => {
    const p = run(['--port', '0', '--fault', 'status-202-on-valid-call', '--vary'], 'node');
    const url = /^mock listening on (\S+)$/.exec(await p.firstLine)![1]!;
    const langs = findOperation('GetLanguages')!;
    expect((await call(url, DEFAULT_NAMESPACES, langs, 'get', validParams(langs))).status).toBe(202);
    expect((await call(url, DEFAULT_NAMESPACES, langs, 'post', validParams(langs))).status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.out()).toContain('faults: status-202-on-valid-call');
    expect(p.out()).toContain('variation mode');
  });
});

describe('parseMockFlags', () => {
  test('--fault is repeatable and comma-separated; --vary', () => {
    const f = parseMockFlags(['--fault', 'charset-missing, empty-body', '--fault', 'truncated-body', '--vary']);
    expect(f).toMatchObject({ faults: ['charset-missing', 'empty-body', 'truncated-body'], vary: true });
  });
  test('--fault with no name, or an unknown one, is refused', () => {
    expect(() => parseMockFlags(['--fault', ','])).toThrow(/--fault names no fault/);
    expect(() => parseMockFlags(['--fault', 'nope'])).toThrow(/unknown fault "nope"/);
  });
  test('--list-faults', () => {
    expect(parseMockFlags(['--list-faults'])).toBe('list-faults');
  });

  test('defaults', () => {
    expect(parseMockFlags([])).toEqual({
      port: 8080,
      user: 'mock-user',
      password: 'mock-password',
      otherUser: 'mock-other',
      otherPassword: 'mock-other-password',
      namespaces: {
        book: 'http://mock.accommodation.test/book/1/',
        search: 'http://mock.accommodation.test/search/1/',
      },
      paths: DEFAULT_PATHS,
      faults: [],
      vary: false,
      realService: false,
    });
  });
  test(
    'the second account: --other-user, --other-password or its variable; the same user as the first is ' + 'refused',
    () => {
      expect(parseMockFlags(['--other-user', 'agency-2', '--other-password', 'pw2'])).toMatchObject({
        otherUser: 'agency-2',
        otherPassword: 'pw2',
      });
      expect(
        parseMockFlags(['--other-user', 'agency-2'], { CONFORMANCE_MOCK_OTHER_PASSWORD: 'from-env' }),
      ).toMatchObject({ otherPassword: 'from-env' });
      expect(() => parseMockFlags(['--other-user', 'mock-user'])).toThrow(
        '--other-user must name another account than --user (both are "mock-user")',
      );
      expect(() => parseMockFlags(['--user', 'a', '--other-user', 'a'])).toThrow(
        /--other-user must name another account/,
      );
      expect(() => parseMockFlags(['--other-password', ''])).toThrow('--other-password must not be empty');
    },
  );
  test('--help', () => {
    expect(parseMockFlags(['--help'])).toBe('help');
  });
  test('--real-service and the service paths (HTTP follows SOAP, transfers follow search); a bad path is named', () => {
    const f = parseMockFlags([
      '--real-service',
      '--book-http-path',
      '/1/PostGet/Booking.asmx',
      '--search-path',
      '/15/SOAP/NonStaticXMLAPI.asmx',
    ]);
    expect(f).toMatchObject({
      realService: true,
      paths: {
        booking: { soap: '/1/SOAP/Booking.asmx', http: '/1/PostGet/Booking.asmx' },
        reference: { soap: '/15/SOAP/NonStaticXMLAPI.asmx', http: '/15/SOAP/NonStaticXMLAPI.asmx' },
        transfers: { soap: '/15/SOAP/NonStaticXMLAPI.asmx', http: '/15/SOAP/NonStaticXMLAPI.asmx' },
      },
    });
    expect(() => parseMockFlags(['--book-path', 'x'])).toThrow(/--book-path is not a service path/);
  });
  test('--user= and --password= may not be empty', () => {
    expect(() => parseMockFlags(['--user='])).toThrow(/--user must not be empty/);
  });
});

describe("the mock's password off its command line (issue 22)", () => {
  test(
    "CONFORMANCE_MOCK_PASSWORD gives the password; --password wins; the default is the mock's, stated in " + '--help',
    async () => {
      expect(parseMockFlags([], { CONFORMANCE_MOCK_PASSWORD: 'Tr4vel-S3cret' })).toMatchObject({
        password: 'Tr4vel-S3cret',
      });
      expect(parseMockFlags(['--password', 'flag-pw'], { CONFORMANCE_MOCK_PASSWORD: 'Tr4vel-S3cret' })).toMatchObject({
        password: 'flag-pw',
      });
      expect(parseMockFlags([], {})).toMatchObject({ password: 'mock-password' });
      const { helpText } = await import('../core/flags.js');
      const { MOCK_HELP, MOCK_OPTIONS } = await import('./main.js');
      const text = helpText('usage', MOCK_OPTIONS, MOCK_HELP).replace(/\s+/g, ' ');
      expect(text).toMatch(
        /--password <S> the accepted password [^-]*\(default: mock-password\) \(env: CONFORMANCE_MOCK_PASSWORD\)/,
      );
    },
  );
});
