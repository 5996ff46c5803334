/**
 * The types of the type model (./model.ts), as data: every type of the contract's section 2 plus the
 * result records of 2.5 and 2.6 (a pure data table, with the few builders that keep each row short).
 * It is the single source of truth for types: the XSDs in schemas/ are generated from it
 * (scripts/generate-schemas.ts, kept in sync by a test), the shape checks walk it, the mock
 * serialises its data with it and the equivalence check reads values in their XSD value space with it.
 *
 * Readings where the contract is silent, ambiguous or says "not shown" (also stated in docs/conventions.md,
 * "Conventions where the contract is silent"). The real service is an ASMX service serialised by
 * .NET's XmlSerializer, and it is the referee: a reading that fails it is a defect of the model.
 * - child elements are qualified in the group namespace, attributes unqualified;
 * - element order follows the contract's tables, base type before extension;
 * - "req" → exactly once; "opt" → may be absent; "req, nillable" → present, may carry xsi:nil;
 * - where sections 2.5 and 2.6 state no kind, the serializer's convention: reference types
 *   (strings, records, lists) and string attributes are optional (a null is left out), value types
 *   (int, decimal, double, boolean, dateTime, enumerations) are required (always written);
 * - every result type extends BaseResult: it may begin with an Error (then ErrorAttributes), and a
 *   result carrying Error is an in-band rejection whose other fields may be absent (`rejection`);
 * - a list is a wrapper element holding repeated items named as the contract says; where the
 *   contract names no item, the singular of the wrapper is used (types no operation returns) or,
 *   for TransferRate (returned by SearchTransfers), any item name is accepted;
 * - "not shown" → open, fully: `open` fields accept any elements, `anyType` any content and nil,
 *   `openContent` any content (with `text`: the text, when not blank, is of that type);
 * - ambiguous → every reasonable reading: `orText` types hold text or their element content.
 */
import type {
  AttributeDef,
  ComplexType,
  ElementField,
  EnumType,
  Field,
  NamedType,
  OpenField,
  SimpleType,
  TypeRef,
} from './model-shapes.js';

// ---- builders -------------------------------------------------------------------------------

interface FieldOpts {
  nillable?: boolean;
  many?: boolean;
}
const req = (name: string, type: TypeRef, o: FieldOpts = {}): ElementField => ({
  kind: 'element',
  name,
  type,
  min: 1,
  max: o.many ? 'unbounded' : 1,
  nillable: !!o.nillable,
});
const opt = (name: string, type: TypeRef, o: FieldOpts = {}): ElementField => ({
  kind: 'element',
  name,
  type,
  min: 0,
  max: o.many ? 'unbounded' : 1,
  nillable: !!o.nillable,
});
const nil = (name: string, type: TypeRef): ElementField => req(name, type, { nillable: true });
/** Repeated element without a wrapper, 0..n. */
const many = (name: string, type: TypeRef): ElementField => opt(name, type, { many: true });
/** A list wrapper holding items. */
const list = (name: string, item: string, type: TypeRef, min: 0 | 1 = 0): ElementField => ({
  kind: 'element',
  name,
  type: 'list',
  min,
  max: 1,
  nillable: false,
  list: { item, type },
});
const open = (note: string): OpenField => ({ kind: 'open', note });
const attributeDef = (name: string, type: SimpleType, required: boolean): AttributeDef => ({ name, type, required });

function complex(
  name: string,
  section: string,
  fields: Field[],
  more: Partial<Omit<ComplexType, 'kind' | 'name' | 'section' | 'fields'>> = {},
): ComplexType {
  return { kind: 'complex', name, section, fields, attributes: more.attributes ?? [], ...more };
}
const enumType = (name: string, section: string, values: string[]): EnumType => ({
  kind: 'enum',
  name,
  section,
  values,
});
const strings = (...names: string[]) => names.map((n) => opt(n, 'string'));

// ---- section 2 ------------------------------------------------------------------------------

