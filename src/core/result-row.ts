/** One row of a report and its parts: a check's status, its findings, the steps of a sequence, the re-sent attempts. */
import type { DefectCode } from './defect-codes.js';

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
