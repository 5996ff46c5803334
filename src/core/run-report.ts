/**
 * A whole run's report (conformance.json) and its smaller sections: the verdict, what a re-run needs,
 * the latency limits, the cells left untested, the diagnosis. Its larger sections have a file each:
 * transient-summary.ts, bookings-summary.ts, expectation.ts, drift-report.ts, coverage-report.ts.
 */
import type { NetworkPath } from './target.js';
import type { ResultRow } from './result-row.js';
import type { TransientSummary } from './transient-summary.js';
import type { BookingsSummary } from './bookings-summary.js';
import type { ExpectationsSummary } from './expectation.js';
import type { DriftReport } from './drift-report.js';
import type { CoverageReport } from './coverage-report.js';
import type { BindingId, Namespaces, ServicePaths } from '../contract/catalogue.js';

/**
 * The one verdict of a run (src/core/verdict.ts). PASS: something was tested and nothing failed.
 * FAIL: the target broke the contract. UNTESTED: it answered, but (some of) it could not be tested.
 * INCOMPLETE: calls were left unsent (a booking pool, the deadline, a signal) and nothing failed
 * before. OUTAGE: not one request got an answer.
 */
export type Verdict = 'PASS' | 'FAIL' | 'UNTESTED' | 'INCOMPLETE' | 'OUTAGE';

export interface RunReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: {
    readonly bookUrl: string;
    readonly searchUrl: string;
    readonly transfersUrl: string;
    /** The service paths tested (absent in reports of versions that always used section 4's). */
    readonly paths?: ServicePaths;
    readonly namespaces: Namespaces;
    readonly user: string;
    readonly password: string;
    readonly embedded: boolean;
    /**
     * The flags that give a re-run the same network (--ca-file, --header 'N: env:VAR'...; never a secret); absent:
     * none.
     */
    readonly network?: readonly string[];
    /** The second account's user name (--other-user; never its password); absent: none was given. */
    readonly otherUser?: string;
    /** The network path the run took (src/engine/network-path.ts; no secret); absent: direct, no network setting. */
    readonly networkPath?: NetworkPath;
  };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly bindings: readonly BindingId[];
  readonly operations: readonly string[];
  /**
   * Rows by status (`total` is their sum); `passedUnreached`, set with the verdict: how many of the
   * passed rows are about answers that never reached the data path, no passes of the contract (the
   * headlines count them apart); `flaky`: rows of failures that did not reproduce when sent again
   * (skipped rows, counted apart; absent: none).
   */
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    known: number;
    total: number;
    passedUnreached?: number;
    flaky?: number;
  };
  results: ResultRow[];
  /**
   * The run's one verdict (src/core/verdict.ts), set when the run is over: the exit code and every headline come from
   * it.
   */
  readonly verdict?: Verdict;
  /** The exit code of `conformance run` for this verdict (README, "Exit codes"). */
  readonly exitCode?: number;
  /** Why the verdict, in the headline's words. */
  readonly verdictReason?: string;
  /** The expectations file applied to the results, entry by entry (absent when none was). */
  readonly expectations?: ExpectationsSummary;
  /**
   * Generated request cases: the seed that repeats them, the examples per operation, where `language`
   * came from (absent: none generated), and the languages the cases took (absent in older reports):
   * a re-run pins them (--languages).
   */
  readonly generation?: {
    readonly seed: number;
    readonly examples: number;
    readonly languagesFrom: string;
    readonly languages?: readonly string[];
  };
  /** Why the run ended before it had sent every case, and how far it got (absent: it ran to the end). */
  readonly incomplete?: string;
  /**
   * What the harness concluded about the target as a whole, before any single finding: it is not
   * reachable, it does not answer like this service, it uses another namespace, operations named
   * were not called. Reports put these first.
   */
  readonly diagnosis?: readonly Diagnosis[];
  /** The environment variable the reproduce commands read the password from. */
  readonly passwordVariable?: string;
  /**
   * The environment variable the second account's password came from (absent: CONFORMANCE_OTHER_PASSWORD, or none
   * given).
   */
  readonly otherPasswordVariable?: string;
  /**
   * The operation × binding cells whose valid calls never reached the data path: every one was
   * rejected (an in-band Error, an error status, a fault) or answered without its result element,
   * with why (absent or empty when all reached it). Such a cell was not tested, whatever its rows say.
   */
  readonly untested?: readonly UntestedCell[];
  /**
   * The bookings the run's state-changing calls changed, and the calls left unsent for want of one (absent: none
   * planned).
   */
  readonly bookings?: BookingsSummary;
  /**
   * What a row's re-run command carries of the run's settings beside its target (absent in reports of older versions).
   */
  readonly rerun?: RerunBasis;
  /** The latency gate's limits (--max-p95, the config's `latency`): absent when none was set. */
  readonly latencyGate?: LatencyLimits;
  /**
   * The target's WSDLs against the contract's, read at the preflight (absent: none fetched, as in a shard-merged
   * report).
   */
  readonly drift?: DriftReport;
  /**
   * Transient answers per operation × binding, retries and ambiguous writes, and whether the target was healthy
   * (absent: none met).
   */
  readonly transient?: TransientSummary;
  /**
   * What the run exercised per operation × binding, and what no answer ever held (absent in shard-merged reports and
   * those of older versions).
   */
  readonly coverage?: CoverageReport;
}

