/**
 * The mock's answer to one request a binding claimed, as a pipeline with the fault hooks of
 * src/mock/faults.ts at its stages and the variation mode of src/mock/vary.ts:
 *
 *   decode (request hooks) → params (params hooks) → check → resolve → state (state hooks: read the
 *   booking, answer "already cancelled", show the stored text; the change is committed once the
 *   call is answered with data) → vary data → documented per-binding adjustment → value hooks →
 *   serialisation options (options hooks) → serialise (xml hooks) → document (SOAP envelope or
 *   bare root; varied presentation) → body, status, headers, response hooks.
 *
 * Without faults and variation the answer is exactly the reference one: the binding module's own
 * encodeResult / encodeFault over the strict serialisation.
 */
import type { Binding, Decoded, IncomingRequest } from '../bindings/types.js';
import { checkParams } from '../bindings/params.js';
import type { BindingId, Namespaces, Operation } from '../contract/catalogue.js';
import { adjustForBinding, resolveOperation, type Credentials } from './data.js';
import { toMock } from './fault-helpers.js';
import { faultApplies, faultBindings } from './fault-lookup.js';
import type { Fault, FaultContext, MockResponse, ResponseKind } from './fault-types.js';
import { serializeResult, type SerializeOptions, type Value } from './serialize.js';
import {
  contentTypeOf,
  presentationFor,
  requestSeed,
  variedBody,
  variedOptions,
  variedRejection,
  varyData,
} from './vary.js';
import { realStyle, withoutBookingPicks } from './real-style.js';
import {
  bookingNotFound,
  knownBookings,
  stateStep,
  touchesState,
  type BookingStore,
  type EveryId,
  type KnownBookings,
  type MockState,
} from './state.js';

export interface AnswerConfig {
  readonly credentials: Credentials;
  /** The second account: it owns no booking (every booking is the first account's). */
  readonly other?: Credentials;
  readonly namespaces: Namespaces;
  /** Serialisation options of a result in the reference presentation. */
  readonly options: (b: Binding, ns: string) => SerializeOptions;
  readonly faults: readonly Fault[];
  readonly vary: boolean;
  /** Answer as the real service does (src/mock/real-style.ts). */
  readonly realService: boolean;
  /** This mock instance's state (src/mock/state.ts); undefined in stateless mode. */
  readonly state?: MockState;
  /**
   * The bookings that exist (src/mock/state.ts): those known, or every id (blank included, EveryId); any non-blank id
   * when undefined.
   */
  readonly known?: KnownBookings | EveryId;
  /** The isoCodes GetLanguages lists; all of the reference data's when undefined. */
  readonly languages?: readonly string[];
}

function isObject(v: Value): v is Readonly<Record<string, Value>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Decode, letting a fault's request hook turn a request into a call of the fault's operation;
 * `rewritten` tells that a request refused as sent was made acceptable so.
 */
function decode(
  cfg: AnswerConfig,
  b: Binding,
  req: IncomingRequest,
  servicePath: string,
  ops: readonly Operation[],
): Decoded & { rewritten?: boolean } {
  let decoded: Decoded & { rewritten?: boolean } = b.decode(req, servicePath, ops, cfg.namespaces);
  for (const f of cfg.faults) {
    if (!f.apply.request || !faultBindings(f).includes(b.id)) continue;
    const op = ops.find((o) => o.name === f.operation);
    if (!op || (decoded.ok && decoded.op !== op)) continue;
    const alt = b.decode(
      f.apply.request(req, { binding: b.id, op, ns: cfg.namespaces[op.ns] }),
      servicePath,
      ops,
      cfg.namespaces,
    );
    if (alt.ok && alt.op === op) decoded = { ...alt, rewritten: !decoded.ok || decoded.rewritten === true };
  }
  return decoded;
}

