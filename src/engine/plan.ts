/**
 * What a run sends, decided before anything is sent: the plan (target, bindings, operations, cases,
 * checks), its units (one operation × request case, each sent on every selected binding: the valid
 * cases, then the negative cases), and the policies every command that sends obeys: a
 * state-changing operation is skipped on a real target without --allow-mutations and never retried,
 * and every request goes to its group's host and path (bindings/endpoint.ts). `run`, `record`,
 * `compare`, the suites and the bench all plan here and send through ./exchange.ts.
 */
import { doctypeRequestFor, requestFor } from '../bindings/endpoint.js';
import { binding as bindingModule } from '../bindings/index.js';
import { NIL_VALUE, type DoctypeProbe, type Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { CaseKind } from '../checks/context.js';
import type { Check } from '../checks/types.js';
import { swapCase } from '../core/redact.js';
import { networkSecrets } from '../transport/proxy.js';
import type { Diagnosis, HttpRequest, LatencyLimits, Target } from '../core/types.js';
import type { CaseTable, RequestCase } from './cases.js';
import { broadestCase, coverageCases, generatedCases, idKinds, paramsKey, type Generation } from './generate.js';
import { OPERATIONS } from '../contract/catalogue.js';
import { FAMILIES, SEQUENCE_CASE, type IdProbe, type PlanView, type RejectedCall, type SequenceSpec } from '../sequences/index.js';
import {
  BookingLedger, consumesBooking, EMPTY_POOLS, ID_PROBE_VARIANTS, idParamOf, loginProbeId, mockBookings, POOL_NAMES, needsBooking, noBookingReason, poolOf, probeVariant, withBooking,
  poolKey, type Booking, type BookingPools, type PoolCheck, type PoolName,
} from './bookings.js';
import { probeUrl, unobservableCallback, type Callback } from './callback.js';

/** A password no real account has: the wrong-credentials case sends it. */
export const WRONG_PASSWORD = 'conformance-wrong-password-7f3a';
export const WRONG_CREDENTIALS_CASE = 'wrong-credentials';
/** A user name no real account has: the wrong-user case sends it with the right password. */
export const WRONG_USER = 'conformance-wrong-user-7f3a';

/** Name of the operation the unknown-operation case asks for. */
export const UNKNOWN_OPERATION = 'NoSuchOperation';

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
  /** --max-transient: percent of transient exchanges above which the target is unhealthy (default ./transient.ts DEFAULT_MAX_TRANSIENT). */
  readonly maxTransient?: number;
  /** --min-coverage: a run whose coverage figure (./coverage.ts) is below this percent is INCOMPLETE, and where it was set. */
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
}

