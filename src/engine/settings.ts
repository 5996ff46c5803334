/**
 * Run settings from flags, environment and an optional JSON config file (in that order of
 * precedence), checked completely: every bad value is named in a UsageError/ConfigError (exit 2).
 * The run's own settings, beneath the CLI: the command hands over its parsed flags
 * (resolveRunSettingsFlags), the library an object (resolveRunSettingsObject).
 */
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from './generate.js';
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { readJsonFile } from '../core/json-file.js';
import { validateJson } from '../schema/json.js';
import type { FlagValues } from '../core/flags.js';
import {
  BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS, resolvePaths, servicePathProblem,
  type BindingId, type Namespaces, type Operation, type ServicePaths,
} from '../contract/catalogue.js';
import { ConfigError, UsageError } from '../core/errors.js';
import type { LatencyLimits, SettingKey } from '../core/types.js';
import { hasLatencyLimit, MIN_LATENCY_SAMPLES } from './latency-gate.js';
import { didYouMean } from '../core/suggest.js';
import { reportDirProblem } from '../report/paths.js';
import { loadFixtureCases, mergeCases, type CaseTable } from './cases.js';
import { parseShard, type Shard } from './shard.js';
import { DEFAULT_TRANSPORT } from '../transport/client.js';
import { OTHER_PASSWORD_VARIABLE } from '../transport/curl.js';
import { parseBookings, type BookingPools } from './bookings.js';
import type { NetworkOptions } from '../core/types.js';
import { networkOf, PROXY_PASSWORD_VARIABLE } from './network-settings.js';
import { RUN_ENV, type RUN_OPTIONS } from './run-settings-table.js';
import type { SettingReader, Sourced } from './sourced.js';
import { DEFAULT_MAX_TRANSIENT } from './transient.js';
import { skipReason } from './plan.js';

function updateExpectations(update: boolean, file: unknown): boolean {
  if (update && file === undefined) throw new UsageError('--update-expectations needs --expectations FILE (the file to write)');
  return update;
}

export const DEFAULT_USER = 'mock-user';
export const DEFAULT_PASSWORD = 'mock-password';
/** The embedded mock's second account (issue 33): its bookings are another agency's, so the authorization sequences run there by default. */
export const DEFAULT_OTHER_USER = 'mock-other';
export const DEFAULT_OTHER_PASSWORD = 'mock-other-password';
export { OTHER_PASSWORD_VARIABLE };

export interface RunSettings {
  /** No target given: the embedded mock is started and tested. */
  readonly embedded: boolean;
  readonly bookUrl?: string;
  readonly searchUrl?: string;
  readonly transfersUrl?: string;
  /** Service paths per group: section 4's unless configured (deployments differ). */
  readonly paths: ServicePaths;
  readonly namespaces: Namespaces;
  readonly user: string;
  readonly password: string;
  /** The environment variable the password came from (a reproduce command names it); undefined for --password or the mock's. */
  readonly passwordVar?: string;
  /** Where each given target setting came from (Target.sources): a hint about its value names that place. */
  readonly sources?: Readonly<Partial<Record<SettingKey, string>>>;
  readonly bindings: BindingId[];
  readonly operations: Operation[];
  /** The operations were named (--operations or the config), not all by default. */
  readonly operationsNamed: boolean;
  readonly allowMutations: boolean;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly deadlineMs?: number;
  readonly maxRps?: number;
  readonly maxBodyBytes: number;
  readonly insecureTls: boolean;
  readonly reportDir: string;
  readonly checks?: string[];
  readonly skipChecks: string[];
  readonly negative: boolean;
  readonly equivalence: boolean;
  readonly cases: CaseTable;
  readonly quiet: boolean;
  /** Known deviations file (src/engine/expectations.ts). */
  readonly expectations?: string;
  /** Write the run's failures into the expectations file before applying it. */
  readonly updateExpectations: boolean;
  /** Run only this part of the matrix (src/engine/shard.ts). */
  readonly shard?: Shard;
  /** Stop sending after this many failed rows (--max-failures). */
  readonly maxFailures?: number;
  /** At most this many login variants (--max-failed-logins; src/engine/plan.ts spreadLogins); all when absent. */
  readonly maxFailedLogins?: number;
  /** Percent of transient exchanges above which the target is unhealthy: exit 4 (--max-transient; src/engine/transient.ts). */
  readonly maxTransient: number;
  /** Give up on a service after this many time-outs or connection failures in a row (0: never). */
  readonly giveUpAfter: number;
  /** Seed of the generated cases (src/engine/generate.ts). */
  readonly seed: number;
  /** Generated cases per operation; 0 turns generation off. */
  readonly examples: number;
  /**
   * The values of `language` for generated cases, pinned (--languages, CONFORMANCE_LANGUAGES, config
   * `languages`), and where they were given: the target's GetLanguages is not asked. A re-run command
   * carries the languages its run used, so it sends the same values even where it cannot ask the target.
   */
  readonly languages?: { readonly values: readonly string[]; readonly source: string };
  /** The bookings state-changing calls may consume (./bookings.ts); undefined: the embedded mock's, or none. */
  readonly bookings?: BookingPools;
  /** Run only the cases whose id matches one of these (--case, repeatable; `*` and `?` glob). */
  readonly caseFilter?: readonly string[];
  /** Print the plan and send nothing (--list / --dry-run), as text or JSON (--list-format). */
  readonly list?: 'text' | 'json';
  /** GitHub Actions output: ::error annotations and the step summary (--github, or GITHUB_ACTIONS=true). */
  readonly github?: boolean;
  /** What the command should print before it sends anything (two password sources that disagree). */
  readonly warnings?: readonly string[];
  /** Proxies, TLS files and extra headers (./network-settings.ts); undefined: none of them set. */
  readonly network?: NetworkOptions;
  /** The config file read (--config or CONFORMANCE_CONFIG), as given: a re-run command names it. */
  readonly configFile?: string;
  /** Where the booking pools came from (never the ids): a re-run command names that file or variable. */
  readonly bookingsFrom?: BookingsSource;
  /** The latency gate's p95 limits (--max-p95, the config's `latency`; ./latency-gate.ts): absent, no gate. */
  readonly latency?: LatencyLimits;
  /** A breaking difference of the target's WSDL from the contract's fails the run (--fail-on-drift, config failOnDrift). */
  readonly failOnDrift?: boolean;
  /** --min-coverage PCT (config minCoverage): below it the run is INCOMPLETE (./coverage.ts), with where it was set. */
  readonly minCoverage?: { readonly percent: number; readonly source: string };
  /**
   * The second account (--other-user, its password in CONFORMANCE_OTHER_PASSWORD or the variable
   * target.otherPasswordEnv names; the embedded mock's own by default). Absent: authorization across
   * accounts is not tested. `passwordVar`: the variable the password came from (a reproduce command names it).
   */
  readonly other?: { readonly user: string; readonly password: string; readonly passwordVar?: string };
  /**
   * The URL at which the target reaches the harness's listener for the external-entity probe
   * (--callback-url, CONFORMANCE_CALLBACK_URL, config callbackUrl; ./callback.ts), and where that
   * listener listens (--callback-listen HOST:PORT; default: every interface at the URL's port, or
   * 127.0.0.1 at a free port for a target on this machine).
   */
  readonly callbackUrl?: string;
  readonly callbackListen?: { readonly host: string; readonly port: number };
}

