/**
 * What `conformance diff` finds between two runs (src/cli/diff.ts): the rows whose status changed,
 * the coverage lost, and how the runs differ besides their rows.
 */
import type { ResultRow } from '../core/types.js';

export interface DiffEntry {
  readonly operation: string;
  readonly binding: string;
  readonly case: string;
  readonly check: string;
  /** Status in OLD and in NEW ('absent': no such row). */
  readonly old: ResultRow['status'] | 'absent';
  readonly new: ResultRow['status'] | 'absent';
  /** NEW's message (OLD's for fixed and gone rows). */
  readonly message: string;
}

export interface ReportDiff {
  readonly newFailures: DiffEntry[];
  readonly fixed: DiffEntry[];
  readonly stillFailing: DiffEntry[];
  /** Failed in OLD, no row in NEW. */
  readonly gone: DiffEntry[];
  /** What OLD tested and NEW did not (lostCoverage in diffRuns). */
  readonly lostCoverage?: LostCoverage;
  /** How the two runs differ besides their rows: target, seed, selection (diffRuns). */
  readonly context?: readonly string[];
}

/** What was tested in OLD and is not in NEW: skipped, not called, or not reaching the data path. */
export interface LostCoverage {
  /** Rows OLD tested (passed, failed or known) that NEW skipped, or does not have. */
  readonly rows: readonly DiffEntry[];
  /**
   * Operation × binding cells OLD tested that NEW did not test at all, or whose valid calls did not reach the data
   * path.
   */
  readonly cells: readonly { readonly operation: string; readonly binding: string; readonly reason: string }[];
  /** Operations OLD tested none of whose cells NEW tested. */
  readonly operations: readonly { readonly operation: string; readonly reason: string }[];
  /** Bindings OLD tested none of whose cells NEW tested. */
  readonly bindings: readonly { readonly binding: string; readonly reason: string }[];
  /**
   * The coverage report's drops (both reports carrying one, docs/coverage.md): per cell not lost
   * above, the answer paths some answer of OLD held and none of NEW, the kinds of parameter value
   * OLD sent and NEW did not, and its figure before and after.
   */
  readonly dropped?: readonly CoverageDrop[];
  /** The run's coverage figure, when it dropped. */
  readonly figure?: { readonly old: number; readonly new: number };
}

/** One operation × binding whose coverage dropped (LostCoverage.dropped). */
export interface CoverageDrop {
  readonly operation: string;
  readonly binding: string;
  readonly old: number;
  readonly new: number;
  /** Answer paths held before, by no answer now. */
  readonly paths: readonly string[];
  /** "parameter: kind" sent before, not now. */
  readonly kinds: readonly string[];
}
