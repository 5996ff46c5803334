/**
 * The mock's data for each result type (a name of the type model, not an operation: the catalogue
 * stays the only list of operations), in the representation of ./serialize.ts: deterministic (seeded
 * by the parameters) and stateless (./state.ts applies a booking's state over them).
 */
import { Rng, stableHash } from './rng.js';
import {
  type Airport,
  BOOK,
  type Localized,
  REF,
  type ReferenceData,
  type TransferData,
  TRANSFERS,
} from './fixture-data.js';
import {
  convert,
  dateTime,
  DAY_MS,
  dayOf,
  fill,
  type GenContext,
  type Generator,
  inBandErrorResult,
  intParam,
  loc,
  MIN_DAY,
  rngFor,
} from './generator-support.js';
import type { AnyContent, DataObject, Value } from './serialize.js';

type RawParams = Readonly<Record<string, string | undefined>>;

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

export const GENERATORS: Readonly<Record<string, Generator>> = {
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
