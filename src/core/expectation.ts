/** Known deviations: an expectations file's entry, and what the file did to a run (RunReport.expectations). */

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
