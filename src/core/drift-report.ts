/** The differences of a target's WSDLs from the contract's (RunReport.drift, `conformance drift`). */

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
