/** The sequences room: families of calls over state (one file each), the runner they share, and their list. */
export { FAMILIES, familyOf, SEQUENCE_CASE } from './families.js';
export { runSequence, type SequenceEnv, type SequenceOutcome } from './runner.js';
export { longText, WRITE_TEXTS } from './write-read.js';
export type {
  IdProbe,
  PlanView,
  PlannedSequence,
  RejectedCall,
  SequenceFamily,
  SequenceSpec,
  SequenceVerdict,
} from './types.js';
export { STAGES, stageRank, type StageName } from './stages.js';