/** Where the booking pools came from: a file (its path as given), the variable holding the JSON, or the config file's `bookings` object. */
export type BookingsSource = { readonly file: string } | { readonly variable: string } | { readonly config: string };

export { RUN_ENV, RUN_OPTIONS } from './run-settings-table.js';

/** The variable of a flag, if it has one. */
const envOf = (flag: string | undefined): string | undefined => (flag === undefined ? undefined : (RUN_ENV as Record<string, string>)[flag]);

type Json = Record<string, unknown>;

function readConfigFile(path: string, where = `config file ${path}`): { file: Json; problems: string[] } {
  const json = readJsonFile(path, where, (m) => new ConfigError(m));
  return { file: json as Json, problems: checkConfigObject(json, where) };
}

/** The config file's JSON Schema, published for editors and used here. */
export const CONFIG_SCHEMA_URL = new URL('../../schemas/config.schema.json', import.meta.url);
let configSchema: Record<string, unknown> | undefined;

/** "/target/bookUrl" → "target.bookUrl", "/cases/GetMeals/0/id" → "cases.GetMeals[0].id". */
const keyOf = (pointer: string) => pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
  .reduce((a, k) => (/^\d+$/.test(k) ? `${a}[${k}]` : a ? `${a}.${k}` : k), '');

/**
 * Check a config file (or runConformance's settings) against schemas/config.schema.json. Its
 * shape is checked here: the top level, unknown keys (with a "did you mean"), a password in the
 * file. A bad value is returned, not thrown: the settings checks name it first in the words they
 * use for a flag or a variable too (resolveSettings), and the schema's message stands for what
 * they do not check.
 */
