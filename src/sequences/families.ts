/**
 * Every family of sequences, in the order their units are planned: adding a family is one file of
 * this room and one line here. The engine plans, hands out bookings and schedules each the same way.
 */
import { cancelFamily } from './cancel.js';
import { cancelTransferFamily } from './cancel-transfer.js';
import { unchangedFamily } from './unchanged.js';
import { useAfterCancelFamily } from './use-after-cancel.js';
import { raceCancelFamily } from './race-cancel.js';
import { raceCancelTransferFamily } from './race-cancel-transfer.js';
import { raceWriteFamily } from './race-write.js';
import { writeReadFamily } from './write-read.js';
import { foreignAccountFamily } from './foreign-account.js';
import { foreignSpecialRequestFamily } from './foreign-special-request.js';
import { foreignAccountTransferFamily } from './foreign-account-transfer.js';
import { idProbeFamily } from './id-probe.js';
import type { SequenceFamily } from './types.js';

export const FAMILIES: readonly SequenceFamily[] = [
  writeReadFamily,
  cancelFamily,
  cancelTransferFamily,
  unchangedFamily,
  useAfterCancelFamily,
  raceCancelFamily,
  raceCancelTransferFamily,
  raceWriteFamily,
  foreignAccountFamily,
  foreignSpecialRequestFamily,
  foreignAccountTransferFamily,
  idProbeFamily,
];

/** A family by name (a spec names its family). */
export function familyOf(name: string): SequenceFamily {
  const f = FAMILIES.find((x) => x.name === name);
  if (!f) throw new Error(`no sequence family named ${name}`);
  return f;
}

/** Case id of each family's rows, by family name. */
export const SEQUENCE_CASE: Readonly<Record<string, string>> = Object.fromEntries(
  FAMILIES.map((f) => [f.name, f.caseId]),
);
