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
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { differencesOf } from '../contract/binding-differences.js';
import type { AnyContent, DataObject, Value } from './serialize.js';
import bookingJson from '../../fixtures/mock-data/booking.json' with { type: 'json' };
import referenceJson from '../../fixtures/mock-data/reference.json' with { type: 'json' };
import transfersJson from '../../fixtures/mock-data/transfers.json' with { type: 'json' };

// ---- fixture shapes (checked by the compiler against the JSON files) ---------------------------

/** Text per language code; 'en' is always there and is the fallback. */
type Localized = { readonly en: string } & Readonly<Record<string, string>>;

interface ReferenceData {
  languages: { isoCode: string; name: string }[];
  labels: Record<string, { id: number; text: Localized }>;
  meals: { id: number; name: Localized; labels?: string[] }[];
  roomTypes: { id: number; name?: Localized; sharedRoom: number; sharedFacilities: number | null }[];
  hotelNoteTypes: { id: number; text: Localized }[];
  roomNoteTypes: { id: number; text: Localized }[];
  themes: { id: number; name?: Localized; image?: string }[];
  features: { name: Localized }[];
}

interface Currency {
  code: string;
  perEuro: string;
  decimals: number;
}

interface BookingData {
  currencies: Currency[];
  bookingCurrencies: string[];
  nightlyRateCents: { min: number; max: number };
  hotelNotes: Localized[];
  roomNotes: Localized[];
  paymentMethods: { id: number; name: Localized }[];
  cancellationTypes: { type: string; policy: Localized }[];
  policyPercentages: string[];
  specialRequests: string[];
  specialRequestMessages: { saved: string; cleared: string };
  transferCancellationFeeEuroCents: { min: number; max: number };
}

interface Airport {
  airportId: number;
  resortId: number;
  airportName?: string;
  iataCode?: string;
  timeZone?: string;
  transfers?: {
    transferTypeId: number;
    minimumPassengers: number;
    maximumPassengers: number;
    minutes: number;
    priceCents: number;
    named: boolean;
  }[];
}

interface TransferData {
  transferTypes: { id: number; name: Localized }[];
  network: { airports: number; firstAirportId: number; firstResortId: number; resorts: number; timeZones: string[] };
  airports: Airport[];
}

const REF: ReferenceData = referenceJson;
const BOOK: BookingData = bookingJson;
const TRANSFERS: TransferData = transfersJson;

// ---- determinism --------------------------------------------------------------------------------

/** FNV-1a (32 bit) of the UTF-8 bytes of a string. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small seeded PRNG (mulberry32) with the picks the generators need. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }
  /** k distinct items, in their original order. */
  sample<T>(xs: readonly T[], k: number): T[] {
    const idx = xs.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    return idx
      .slice(0, Math.min(k, xs.length))
      .sort((a, b) => a - b)
      .map((i) => xs[i]!);
  }
}

const CREDENTIAL_PARAMS = new Set(['userName', 'password']);

/** A PRNG seeded by a label and the request's parameters (credentials excluded, order-independent). */
function rngFor(label: string, params: RawParams, names?: readonly string[]): Rng {
  const keys = (names ?? Object.keys(params))
    .filter((k) => !CREDENTIAL_PARAMS.has(k) && params[k] !== undefined)
    .sort();
  return new Rng(stableHash([label, ...keys.map((k) => `${k}=${params[k]!}`)].join('\u0000')));
}

// ---- small helpers -----------------------------------------------------------------------------

type RawParams = Readonly<Record<string, string | undefined>>;

/** The language code a parameter asks for ('de', 'de-CH', 'DE_de' → 'de'); unknown → 'en'. */
export function languageOf(param: string | undefined): string {
  const m = /^\s*([A-Za-z]{2})/.exec(param ?? '');
  return m ? m[1]!.toLowerCase() : 'en';
}