/** A matcher of case ids for --case patterns: `*` any characters, `?` one, the rest literal. */
export function caseMatcher(patterns: readonly string[]): (caseId: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`));
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
  /** What a state-changing call is (./bookings.ts): meant to change a real booking, a probe of the identifier, or a rejection. */
  readonly calls?: 'real' | 'probe' | 'rejection';
  /** Parameters one binding sends instead of the unit's (its own probe id, a rejected write's own text). */
  readonly perBinding?: Partial<Record<BindingId, Readonly<Record<string, string>>>>;
  /**
   * When it may start: after every unit of a lower stage has ended (0 when absent). Reads are stage
   * 0, read-backs of rejected calls 1, real state-changing calls and probes 2 (./bookings.ts). A
   * sequence without a stage runs from the start, on bookings of its own.
   */
  readonly stage?: number;
  /** Its bindings are sent one after another, not at once (one booking every binding changes). */
  readonly serial?: boolean;
  /** Rejected calls sent before against the first binding's booking: its acceptance now shows they changed nothing (CancelTransferBooking). */
  readonly rejectedBefore?: readonly RejectedCall[];
  /** A sequence over state (src/sequences/): its calls are its own, in order; `op` is the operation its rows are about. */
  readonly sequence?: SequenceSpec;
  /**
   * Each binding's request carries a DOCTYPE declaring its `probes` entry, the entity standing as the
   * value of `param` (issue 42: XML a SOAP endpoint must refuse); `entity` names the kind of probe.
   */
  readonly doctype?: { readonly entity: DoctypeProbe['entity']; readonly probes: Partial<Record<BindingId, DoctypeProbe>>; readonly param: string };
}

/** A stand-in operation the service does not have, on the path and namespace of `like`. */
function unknownOperation(like: Operation): Operation {
  return { ...like, name: UNKNOWN_OPERATION, params: like.params.filter((p) => p.name === 'userName' || p.name === 'password'),
    resultElement: 'noSuchOperationResult', mutates: false, source: 'negative case: an operation the service does not have' };
}

/** Unparsable values per parameter type. */
const UNPARSABLE: Partial<Record<string, string>> = { int: 'not-a-number', dateTime: 'not-a-date', decimal: 'not-a-decimal' };

/** The valid unit of one request case: its parameters and the target's credentials. */
export function caseUnit(target: Pick<Target, 'user' | 'password'>, op: Operation, c: RequestCase): Unit {
  return { op, caseId: c.id, kind: 'valid', params: { ...c.params, userName: target.user, password: target.password }, description: c.description };
}

/**
 * The credential variants of an operation's first case (section 5): each must get no data on any
 * binding. The wrong password, an empty one, the right password with a wrong user name, the right
 * password in other letter case (left out when it has no letter), both credentials absent.
 */
export function credentialUnits(op: Operation, params: Params, password: string): Unit[] {
  const kind = 'wrong-credentials' as const;
  const absent: Record<string, string> = { ...params };
  delete absent.userName;
  delete absent.password;
  const swapped = swapCase(password);
  return [
    { op, caseId: WRONG_CREDENTIALS_CASE, kind, params: { ...params, password: WRONG_PASSWORD },
      description: 'a valid call with a wrong password: no binding may answer with data' },
    { op, caseId: 'empty-password', kind, params: { ...params, password: '' },
      description: 'a valid call with an empty password: no binding may answer with data' },
    { op, caseId: 'wrong-user', kind, params: { ...params, userName: WRONG_USER },
      description: 'the right password with a user name no account has: no binding may answer with data' },
    ...(swapped !== password ? [{ op, caseId: 'password-case', kind, params: { ...params, password: swapped },
      description: 'the right password in other letter case (masked as the password is): no binding may answer with data' }] : []),
    { op, caseId: 'no-credentials', kind, params: absent,
      description: 'neither userName nor password sent: no binding may answer with data' },
  ];
}

/**
 * The credential variants a careless login check lets in (issue 42, section 1), beyond those of
 * credentialUnits: each sent on every operation × binding (the nil one through the bindings that can
 * send a nil, SOAP; the crossed accounts' only when a second account is given), each refused as the
 * wrong password is or as a malformed request is (src/checks/login-rejected.ts). Their case ids
 * name the variant (`login-*`: `--case 'login-*'` picks them). The password itself never shows:
 * the reports mask it, and the prefix too (core/redact.ts).
 */
export interface LoginVariant {
  readonly id: string;
  readonly description: string;
  /** The credentials it sends (undefined: left out; NIL_VALUE: sent as nil), or undefined when this target has no such variant. */
  credentials(account: { user: string; password: string }, other?: { user: string; password: string }): { userName?: string; password?: string } | undefined;
  /** Only the bindings that can send a nil (Binding.sendsNil). */
  readonly nil?: true;
}

export const LOGIN_VARIANTS: readonly LoginVariant[] = [
  { id: 'login-password-absent', description: 'the right user name, no password parameter at all',
    credentials: (a) => ({ userName: a.user }) },
  { id: 'login-user-absent', description: 'the right password, no userName parameter at all',
    credentials: (a) => ({ password: a.password }) },
  { id: 'login-password-nil', description: 'the right user name, the password sent as xsi:nil="true" (a null string)', nil: true,
    credentials: (a) => ({ userName: a.user, password: NIL_VALUE }) },
  { id: 'login-password-extended', description: 'the right password with characters added after it',
    credentials: (a) => ({ userName: a.user, password: `${a.password}x` }) },
  { id: 'login-password-prefix', description: 'a proper prefix of the right password (its last character left out)',
    credentials: (a) => ([...a.password].length > 1 ? { userName: a.user, password: [...a.password].slice(0, -1).join('') } : undefined) },
  { id: 'login-password-spaced', description: 'the right password with a space before and after it',
    credentials: (a) => ({ userName: a.user, password: ` ${a.password} ` }) },
  { id: 'login-other-user-my-password', description: 'the second account\'s user name with the first account\'s password',
    credentials: (a, o) => (o && o.password !== a.password ? { userName: o.user, password: a.password } : undefined) },
  { id: 'login-my-user-other-password', description: 'the first account\'s user name with the second account\'s password',
    credentials: (a, o) => (o && o.password !== a.password ? { userName: a.user, password: o.password } : undefined) },
];

/** One login variant on one operation and binding: a failed login the run sends. */
export interface LoginTry { readonly op: Operation; readonly variant: LoginVariant; readonly binding: BindingId }

/** The login variants a plan may send, each operation × variant × binding (before --max-failed-logins). */
export function loginTries(plan: Pick<RunPlan, 'operations' | 'bindings' | 'target'>): LoginTry[] {
  const out: LoginTry[] = [];
  for (const op of plan.operations) {
    for (const variant of LOGIN_VARIANTS) {
      if (!variant.credentials(plan.target, plan.target.other)) continue;
      for (const b of plan.bindings) if (!variant.nil || bindingModule(b).sendsNil) out.push({ op, variant, binding: b });
    }
  }
  return out;
}

/**
 * At most `max` of the tries, spread so each variant and each binding is tried as early as can be: the
 * variants take turns, and each walks its operations × bindings along diagonals (its k-th try on
 * operation k with binding k: every binding within as many turns as there are bindings, each on
 * another operation), starting at an operation and a binding of its own (the starts spread evenly
 * over the operations, so each operation gets its share; the first turn of the variants already
 * covers every binding). All of them when `max` is absent or not smaller.
 */
export function spreadLogins(tries: readonly LoginTry[], max: number | undefined, operations: readonly Operation[], bindings: readonly BindingId[]): LoginTry[] {
  if (max === undefined || max >= tries.length) return [...tries];
  const variants = [...new Set(tries.map((t) => t.variant))];
  const queues = variants.map((v, j) => {
    const own = tries.filter((t) => t.variant === v);
    const bs = bindings.filter((b) => own.some((t) => t.binding === b));
    const rank = (t: LoginTry) => {
      // Its own start, the variants' starts spread evenly over the operations (each operation gets its share).
      const start = Math.floor((j * operations.length) / variants.length) % operations.length;
      const o = (operations.indexOf(t.op) + operations.length - start) % operations.length;
      return ((bs.indexOf(t.binding) - o - j) % bs.length + bs.length) % bs.length * operations.length + o;
    };
    return own.sort((a, b) => rank(a) - rank(b));
  });
  const picked = new Set<LoginTry>();
  for (let r = 0; picked.size < max; r++) {
    let any = false;
    for (const q of queues) {
      if (picked.size >= max) break;
      const t = q[r];
      if (!t) continue;
      picked.add(t);
      any = true;
    }
    if (!any) break;
  }
  return tries.filter((t) => picked.has(t));
}

/** Whether the plan sends the login variants at all: negative cases on, and their check selected. */
function sendsLoginVariants(plan: Pick<RunPlan, 'negative' | 'checks'>): boolean {
  return plan.negative && plan.checks.some((c) => c.name === LOGIN_CHECK);
}
/** The check judging the login variants (src/checks/login-rejected.ts): left out (--skip-checks), they are not sent. */
const LOGIN_CHECK = 'login_rejected';

/**
 * How many failed logins the plan sends (--dry-run says so: a service may lock an account after
 * some): the wrong-password case and its credential variants (credentialUnits) on every operation ×
 * binding, and the login variants kept by --max-failed-logins.
 */
export function failedLogins(plan: RunPlan): { readonly reference: number; readonly variants: number; readonly variantsAll: number } {
  let reference = 0;
  let variants = 0;
  for (const u of planUnits(plan)) {
    if (skipReason(plan, u.op)) continue;
    const n = plan.bindings.filter((b) => !u.only || u.only.includes(b)).length;
    if (u.kind === 'wrong-credentials') reference += n;
    if (u.kind === 'login-variant') variants += n;
  }
  const all = sendsLoginVariants(plan) ? loginTries(plan).filter((t) => !skipReason(plan, t.op)).length : 0;
  return { reference, variants, variantsAll: all };
}

/** The login variants' units of a plan: one per operation × variant, on the bindings --max-failed-logins keeps. */
function loginUnits(plan: RunPlan): Unit[] {
  if (!sendsLoginVariants(plan)) return [];
  const tries = spreadLogins(loginTries(plan), plan.maxFailedLogins, plan.operations, plan.bindings);
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const first = plan.cases.get(op.name)?.[0];
    if (!first) continue;
    for (const variant of LOGIN_VARIANTS) {
      const only = tries.filter((t) => t.op === op && t.variant === variant).map((t) => t.binding);
      if (only.length === 0) continue;
      const params: Record<string, string> = { ...first.params, ...variant.credentials(plan.target, plan.target.other)! };
      // A read's variants run after the wrong password's answer is in (stage 1: the reference they are compared with).
      units.push({ op, caseId: variant.id, kind: 'login-variant', params, only, description: `${variant.description}: refused as the wrong password is`, stage: 1 });
    }
  }
  return units;
}

/**
 * The units of a plan, in catalogue order: the valid cases, then the negative case per operation,
 * then the sequences; each state-changing call with its booking (handed out over the whole plan, so a
 * booking's call is the same whatever --case or --shard picks); only those --case names, when given.
 */
export function planUnits(plan: RunPlan): Unit[] {
  const units = withBookings(plan, [...casesUnits(plan), ...loginUnits(plan), ...sequenceUnits(plan)]);
  if (!plan.caseFilter) return units;
  const match = caseMatcher(plan.caseFilter);
  return units.filter((u) => match(u.caseId));
}

/** The pools a plan draws from: its own, else the embedded mock's, else none. */
export function poolsOf(plan: Pick<RunPlan, 'bookings' | 'target'>): BookingPools {
  return plan.bookings ?? (plan.target.embedded ? mockBookings() : EMPTY_POOLS);
}

/** Rank of a unit's claim on the pools: the hand-written cases first, then the sequences, then the rest. */
const claimRank = (u: Unit) => (u.sequence ? 1 : u.kind === 'valid' ? 0 : u.kind === 'generated' ? 2 : 3);
/** The case kinds whose state-changing call is a rejection (./bookings.ts). */
const REJECTIONS: ReadonlySet<CaseKind> = new Set(['wrong-credentials', 'missing-param', 'bad-param', 'wrong-soapaction']);

/**
 * The booking rule of every state-changing call (./bookings.ts): real calls get pool bookings (a
 * booking per binding for the first case of an operation that uses them up; one booking for the
 * whole run otherwise), probes an id of their own per binding where a call would use a booking up,
 * rejections the first binding's booking of the first case, read back afterwards. Handed out in a
 * fixed order, over the whole plan, so every shard and every --case hands out the same bookings. A
 * call left without a booking is not sent; calls the policy does not send claim none.
 */
export function withBookings(plan: RunPlan, units: readonly Unit[]): Unit[] {
  const ledger = new BookingLedger(poolsOf(plan));
  const out = [...units];
  const order = units.map((u, i) => ({ u, i })).sort((a, b) => claimRank(a.u) - claimRank(b.u) || a.i - b.i);
  // The one booking of an operation that does not use it up, and the first case's bookings of one that does.
  const shared = new Map<PoolName, Booking | undefined>();
  const sharedOf = (pool: PoolName) => {
    if (!shared.has(pool)) shared.set(pool, ledger.take(pool));
    return shared.get(pool);
  };
  const firstCase = new Map<string, Partial<Record<BindingId, Booking>>>();
  /** Probe units of each operation that uses bookings up, so far. */
  const probes = new Map<string, number>();
  const rejected = new Map<string, { booking: Booking; calls: RejectedCall[] }>();
  const handWrittenIds = (op: Operation) => new Set((plan.cases.get(op.name) ?? []).map((c) => c.params[idParamOf(op.name)!]));
  for (const { u, i } of order) {
    if (u.sequence) {
      if (skipReason(plan, u.op)) continue;
      // A sequence that uses another's bookings again, once that one has ended (run.ts waits): none of its own.
      const after = u.sequence.after;
      if (after !== undefined) {
        const of = out.find((x) => x.sequence?.family === after);
        const got = of && !of.unsent ? of.sequence?.bookings ?? [] : [];
        out[i] = { ...u, sequence: { ...u.sequence, bookings: got },
          ...(got.length ? {} : { unsent: Object.fromEntries(plan.bindings.map((b) => [b, `${u.op.name} ${u.caseId}: the ${after} sequence whose bookings it uses again has none`])) }) };
        continue;
      }
      // All the bookings it needs, or none (a part of a sequence proves nothing).
      const got: Booking[] = [];
      const enough = ledger.left(u.sequence.pool) >= u.sequence.needs;
      for (let k = 0; enough && k < u.sequence.needs; k++) got.push(ledger.take(u.sequence.pool)!);
      const short = got.length < u.sequence.needs
        ? { unsent: Object.fromEntries(plan.bindings.map((b) => [b, `${u.op.name} ${u.caseId}: needs ${u.sequence!.needs} bookings, ${ledger.left(u.sequence!.pool)} left in \`bookings.${u.sequence!.pool}\``])) } : {};
      out[i] = { ...u, sequence: { ...u.sequence, bookings: got }, ...short };
      continue;
    }
    const pool = poolOf(u.op.name);
    if (!pool || skipReason(plan, u.op) || !needsBooking(u.op.name, u.caseId, u.params)) continue;
    const idParam = idParamOf(u.op.name)!;
    const consumes = consumesBooking(u.op.name);
    const bindings = plan.bindings.filter((x) => !u.only || u.only.includes(x));
    if (u.kind === 'login-variant') {
      // Never a pool booking: an id no booking has (loginProbeId), so a login let in
      // answers "not found" (or with data on a service where any id exists) and changes nothing.
      const type = u.op.params.find((p) => p.name === idParam)?.type ?? 'string';
      // Where a call would use a booking up, each binding its own (as other probes: ./bookings.ts).
      const params = { ...u.params, [idParam]: loginProbeId(type, u.caseId) };
      const perBinding = consumes ? Object.fromEntries(plan.bindings.map((b) => [b, { [idParam]: loginProbeId(type, `${u.caseId}-${b}`) }])) : undefined;
      out[i] = { ...u, params, calls: 'probe', ...(perBinding ? { perBinding } : {}), stage: 2 };
      continue;
    }
    const isFirst = u.kind === 'valid' && plan.cases.get(u.op.name)?.[0]?.id === u.caseId;
    const real = isFirst || (!consumes && (u.kind === 'valid' || u.kind === 'generated') && handWrittenIds(u.op).has(u.params[idParam]));
    if (REJECTIONS.has(u.kind)) {
      const booking = consumes ? undefined : sharedOf(pool);
      out[i] = { ...u, calls: 'rejection', ...(booking ? { bookings: Object.fromEntries(bindings.map((b) => [b, booking])) } : {}) };
      continue;
    }
    if (!real) {
      // A probe: the id as generated; where a call would use a booking up, each binding its own
      // variant, and each probe unit its own (coverage cases keep one id: a cancellation of one
      // unit's ids must not decide another's answers).
      const nth = consumes ? (probes.get(u.op.name) ?? 0) : 0;
      if (consumes) probes.set(u.op.name, nth + 1);
      const perBinding = consumes
        ? Object.fromEntries(bindings.map((b) => [b, { [idParam]: probeVariant(u.params[idParam] ?? '', ID_PROBE_VARIANTS + nth * plan.bindings.length + plan.bindings.indexOf(b) + 1) }])) : undefined;
      out[i] = { ...u, calls: 'probe', ...(perBinding ? { perBinding } : {}), stage: 2 };
      continue;
    }
    const bookings: Partial<Record<BindingId, Booking>> = {};
    const unsent: Partial<Record<BindingId, string>> = {};
    for (const b of bindings) {
      const got = consumes ? ledger.take(pool) : sharedOf(pool);
      if (got) bookings[b] = got; else unsent[b] = noBookingReason(u.op.name, b, u.caseId, pool);
    }
    if (isFirst && consumes) firstCase.set(u.op.name, bookings);
    out[i] = { ...u, calls: 'real', bookings, ...(Object.keys(unsent).length ? { unsent } : {}), ...(consumes ? {} : { serial: true }), stage: 2 };
  }
  // Rejections of an operation that uses bookings up go against the first binding's booking of its
  // first case (sent later, in stage 2: its acceptance then shows the booking unchanged too).
  for (const [i, u] of out.entries()) {
    if (u.calls !== 'rejection') continue;
    const pool = poolOf(u.op.name)!;
    const bindings = plan.bindings.filter((x) => !u.only || u.only.includes(x));
    const booking = u.bookings?.[bindings[0]!] ?? firstCase.get(u.op.name)?.[plan.bindings[0]!];
    if (!booking) {
      out[i] = { ...u, unsent: Object.fromEntries(bindings.map((b) => [b, `${u.op.name} ${b} ${u.caseId}: a rejected call is sent only against a live booking of \`bookings.${pool}\`, and none was left`])) };
      continue;
    }
    // A rejected write carries a text of its own per binding: read back, it names the call that stored it.
    const texts = u.op.name === 'UpdateSpecialRequest'
      ? Object.fromEntries(bindings.map((b) => [b, { text: rejectedText(u.caseId, b) }])) : undefined;
    const entry = rejected.get(u.op.name) ?? { booking, calls: [] };
    for (const b of bindings) entry.calls.push({ caseId: u.caseId, binding: b, ...(texts ? { text: texts[b]!.text } : {}) });
    rejected.set(u.op.name, entry);
    out[i] = { ...u, bookings: Object.fromEntries(bindings.map((b) => [b, booking])), ...(texts ? { perBinding: texts } : {}) };
  }
  for (const [opName, r] of rejected) {
    const op = plan.operations.find((o) => o.name === opName)!;
    // No operation reads a transfer booking: its first case's cancellation through the first binding,
    // on the same booking, is the read-back (run.ts: a rejected call that cancelled it).
    if (op.name === 'CancelTransferBooking') {
      const k = out.findIndex((x) => x.op === op && x.calls === 'real' && firstCase.get(op.name) === x.bookings);
      if (k >= 0) out[k] = { ...out[k]!, rejectedBefore: r.calls };
      continue;
    }
    out.push(unchangedUnit(plan, op, r.booking, r.calls));
  }
  return out;
}

