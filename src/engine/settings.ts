/**
 * Run settings from flags, environment and an optional JSON config file (in that order of
 * precedence), checked completely: every bad value is named in a UsageError/ConfigError (exit 2).
 * The run's own settings, beneath the CLI: the command hands over its parsed flags
 * (resolveRunSettingsFlags), the library an object (resolveRunSettingsObject).
 */
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from './generate.js';
import { dirname } from 'node:path';
import type { FlagValues } from '../core/flags.js';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  findOperation,
  OPERATIONS,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from '../contract/catalogue.js';
import { ConfigError, UsageError } from '../core/errors.js';
import type { LatencyLimits, SettingKey } from '../core/types.js';
import { reportDirProblem } from '../report/paths.js';
import { loadFixtureCases, mergeCases, type CaseTable } from './cases.js';
import { parseShard, type Shard } from './shard.js';
import { DEFAULT_TRANSPORT } from '../transport/client.js';
import type { BookingPools } from './bookings.js';
import type { NetworkOptions } from '../core/types.js';
import { networkOf } from './network-settings.js';
import { RUN_SETTINGS, type RUN_OPTIONS } from './run-settings-table.js';
import { VARIABLE, type Sourced } from './sourced.js';
import { DEFAULT_MAX_TRANSIENT } from './transient.js';
import { skipReason } from './plan.js';
import {
  checkConfigObject,
  OTHER_PASSWORD_IN_FILE,
  PROXY_PASSWORD_IN_FILE,
  readConfigFile,
  type Json,
} from './config-file.js';
import { bad, knownNames, namespace, reportDir, Settings, url } from './settings-reader.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, otherAccountOf, passwordOf, type OtherAccountSetting } from './accounts.js';
import { selectFamilies } from './families.js';
import {
  bookingsSetting,
  callbackSettingsOf,
  caseFilterOf,
  expectationsUpdateOf,
  languagesOf,
  latencyOf,
  listOf,
  minCoverageOf,
  pathsOf,
  refuseForbidden,
  type BookingsSource,
} from './setting-checks.js';

export {
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  OTHER_PASSWORD_PRECEDENCE,
  PASSWORD_PRECEDENCE,
  OTHER_PASSWORD_VARIABLE,
} from './accounts.js';

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
  /**
   * The environment variable the password came from (a reproduce command names it); undefined for --password or the
   * mock's.
   */
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
  /** The families of sequences planned, by name (--families, --skip-families: ./families.ts); every one when absent. */
  readonly families?: string[];
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
  /**
   * Percent of transient exchanges above which the target is unhealthy: exit 4 (--max-transient;
   * src/engine/transient.ts).
   */
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
  /**
   * A breaking difference of the target's WSDL from the contract's fails the run (--fail-on-drift, config failOnDrift).
   */
  readonly failOnDrift?: boolean;
  /** --min-coverage PCT (config minCoverage): below it the run is INCOMPLETE (./coverage.ts), with where it was set. */
  readonly minCoverage?: { readonly percent: number; readonly source: string };
  /**
   * The second account (--other-user, its password in CONFORMANCE_OTHER_PASSWORD or the variable
   * target.otherPasswordEnv names; the embedded mock's own by default). Absent: authorization across
   * accounts is not tested. `passwordVar`: the variable the password came from (a reproduce command names it).
   */
  readonly other?: OtherAccountSetting;
  /**
   * The URL at which the target reaches the harness's listener for the external-entity probe
   * (--callback-url, CONFORMANCE_CALLBACK_URL, config callbackUrl; ./callback.ts), and where that
   * listener listens (--callback-listen HOST:PORT; default: every interface at the URL's port, or
   * 127.0.0.1 at a free port for a target on this machine).
   */
  readonly callbackUrl?: string;
  readonly callbackListen?: { readonly host: string; readonly port: number };
}

export type { BookingsSource } from './setting-checks.js';
export { CONFIG_SCHEMA_URL } from './config-file.js';
export type { Sourced } from './sourced.js';

export { RUN_ENV, RUN_OPTIONS } from './run-settings-table.js';

/** The target settings whose source a hint may name (by their config key in target, SettingKey). */
const SOURCED = [
  'book-url',
  'search-url',
  'transfers-url',
  'book-path',
  'search-path',
  'transfers-path',
  'book-ns',
  'search-ns',
] as const;

