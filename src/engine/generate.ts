/**
 * Generated request cases: per operation, parameter sets drawn from the catalogue's parameter types
 * and biased to the values that break services (issue 16). The four bindings are each other's
 * oracle: whatever the target answers to a generated set, every binding must answer the same
 * (equivalence), and whatever document it answers with must pass the per-exchange checks. A
 * generated set may legitimately be rejected (a date a service cannot parse): it is never assumed to
 * succeed (case kind 'generated', src/checks/context.ts).
 *
 * Deterministic: a seed (default DEFAULT_SEED) fixes every value; each operation draws from its own
 * stream (the seed and the operation's name), so narrowing --operations or sharding never changes
 * the cases of the others. Example i of an operation takes the boundary value number
 * (i + rotation) of each parameter's pool, the rotation drawn from the seed, so the pools (a few
 * packed values each) are covered within a few examples; further examples draw from fast-check
 * arbitraries that are themselves biased to boundaries.
 *
 * Case sources: this file is one (the hand-written cases of fixtures/cases and a config file's
 * `cases` are the other, src/engine/cases.ts); a source only has to produce Units (./plan.ts).
 */
import fc from 'fast-check';
import type { Operation, Param } from '../contract/catalogue.js';
import type { Params } from '../bindings/types.js';
import { GENERATED_CASE_PREFIX, isGeneratedCase } from '../core/rows.js';

/** The seed a run uses unless --seed (or `seed` in the config file) is given. */
export const DEFAULT_SEED = 16;
/**
 * Generated cases per operation unless --examples (or `examples`) is given: every pool below has
 * four values, so four examples send each boundary value of each parameter whatever the seed, and
 * the embedded full run stays within its 2.5 s goal (docs/performance.md).
 */
export const DEFAULT_EXAMPLES = 4;
/**
 * The harness's own list of languages: sent beside the target's (languagesToSend), and alone when the target's
 * GetLanguages cannot be asked (a shard, --operations without it).
 */
export const FIXED_LANGUAGES: readonly string[] = ['en', 'de', 'fr', 'el', 'ja', 'sv', 'es', 'tr'];
export const GENERATED_PREFIX = GENERATED_CASE_PREFIX;
export const BROADEST_CASE = `${GENERATED_CASE_PREFIX}broadest`;

/**
 * The languages generated cases send: every one the target's GetLanguages lists, then every one of
 * the harness's own list it does not (issue 30): a binding that breaks on a language the target
 * omits is asked too. Where the target answers such a language with an error on every binding, the
 * bindings agree: no failure.
 */
export function languagesToSend(g: Pick<Generation, 'languages'>): readonly string[] {
  return [...new Set([...g.languages, ...FIXED_LANGUAGES])];
}

export interface Generation {
  readonly seed: number;
  /** Generated cases per operation (0: generation off). */
  readonly examples: number;
  /** The values of `language`: the target's isoCodes, or FIXED_LANGUAGES. */
  readonly languages: readonly string[];
  /** Where the languages came from, in words (reported). */
  readonly languagesFrom: string;
}

// ---- boundary pools ------------------------------------------------------------------------------

const LONG = ` ${'Ünïcode long value, spaces & ümlauts 😀; '.repeat(7)}end `; // > 255 characters, non-ASCII, leading and trailing space
/** Strings: form and URL delimiters and XML markup, Latin-1 and beyond the BMP, long and padded, empty. */
const STRING_POOL: readonly string[] = [
  'a+b c&d=e%41#f<g>h"i\'j', // + & = % # < " ' and a space
  'Zürich Ærø façade – 😀𝄞', // Latin-1 range, beyond the BMP (surrogate pairs), a dash
  LONG,
  '',
];
/** ID-like strings (bookingID, transferBookingID, ...): `0` is their boundary. */
const ID_POOL: readonly string[] = ['0', 'a+b c&d=e%41#f<g>h"i\'j', LONG, ''];
/** 0, a negative with a leading zero, the xs:int maximum and minimum. */
const INT_POOL: readonly string[] = ['0', '-01', '2147483647', '-2147483648'];
const DECIMAL_POOL: readonly string[] = ['-12.75', '0.5', '123456789012345.123456789', '0'];
/** The last minutes before midnight (with and without a zone), first and last days of months and years, 29 February. */
const DATETIME_POOL: readonly string[] = [
  '2028-02-29T23:59:59',
  '2027-12-31T23:45:00+01:00',
  '2027-01-01T00:00:00Z',
  '2027-03-31T22:30:00-05:00',
];
/** Strings whose name tells their domain (SearchTransfers: all its parameters are strings). */
const NAMED_POOLS: Readonly<Record<string, readonly string[]>> = {
  // A list: its separators as a service may split on them (an inner space travels as "+" in a form
  // and in the query, a "+" as "%2B": a decoder that keeps "+" literally on one binding shows).
  currencies: ['EUR,SEK', 'eur', '', 'XXX', 'EUR, SEK', 'EUR+SEK'],
  arrivalDate: ['2028-02-29', '2027-12-31', '2027-01-01', 'not-a-date'],
  returnDepartureDate: ['2027-01-01', '2028-02-29', '2027-12-31', '2027-02-30'],
  arrivalTime: ['23:59', '00:00', '24:00', '7:05'],
  returnDepartureTime: ['00:00', '23:59', '12:60', '23:30'],
  bookingType: ['FullPeriod', 'ExtraDays', 'NoAmendmentAvailable', 'fullperiod'],
  // A customer's email: a "+" (a form decoder's space), beyond ASCII, very long, and empty (issue 30).
  email: ['a+b@example.com', 'Zoë@exämple.com', `${'a'.repeat(250)}@example.com`, ''],
};
const INT_LIKE = new Set(['hotelID', 'roomID', 'resortID', 'transferID']);

