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
  /** Decides the host (base URL) and the service paths the operation is reached at (section 4). */
  readonly group: Group;
  /** ASMX service the operation is published on (WSDL service name). */
  readonly service: 'Booking' | 'NonStaticXMLAPI';
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

/** Where one group's operations are served: the SOAP bindings' service path, and the HTTP GET/POST one. */
export interface GroupPaths {
  readonly soap: string;
  readonly http: string;
}
/** The service paths of each group: configuration of a target (and of the mock). */
export type ServicePaths = Readonly<Record<Group, GroupPaths>>;

const BOOKING_PATH = '/1/SOAP/Booking.asmx';
const SEARCH_PATH = '/1/SOAP/NonStaticXMLAPI.asmx';

/**
 * Section 4's service paths, the default of every target and of the mock: the only place a version
 * segment is written. Deployments differ (GET/POST under another path than SOAP, one path for all
 * operations): every path is configuration (--book-path, --book-http-path, ...).
 */
export const DEFAULT_PATHS: ServicePaths = {
  booking: { soap: BOOKING_PATH, http: BOOKING_PATH },
  reference: { soap: SEARCH_PATH, http: SEARCH_PATH },
  // Path and host of SearchTransfers: not shown (section 4.3); the NonStaticXMLAPI service's.
  transfers: { soap: SEARCH_PATH, http: SEARCH_PATH },
};

/** Paths a user gave, per group: any may be missing. */
export type GivenPaths = Partial<Record<Group, { readonly soap?: string; readonly http?: string }>>;

/**
 * The service paths from the ones given: section 4's by default; a group's HTTP path defaults to its
 * SOAP path, and the transfers paths (not shown) to the reference-data ones, as the transfers URL
 * defaults to the search URL.
 */
export function resolvePaths(given: GivenPaths): ServicePaths {
  const group = (g: 'booking' | 'reference') => ({
    soap: given[g]?.soap ?? DEFAULT_PATHS[g].soap,
    http: given[g]?.http ?? given[g]?.soap ?? DEFAULT_PATHS[g].http,
  });
  const booking = group('booking');
  const reference = group('reference');
  const t = given.transfers;
  return {
    booking,
    reference,
    transfers: { soap: t?.soap ?? reference.soap, http: t?.http ?? t?.soap ?? reference.http },
  };
}

/** Why a text is not a service path (absolute, no query, fragment or white space), or undefined. */
export function servicePathProblem(path: string): string | undefined {
  return /^\/[^\s?#]*[^\s?#/]$/.test(path)
    ? undefined
    : 'a service path starts with "/" and has no query, fragment, spaces or trailing "/"';
}

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
    name,
    group: 'booking',
    service: 'Booking',
    ns: 'book',
    params: [...credentials, ...params],
    resultElement,
    resultType,
    resultNillable: false,
    mutates,
    source: 'section 4.1',
  };
}

function reference(name: string, params: Param[], resultElement: string, resultType: string): Operation {
  return {
    name,
    group: 'reference',
    service: 'NonStaticXMLAPI',
    ns: 'search',
    params: [...credentials, ...params],
    resultElement,
    resultType,
    resultNillable: false,
    mutates: false,
    source: 'section 4.2',
  };
}

const SEARCH_TRANSFERS_PARAMS = [
  'userName',
  'password',
  'language',
  'currencies',
  'hotelID',
  'roomID',
  'bookingID',
  'resortID',
  'transferID',
  'arrivalDate',
  'arrivalTime',
  'returnDepartureDate',
  'returnDepartureTime',
].map((name) => s(name, false));

/** The 14 operations, in the contract's order. */
export const OPERATIONS: readonly Operation[] = [
  booking(
    'AmendmentPriceRequest',
    [s('bookingID'), typed('checkInDate', 'dateTime'), typed('checkOutDate', 'dateTime'), s('language')],
    'amendmentPriceRequestResult',
    'AmendmentPriceRequestResult',
    false,
  ),
  booking(
    'AmendmentRequest',
    [
      s('bookingID'),
      typed('roomId', 'int'),
      typed('checkInDate', 'dateTime'),
      typed('checkOutDate', 'dateTime'),
      typed('maxPrice', 'decimal'),
      s('language'),
      s('bookingType'),
    ],
    'amendmentRequestResult',
    'AmendmentRequestResult',
    true,
  ),
  booking('CancelBooking', [s('bookingID'), s('language')], 'result', 'CancelBookingResult', true),
  booking(
    'CancelTransferBooking',
    [s('language'), s('email'), s('transferBookingID')],
    'cancelTransferBookingResult',
    'CancelTransferBookingResult',
    true,
  ),
  booking(
    'UpdateSpecialRequest',
    [typed('bookingId', 'int'), s('text')],
    'updateSpecialRequestResult',
    'UpdateSpecialRequestResult',
    true,
  ),
  booking(
    'GetSpecialRequest',
    [typed('bookingId', 'int')],
    'getSpecialRequestResult',
    'GetSpecialRequestResult',
    false,
  ),
  reference('GetMeals', [s('language')], 'getMealsResult', 'GetMealsResult'),
  reference('GetRoomTypes', [s('language')], 'getRoomTypesResult', 'GetRoomTypesResult'),
  reference('GetLanguages', [], 'getLanguagesResult', 'GetLanguagesResult'),
  reference('GetHotelNoteTypes', [s('language')], 'getHotelNoteTypesResult', 'GetHotelNoteTypesResult'),
  reference('GetRoomNoteTypes', [s('language')], 'getRoomNoteTypesResult', 'GetRoomNoteTypesResult'),
  reference('GetThemes', [], 'getThemesResult', 'GetThemesResult'),
  reference('GetFeatures', [s('language')], 'getFeaturesResult', 'GetFeaturesResult'),
  {
    name: 'SearchTransfers',
    group: 'transfers',
    service: 'NonStaticXMLAPI',
    ns: 'search',
    params: SEARCH_TRANSFERS_PARAMS,
    resultElement: 'searchTransfersResult',
    resultType: 'SearchTransfersResult',
    resultNillable: true,
    mutates: false,
    source:
      'section 4.3 (path and host not shown: served on the NonStaticXMLAPI path of the transfers URL, '
      + 'which defaults to the search URL)',
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
export const GROUPS: readonly Group[] = ['booking', 'reference', 'transfers'];

/** Binding identifiers used everywhere (flags, reports, findings). */
export const BINDINGS = ['soap11', 'soap12', 'get', 'post'] as const;
export type BindingId = (typeof BINDINGS)[number];

/** Embedded mock's default namespaces; any target's namespaces are configuration. */
export const DEFAULT_NAMESPACES: Record<NsKey, string> = {
  book: 'http://mock.accommodation.test/book/1/',
  search: 'http://mock.accommodation.test/search/1/',
};
export type Namespaces = Record<NsKey, string>;