function loc(text: Localized, language: string): string {
  return text[language] ?? text.en;
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

const DAY_MS = 86_400_000;
// Generated dates stay within years xs:dateTime writes without surprises.
const MIN_DAY = Date.UTC(1900, 0, 1);
const MAX_DAY = Date.UTC(9998, 11, 1);

/** The UTC day (ms) of an xs:dateTime / xs:date lexical form, clamped to 1900..9998; undefined if unreadable. */
function dayOf(v: string | undefined): number | undefined {
  const m = /^\s*(-?\d{4,})-(\d{2})-(\d{2})/.exec(v ?? '');
  if (!m) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Math.min(MAX_DAY, Math.max(MIN_DAY, d.getTime()));
}

/** xs:dateTime without a zone, as ASMX writes DateTime values. */
function dateTime(ms: number, time = '00:00:00'): string {
  return `${new Date(ms).toISOString().slice(0, 10)}T${time}`;
}

function money(units: number, decimals: number): string {
  const neg = units < 0;
  const s = String(Math.abs(units)).padStart(decimals + 1, '0');
  const out = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
  return neg ? `-${out}` : out;
}

function currency(code: string): Currency {
  const c = BOOK.currencies.find((x) => x.code === code);
  if (!c) throw new Error(`mock data: unknown currency ${code}`);
  return c;
}

/** A euro-cent amount in a currency, as a decimal lexical form with the currency's decimals. */
function convert(euroCents: number, code: string): string {
  const c = currency(code);
  return money(Math.round((euroCents * Number(c.perEuro) * 10 ** c.decimals) / 100), c.decimals);
}

function intParam(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*[+-]?\d+\s*$/.test(v)) return undefined;
  return Number.parseInt(v.trim(), 10);
}

// ---- outcomes ----------------------------------------------------------------------------------

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** What the mock answers to a decoded, parameter-checked request. */
export type Outcome =
  | { readonly kind: 'result'; readonly value: Value }
  | { readonly kind: 'fault'; readonly reason: string };

interface GenContext {
  readonly op: Operation;
  readonly params: RawParams;
  readonly language: string;
}
type Generator = (ctx: GenContext) => Value;

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

