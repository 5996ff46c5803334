/**
 * What the engine's runners are given: the send path, the validator, the redactor, and whom to tell
 * of progress, bookings and steps. Apart from ./run.ts so the sequences' engine side
 * (./sequence-unit.ts) needs nothing of the run that imports it.
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { DocumentValidator } from '../checks/context.js';
import type { Redactor } from '../core/redact.js';
import type { BookingUse, Exchange } from '../core/types.js';
import type { Transport } from '../transport/client.js';
import type { OtherLogin } from '../sequences/types.js';
import type { Unit } from './plan.js';
import type { TransientTally } from './transient.js';

/** The engine's dependencies. */
export interface EngineDeps {
  readonly transport: Transport;
  readonly validator: DocumentValidator;
  /** The run's redactor (of every secret it holds, gathered once); by default, of secretsOf(plan.target). */
  readonly redact?: Redactor;
  /** After each unit: units done, of total, the unit just done, and failed rows so far. */
  readonly onProgress?: (done: number, total: number, unit: string, failed?: number) => void;
  /** Why the run stops early (an interrupt), asked before each unit; the transport is stopped too. */
  readonly stopped?: () => string | undefined;
  /** Told of every booking a state-changing call was sent with, and what the call did to it. */
  readonly onBooking?: (use: BookingUse) => void;
  /** Told of each call of a sequence, in the order sent (`record` keeps them so). */
  readonly onStep?: (step: {
    readonly op: Operation;
    readonly binding: BindingId;
    readonly n: number;
    readonly params: Readonly<Record<string, string>>;
    readonly exchange: Exchange;
  }) => void;
  /** Counts the run's transient answers per operation × binding (./transient.ts; runPlan makes one). */
  readonly tally?: TransientTally;
  /** Told of each failed unit's answers (answerPrint per binding): a FLAKY re-send compares with them. */
  readonly onFailedAnswers?: (unit: Unit, prints: ReadonlyMap<string, string>) => void;
  /**
   * The second account's login, proven once a run before the first family that uses it (./other-login.ts; runPlan makes
   * one).
   */
  readonly otherLogin?: { prove(): Promise<OtherLogin> };
  /**
   * Told once, per unit, when every answer of a unit that is not a sequence is in and only its checks are left: the
   * scheduler lets the next units send (./schedule.ts).
   */
  readonly onAnswered?: () => void;
}
