/**
 * `npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]`:
 * start the reference mock, print the URL it listens on (never the password), run until SIGINT or
 * SIGTERM, then close. Bad flags: a message naming what was wrong on stderr and exit code 2.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_NAMESPACES, type Namespaces } from '../contract/catalogue.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from './handlers.js';
import { startMock } from './server.js';

const USAGE = 'usage: npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]';

export interface MockCommandIO {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const consoleIO: MockCommandIO = { out: (s) => console.log(s), err: (s) => console.error(s) };

interface MockFlags { port: number; user: string; password: string; namespaces: Namespaces }

/** Parse the flags, or throw an Error whose message names the bad flag. */
export function parseMockFlags(argv: readonly string[]): MockFlags | 'help' {
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
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
  return {
    port,
    user: values.user ?? DEFAULT_USER,
    password: values.password ?? DEFAULT_PASSWORD,
    namespaces: {
      book: ns('--book-ns', values['book-ns'], DEFAULT_NAMESPACES.book),
      search: ns('--search-ns', values['search-ns'], DEFAULT_NAMESPACES.search),
    },
  };
}

/** Run the mock command; resolves with the exit code once a signal has closed the mock. */
export async function mockMain(argv: readonly string[], io: MockCommandIO = consoleIO): Promise<number> {
  let flags: MockFlags | 'help';
  try {
    flags = parseMockFlags(argv);
  } catch (e) {
    io.err(`mock: ${(e as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  if (flags === 'help') {
    io.out(USAGE);
    return 0;
  }
  let mock;
  try {
    mock = await startMock({ port: flags.port, user: flags.user, password: flags.password, namespaces: flags.namespaces });
  } catch (e) {
    io.err(`mock: cannot listen on port ${flags.port}: ${(e as Error).message}`);
    return 2;
  }
  io.out(`mock listening on ${mock.url}`);
  io.out(`  user ${flags.user}; book namespace ${flags.namespaces.book}; search namespace ${flags.namespaces.search}`);
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
