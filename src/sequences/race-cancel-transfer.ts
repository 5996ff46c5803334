/**
 * race-cancel-transfer: the cancellation race of ./race-cancel.ts on one fresh transfer booking (no read of it exists).
 */
import { cancelRace } from './race-cancel.js';
import type { PlanView, PlannedSequence, SequenceFamily } from './types.js';

/** One race when the plan runs CancelTransferBooking: one transfer booking of its own. */
function plan(p: PlanView): PlannedSequence[] {
  const transfer = p.has('CancelTransferBooking');
  if (!transfer) return [];
  return [
    {
      op: transfer,
      spec: { family: 'race-cancel-transfer', pool: 'transfers', needs: 1 },
      description:
        'one transfer booking cancelled at the same moment through every binding and twice through one: '
        + 'exactly one cancellation is accepted, every other is "already cancelled"',
      stage: 'race-cancel-transfer',
    },
  ];
}

/** The race-cancel-transfer family. */
export const raceCancelTransferFamily: SequenceFamily = {
  name: 'race-cancel-transfer',
  caseId: 'seq-race-cancel-transfer',
  plan,
  run: cancelRace,
};