const isIdLike = (name: string) => /I[Dd]$/.test(name);
/** A list-like string (a plural name: currencies): its items joined by a comma, a comma and a space, a "+", a space. */
const isListLike = (p: Param) => p.type === 'string' && /[^s]s$/.test(p.name);
const LIST_POOL: readonly string[] = ['a,b', 'a, b', 'a+b', 'a b', ''];

/** The boundary pool of a parameter (its type, its name's domain). */
export function boundaryValuesOf(p: Param): readonly string[] {
  const named = NAMED_POOLS[p.name];
  if (named) return named;
  if (INT_LIKE.has(p.name)) return ['0', '-1', '2147483647', '12345'];
  switch (p.type) {
    case 'int':
      return INT_POOL;
    case 'decimal':
      return DECIMAL_POOL;
    case 'dateTime':
      return DATETIME_POOL;
    case 'string':
      return isIdLike(p.name) ? ID_POOL : isListLike(p) ? LIST_POOL : STRING_POOL;
  }
}

// ---- fast-check arbitraries (beyond the pools) ----------------------------------------------------

/** XML 1.0 cannot carry these: C0/C1 controls (but tab), lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** dateTime: every hour of the day, minutes near midnight, month and year edges, with and without a zone. */
const dateTimeArb: fc.Arbitrary<string> = fc
  .record({
    y: fc.constantFrom(2024, 2027, 2028, 2099),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.oneof(fc.constant(1), fc.constant(31), fc.integer({ min: 1, max: 31 })),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.oneof(fc.constant(59), fc.constant(0), fc.integer({ min: 0, max: 59 })),
    zone: fc.constantFrom('', 'Z', '+14:00', '-12:00', '+05:30'),
  })
  .map(({ y, m, d, h, mi, zone }) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return `${y}-${pad(m)}-${pad(Math.min(d, last))}T${pad(h)}:${pad(mi)}:00${zone}`;
  });

/** The fast-check arbitrary of a parameter: its pool, or a value of its type biased to edges. */
export function arbitraryOf(p: Param): fc.Arbitrary<string> {
  const pool = fc.constantFrom(...boundaryValuesOf(p));
  let random: fc.Arbitrary<string>;
  if (INT_LIKE.has(p.name) || p.type === 'int') {
    random = fc.integer({ min: -2147483648, max: 2147483647 }).map(String); // fast-check biases to 0, ±1, min and max
  } else if (p.type === 'decimal') {
    random = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 12 }))
      .map(([n, places]) => {
        const s = (n < 0n ? -n : n).toString().padStart(places + 1, '0');
        return `${n < 0n ? '-' : ''}${places ? `${s.slice(0, -places)}.${s.slice(-places)}` : s}`;
      });
  } else if (p.type === 'dateTime' || /Date$/.test(p.name)) {
    random = p.type === 'dateTime' ? dateTimeArb : dateTimeArb.map((s) => s.slice(0, 10));
  } else {
    random = fc
      .oneof(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({
          unit: fc.constantFrom(' ', '+', '&', '=', '%', '#', '<', '"', "'", 'é', '😀', 'a', '0'),
          maxLength: 300,
        }),
      )
      .filter((s) => !NOT_XML.test(s));
  }
  return fc.oneof({ weight: 1, arbitrary: pool }, { weight: 2, arbitrary: random });
}