/**
 * How many bookings of each pool the plan takes (each booking once, however many calls change it),
 * whatever the pools given hold: what a person must create for the run (--dry-run, --list, and the
 * report of a run given fewer).
 */
export function bookingNeeds(plan: RunPlan): Record<PoolName, number> {
  const taken = new Map<PoolName, Set<string>>(POOL_NAMES.map((p) => [p, new Set<string>()]));
  const plenty = { ...plan, bookings: mockBookings(), caseFilter: undefined };
  for (const u of withBookings(plenty, [...casesUnits(plenty), ...loginUnits(plenty), ...sequenceUnits(plenty)])) {
    for (const b of [...Object.values(u.bookings ?? {}), ...(u.sequence?.bookings ?? [])]) if (b) taken.get(b.pool)!.add(b.id);
  }
  return Object.fromEntries(POOL_NAMES.map((p) => [p, taken.get(p)!.size])) as Record<PoolName, number>;
}

/**
 * Start every unit, each once every unit of an earlier stage has ended (a sequence without a stage
 * at once, on bookings of its own; one that uses another's bookings again once that one has ended):
 * the stage rule (Unit.stage) for a caller that starts all units together and waits for each (the
 * vitest suites). `conformance run` keeps it in its own scheduler.
 */
export function startInStages<T>(units: readonly Unit[], start: (u: Unit) => Promise<T>): Promise<T>[] {
  const free = (u: Unit) => u.sequence !== undefined && u.stage === undefined;
  const out = new Map<Unit, Promise<T>>();
  const gates = new Map<number, Promise<unknown>>();
  // Every unit of a lower stage ended.
  const gateOf = (stage: number): Promise<unknown> => {
    let g = gates.get(stage);
    if (!g) gates.set(stage, (g = Promise.allSettled(units.filter((x) => !free(x) && (x.stage ?? 0) < stage).map(startOf))));
    return g;
  };
  // A sequence that uses another's bookings again (SequenceSpec.after) also waits for that one to end.
  function startOf(u: Unit): Promise<T> {
    let p = out.get(u);
    if (p) return p;
    const after = u.sequence?.after;
    const dep = after === undefined ? undefined : units.find((x) => x.sequence?.family === after);
    const waits = [...(free(u) ? [] : [gateOf(u.stage ?? 0)]), ...(dep ? [startOf(dep)] : [])];
    p = waits.length ? Promise.allSettled(waits).then(() => start(u)) : start(u);
    out.set(u, p);
    return p;
  }
  return units.map(startOf);
}