/** The response to a request `b` claimed. */
export function answer(
  cfg: AnswerConfig,
  b: Binding,
  req: IncomingRequest,
  servicePath: string,
  ops: readonly Operation[],
): MockResponse {
  const decoded = decode(cfg, b, req, servicePath, ops);
  if (!decoded.ok) return toMock(b.encodeFault(decoded.status, decoded.reason, decoded.faultCode));
  const { op } = decoded;
  const ns = cfg.namespaces[op.ns];
  const faults = cfg.faults.filter((f) => faultApplies(f, op.name, b.id));
  const cred = cfg.credentials;
  let params: Readonly<Record<string, string | undefined>> = decoded.params;
  const validValue = (): Value => {
    const o = resolveOperation(op, { ...params, userName: cred.user, password: cred.password }, cred);
    return o.kind === 'result' ? o.value : null;
  };
  const base = {
    op,
    binding: b.id as BindingId,
    ns,
    namespaces: cfg.namespaces,
    credentials: cred,
    ...(cfg.other ? { other: cfg.other } : {}),
    rewritten: decoded.rewritten === true,
    validValue,
  };
  for (const f of faults) if (f.apply.params) params = f.apply.params(params, base);
  const ctxOf = (kind: ResponseKind): FaultContext => ({ ...base, params, kind });

  const problem = checkParams(op, b, params);
  if (problem) return finish(faults, toMock(b.encodeFault(500, problem.reason, 'client')), ctxOf('rejection'));
  // The real service rejects in-band everywhere; variation mode picks one of the two forms per request.
  const inBand = cfg.realService ? true : cfg.vary ? variedRejection(op, params) === 'in-band' : undefined;
  // The second account is let in as the first is, but owns no booking: every booking it names is not found.
  const foreign = isOtherAccount(params, cfg);
  const outcome = resolveOperation(
    op,
    foreign ? { ...params, userName: cred.user, password: cred.password } : params,
    cred,
    inBand,
  );
  if (outcome.kind === 'fault')
    return finish(faults, toMock(b.encodeFault(500, outcome.reason, 'client')), ctxOf('rejection'));

  // A booking that does not exist is not found, before anything reads or changes it.
  const missing =
    isObject(outcome.value) && outcome.value.Error === undefined
      ? bookingNotFound(op, params, foreign ? NO_BOOKINGS : cfg.known)
      : undefined;
  // The state's part (src/mock/state.ts): a valid call on a booking reads it and may change it.
  const step = missing
    ? { error: missing }
    : cfg.state && touchesState(op) && isObject(outcome.value) && outcome.value.Error === undefined
      ? stateStep(op, params, storeFor(cfg.state, faults, ctxOf('data')))
      : undefined;
  // With state, or the bookings known, whether a booking is cancelled or exists is theirs to say, not a pick of the
  // real style.
  const stateful = cfg.state !== undefined || cfg.known !== undefined;
  let value =
    step?.error
    ?? (cfg.realService
      ? realStyle(op, params, outcome.value, stateful ? withoutBookingPicks(() => true) : () => true)
      : cfg.vary
        ? varyData(op, params, outcome.value, stateful)
        : outcome.value);
  if (step?.text !== undefined && isObject(value) && value.Error === undefined) value = { ...value, text: step.text };
  if (cfg.languages && op.resultType === 'GetLanguagesResult' && isObject(value) && Array.isArray(value.languages)) {
    const listed = cfg.languages;
    value = {
      ...value,
      languages: (value.languages as readonly Value[]).filter((l) => isObject(l) && listed.includes(String(l.isoCode))),
    };
  }
  const ctx = ctxOf(isObject(value) && value.Error !== undefined ? 'in-band-error' : 'data');
  if (ctx.kind === 'data') step?.commit?.();
  value = adjustForBinding(op, b.id, value);
  for (const f of faults) if (f.apply.value) value = f.apply.value(value, ctx);

  const look = cfg.vary ? presentationFor(b.id, requestSeed(op, params)) : undefined;
  let options = look ? variedOptions(look, ns, b) : cfg.options(b, ns);
  // A fault writes what it was given: the serialiser's model checks are off.
  if (faults.length > 0) options = { ...options, strict: false };
  for (const f of faults) if (f.apply.options) options = f.apply.options(options, ctx);

  let xml = serializeResult(op, value, options);
  for (const f of faults) if (f.apply.xml) xml = f.apply.xml(xml, ctx);

  const response = look
    ? {
        status: 200,
        headers: { 'content-type': contentTypeOf(b.responseMediaType, look.contentType) },
        body: variedBody(look, op, b, xml, ns),
      }
    : toMock(b.encodeResult(op, xml, ns));
  const out = finish(faults, response, ctx);
  // An answer that read or changed the state must never be served again from a memo (nor one of a
  // mock where every id exists: a transfer booking's customer is its first touch's, stateless or not).
  return (cfg.state || (cfg.known && 'every' in cfg.known)) && touchesState(op) ? { ...out, volatile: true } : out;
}

/** What the second account owns: nothing. */
const NO_BOOKINGS = knownBookings();

/** A call with the second account's credentials (and not the first's, should the two be configured alike). */
function isOtherAccount(
  p: Readonly<Record<string, string | undefined>>,
  cfg: Pick<AnswerConfig, 'credentials' | 'other'>,
): boolean {
  const o = cfg.other;
  return (
    o !== undefined
    && p.userName === o.user
    && p.password === o.password
    && !(o.user === cfg.credentials.user && o.password === cfg.credentials.password)
  );
}

/** The store a request sees: the mock's, wrapped by the state hooks of the faults on its operation and binding. */
function storeFor(state: MockState, faults: readonly Fault[], ctx: FaultContext): BookingStore {
  let store: BookingStore = state;
  for (const f of faults) if (f.apply.state) store = f.apply.state(store, { ...ctx, memory: state.memory(f.name) });
  return store;
}

/** The body, status, headers and response hooks, in that order. */
function finish(faults: readonly Fault[], r: MockResponse, ctx: FaultContext): MockResponse {
  let out = r;
  for (const f of faults) {
    const h = f.apply;
    if (h.body && typeof out.body === 'string') out = { ...out, body: h.body(out.body, ctx) };
    if (h.status) out = { ...out, status: h.status(out.status, ctx) };
    if (h.headers) out = { ...out, headers: h.headers(out.headers, ctx) };
    if (h.response) out = h.response(out, ctx);
  }
  return out;
}
