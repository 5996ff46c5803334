/** Shared shapes: the target, one recorded exchange, a finding, a result row and a whole run's report. */
import type { DefectCode } from './defect-codes.js';
import type { BindingId, Namespaces, ServicePaths } from '../contract/catalogue.js';

/** Where and how to reach a service under test. Everything about a target is configuration. */
export interface Target {
  /** Base URLs; the service paths of section 4 are appended. */
  readonly bookUrl: string;
  readonly searchUrl: string;
  /** SearchTransfers' base URL (contract: not shown); defaults to searchUrl. */
  readonly transfersUrl: string;
  /** Service paths per group and binding kind (section 4's by default; deployments differ). */
  readonly paths: ServicePaths;
  readonly namespaces: Namespaces;
  readonly user: string;
  readonly password: string;
  /** The environment variable a reproduce command reads the password from (default CONFORMANCE_PASSWORD). */
  readonly passwordVariable?: string;
  /**
   * A second account of the same service (`--other-user`, its password in CONFORMANCE_OTHER_PASSWORD):
   * the foreign-account sequences (src/sequences/foreign-account.ts) call the first account's bookings
   * with it. Absent: authorization across accounts is not tested, and the reports say so.
   */
  readonly other?: OtherAccount;
  /**
   * Where each given setting came from ("--book-ns", "environment variable CONFORMANCE_BOOK_NS",
   * "target.json: target.bookNs"), keyed by config key (bookUrl, bookNs, ...): a hint about a value
   * names the place to change it. Absent: a flag's name is given.
   */
  readonly sources?: Readonly<Partial<Record<SettingKey, string>>>;
  /** True for the mock this harness starts itself: mutations are then always allowed. */
  readonly embedded: boolean;
  /**
   * Proxies, TLS files and extra headers (docs/real-service.md): the transport and the reproduce commands use the same.
   */
  readonly network?: NetworkOptions;
}

/**
 * A second account: its user name, its password (a secret, redacted like the first) and the variable a reproduce
 * command reads it from.
 */
export interface OtherAccount {
  readonly user: string;
  readonly password: string;
  /** Default CONFORMANCE_OTHER_PASSWORD. */
  readonly passwordVariable?: string;
}

/**
 * A proxy and, when it came from one, the environment variable that held it (a reproduce command with credentials names
 * it).
 */
export interface ProxySetting {
  readonly url: string;
  readonly variable?: string;
  /**
   * The URL named a user and no password, and its password came from this variable
   * (CONFORMANCE_PROXY_PASSWORD, or the one target.proxyPasswordEnv names): `url` holds it now, and a
   * re-run command names the variable, never the password.
   */
  readonly passwordVariable?: string;
}

/**
 * An extra request header; `variable`: its value came from that environment variable (a secret: redacted, named in
 * commands).
 */
export interface ExtraHeader {
  readonly name: string;
  readonly value: string;
  readonly variable?: string;
}

/**
 * How a company's network is reached: proxies per scheme and the hosts that bypass them, the TLS
 * files (paths; the transport reads them), the client PKCS#12's passphrase and the variable it came
 * from, TLS verification off (--insecure-tls), and headers added to every request.
 */
export interface NetworkOptions {
  readonly httpProxy?: ProxySetting;
  readonly httpsProxy?: ProxySetting;
  /** NO_PROXY's syntax: host names (a leading "." or "*." for subdomains), optional ":port", "*" for all. */
  readonly noProxy?: string;
  readonly caFile?: string;
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly clientPfx?: string;
  readonly pfxPassphrase?: string;
  readonly pfxPassphraseVariable?: string;
  readonly insecureTls?: boolean;
  readonly headers?: readonly ExtraHeader[];
}

/**
 * The network path of a run, as its reports' headers name it: never a credential or a header's value.
 * `proxies`: the proxies the target's URLs went through (scheme://host:port); `bypassed`: the target
 * hosts that went direct although a proxy was set (NO_PROXY); the client certificate's subject is
 * read from the certificate (absent when it could not be read).
 */
export interface NetworkPath {
  readonly proxies?: readonly string[];
  readonly noProxy?: string;
  readonly bypassed?: readonly string[];
  readonly caFile?: string;
  readonly clientCertificate?: { readonly file: string; readonly subject?: string };
  /** The extra headers' names, never their values. */
  readonly headers?: readonly string[];
  readonly insecureTls?: boolean;
}