/** The text a rejected UpdateSpecialRequest sends through a binding: found in the booking afterwards, it names that call. */
export function rejectedText(caseId: string, binding: BindingId): string {
  return `conformance: rejected call ${caseId} through ${binding} must not be stored`;
}

/** The read-back of an operation's rejected calls (stage 1): their booking unchanged and usable (src/sequences/unchanged.ts). */
function unchangedUnit(plan: RunPlan, op: Operation, booking: Booking, rejected: readonly RejectedCall[]): Unit {
  const read = plan.cases.get('AmendmentPriceRequest')?.[0]?.params;
  const shown = shownLive(plan, booking);
  return {
    op, caseId: SEQUENCE_CASE.unchanged!, kind: 'valid', params: {}, stage: 1,
    description: `the rejected calls of ${op.name} changed nothing: their booking ${booking.id} reads back unchanged and usable`,
    sequence: { family: 'unchanged', pool: booking.pool, needs: 0, bookings: [booking], rejected, ...(read ? { readParams: read } : {}), ...(shown ? { shownLive: shown } : {}) },
  };
}

/**
 * What showed a pool booking live before any call of the run (the evidence a read-back of rejected
 * calls needs before it may blame them, issue 40), or undefined: the pool check's read of it
 * (./pool-check.ts), or the embedded mock, which this run started with no booking used.
 */
