/**
 * The kinds of result rows. A row of conformance.json names a check; besides the checks of the
 * registry, three names mark rows of another kind: the exchange itself, a unit or check not run,
 * and the comparison of bindings (whose binding field may list several, comma-separated). This is
 * the one place that reads a row's kind and bindings from those fields.
 */
import type { ResultRow, RunReport } from './types.js';

/** Row check name for the exchange itself (a response was received at all). */
export const EXCHANGE_CHECK = 'http_exchange';
/** Row check name of a unit or of checks not run (mutation guard, deadline). */
export const NOT_RUN_CHECK = 'all';
/** Case of the preflight's rows: a host that answered nothing before the matrix (engine/diagnose.ts). */
export const PREFLIGHT_CASE = 'preflight';
/** Row check name of the comparison of bindings. */
export const EQUIVALENCE_CHECK = 'binding_equivalence';
/**
 * Row check name of the preflight's comparison of the target's WSDL with the contract's under
 * --fail-on-drift (engine/diagnose.ts): failed on a breaking difference, skipped ("not tested") where
 * the WSDL could not be compared, which leaves the run UNTESTED (./verdict.ts), as `conformance drift` does.
 */
export const DRIFT_CHECK = 'wsdl_drift';
/** Row check name of a sequence over state (src/sequences/): a property of several calls in order. */
export const SEQUENCE_CHECK = 'sequence';

export type RowKind = 'exchange' | 'not-run' | 'equivalence' | 'check';

export function rowKind(row: Pick<ResultRow, 'check'>): RowKind {
  switch (row.check) {
    case EXCHANGE_CHECK:
      return 'exchange';
    case NOT_RUN_CHECK:
      return 'not-run';
    case EQUIVALENCE_CHECK:
      return 'equivalence';
    default:
      return 'check';
  }
}

/** The bindings a row's binding field names ("soap11", or "soap11,get" for cross-binding rows). */
export function rowBindings(row: Pick<ResultRow, 'binding'>): string[] {
  return row.binding
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
}

/** The binding field of a row about `bindings` (one, or several for a cross-binding row). */
export function bindingField(bindings: readonly string[]): string {
  return bindings.join(',');
}

/**
 * Why an operation got no exchange at all, when none of its rows is more than a not-run row: the
 * reason its not-run rows give, without the operation's own name in front. Undefined when it was called.
 */
export function notCalledReason(
  operation: string,
  rows: readonly Pick<ResultRow, 'check' | 'message' | 'status'>[],
): string | undefined {
  if (rows.length === 0 || rows.some((r) => rowKind(r) !== 'not-run')) return undefined;
  const reason = (rows.find((r) => r.status === 'skipped') ?? rows[0]!).message.replace(/^not run: /, '');
  return reason.startsWith(`${operation} `) ? reason.slice(operation.length + 1) : reason;
}

/** Prefix of the case ids of generated cases (src/engine/generate.ts): the reports group them. */
export const GENERATED_CASE_PREFIX = 'gen-';

/** Whether a row's case is a generated one. */
export function isGeneratedCase(caseId: string): boolean {
  return caseId.startsWith(GENERATED_CASE_PREFIX);
}

/** Diagnosis code of a run none of whose valid calls reached the data path (engine/diagnose.ts). */
export const NOTHING_TESTED = 'nothing_tested';

/**
 * Diagnosis codes of a second account whose login was refused as a wrong login on some binding, or
 * shown on none (engine/other-login.ts): the families that use it were not tested, and the run is
 * never PASS (core/verdict.ts).
 */
export const OTHER_LOGIN_REFUSED = 'other_login_refused';
export const OTHER_LOGIN_UNPROVEN = 'other_login_unproven';

/**
 * How much of a run was not tested: 'all' when no valid call reached the data path (wrong
 * credentials, a wrong URL or path, not this service), 'some' when some operation × binding cells
 * did not, undefined when every cell called did.
 */
export function untestedExtent(report: Pick<RunReport, 'untested' | 'diagnosis'>): 'all' | 'some' | undefined {
  if (report.diagnosis?.some((d) => d.code === NOTHING_TESTED)) return 'all';
  return report.untested?.length ? 'some' : undefined;
}

/**
 * Row check name of the latency gate (engine/latency-gate.ts): one row per operation × binding with a p95 limit, case
 * "*".
 */
export const LATENCY_CHECK = 'latency';

/**
 * The case of the pool check's reads before a run (engine/pool-check.ts): recorded, and replayed in the order recorded
 * (mock/replay.ts).
 */
export const POOL_CHECK_CASE = 'pool-check';
