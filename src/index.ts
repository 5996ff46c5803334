/**
 * The library: `import { runConformance, validateDocument } from 'accommodation-conformance'`.
 * The top of the house beside the CLI: it calls the same run as `conformance run` (src/engine/execute.ts)
 * and imports nothing from src/cli/; nothing imports it (src/layering.test.ts holds both).
 * The mock has its own entry point, `accommodation-conformance/mock` (src/mock/index.ts).
 */
import { executeRun } from './engine/execute.js';
import { resolveRunSettingsObject } from './engine/settings.js';
import { progressLine } from './report/progress.js';
import type { BindingId } from './contract/catalogue.js';
import type { RunReport } from './core/types.js';

/**
 * The settings of one run: the keys of a config file (docs/cli.md, "Config file";
 * `schemas/config.schema.json`), plus the password. No target URL: the embedded mock is started
 * and tested. Every value is checked as in a config file: a bad one throws a ConfigError (a
 * HarnessError) whose message names the key.
 */
export interface ConformanceSettings {
  readonly target?: {
    readonly bookUrl?: string;
    readonly searchUrl?: string;
    readonly transfersUrl?: string;
    readonly bookPath?: string;
    readonly bookHttpPath?: string;
    readonly searchPath?: string;
    readonly searchHttpPath?: string;
    readonly transfersPath?: string;
    readonly transfersHttpPath?: string;
    readonly bookNs?: string;
    readonly searchNs?: string;
    readonly user?: string;
    /** The password itself (a program holds it; a config file may not). */
    readonly password?: string;
    /** Or the environment variable holding it (looked up in `options.env`). */
    readonly passwordEnv?: string;
    /** A second account of the same service: authorization across accounts is tested with it (docs/real-service.md). */
    readonly otherUser?: string;
    /** Its password itself (a program holds it; a config file may not). */
    readonly otherPassword?: string;
    /** Or the environment variable holding it (looked up in `options.env`; default CONFORMANCE_OTHER_PASSWORD). */
    readonly otherPasswordEnv?: string;
    /**
     * HTTP proxy for every target URL (else https_proxy/HTTPS_PROXY, http_proxy/HTTP_PROXY of `options.env`);
     * NO_PROXY's hosts bypass it. Credentials may be in it (a program holds them; a config file may hold the user
     * only).
     */
    readonly proxy?: string;
    /**
     * The password of the user `proxy` names (`http://alice@proxy.example.com:3128`): a secret, redacted everywhere.
     */
    readonly proxyPassword?: string;
    /** Or the environment variable holding it (looked up in `options.env`; default CONFORMANCE_PROXY_PASSWORD). */
    readonly proxyPasswordEnv?: string;
    readonly noProxy?: string;
    /** PEM file of CAs to trust besides the system's. */
    readonly caFile?: string;
    /**
     * PEM client certificate and its key, or a PKCS#12 file (passphrase from the variable clientPfxPassphraseEnv names,
     * default CONFORMANCE_CLIENT_PFX_PASSPHRASE, in `options.env`).
     */
    readonly clientCert?: string;
    readonly clientKey?: string;
    readonly clientPfx?: string;
    readonly clientPfxPassphraseEnv?: string;
    /**
     * Headers added to every request: a value, or `{ env: 'VAR' }` for the value of VAR in `options.env` (a secret).
     */
    readonly headers?: Readonly<Record<string, string | { readonly env: string }>>;
  };
  readonly bindings?: readonly BindingId[];
  readonly operations?: readonly string[];
  /** Operations to leave out (the config key `skipOperations`): the run tests the others. */
  readonly skipOperations?: readonly string[];
  readonly allowMutations?: boolean;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly deadlineMs?: number;
  readonly maxRps?: number;
  readonly maxBodyBytes?: number;
  /** Seed of the generated request cases (default 16): the same seed sends the same cases. */
  readonly seed?: number;
  /** Generated request cases per operation (default 4; 0: none). */
  readonly examples?: number;
  /** The values of `language` for generated cases, instead of asking the target's GetLanguages (--languages). */
  readonly languages?: readonly string[] | string;
  /** Stop sending after this many failed rows (the report's `incomplete` says so). */
  readonly maxFailures?: number;
  /** At most this many login variants (--max-failed-logins), spread over the operations × bindings; all when absent. */
  readonly maxFailedLogins?: number;
  /**
   * A breaking difference of the target's WSDL from the contract's fails the run (the report's `drift` lists them
   * either way).
   */
  readonly failOnDrift?: boolean;
  /**
   * Percent (0 to 100, or "20%") of transient exchanges above which the target is unhealthy (--max-transient; default
   * 20).
   */
  readonly maxTransient?: number | string;
  /**
   * A run whose coverage figure (docs/coverage.md) is below this percent is INCOMPLETE (the report's `coverage` has it
   * either way).
   */
  readonly minCoverage?: number;
  /**
   * The URL at which the target reaches the harness's listener for the external-entity probe
   * (docs/checks.md, "XML a SOAP endpoint must refuse"): a target not on this machine cannot reach
   * 127.0.0.1 of the harness. Without it, a fetch by such a target is not observable (a note).
   */
  readonly callbackUrl?: string;
  /**
   * Where that listener listens, HOST:PORT (default: every interface at callbackUrl's port; 127.0.0.1 at a free port
   * for a target on this machine).
   */
  readonly callbackListen?: string;
  /** Stop sending to a service after this many time-outs or connection failures in a row (0: never; default 5). */
  readonly giveUpAfter?: number;
  readonly insecureTls?: boolean;
  /** Write the reports (JSON, JUnit, Markdown, HTML, Allure) here; none are written without it. */
  readonly reportDir?: string;
  readonly checks?: readonly string[];
  readonly skipChecks?: readonly string[];
  /** Families of sequences to plan, by name (every one when absent); `skipFamilies` leaves some out. */
  readonly families?: readonly string[];
  readonly skipFamilies?: readonly string[];
  readonly negative?: boolean;
  readonly equivalence?: boolean;
  /** Request cases per operation: `{ GetMeals: [{ id, params }] }`. */
  readonly cases?: Readonly<
    Record<string, readonly { readonly id: string; readonly params: Readonly<Record<string, unknown>> }[]>
  >;
  readonly casesMode?: 'extend' | 'replace';
  /** A known-deviations file (schemas/expectations.schema.json). */
  readonly expectations?: string;
  /**
   * The bookings state-changing calls may consume, each once (one per binding, case and sequence
   * step), or the path of a JSON file holding them. Default: generated ones for the embedded mock.
   */
  readonly bookings?:
    | string
    | {
        readonly cancel?: readonly (string | number)[];
        readonly amend?: readonly (string | number)[];
        readonly specialRequest?: readonly (string | number)[];
        readonly transfers?: readonly { readonly id: string; readonly email: string }[];
      };
  /**
   * The latency gate: p95 answer-time limits in milliseconds, for every operation and per operation
   * (an operation × binding above its limit fails, latency_p95_exceeded; under 5 answers: too few samples).
   */
  readonly latency?: { readonly maxP95?: number; readonly perOperation?: Readonly<Record<string, number>> };
}