export function shownLive(plan: Pick<RunPlan, 'target' | 'poolCheck' | 'bindings'>, booking: Booking): string | undefined {
  if (plan.target.embedded) return 'the embedded mock, started by this run with no booking used';
  if (plan.poolCheck?.shown.has(poolKey(booking))) return `read live before the run (the pool check, through ${plan.bindings[0]})`;
  return undefined;
}

/** What the families of sequences see of a plan. */
function planView(plan: RunPlan): PlanView {
  return {
    bindings: plan.bindings,
    has: (name: string) => plan.operations.find((o) => o.name === name),
    maySend: (op: Operation) => !skipReason(plan, op),
    firstParams: (name: string) => plan.cases.get(name)?.[0]?.params,
    otherAccount: plan.target.other !== undefined,
    idProbes: (name: string) => idProbesOf(plan, name),
  };
}

/**
 * The identifiers the id-probe sequences send for an operation that uses its booking up: one of each
 * generated kind (./generate.ts idKinds), as variant 1 of its value (./bookings.ts probeVariant; a
 * witness sequence's, variant 2), the rest of the parameters as the first hand-written case; a
 * transfer's email kinds with an id of their own (variants of the first case's). Variants up to
 * ID_PROBE_VARIANTS are theirs: no other call of the run names them.
 */