function checkConfigObject(json: unknown, where: string, allowPassword = false): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(`${where}: the top level must be an object`);
  configSchema ??= JSON.parse(readFileSync(CONFIG_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  const props = configSchema.properties as Record<string, { properties?: Record<string, unknown> }>;
  const target = (json as Json).target;
  const rest = allowPassword && typeof target === 'object' && target !== null ? { ...json, target: { ...target, password: undefined, otherPassword: undefined, proxyPassword: undefined } } : json;
  if (!allowPassword && typeof target === 'object' && target !== null && 'password' in target) {
    throw new ConfigError(`${where}: target.password is not accepted in a file (files get committed); use --password, CONFORMANCE_PASSWORD or target.passwordEnv`);
  }
  if (!allowPassword && typeof target === 'object' && target !== null && 'otherPassword' in target) throw new ConfigError(OTHER_PASSWORD_IN_FILE(where));
  if (!allowPassword && typeof target === 'object' && target !== null && 'proxyPassword' in target) throw new ConfigError(PROXY_PASSWORD_IN_FILE(where));
  const problems: string[] = [];
  for (const line of validateJson(JSON.parse(JSON.stringify(rest)), configSchema)) {
    const at = line.slice(0, line.indexOf(': '));
    const problem = line.slice(line.indexOf(': ') + 2);
    if (problem === 'property not allowed') {
      const key = keyOf(at);
      const parent = key.includes('.') ? props[key.slice(0, key.lastIndexOf('.'))]?.properties : props;
      const known = Object.keys(parent ?? {}).filter((k) => k !== '$schema');
      const name = key.slice(key.lastIndexOf('.') + 1);
      throw new ConfigError(`${where}: unknown key "${key}"${didYouMean(name, known)}${known.length ? ` (known: ${known.join(', ')})` : ''}`);
    }
    problems.push(`${where}: ${at === '/' ? 'the file' : keyOf(at)}: ${problem}`);
  }
  return problems;
}

/** The message refusing the second account's password in a file, as the first's is refused. */
const OTHER_PASSWORD_IN_FILE = (where: string) =>
  `${where}: target.otherPassword is not accepted in a file (files get committed); use ${OTHER_PASSWORD_VARIABLE} or name another variable with target.otherPasswordEnv`;

/** The message refusing the proxy's password in a file: the user in target.proxy, the password in a variable. */
const PROXY_PASSWORD_IN_FILE = (where: string) =>
  `${where}: target.proxyPassword is not accepted in a file (files get committed); name the user in target.proxy (http://user@host:port) and put the password in ${PROXY_PASSWORD_VARIABLE}, or name another variable with target.proxyPasswordEnv`;

export type { Sourced } from './sourced.js';

/** A bad value: a ConfigError for a config key (the file is wrong), else a UsageError. */
function bad(s: Sourced, message: string): never {
  throw new (s.fromFile ? ConfigError : UsageError)(`${s.source} ${message}`);
}

/**
 * Refuses a list of operations (--operations, CONFORMANCE_OPERATIONS or the config's `operations`:
 * `list` names where) holding state-changing ones that will not be called (no --allow-mutations,
 * a target other than the embedded mock): the run could not test them, and before this it sent the
 * rest and failed the target with `operation_not_called` for the user's own setting.
 */
function refuseForbidden(list: Sourced<string[]>, refused: readonly Operation[]): void {
  if (refused.length === 0) return;
  const names = refused.map((o) => o.name).join(', ');
  const them = refused.length === 1 ? 'it' : 'them';
  bad(list, `names ${names}, which change${refused.length === 1 ? 's' : ''} state on the target: not called without --allow-mutations against a target other than the embedded mock, `
    + `so the run could not test ${them}; add --allow-mutations (or CONFORMANCE_ALLOW_MUTATIONS=true, or "allowMutations": true in the config file) to call ${them} `
    + `on bookings of your own (docs/real-service.md), or drop ${names} from ${list.source}`);
}

/** Reads settings from flags, then environment variables, then the config file, naming each source. */
export class Settings implements SettingReader {
  constructor(
    private readonly flags: Record<string, unknown>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly file: Json,
    private readonly where: string,
  ) {}

  /** The first given of `--flag`, the environment variable and the config key (`target.x` or a top-level key). */
  get(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced | undefined {
    const fv = flag === undefined ? undefined : this.flags[flag];
    if (fv !== undefined) return { value: fv, source: `--${flag}`, fromFile: false };
    const ev = envName === undefined ? undefined : this.env[envName];
    if (ev !== undefined && ev !== '') return { value: ev, source: `environment variable ${envName}`, fromFile: false };
    if (key === undefined) return undefined;
    const [head, tail] = key.startsWith('target.') ? ['target', key.slice(7)] : [key, undefined];
    const container = tail === undefined ? this.file : (this.file.target ?? {}) as Json;
    const cv = container[tail ?? head];
    return cv === undefined ? undefined : { value: cv, source: `${this.where}: ${key}`, fromFile: true };
  }

  string(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced<string> | undefined {
    const s = this.get(flag, envName, key);
    if (s === undefined) return undefined;
    if (typeof s.value !== 'string' || s.value === '') bad(s, `must be a non-empty string (got ${JSON.stringify(s.value)})`);
    return s as Sourced<string>;
  }

  list(flag: string, key: string, envName: string | undefined = envOf(flag)): Sourced<string[]> | undefined {
    const s = this.get(flag, envName, key);
    if (s === undefined) return undefined;
    if (typeof s.value === 'string') return { ...s, value: s.value.split(',').map((x) => x.trim()).filter(Boolean) };
    if (Array.isArray(s.value) && s.value.every((x) => typeof x === 'string')) return s as Sourced<string[]>;
    return bad(s, 'must be a comma-separated string or an array of strings');
  }

  int(flag: string, key: string, min: number, max: number): number | undefined {
    const s = this.get(flag, envOf(flag), key);
    if (s === undefined) return undefined;
    const v = s.value;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) bad(s, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)})`);
    return n;
  }

  /** A percentage, 0 to 100 ("20", "20%", "2.5"), from a flag, an environment variable or a config key. */
  percent(flag: string, envName: string, key: string): number | undefined {
    const s = this.get(flag, envName, key);
    if (s === undefined) return undefined;
    const v = s.value;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*%?\s*$/.test(v) ? Number(v.replace('%', '').trim()) : NaN;
    if (!(n >= 0 && n <= 100)) bad(s, `must be a percentage from 0 to 100, as 20 or 20% (got ${JSON.stringify(v)})`);
    return n;
  }

  /** A switch: the flag (true when given), its variable (true/false, 1/0, yes/no), or the config key. */
  bool(flag: string | undefined, key: string, envName = envOf(flag)): boolean | undefined {
    const s = this.get(flag, envName, key);
    if (s === undefined) return undefined;
    if (typeof s.value === 'string' && !s.fromFile) {
      const v = s.value.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return true;
      if (['false', '0', 'no', 'off'].includes(v)) return false;
      bad(s, `must be true or false (got ${JSON.stringify(s.value)})`);
    }
    if (typeof s.value !== 'boolean') bad(s, 'must be true or false');
    return s.value as boolean;
  }
}

/** A URL with its user-info hidden: everything up to the last "@" may be it (a password can hold "/", ":", "@" or spaces). */
function hideUserInfo(v: string): string {
  return v.replace(/\/\/.*@/s, '//***@');
}

function url(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  // "localhost:8942" parses as a URL of scheme "localhost:", and "example.com" not at all: a host without "http://".
  if (/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d+)?(\/\S*)?$/.test(s.value) && /[.:]/.test(s.value)) {
    return bad(s, `has no scheme: ${JSON.stringify(hideUserInfo(s.value))} needs http:// or https:// in front (e.g. http://${hideUserInfo(s.value).replace(/^\/+/, '')})`);
  }
  let u: URL;
  try {
    u = new URL(s.value);
  } catch {
    return bad(s, `is not a valid URL: ${JSON.stringify(hideUserInfo(s.value))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad(s, `must be an http or https URL (got ${u.protocol})`);
  if (u.search || u.hash) bad(s, 'must be a base URL without query or fragment');
  return s.value.replace(/\/+$/, '');
}

function namespace(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(s.value)) bad(s, `must be an absolute URI (got ${JSON.stringify(s.value)})`);
  return s.value;
}

/** The report directory, checked before anything is sent (a run must never be lost to a bad path). */
function reportDir(s: Sourced<string> | undefined): string {
  const dir = s?.value ?? 'reports';
  const problem = reportDirProblem(dir);
  if (problem && s) bad(s, `cannot hold the reports: ${problem}`);
  if (problem) throw new UsageError(`the default report directory cannot hold the reports: ${problem}; pass --report-dir DIR`);
  return dir;
}

/** Names from a list setting, each a known one, none twice; a near miss gets a "did you mean". */
function names<T>(s: Sourced<string[]>, what: string, known: readonly string[], find: (n: string) => T | undefined): T[] {
  const seen = new Set<string>();
  const out = s.value.map((n) => {
    const hit = find(n);
    if (hit === undefined) bad(s, `names an unknown ${what} "${n}"${didYouMean(n, known)} (${what}s: ${known.join(', ')})`);
    if (seen.has(n)) bad(s, `names the ${what} ${n} twice`);
    seen.add(n);
    return hit;
  });
  if (out.length === 0) bad(s, `names no ${what}`);
  return out;
}

/** The service path settings: flag, environment variable and config key of each group's two paths. */
/** The target settings whose source a hint may name: config key, flag, environment variable. */
const SOURCED: readonly (readonly [SettingKey, string, string])[] = [
  ['bookUrl', 'book-url', 'CONFORMANCE_BOOK_URL'], ['searchUrl', 'search-url', 'CONFORMANCE_SEARCH_URL'], ['transfersUrl', 'transfers-url', 'CONFORMANCE_TRANSFERS_URL'],
  ['bookPath', 'book-path', 'CONFORMANCE_BOOK_PATH'], ['searchPath', 'search-path', 'CONFORMANCE_SEARCH_PATH'], ['transfersPath', 'transfers-path', 'CONFORMANCE_TRANSFERS_PATH'],
  ['bookNs', 'book-ns', 'CONFORMANCE_BOOK_NS'], ['searchNs', 'search-ns', 'CONFORMANCE_SEARCH_NS'],
];

const PATH_SETTINGS = [
  { group: 'booking', flag: 'book-path', httpFlag: 'book-http-path', env: 'CONFORMANCE_BOOK_PATH', httpEnv: 'CONFORMANCE_BOOK_HTTP_PATH', key: 'bookPath', httpKey: 'bookHttpPath' },
  { group: 'reference', flag: 'search-path', httpFlag: 'search-http-path', env: 'CONFORMANCE_SEARCH_PATH', httpEnv: 'CONFORMANCE_SEARCH_HTTP_PATH', key: 'searchPath', httpKey: 'searchHttpPath' },
  { group: 'transfers', flag: 'transfers-path', httpFlag: 'transfers-http-path', env: 'CONFORMANCE_TRANSFERS_PATH', httpEnv: 'CONFORMANCE_TRANSFERS_HTTP_PATH', key: 'transfersPath', httpKey: 'transfersHttpPath' },
] as const;

/** A service path setting, checked. */
function servicePath(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  const problem = servicePathProblem(s.value);
  if (problem) bad(s, `is not a service path: ${problem} (got ${JSON.stringify(s.value)})`);
  return s.value;
}

/** The service paths from flags, environment and config (section 4's where none is given). */
function pathsOf(in_: Settings): ServicePaths {
  return resolvePaths(Object.fromEntries(PATH_SETTINGS.map((p) => [p.group, {
    soap: servicePath(in_.string(p.flag, p.env, `target.${p.key}`)),
    http: servicePath(in_.string(p.httpFlag, p.httpEnv, `target.${p.httpKey}`)),
  }])));
}

/**
 * The booking pools: `--bookings FILE`, then CONFORMANCE_BOOKINGS_FILE (a file), then
 * CONFORMANCE_BOOKINGS (the JSON itself: a CI secret), then the config key `bookings` (the pools, or a
 * file). A bad one names its source; a file's content is a ConfigError.
 */
function bookingsSetting(in_: Settings, env: NodeJS.ProcessEnv, where: string): { bookings?: BookingPools; bookingsFrom?: BookingsSource } {
  const fromFile = (s: Sourced<string>): BookingPools => {
    const json = readJsonFile(s.value, `bookings file ${s.value} (${s.source})`, (m) => new ConfigError(m));
    const r = parseBookings(json, `bookings file ${s.value} (${s.source})`);
    if (typeof r === 'string') throw new ConfigError(r);
    return r;
  };
  const file = in_.string('bookings', 'CONFORMANCE_BOOKINGS_FILE', undefined);
  if (file) return { bookings: fromFile(file), bookingsFrom: { file: file.value } };
  const inline = env.CONFORMANCE_BOOKINGS;
  if (inline !== undefined && inline !== '') {
    let json: unknown;
    try {
      json = JSON.parse(inline);
    } catch (e) {
      throw new UsageError(`environment variable CONFORMANCE_BOOKINGS is not JSON: ${(e as Error).message}`);
    }
    const r = parseBookings(json, 'environment variable CONFORMANCE_BOOKINGS');
    if (typeof r === 'string') throw new UsageError(r);
    return { bookings: r, bookingsFrom: { variable: 'CONFORMANCE_BOOKINGS' } };
  }
  const key = in_.get(undefined, undefined, 'bookings');
  if (key === undefined) return {};
  if (typeof key.value === 'string') return { bookings: fromFile(key as Sourced<string>), bookingsFrom: { file: key.value } };
  const r = parseBookings(key.value, `${where}: bookings`);
  if (typeof r === 'string') throw new ConfigError(r);
  return { bookings: r, bookingsFrom: { config: where } };
}

/**
 * Resolve run settings from the command's parsed flags (with --config FILE, or the file CONFORMANCE_CONFIG
 * names, read here). `env` is process.env in production. `calls` false: a command that calls no
 * operation (drift: it only reads the WSDLs) needs no user or password (it gets '' where none is
 * given), nor a base URL for every operation's group (it reads the services it has a URL for).
 */
export function resolveRunSettingsFlags(f: FlagValues<typeof RUN_OPTIONS>, env: NodeJS.ProcessEnv = process.env, calls = true): RunSettings {
  const path = f.config ?? (env.CONFORMANCE_CONFIG || undefined);
  // A file named by the variable says so in every message about it: the variable is the place to look.
  const where = path === undefined ? 'config' : f.config !== undefined ? `config file ${path}` : `config file ${path} (environment variable CONFORMANCE_CONFIG)`;
  const { file, problems } = path !== undefined ? readConfigFile(path, where) : { file: {}, problems: [] };
  const s = resolveSettings(f, env, file, where, '--password', calls);
  return withSchema(path === undefined ? s : { ...s, configFile: path }, problems);
}

/** Settings the checks accepted, unless the schema found a problem they do not check. */
function withSchema(s: RunSettings, problems: readonly string[]): RunSettings {
  if (problems.length) throw new ConfigError(problems.slice(0, 5).join('; '));
  return s;
}

/**
 * The settings of a run given as an object (the library's runConformance): the keys of a config
 * file, plus `target.password` (a program holds it in memory, not in a committed file). Checked
 * as a config file is, each message naming `where` and the key. No flags; the environment only as
 * given (for `target.passwordEnv`, and the CONFORMANCE_* variables when the caller passes them).
 */
export function resolveRunSettingsObject(settings: unknown, env: NodeJS.ProcessEnv = {}, where = 'settings'): RunSettings {
  const problems = checkConfigObject(settings, where, true);
  const { target, ...rest } = settings as Json & { target?: Json };
  const { password, otherPassword, proxyPassword, ...targetRest } = target ?? {};
  if (password !== undefined && (typeof password !== 'string' || password === '')) throw new ConfigError(`${where}: target.password must be a non-empty string`);
  if (otherPassword !== undefined && (typeof otherPassword !== 'string' || otherPassword === '')) throw new ConfigError(`${where}: target.otherPassword must be a non-empty string`);
  if (proxyPassword !== undefined && (typeof proxyPassword !== 'string' || proxyPassword === '')) throw new ConfigError(`${where}: target.proxyPassword must be a non-empty string`);
  const flags = password === undefined ? {} : { password };
  const other = otherPassword === undefined ? undefined : { value: otherPassword as string, source: `${where}: target.otherPassword`, fromFile: false };
  // fromFile: a bad one is the settings object's (a ConfigError naming the key), as for a config file.
  const proxy = proxyPassword === undefined ? undefined : { value: proxyPassword as string, source: `${where}: target.proxyPassword`, fromFile: true };
  return withSchema(resolveSettings(flags, env, target === undefined ? rest : { ...rest, target: targetRest }, where, `${where}: target.password`, true, other, proxy), problems);
}

/**
 * The order of precedence of the password, most specific first: `--password` (or the library's
 * `target.password`), then the variable the config names in `target.passwordEnv`, then
 * CONFORMANCE_PASSWORD. The config's variable comes before the general one: a file that names its
 * variable says which password this target takes, and a CONFORMANCE_PASSWORD left in a shell (or a
 * CI job) for another target must not override it silently.
 */
export const PASSWORD_PRECEDENCE = '--password, then the variable named by target.passwordEnv, then CONFORMANCE_PASSWORD';

/**
 * The password setting by that precedence, and a warning for each other source that gives a
 * different password: the warning names both sources, never a value.
 */
function passwordOf(in_: Settings, passwordEnv: Sourced<string> | undefined, flagSource: string): { given?: Sourced<string>; warnings: string[] } {
  const flag = in_.string('password', undefined, undefined);
  return accountPassword(in_, flag && { ...flag, source: flagSource }, passwordEnv, 'CONFORMANCE_PASSWORD', PASSWORD_PRECEDENCE, 'passwords');
}

/**
 * An account's password by its precedence: the one given outright (--password, the library's
 * target.password or target.otherPassword), then the variable the config names, then the general
 * variable; with a warning for each other source that gives a different one (sources, never values).
 */
function accountPassword(in_: Settings, outright: Sourced<string> | undefined, passwordEnv: Sourced<string> | undefined, generalVar: string, precedence: string, what: string): { given?: Sourced<string>; warnings: string[] } {
  const named = passwordEnv === undefined ? undefined : in_.string(undefined, passwordEnv.value, undefined);
  // "(named by …)" is for the messages only: a reproduce command names the variable (passwordVar).
  const viaConfig = named === undefined ? undefined : { ...named, source: `${named.source} (named by ${passwordEnv!.source})` };
  const general = passwordEnv?.value === generalVar ? undefined : in_.string(undefined, generalVar, undefined);
  const sources = [outright, viaConfig, general].filter((x): x is Sourced<string> => x !== undefined);
  const [given, ...others] = sources;
  if (given === undefined) return { warnings: [] };
  const warnings = others.filter((o) => o.value !== given.value).map((o) =>
    `two different ${what} are given: the one from ${given.source} is used, the one in ${o.source} is not (precedence: ${precedence})`);
  if (given === general && passwordEnv !== undefined) {
    warnings.push(`${passwordEnv.source} names the variable ${passwordEnv.value}, which is not set: using the password from ${general.source} instead`);
  }
  return { given: given === viaConfig ? named : given, warnings };
}

/** The second account's password order, as PASSWORD_PRECEDENCE is the first's. */
export const OTHER_PASSWORD_PRECEDENCE = `the library's target.otherPassword, then the variable named by target.otherPasswordEnv, then ${OTHER_PASSWORD_VARIABLE}`;

/** What the caller knows that otherAccountOf needs: the first account, how the run is made, and who is told. */
interface AccountContext {
  readonly firstUser: string;
  /** Where the first user came from ("the embedded mock's default" when nowhere). */
  readonly firstUserSource: string;
  readonly embedded: boolean;
  /** --list / --dry-run, or a command that calls nothing: no password is needed. */
  readonly sendsNothing: boolean;
  /** The library's settings object: its messages name its keys, as ConfigErrors. */
  readonly library: boolean;
  readonly where: string;
}

/**
 * The second account (issue 33): --other-user, CONFORMANCE_OTHER_USER or target.otherUser; its
 * password from the library's target.otherPassword, the variable target.otherPasswordEnv names, or
 * CONFORMANCE_OTHER_PASSWORD. There is no --other-password flag: a flag shows in process lists and
 * shell histories; --password is kept for the first account only because scripts already pass it.
 * The embedded mock's own second account when none is named there. A password variable set with no
 * account named is a warning, not an error: a variable left in a shell or a CI job must not stop a
 * run, and the run's reports say that authorization across accounts was not tested.
 */
function otherAccountOf(in_: Settings, outright: Sourced<string> | undefined, c: AccountContext): { other?: RunSettings['other']; warnings: string[]; sources?: Partial<Record<SettingKey, string>> } {
  const envSetting = in_.string(undefined, undefined, 'target.otherPasswordEnv');
  if (envSetting && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(envSetting.value)) bad(envSetting, `must name an environment variable (letters, digits, _; got ${JSON.stringify(envSetting.value)})`);
  const userSetting = in_.string('other-user', RUN_ENV['other-user'], 'target.otherUser');
  const { given, warnings } = accountPassword(in_, outright, envSetting, OTHER_PASSWORD_VARIABLE, OTHER_PASSWORD_PRECEDENCE, 'passwords of the second account');
  if (userSetting === undefined) {
    const unused = given ?? (envSetting && { source: envSetting.source });
    if (unused) {
      warnings.push(`${unused.source} ${given ? 'gives a second account\'s password' : `names ${envSetting!.value} for a second account's password`}, but no second account is named (--other-user, ${RUN_ENV['other-user']} or target.otherUser): it is not used`
        + (c.embedded ? `; the embedded mock's own second account (${DEFAULT_OTHER_USER}) is` : ', and authorization across accounts is not tested'));
    }
    if (!c.embedded) return { warnings };
    // The embedded mock's own account, whatever variable is set: the mock knows that password.
    sameAccount(DEFAULT_OTHER_USER, { value: DEFAULT_OTHER_USER, source: 'the embedded mock\'s second account', fromFile: false }, c);
    const builtIn = 'the embedded mock\'s built-in second account';
    return { other: { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD }, warnings, sources: { otherUser: builtIn, otherPassword: builtIn } };
  }
  const user = userSetting.value;
  sameAccount(user, userSetting, c);
  const password = given?.value ?? (c.embedded ? DEFAULT_OTHER_PASSWORD : c.sendsNothing ? '' : undefined);
  if (password === undefined) {
    const looked = envSetting ? `${envSetting.value} (named by ${envSetting.source}) nor ${OTHER_PASSWORD_VARIABLE} is set` : `${OTHER_PASSWORD_VARIABLE} is not set`;
    if (c.library) {
      throw new ConfigError(`${c.where}: ${userSetting.source.replace(`${c.where}: `, '')} is given but no password for it: give target.otherPassword, or target.otherPasswordEnv naming a variable of options.env, or ${OTHER_PASSWORD_VARIABLE} in options.env${envSetting ? ` (${envSetting.value} is not set there)` : ''}`);
    }
    bad(userSetting, `is given but ${envSetting ? 'neither ' : ''}${looked} (or it is empty): set it to the second account's password (there is no --other-password: a flag shows in process lists)`);
  }
  const passwordVar = given?.source.startsWith('environment variable ') ? given.source.slice('environment variable '.length) : undefined;
  // Where the password came from, in a message's words: the variable and, when the config named it, the key that did.
  const passwordSource = given === undefined ? 'the embedded mock\'s built-in second account'
    : envSetting && passwordVar === envSetting.value ? `${given.source} (named by ${envSetting.source})` : given.source;
  return { other: { user, password, ...(passwordVar ? { passwordVar } : {}) }, warnings, sources: { otherUser: userSetting.source, otherPassword: passwordSource } };
}

/** A second account that is the first tests nothing: an error naming both sources (user names compared without case, as many services do). */
function sameAccount(user: string, s: Sourced<string>, c: AccountContext): void {
  if (user.toLowerCase() === c.firstUser.toLowerCase()) bad(s, `names the same account as the first user (${JSON.stringify(c.firstUser)}, from ${c.firstUserSource}): the second account must be another agency's, or authorization across accounts tests nothing`);
}

function resolveSettings(f: FlagValues<typeof RUN_OPTIONS>, env: NodeJS.ProcessEnv, file: Json, where: string, passwordSource = '--password', calls = true, otherPassword?: Sourced<string>, proxyPassword?: Sourced<string>): RunSettings {
  const t = (file.target ?? {}) as Json;

  const in_ = new Settings(f, env, file, where);

  const bookUrl = url(in_.string('book-url', 'CONFORMANCE_BOOK_URL', 'target.bookUrl'));
  const searchUrl = url(in_.string('search-url', 'CONFORMANCE_SEARCH_URL', 'target.searchUrl'));
  const transfersUrl = url(in_.string('transfers-url', 'CONFORMANCE_TRANSFERS_URL', 'target.transfersUrl'));
  const embedded = !bookUrl && !searchUrl && !transfersUrl;
  const paths = pathsOf(in_);

  const namespaces: Namespaces = {
    book: namespace(in_.string('book-ns', 'CONFORMANCE_BOOK_NS', 'target.bookNs')) ?? DEFAULT_NAMESPACES.book,
    search: namespace(in_.string('search-ns', 'CONFORMANCE_SEARCH_NS', 'target.searchNs')) ?? DEFAULT_NAMESPACES.search,
  };
  const passwordEnvSetting = in_.string(undefined, undefined, 'target.passwordEnv');
  if (passwordEnvSetting && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(passwordEnvSetting.value)) bad(passwordEnvSetting, `must name an environment variable (letters, digits, _; got ${JSON.stringify(passwordEnvSetting.value)})`);
  const passwordEnv = passwordEnvSetting?.value;
  if (t.password !== undefined) throw new ConfigError(`${where}: target.password is not accepted in a file (files get committed); use --password, CONFORMANCE_PASSWORD or target.passwordEnv`);
  if (t.otherPassword !== undefined) throw new ConfigError(OTHER_PASSWORD_IN_FILE(where));
  if (t.proxyPassword !== undefined) throw new ConfigError(PROXY_PASSWORD_IN_FILE(where));
  const userSetting = in_.string('user', 'CONFORMANCE_USER', 'target.user');
  const user = userSetting?.value ?? (embedded ? DEFAULT_USER : calls ? undefined : '');
  // Where the password came from: a reproduce command names that variable.
  const { given, warnings } = passwordOf(in_, passwordEnvSetting, passwordSource);
  // --list / --dry-run send nothing, and drift calls no operation: they need no password (the plan shows it masked anyway).
  const listing = f.list === true || f['dry-run'] === true;
  const password = given?.value ?? (embedded ? DEFAULT_PASSWORD : listing || !calls ? '' : undefined);
  const passwordVar = given === undefined ? undefined : given.source.startsWith('environment variable ') ? given.source.slice('environment variable '.length) : undefined;
  // The library (its settings object, not flags) is told in its own words, with a ConfigError as its docs say.
  const library = passwordSource !== '--password';
  if (user === undefined) {
    if (library) throw new ConfigError(`${where}: no user name for the target: give target.user (or CONFORMANCE_USER in options.env)`);
    throw new UsageError('no user name for the target: pass --user NAME (or CONFORMANCE_USER, or target.user in the config file)');
  }
  if (password === undefined) {
    if (library) {
      throw new ConfigError(`${where}: no password for the target: give target.password, or target.passwordEnv naming a variable of options.env${passwordEnv ? ` (${passwordEnv} is not set there)` : ''}, or CONFORMANCE_PASSWORD in options.env`);
    }
    throw new UsageError(`no password for the target: set CONFORMANCE_PASSWORD${passwordEnv ? ` or ${passwordEnv}` : ''} (or pass --password)`);
  }
  const { other, warnings: otherWarnings, sources: otherSources } = otherAccountOf(in_, otherPassword, {
    firstUser: user, firstUserSource: userSetting?.source ?? 'the embedded mock\'s default', embedded, sendsNothing: listing || !calls, library, where,
  });

  const bindingList = in_.list('bindings', 'bindings');
  const bindings = bindingList ? names(bindingList, 'binding', BINDINGS, (n) => BINDINGS.find((b) => b === n)) : [...BINDINGS];
  const opList = in_.list('operations', 'operations');
  const chosen = opList ? names(opList, 'operation', OPERATIONS.map((o) => o.name), findOperation) : [...OPERATIONS];
  // --skip-operations: a target without one operation today is run on the other thirteen without listing them.
  const skipList = in_.list('skip-operations', 'skipOperations', 'CONFORMANCE_SKIP_OPERATIONS');
  const skipped = skipList ? names(skipList, 'operation', OPERATIONS.map((o) => o.name), findOperation) : [];
  const operations = chosen.filter((o) => !skipped.includes(o));
  if (skipList && operations.length === 0) bad(skipList, `leaves no operation to test (${opList ? `${opList.source} names ${chosen.map((o) => o.name).join(', ')}` : 'it names them all'})`);

  const allowMutations = in_.bool('allow-mutations', 'allowMutations') ?? false;
  // Operations the user named that the mutation policy forbids calling: the user's own setting, said
  // before anything is sent (a usage error), never a failed row against the target (issue 40).
  if (opList && calls && !listing) refuseForbidden(opList, operations.filter((o) => skipReason({ target: { embedded }, allowMutations }, o)));

  if (!embedded && calls) {
    const need = (group: Operation['group']) => operations.filter((o) => o.group === group).map((o) => o.name);
    if (!bookUrl && need('booking').length) throw new UsageError(`no --book-url for the booking operations (${need('booking').join(', ')}); pass it or narrow --operations`);
    if (!searchUrl && need('reference').length) throw new UsageError(`no --search-url for the reference-data operations (${need('reference').join(', ')}); pass it or narrow --operations`);
    if (!searchUrl && !transfersUrl && need('transfers').length) throw new UsageError('no --search-url or --transfers-url for SearchTransfers; pass one or narrow --operations');
  }

  const casesMode = file.casesMode ?? 'extend';
  if (casesMode !== 'extend' && casesMode !== 'replace') throw new ConfigError(`${where}: casesMode must be "extend" or "replace"`);
  if (file.cases !== undefined && (typeof file.cases !== 'object' || file.cases === null || Array.isArray(file.cases))) {
    throw new ConfigError(`${where}: "cases" must be an object keyed by operation name`);
  }
  const cases = file.cases ? mergeCases(loadFixtureCases(), file.cases as Json, casesMode, where) : loadFixtureCases();
  const expectationsSetting = in_.string('expectations', RUN_ENV.expectations, 'expectations');
  const expectations = expectationsSetting?.value;
  if (expectationsSetting && f['update-expectations']) {
    // --update-expectations writes the file after the run: find out now whether it can.
    const problem = reportDirProblem(dirname(expectationsSetting.value));
    if (problem) bad(expectationsSetting, `cannot be written: ${problem}`);
  }

  // Where each target setting came from: a hint about its value names that place (./diagnose.ts).
  const sources = Object.fromEntries(SOURCED.flatMap(([key, flag, envName]) => {
    const given = in_.get(flag, envName, `target.${key}`);
    return given ? [[key, given.source]] : [];
  })) as Partial<Record<SettingKey, string>>;
  Object.assign(sources, otherSources);

  return {
    embedded, sources,
    bookUrl, searchUrl, transfersUrl: transfersUrl ?? searchUrl,
    paths, namespaces, user, password, passwordVar,
    bindings,
    operations,
    operationsNamed: opList !== undefined,
    allowMutations,
    concurrency: in_.int('concurrency', 'concurrency', 1, 256) ?? (embedded ? 16 : 4),
    timeoutMs: in_.int('timeout', 'timeoutMs', 1, 3_600_000) ?? 10_000,
    deadlineMs: in_.int('deadline', 'deadlineMs', 1, 86_400_000),
    maxRps: in_.int('max-rps', 'maxRps', 1, 100_000) ?? (embedded ? undefined : 20),
    maxBodyBytes: in_.int('max-body-bytes', 'maxBodyBytes', 1024, 2 ** 31) ?? 32 * 1024 * 1024,
    insecureTls: in_.bool('insecure-tls', 'insecureTls') ?? false,
    reportDir: reportDir(in_.string('report-dir', RUN_ENV['report-dir'], 'reportDir')),
    checks: in_.list('checks', 'checks')?.value,
    skipChecks: in_.list('skip-checks', 'skipChecks')?.value ?? [],
    negative: !(f['no-negative'] ?? false) && (in_.bool(undefined, 'negative', RUN_ENV['no-negative']) ?? true),
    equivalence: !(f['no-equivalence'] ?? false) && (in_.bool(undefined, 'equivalence', RUN_ENV['no-equivalence']) ?? true),
    cases,
    quiet: f.quiet ?? false,
    expectations,
    updateExpectations: updateExpectations(f['update-expectations'] ?? false, expectations),
    shard: f.shard === undefined ? undefined : parseShard(f.shard),
    maxFailures: in_.int('max-failures', 'maxFailures', 1, 1_000_000),
    maxFailedLogins: in_.int('max-failed-logins', 'maxFailedLogins', 0, 1_000_000),
    maxTransient: in_.percent('max-transient', envOf('max-transient')!, 'maxTransient') ?? DEFAULT_MAX_TRANSIENT,
    giveUpAfter: in_.int('give-up-after', 'giveUpAfter', 0, 1_000_000) ?? DEFAULT_TRANSPORT.giveUpAfter!,
    seed: in_.int('seed', 'seed', 0, 2 ** 31 - 1) ?? DEFAULT_SEED,
    examples: in_.int('examples', 'examples', 0, 1000) ?? DEFAULT_EXAMPLES,
    ...languagesOf(in_),
    ...bookingsSetting(in_, env, where),
    ...caseFilterOf(f.case),
    ...(f.github || env.GITHUB_ACTIONS === 'true' ? { github: true } : {}),
    ...listOf(f),
    warnings: [...warnings, ...otherWarnings],
    ...(other ? { other } : {}),
    // The embedded mock (loopback) is never proxied; a command that calls nothing starts no mock (drift's --wsdl-url reaches a remote host).
    ...networkOf(in_, env, f.header, { embedded: embedded && calls, insecureTls: f['insecure-tls'] ?? in_.bool(undefined, 'insecureTls') ?? false, library, ...(proxyPassword ? { proxyPassword } : {}) }),
    ...latencyOf(in_, file, where),
    ...((f['fail-on-drift'] ?? in_.bool('fail-on-drift', 'failOnDrift')) ? { failOnDrift: true } : {}),
    ...minCoverageOf(in_),
    ...callbackOf(in_),
  };
}

/**
 * --languages a,b (CONFORMANCE_LANGUAGES, config `languages`): the values of `language` the generated
 * cases take, instead of the target's GetLanguages; each a non-empty code without white space, each
 * once. A bad one names its source.
 */
function languagesOf(in_: Settings): { languages?: { values: readonly string[]; source: string } } {
  const s = in_.list('languages', 'languages');
  if (s === undefined) return {};
  if (s.value.length === 0) bad(s, 'names no language (give the codes, comma-separated: en,de)');
  const odd = s.value.find((v) => v === '' || /[\s,]/.test(v));
  if (odd !== undefined) bad(s, `holds ${JSON.stringify(odd)}: a language code has no white space or comma`);
  return { languages: { values: [...new Set(s.value)], source: s.source } };
}

/**
 * --callback-url URL (CONFORMANCE_CALLBACK_URL, config callbackUrl): an http:// or https:// URL
 * without query or fragment; --callback-listen HOST:PORT (CONFORMANCE_CALLBACK_LISTEN, config
 * callbackListen). A bad one names its source.
 */
function callbackOf(in_: Settings): { callbackUrl?: string; callbackListen?: { host: string; port: number } } {
  const url = in_.string('callback-url', envOf('callback-url')!, 'callbackUrl');
  const listen = in_.string('callback-listen', envOf('callback-listen')!, 'callbackListen');
  const out: { callbackUrl?: string; callbackListen?: { host: string; port: number } } = {};
  if (url) {
    let u: URL | undefined;
    try {
      u = new URL(url.value);
    } catch { /* said below */ }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password) {
      bad(url, `must be an http:// or https:// URL at which the target reaches this machine, without user, query or fragment, e.g. http://10.0.0.5:8765 (got ${JSON.stringify(url.value)})`);
    }
    out.callbackUrl = url.value;
  }
  if (listen) {
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(listen.value.trim());
    const port = m ? Number(m[3]) : NaN;
    if (!m || port > 65535) bad(listen, `must be HOST:PORT, e.g. 0.0.0.0:8765 or 127.0.0.1:0 (got ${JSON.stringify(listen.value)})`);
    out.callbackListen = { host: m![1] ?? m![2]!, port };
  }
  return out;
}

/**
 * --min-coverage PCT (CONFORMANCE_MIN_COVERAGE, config minCoverage): a percent from 0 to 100, a
 * trailing "%" allowed; a bad one names its source.
 */
function minCoverageOf(in_: Settings): { minCoverage?: { percent: number; source: string } } {
  const s = in_.get('min-coverage', envOf('min-coverage'), 'minCoverage');
  if (!s) return {};
  const v = s.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*%?\s*$/.test(v) ? Number(v.replace('%', '').trim()) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 100) bad(s, `must be a coverage percent from 0 to 100, e.g. 80 or 72.5 (got ${JSON.stringify(v)})`);
  return { minCoverage: { percent: n, source: s.source } };
}

/** The longest p95 limit accepted, in milliseconds (an hour: longer than any --timeout makes sense). */
const MAX_P95_LIMIT_MS = 3_600_000;

/** A p95 limit in milliseconds, checked; a bad one names its source. */
function p95Ms(s: Sourced): number {
  const v = s.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_P95_LIMIT_MS) bad(s, `must be a p95 limit in milliseconds, a whole number from 1 to ${MAX_P95_LIMIT_MS} (got ${JSON.stringify(v)})`);
  return n;
}

