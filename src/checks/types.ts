/**
 * A check is small, named, pure and isolated (Schemathesis' checks are the model): it reads one
 * exchange through its context and returns findings. It never does I/O; validators come in the
 * context. A check that throws becomes a finding of its own and never stops the others.
 */
import type { Finding } from '../core/types.js';
import type { CheckContext } from './context.js';
import type { InBandError } from './support.js';

/**
 * What a check says about one exchange: findings (empty: passed), a pass with a note (something
 * worth reporting that the contract does not let us fail, e.g. the form of an error it does not
 * show), or why it could not run.
 */
export type CheckOutcome = Finding[] | { readonly note: string } | Skipped;

/**
 * Why a check could not run. `inBandError` marks the one skip a person must see: a valid call
 * answered with an in-band Error (not a contract violation, but the data path was never reached).
 */
export interface Skipped {
  readonly skipped: string;
  readonly inBandError?: InBandError;
}

export interface Check {
  /** Stable snake_case name, used in reports and to switch checks on and off. */
  readonly name: string;
  /** One line: the property the check asserts. */
  readonly description: string;
  /** Whether the check is about this exchange at all (e.g. envelope checks only on SOAP). */
  appliesTo(ctx: CheckContext): boolean;
  run(ctx: CheckContext): CheckOutcome;
}

/** Build a finding of a check. */
export function finding(check: string, path: string, message: string, expected?: string, actual?: string): Finding {
  return { check, path, message, ...(expected !== undefined ? { expected } : {}), ...(actual !== undefined ? { actual } : {}) };
}
