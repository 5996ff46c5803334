/**
 * Shared shapes, each declared in the file named for what it describes (a reader finds a type by its
 * file): the target and the network (target.ts), one exchange (http-exchange.ts), a report's row and
 * its findings (result-row.ts), the run's report (run-report.ts) and its sections (transient-summary.ts,
 * bookings-summary.ts, expectation.ts, drift-report.ts, coverage-report.ts). Re-exported here, where
 * the rest of src/ has always imported them from; a new importer may import from either.
 */
export type {
  Target,
  OtherAccount,
  ProxySetting,
  ExtraHeader,
  NetworkOptions,
  NetworkPath,
  SettingKey,
} from './target.js';
export type { HttpRequest, HttpResponse, Exchange, RetriedAnswer } from './http-exchange.js';
export type { Status, Finding, ResultRow, FlakyAttempt, SequenceStep } from './result-row.js';
export type {
  Verdict,
  RunReport,
  RerunBasis,
  RerunVariable,
  LatencyLimits,
  UntestedCell,
  Diagnosis,
} from './run-report.js';
export type { TransientCell, TransientSummary } from './transient-summary.js';
export type { BookingUse, BookingsSummary } from './bookings-summary.js';
export type { Expectation, ExpectationsSummary } from './expectation.js';
export type { DriftPlace, DriftDifference, DriftService, DriftReport } from './drift-report.js';
export type { AnswerForm, CoveragePath, CoverageParam, CoverageCell, CoverageReport } from './coverage-report.js';
