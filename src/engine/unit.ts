/**
 * A plan's data: what a run sends (RunPlan) and its units (one operation × case, sent on every
 * selected binding, or a sequence), and the state-changing policy every command that sends obeys:
 * a state-changing operation is skipped on a real target without --allow-mutations and never
 * retried. Moved whole from ./plan.ts, which builds the units.
 */
import type { Params, DoctypeProbe } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { CaseKind } from '../checks/context.js';
import type { Check } from '../checks/types.js';
import type { LatencyLimits, Target } from '../core/types.js';
import type { CaseTable } from './cases.js';
import type { Generation } from './generate.js';
import type { RejectedCall, SequenceSpec, StageName } from '../sequences/index.js';
import type { Booking, BookingPools, PoolCheck } from './bookings.js';
import type { Callback } from './callback.js';

export interface RunPlan {
  readonly target: Target;
  readonly bindings: readonly BindingId[];
  readonly operations: readonly Operation[];
  readonly cases: CaseTable;
  readonly allowMutations: boolean;
  /** Checks to run on each exchange (already selected by name). */
  readonly checks: readonly Check[];
  /** Send the negative cases per operation (wrong credentials, bad parameters, misrouting). */
  readonly negative: boolean;
  /** Compare the bindings' results per case. */
  readonly equivalence: boolean;
  /** Stop sending once this many rows have failed (--max-failures; undefined: never). */
  readonly maxFailures?: number;
  /**
   * The operations were named by the user (--operations or the config): one of them that gets no
   * exchange at all fails the run, since a gate that tested nothing must not pass.
   */
  readonly operationsNamed?: boolean;
  /** Generated cases (./generate.ts); none when absent or at 0 examples. */
  readonly generation?: Generation;
  /**
   * The bookings state-changing calls may consume (./bookings.ts), each once. Absent: the embedded
   * mock's generated pools for an embedded target, none for a real one.
   */
  readonly bookings?: BookingPools;
  /**
   * What the pool check read before planning (./pool-check.ts): the bookings shown live, those
   * unusable (the pool's). Absent: no check (the embedded mock, or no state-changing call is sent).
   */
  readonly poolCheck?: PoolCheck;
  /** Only the units whose case id matches one of these globs (--case); every unit when absent. */
  readonly caseFilter?: readonly string[];
  /** The latency gate's p95 limits (./latency-gate.ts); no gate when absent. */
  readonly latency?: LatencyLimits;
  /** A breaking difference of the target's WSDL from the contract's fails the run (--fail-on-drift). */
  readonly failOnDrift?: boolean;
  /**
   * --max-transient: percent of transient exchanges above which the target is unhealthy (default ./transient.ts
   * DEFAULT_MAX_TRANSIENT).
   */
  readonly maxTransient?: number;
  /**
   * --min-coverage: a run whose coverage figure (./coverage.ts) is below this percent is INCOMPLETE, and where it was
   * set.
   */
  readonly minCoverage?: { readonly percent: number; readonly source: string };
  /**
   * Where the external-entity probes point (./callback.ts): the harness's listener, or, absent, a
   * host that never resolves (a fetch is then not observable; the report says so).
   */
  readonly callback?: Callback;
  /**
   * --max-failed-logins: at most this many login variants (LOGIN_VARIANTS) are sent, spread over the
   * operations × bindings so each variant and each binding is still tried (spreadLogins). Absent: all.
   */
  readonly maxFailedLogins?: number;
  /** The families of sequences planned, by name (--families, --skip-families: ./families.ts); every one when absent. */
  readonly families?: readonly string[];
}

/** A matcher of case ids for --case patterns: `*` any characters, `?` one, the rest literal. */
export function caseMatcher(patterns: readonly string[]): (caseId: string) => boolean {
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
      ),
  );
  return (caseId) => res.some((r) => r.test(caseId));
}

/** One operation × case, sent on every selected binding. */
export interface Unit {
  readonly op: Operation;
  readonly caseId: string;
  readonly kind: CaseKind;
  readonly params: Params;
  readonly description?: string;
  /** Only these bindings (e.g. the SOAPAction case is SOAP 1.1's); all selected ones when absent. */
  readonly only?: readonly BindingId[];
  /** Headers replacing the binding's own (the wrong-SOAPAction case). */
  readonly headers?: Record<string, string>;
  /** A generated unit: the parameters shrinking goes back to (the first hand-written case's). */
  readonly baseline?: Params;
  /** The booking each binding's call changes (a state-changing operation; ./bookings.ts says which). */
  readonly bookings?: Partial<Record<BindingId, Booking>>;
  /** Bindings not sent, and why (no booking left in the pool). */
  readonly unsent?: Partial<Record<BindingId, string>>;
  /**
   * What a state-changing call is (./bookings.ts): meant to change a real booking, a probe of the identifier, or a
   * rejection.
   */
  readonly calls?: 'real' | 'probe' | 'rejection';
  /** Parameters one binding sends instead of the unit's (its own probe id, a rejected write's own text). */
  readonly perBinding?: Partial<Record<BindingId, Readonly<Record<string, string>>>>;
  /**
   * When it may start, named from the one list of stages (src/sequences/stages.ts): after the units
   * of earlier stages it depends on have ended (STAGE_WAITS; `reads` when absent). Reads are
   * `reads`, read-backs of rejected calls and the login variants `read-backs`, real state-changing
   * calls and probes `writes` (./plan-bookings.ts). A sequence without a stage runs from the start,
   * on bookings of its own.
   */
  readonly stage?: StageName;
  /** Its bindings are sent one after another, not at once (one booking every binding changes). */
  readonly serial?: boolean;
  /**
   * Rejected calls sent before against the first binding's booking: its acceptance now shows they changed nothing
   * (CancelTransferBooking).
   */
  readonly rejectedBefore?: readonly RejectedCall[];
  /**
   * A sequence over state (src/sequences/): its calls are its own, in order; `op` is the operation its rows are about.
   */
  readonly sequence?: SequenceSpec;
  /**
   * Each binding's request carries a DOCTYPE declaring its `probes` entry, the entity standing as the
   * value of `param` (issue 42: XML a SOAP endpoint must refuse); `entity` names the kind of probe.
   */
  readonly doctype?: {
    readonly entity: DoctypeProbe['entity'];
    readonly probes: Partial<Record<BindingId, DoctypeProbe>>;
    readonly param: string;
  };
}

// ---- the state-changing policy: its one home ------------------------------------------------------

/**
 * Why a unit of `op` is not sent to the plan's target, or undefined when it is. The settings
 * (./settings.ts) ask it too: an operation the user names that it forbids is refused up front.
 */
export function skipReason(
  plan: { readonly target: Pick<Target, 'embedded'>; readonly allowMutations: boolean },
  op: Operation,
): string | undefined {
  if (op.mutates && !plan.target.embedded && !plan.allowMutations) {
    return `${op.name} changes state on the target: not called without --allow-mutations`;
  }
  return undefined;
}

/** Retries of a read after a transient answer (src/transport/transient.ts) or a refused connection. */
export const READ_RETRIES = 3;

/** Retries after a transient answer: none for a state-changing operation (a retry could apply it twice). */
export function retriesFor(op: Operation): number {
  return op.mutates ? 0 : READ_RETRIES;
}