function idProbesOf(plan: RunPlan, name: string): { pool: PoolName; probes: IdProbe[] } | undefined {
  const op = plan.operations.find((o) => o.name === name);
  const idParam = idParamOf(name);
  const pool = poolOf(name);
  if (!op || !idParam || !pool || !consumesBooking(name)) return undefined;
  const base = plan.cases.get(name)?.[0]?.params ?? {};
  const baseId = base[idParam] ?? 'ID';
  let own = 0;
  const probes = idKinds(op, idParam).map((k): IdProbe => {
    const value = (n: number) => ({ ...base, [k.param]: probeVariant(k.value, n), ...(k.param !== idParam ? { [idParam]: probeVariant(baseId, ++own) } : {}) });
    const first = value(1);
    const witness = probeVariant(k.value, 2) !== first[k.param] ? value(2) : undefined;
    return { kind: k.kind, params: first, ...(witness ? { witness } : {}) };
  });
  return { pool, probes };
}

/** The sequences of a plan: each family's (src/sequences/families.ts), in the list's order. */
export function sequenceUnits(plan: RunPlan): Unit[] {
  if (plan.bindings.length === 0) return [];
  const view = planView(plan);
  return FAMILIES.flatMap((f) => (f.plan?.(view) ?? []).map(({ op, spec, description, stage }): Unit =>
    ({ op, caseId: f.caseId, kind: 'valid', params: {}, description, sequence: spec, ...(stage !== undefined ? { stage } : {}) })));
}

/** What the families say they could not plan, and how to enable it (a second account not given): notes of every report, each said once. */
export function sequenceNotes(plan: RunPlan): Diagnosis[] {
  if (plan.bindings.length === 0) return [];
  const view = planView(plan);
  const said = [...new Set(FAMILIES.flatMap((f) => f.notPlanned?.(view) ?? []))];
  return said.map((message) => ({ level: 'note', code: 'sequence_not_planned', message }));
}

