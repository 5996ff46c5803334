/**
 * The run's settings that need more than the reader's plain checks: the service paths, the booking
 * pools, the languages, the external-entity listener, the coverage threshold, the latency gate, the
 * case filter, --list, and the operations the mutation policy refuses. Each message names where the
 * value came from. Apart from ./settings.ts, which resolves the run's settings with them.
 */
import {
  findOperation,
  OPERATIONS,
  resolvePaths,
  servicePathProblem,
  type Operation,
  type ServicePaths,
} from '../contract/catalogue.js';
import { ConfigError, UsageError } from '../core/errors.js';
import type { FlagValues } from '../core/flags.js';
import { readJsonFile } from '../core/json-file.js';
import { didYouMean } from '../core/suggest.js';
import type { LatencyLimits } from '../core/types.js';
import { parseBookings, type BookingPools } from './bookings.js';
import type { Json } from './config-file.js';
import { hasLatencyLimit, MIN_LATENCY_SAMPLES } from './latency-gate.js';
import type { RUN_OPTIONS } from './run-settings-table.js';
import { bad, percentIn, type Settings } from './settings-reader.js';
import type { Sourced } from './sourced.js';

/**
 * Where the booking pools came from: a file (its path as given), the variable holding the JSON, or the config file's
 * `bookings` object.
 */
export type BookingsSource = { readonly file: string } | { readonly variable: string } | { readonly config: string };

/**
 * Refuses a list of operations (--operations, CONFORMANCE_OPERATIONS or the config's `operations`:
 * `list` names where) holding state-changing ones that will not be called (no --allow-mutations,
 * a target other than the embedded mock): the run could not test them, and before this it sent the
 * rest and failed the target with `operation_not_called` for the user's own setting.
 */
export function refuseForbidden(list: Sourced<string[]>, refused: readonly Operation[]): void {
  if (refused.length === 0) return;
  const names = refused.map((o) => o.name).join(', ');
  const them = refused.length === 1 ? 'it' : 'them';
  bad(
    list,
    `names ${names}, which change${refused.length === 1 ? 's' : ''} state on the target: not called `
      + `without --allow-mutations against a target other than the embedded mock, `
      + `so the run could not test ${them}; add --allow-mutations (or CONFORMANCE_ALLOW_MUTATIONS=true, `
      + `or "allowMutations": true in the config file) to call ${them} `
      + `on bookings of your own (docs/real-service.md), or drop ${names} from ${list.source}`,
  );
}

/**
 * The service path settings of each group: its SOAP path and its HTTP GET/POST path, by flag (./run-settings-table.ts).
 */
const PATH_SETTINGS = [
  { group: 'booking', soap: 'book-path', http: 'book-http-path' },
  { group: 'reference', soap: 'search-path', http: 'search-http-path' },
  { group: 'transfers', soap: 'transfers-path', http: 'transfers-http-path' },
] as const;

/** A service path setting, checked. */
function servicePath(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  const problem = servicePathProblem(s.value);
  if (problem) bad(s, `is not a service path: ${problem} (got ${JSON.stringify(s.value)})`);
  return s.value;
}

/** The service paths from flags, environment and config (section 4's where none is given). */
export function pathsOf(in_: Settings): ServicePaths {
  return resolvePaths(
    Object.fromEntries(
      PATH_SETTINGS.map((p) => [
        p.group,
        {
          soap: servicePath(in_.text(p.soap)),
          http: servicePath(in_.text(p.http)),
        },
      ]),
    ),
  );
}

/**
 * The booking pools: `--bookings FILE`, then CONFORMANCE_BOOKINGS_FILE (a file), then
 * CONFORMANCE_BOOKINGS (the JSON itself: a CI secret), then the config key `bookings` (the pools, or a
 * file). A bad one names its source; a file's content is a ConfigError.
 */
export function bookingsSetting(
  in_: Settings,
  env: NodeJS.ProcessEnv,
  where: string,
): { bookings?: BookingPools; bookingsFrom?: BookingsSource } {
  const fromFile = (s: Sourced<string>): BookingPools => {
    const json = readJsonFile(s.value, `bookings file ${s.value} (${s.source})`, (m) => new ConfigError(m));
    const r = parseBookings(json, `bookings file ${s.value} (${s.source})`);
    if (typeof r === 'string') throw new ConfigError(r);
    return r;
  };
  const file = in_.text('bookings', { key: false });
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
  if (typeof key.value === 'string')
    return { bookings: fromFile(key as Sourced<string>), bookingsFrom: { file: key.value } };
  const r = parseBookings(key.value, `${where}: bookings`);
  if (typeof r === 'string') throw new ConfigError(r);
  return { bookings: r, bookingsFrom: { config: where } };
}

/**
 * --languages a,b (CONFORMANCE_LANGUAGES, config `languages`): the values of `language` the generated
 * cases take, instead of the target's GetLanguages; each a non-empty code without white space, each
 * once. A bad one names its source.
 */
