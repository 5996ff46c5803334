/**
 * `npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]
 * [--book-path P] [--book-http-path P] [--search-path P] [--search-http-path P] [--transfers-path P]
 * [--transfers-http-path P] [--fault NAME[,NAME]]... [--vary] [--real-service] [--stateless] [--list-faults]`: start
 * the reference mock, print the URL it listens on (never the password), run until SIGINT or SIGTERM,
 * then close. `--fault` makes it break the contract in the named ways (src/mock/faults.ts), `--vary`
 * makes it answer in every legitimate way (src/mock/vary.ts), `--real-service` as the real service
 * does (src/mock/real-style.ts), `--list-faults` prints the fault catalogue and exits.
 * Bad flags (an unknown fault name included): a message naming what was wrong on stderr and exit code 2.
 * The password may come from CONFORMANCE_MOCK_PASSWORD instead (off the command line, which npm echoes).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { parseBookings, type BookingPools } from '../core/booking-pools.js';
import { fileURLToPath } from 'node:url';
import { helpText, parseFlags } from '../core/flags.js';
import { MOCK_HELP, MOCK_OPTIONS, MOCK_OTHER_PASSWORD_VARIABLE, MOCK_PASSWORD_VARIABLE } from './mock-settings.js';
export {
  MOCK_HELP,
  MOCK_OPTIONS,
  MOCK_OTHER_PASSWORD_VARIABLE,
  MOCK_PASSWORD_VARIABLE,
  MOCK_SETTINGS,
} from './mock-settings.js';
import {
  DEFAULT_NAMESPACES,
  resolvePaths,
  servicePathProblem,
  type GivenPaths,
  type Namespaces,
  type ServicePaths,
} from '../contract/catalogue.js';
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from './handlers.js';
import { FAULTS } from './faults.js';
import { listFaults, resolveFaults, UnknownFaultError } from './fault-lookup.js';
import { startMock } from './server.js';
import { ReplayError } from './replay.js';
import type { TransientMode } from './transient.js';

const USAGE =
  'usage: npm run mock -- [--port P] [--user U] [--password S] [--book-ns URI] [--search-ns URI]\n'
  + '                    [--book-path P] [--book-http-path P] [--search-path P] [--search-http-path P]\n'
  + '                    [--transfers-path P] [--transfers-http-path P]\n'
  + '                    [--fault NAME[,NAME]]... [--vary] [--real-service] [--stateless] [--bookings '
  + 'FILE | --every-id] [--list-faults] [--replay DIR]';

/** The path flags: group, SOAP path flag, HTTP GET/POST path flag. */
const PATH_FLAGS = [
  ['booking', 'book-path', 'book-http-path'],
  ['reference', 'search-path', 'search-http-path'],
  ['transfers', 'transfers-path', 'transfers-http-path'],
] as const;

