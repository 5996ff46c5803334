/**
 * The mock's answers: realistic, deterministic data for every operation, built from the fixtures in
 * fixtures/mock-data/ and the request parameters, in the representation of src/mock/serialize.ts.
 *
 * - Deterministic: the same parameters give the same result (a stable FNV-1a hash of the parameters
 *   seeds a small PRNG; no clock, no global state). Different bookingID, language, dates... give
 *   different data. The data are stateless: what a booking's state changes (a special request
 *   written, a booking cancelled) is src/mock/state.ts's, applied over these results by the answering
 *   pipeline (src/mock/respond.ts).
 * - Binding-independent: one result per request, whatever the binding; the documented differences
 *   (src/contract/binding-differences.ts: CancelBooking's activecancellationpolicy is nil in the
 *   SOAP bindings) are applied from that table by `adjustForBinding` and nowhere else.
 * - Wrong credentials never return data: the result types section 7.1 names carry an in-band Error,
 *   every other operation answers with a fault (the real service's in-band Error everywhere is
 *   src/mock/real-style.ts's).
 * - Generators are keyed by result type (a name of the type model), not by operation, so the
 *   catalogue stays the only list of operations.
 *
 * This file answers a request (or rejects its credentials) and applies the binding difference; the
 * generators are ./generators.ts, what they share ./generator-support.ts, the fixtures they read
 * ./fixture-data.ts, the seeded PRNG ./rng.ts.
 */
import { inBandErrorResult, languageOf } from './generator-support.js';
import { GENERATORS } from './generators.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { differencesOf } from '../contract/binding-differences.js';
import type { DataObject, Value } from './serialize.js';

type RawParams = Readonly<Record<string, string | undefined>>;

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** What the mock answers to a decoded, parameter-checked request. */
export type Outcome =
  | { readonly kind: 'result'; readonly value: Value }
  | { readonly kind: 'fault'; readonly reason: string };

export const AUTH_FAILED = 'Authentication failed: the userName or password is not valid.';
/**
 * ErrorType of an in-band rejection of wrong credentials: a .NET exception class name, as the real service writes it.
 */
export const AUTH_ERROR_TYPE = 'System.Security.Authentication.AuthenticationException';

/**
 * The result types section 7.1 names as reporting errors in the result: the reference mock rejects
 * wrong credentials in-band for these and with a fault for the others (section 7.5 does not show
 * the form). The real service rejects in-band everywhere (`--real-service`, src/mock/real-style.ts).
 */
const SECTION_7_1 = new Set(['SearchTransfersResult', 'SearchResult', 'GetRoomTypesResult']);

/** Whether the reference mock reports a rejection of this result type in-band (section 7.1). */
export function reportsErrorsInBand(resultType: string): boolean {
  return SECTION_7_1.has(resultType);
}

/**
 * The answer to a request whose parameters passed checkParams. Wrong credentials get a result
 * holding only an in-band Error where `rejectInBand` (every result extends BaseResult), else a fault.
 */
export function resolveOperation(
  op: Operation,
  params: RawParams,
  credentials: Credentials,
  rejectInBand = reportsErrorsInBand(op.resultType),
): Outcome {
  const gen = GENERATORS[op.resultType];
  if (!gen) return { kind: 'fault', reason: `the mock has no data for ${op.name} (result type ${op.resultType})` };
  if (params.userName !== credentials.user || params.password !== credentials.password) {
    return rejectInBand
      ? { kind: 'result', value: inBandErrorResult(AUTH_ERROR_TYPE, AUTH_FAILED) }
      : { kind: 'fault', reason: AUTH_FAILED };
  }
  return { kind: 'result', value: gen({ op, params, language: languageOf(params.language) }) };
}

/** Result types the mock can answer (a test checks every catalogue operation is covered). */
export function hasGenerator(resultType: string): boolean {
  return resultType in GENERATORS;
}

/**
 * The documented differences between bindings (src/contract/binding-differences.ts, the one table the
 * checks and the comparison also read): where a binding must write the nil marker, the value is
 * replaced by null; where it must write content, the value is kept.
 */
export function adjustForBinding(op: Operation, binding: BindingId, value: Value): Value {
  let out = value;
  for (const d of differencesOf(op.name)) {
    if (d.expect[binding] !== 'nil') continue;
    const [root, ...steps] = d.path.split('/');
    if (root === op.resultElement) out = setAt(out, steps, null);
  }
  return out;
}

/** A copy of `value` with every value reached by the field names `steps` (through lists) replaced by `to`. */
function setAt(value: Value, steps: readonly string[], to: Value): Value {
  if (Array.isArray(value)) return (value as readonly Value[]).map((v) => setAt(v, steps, to));
  if (!isObject(value) || steps.length === 0) return value;
  const [name, ...rest] = steps as [string, ...string[]];
  if (value[name] === undefined) return value;
  return {
    ...value,
    [name]:
      rest.length === 0
        ? Array.isArray(value[name])
          ? (value[name] as readonly Value[]).map(() => to)
          : to
        : setAt(value[name], rest, to),
  };
}

function isObject(v: Value): v is DataObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