function inBandErrorResult(errorType: string, message: string): DataObject {
  return { Error: { ErrorType: errorType, Message: message } };
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

// ---- booking group -----------------------------------------------------------------------------

interface Quote {
  readonly currency: string;
  readonly price: string;
  readonly nights: number;
  readonly roomId: number;
  readonly bookingType: 'FullPeriod' | 'ExtraDays' | 'NoAmendmentAvailable';
  readonly checkIn: number;
  readonly checkOut: number;
}

/** The price of an amendment: shared by AmendmentPriceRequest and AmendmentRequest so they agree. */
function amendmentQuote(params: RawParams): Quote {
  const rng = rngFor('quote', params, ['bookingID']);
  const code = rng.pick(BOOK.bookingCurrencies);
  const nightly = Math.round(rng.int(BOOK.nightlyRateCents.min, BOOK.nightlyRateCents.max) / 50) * 50;
  const roomId = rng.int(100_000, 999_999);
  const kind = rng.pick(['FullPeriod', 'ExtraDays'] as const);
  const checkIn = dayOf(params.checkInDate) ?? MIN_DAY;
  const checkOut = dayOf(params.checkOutDate) ?? checkIn;
  const nights = Math.round((checkOut - checkIn) / DAY_MS);
  const ok = nights > 0 && nights <= 60;
  return {
    currency: code,
    price: convert(ok ? nightly * nights : 0, code),
    nights,
    roomId,
    bookingType: ok ? kind : 'NoAmendmentAvailable',
    checkIn,
    checkOut,
  };
}

function calendarNotes(rng: Rng, texts: readonly Localized[], language: string, from: number, to: number): Value {
  if (rng.chance(0.2)) return undefined;
  return rng.sample(texts, rng.int(0, 3)).map((t) => {
    const start = from - rng.int(0, 10) * DAY_MS;
    const end = Math.max(start, to) + rng.int(0, 5) * DAY_MS;
    const note: Record<string, Value> = { start_date: dateTime(start), end_date: dateTime(end, '23:59:59') };
    if (rng.chance(0.85)) note.text = loc(t, language);
    return note;
  });
}

function cancellationPolicies(rng: Rng): Value {
  if (rng.chance(0.15)) return undefined;
  const n = rng.int(1, 3);
  const deadlines = [rng.int(21, 60), rng.int(7, 20), rng.int(1, 6)].slice(0, n);
  return deadlines.map((d, i) => ({
    // The last policy of a non-refundable rate has no deadline: it applies from booking on.
    deadline: i === n - 1 && rng.chance(0.4) ? null : d,
    percentage: BOOK.policyPercentages[Math.min(i + 1, BOOK.policyPercentages.length - 1)]!,
  }));
}

function amendmentPriceRequest({ params, language }: GenContext): Value {
  const q = amendmentQuote(params);
  const rng = rngFor('AmendmentPriceRequest', params);
  return {
    Price: { currency: q.currency, $text: q.price },
    RoomId: q.roomId,
    hotelnotes: calendarNotes(rng, BOOK.hotelNotes, language, q.checkIn, q.checkOut),
    roomnotes: calendarNotes(rng, BOOK.roomNotes, language, q.checkIn, q.checkOut),
    cancellation_policies: cancellationPolicies(rng),
    BookingType: q.bookingType,
  };
}

/** Fee records of a cancellation policy: their fields are not shown (2.5), so any small XML. */
function fees(rng: Rng, code: string, language: string, deadline: number): Value {
  if (rng.chance(0.15)) return undefined;
  return Array.from({ length: rng.int(0, 2) }, (): AnyContent => {
    const cents = Math.round(rng.int(500, 20_000) / 50) * 50;
    const parts: AnyContent[] = [
      { $element: 'amount', $attributes: { currency: code }, $content: convert(cents, code) },
      { $element: 'percentage', $content: BOOK.policyPercentages[rng.int(1, BOOK.policyPercentages.length - 1)]! },
    ];
    if (rng.chance(0.5)) {
      const text = fill(loc(rng.pick(BOOK.cancellationTypes).policy, language), {
        date: dateTime(deadline).slice(0, 10),
        percent: 50,
      });
      parts.push({ $element: 'description', $content: text });
    }
    return parts;
  });
}

/**
 * The amendment kinds a caller may ask for (section 3's BookingType, but "NoAmendmentAvailable", which asks for none).
 */
const AMENDMENT_KINDS = new Set(['FullPeriod', 'ExtraDays']);

function amendmentRequest({ params, language }: GenContext): Value {
  // The kind asked for is the caller's (section 3): anything but an amendment kind is refused in the
  // result, whatever the booking and its price.
  const asked = (params.bookingType ?? '').trim();
  if (!AMENDMENT_KINDS.has(asked))
    return inBandErrorResult(
      'System.ArgumentException',
      `bookingType "${asked}" is not an amendment kind (FullPeriod, ExtraDays)`,
    );
  const q = amendmentQuote(params);
  const rng = rngFor('AmendmentRequest', params);
  const max = Number(params.maxPrice ?? '0');
  const accepted = q.bookingType !== 'NoAmendmentAvailable' && Number(q.price) <= max;
  const record = (active: boolean, deadlineDays: number): DataObject => {
    const deadline = q.checkIn - deadlineDays * DAY_MS;
    return {
      bookingStatus: active ? 'Active' : 'NotActive',
      currentCancellationPolicyFee: fees(rng, q.currency, language, deadline),
      currentCancellationPolicyDeadline: dateTime(deadline, '12:00:00'),
    };
  };
  return { AmendmentBooking: record(accepted, rng.int(1, 30)), OriginalBooking: record(!accepted, rng.int(1, 30)) };
}

function cancelBooking({ params, language }: GenContext): Value {
  const rng = rngFor('CancelBooking', params);
  const deadline = Date.UTC(2025, 0, 1) + rng.int(0, 700) * DAY_MS;
  const date = new Date(deadline).toISOString().slice(0, 10);
  const methods = rng.sample(BOOK.paymentMethods, rng.int(1, BOOK.paymentMethods.length));
  return {
    Code: rng.pick([0, 0, 0, 1]),
    CancellationPaymentMethod: methods.map((m) => ({
      id: m.id,
      name: loc(m.name, language),
      cancellationfee: rng.sample(BOOK.bookingCurrencies, rng.int(0, 2)).map((code) => ({
        currency: code,
        $content: convert(Math.round(rng.int(0, 30_000) / 50) * 50, code),
      })),
      cancellation: rng.sample(BOOK.cancellationTypes, rng.int(1, 2)).map((c) => ({
        type: c.type,
        activecancellationpolicy: fill(loc(c.policy, language), { date, percent: rng.pick(['25', '50', '80']) }),
      })),
    })),
  };
}

function cancelTransferBooking({ params }: GenContext): Value {
  const rng = rngFor('CancelTransferBooking', params, ['transferBookingID']);
  const { min, max } = BOOK.transferCancellationFeeEuroCents;
  const cents = Math.round(rng.int(min, max) / 50) * 50;
  const code = rng.pick(BOOK.currencies).code;
  return {
    cancellationFeeInEuros: convert(cents, 'EUR'),
    cancellationFeeInLocalCurrency: convert(cents, code),
    currency: code,
    code: cents === 0 ? 0 : rng.pick([0, 2]),
  };
}

function updateSpecialRequest({ params }: GenContext): Value {
  const bookingId = intParam(params.bookingId) ?? 0;
  const text = params.text ?? '';
  const cleared = text.trim() === '';
  return {
    resultCode: cleared ? 1 : 0,
    resultMessage: fill(cleared ? BOOK.specialRequestMessages.cleared : BOOK.specialRequestMessages.saved, {
      bookingId,
      length: [...text].length,
    }),
  };
}

function getSpecialRequest({ params }: GenContext): Value {
  const bookingId = intParam(params.bookingId) ?? 0;
  return { text: BOOK.specialRequests[stableHash(`special-request\u0000${bookingId}`) % BOOK.specialRequests.length]! };
}

// ---- reference data ----------------------------------------------------------------------------

function getMeals({ language }: GenContext): Value {
  return {
    meals: REF.meals.map((m) => ({
      id: m.id,
      name: loc(m.name, language),
      // Fields of a label are not shown (2.6): each label is written as id and text children.
      labels: m.labels?.map((key): AnyContent => {
        const l = REF.labels[key];
        if (!l) throw new Error(`mock data: meal ${m.id} names unknown label ${key}`);
        return [
          { $element: 'id', $content: String(l.id) },
          { $element: 'text', $content: loc(l.text, language) },
        ];
      }),
    })),
  };
}

function getRoomTypes({ language }: GenContext): Value {
  return {
    roomTypes: REF.roomTypes.map((r) => ({
      id: r.id,
      name: r.name && loc(r.name, language),
      sharedRoom: r.sharedRoom,
      sharedFacilities: r.sharedFacilities,
    })),
  };
}

const getLanguages: Generator = () => ({ languages: REF.languages.map((l) => ({ isoCode: l.isoCode, name: l.name })) });

const noteTypes =
  (list: ReferenceData['hotelNoteTypes']): Generator =>
  ({ language }) => ({ noteTypes: list.map((n) => ({ id: n.id, text: loc(n.text, language) })) });

function getThemes(): Value {
  // GetThemes takes no language: theme names are given in English.
  return { themes: REF.themes.map((t) => ({ id: t.id, name: t.name && loc(t.name, 'en'), image: t.image })) };
}

function getFeatures({ language }: GenContext): Value {
  // Section 2.6 names only the name; the real service also writes the id (--real-service).
  return { features: REF.features.map((f) => ({ name: loc(f.name, language) })) };
}

// ---- transfers ---------------------------------------------------------------------------------

/**
 * The rest of the network (transfers.json "network"): airports made up once, the same on every run,
 * in the style of the hand-written ones (optional names, codes and zones left out now and then, an
 * airport without transfers, unnamed transfer types). Only the unfiltered search lists them all.
 */
function networkAirports(n: TransferData['network']): Airport[] {
  const rng = new Rng(stableHash('transfer-network'));
  const types = TRANSFERS.transferTypes.map((t) => t.id);
  return Array.from({ length: n.airports }, (_, i) => {
    // Three letters, distinct per airport (7919 is prime to 26³).
    const code = [2, 1, 0]
      .map((k) => String.fromCharCode(65 + (Math.floor(((i * 7919 + 4321) % 17_576) / 26 ** k) % 26)))
      .join('');
    const kinds = i % 29 === 28 ? undefined : rng.sample(types, rng.chance(0.25) ? 2 : 1);
    return {
      airportId: n.firstAirportId + i,
      resortId: n.firstResortId + (i % n.resorts),
      airportName:
        i % 13 === 12 ? undefined : `${code} ${rng.pick(['International', 'Regional', 'Airport', 'Airfield'])}`,
      iataCode: i % 17 === 16 ? undefined : code,
      timeZone: i % 7 === 6 ? undefined : rng.pick(n.timeZones),
      transfers: kinds?.map((transferTypeId) => {
        const min = transferTypeId === 1 ? 1 : rng.int(1, 4);
        return {
          transferTypeId,
          minimumPassengers: min,
          maximumPassengers: min + rng.int(2, transferTypeId === 1 ? 48 : 6),
          minutes: rng.int(15, 150),
          priceCents: rng.int(16, 600) * 50 * transferTypeId,
          named: rng.chance(0.85),
        };
      }),
    };
  });
}

/** Every airport: the hand-written ones, then the rest of the network. */
const ALL_AIRPORTS: readonly Airport[] = [...TRANSFERS.airports, ...networkAirports(TRANSFERS.network)];

const NUMERIC_TRANSFER_PARAMS = ['hotelID', 'roomID', 'resortID', 'transferID'] as const;
const DATE_RE = /^\s*\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:\d{2})?)?\s*$/;
const TIME_RE = /^\s*\d{1,2}:\d{2}(:\d{2})?\s*$/;

