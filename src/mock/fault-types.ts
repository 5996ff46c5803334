/**
 * What a fault of the mock's catalogue (./faults.ts) is: its entry (`Fault`), the hooks it may hold at
 * the stages of the mock's answer (`FaultHooks`, in the order of ./faults.ts's module comment) and
 * what each hook is given, and the response the mock sends.
 */
import type { IncomingRequest } from '../bindings/types.js';
import type { BindingId, Namespaces, Operation } from '../contract/catalogue.js';
import type { Credentials } from './data.js';
import type { SerializeOptions, Value } from './serialize.js';
import type { BookingStore } from './state.js';

type RawParams = Readonly<Record<string, string | undefined>>;

/** A response as the mock sends it; a fault may give the body as bytes. */
export interface MockResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  /** The answer read or changed the mock's state: the same request may be answered otherwise later (never memoised). */
  readonly volatile?: boolean;
}

/** What the response to this request carries. */
export type ResponseKind = 'data' | 'in-band-error' | 'rejection';

export interface FaultContext {
  readonly op: Operation;
  readonly binding: BindingId;
  /** The operation's group namespace and all configured namespaces. */
  readonly ns: string;
  readonly namespaces: Namespaces;
  readonly credentials: Credentials;
  /** The second account (it owns no booking): an authorization fault lets it act as the first. */
  readonly other?: Credentials;
  /** The parameters as decoded (after `params` hooks). */
  readonly params: RawParams;
  readonly kind: ResponseKind;
  /** True when a fault's request hook made the request decodable (it was refused as sent). */
  readonly rewritten: boolean;
  /** The data a valid call with these parameters and the right credentials gets. */
  validValue(): Value;
}

export interface RequestContext {
  readonly binding: BindingId;
  /** The fault's operation and its group namespace. */
  readonly op: Operation;
  readonly ns: string;
}

/** What a state hook is given: the request's context and the fault's own memory in this mock instance. */
export interface StateFaultContext extends FaultContext {
  /** Kept for the life of the mock instance, one map per fault (e.g. a text read once, cached). */
  readonly memory: Map<string, unknown>;
}

export interface FaultHooks {
  /**
   * The state a valid call sees (src/mock/state.ts): the hook returns the store this request reads
   * and changes, usually the given one with a method or two replaced. Only stateful faults have it.
   */
  readonly state?: (store: BookingStore, ctx: StateFaultContext) => BookingStore;
  readonly request?: (req: IncomingRequest, ctx: RequestContext) => IncomingRequest;
  readonly params?: (params: RawParams, ctx: Omit<FaultContext, 'kind' | 'params'>) => RawParams;
  readonly value?: (value: Value, ctx: FaultContext) => Value;
  readonly options?: (options: SerializeOptions, ctx: FaultContext) => SerializeOptions;
  readonly xml?: (xml: string, ctx: FaultContext) => string;
  readonly body?: (body: string, ctx: FaultContext) => string;
  readonly status?: (status: number, ctx: FaultContext) => number;
  readonly headers?: (headers: Readonly<Record<string, string>>, ctx: FaultContext) => Record<string, string>;
  readonly response?: (response: MockResponse, ctx: FaultContext) => MockResponse;
}

/** Which bookings exist on the mock a fault is proved against (Fault.bookingModes). */
export type BookingMode = 'default' | 'bookings' | 'everyId';

export type FaultCategory =
  | 'status'
  | 'media-type'
  | 'envelope'
  | 'result-element'
  | 'namespace'
  | 'required'
  | 'nil'
  | 'enumeration'
  | 'lexical'
  | 'structure'
  | 'encoding'
  | 'binding-rules'
  | 'equivalence'
  | 'credentials'
  | 'bad-request'
  | 'input'
  | 'state'
  | 'authorization'
  | 'hostile-xml';

export interface Fault {
  /** kebab-case, unique. */
  readonly name: string;
  /** One line: the violation. */
  readonly description: string;
  readonly category: FaultCategory;
  /** The operation it is confined to (catalogue name). */
  readonly operation: string;
  /** The bindings it is confined to. */
  readonly bindings: readonly BindingId[] | 'all';
  readonly apply: FaultHooks;
  /**
   * The inputs that trigger it, when only some do (issue 16): the mock then answers every other
   * request, the hand-written cases and the wrong-password case included, byte for byte as the
   * correct mock does (a test proves it); only generated cases and credential variants find it.
   */
  readonly triggeredBy?: string;
  /**
   * A fault of the mock's state (issue 23): it shows only in a sequence of calls (a write then a
   * read, a cancellation then another), never in a single request on a fresh mock unless it is about
   * the first call itself. Its `operation` and `bindings` are those of the call that goes wrong, for
   * a write that is the write's (UpdateSpecialRequest), even though the failure shows in a later
   * read. It needs a stateful mock.
   */
  readonly stateful?: boolean;
  /** A stateful fault about the first call itself: it shows on a single request on a fresh mock. */
  readonly showsOnFirstCall?: boolean;
  /**
   * Where a stateful fault shows: the operations whose answers differ from the correct mock's in a
   * sequence (for a write, the reads after it). `operation` and `bindings` stay where it is committed.
   */
  readonly showsIn?: readonly string[];
  /**
   * Why no honest run can see this fault: the one fault of the catalogue a harness that is right
   * about a stateful service must miss (one that saw it would fail a conforming service). The
   * self-test still runs it and requires that the run raise no finding at all: proof that the
   * harness compares nothing across bookings. Kept to mark where black-box testing ends.
   */
  readonly undetectable?: string;
  /**
   * It shows only on a service that looks its bookings up, where only real bookings exist (why, in
   * words): where any id names a booking, made on first touch, what the fault changes is never
   * compared. The self-test and the suites run it against a mock told its bookings (`bookings`).
   */
  readonly needsKnownBookings?: string;
  /**
   * The mock modes of which bookings exist that the self-test runs it against, each its own run
   * (issue 40): `default` (any non-blank id names a booking), `bookings` (only the pools', as
   * `needsKnownBookings`), `everyId` (every id, blank included). Absent: `bookings` for a fault that
   * needs known bookings, `default` otherwise.
   */
  readonly bookingModes?: readonly BookingMode[];
  /**
   * Operations a run needs besides the fault's own to see it (a use after cancellation needs the
   * cancellation: CancelBooking brings the cancel sequence whose bookings it uses again).
   */
  readonly alsoRun?: readonly string[];
}