function casesUnits(plan: RunPlan): Unit[] {
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const cases: readonly RequestCase[] = plan.cases.get(op.name) ?? [];
    for (const c of cases) units.push(caseUnit(plan.target, op, c));
    const first = cases[0];
    const g = plan.generation;
    if (g && g.examples > 0 && first) {
      const credentials = { userName: plan.target.user, password: plan.target.password };
      const baseline = { ...first.params, ...credentials };
      const broadest = broadestCase(op, cases);
      const examples = [...(broadest ? [broadest] : []), ...generatedCases(op, g, OPERATIONS.indexOf(op))];
      // An example of a state-changing operation names a probe id, no booking: on a service with only
      // real bookings its other values are never acted on. Where a call does not use its booking up,
      // each of those values is sent again, with the one booking every binding changes.
      const idParam = idParamOf(op.name);
      // Where a call uses its booking up, a blank id is one booking for every binding (no variant of
      // it is another): the id-probe sequence (src/sequences/id-probe.ts) sends it through the four
      // bindings one after another and is its comparison; four calls at once would race for it. Such
      // an example is left out, and its other values go into coverage cases of their own.
      const blankOnce = idParam !== undefined && consumesBooking(op.name);
      const reached = idParam === undefined ? examples
        : blankOnce ? examples.filter((c) => (c.params[idParam] ?? 'x').trim() !== '')
          : examples.filter((c) => cases.some((h) => h.params[idParam] === c.params[idParam]));
      const coverage = coverageCases(op, g, cases, [...cases, ...reached].map((c) => c.params), blankOnce ? [idParam] : []);
      // Never the same request twice (GetLanguages' examples are all "no parameters", as is its
      // hand-written case): a duplicate would only cost time and repeat its rows.
      const seen = new Set(cases.map((c) => paramsKey(c.params)));
      for (const c of [...(blankOnce ? reached : examples), ...coverage]) {
        const key = paramsKey(c.params);
        if (seen.has(key)) continue;
        seen.add(key);
        // A coverage case shrinks to the hand-written case it changed: one value to put back, not the
        // whole set (the first case may be the broadest result, costly to send again and again).
        units.push({ op, caseId: c.id, kind: 'generated', params: { ...c.params, ...credentials }, description: c.description,
          baseline: c.baseline ? { ...c.baseline, ...credentials } : baseline });
      }
    }
    if (!plan.negative || !first) continue;
    const params = { ...first.params, userName: plan.target.user, password: plan.target.password };
    units.push(...credentialUnits(op, params, plan.target.password));
    const typed = op.params.find((p) => p.required && p.type !== 'string');
    if (typed) {
      const rest: Record<string, string> = { ...params };
      delete rest[typed.name];
      units.push({ op, caseId: `missing-${typed.name}`, kind: 'missing-param', params: rest, description: `the required ${typed.type} parameter ${typed.name} left out` });
    }
    const parsed = op.params.find((p) => p.type === 'int' || p.type === 'dateTime');
    if (parsed) {
      units.push({ op, caseId: `unparsable-${parsed.name}`, kind: 'bad-param', params: { ...params, [parsed.name]: UNPARSABLE[parsed.type]! },
        description: `${parsed.name} (${parsed.type}) sent as "${UNPARSABLE[parsed.type]}"` });
    }
    // A binding that routes on a header (SOAP 1.1's SOAPAction) is probed with one naming another
    // operation. An ASMX service dispatches on it: it must never name an operation that changes
    // state, or the probe could perform it.
    const other = plan.operations.find((o) => o.service === op.service && o !== op && !o.mutates);
    const routedTo = other?.name ?? UNKNOWN_OPERATION;
    for (const b of plan.bindings) {
      const probe = bindingModule(b).misroutedProbe?.(routedTo, plan.target.namespaces[op.ns]);
      if (!probe) continue;
      units.push({
        op, caseId: 'wrong-soapaction', kind: 'wrong-soapaction', params, only: [b],
        headers: probe.headers, description: probe.description,
      });
    }
    units.push(...doctypeUnits(plan, op, params));
  }
  if (plan.negative) {
    for (const service of [...new Set(plan.operations.map((o) => o.service))]) {
      const like = plan.operations.find((o) => o.service === service && !o.mutates) ?? plan.operations.find((o) => o.service === service)!;
      units.push({
        op: unknownOperation(like), caseId: `unknown-operation-${service}`, kind: 'unknown-operation',
        params: { userName: plan.target.user, password: plan.target.password }, description: `${UNKNOWN_OPERATION} on the ${service} service`,
      });
    }
  }
  return units;
}

/** The check that judges the DOCTYPE probes: without it (--skip-checks dtd_refused, or its group hostile_requests) they are not sent. */
export const DOCTYPE_CHECK = 'dtd_refused';
/** The parameter whose value the probe's entity stands as: expanded, the call logs in and answers with data. */
const DOCTYPE_PARAM = 'userName';
export const DOCTYPE_INTERNAL_CASE = 'doctype-internal-entity';
export const DOCTYPE_EXTERNAL_CASE = 'doctype-external-entity';

/** The plan's callback: its own, or one without a listener (a fetch not observable). */
const callbacks = new WeakMap<object, Callback>();
export function callbackOf(plan: Pick<RunPlan, 'callback' | 'target'>): Callback {
  if (plan.callback) return plan.callback;
  let cb = callbacks.get(plan.target);
  if (!cb) callbacks.set(plan.target, (cb = unobservableCallback('the run was planned without the harness\'s listener')));
  return cb;
}

/**
 * XML a SOAP endpoint must refuse (issue 42, section 2; SOAP 1.1 section 3 and SOAP 1.2 part 1
 * section 5 forbid a document type declaration): on every binding that sends an XML document, the
 * first case's call with a DOCTYPE, once declaring an internal entity whose text is the user name,
 * once an external one at the harness's listener (a path of its own per operation and binding); the
 * entity stands as the user name. Processed, the first logs in and answers with data; the second
 * fetches the listener (which answers the user name). Nothing else is ever named: no entity in
 * another, no `file:` URL, no other host. A state-changing operation sends a probe id (./bookings.ts).
 */