export interface MockCommandIO {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const consoleIO: MockCommandIO = { out: (s) => console.log(s), err: (s) => console.error(s) };

/**
 * A reader that went away (`npm run mock | head -1`, a supervisor that read the URL and closed the
 * pipe) does not take the mock down: what it would print is dropped, and it goes on serving.
 */
function keepServingWithoutReader(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
}

interface MockFlags {
  port: number;
  user: string;
  password: string;
  otherUser: string;
  otherPassword: string;
  namespaces: Namespaces;
  paths: ServicePaths;
  faults: string[];
  vary: boolean;
  realService: boolean;
  stateless?: true;
  replay?: string;
  bookings?: BookingPools;
  everyId?: true;
  transient?: TransientMode;
}

/** Parse the flags, or throw an Error whose message names the bad flag. */
export function parseMockFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): MockFlags | 'help' | 'list-faults' {
  const { values } = parseFlags(argv, MOCK_OPTIONS);
  if (values.help) return 'help';
  if (values['list-faults']) return 'list-faults';
  let port = 8080;
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535)
      throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
    port = Number(values.port);
  }
  const ns = (flag: string, v: string | undefined, fallback: string): string => {
    if (v === undefined) return fallback;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v)) throw new Error(`${flag} must be an absolute URI, got "${v}"`);
    return v;
  };
  for (const [flag, v] of [
    ['--user', values.user],
    ['--password', values.password],
    ['--other-user', values['other-user']],
    ['--other-password', values['other-password']],
  ] as const) {
    if (v !== undefined && v === '') throw new Error(`${flag} must not be empty`);
  }
  const user = values.user ?? DEFAULT_USER;
  const otherUser = values['other-user'] ?? DEFAULT_OTHER_USER;
  if (otherUser === user) throw new Error(`--other-user must name another account than --user (both are "${user}")`);
  const path = (flag: string): string | undefined => {
    const v = (values as Record<string, unknown>)[flag] as string | undefined;
    const problem = v === undefined ? undefined : servicePathProblem(v);
    if (problem) throw new Error(`--${flag} is not a service path: ${problem} (got ${JSON.stringify(v)})`);
    return v;
  };
  const given: GivenPaths = Object.fromEntries(
    PATH_FLAGS.map(([group, soap, http]) => [group, { soap: path(soap), http: path(http) }]),
  );
  const faults = (values.fault ?? [])
    .flatMap((v) => v.split(','))
    .map((n) => n.trim())
    .filter(Boolean);
  if (values.fault !== undefined && faults.length === 0) throw new Error('--fault names no fault');
  const stateful = resolveFaults(faults).filter((f) => f.stateful);
  if (values.stateless && stateful.length > 0) {
    throw new Error(
      `--stateless: fault ${stateful.map((f) => f.name).join(', ')} needs the mock's state (drop `
        + `--stateless, or that --fault)`,
    );
  }
  if (values['every-id'] && values.bookings !== undefined)
    throw new Error('--every-id and --bookings exclude each other: every id exists, or only those of the file');
  return {
    port,
    user,
    password: values.password ?? (env[MOCK_PASSWORD_VARIABLE] || DEFAULT_PASSWORD),
    otherUser,
    otherPassword: values['other-password'] ?? (env[MOCK_OTHER_PASSWORD_VARIABLE] || DEFAULT_OTHER_PASSWORD),
    namespaces: {
      book: ns('--book-ns', values['book-ns'], DEFAULT_NAMESPACES.book),
      search: ns('--search-ns', values['search-ns'], DEFAULT_NAMESPACES.search),
    },
    paths: resolvePaths(given),
    faults,
    vary: values.vary ?? false,
    realService: values['real-service'] ?? false,
    ...(values.stateless ? { stateless: true as const } : {}),
    ...(values.replay !== undefined ? { replay: values.replay } : {}),
    ...(values.bookings !== undefined ? { bookings: readBookingsFile(values.bookings) } : {}),
    ...(values['every-id'] ? { everyId: true as const } : {}),
    ...transientFlags(values),
  };
}

/** The transient-fault mode of the flags (none when neither --transient nor --drop-writes is given). */
function transientFlags(values: {
  transient?: string;
  'transient-seed'?: string;
  'transient-pause'?: string;
  'drop-writes'?: string;
}): { transient?: TransientMode } {
  const share = (flag: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d*\.?\d+$/.test(v.trim()) || !(n >= 0 && n <= 1))
      throw new Error(`${flag} must be a share from 0 to 1 (0.03 for 3%), got "${v}"`);
    return n;
  };
  const rate = share('--transient', values.transient);
  const dropWrites = share('--drop-writes', values['drop-writes']);
  if (rate === undefined && dropWrites === undefined) {
    for (const f of ['transient-seed', 'transient-pause'] as const)
      if (values[f] !== undefined) throw new Error(`--${f} needs --transient or --drop-writes`);
    return {};
  }
  const seedText = values['transient-seed'];
  if (seedText !== undefined && !/^\d+$/.test(seedText))
    throw new Error(`--transient-seed must be a non-negative integer, got "${seedText}"`);
  const pauseText = values['transient-pause'];
  const m = pauseText === undefined ? undefined : /^(\d+)-(\d+)$/.exec(pauseText.trim());
  if (pauseText !== undefined && (!m || Number(m[1]) > Number(m[2])))
    throw new Error(`--transient-pause must be MIN-MAX in milliseconds (1000-3000), got "${pauseText}"`);
  return {
    transient: {
      rate: rate ?? 0,
      ...(dropWrites !== undefined ? { dropWrites } : {}),
      ...(seedText !== undefined ? { seed: Number(seedText) } : {}),
      ...(m ? { pauseMs: [Number(m[1]), Number(m[2])] as const } : {}),
    },
  };
}

