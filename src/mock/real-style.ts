/**
 * The real service's style: how the live ASMX service (serialised by .NET's XmlSerializer) answers
 * where the contract is silent, ambiguous or says "not shown", from its captured answers and its
 * published WSDL types. `--real-service` (`startMock({ realService: true })`) applies every part;
 * variation mode (src/mock/vary.ts) applies each part by chance per request, so that the self-test
 * proves the harness raises no false alarm on any of them. Everything here is a function of the
 * operation and the request parameters, never of the binding: the four bindings of a request carry
 * the same data, as the binding comparison requires.
 *
 * The parts:
 * - inBandErrors: some valid calls are answered 200 with an in-band Error (a .NET exception class
 *   name in ErrorType) and whatever value-type fields the operation still writes (CancelBooking of
 *   an already cancelled booking: Error and Code -2);
 * - errorAttributes: an Error result also carries ErrorAttributes, a list of key/value items;
 * - omitNullStrings: a string or record whose value is null is left out (a booking without a
 *   special request, an update without resultMessage, a noteType without text, a theme without
 *   image, an amendment quote without Price when no amendment is available);
 * - elementPolicies: activecancellationpolicy holds a StaticPercentageCancellationPolicy's elements
 *   (deadline nil, percentage 0) instead of text, with Code 1 and a cancellationfee of 0.0000;
 * - featureIds: GetFeatures' feature carries FeatureWithName's id beside its name;
 * - richRates: a transfer rate holds direction, startHour, endHour and prices/price elements, and
 *   a transferId follows the rates;
 * - nilFees: a currentCancellationPolicyFee/fee item is written xsi:nil.
 */
import type { Operation } from '../contract/catalogue.js';
import { effective, isValueType } from '../contract/model.js';
import { stableHash } from './rng.js';
import type { AnyContent, DataObject, Value } from './serialize.js';

export type RealPart =
  | 'inBandErrors'
  | 'errorAttributes'
  | 'omitNullStrings'
  | 'elementPolicies'
  | 'featureIds'
  | 'richRates'
  | 'nilFees';

export const REAL_PARTS: readonly RealPart[] = [
  'inBandErrors',
  'errorAttributes',
  'omitNullStrings',
  'elementPolicies',
  'featureIds',
  'richRates',
  'nilFees',
];

const ALREADY_CANCELLED_TYPE = 'Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException';
const NOT_FOUND_TYPE = 'Fitruums.Framework.Booking.Exceptions.BookingNotFoundException';

type RawParams = Readonly<Record<string, string | undefined>>;

