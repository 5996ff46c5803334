/** The transient answers of a run (RunReport.transient), per operation × binding and for the run. */

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