/** The pools file of --bookings, or an Error naming the flag, the file and what is wrong. */
function readBookingsFile(file: string): BookingPools {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(
      `--bookings ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not a JSON file (${(e as Error).message})`}`,
    );
  }
  const pools = parseBookings(v, `--bookings ${file}`);
  if (typeof pools === 'string') throw new Error(pools);
  return pools;
}

/** Run the mock command; resolves with the exit code once a signal has closed the mock. */
export async function mockMain(argv: readonly string[], io: MockCommandIO = consoleIO): Promise<number> {
  if (io === consoleIO) keepServingWithoutReader();
  let flags: MockFlags | 'help' | 'list-faults';
  try {
    flags = parseMockFlags(argv);
  } catch (e) {
    io.err(`mock: ${(e as Error).message}`);
    if (!(e instanceof UnknownFaultError)) io.err(USAGE);
    return 2;
  }
  if (flags === 'help') {
    io.out(helpText(USAGE, MOCK_OPTIONS, MOCK_HELP));
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
      port: flags.port,
      user: flags.user,
      password: flags.password,
      otherUser: flags.otherUser,
      otherPassword: flags.otherPassword,
      namespaces: flags.namespaces,
      paths: flags.paths,
      faults: flags.faults,
      vary: flags.vary,
      realService: flags.realService,
      replay: flags.replay,
      stateless: flags.stateless,
      ...(flags.bookings ? { bookings: flags.bookings } : {}),
      ...(flags.everyId ? { everyId: true } : {}),
      ...(flags.transient ? { transient: flags.transient } : {}),
    });
  } catch (e) {
    if (e instanceof ReplayError) {
      io.err(`mock: --replay: ${e.message}`);
      return 2;
    }
    io.err(`mock: cannot listen on port ${flags.port}: ${(e as Error).message}`);
    return 2;
  }
  // Listening for the signals before the URL is printed: a supervisor may send one as soon as it reads it.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.out(`mock listening on ${mock.url}`);
  io.out(`  user ${flags.user}; book namespace ${flags.namespaces.book}; search namespace ${flags.namespaces.search}`);
  if (flags.faults.length) io.out(`  faults: ${flags.faults.join(', ')}`);
  for (const [group, p] of Object.entries(flags.paths))
    io.out(`  ${group}: SOAP at ${p.soap}, HTTP GET/POST at ${p.http}`);
  if (flags.vary) io.out('  variation mode: every binding answers in other legitimate forms');
  io.out(
    flags.stateless
      ? '  stateless: writes are not stored, bookings cancel any number of times'
      : '  state: special requests written are read back, a booking or transfer booking cancels once '
          + '(--stateless: none)',
  );
  if (flags.bookings) {
    const b = flags.bookings;
    io.out(
      `  bookings: only those of the file `
        + `(${b.cancel.length + b.amend.length + b.specialRequest.length} bookings, ${b.transfers.length} `
        + `transfer bookings) and of fixtures/cases exist; any other id is "not found"`,
    );
  }
  if (flags.everyId)
    io.out(
      '  every id: any id names a booking, made on first touch, blank included (a transfer booking '
        + 'belongs to the email of its first touch)',
    );
  if (flags.transient) {
    const t = flags.transient;
    io.out(
      `  transient faults (seed ${t.seed ?? 1}): ${t.rate} of requests meet a gateway page, a dropped `
        + `connection or a pause (${(t.pauseMs ?? [1000, 3000]).join('-')} ms) before processing`
        + `${t.dropWrites ? `; ${t.dropWrites} of state-changing calls are processed, then dropped` : ''}`,
    );
  }
  if (flags.realService)
    io.out('  real-service style: in-band Error results, null strings left out, element policies and rates, nil fees');
  if (mock.replay) {
    const r = mock.replay;
    io.out(`  replaying ${r.size} recorded responses from ${r.dir}`);
    if (r.namespaces.book !== flags.namespaces.book || r.namespaces.search !== flags.namespaces.search) {
      io.out(
        `  note: recorded with book namespace ${r.namespaces.book}, search `
          + `namespace ${r.namespaces.search}: pass them as --book-ns/--search-ns to replay them`,
      );
    }
  }
  await stopped;
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
