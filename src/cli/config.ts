/**
 * Run settings from flags, environment and an optional JSON config file (in that order of
 * precedence), checked completely: every bad value is named in a UsageError/ConfigError (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readJsonFile } from '../core/json-file.js';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS, type BindingId, type Namespaces, type Operation } from '../contract/catalogue.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { loadFixtureCases, mergeCases, type CaseTable } from '../engine/cases.js';
import { parseShard, type Shard } from '../engine/shard.js';

function updateExpectations(update: boolean, file: unknown): boolean {
  if (update && file === undefined) throw new UsageError('--update-expectations needs --expectations FILE (the file to write)');
  return update;
}

export const DEFAULT_USER = 'mock-user';
export const DEFAULT_PASSWORD = 'mock-password';

export interface RunSettings {
  /** No target given: the embedded mock is started and tested. */
  readonly embedded: boolean;
  readonly bookUrl?: string;
  readonly searchUrl?: string;
  readonly transfersUrl?: string;
  readonly namespaces: Namespaces;
  readonly user: string;
  readonly password: string;
  readonly bindings: BindingId[];
  readonly operations: Operation[];
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
}

export const RUN_OPTIONS = {
  config: { type: 'string' },
  'book-url': { type: 'string' },
  'search-url': { type: 'string' },
  'transfers-url': { type: 'string' },
  'book-ns': { type: 'string' },
  'search-ns': { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  bindings: { type: 'string' },
  operations: { type: 'string' },
  'allow-mutations': { type: 'boolean' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'max-rps': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'insecure-tls': { type: 'boolean' },
  'report-dir': { type: 'string' },
  checks: { type: 'string' },
  'skip-checks': { type: 'string' },
  'no-negative': { type: 'boolean' },
  'no-equivalence': { type: 'boolean' },
  quiet: { type: 'boolean' },
  expectations: { type: 'string' },
  'update-expectations': { type: 'boolean' },
  shard: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const RUN_USAGE = `usage: conformance run [--config FILE] [--book-url URL] [--search-url URL] [--transfers-url URL]
    [--book-ns URI] [--search-ns URI] [--user NAME] [--password SECRET]
    [--bindings soap11,soap12,get,post] [--operations A,B] [--allow-mutations]
    [--concurrency N] [--timeout MS] [--report-dir DIR]
    [--deadline MS] [--max-rps N] [--max-body-bytes N] [--insecure-tls]
    [--checks a,b] [--skip-checks a,b] [--no-negative] [--no-equivalence] [--quiet]
    [--expectations FILE [--update-expectations]] [--shard i/n]

With no target URL the embedded mock is started and tested. The password may come from the
environment variable CONFORMANCE_PASSWORD instead of --password (preferred: flags show in process lists).
--expectations FILE reports the failures it lists as known (exit 0 when only those fail) and fails on
entries that no longer fail or have expired; --update-expectations rewrites FILE from this run.
--shard i/n runs the i-th of n parts of the matrix; join the parts with conformance merge.`;

/** Parse argv with node:util, turning its errors into UsageError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>, P extends boolean = false>(argv: string[], options: T, positionals?: P) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: (positionals ?? false) as P, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

type Json = Record<string, unknown>;

function readConfigFile(path: string): Json {
  const json = readJsonFile(path, `config file ${path}`, (m) => new ConfigError(m));
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(`config file ${path}: the top level must be an object`);
  const known = ['$schema', 'target', 'bindings', 'operations', 'allowMutations', 'concurrency', 'timeoutMs', 'deadlineMs', 'maxRps', 'maxBodyBytes',
    'insecureTls', 'reportDir', 'checks', 'skipChecks', 'negative', 'equivalence', 'cases', 'casesMode', 'expectations'];
  for (const k of Object.keys(json)) if (!known.includes(k)) throw new ConfigError(`config file ${path}: unknown key "${k}" (known: ${known.slice(1).join(', ')})`);
  const target = (json as Json).target;
  if (target !== undefined) {
    if (typeof target !== 'object' || target === null) throw new ConfigError(`config file ${path}: "target" must be an object`);
    const tk = ['bookUrl', 'searchUrl', 'transfersUrl', 'bookNs', 'searchNs', 'user', 'password', 'passwordEnv'];
    for (const k of Object.keys(target)) if (!tk.includes(k)) throw new ConfigError(`config file ${path}: unknown key "target.${k}" (known: ${tk.join(', ')})`);
  }
  return json as Json;
}

function str(v: unknown, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${what} must be a non-empty string (got ${JSON.stringify(v)})`);
  return v;
}

function list(v: unknown, what: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw new ConfigError(`${what} must be a comma-separated string or an array of strings`);
}

function int(v: unknown, what: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${what} must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return n;
}

function url(v: string | undefined, what: string): string | undefined {
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    // Everything up to the last "@" may be user-info (a password can hold "/", "@" or spaces).
    throw new UsageError(`${what} is not a valid URL: ${JSON.stringify(v.replace(/\/\/.*@/s, '//***@'))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${what} must be an http or https URL (got ${u.protocol})`);
  if (u.search || u.hash) throw new UsageError(`${what} must be a base URL without query or fragment`);
  return v.replace(/\/+$/, '');
}

function namespace(v: string | undefined, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v)) throw new UsageError(`${what} must be an absolute URI (got ${JSON.stringify(v)})`);
  return v;
}

function closest(name: string, names: readonly string[]): string {
  const lower = name.toLowerCase();
  const hit = names.find((n) => n.toLowerCase() === lower);
  return hit ? ` (did you mean ${hit}? names are case-sensitive)` : '';
}

/** Resolve run settings. `env` is process.env in production. */
export function resolveRunSettings(argv: string[], env: NodeJS.ProcessEnv = process.env): RunSettings {
  const { values: f } = parseFlags(argv, RUN_OPTIONS);
  const file = f.config ? readConfigFile(f.config) : {};
  const where = f.config ? `config file ${f.config}` : 'config';
  const t = (file.target ?? {}) as Json;

  const bookUrl = url(f['book-url'] ?? env.CONFORMANCE_BOOK_URL ?? str(t.bookUrl, `${where}: target.bookUrl`), '--book-url');
  const searchUrl = url(f['search-url'] ?? env.CONFORMANCE_SEARCH_URL ?? str(t.searchUrl, `${where}: target.searchUrl`), '--search-url');
  const transfersUrl = url(f['transfers-url'] ?? env.CONFORMANCE_TRANSFERS_URL ?? str(t.transfersUrl, `${where}: target.transfersUrl`), '--transfers-url');
  const embedded = !bookUrl && !searchUrl && !transfersUrl;

  const namespaces: Namespaces = {
    book: namespace(f['book-ns'] ?? env.CONFORMANCE_BOOK_NS ?? str(t.bookNs, `${where}: target.bookNs`), '--book-ns') ?? DEFAULT_NAMESPACES.book,
    search: namespace(f['search-ns'] ?? env.CONFORMANCE_SEARCH_NS ?? str(t.searchNs, `${where}: target.searchNs`), '--search-ns') ?? DEFAULT_NAMESPACES.search,
  };
  const passwordEnv = str(t.passwordEnv, `${where}: target.passwordEnv`);
  if (t.password !== undefined) throw new ConfigError(`${where}: target.password is not accepted in a file (files get committed); use --password, CONFORMANCE_PASSWORD or target.passwordEnv`);
  const user = f.user ?? env.CONFORMANCE_USER ?? str(t.user, `${where}: target.user`) ?? (embedded ? DEFAULT_USER : undefined);
  const password = f.password ?? env.CONFORMANCE_PASSWORD ?? (passwordEnv ? env[passwordEnv] : undefined) ?? (embedded ? DEFAULT_PASSWORD : undefined);
  if (user === undefined) throw new UsageError('no user name for the target: pass --user NAME (or CONFORMANCE_USER, or target.user in the config file)');
  if (password === undefined) {
    throw new UsageError(`no password for the target: set CONFORMANCE_PASSWORD${passwordEnv ? ` or ${passwordEnv}` : ''} (or pass --password)`);
  }

  const bindingNames = list(f.bindings ?? file.bindings, '--bindings') ?? [...BINDINGS];
  for (const b of bindingNames) {
    if (!(BINDINGS as readonly string[]).includes(b)) throw new UsageError(`unknown binding "${b}" in --bindings (bindings: ${BINDINGS.join(', ')})`);
  }
  if (bindingNames.length === 0) throw new UsageError('--bindings names no binding');
  const opNames = list(f.operations ?? file.operations, '--operations');
  const operations = opNames
    ? opNames.map((n) => findOperation(n) ?? (() => { throw new UsageError(`unknown operation "${n}" in --operations${closest(n, OPERATIONS.map((o) => o.name))}`); })())
    : [...OPERATIONS];
  if (operations.length === 0) throw new UsageError('--operations names no operation');

  if (!embedded) {
    const need = (group: Operation['group']) => operations.filter((o) => o.group === group).map((o) => o.name);
    if (!bookUrl && need('booking').length) throw new UsageError(`no --book-url for the booking operations (${need('booking').join(', ')}); pass it or narrow --operations`);
    if (!searchUrl && need('reference').length) throw new UsageError(`no --search-url for the reference-data operations (${need('reference').join(', ')}); pass it or narrow --operations`);
    if (!searchUrl && !transfersUrl && need('transfers').length) throw new UsageError('no --search-url or --transfers-url for SearchTransfers; pass one or narrow --operations');
  }

  const bool = (v: unknown, what: string) => {
    if (v === undefined || typeof v === 'boolean') return v as boolean | undefined;
    throw new ConfigError(`${where}: ${what} must be true or false`);
  };
  const casesMode = file.casesMode ?? 'extend';
  if (casesMode !== 'extend' && casesMode !== 'replace') throw new ConfigError(`${where}: casesMode must be "extend" or "replace"`);
  if (file.cases !== undefined && (typeof file.cases !== 'object' || file.cases === null || Array.isArray(file.cases))) {
    throw new ConfigError(`${where}: "cases" must be an object keyed by operation name`);
  }
  const cases = file.cases ? mergeCases(loadFixtureCases(), file.cases as Json, casesMode, where) : loadFixtureCases();

  return {
    embedded,
    bookUrl, searchUrl, transfersUrl: transfersUrl ?? searchUrl,
    namespaces, user, password,
    bindings: bindingNames as BindingId[],
    operations,
    allowMutations: f['allow-mutations'] ?? bool(file.allowMutations, 'allowMutations') ?? false,
    concurrency: int(f.concurrency ?? file.concurrency, '--concurrency', 1, 256) ?? (embedded ? 16 : 4),
    timeoutMs: int(f.timeout ?? file.timeoutMs, '--timeout', 1, 3_600_000) ?? 10_000,
    deadlineMs: int(f.deadline ?? file.deadlineMs, '--deadline', 1, 86_400_000),
    maxRps: int(f['max-rps'] ?? file.maxRps, '--max-rps', 1, 100_000) ?? (embedded ? undefined : 20),
    maxBodyBytes: int(f['max-body-bytes'] ?? file.maxBodyBytes, '--max-body-bytes', 1024, 2 ** 31) ?? 32 * 1024 * 1024,
    insecureTls: f['insecure-tls'] ?? bool(file.insecureTls, 'insecureTls') ?? false,
    reportDir: f['report-dir'] ?? str(file.reportDir, `${where}: reportDir`) ?? 'reports',
    checks: list(f.checks ?? file.checks, '--checks'),
    skipChecks: list(f['skip-checks'] ?? file.skipChecks, '--skip-checks') ?? [],
    negative: !(f['no-negative'] ?? false) && (bool(file.negative, 'negative') ?? true),
    equivalence: !(f['no-equivalence'] ?? false) && (bool(file.equivalence, 'equivalence') ?? true),
    cases,
    quiet: f.quiet ?? false,
    expectations: f.expectations ?? str(file.expectations, `${where}: expectations`),
    updateExpectations: updateExpectations(f['update-expectations'] ?? false, f.expectations ?? file.expectations),
    shard: f.shard === undefined ? undefined : parseShard(f.shard),
  };
}