/**
 * The latency gate: `--max-p95 MS` (or the config's `latency.maxP95`) for every operation, and the
 * config's `latency.perOperation` for some, each remembering where it was set. None: no gate.
 */
function latencyOf(in_: Settings, file: Json, where: string): { latency?: LatencyLimits } {
  const l = file.latency;
  if (l !== undefined && (typeof l !== 'object' || l === null || Array.isArray(l))) {
    throw new ConfigError(`${where}: latency must be an object, e.g. { "maxP95": 800, "perOperation": { "GetMeals": 300 } }`);
  }
  const lat = (l ?? {}) as Json;
  const global = in_.get('max-p95', envOf('max-p95'), undefined)
    ?? (lat.maxP95 !== undefined ? { value: lat.maxP95, source: `${where}: latency.maxP95`, fromFile: true } : undefined);
  const per = lat.perOperation;
  if (per !== undefined && (typeof per !== 'object' || per === null || Array.isArray(per))) {
    throw new ConfigError(`${where}: latency.perOperation must be an object of operation name to milliseconds, e.g. { "GetMeals": 300 }`);
  }
  const perOperation: Record<string, number> = {};
  for (const [name, v] of Object.entries((per ?? {}) as Json)) {
    if (!findOperation(name)) throw new ConfigError(`${where}: latency.perOperation names an unknown operation "${name}"${didYouMean(name, OPERATIONS.map((o) => o.name))}`);
    perOperation[name] = p95Ms({ value: v, source: `${where}: latency.perOperation.${name}`, fromFile: true });
  }
  const limits: LatencyLimits = {
    ...(global ? { maxP95Ms: p95Ms(global), maxP95Source: global.source } : {}),
    ...(Object.keys(perOperation).length > 0 ? { perOperation, perOperationSource: `${where}: latency.perOperation` } : {}),
    minSamples: MIN_LATENCY_SAMPLES,
  };
  return hasLatencyLimit(limits) ? { latency: limits } : {};
}

/** --case ID (repeatable; a comma list too): case ids or globs (`*`, `?`). */
function caseFilterOf(given: readonly string[] | undefined): { caseFilter?: string[] } {
  if (given === undefined) return {};
  const ids = given.flatMap((v) => v.split(',')).map((v) => v.trim());
  const bad = ids.find((v) => !/^[A-Za-z0-9_.*?-]+$/.test(v));
  if (bad !== undefined) throw new UsageError(`--case ${JSON.stringify(bad)}: a case id is letters, digits, "-", "_" and ".", with * and ? as wildcards`);
  return { caseFilter: ids };
}

/** --list / --dry-run and --list-format text|json. */
function listOf(f: FlagValues<typeof RUN_OPTIONS>): { list?: 'text' | 'json' } {
  const format = f['list-format'];
  if (format !== undefined && format !== 'text' && format !== 'json') throw new UsageError(`--list-format must be text or json (got ${JSON.stringify(format)})`);
  if (format !== undefined && !f.list && !f['dry-run']) throw new UsageError('--list-format needs --list (or --dry-run)');
  return f.list || f['dry-run'] ? { list: format ?? 'text' } : {};
}