export interface RunConformanceOptions {
  /**
   * The environment read for `target.passwordEnv` and the CONFORMANCE_* variables (as the command
   * reads them, with precedence over the settings). Default: none, so only the settings count;
   * pass `process.env` to read the process's.
   */
  readonly env?: NodeJS.ProcessEnv;
  /** Warnings and progress lines (default: dropped). */
  readonly log?: (line: string) => void;
}

/**
 * Run the matrix against a target (or the embedded mock) and return the report (the content of
 * conformance.json). `report.verdict === 'PASS'` is a conforming target, and nothing else is: a run
 * that tested nothing may show no failed row (`report.verdict` is then UNTESTED, OUTAGE or
 * INCOMPLETE, `report.exitCode` what `conformance run` exits with, `report.verdictReason` why).
 * Known deviations are applied when `expectations` is given; reports are written when `reportDir` is given.
 */
export async function runConformance(
  settings: ConformanceSettings = {},
  options: RunConformanceOptions = {},
): Promise<RunReport> {
  const s = resolveRunSettingsObject(settings, options.env ?? {}, 'runConformance settings');
  const log = options.log ?? (() => undefined);
  const { report } = await executeRun(
    { ...s, quiet: options.log === undefined },
    { err: log, progress: progressLine(log, false) },
    settings.reportDir !== undefined,
  );
  return report;
}

export { validateDocument, type DocumentValidation, type ValidateDocumentOptions } from './engine/validate-document.js';
export { HarnessError, UsageError, ConfigError, EnvironmentError } from './core/errors.js';
export { TOOL_NAME, TOOL_VERSION } from './core/version.js';
export {
  BINDINGS,
  OPERATIONS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from './contract/catalogue.js';
export type { RunReport, ResultRow, Finding, Status, Diagnosis, UntestedCell, Verdict } from './core/types.js';