function isObject(v: Value): v is DataObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A stable pick for a request: true for about one request in `n` (by the named parameters' values). */
function oneIn(n: number, label: string, ...values: (string | undefined)[]): boolean {
  return stableHash([label, ...values.map((v) => v ?? '')].join('\u0000')) % n === 0;
}

/**
 * An in-band Error result: the Error, then the value-type fields the result still holds (the serializer writes them).
 */
export function errorResult(resultType: string, errorType: string, message: string, keep: DataObject = {}): DataObject {
  const out: Record<string, Value> = { Error: { ErrorType: errorType, Message: message } };
  for (const f of effective(resultType).fields) {
    if (f.kind === 'element' && f.max === 1 && !f.list && isValueType(f.type) && keep[f.name] !== undefined)
      out[f.name] = keep[f.name];
  }
  return out;
}

/** The booking a request names, if any (bookingID, bookingId or transferBookingID). */
function bookingOf(params: RawParams): string | undefined {
  return params.bookingID ?? params.bookingId ?? params.transferBookingID;
}

/**
 * A valid call of a booking-group operation answered with an in-band Error, as the real service does
 * for a booking it cannot act on: a stable pick per booking (one in two cancellations, one in three
 * other calls).
 */
function inBandErrorOf(op: Operation, params: RawParams, value: DataObject): DataObject | undefined {
  const booking = bookingOf(params);
  const cancel = op.resultType === 'CancelBookingResult';
  if (op.group !== 'booking' || booking === undefined || !oneIn(cancel ? 2 : 3, `in-band ${op.name}`, booking))
    return undefined;
  return cancel
    ? errorResult(op.resultType, ALREADY_CANCELLED_TYPE, `The booking with ID ${booking} has already been cancelled.`, {
        ...value,
        Code: -2,
      })
    : errorResult(op.resultType, NOT_FOUND_TYPE, `No booking with ID ${booking} was found.`, value);
}

/** Key/value items after an Error (the form of an item is not shown: the real service's names). */
function errorAttributes(params: RawParams): AnyContent {
  const item = (key: string, value: string): AnyContent => ({
    $element: 'ErrorAttribute',
    $content: [
      { $element: 'Key', $content: key },
      { $element: 'Value', $content: value },
    ],
  });
  const booking = bookingOf(params);
  return [
    item('RequestId', String(stableHash(JSON.stringify(params)) % 1_000_000)),
    ...(booking ? [item('BookingId', booking)] : []),
  ];
}

/** The rates of a transfer as the real service writes them: one per direction, prices per currency. */
function richRates(rates: Value): Value {
  if (!Array.isArray(rates)) return rates;
  const prices: AnyContent[] = (rates as readonly Value[]).flatMap((r) =>
    isObject(r) && r.$text !== undefined
      ? [{ $element: 'price', $attributes: { currency: String(r.currency ?? 'EUR') }, $content: String(r.$text) }]
      : [],
  );
  return (['Arrival', 'Return'] as const).map(
    (direction): DataObject => ({
      $element: 'rate',
      $content: [
        { $element: 'direction', $content: direction },
        { $element: 'startHour', $content: direction === 'Arrival' ? '0' : '6' },
        { $element: 'endHour', $content: direction === 'Arrival' ? '24' : '22' },
        { $element: 'prices', $content: prices },
      ],
    }),
  );
}

/**
 * The parts as `on` draws them, but without the booking picks of `inBandErrors` (a booking answered
 * "already cancelled" or "not found" by a pick on its id): with state (src/mock/state.ts) whether a
 * booking was cancelled is the state's to say, and one booking per binding must get one outcome. The
 * part is still drawn, so that the other parts of a request come out as they do without state.
 */
export function withoutBookingPicks(on: (p: RealPart) => boolean): (p: RealPart) => boolean {
  return (p) => {
    const v = on(p);
    return p === 'inBandErrors' ? false : v;
  };
}

/**
 * The result data of a valid call as the real service writes it. `on` says which parts apply (all
 * for `--real-service`; a chance per request in variation mode); within a part, which calls and
 * items it touches is a stable pick per request.
 */
export function realStyle(op: Operation, params: RawParams, value: Value, on: (p: RealPart) => boolean): Value {
  if (!isObject(value)) return value;
  if ('Error' in value) {
    return on('errorAttributes') ? { ...value, ErrorAttributes: errorAttributes(params) } : value;
  }
  if (on('inBandErrors')) {
    const error = inBandErrorOf(op, params, value);
    if (error) return on('errorAttributes') ? { ...error, ErrorAttributes: errorAttributes(params) } : error;
  }
  const out: Record<string, Value> = { ...value };
  const omit = on('omitNullStrings');
  const items = (key: string, fn: (item: DataObject, i: number) => DataObject) => {
    if (Array.isArray(out[key]))
      out[key] = (out[key] as readonly Value[]).map((it, i) => (isObject(it) ? fn(it, i) : it));
  };
  switch (op.resultType) {
    case 'GetSpecialRequestResult':
      if (omit && oneIn(2, 'no special request', params.bookingId)) delete out.text;
      break;
    case 'UpdateSpecialRequestResult':
      if (omit && oneIn(2, 'no result message', params.bookingId)) delete out.resultMessage;
      break;
    case 'AmendmentPriceRequestResult':
      if (omit && out.BookingType === 'NoAmendmentAvailable') delete out.Price;
      break;
    case 'GetHotelNoteTypesResult':
    case 'GetRoomNoteTypesResult':
      if (omit) items('noteTypes', (n, i) => (i % 3 === 2 ? { ...n, text: undefined } : n));
      break;
    case 'GetThemesResult':
      if (omit) items('themes', (t, i) => (i % 2 === 1 ? { ...t, image: undefined } : t));
      break;
    case 'GetFeaturesResult':
      if (on('featureIds')) items('features', (f, i) => ({ id: i + 1, ...f }));
      break;
    case 'CancelBookingResult':
      if (on('elementPolicies')) {
        out.Code = 1;
        items('CancellationPaymentMethod', (m) => ({
          ...m,
          cancellationfee: Array.isArray(m.cancellationfee)
            ? (m.cancellationfee as readonly Value[]).map((c) => (isObject(c) ? { ...c, $content: '0.0000' } : c))
            : m.cancellationfee,
          cancellation: Array.isArray(m.cancellation)
            ? (m.cancellation as readonly Value[]).map((c) =>
                isObject(c) ? { ...c, activecancellationpolicy: { deadline: null, percentage: '0' } } : c,
              )
            : m.cancellation,
        }));
      }
      break;
    case 'AmendmentRequestResult':
      if (on('nilFees')) {
        for (const k of ['AmendmentBooking', 'OriginalBooking']) {
          const r = out[k];
          if (isObject(r) && Array.isArray(r.currentCancellationPolicyFee))
            out[k] = { ...r, currentCancellationPolicyFee: [null, ...r.currentCancellationPolicyFee] };
        }
      }
      break;
    case 'SearchTransfersResult':
      if (on('richRates')) {
        items('airports', (a) => ({
          ...a,
          transfers: Array.isArray(a.transfers)
            ? (a.transfers as readonly Value[]).map((t, i) =>
                isObject(t)
                  ? {
                      ...t,
                      rates: richRates(t.rates),
                      $open: {
                        $element: 'transferId',
                        $content: String(70_000 + Number(t.transferTypeId ?? 0) * 100 + i),
                      },
                    }
                  : t,
              )
            : a.transfers,
        }));
      }
      break;
  }
  return out;
}