/**
 * The target settings a hint may name the source of: `otherUser` and `otherPassword` are the second
 * account's (a refused login of it names where its user name and password came from).
 */
export type SettingKey =
  | 'bookUrl'
  | 'searchUrl'
  | 'transfersUrl'
  | 'bookPath'
  | 'searchPath'
  | 'transfersPath'
  | 'bookNs'
  | 'searchNs'
  | 'otherUser'
  | 'otherPassword';

/** One HTTP request as the harness sends it. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** One HTTP response as received (body kept as bytes: the encoding check needs them). */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** Milliseconds from sending to the last body byte. */
  readonly elapsedMs: number;
}

/** A request and what came back, or the transport error that stopped it. */
export interface Exchange {
  readonly request: HttpRequest;
  readonly response?: HttpResponse;
  /** Set when no complete response was received (refused, timeout, size cap, reset...). */
  readonly error?: { readonly code: string; readonly message: string };
  /** Transient answers (src/transport/transient.ts) this one replaced, in the order they came: a read retried. */
  readonly retried?: readonly RetriedAnswer[];
}

/** One transient answer a read was retried after. */
export interface RetriedAnswer {
  /** What it was: a gateway page (gateway_503, ...), connection_reset, timeout, connection_refused. */
  readonly kind: string;
  /** Its HTTP status, when it was an answer. */
  readonly status?: number;
  /** Milliseconds waited before the retry (backoff or Retry-After). */
  readonly waitedMs: number;
}

export type Status = 'passed' | 'failed' | 'skipped' | 'known';

/** What one check found wrong in one place. */
export interface Finding {
  readonly check: string;
  /**
   * The kind of defect, stable snake_case (missing_required_element, media_type_mismatch,
   * value_differs, ...): what an expectation may match and a diff may key on beside the check.
   */
  readonly code: DefectCode;
  /** XPath-like location, e.g. /Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id */
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /**
   * binding_equivalence: a unified diff of the canonical forms, the majority's (`-`) against the
   * departing binding's (`+`), as an indented outline without list indexes (src/equivalence/canonical-diff.ts).
   */
  readonly diff?: string;
}

/** One row of conformance.json: one check on one operation × binding(s) × case. */
export interface ResultRow {
  readonly operation: string;
  readonly group: string;
  /** The binding the row is about; for cross-binding rows the departing binding, or a comma list. */
  readonly binding: string;
  readonly case: string;
  readonly check: string;
  status: Status;
  readonly message: string;
  readonly path: string;
  readonly reproduce: string;
  readonly findings: Finding[];
  /**
   * Set on a skipped row of a valid call answered with an in-band Error (section 7.1): not a
   * contract violation, but the case never reached the data path. Reports list these.
   */
  readonly inBandError?: { readonly type: string; readonly message: string };
  /**
   * A failed sequence row (check `sequence`): every call of the sequence, in order (its reproduce holds their
   * commands).
   */
  readonly steps?: readonly SequenceStep[];
  /** Redacted excerpts of the exchange behind the row (for the HTML report). */
  readonly request?: string;
  readonly response?: string;
  readonly durationMs?: number;
  /**
   * A failure that did not reproduce when its case was sent again (FLAKY): the row keeps its first
   * failure as a skipped row, the attempts say what each sending gave; it does not fail the run.
   */
  readonly flaky?: { readonly attempts: readonly FlakyAttempt[] };
}

/** One sending of a case whose failure did not reproduce. */
export interface FlakyAttempt {
  /** 1: the run's main pass; 2 and on: sent again after it. */
  readonly attempt: number;
  readonly status: 'failed' | 'passed';
  readonly message: string;
}

/** Transient answers of one operation × binding (RunReport.transient). */
export interface TransientCell {
  readonly operation: string;
  readonly binding: string;
  /** Requests sent, retries included. */
  readonly exchanges: number;
  /** Of them, transient answers (a gateway page, a reset, a timeout). */
  readonly answers: number;
  /** Reads sent again after a transient answer. */
  readonly retries: number;
  /** Writes left without a (real) answer: their outcome is ambiguous, never re-sent. */
  readonly ambiguous: number;
}

/** The transient answers of a run, and whether the target was healthy enough to judge (src/transport/transient.ts). */
export interface TransientSummary {
  readonly exchanges: number;
  readonly answers: number;
  readonly retries: number;
  readonly ambiguous: number;
  /** --max-transient: the share of transient answers, in percent, above which the target is unhealthy. */
  readonly maxPercent: number;
  /** More than maxPercent of the exchanges were transient: an outage (exit 4), not a verdict on the contract. */
  readonly unhealthy: boolean;
  /** Per operation × binding, those with any transient answer. */
  readonly cells: readonly TransientCell[];
}

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