export const TYPES: NamedType[] = [
  // 2.1 Common
  // Every result type extends BaseResult (the service's published types): an Error, then an optional
  // ErrorAttributes list of key/value items whose form is not shown, then the result's own fields.
  complex('BaseResult', '2.1', [opt('Error', 'ErrorObject'), opt('ErrorAttributes', 'anyType')], {
    rejection: 'Error',
  }),
  complex('ErrorObject', '2.1', [opt('ErrorType', 'string'), opt('Message', 'string')]),
  complex('MonetaryValue', '2.1', [], { text: 'decimal', attributes: [attributeDef('currency', 'string', false)] }),
  complex('MonetaryValueWithPaymentMethods', '2.1', [], {
    base: 'MonetaryValue',
    attributes: [attributeDef('paymentMethods', 'intList', true)],
  }),
  complex('CalendarNote', '2.1', [opt('text', 'string')], {
    attributes: [attributeDef('start_date', 'dateTime', true), attributeDef('end_date', 'dateTime', true)],
  }),
  complex('PercentageCancellationPolicy', '2.1', [nil('deadline', 'int'), req('percentage', 'decimal')]),
  complex('StaticPercentageCancellationPolicy', '2.1', [opt('text', 'string')], {
    base: 'PercentageCancellationPolicy',
  }),
  complex('CoordinatePair', '2.1', [nil('latitude', 'double'), nil('longitude', 'double')]),
  complex('Code', '2.1', [], {
    attributes: [attributeDef('type', 'string', false), attributeDef('value', 'string', false)],
  }),
  complex('Image', '2.1', [], { attributes: ['url', 'height', 'width'].map((n) => attributeDef(n, 'string', false)) }),
  complex('Feature', '2.1', [], { attributes: [attributeDef('id', 'int', true)] }),
  complex('FeatureWithName', '2.1', [], { base: 'Feature', attributes: [attributeDef('name', 'string', false)] }),
  complex('Theme', '2.1', [], {
    attributes: [
      attributeDef('id', 'int', true),
      attributeDef('name', 'string', false),
      attributeDef('image', 'string', false),
    ],
  }),

  // 2.2 Room types and rooms
  complex('RoomType', '2.2', [
    req('id', 'int'),
    opt('name', 'string'),
    req('sharedRoom', 'int'),
    nil('sharedFacilities', 'int'),
  ]),
  complex('RoomTypeWithRooms', '2.2', [
    req('roomtype.ID', 'int'),
    opt('roomtype.Name', 'string'),
    list('rooms', 'room', 'Room'),
  ]),
  complex(
    'StaticRoomTypeWithRooms',
    '2.2',
    [opt('room.type', 'string'), req('sharedRoom', 'boolean'), nil('sharedFacilities', 'boolean')],
    { base: 'RoomTypeWithRooms' },
  ),
  complex('Room', '2.2', [
    req('id', 'int'),
    req('beds', 'int'),
    req('extrabeds', 'int'),
    list('meals', 'meal', 'RoomMeal'),
    list('cancellation_policies', 'cancellation_policy', 'PercentageCancellationPolicy'),
    list('notes', 'note', 'CalendarNote'),
    req('isSuperDeal', 'boolean'),
    req('isBestBuy', 'boolean'),
    list('paymentMethods', 'paymentMethod', 'RoomPaymentMethod'),
  ]),
  complex('StaticRoom', '2.2', [list('features', 'feature', 'FeatureWithName'), list('themes', 'theme', 'Theme')], {
    base: 'Room',
  }),
  complex('StaticRoomWithFees', '2.2', [list('fees', 'fee', 'Fee')], { base: 'StaticRoom' }),
  complex('Fee', '2.2', [
    opt('name', 'string'),
    list('amounts', 'amount', 'MonetaryValue'),
    req('includedInPrice', 'boolean'),
  ]),
  complex('RoomMeal', '2.2', [
    req('id', 'int'),
    nil('labelId', 'int'),
    list('prices', 'price', 'MonetaryValueWithPaymentMethods'),
    nil('discount', 'Discount'),
  ]),
  complex('Discount', '2.2', [req('typeId', 'int'), list('amounts', 'amount', 'MonetaryValueWithPaymentMethods')]),
  complex('StaticRoomMeal', '2.2', [opt('name', 'string'), nil('labelText', 'string')], { base: 'RoomMeal' }),
  complex('StaticRoomMealWithTaxes', '2.2', [list('taxes', 'tax', 'MonetaryValue')], { base: 'StaticRoomMeal' }),
  complex('RoomPaymentMethod', '2.2', [many('property', 'PaymentMethodProperty')], {
    attributes: [attributeDef('id', 'int', true)],
  }),
  complex('PaymentMethodProperty', '2.2', [], {
    attributes: [attributeDef('key', 'string', true), attributeDef('value', 'string', true)],
  }),
  complex('StaticPaymentMethod', '2.2', [], {
    base: 'RoomPaymentMethod',
    attributes: [attributeDef('name', 'string', true)],
  }),

  // 2.3 Hotels
  complex(
    'Hotel',
    '2.3',
    [
      req('hotel.id', 'int'),
      req('destination_id', 'int'),
      req('resort_id', 'int'),
      req('transfer', 'int'),
      list('roomtypes', 'roomtype', 'RoomTypeWithRooms'),
      opt('review', 'ReviewValues'),
      list('notes', 'note', 'CalendarNote'),
      nil('distance', 'double'),
      list('codes', 'code', 'Code'),
    ],
    { attributes: [attributeDef('isPrioritized', 'boolean', false)] },
  ),
  complex('ReviewValues', '2.3', [
    req('rating', 'decimal'),
    req('pricevalue', 'decimal'),
    req('count', 'int'),
    req('recommendCount', 'int'),
  ]),
  enumType('AccommodationType', '2.3', ['Hotel', 'Apartment', 'Villa']),
  complex(
    'StaticHotel',
    '2.3',
    [
      req('type', 'AccommodationType'),
      ...strings(
        'name',
        'hotel.addr.1',
        'hotel.addr.2',
        'hotel.addr.zip',
        'hotel.addr.city',
        'hotel.addr.state',
        'hotel.addr.country',
        'hotel.addr.countrycode',
        'hotel.address',
        'hotel.mapurl',
        'headline',
        'description',
        'resort',
        'destination',
        'classification',
        'timeZone',
      ),
      list('themes', 'theme', 'Theme'),
      list('images', 'image', 'HotelImage'),
      list('features', 'feature', 'FeatureWithName'),
      opt('coordinates', 'CoordinatePair'),
      list('distanceTypes', 'distanceType', 'HotelDistanceType'),
      req('isBestBuy', 'boolean'),
    ],
    { base: 'Hotel' },
  ),
  complex('HotelImage', '2.3', [opt('fullSizeImage', 'Image'), opt('smallImage', 'Image')], {
    attributes: [attributeDef('id', 'int', true)],
  }),
  complex('HotelDistanceType', '2.3', [
    req('hotelDistanceTypeId', 'int'),
    opt('description', 'string'),
    list('distances', 'distance', 'HotelDistance'),
  ]),
  complex('HotelDistance', '2.3', [
    req('distanceInMeters', 'decimal'),
    nil('placeName', 'string'),
    nil('coordinates', 'CoordinatePair'),
  ]),
  complex('SearchResult', '2.3', [list('hotels', 'hotel', 'Hotel')], { base: 'BaseResult' }),

  // 2.4 Airports and transfers
  complex('Airport', '2.4', [
    req('airportId', 'int'),
    req('resortId', 'int'),
    ...strings('airportName', 'iataCode', 'timeZone'),
    list('transfers', 'transfer', 'StaticTransfer'),
  ]),
  complex('NonStaticTransfer', '2.4', [
    list('rates', '*', 'TransferRate'),
    open('Fields of NonStaticTransfer after rates: not shown.'),
  ]),
  complex(
    'Transfer',
    '2.4',
    ['transferTypeId', 'minimumPassengers', 'maximumPassengers', 'estimatedTimeInHours', 'estimatedTimeInMinutes'].map(
      (n) => req(n, 'int'),
    ),
    { base: 'NonStaticTransfer' },
  ),
  complex('StaticTransfer', '2.4', [opt('transferTypeName', 'string')], { base: 'Transfer' }),
  // A price (decimal text with a currency) or, beyond the price type, anything: the real service
  // writes direction, startHour, endHour and prices/price elements. Text, when not blank, is a decimal.
  complex('TransferRate', '2.4', [], {
    text: 'decimal',
    attributes: [attributeDef('currency', 'string', false)],
    anyAttribute: 'Fields of a TransferRate beyond the price type: not shown.',
    openContent:
      'Fields of a TransferRate beyond the price type: not shown (element children allowed; text, when '
      + 'not blank, is a decimal).',
  }),
  complex('SearchTransfersResult', '4.3', [list('airports', 'airport', 'Airport')], { base: 'BaseResult' }),

  // 2.5 Booking-group result records (no kinds stated: the serializer convention, see the header)
  enumType('BookingType', '2.5', ['FullPeriod', 'ExtraDays', 'NoAmendmentAvailable']),
  enumType('BookingStatus', '2.5', ['NotActive', 'Active']),
  complex(
    'AmendmentPriceRequestResult',
    '2.5',
    [
      opt('Price', 'MonetaryValue'),
      req('RoomId', 'int'),
      list('hotelnotes', 'note', 'CalendarNote'),
      list('roomnotes', 'note', 'CalendarNote'),
      list('cancellation_policies', 'cancellation_policy', 'PercentageCancellationPolicy'),
      req('BookingType', 'BookingType'),
    ],
    { base: 'BaseResult' },
  ),
  complex(
    'AmendmentRequestResult',
    '2.5',
    [opt('AmendmentBooking', 'AmendmentBookingRecord'), opt('OriginalBooking', 'AmendmentBookingRecord')],
    { base: 'BaseResult' },
  ),
  complex('AmendmentBookingRecord', '2.5', [
    req('bookingStatus', 'BookingStatus'),
    list('currentCancellationPolicyFee', 'fee', 'anyType'),
    req('currentCancellationPolicyDeadline', 'dateTime'),
  ]),
  complex(
    'CancelBookingResult',
    '2.5',
    [req('Code', 'int'), many('CancellationPaymentMethod', 'CancellationPaymentMethod')],
    { base: 'BaseResult' },
  ),
  complex(
    'CancellationPaymentMethod',
    '2.5',
    [many('cancellationfee', 'CancellationFee'), many('cancellation', 'Cancellation')],
    { attributes: [attributeDef('id', 'int', true), attributeDef('name', 'string', false)] },
  ),
  complex('CancellationFee', '2.5', [], {
    attributes: [attributeDef('currency', 'string', false)],
    openContent: 'Numeric content of a cancellationfee element: not shown.',
  }),
  complex('Cancellation', '2.5', [nil('activecancellationpolicy', 'ActiveCancellationPolicy')], {
    attributes: [attributeDef('type', 'string', false)],
  }),
  // "contains child text (string)" (GET/POST) reads two ways, both accepted: text content, or child
  // elements as the real service writes them (a StaticPercentageCancellationPolicy: deadline,
  // percentage, text). Which binding must hold what is the documented binding difference.
  complex('ActiveCancellationPolicy', '2.5', [], { base: 'StaticPercentageCancellationPolicy', orText: 'string' }),
  complex(
    'CancelTransferBookingResult',
    '2.5',
    [
      req('cancellationFeeInEuros', 'decimal'),
      req('cancellationFeeInLocalCurrency', 'decimal'),
      opt('currency', 'string'),
      req('code', 'int'),
    ],
    { base: 'BaseResult' },
  ),
  complex('UpdateSpecialRequestResult', '2.5', [req('resultCode', 'int'), opt('resultMessage', 'string')], {
    base: 'BaseResult',
  }),
  complex('GetSpecialRequestResult', '2.5', [opt('text', 'string')], { base: 'BaseResult' }),

  // 2.6 Reference-data results (no kinds stated: the serializer convention, see the header)
  complex('GetMealsResult', '2.6', [list('meals', 'meal', 'Meal')], { base: 'BaseResult' }),
  complex('Meal', '2.6', [req('id', 'int'), opt('name', 'string'), list('labels', 'label', 'anyType')]),
  complex('GetRoomTypesResult', '2.6', [list('roomTypes', 'roomType', 'RoomType')], { base: 'BaseResult' }),
  complex('GetLanguagesResult', '2.6', [list('languages', 'language', 'Language')], { base: 'BaseResult' }),
  complex('Language', '2.6', [opt('isoCode', 'string'), opt('name', 'string')]),
  complex('GetHotelNoteTypesResult', '2.6', [list('noteTypes', 'noteType', 'NoteType')], { base: 'BaseResult' }),
  complex('GetRoomNoteTypesResult', '2.6', [list('noteTypes', 'noteType', 'NoteType')], { base: 'BaseResult' }),
  complex('NoteType', '2.6', [], {
    attributes: [attributeDef('id', 'int', true), attributeDef('text', 'string', false)],
  }),
  complex('GetThemesResult', '2.6', [list('themes', 'theme', 'Theme')], { base: 'BaseResult' }),
  complex('GetFeaturesResult', '2.6', [list('features', 'feature', 'ReferenceFeature')], { base: 'BaseResult' }),
  // Section 2.6 names the name attribute; the real service also writes section 2.1's Feature id
  // (FeatureWithName): both readings are accepted.
  complex('ReferenceFeature', '2.6', [], {
    attributes: [attributeDef('id', 'int', false), attributeDef('name', 'string', false)],
  }),
];

/** Not-shown notes attached to anyType fields, quoted in the schema documentation. */
export const ANY_TYPE_NOTES: Record<string, string> = {
  label: 'Fields of a label element in GetMeals: not shown.',
  fee: 'Fields of a fee element: not shown (an item may be nil).',
  ErrorAttributes:
    'Error format not shown (section 7.5): an optional list of key/value items after Error, any content.',
};