function doctypeUnits(plan: RunPlan, op: Operation, params: Params): Unit[] {
  if (!plan.checks.some((c) => c.name === DOCTYPE_CHECK)) return [];
  const soap = plan.bindings.filter((b) => bindingModule(b).doctypeRequest !== undefined);
  if (soap.length === 0) return [];
  const cb = callbackOf(plan);
  // One unit per probe, on every such binding (a case is one unit: shards and --case keep it whole).
  const unit = (entity: DoctypeProbe['entity'], probe: (b: BindingId) => DoctypeProbe, caseId: string, description: string): Unit =>
    ({ op, caseId, kind: 'doctype', params, only: soap, doctype: { entity, probes: Object.fromEntries(soap.map((b) => [b, probe(b)])), param: DOCTYPE_PARAM }, description });
  return [
    unit('internal', () => ({ entity: 'internal', value: plan.target.user }), DOCTYPE_INTERNAL_CASE,
      'a call with a DOCTYPE whose internal entity is the user name: a SOAP endpoint must refuse it, not expand it'),
    unit('external', (b) => ({ entity: 'external', url: probeUrl(cb, op.name, b) }), DOCTYPE_EXTERNAL_CASE,
      `a call with a DOCTYPE whose external entity is the harness's listener (${probeUrl(cb, op.name, 'BINDING')}): a SOAP endpoint must refuse it, never fetch it`),
  ];
}

// ---- the state-changing policy: its one home ------------------------------------------------------

/**
 * Why a unit of `op` is not sent to the plan's target, or undefined when it is. The settings
 * (./settings.ts) ask it too: an operation the user names that it forbids is refused up front.
 */
export function skipReason(plan: { readonly target: Pick<Target, 'embedded'>; readonly allowMutations: boolean }, op: Operation): string | undefined {
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

// ---- requests -----------------------------------------------------------------------------------

/** One binding's request of a unit. */
export interface UnitRequest {
  readonly binding: BindingId;
  readonly request: HttpRequest;
}

/**
 * Whether the bindings' answers of a unit are compared (binding_equivalence): with --equivalence, on
 * more than one binding, but never a DOCTYPE probe's (each refusal is judged on its own row, and a
 * binding that processed the DTD shows there, not as a comparison of two with no majority), a login
 * variant's (its oracle is the wrong password of its own binding, src/checks/login-rejected.ts), nor
 * a sequence's (its rows are per binding).
 */
export function comparesBindings(plan: Pick<RunPlan, 'equivalence' | 'bindings'>, unit: Pick<Unit, 'kind' | 'only' | 'sequence' | 'doctype'>): boolean {
  return plan.equivalence && !unit.doctype && !unit.sequence && unit.kind !== 'login-variant'
    && plan.bindings.filter((b) => !unit.only || unit.only.includes(b)).length > 1;
}

/** The parameters a unit sends through one binding: its own, with that binding's booking or own values put in. */
export function bindingParams(unit: Unit, b: BindingId): Params {
  const booking = unit.bookings?.[b];
  const own = unit.perBinding?.[b];
  const params = own ? { ...unit.params, ...own } : unit.params;
  return booking ? withBooking(unit.op.name, params, booking) : params;
}

/** The requests of a unit: one per binding it is sent on, at its group's host and service path. */
export function unitRequests(plan: Pick<RunPlan, 'target' | 'bindings'>, unit: Unit): UnitRequest[] {
  return plan.bindings.filter((b) => !unit.only || unit.only.includes(b)).map((b) => {
    const params = bindingParams(unit, b);
    const probe = unit.doctype?.probes[b];
    const req = probe ? doctypeRequestFor(plan.target, unit.op, b, params, probe, unit.doctype!.param) ?? requestFor(plan.target, unit.op, b, params)
      : requestFor(plan.target, unit.op, b, params);
    return { binding: b, request: unit.headers ? { ...req, headers: unit.headers } : req };
  });
}

// ---- secrets --------------------------------------------------------------------------------------

/**
 * Every secret a run against `target` holds, gathered once: the password, and the password of any
 * target URL's user-info (never sent, but a report must not show it either). The wrong-credentials
 * case's password is no secret.
 */
export function secretsOf(target: SecretHolder): string[] {
  const fromUrls = [target.bookUrl, target.searchUrl, target.transfersUrl].flatMap((u) => {
    try {
      const p = u ? new URL(u).password : '';
      return p ? [decodeURIComponent(p)] : [];
    } catch {
      return [];
    }
  });
  // The password-case variant's password (its letter case swapped) is one of the password's readings
  // the redactor looks for (core/redact.ts): not a secret of its own, which would double the search.
  // A proxy's password, the PKCS#12 passphrase and headers from variables (transport/network.ts) too.
  // The second account's password (--other-user) is a secret as the first one is.
  return [...new Set([target.password, target.other?.password ?? '', ...fromUrls, ...networkSecrets(target.network)].filter((s) => s !== ''))];
}

type SecretHolder = Pick<Target, 'password' | 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'network' | 'other'>;

/**
 * The secrets an answer must never hold (src/checks/secret-echoed.ts), each with what it is: the
 * passwords of both accounts, and the network's (a proxy's password, an extra header's value from a
 * variable, the PKCS#12 passphrase). The same secrets secretsOf gives the redactor, named.
 */
export function namedSecretsOf(target: SecretHolder): { what: string; value: string }[] {
  return [
    { what: 'the password', value: target.password },
    ...(target.other?.password ? [{ what: 'the second account\'s password', value: target.other.password }] : []),
    ...networkSecrets(target.network).map((value) => ({ what: 'a network secret (a proxy\'s password, an extra header\'s value from a variable)', value })),
  ].filter((s) => s.value !== '');
}