/** One call of a sequence over state. */
export interface SequenceStep {
  /** 1-based, in the order sent. */
  readonly n: number;
  readonly operation: string;
  readonly binding: string;
  /** The booking it names. */
  readonly booking: string;
  /** The text it wrote (UpdateSpecialRequest). */
  readonly text?: string;
  /** The second account's user name, when the step was sent with its credentials (absent: the run's account). */
  readonly account?: string;
  /** What came back: "accepted", "read \"…\"", "rejected (…)", "no response (…)". */
  readonly outcome: string;
}

/** One booking a state-changing call was sent with: consumed by the run. */
export interface BookingUse {
  /** The pool it came from (config key `bookings.<pool>`). */
  readonly pool: string;
  readonly id: string;
  /** A transfer booking's customer email. */
  readonly email?: string;
  readonly operation: string;
  readonly binding: string;
  readonly case: string;
  /** The step of a sequence that sent it. */
  readonly step?: number;
  /** The second account's user name, when the call was sent with its credentials (foreign-account sequences). */
  readonly account?: string;
  /**
   * What the call did to it: "accepted", "rejected (in-band Error …)", "no response (…)": the booking's state is then
   * unknown.
   */
  readonly outcome: string;
}

/** What the run consumed of its booking pools. */
export interface BookingsSummary {
  /** Every booking a call was sent with, in plan order. */
  readonly changed: readonly BookingUse[];
  /** Per pool, the state-changing calls not sent because the pool ran out (absent: none). */
  readonly short?: Readonly<Record<string, number>>;
  /** Per pool, the bookings the run takes (each once, however many calls change it): what a person creates for it. */
  readonly needed?: Readonly<Record<string, number>>;
  /** Per pool, the bookings given; absent when no pool was given at all. */
  readonly given?: Readonly<Record<string, number>>;
  /**
   * Pool bookings found unusable, the pool's fault (issue 40): already cancelled or not on the target.
   * Read before the run: not used, the next of the pool took their place. `spent`: found by their first
   * cancellation (a transfer booking has no read): their calls are not tested, the run is INCOMPLETE.
   */
  readonly unusable?: readonly {
    readonly pool: string;
    readonly id: string;
    readonly found: string;
    readonly spent?: boolean;
  }[];
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

/**
 * One entry of an expectations file: a known deviation of the target, accepted until it expires
 * (engine/expectations.ts).
 */
export interface Expectation {
  readonly operation: string;
  readonly binding: string;
  readonly check: string;
  readonly case?: string;
  /** Only this kind of defect (a finding's code): a row failing with another kind stays failed. */
  readonly code?: string;
  readonly reason: string;
  readonly expires?: string;
}

/** What an expectations file did to a run: each entry with its verdict, for the reports to list. */
export interface ExpectationsSummary {
  readonly file: string;
  /** The day expiry was judged on (YYYY-MM-DD, UTC). */
  readonly today: string;
  readonly entries: readonly (Expectation & {
    readonly index: number;
    /**
     * ok: still fails, accepted; stale: no longer fails; expired: still fails, no longer accepted;
     * unexplained: still fails, not accepted while its reason is "TODO: explain"; unexercised: not judged by this run.
     */
    readonly state: 'ok' | 'stale' | 'expired' | 'unexplained' | 'unexercised';
    /** Rows the entry accepted (ok) or left failed (expired, unexplained). */
    readonly rows: number;
  })[];
}

/** Where a difference of a target's WSDL from the contract's is: the parts that apply. */
export interface DriftPlace {
  readonly service?: string;
  /** soap11, soap12, get or post. */
  readonly binding?: string;
  readonly operation?: string;
  readonly message?: 'input' | 'output';
  readonly part?: string;
  /** The global element or the named type a schema difference is in. */
  readonly element?: string;
  readonly type?: string;
  /** The element path inside it (`AmendmentRequest/roomId`, `Hotel/@id`). */
  readonly path?: string;
}

/** One difference of a target's WSDL from the contract's (src/schema/wsdl-compare.ts; the rules: docs/drift.md). */
export interface DriftDifference {
  /** The rule that classified it (snake_case, DRIFT_RULES). */
  readonly rule: string;
  /** For a client written against the contract. */
  readonly severity: 'breaking' | 'compatible';
  /** Where a schema component travels: sent by the client, read by it, or both. */
  readonly direction?: 'request' | 'response' | 'both';
  readonly place: DriftPlace;
  /** The place in words. */
  readonly where: string;
  readonly contract?: string;
  readonly target?: string;
  readonly message: string;
}

/** One service's WSDL: fetched (or read) and compared, or why not. */
export interface DriftService {
  readonly service: string;
  /** Where the WSDL came from: its URL (user-info hidden) or file. */
  readonly wsdl: string;
  /** What it was compared with: the contract, or a file. */
  readonly against: string;
  readonly status: 'compared' | 'unreachable' | 'no_wsdl';
  /** Why it was not compared. */
  readonly reason?: string;
  readonly breaking: number;
  readonly compatible: number;
  readonly differences: readonly DriftDifference[];
}

/**
 * What `conformance drift` (and a run's preflight) found of the target's WSDLs against the contract:
 * match (no difference), compatible (only compatible ones), breaking (at least one), not_fetched (a
 * service's WSDL could not be had from an answering target), unreachable (nothing answered).
 */
export interface DriftReport {
  readonly verdict: 'match' | 'compatible' | 'breaking' | 'not_fetched' | 'unreachable';
  readonly breaking: number;
  readonly compatible: number;
  readonly services: readonly DriftService[];
}

/** A form an element or attribute of an answer may take besides holding a value (coverage). */
export type AnswerForm = 'nil' | 'empty' | 'absent';

/**
 * One path of an answer's type model in a coverage cell: whether any answer held it, and which of its other forms were
 * seen.
 */
export interface CoveragePath {
  /**
   * `/getMealsResult/meals/meal/@id`: the result element, then fields, list items and attributes by name (`*`: an item
   * of any name).
   */
  readonly path: string;
  /** Some answer held it. */
  readonly seen: boolean;
  /**
   * Each form the model allows it besides a value (nil where nillable, empty for a list or a string, absent where
   * optional): whether it was seen.
   */
  readonly forms?: Readonly<Partial<Record<AnswerForm, boolean>>>;
}

/** One request parameter in a coverage cell: the kinds of value sent, of those it can be sent as. */
export interface CoverageParam {
  readonly name: string;
  /**
   * Kinds sent (absent, empty, valid, boundary, invalid), of `possible`; a kind outside `possible` (a required one left
   * out) is listed but not counted.
   */
  readonly sent: readonly string[];
  readonly possible: readonly string[];
  /** A parameter of an enumeration of the type model: its values sent, and those never sent. */
  readonly enumSent?: readonly string[];
  readonly enumNotSent?: readonly string[];
}

/** What the run exercised of one operation × binding (docs/coverage.md). */
export interface CoverageCell {
  readonly operation: string;
  readonly binding: string;
  /**
   * (answer paths seen + parameter kinds sent) / (answer paths + parameter kinds possible), in percent, one decimal.
   */
  readonly percent: number;
  /** Requests sent, and answers read (of which answers to probes of a state-changing operation). */
  readonly requests: number;
  readonly answers: number;
  readonly probeAnswers?: number;
  readonly answerPaths: { readonly seen: number; readonly total: number };
  readonly requestKinds: { readonly sent: number; readonly total: number };
  /** Outcomes seen and how often: `accepted`, `rejected: ErrorType X`, `rejected: SOAP fault (HTTP 500)`, ... */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly params: readonly CoverageParam[];
  readonly paths: readonly CoveragePath[];
  /** The paths no answer held: their checks never ran on real data. */
  readonly neverSeen: readonly string[];
}

/** The run's coverage (RunReport.coverage): per cell, and for the run. */
export interface CoverageReport {
  /** The run's figure: the cells' counts summed, as a cell's percent. */
  readonly percent: number;
  readonly answerPaths: { readonly seen: number; readonly total: number };
  readonly requestKinds: { readonly sent: number; readonly total: number };
  /** --min-coverage: below it the run is INCOMPLETE (exit 6). */
  readonly min?: { readonly percent: number; readonly source: string };
  /**
   * Why the figure is not the run's (a shard's cases only): --min-coverage is then judged by `conformance merge`, on
   * all shards.
   */
  readonly partial?: string;
  /** What the figures leave out. */
  readonly note: string;
  readonly cells: readonly CoverageCell[];
}
