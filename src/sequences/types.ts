/**
 * What a family of sequences declares, and what it is given. A family is one file of this room: its
 * sequences in a plan (the operation its rows are about, the pool its bookings come from and how many
 * it needs), its steps (sent through the runner's `call`), and its verdicts (how a failure is pinned:
 * on which operation and binding). The runner (./runner.ts) sends, times, records and reproduces;
 * the engine plans, hands out bookings and schedules, knowing no family by name.
 */
import type { Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { Booking, PoolName } from '../core/booking-pools.js';
import type { Finding } from '../core/types.js';
import type { StageName } from './stages.js';

export type { Booking, PoolName };

/** A rejected call sent against a live booking: its case, its binding, and the text it wrote (UpdateSpecialRequest). */
export interface RejectedCall {
  readonly caseId: string;
  readonly binding: BindingId;
  readonly text?: string;
}

/** A sequence of the plan: its family, the pool its state-changing steps draw from, and how many bookings it needs. */
export interface SequenceSpec {
  /** The family's name (./families.ts). */
  readonly family: string;
  readonly pool: PoolName;
  /** Bookings taken from the pool for it (0: it takes none, e.g. it reuses another sequence's). */
  readonly needs: number;
  /** The bookings handed to it (engine/plan.ts withBookings). */
  readonly bookings?: readonly Booking[];
  /**
   * The family whose bookings it uses again, once that family's sequence has ended (engine/schedule.ts
   * waits for it): no booking of its own. The family itself (`writeReadFamily`), not its name: one
   * missing from the list (./families.ts) is found by the families' test, not at run time.
   */
  readonly after?: SequenceFamily;
  /** Parameters of the read that shows a booking usable (AmendmentPriceRequest's first case), booking aside. */
  readonly readParams?: Params;
  /**
   * It reads back the rejected calls of its operation (`unchanged`): the plan hands it the one booking
   * they were sent against, and names them (`rejected`, `shownLive`); none sent: it is not planned.
   */
  readonly readsBack?: boolean;
  /** `unchanged`: the rejected calls sent against its booking. */
  readonly rejected?: readonly RejectedCall[];
  /**
   * `unchanged`: what showed its booking live before the rejected calls (engine/pool-check.ts, or the
   * embedded mock started by the run). Absent: not shown live, so a used booking cannot be blamed on
   * them: not tested, naming the pool (issue 40).
   */
  readonly shownLive?: string;
  /** The operations its rows are about, when not the unit's (and the family's `alsoJudges`). */
  readonly judges?: readonly string[];
  /** Operations it sends and records without judging them. */
  readonly records?: readonly string[];
  /** Parameters of its steps per operation, booking aside (the plan's first hand-written case). */
  readonly stepParams?: Readonly<Record<string, Params>>;
  /** `id-probe`: one identifier of each generated kind, sent through every binding (./id-probe.ts). */
  readonly probes?: readonly IdProbe[];
}

/**
 * One identifier of a generated kind (engine/generate.ts idKinds) for an operation that uses a
 * booking up: the parameters its calls send (the id, and a transfer's email, in them), and a second
 * value of the same kind for a witness sequence (none where the kind has one value only: empty).
 */
export interface IdProbe {
  /** The kind, in words ("long", "empty email", ...). */
  readonly kind: string;
  readonly params: Params;
  readonly witness?: Params;
}

/**
 * What a call naming a probe identifier is given as its booking: the id (and email) it names, no
 * booking of a pool. The runner records no booking use for it (a probe spends nothing).
 */
export interface ProbeBooking extends Booking {
  readonly probe: true;
}

/** What a family sees of a plan to decide its sequences. */
export interface PlanView {
  readonly bindings: readonly BindingId[];
  /** The plan's operation of that name, when it runs it. */
  readonly has: (name: string) => Operation | undefined;
  /** Whether the plan may send an operation (the mutation policy), whether or not it runs it. */
  readonly maySend: (op: Operation) => boolean;
  /** The parameters of an operation's first hand-written case. */
  readonly firstParams: (name: string) => Params | undefined;
  /** A second account is given (Target.other): calls may be sent with its credentials. */
  readonly otherAccount: boolean;
  /**
   * The identifiers an operation that uses its booking up is probed with, one per generated kind,
   * and the pool its calls would draw from (they draw nothing); undefined for any other operation.
   */
  readonly idProbes?: (name: string) => { readonly pool: PoolName; readonly probes: readonly IdProbe[] } | undefined;
}

/** A sequence a family asks for: the operation its unit is about, its spec, and what it shows. */
export interface PlannedSequence {
  readonly op: Operation;
  readonly spec: SequenceSpec;
  readonly description: string;
  /**
   * When it may start, named from the one list (./stages.ts): after the units of earlier stages it
   * depends on have ended (STAGE_WAITS). Absent: from the start, on bookings of its own. A race
   * takes a stage of its own after all the others, so no other call holds the connections its calls
   * need at once.
   */
  readonly stage?: StageName;
}

/**
 * What a call's answer says: accepted (with the text read, for GetSpecialRequest), rejected (already cancelled?), or
 * unreadable.
 */
export interface Read {
  readonly kind: 'accepted' | 'rejected' | 'unknown';
  readonly how: string;
  readonly text?: string;
  readonly alreadyCancelled?: boolean;
  /**
   * The in-band Error's message of a rejection (compared by value where the calls named one identifier: ./id-probe.ts).
   */
  readonly errorMessage?: string;
  /** The result's `text`, when a rejection carries one all the same (a foreign read must reveal nothing). */
  readonly rejectedText?: string;
  /**
   * A write left without a real answer (engine/transient.ts ambiguousWrite): never re-sent, its effect read back where
   * a read can tell.
   */
  readonly ambiguous?: boolean;
  /**
   * What came back when it was no answer of the service's (src/transport/transient.ts): a gateway
   * page, a reset or a time-out ("a transient answer (gateway_503, HTTP 503)"), or no response at all.
   * The network's, not the target's: no verdict on how the target orders calls is drawn from it.
   */
  readonly unanswered?: string;
  /** The step's number. */
  readonly n?: number;
  /** When it went and when its answer was in (ms, performance.now()); unknown without a response. */
  readonly sentAt?: number;
  readonly doneAt?: number;
}

/** Whose credentials a call is sent with: the run's account, or the second one (Target.other). */
export type Account = 'own' | 'other';

/** One call of a group started together. */
export interface GroupCall {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly params: Params;
  readonly booking: Booking;
  readonly text?: string;
  readonly account?: Account;
}

/** A group of calls started together: their answers, and how close together they went. */
export interface Together {
  readonly reads: readonly Read[];
  /** From the first call sent to the last (ms). */
  readonly spreadMs: number;
  /** Every call was in flight at one moment: the last went before the first was answered. */
  readonly overlapped: boolean;
  /**
   * The steps of the group the service did not answer itself (a transient answer or none), each
   * named by its number, operation and binding, and what came back ("step 7 (CancelBooking soap12)
   * got a transient answer (gateway_503, HTTP 503)"); absent when every call got the service's answer.
   * Whether such a group overlapped, and how the target orders its calls, is unknown.
   */
  readonly unanswered?: string;
}

/** One step of a family: sent through the runner, numbered in the order started, its answer read. */
export type Call = (
  op: Operation,
  binding: BindingId,
  params: Params,
  booking: Booking,
  text?: string,
  account?: Account,
) => Promise<Read>;

/** Adds what was learnt to a step's outcome (what an ambiguous write's read-back showed). */
export type Note = (n: number | undefined, text: string) => void;

/** One row's verdict: findings (none: it held), or why it was not judged. */
export interface SequenceVerdict {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly outcome: Finding[];
  readonly skipped?: string;
  /** What a row that held says all the same (how close together a race's calls went, what was recorded). */
  readonly note?: string;
}

/**
 * Whether the second account (Target.other) logged in, per binding: the engine calls an operation
 * without side effect with its credentials once a run, before the first call of a family that uses
 * it (engine/other-login.ts). `proven`: answered with data; `refused`: refused as a wrong login;
 * `unknown`: neither (no answer, another rejection). A refusal of the second account's call is an
 * authorization refusal only on a binding where its login is proven.
 */
export interface OtherLogin {
  readonly bindings: Readonly<
    Partial<Record<BindingId, { readonly state: 'proven' | 'refused' | 'unknown'; readonly how: string }>>
  >;
  /** Why the second account's calls are not judged on a binding whose login is not proven (undefined: proven). */
  readonly unproven: (binding: BindingId) => string | undefined;
}

/**
 * What a family's steps get: the plan's bindings, the unit's operation and case, its spec and bookings, and the call.
 */
export interface FamilyRun {
  readonly bindings: readonly BindingId[];
  readonly op: Operation;
  readonly caseId: string;
  readonly spec: SequenceSpec;
  readonly bookings: readonly Booking[];
  readonly call: Call;
  /** Says on a step what was learnt of it later. */
  readonly note: Note;
  /** Calls started together, in one tick, each on a connection of its own (already open if the run opened them). */
  readonly together: (calls: readonly GroupCall[]) => Promise<Together>;
  /** An operation of the contract by name. */
  readonly ops: (name: string) => Operation;
  /**
   * The proof that the second account logged in, asked before its first call (sent once a run;
   * absent where no engine gives it: then its login is not proven on any binding).
   */
  readonly otherLogin?: () => Promise<OtherLogin>;
}

/** A family of sequences: one file of this room, one line of ./families.ts. */
export interface SequenceFamily {
  readonly name: string;
  /** Case id of its rows: stable, so expectations, diffs and comparisons key on it. */
  readonly caseId: string;
  /** Its sequences in a plan. */
  readonly plan: (p: PlanView) => PlannedSequence[];
  /** Operations its rows are about besides the unit's (a row each per binding). */
  readonly alsoJudges?: readonly string[];
  /**
   * The family whose bookings it uses again (its sequences' SequenceSpec.after): it cannot run
   * without it, so naming it (--families) brings that family in, and leaving that family out
   * (--skip-families) leaves it out too (src/engine/families.ts).
   */
  readonly follows?: SequenceFamily;
  /** Its steps and verdicts. */
  readonly run: (r: FamilyRun) => Promise<SequenceVerdict[]>;
  /**
   * Why it plans nothing where a run would want it (no second account given): every report says it,
   * as a note, with how to enable it. Families that share a reason give the same words (said once).
   */
  readonly notPlanned?: (p: PlanView) => string | undefined;
}
