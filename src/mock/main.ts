/**
 * `npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]
 * [--fault NAME[,NAME]]... [--vary] [--list-faults]`: start the reference mock, print the URL it
 * listens on (never the password), run until SIGINT or SIGTERM, then close. `--fault` makes it
 * break the contract in the named ways (src/mock/faults.ts), `--vary` makes it answer in every
 * legitimate way (src/mock/vary.ts), `--list-faults` prints the fault catalogue and exits.
 * Bad flags (an unknown fault name included): a message naming what was wrong on stderr and exit code 2.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_NAMESPACES, type Namespaces } from '../contract/catalogue.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from './handlers.js';
import { FAULTS, listFaults, resolveFaults, UnknownFaultError } from './faults.js';
import { startMock } from './server.js';
import { ReplayError } from './replay.js';

const USAGE = 'usage: npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]\n'
  + '                    [--fault NAME[,NAME]]... [--vary] [--list-faults] [--replay DIR]';

export interface MockCommandIO {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const consoleIO: MockCommandIO = { out: (s) => console.log(s), err: (s) => console.error(s) };

interface MockFlags { port: number; user: string; password: string; namespaces: Namespaces; faults: string[]; vary: boolean; replay?: string }

/** Parse the flags, or throw an Error whose message names the bad flag. */
export function parseMockFlags(argv: readonly string[]): MockFlags | 'help' | 'list-faults' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      'book-ns': { type: 'string' },
      'search-ns': { type: 'string' },
      fault: { type: 'string', multiple: true },
      vary: { type: 'boolean' },
      'list-faults': { type: 'boolean' },
      replay: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (values['list-faults']) return 'list-faults';
  let port = 8080;
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
    port = Number(values.port);
  }
  const ns = (flag: string, v: string | undefined, fallback: string): string => {
    if (v === undefined) return fallback;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v)) throw new Error(`${flag} must be an absolute URI, got "${v}"`);
    return v;
  };
  for (const [flag, v] of [['--user', values.user], ['--password', values.password]] as const) {
    if (v !== undefined && v === '') throw new Error(`${flag} must not be empty`);
  }
  const faults = (values.fault ?? []).flatMap((v) => v.split(',')).map((n) => n.trim()).filter(Boolean);
  if (values.fault !== undefined && faults.length === 0) throw new Error('--fault names no fault');
  resolveFaults(faults);
  return {
    port,
    user: values.user ?? DEFAULT_USER,
    password: values.password ?? DEFAULT_PASSWORD,
    namespaces: {
      book: ns('--book-ns', values['book-ns'], DEFAULT_NAMESPACES.book),
      search: ns('--search-ns', values['search-ns'], DEFAULT_NAMESPACES.search),
    },
    faults,
    vary: values.vary ?? false,
    ...(values.replay !== undefined ? { replay: values.replay } : {}),
  };
}

/** Run the mock command; resolves with the exit code once a signal has closed the mock. */
export async function mockMain(argv: readonly string[], io: MockCommandIO = consoleIO): Promise<number> {
  let flags: MockFlags | 'help' | 'list-faults';
  try {
    flags = parseMockFlags(argv);
  } catch (e) {
    io.err(`mock: ${(e as Error).message}`);
    if (!(e instanceof UnknownFaultError)) io.err(USAGE);
    return 2;
  }
  if (flags === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (flags === 'list-faults') {
    io.out(`${FAULTS.length} faults (name, operation, bindings, description); use them with --fault NAME:`);
    for (const line of listFaults()) io.out(line);
    return 0;
  }
  let mock;
  try {
    mock = await startMock({
      port: flags.port, user: flags.user, password: flags.password, namespaces: flags.namespaces, faults: flags.faults, vary: flags.vary,
      replay: flags.replay,
    });
  } catch (e) {
    if (e instanceof ReplayError) {
      io.err(`mock: --replay: ${e.message}`);
      return 2;
    }
    io.err(`mock: cannot listen on port ${flags.port}: ${(e as Error).message}`);
    return 2;
  }
  io.out(`mock listening on ${mock.url}`);
  io.out(`  user ${flags.user}; book namespace ${flags.namespaces.book}; search namespace ${flags.namespaces.search}`);
  if (flags.faults.length) io.out(`  faults: ${flags.faults.join(', ')}`);
  if (flags.vary) io.out('  variation mode: every binding answers in other legitimate forms');
  if (mock.replay) {
    const r = mock.replay;
    io.out(`  replaying ${r.size} recorded responses from ${r.dir}`);
    if (r.namespaces.book !== flags.namespaces.book || r.namespaces.search !== flags.namespaces.search) {
      io.out(`  note: recorded with book namespace ${r.namespaces.book}, search namespace ${r.namespaces.search}: pass them as --book-ns/--search-ns to replay them`);
    }
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await mock.close();
  io.out('mock closed');
  return 0;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await mockMain(process.argv.slice(2));
}
