/** The sequences room: families of calls over state (one file each), the runner they share, and their list. */
export { FAMILIES, familyOf, SEQUENCE_CASE } from './families.js';
export { runSequence, type SequenceEnv, type SequenceOutcome } from './runner.js';
export { longText, WRITE_TEXTS } from './write-read.js';
export type { IdProbe, PlanView, RejectedCall, SequenceFamily, SequenceSpec, Verdict } from './types.js';