/**
 * The run's settings a re-run of one row needs besides the target and the row itself
 * (src/report/rerun.ts): never a password or a booking id, only where they came from.
 */
export interface RerunBasis {
  /** The config file the run read (--config or CONFORMANCE_CONFIG), as given. */
  readonly config?: string;
  /** Where the booking pools came from: a file (its path as given) or the variable holding their JSON. */
  readonly bookings?: { readonly file: string } | { readonly variable: string };
  /** The run's other settings that change what a row sends or how it is judged, as `run` flags. */
  readonly flags: readonly string[];
  /** The run's report directory: a re-run writes into a directory of its own beneath it, never over these reports. */
  readonly reportDir: string;
  /**
   * The environment variables the re-run sets or needs for the run's network (src/transport/curl.ts networkVariables);
   * absent: none.
   */
  readonly variables?: readonly RerunVariable[];
}

/**
 * An environment variable a re-run command sets before the command: to `value` (never a secret: a
 * proxy without credentials, NO_PROXY), or, `required`, left to the person pasting it, the command
 * stopping with "set NAME to <required>" when it is unset (a proxy URL with a password, a passphrase,
 * a header's value).
 */
export type RerunVariable =
  | { readonly name: string; readonly value: string }
  /**
   * `from`: the variable the person sets (the run's own, e.g. one target.proxyPasswordEnv named), copied into `name`.
   */
  | { readonly name: string; readonly required: string; readonly from?: string };

/**
 * The p95 answer-time limits of the latency gate, in milliseconds: one for every operation, and one
 * per operation that overrides it, each with where it was set (a flag or a config key).
 */
export interface LatencyLimits {
  readonly maxP95Ms?: number;
  readonly maxP95Source?: string;
  readonly perOperation?: Readonly<Record<string, number>>;
  readonly perOperationSource?: string;
  /** Answers a cell needs before its p95 is judged (fewer: "too few samples", neither passed nor failed). */
  readonly minSamples: number;
}

/** An operation × binding whose valid calls never reached the data path, and why (RunReport.untested). */
export interface UntestedCell {
  readonly operation: string;
  readonly binding: string;
  readonly reason: string;
  /**
   * What its commonest answer says: `credentials` (refused as wrong credentials), `address` (a wrong URL or service
   * path: HTTP 404, 405, 410, 501), `rejected` (an in-band Error: no such data), `failing` (the target answers valid
   * calls wrongly: another status, a redirect, no result element). The failed rows of a `credentials` or `address` cell
   * are its symptom, not findings: they do not make the verdict FAIL.
   */
  readonly cause?: 'credentials' | 'address' | 'rejected' | 'failing';
}

/** One conclusion about the target as a whole. */
export interface Diagnosis {
  /** error: the run cannot pass because of it; hint: what to try; note: worth knowing, nothing to fix. */
  readonly level: 'error' | 'hint' | 'note';
  readonly message: string;
  /**
   * What kind of conclusion it is, stable snake_case, where a program acts on it: `nothing_tested` (no valid call of
   * the run reached the data path: the run exits 5), `untested_operation`, `not_this_service`, `host_unreachable`,
   * `plain_http_port`, `url_holds_service_path`, `wsdl_not_found`, `wsdl_not_served`, `other_namespace`,
   * `operation_not_called`, `tls_closed` (an https target closed the connection without an answer: a client certificate
   * it wants or refuses), `sequence_not_planned` (a note: what no sequence tested and how to enable it, e.g.
   * authorization across accounts without a second account), `other_login_refused` / `other_login_unproven` (the second
   * account's login refused as a wrong login, or shown on no binding: its sequences were not tested and the run exits 5
   * unless something else failed; engine/other-login.ts); an error with one of core/verdict.ts STOP_CODES
   * (`proxy_refused`, `tls_untrusted`, `tls_refused`, `tls_closed`, `closed_before_tls`, `unknown_host`,
   * `gateway_refusal`, `target_down`): the target refused the run or was down, and the run stopped at once (an OUTAGE,
   * exit 4).
   */
  readonly code?: string;
}
