/**
 * The type model: every type of the contract's section 2 plus the result records of 2.5 and 2.6, as
 * data. It is the single source of truth for types: the XSDs in schemas/ are generated from it
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

export type SimpleType = 'string' | 'int' | 'decimal' | 'double' | 'boolean' | 'dateTime' | 'intList';
/** A simple type, the name of a complex or enum type of the model, or 'anyType' ("not shown"). */
export type TypeRef = SimpleType | 'anyType' | (string & {});

export interface ElementField {
  readonly kind: 'element';
  readonly name: string;
  readonly type: TypeRef;
  readonly min: 0 | 1;
  readonly max: 1 | 'unbounded';
  readonly nillable: boolean;
  /**
   * When set the element is a list wrapper (its `type` is then 'list'): it holds 0..n `item` elements of `list.type`
   * ('*': any item name).
   */
  readonly list?: { readonly item: string; readonly type: TypeRef };
}

/** "Not shown": any further elements may stand here (XSD: xs:any lax). */
export interface OpenField {
  readonly kind: 'open';
  readonly note: string;
}

export type Field = ElementField | OpenField;

export interface AttributeDef {
  readonly name: string;
  readonly type: SimpleType;
  readonly required: boolean;
}

/**
 * A complex type's content: in a ComplexType its own (an extension's fields without its base's), from
 * effective() with its bases folded in.
 */
export interface EffectiveType {
  readonly fields: readonly Field[];
  readonly attributes: readonly AttributeDef[];
  /** Simple content: the element's text is of this type (MonetaryValue). */
  readonly text?: SimpleType;
  /** Content not shown: any text and any elements. */
  readonly openContent?: string;
  /** Attributes beyond the listed ones not shown: any attribute accepted. */
  readonly anyAttribute?: string;
  /**
   * The element holds either text of this simple type or its element content (an ambiguous place:
   * both readings are accepted; activecancellationpolicy).
   */
  readonly orText?: SimpleType;
  /**
   * The field whose presence makes an element of this type an in-band rejection (BaseResult's
   * Error, section 7.1): its other fields, required or not, may then be absent.
   */
  readonly rejection?: string;
}

export interface ComplexType extends EffectiveType {
  readonly kind: 'complex';
  readonly name: string;
  readonly section: string;
  readonly base?: string;
}

export interface EnumType {
  readonly kind: 'enum';
  readonly name: string;
  readonly section: string;
  readonly values: readonly string[];
}

export type NamedType = ComplexType | EnumType;

export const SIMPLE_TYPES: readonly SimpleType[] = [
  'string',
  'int',
  'decimal',
  'double',
  'boolean',
  'dateTime',
  'intList',
];

export function isSimple(t: TypeRef): t is SimpleType {
  return (SIMPLE_TYPES as readonly string[]).includes(t);
}

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

const TYPES: NamedType[] = [
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

export const MODEL: ReadonlyMap<string, NamedType> = new Map(TYPES.map((t) => [t.name, t]));

/** The named type, or a thrown error naming it (a typo in the model is a programming error). */
export function namedType(name: string): NamedType {
  const t = MODEL.get(name);
  if (!t) throw new Error(`type model has no type named ${name}`);
  return t;
}

export function complexType(name: string): ComplexType {
  const t = namedType(name);
  if (t.kind !== 'complex') throw new Error(`type ${name} is not a complex type`);
  return t;
}

const effectiveCache = new Map<string, EffectiveType>();

/** A complex type with its base types folded in: base fields first, then the extension's. */
export function effective(name: string): EffectiveType {
  let e = effectiveCache.get(name);
  if (e) return e;
  const t = complexType(name);
  const b: EffectiveType = t.base ? effective(t.base) : { fields: [], attributes: [] };
  e = {
    fields: [...b.fields, ...t.fields],
    attributes: [...b.attributes, ...t.attributes],
    text: t.text ?? b.text,
    openContent: t.openContent ?? b.openContent,
    anyAttribute: t.anyAttribute ?? b.anyAttribute,
    orText: t.orText ?? b.orText,
    rejection: t.rejection ?? b.rejection,
  };
  effectiveCache.set(name, e);
  return e;
}

/** True when the type's element content has a "not shown" region (its known fields may come in any place). */
export function hasOpenFields(name: string): boolean {
  return effective(name).fields.some((f) => f.kind === 'open');
}

/**
 * The fields that make up an in-band rejection of a type (BaseResult's Error and ErrorAttributes):
 * the own fields of the base that declares `rejection`; empty for a type without one.
 */
export function rejectionFields(typeName: string): string[] {
  for (let t: string | undefined = typeName; t; ) {
    const nt = MODEL.get(t);
    if (nt?.kind !== 'complex') return [];
    if (nt.rejection !== undefined) return nt.fields.flatMap((f) => (f.kind === 'element' ? [f.name] : []));
    t = nt.base;
  }
  return [];
}

/** True where the content of an element of this type is not shown at all: any content, nil included. */
export function contentNotShown(t: TypeRef): boolean {
  return t === 'anyType';
}

/** Value types: always written by the serializer (never left out as a null is). */
export function isValueType(t: TypeRef): boolean {
  if (t === 'string' || t === 'anyType' || t === 'intList') return false;
  if (isSimple(t)) return true;
  return MODEL.get(t)?.kind === 'enum';
}

/** True when the type is `base` or extends it (through any number of extensions). */
export function extendsType(typeName: string, base: string): boolean {
  for (let t: string | undefined = typeName; t; ) {
    if (t === base) return true;
    const nt = MODEL.get(t);
    t = nt?.kind === 'complex' ? nt.base : undefined;
  }
  return false;
}

export function allTypes(): NamedType[] {
  return TYPES;
}