// ---- cases ----------------------------------------------------------------------------------------

// ---- kinds of identifier (the id-probe sequences, src/sequences/id-probe.ts) -----------------------

/** One kind of generated value of a parameter naming a booking (or its customer): its name and its value. */
export interface IdKind {
  /** The kind, in words ("long", "empty", ...), as the sequence's steps and findings name it. */
  readonly kind: string;
  /** The parameter it is a value of (the booking id, or a transfer's email). */
  readonly param: string;
  /** The value of the pool (engine/bookings.ts probeVariant makes the values a sequence sends of it). */
  readonly value: string;
}

/** The kind of each value of ID_POOL and of the email pool that an identifier probe sends. */
const KIND_OF: ReadonlyMap<string, string> = new Map([
  ['0', 'zero'],
  [ID_POOL[1]!, 'with separators'],
  [LONG, 'long'],
  ['', 'empty'],
]);

/**
 * Every kind of generated identifier of an operation: each value of the booking id's pool (ID_POOL:
 * zero, with separators, long, empty) and, where the customer's email names the booking too
 * (CancelTransferBooking), the email kinds whose reading a binding may change (beyond ASCII, empty).
 */
export function idKinds(op: Operation, idParam: string): IdKind[] {
  const id = op.params.find((p) => p.name === idParam);
  const ids = id
    ? boundaryValuesOf(id).map((value) => ({
        kind: KIND_OF.get(value) ?? JSON.stringify(value),
        param: idParam,
        value,
      }))
    : [];
  const email = op.params.some((p) => p.name === 'email')
    ? [
        {
          kind: 'email beyond ASCII',
          param: 'email',
          value: NAMED_POOLS.email!.find((v) => /[^\u0000-\u007f]/.test(v))!,
        },
        { kind: 'empty email', param: 'email', value: '' },
      ]
    : [];
  return [...ids, ...email];
}

/** A small stable hash (FNV-1a, 32 bits). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** One generated parameter set of an operation (credentials excluded). */
export interface GeneratedCase {
  readonly id: string;
  readonly params: Params;
  readonly description: string;
  /**
   * What shrinking goes back to, when not the operation's first hand-written case (a coverage case: the case it
   * changed).
   */
  readonly baseline?: Params;
}

/** Parameters a generated case fills in: all but the credentials. */
const generatedParams = (op: Operation) => op.params.filter((p) => p.name !== 'userName' && p.name !== 'password');

/**
 * A parameter set without `language`, whose value is the target's (GetLanguages): what a generated
 * case's id hashes, so that the id depends on the seed, the operation and the example only, and
 * `--case ID` finds the case in a re-run that could not ask the target (issue 41; the re-run pins
 * the value with --languages).
 */
function withoutLanguage(set: Readonly<Record<string, string>>): Record<string, string> {
  const { language: _language, ...rest } = set;
  return rest;
}

/** fast-check's draws, per operation, parameters, seed stream and count (bounded: a run holds 14 operations). */
const DRAWS = new Map<string, readonly (readonly string[])[]>();
const MAX_DRAWS = 256;

/**
 * fast-check's draws of an operation's parameters, the same arrays for the same operation, seed and
 * count. A run plans its cases three times (the pool check's booking needs, the run, the report's
 * booking needs: bookingNeeds) and drawing is most of planning's cost (about 0.2 s of CPU a plan in a
 * full run, 3 per run). The draws are strings, a pure function of the key: sharing them changes no case.
 */
export function drawsOf(
  op: Operation,
  params: readonly Param[],
  stream: number,
  examples: number,
): readonly (readonly string[])[] {
  const key = JSON.stringify([op.name, params.map((p) => [p.name, p.type, p.required]), stream, examples]);
  let draws = DRAWS.get(key);
  if (!draws) {
    draws = params.map((p, k) => fc.sample(arbitraryOf(p), { seed: (stream + k * 7919) | 0, numRuns: examples }));
    if (DRAWS.size >= MAX_DRAWS) DRAWS.clear();
    DRAWS.set(key, draws);
  }
  return draws;
}

/**
 * The generated cases of an operation: `examples` parameter sets (the pools first, in an order the
 * seed rotates; then fast-check draws), ids stable for the same seed whatever the languages (the
 * id hashes every parameter but `language`: withoutLanguage). `baseline` is the operation's first
 * hand-written case: an example keeps none of it, but shrinking goes back to it.
 */