export function languagesOf(in_: Settings): { languages?: { values: readonly string[]; source: string } } {
  const s = in_.list('languages');
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
export function callbackSettingsOf(in_: Settings): {
  callbackUrl?: string;
  callbackListen?: { host: string; port: number };
} {
  const url = in_.text('callback-url');
  const listen = in_.text('callback-listen');
  const out: { callbackUrl?: string; callbackListen?: { host: string; port: number } } = {};
  if (url) {
    let u: URL | undefined;
    try {
      u = new URL(url.value);
    } catch {
      /* said below */
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password) {
      bad(
        url,
        `must be an http:// or https:// URL at which the target reaches this machine, without user, `
          + `query or fragment, e.g. http://10.0.0.5:8765 (got ${JSON.stringify(url.value)})`,
      );
    }
    out.callbackUrl = url.value;
  }
  if (listen) {
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(listen.value.trim());
    const port = m ? Number(m[3]) : NaN;
    if (!m || port > 65535)
      bad(listen, `must be HOST:PORT, e.g. 0.0.0.0:8765 or 127.0.0.1:0 (got ${JSON.stringify(listen.value)})`);
    out.callbackListen = { host: m![1] ?? m![2]!, port };
  }
  return out;
}

/**
 * --min-coverage PCT (CONFORMANCE_MIN_COVERAGE, config minCoverage): a percent from 0 to 100, a
 * trailing "%" allowed; a bad one names its source.
 */
export function minCoverageOf(in_: Settings): { minCoverage?: { percent: number; source: string } } {
  const s = in_.given('min-coverage');
  if (!s) return {};
  const v = s.value;
  const n = percentIn(v);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    bad(s, `must be a coverage percent from 0 to 100, e.g. 80 or 72.5 (got ${JSON.stringify(v)})`);
  return { minCoverage: { percent: n, source: s.source } };
}

/** The longest p95 limit accepted, in milliseconds (an hour: longer than any --timeout makes sense). */
const MAX_P95_LIMIT_MS = 3_600_000;

/** A p95 limit in milliseconds, checked; a bad one names its source. */
function p95Ms(s: Sourced): number {
  const v = s.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_P95_LIMIT_MS)
    bad(
      s,
      `must be a p95 limit in milliseconds, a whole number from 1 to ${MAX_P95_LIMIT_MS} (got ${JSON.stringify(v)})`,
    );
  return n;
}

/**
 * The latency gate: `--max-p95 MS` (or the config's `latency.maxP95`) for every operation, and the
 * config's `latency.perOperation` for some, each remembering where it was set. None: no gate.
 */
export function latencyOf(in_: Settings, file: Json, where: string): { latency?: LatencyLimits } {
  const l = file.latency;
  if (l !== undefined && (typeof l !== 'object' || l === null || Array.isArray(l))) {
    throw new ConfigError(
      `${where}: latency must be an object, e.g. { "maxP95": 800, "perOperation": { "GetMeals": 300 } }`,
    );
  }
  const lat = (l ?? {}) as Json;
  const global =
    in_.given('max-p95', { key: false })
    ?? (lat.maxP95 !== undefined
      ? { value: lat.maxP95, source: `${where}: latency.maxP95`, fromFile: true }
      : undefined);
  const per = lat.perOperation;
  if (per !== undefined && (typeof per !== 'object' || per === null || Array.isArray(per))) {
    throw new ConfigError(
      `${where}: latency.perOperation must be an object of operation name to milliseconds, e.g. { "GetMeals": 300 }`,
    );
  }
  const perOperation: Record<string, number> = {};
  for (const [name, v] of Object.entries((per ?? {}) as Json)) {
    if (!findOperation(name))
      throw new ConfigError(
        `${where}: latency.perOperation names an unknown operation "${name}"${didYouMean(
          name,
          OPERATIONS.map((o) => o.name),
        )}`,
      );
    perOperation[name] = p95Ms({ value: v, source: `${where}: latency.perOperation.${name}`, fromFile: true });
  }
  const limits: LatencyLimits = {
    ...(global ? { maxP95Ms: p95Ms(global), maxP95Source: global.source } : {}),
    ...(Object.keys(perOperation).length > 0
      ? { perOperation, perOperationSource: `${where}: latency.perOperation` }
      : {}),
    minSamples: MIN_LATENCY_SAMPLES,
  };
  return hasLatencyLimit(limits) ? { latency: limits } : {};
}

/**
 * --update-expectations: it rewrites the file --expectations names, so it needs one. (Not
 * ./expectations.ts updateExpectations, which does the rewriting.)
 */
export function expectationsUpdateOf(update: boolean, file: unknown): boolean {
  if (update && file === undefined)
    throw new UsageError('--update-expectations needs --expectations FILE (the file to write)');
  return update;
}

/** --case ID (repeatable; a comma list too): case ids or globs (`*`, `?`). */
export function caseFilterOf(given: readonly string[] | undefined): { caseFilter?: string[] } {
  if (given === undefined) return {};
  const ids = given.flatMap((v) => v.split(',')).map((v) => v.trim());
  const bad = ids.find((v) => !/^[A-Za-z0-9_.*?-]+$/.test(v));
  if (bad !== undefined)
    throw new UsageError(
      `--case ${JSON.stringify(bad)}: a case id is letters, digits, "-", "_" and ".", with * and ? as wildcards`,
    );
  return { caseFilter: ids };
}

/** --list / --dry-run and --list-format text|json. */
export function listOf(f: FlagValues<typeof RUN_OPTIONS>): { list?: 'text' | 'json' } {
  const format = f['list-format'];
  if (format !== undefined && format !== 'text' && format !== 'json')
    throw new UsageError(`--list-format must be text or json (got ${JSON.stringify(format)})`);
  if (format !== undefined && !f.list && !f['dry-run'])
    throw new UsageError('--list-format needs --list (or --dry-run)');
  return f.list || f['dry-run'] ? { list: format ?? 'text' } : {};
}