function searchTransfers({ params, language }: GenContext): Value {
  const given = (k: string) => params[k] !== undefined && params[k]!.trim() !== '';
  for (const k of NUMERIC_TRANSFER_PARAMS) {
    if (given(k) && intParam(params[k]) === undefined)
      return inBandErrorResult('InvalidParameter', `${k} must be an integer, got "${params[k]}".`);
  }
  for (const k of ['arrivalDate', 'returnDepartureDate']) {
    if (given(k) && (!DATE_RE.test(params[k]!) || dayOf(params[k]) === undefined)) {
      return inBandErrorResult('InvalidParameter', `${k} must be a date (yyyy-mm-dd), got "${params[k]}".`);
    }
  }
  for (const k of ['arrivalTime', 'returnDepartureTime']) {
    if (given(k) && !TIME_RE.test(params[k]!))
      return inBandErrorResult('InvalidParameter', `${k} must be a time (hh:mm), got "${params[k]}".`);
  }
  const currencies = given('currencies')
    ? [
        ...new Set(
          params
            .currencies!.toUpperCase()
            .split(/[\s,;]+/)
            .filter(Boolean),
        ),
      ]
    : ['EUR'];
  const unknown = currencies.find((c) => !BOOK.currencies.some((x) => x.code === c));
  if (unknown)
    return inBandErrorResult(
      'InvalidParameter',
      `currency "${unknown}" is not offered; use ${BOOK.currencies.map((c) => c.code).join(', ')}.`,
    );

  // No resort, hotel or booking: the whole network, the broadest (and a large) result.
  let airports = ALL_AIRPORTS;
  if (given('resortID')) {
    const resort = intParam(params.resortID);
    const serving = airports.filter((a) => a.resortId === resort);
    // A resort the fixtures do not know is served by one airport, a stable pick per resort.
    airports = serving.length
      ? serving
      : rngFor('resort-airports', params, ['resortID']).sample(TRANSFERS.airports.slice(0, 5), 1);
  } else if (given('hotelID') || given('bookingID')) {
    // A hotel is near one or two of the hand-written airports: a stable pick per hotel / booking.
    airports = rngFor('hotel-airports', params, ['hotelID', 'bookingID']).sample(TRANSFERS.airports, 2);
  }
  const transferType = given('transferID') ? intParam(params.transferID) : undefined;
  const month = given('arrivalDate') ? new Date(dayOf(params.arrivalDate)!).getUTCMonth() : undefined;
  const season = month === undefined ? 1 : month >= 5 && month <= 7 ? 1.2 : month === 11 ? 1.1 : 1;

  const out = airports.flatMap((a) => {
    const transfers = a.transfers?.filter((t) => transferType === undefined || t.transferTypeId === transferType);
    if (transferType !== undefined && !transfers?.length) return [];
    return [
      {
        airportId: a.airportId,
        resortId: a.resortId,
        airportName: a.airportName,
        iataCode: a.iataCode,
        timeZone: a.timeZone,
        transfers: transfers?.map((t) => {
          const name = TRANSFERS.transferTypes.find((x) => x.id === t.transferTypeId)?.name;
          const cents = Math.round((t.priceCents * season) / 50) * 50;
          return {
            rates: currencies.map((c) => ({ currency: c, $text: convert(cents, c) })),
            transferTypeId: t.transferTypeId,
            minimumPassengers: t.minimumPassengers,
            maximumPassengers: t.maximumPassengers,
            // The same duration in two units: whole hours (rounded down) and total minutes.
            estimatedTimeInHours: Math.floor(t.minutes / 60),
            estimatedTimeInMinutes: t.minutes,
            transferTypeName: t.named && name ? loc(name, language) : undefined,
          };
        }),
      },
    ];
  });
  // Nothing of the requested transfer type: the result element is nil (section 4.3: "may be nil").
  if (out.length === 0 && transferType !== undefined) return null;
  return { airports: out };
}

// ---- the table ---------------------------------------------------------------------------------

const GENERATORS: Readonly<Record<string, Generator>> = {
  AmendmentPriceRequestResult: amendmentPriceRequest,
  AmendmentRequestResult: amendmentRequest,
  CancelBookingResult: cancelBooking,
  CancelTransferBookingResult: cancelTransferBooking,
  UpdateSpecialRequestResult: updateSpecialRequest,
  GetSpecialRequestResult: getSpecialRequest,
  GetMealsResult: getMeals,
  GetRoomTypesResult: getRoomTypes,
  GetLanguagesResult: getLanguages,
  GetHotelNoteTypesResult: noteTypes(REF.hotelNoteTypes),
  GetRoomNoteTypesResult: noteTypes(REF.roomNoteTypes),
  GetThemesResult: getThemes,
  GetFeaturesResult: getFeatures,
  SearchTransfersResult: searchTransfers,
};