export function generatedCases(
  op: Operation,
  g: Pick<Generation, 'seed' | 'examples' | 'languages'>,
  opIndex: number,
): GeneratedCase[] {
  if (g.examples <= 0) return [];
  const stream = hash32(`${g.seed}\u0000${op.name}`);
  const params = generatedParams(op);
  const draws = drawsOf(op, params, stream, g.examples);
  const rotation = stream % 997;
  const out: GeneratedCase[] = [];
  const languages = languagesToSend(g);
  for (let i = 0; i < g.examples; i++) {
    const set: Record<string, string> = {};
    const notes: string[] = [];
    params.forEach((p, k) => {
      if (p.name === 'language') {
        // Every isoCode the target lists, spread over the operations and examples of the run.
        set[p.name] = languages[(opIndex * g.examples + i) % languages.length]!;
        return;
      }
      if (!p.required) {
        // An optional parameter is absent, present and empty, or given: each its own case.
        const state = (i + k + rotation) % 3;
        if (state === 0) return;
        if (state === 1) {
          set[p.name] = '';
          return;
        }
      }
      const pool = boundaryValuesOf(p);
      set[p.name] = i < pool.length ? pool[(i + k + rotation) % pool.length]! : draws[k]![i]!;
    });
    const inn = set.checkInDate;
    const outDate = set.checkOutDate;
    if (inn !== undefined && outDate !== undefined && Date.parse(outDate) < Date.parse(inn))
      notes.push('check-out before check-in');
    const id = `${GENERATED_PREFIX}${i + 1}-${hash32(JSON.stringify([op.name, withoutLanguage(set)]))
      .toString(16)
      .padStart(8, '0')
      .slice(0, 6)}`;
    out.push({
      id,
      params: set,
      description:
        `generated (seed ${g.seed}, example ${i + 1} `
        + `of ${g.examples})${notes.length ? `: ${notes.join(', ')}` : ''}`,
    });
  }
  return out;
}

/** Parameters as a comparable key: two units with equal keys send identical requests. */
export function paramsKey(params: Params): string {
  return JSON.stringify(
    Object.keys(params)
      .filter((k) => params[k] !== undefined)
      .sort()
      .map((k) => [k, params[k]]),
  );
}

/** A value as a case id's suffix: itself when short and plain, else a hash of it. */
const idPart = (v: string) => (/^[A-Za-z0-9]{1,12}$/.test(v) ? v : hash32(v).toString(16).padStart(8, '0').slice(0, 6));
/** At most 40 characters of a value, for a description. */
const brief = (v: string) => JSON.stringify([...v].length > 40 ? `${[...v].slice(0, 40).join('')}…` : v);

/**
 * The coverage cases of an operation (issue 25), outside the example budget and whatever the seed:
 * every language the target lists (`language`) and every value of every other parameter's pool,
 * required and optional alike, that no request in `sent` (the hand-written cases, the broadest case
 * and the examples) already gives. Each changes one parameter of the first hand-written case that
 * gives that parameter (else the first one), so nothing else in the request can hide what that one
 * value does: a filter given "0" is not narrowed away by another filter, and an invalid value
 * elsewhere does not turn the answer into an error. Off when generation is off (0 examples). The
 * parameters of `blankElsewhere` get no blank case (their blank value is sent another way).
 */
export function coverageCases(
  op: Operation,
  g: Pick<Generation, 'examples' | 'languages'>,
  handWritten: readonly { readonly params: Params }[],
  sent: readonly Params[],
  blankElsewhere: readonly string[] = [],
): GeneratedCase[] {
  if (g.examples <= 0) return [];
  const out: GeneratedCase[] = [];
  const languages = languagesToSend(g);
  for (const p of generatedParams(op)) {
    const base = (handWritten.find((c) => c.params[p.name] !== undefined) ?? handWritten[0])?.params ?? {};
    const values = p.name === 'language' ? languages : boundaryValuesOf(p);
    const given = new Set(sent.map((s) => s[p.name]));
    for (const v of values) {
      // A blank value sent elsewhere (the id-probe sequences: engine/plan.ts): not as a case of its own.
      if (given.has(v) || (blankElsewhere.includes(p.name) && v.trim() === '')) continue;
      given.add(v);
      const what =
        p.name === 'language'
          ? "every language the target lists, and every one of the harness's own list"
          : `every value of ${p.name}'s boundary pool`;
      out.push({
        id: `${GENERATED_PREFIX}${p.name}-${idPart(v)}`,
        params: { ...base, [p.name]: v },
        baseline: base,
        description:
          `coverage: ${p.name} ${brief(v)}, the rest as a hand-written case (${what} is sent once, beyond `
          + `the ${g.examples} examples)`,
      });
    }
  }
  return out;
}

