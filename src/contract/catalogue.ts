/**
 * The operation catalogue: the one table of the contract's 14 operations (section 4).
 * Request encoders, the mock's routes, the WSDL, the test matrix and the report rows are all
 * derived from this table; no other file lists operations.
 */

/** Group of an operation: decides the host it lives on (section 4). */
export type Group = 'booking' | 'reference' | 'transfers';
/** Which configured namespace an operation's messages use. */
export type NsKey = 'book' | 'search';
/** SOAP types of request parameters (section 4.1 to 4.3). */
export type ParamType = 'string' | 'int' | 'decimal' | 'dateTime';

export interface Param {
  readonly name: string;
  readonly type: ParamType;
  /** The service needs it: GET/POST reject a request without it, SOAP rejects a missing typed one. */
  readonly required: boolean;
}

export interface Operation {
  readonly name: string;
  readonly group: Group;
  /** ASMX service the operation is published on (WSDL service name and path segment). */
  readonly service: 'Booking' | 'NonStaticXMLAPI';
  readonly path: string;
  readonly ns: NsKey;
  readonly params: readonly Param[];
  /** Element holding the result: the child of <Operation>Response (SOAP), the document root (GET/POST). */
  readonly resultElement: string;
  /** Type of the result element in the type model (src/contract/model.ts). */
  readonly resultType: string;
  /** Whether the result element may be nil (section 4.3: searchTransfersResult). */
  readonly resultNillable: boolean;
  /** Changes state on the target: never called on a real target without --allow-mutations. */
  readonly mutates: boolean;
  /** The contract sentence the row comes from, quoted in reports. */
  readonly source: string;
}

const BOOKING_PATH = '/1/SOAP/Booking.asmx';
const SEARCH_PATH = '/1/SOAP/NonStaticXMLAPI.asmx';

const s = (name: string, required = true): Param => ({ name, type: 'string', required });
const typed = (name: string, type: ParamType): Param => ({ name, type, required: true });
const credentials = [s('userName'), s('password')];

function booking(
  name: string,
  params: Param[],
  resultElement: string,
  resultType: string,
  mutates: boolean,
): Operation {
  return {
    name, group: 'booking', service: 'Booking', path: BOOKING_PATH, ns: 'book',
    params: [...credentials, ...params], resultElement, resultType, resultNillable: false, mutates,
    source: 'section 4.1',
  };
}

function reference(name: string, params: Param[], resultElement: string, resultType: string): Operation {
  return {
    name, group: 'reference', service: 'NonStaticXMLAPI', path: SEARCH_PATH, ns: 'search',
    params: [...credentials, ...params], resultElement, resultType, resultNillable: false, mutates: false,
    source: 'section 4.2',
  };
}

const SEARCH_TRANSFERS_PARAMS = [
  'userName', 'password', 'language', 'currencies', 'hotelID', 'roomID', 'bookingID', 'resortID',
  'transferID', 'arrivalDate', 'arrivalTime', 'returnDepartureDate', 'returnDepartureTime',
].map((name) => s(name, false));

/** The 14 operations, in the contract's order. */
export const OPERATIONS: readonly Operation[] = [
  booking('AmendmentPriceRequest', [s('bookingID'), typed('checkInDate', 'dateTime'), typed('checkOutDate', 'dateTime'), s('language')],
    'amendmentPriceRequestResult', 'AmendmentPriceRequestResult', false),
  booking('AmendmentRequest', [s('bookingID'), typed('roomId', 'int'), typed('checkInDate', 'dateTime'), typed('checkOutDate', 'dateTime'),
    typed('maxPrice', 'decimal'), s('language'), s('bookingType')],
  'amendmentRequestResult', 'AmendmentRequestResult', true),
  booking('CancelBooking', [s('bookingID'), s('language')], 'result', 'CancelBookingResult', true),
  booking('CancelTransferBooking', [s('language'), s('email'), s('transferBookingID')],
    'cancelTransferBookingResult', 'CancelTransferBookingResult', true),
  booking('UpdateSpecialRequest', [typed('bookingId', 'int'), s('text')], 'updateSpecialRequestResult', 'UpdateSpecialRequestResult', true),
  booking('GetSpecialRequest', [typed('bookingId', 'int')], 'getSpecialRequestResult', 'GetSpecialRequestResult', false),
  reference('GetMeals', [s('language')], 'getMealsResult', 'GetMealsResult'),
  reference('GetRoomTypes', [s('language')], 'getRoomTypesResult', 'GetRoomTypesResult'),
  reference('GetLanguages', [], 'getLanguagesResult', 'GetLanguagesResult'),
  reference('GetHotelNoteTypes', [s('language')], 'getHotelNoteTypesResult', 'GetHotelNoteTypesResult'),
  reference('GetRoomNoteTypes', [s('language')], 'getRoomNoteTypesResult', 'GetRoomNoteTypesResult'),
  reference('GetThemes', [], 'getThemesResult', 'GetThemesResult'),
  reference('GetFeatures', [s('language')], 'getFeaturesResult', 'GetFeaturesResult'),
  {
    name: 'SearchTransfers', group: 'transfers', service: 'NonStaticXMLAPI', path: SEARCH_PATH, ns: 'search',
    params: SEARCH_TRANSFERS_PARAMS, resultElement: 'searchTransfersResult', resultType: 'SearchTransfersResult',
    resultNillable: true, mutates: false,
    source: 'section 4.3 (path and host not shown: served on the NonStaticXMLAPI path of the transfers URL, which defaults to the search URL)',
  },
];

const BY_NAME = new Map(OPERATIONS.map((op) => [op.name, op]));

/** The operation of that exact (case-sensitive) name, or undefined. */
export function findOperation(name: string): Operation | undefined {
  return BY_NAME.get(name);
}

/** The operations published on one ASMX service (one WSDL). */
export function operationsOf(service: Operation['service']): Operation[] {
  return OPERATIONS.filter((op) => op.service === service);
}

export const SERVICES = ['Booking', 'NonStaticXMLAPI'] as const;
export const SERVICE_PATHS: Record<Operation['service'], string> = { Booking: BOOKING_PATH, NonStaticXMLAPI: SEARCH_PATH };

/** Binding identifiers used everywhere (flags, reports, findings). */
export const BINDINGS = ['soap11', 'soap12', 'get', 'post'] as const;
export type BindingId = (typeof BINDINGS)[number];
export const SOAP_BINDINGS: readonly BindingId[] = ['soap11', 'soap12'];
export const BINDING_LABELS: Record<BindingId, string> = {
  soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', get: 'HTTP GET', post: 'HTTP POST',
};

/** Embedded mock's default namespaces; any target's namespaces are configuration. */
export const DEFAULT_NAMESPACES: Record<NsKey, string> = {
  book: 'http://mock.accommodation.test/book/1/',
  search: 'http://mock.accommodation.test/search/1/',
};
export type Namespaces = Record<NsKey, string>;