/**
 * Resolve run settings from the command's parsed flags (with --config FILE, or the file CONFORMANCE_CONFIG
 * names, read here). `env` is process.env in production. `calls` false: a command that calls no
 * operation (drift: it only reads the WSDLs) needs no user or password (it gets '' where none is
 * given), nor a base URL for every operation's group (it reads the services it has a URL for).
 */
export function resolveRunSettingsFlags(
  f: FlagValues<typeof RUN_OPTIONS>,
  env: NodeJS.ProcessEnv = process.env,
  calls = true,
): RunSettings {
  const path = f.config ?? (env.CONFORMANCE_CONFIG || undefined);
  // A file named by the variable says so in every message about it: the variable is the place to look.
  const where =
    path === undefined
      ? 'config'
      : f.config !== undefined
        ? `config file ${path}`
        : `config file ${path} (environment variable CONFORMANCE_CONFIG)`;
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
export function resolveRunSettingsObject(
  settings: unknown,
  env: NodeJS.ProcessEnv = {},
  where = 'settings',
): RunSettings {
  const problems = checkConfigObject(settings, where, true);
  const { target, ...rest } = settings as Json & { target?: Json };
  const { password, otherPassword, proxyPassword, ...targetRest } = target ?? {};
  if (password !== undefined && (typeof password !== 'string' || password === ''))
    throw new ConfigError(`${where}: target.password must be a non-empty string`);
  if (otherPassword !== undefined && (typeof otherPassword !== 'string' || otherPassword === ''))
    throw new ConfigError(`${where}: target.otherPassword must be a non-empty string`);
  if (proxyPassword !== undefined && (typeof proxyPassword !== 'string' || proxyPassword === ''))
    throw new ConfigError(`${where}: target.proxyPassword must be a non-empty string`);
  const flags = password === undefined ? {} : { password };
  const other =
    otherPassword === undefined
      ? undefined
      : { value: otherPassword as string, source: `${where}: target.otherPassword`, fromFile: false };
  // fromFile: a bad one is the settings object's (a ConfigError naming the key), as for a config file.
  const proxy =
    proxyPassword === undefined
      ? undefined
      : { value: proxyPassword as string, source: `${where}: target.proxyPassword`, fromFile: true };
  return withSchema(
    resolveSettings(
      flags,
      env,
      target === undefined ? rest : { ...rest, target: targetRest },
      where,
      `${where}: target.password`,
      true,
      other,
      proxy,
    ),
    problems,
  );
}

function resolveSettings(
  f: FlagValues<typeof RUN_OPTIONS>,
  env: NodeJS.ProcessEnv,
  file: Json,
  where: string,
  passwordSource = '--password',
  calls = true,
  otherPassword?: Sourced<string>,
  proxyPassword?: Sourced<string>,
): RunSettings {
  const t = (file.target ?? {}) as Json;

  const in_ = new Settings(f, env, file, where);

  const bookUrl = url(in_.text('book-url'));
  const searchUrl = url(in_.text('search-url'));
  const transfersUrl = url(in_.text('transfers-url'));
  const embedded = !bookUrl && !searchUrl && !transfersUrl;
  const paths = pathsOf(in_);

  const namespaces: Namespaces = {
    book: namespace(in_.text('book-ns')) ?? DEFAULT_NAMESPACES.book,
    search: namespace(in_.text('search-ns')) ?? DEFAULT_NAMESPACES.search,
  };
  const passwordEnvSetting = in_.string(undefined, undefined, 'target.passwordEnv');
  if (passwordEnvSetting && !VARIABLE.test(passwordEnvSetting.value))
    bad(
      passwordEnvSetting,
      `must name an environment variable (letters, digits, _; got ${JSON.stringify(passwordEnvSetting.value)})`,
    );
  const passwordEnv = passwordEnvSetting?.value;
  if (t.password !== undefined)
    throw new ConfigError(
      `${where}: target.password is not accepted in a file (files get committed); use --password, `
        + `CONFORMANCE_PASSWORD or target.passwordEnv`,
    );
  if (t.otherPassword !== undefined) throw new ConfigError(OTHER_PASSWORD_IN_FILE(where));
  if (t.proxyPassword !== undefined) throw new ConfigError(PROXY_PASSWORD_IN_FILE(where));
  const userSetting = in_.text('user');
  const user = userSetting?.value ?? (embedded ? DEFAULT_USER : calls ? undefined : '');
  // Where the password came from: a reproduce command names that variable.
  const { given, warnings } = passwordOf(in_, passwordEnvSetting, passwordSource);
  // --list / --dry-run send nothing, and drift calls no operation: they need no password (the plan shows it masked
  // anyway).
  const listing = f.list === true || f['dry-run'] === true;
  const password = given?.value ?? (embedded ? DEFAULT_PASSWORD : listing || !calls ? '' : undefined);
  const passwordVar =
    given === undefined
      ? undefined
      : given.source.startsWith('environment variable ')
        ? given.source.slice('environment variable '.length)
        : undefined;
  // The library (its settings object, not flags) is told in its own words, with a ConfigError as its docs say.
  const library = passwordSource !== '--password';
  if (user === undefined) {
    if (library)
      throw new ConfigError(
        `${where}: no user name for the target: give target.user (or CONFORMANCE_USER in options.env)`,
      );
    throw new UsageError(
      'no user name for the target: pass --user NAME (or CONFORMANCE_USER, or target.user in the config file)',
    );
  }
  if (password === undefined) {
    if (library) {
      throw new ConfigError(
        `${where}: no password for the target: give target.password, or target.passwordEnv naming a `
          + `variable of options.env${passwordEnv ? ` (${passwordEnv} is not set there)` : ''}, or `
          + `CONFORMANCE_PASSWORD in options.env`,
      );
    }
    throw new UsageError(
      `no password for the target: set CONFORMANCE_PASSWORD${passwordEnv ? ` or ${passwordEnv}` : ''} `
        + `(or pass --password)`,
    );
  }
  const {
    other,
    warnings: otherWarnings,
    sources: otherSources,
  } = otherAccountOf(in_, otherPassword, {
    firstUser: user,
    firstUserSource: userSetting?.source ?? "the embedded mock's default",
    embedded,
    sendsNothing: listing || !calls,
    library,
    where,
  });

  const bindingList = in_.list('bindings');
  const bindings = bindingList
    ? knownNames(bindingList, 'binding', BINDINGS, (n) => BINDINGS.find((b) => b === n))
    : [...BINDINGS];
  const opList = in_.list('operations');
  const chosen = opList
    ? knownNames(
        opList,
        'operation',
        OPERATIONS.map((o) => o.name),
        findOperation,
      )
    : [...OPERATIONS];
  // --skip-operations: a target without one operation today is run on the other thirteen without listing them.
  const skipList = in_.list('skip-operations');
  const skipped = skipList
    ? knownNames(
        skipList,
        'operation',
        OPERATIONS.map((o) => o.name),
        findOperation,
      )
    : [];
  const operations = chosen.filter((o) => !skipped.includes(o));
  if (skipList && operations.length === 0)
    bad(
      skipList,
      `leaves no operation to test `
        + `(${opList ? `${opList.source} names ${chosen.map((o) => o.name).join(', ')}` : 'it names them all'})`,
    );

  const allowMutations = in_.bool('allow-mutations') ?? false;
  // Operations the user named that the mutation policy forbids calling: the user's own setting, said
  // before anything is sent (a usage error), never a failed row against the target (issue 40).
  if (opList && calls && !listing)
    refuseForbidden(
      opList,
      operations.filter((o) => skipReason({ target: { embedded }, allowMutations }, o)),
    );

  if (!embedded && calls) {
    const need = (group: Operation['group']) => operations.filter((o) => o.group === group).map((o) => o.name);
    if (!bookUrl && need('booking').length)
      throw new UsageError(
        `no --book-url for the booking operations (${need('booking').join(', ')}); pass it or narrow --operations`,
      );
    if (!searchUrl && need('reference').length)
      throw new UsageError(
        `no --search-url for the reference-data operations (${need('reference').join(', ')}); pass it `
          + `or narrow --operations`,
      );
    if (!searchUrl && !transfersUrl && need('transfers').length)
      throw new UsageError('no --search-url or --transfers-url for SearchTransfers; pass one or narrow --operations');
  }

  const casesMode = file.casesMode ?? 'extend';
  if (casesMode !== 'extend' && casesMode !== 'replace')
    throw new ConfigError(`${where}: casesMode must be "extend" or "replace"`);
  if (
    file.cases !== undefined
    && (typeof file.cases !== 'object' || file.cases === null || Array.isArray(file.cases))
  ) {
    throw new ConfigError(`${where}: "cases" must be an object keyed by operation name`);
  }
  const cases = file.cases ? mergeCases(loadFixtureCases(), file.cases as Json, casesMode, where) : loadFixtureCases();
  const expectationsSetting = in_.text('expectations');
  const expectations = expectationsSetting?.value;
  if (expectationsSetting && f['update-expectations']) {
    // --update-expectations writes the file after the run: find out now whether it can.
    const problem = reportDirProblem(dirname(expectationsSetting.value));
    if (problem) bad(expectationsSetting, `cannot be written: ${problem}`);
  }

  // Where each target setting came from: a hint about its value names that place (./diagnose.ts).
  const sources = Object.fromEntries(
    SOURCED.flatMap((flag) => {
      const given = in_.given(flag);
      return given ? [[RUN_SETTINGS[flag].key.slice('target.'.length), given.source]] : [];
    }),
  ) as Partial<Record<SettingKey, string>>;
  Object.assign(sources, otherSources);

  return {
    embedded,
    sources,
    bookUrl,
    searchUrl,
    transfersUrl: transfersUrl ?? searchUrl,
    paths,
    namespaces,
    user,
    password,
    passwordVar,
    bindings,
    operations,
    operationsNamed: opList !== undefined,
    allowMutations,
    concurrency: in_.int('concurrency') ?? (embedded ? 16 : 4),
    timeoutMs: in_.int('timeout') ?? 10_000,
    deadlineMs: in_.int('deadline'),
    maxRps: in_.int('max-rps') ?? (embedded ? undefined : 20),
    maxBodyBytes: in_.int('max-body-bytes') ?? 32 * 1024 * 1024,
    insecureTls: in_.bool('insecure-tls') ?? false,
    reportDir: reportDir(in_.text('report-dir')),
    checks: in_.list('checks')?.value,
    skipChecks: in_.list('skip-checks')?.value ?? [],
    ...((families) => (families ? { families } : {}))(selectFamilies(in_.list('families'), in_.list('skip-families'))),
    negative: !(f['no-negative'] ?? false) && (in_.bool('no-negative', { flag: false }) ?? true),
    equivalence: !(f['no-equivalence'] ?? false) && (in_.bool('no-equivalence', { flag: false }) ?? true),
    cases,
    quiet: f.quiet ?? false,
    expectations,
    updateExpectations: expectationsUpdateOf(f['update-expectations'] ?? false, expectations),
    shard: f.shard === undefined ? undefined : parseShard(f.shard),
    maxFailures: in_.int('max-failures'),
    maxFailedLogins: in_.int('max-failed-logins'),
    maxTransient: in_.percent('max-transient') ?? DEFAULT_MAX_TRANSIENT,
    giveUpAfter: in_.int('give-up-after') ?? DEFAULT_TRANSPORT.giveUpAfter!,
    seed: in_.int('seed') ?? DEFAULT_SEED,
    examples: in_.int('examples') ?? DEFAULT_EXAMPLES,
    ...languagesOf(in_),
    ...bookingsSetting(in_, env, where),
    ...caseFilterOf(f.case),
    ...(f.github || env.GITHUB_ACTIONS === 'true' ? { github: true } : {}),
    ...listOf(f),
    warnings: [...warnings, ...otherWarnings],
    ...(other ? { other } : {}),
    // The embedded mock (loopback) is never proxied; a command that calls nothing starts no mock (drift's --wsdl-url
    // reaches a remote host).
    ...networkOf(in_, env, f.header, {
      embedded: embedded && calls,
      insecureTls: f['insecure-tls'] ?? in_.bool('insecure-tls', { flag: false, env: false }) ?? false,
      library,
      ...(proxyPassword ? { proxyPassword } : {}),
    }),
    ...latencyOf(in_, file, where),
    ...((f['fail-on-drift'] ?? in_.bool('fail-on-drift')) ? { failOnDrift: true } : {}),
    ...minCoverageOf(in_),
    ...callbackSettingsOf(in_),
  };
}