/**
 * The broadest-result case of an operation: every optional parameter left out (SearchTransfers with
 * no filter), the required ones as in the first hand-written case. Undefined when an operation has
 * no optional parameter (its hand-written cases are as broad as its parameters allow), and when a
 * hand-written case already sends exactly these parameters (the fixture's SearchTransfers `default`
 * does): the same request twice would only cost time, and a large one at that.
 */
export function broadestCase(
  op: Operation,
  handWritten: readonly { readonly params: Params }[],
): GeneratedCase | undefined {
  if (!op.params.some((p) => !p.required && p.name !== 'userName' && p.name !== 'password')) return undefined;
  const first = handWritten[0]?.params ?? {};
  const set: Record<string, string> = {};
  for (const p of generatedParams(op)) if (p.required && first[p.name] !== undefined) set[p.name] = first[p.name]!;
  const same = (params: Params) => {
    const keys = Object.keys(params).filter((k) => params[k] !== undefined && k !== 'userName' && k !== 'password');
    return keys.length === Object.keys(set).length && keys.every((k) => params[k] === set[k]);
  };
  if (handWritten.some((c) => same(c.params))) return undefined;
  return {
    id: BROADEST_CASE,
    params: set,
    description: 'the broadest result the parameters allow: every optional parameter (filter) left out',
  };
}

export { isGeneratedCase };

// ---- kinds of values (coverage, ./coverage.ts) ------------------------------------------------------

/** What a value sent for a parameter is, for the coverage report: the one place a value gets its kind. */
export type ValueKind = 'absent' | 'empty' | 'valid' | 'boundary' | 'invalid';
export const VALUE_KINDS: readonly ValueKind[] = ['absent', 'empty', 'valid', 'boundary', 'invalid'];

const INT_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-](0\d|1[0-4]):[0-5]\d)?$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** True for a calendar date that exists (2027-02-30 does not). */
function realDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return mo >= 1 && mo <= 12 && d >= 1 && d <= last;
}

/**
 * The values a parameter's domain accepts, when it has a test of its own (its type, its name's domain); undefined: any
 * string.
 */
function domainTest(p: Param, enumValues?: readonly string[]): ((v: string) => boolean) | undefined {
  if (enumValues) return (v) => enumValues.includes(v);
  if (INT_LIKE.has(p.name) || p.type === 'int')
    return (v) => INT_RE.test(v.trim()) && Math.abs(Number(v)) <= 2147483648 && Number(v) <= 2147483647;
  if (p.type === 'decimal') return (v) => DECIMAL_RE.test(v.trim());
  if (p.type === 'dateTime')
    return (v) => {
      const m = DATETIME_RE.exec(v.trim());
      return m !== null && realDate(m[1]!);
    };
  if (/Date$/.test(p.name)) return (v) => realDate(v.trim());
  if (/Time$/.test(p.name)) return (v) => TIME_RE.test(v.trim());
  return undefined;
}

/**
 * The kinds a parameter can be sent as: absent only where it is optional, invalid only where its
 * domain has values outside it (a type that parses, a date, a time, an enumeration), boundary only
 * where it has a boundary pool (not an enumeration, whose values are all valid, nor `language`,
 * whose values are the target's and the harness's languages, languagesToSend).
 */
export function possibleKinds(p: Param, enumValues?: readonly string[]): ValueKind[] {
  const pooled = !enumValues && p.name !== 'language';
  return VALUE_KINDS.filter((k) =>
    k === 'absent'
      ? !p.required
      : k === 'invalid'
        ? domainTest(p, enumValues) !== undefined
        : k === 'boundary'
          ? pooled
          : true,
  );
}

/**
 * The kind of a value sent for a parameter: absent, empty, invalid (outside its domain), boundary
 * (a value of its boundary pool, boundaryValuesOf), else valid. A parameter named after an enumeration of the
 * type model (`enumValues`) is valid when it holds one of its values, invalid otherwise.
 */
export function valueKind(p: Param, value: string | undefined, enumValues?: readonly string[]): ValueKind {
  if (value === undefined) return 'absent';
  if (value === '') return 'empty';
  const test = domainTest(p, enumValues);
  if (test && !test(value)) return 'invalid';
  if (enumValues || p.name === 'language') return 'valid';
  return boundaryValuesOf(p).includes(value) ? 'boundary' : 'valid';
}
