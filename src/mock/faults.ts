/**
 * Fault injection: a catalogue of named contract violations the mock can commit on request
 * (`npm run mock -- --fault NAME`, `startMock({ faults: [NAME] })`, `createHandlers({ faults })`).
 * The self-test (suites/self-test.test.ts) runs the harness against every entry and requires each
 * to be caught and pinpointed: a finding on the fault's operation and binding(s), none elsewhere;
 * but for an entry marked `undetectable` (its reason given), whose run must raise no finding at all.
 *
 * Each fault is ONE violation, confined to one operation and the bindings it names. Adding a fault
 * is adding one entry to FAULTS; the self-test and `--list-faults` pick it up.
 * This file is that table and nothing else (data): what a fault is and what its hooks are given is
 * ./fault-types.ts; the builders its entries share, ./fault-helpers.ts; the catalogue read (a fault by
 * name, `--list-faults`, the catalogue's own problems), ./fault-lookup.ts.
 *
 * Hook points, in the order the mock calls them (src/mock/handlers.ts, `serve`):
 *   request  the incoming request before decoding (used only when the rewritten request decodes to
 *            the fault's operation: e.g. a wrong SOAPAction made to look right);
 *   params   the decoded parameters before they are checked (a bad request or wrong credentials
 *            turned into a valid call, so it is answered with data);
 *   value    the result data before serialisation (after the documented per-binding adjustment);
 *   options  the serialisation options (namespace, prefixes; strict is off whenever a fault is on);
 *   xml      the serialised result element;
 *   body     the whole body text; status; headers;
 *   response the whole response, whose body may be bytes (truncation, another charset's bytes).
 * The last four see every response of the operation on the binding; `ctx.kind` tells a result with
 * data from an in-band Error and from a rejection.
 *
 * Stateful faults (`stateful: true`, issue 23) have one more hook, `state`: on a valid call of their
 * operation through their bindings it wraps the store (src/mock/state.ts) the call reads and
 * changes. They show only in a sequence of calls; the self-test leaves them to the engine's sequences.
 */
import { binding as bindingModule } from '../bindings/index.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../xml/tree.js';
import type { Fault } from './fault-types.js';
import {
  acceptsLogin,
  answerOfOther,
  beforeClose,
  defaultParam,
  echoPage,
  edit,
  FETCHED_MARKER,
  firstElement,
  ignoresOwnership,
  isDateTime,
  isInt,
  mapStrings,
  nextBookingId,
  nextDayIfLate,
  NIL_MARK,
  NIL_PASSWORD,
  onData,
  processDoctype,
  RACE_WINDOW_MS,
  renameAll,
  renameRoot,
  rightCredentials,
  sameEmail,
  store,
  stripDeclaration,
  toMock,
  within,
} from './fault-helpers.js';
import { errorResult } from './real-style.js';
import type { Value } from './serialize.js';

export const FAULTS: readonly Fault[] = [
  // status codes
  {
    name: 'status-202-on-valid-call',
    category: 'status',
    operation: 'GetLanguages',
    bindings: ['get'],
    description: 'a valid call is answered with 202 Accepted (the result still in the body)',
    apply: { status: onData(() => 202) },
  },
  {
    name: 'status-500-with-result',
    category: 'status',
    operation: 'GetMeals',
    bindings: ['soap11'],
    description: 'a valid call is answered with 500 although the body holds the normal result',
    apply: { status: onData(() => 500) },
  },

  // media types and charset
  {
    name: 'media-type-text-xml-on-soap12',
    category: 'media-type',
    operation: 'GetThemes',
    bindings: ['soap12'],
    description: 'SOAP 1.2 result sent as text/xml instead of application/soap+xml',
    apply: { headers: onData((h) => ({ ...h, 'content-type': 'text/xml; charset=utf-8' })) },
  },
  {
    name: 'media-type-application-xml-on-post',
    category: 'media-type',
    operation: 'GetFeatures',
    bindings: ['post'],
    description: 'HTTP POST result sent as application/xml instead of text/xml',
    apply: { headers: onData((h) => ({ ...h, 'content-type': 'application/xml; charset=utf-8' })) },
  },
  {
    name: 'charset-iso-8859-1',
    category: 'media-type',
    operation: 'GetRoomNoteTypes',
    bindings: ['post'],
    description: 'Content-Type says charset=iso-8859-1 over a UTF-8 body declared utf-8',
    apply: { headers: onData((h) => ({ ...h, 'content-type': 'text/xml; charset=iso-8859-1' })) },
  },
  {
    name: 'charset-missing',
    category: 'media-type',
    operation: 'GetHotelNoteTypes',
    bindings: ['get'],
    description: 'Content-Type text/xml without the charset parameter',
    apply: { headers: onData((h) => ({ ...h, 'content-type': 'text/xml' })) },
  },

  // envelope version and framing
  {
    name: 'soap11-envelope-on-soap12',
    category: 'envelope',
    operation: 'GetRoomNoteTypes',
    bindings: ['soap12'],
    description: 'the SOAP 1.2 binding answers with a SOAP 1.1 envelope',
    apply: { body: onData((b) => b.split(SOAP12_ENV_NS).join(SOAP11_ENV_NS)) },
  },
  {
    name: 'soap12-envelope-on-soap11',
    category: 'envelope',
    operation: 'CancelTransferBooking',
    bindings: ['soap11'],
    description: 'the SOAP 1.1 binding answers with a SOAP 1.2 envelope',
    apply: { body: onData((b) => b.split(SOAP11_ENV_NS).join(SOAP12_ENV_NS)) },
  },
  {
    name: 'get-result-in-envelope',
    category: 'envelope',
    operation: 'GetThemes',
    bindings: ['get'],
    description: 'HTTP GET result wrapped in a SOAP 1.1 envelope instead of being the document root',
    apply: { body: onData((b, c) => bindingModule('soap11').encodeResult(c.op, stripDeclaration(b), c.ns).body) },
  },
  {
    name: 'post-result-in-envelope',
    category: 'envelope',
    operation: 'GetSpecialRequest',
    bindings: ['post'],
    description: 'HTTP POST result wrapped in a SOAP 1.2 envelope instead of being the document root',
    apply: { body: onData((b, c) => bindingModule('soap12').encodeResult(c.op, stripDeclaration(b), c.ns).body) },
  },
  {
    name: 'soap-fault-in-200',
    category: 'envelope',
    operation: 'GetMeals',
    bindings: ['soap12'],
    description: 'a valid call is answered with a SOAP Fault under status 200',
    apply: {
      response: onData((_r, c) =>
        toMock(bindingModule(c.binding).encodeFault(200, 'Server was unable to process request.', 'server')),
      ),
    },
  },

  // wrapper and result element
  {
    name: 'missing-response-wrapper',
    category: 'result-element',
    operation: 'GetLanguages',
    bindings: ['soap11'],
    description: 'the Body holds getLanguagesResult directly, without GetLanguagesResponse',
    apply: {
      options: (o) => ({ ...o, declareNamespace: true }),
      body: onData((b, c) =>
        b.replace(new RegExp(`<${c.op.name}Response[^>]*>`), '').replace(`</${c.op.name}Response>`, ''),
      ),
    },
  },
  {
    name: 'renamed-response-wrapper',
    category: 'result-element',
    operation: 'GetRoomTypes',
    bindings: ['soap12'],
    description: 'the wrapper is named GetRoomTypesReply instead of GetRoomTypesResponse',
    apply: { body: onData((b) => b.replace(/(<\/?)GetRoomTypesResponse/g, '$1GetRoomTypesReply')) },
  },
  {
    name: 'renamed-result-element',
    category: 'result-element',
    operation: 'GetSpecialRequest',
    bindings: ['soap11'],
    description: 'the result element is named specialRequestResult instead of getSpecialRequestResult',
    apply: { xml: onData((x) => renameRoot(x, 'getSpecialRequestResult', 'specialRequestResult')) },
  },
  {
    name: 'cancel-booking-result-renamed',
    category: 'result-element',
    operation: 'CancelBooking',
    bindings: 'all',
    description: "CancelBooking's result element is named cancelBookingResult instead of result (section 4.1)",
    apply: { xml: onData((x) => renameRoot(x, 'result', 'cancelBookingResult')) },
  },
  {
    name: 'result-root-renamed',
    category: 'result-element',
    operation: 'GetFeatures',
    bindings: ['post'],
    description: 'the HTTP POST document root is featuresResult instead of getFeaturesResult',
    apply: { xml: onData((x) => renameRoot(x, 'getFeaturesResult', 'featuresResult')) },
  },
  {
    name: 'result-element-nil',
    category: 'result-element',
    operation: 'GetThemes',
    bindings: ['soap11'],
    description: 'the result element getThemesResult is nil, which only searchTransfersResult may be',
    apply: { value: (v, c) => (c.kind === 'data' ? null : v) },
  },

  // namespaces
  {
    name: 'namespace-version-2',
    category: 'namespace',
    operation: 'AmendmentPriceRequest',
    bindings: ['post'],
    description: 'the result is in the booking namespace of version 2/ instead of 1/',
    apply: { options: (o, c) => (c.kind === 'data' ? { ...o, ns: o.ns.replace(/1\/$/, '2/') } : o) },
  },
  {
    name: 'namespace-other-group',
    category: 'namespace',
    operation: 'GetMeals',
    bindings: ['get'],
    description: 'the reference-data result is in the booking namespace',
    apply: { options: (o, c) => (c.kind === 'data' ? { ...o, ns: c.namespaces.book } : o) },
  },

  // required content, nil
  {
    name: 'missing-required-element',
    category: 'required',
    operation: 'GetMeals',
    bindings: ['get'],
    description: 'a meal item lacks its required id element (an int: value types are always written)',
    apply: {
      value: edit((v) => {
        v.meals[0].id = undefined;
      }),
    },
  },
  {
    name: 'missing-required-element-code',
    category: 'required',
    operation: 'CancelTransferBooking',
    bindings: ['soap12'],
    description: 'cancelTransferBookingResult lacks its required code element (an int) without an Error',
    apply: {
      value: edit((v) => {
        v.code = undefined;
      }),
    },
  },
  {
    name: 'missing-required-attribute',
    category: 'required',
    operation: 'GetHotelNoteTypes',
    bindings: ['post'],
    description: 'a noteType item lacks its required id attribute',
    apply: {
      value: edit((v) => {
        v.noteTypes[0].id = undefined;
      }),
    },
  },
  {
    name: 'required-nillable-absent',
    category: 'nil',
    operation: 'GetRoomTypes',
    bindings: ['soap11'],
    description: 'sharedFacilities (req, nillable) is left out instead of being written nil',
    apply: {
      value: edit((v) => {
        for (const r of v.roomTypes) r.sharedFacilities = undefined;
      }),
    },
  },
  {
    name: 'empty-value-without-nil',
    category: 'nil',
    operation: 'GetRoomTypes',
    bindings: ['get'],
    description: 'sharedFacilities (int) written as an empty element without xsi:nil',
    apply: {
      value: edit((v) => {
        v.roomTypes[0].sharedFacilities = '';
      }),
    },
  },
  {
    name: 'nil-on-non-nillable',
    category: 'nil',
    operation: 'GetSpecialRequest',
    bindings: ['soap12'],
    description: 'text (req, not nillable) is written xsi:nil',
    apply: {
      value: edit((v) => {
        v.text = null;
      }),
    },
  },

  // enumerations and lexical forms
  {
    name: 'booking-type-outside-enumeration',
    category: 'enumeration',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap11'],
    description: 'BookingType holds PartialPeriod, not one of FullPeriod, ExtraDays, NoAmendmentAvailable',
    apply: {
      value: edit((v) => {
        v.BookingType = 'PartialPeriod';
      }),
    },
  },
  {
    name: 'booking-status-outside-enumeration',
    category: 'enumeration',
    operation: 'AmendmentRequest',
    bindings: ['get'],
    description: 'AmendmentBooking/bookingStatus holds Cancelled, not one of NotActive, Active',
    apply: {
      value: edit((v) => {
        v.AmendmentBooking.bookingStatus = 'Cancelled';
      }),
    },
  },
  {
    name: 'malformed-int',
    category: 'lexical',
    operation: 'UpdateSpecialRequest',
    bindings: ['post'],
    description: 'resultCode (int) holds "OK"',
    apply: {
      value: edit((v) => {
        v.resultCode = 'OK';
      }),
    },
  },
  {
    name: 'malformed-decimal',
    category: 'lexical',
    operation: 'CancelTransferBooking',
    bindings: ['get'],
    description: 'cancellationFeeInEuros (decimal) written with a decimal comma, "12,50"',
    apply: {
      value: edit((v) => {
        v.cancellationFeeInEuros = '12,50';
      }),
    },
  },
  {
    name: 'malformed-datetime',
    category: 'lexical',
    operation: 'AmendmentRequest',
    bindings: ['soap12'],
    description: 'currentCancellationPolicyDeadline (dateTime) written "31.12.2025 12:00"',
    apply: {
      value: edit((v) => {
        v.OriginalBooking.currentCancellationPolicyDeadline = '31.12.2025 12:00';
      }),
    },
  },
  {
    name: 'int-out-of-range',
    category: 'lexical',
    operation: 'GetThemes',
    bindings: ['post'],
    description: 'a theme id attribute holds 2147483648, outside xs:int',
    apply: {
      value: edit((v) => {
        v.themes[0].id = '2147483648';
      }),
    },
  },

  // structure
  {
    name: 'duplicated-singleton',
    category: 'structure',
    operation: 'GetSpecialRequest',
    bindings: ['get'],
    description: 'the text element appears twice in getSpecialRequestResult',
    apply: {
      xml: onData((x) => {
        const t = firstElement(x, 'text');
        return t ? x.replace(t, t + t) : x;
      }),
    },
  },
  {
    name: 'unknown-element-in-closed-type',
    category: 'structure',
    operation: 'CancelTransferBooking',
    bindings: ['post'],
    description: 'an undocumented element refundable in cancelTransferBookingResult, a closed type',
    apply: { xml: onData((x) => beforeClose(x, '<refundable>true</refundable>')) },
  },
  {
    name: 'element-name-wrong-case',
    category: 'structure',
    operation: 'GetLanguages',
    bindings: ['post'],
    description: 'every isoCode element is written IsoCode',
    apply: { xml: onData((x) => renameAll(x, 'isoCode', 'IsoCode')) },
  },
  {
    name: 'elements-out-of-order',
    category: 'structure',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap11'],
    description: 'resultMessage written before resultCode',
    apply: {
      xml: onData((x) => {
        const code = firstElement(x, 'resultCode');
        const message = firstElement(x, 'resultMessage');
        return code && message ? x.replace(code, '\u0000').replace(message, code).replace('\u0000', message) : x;
      }),
    },
  },
  {
    name: 'unknown-attribute-on-closed-type',
    category: 'structure',
    operation: 'GetFeatures',
    bindings: ['soap11'],
    description: 'a feature item carries an undocumented attribute lang',
    apply: { xml: onData((x) => x.replace(/<((?:[\w.-]+:)?)feature(?=[\s/>])/, '<$1feature lang="de"')) },
  },

  // encoding and bytes
  {
    name: 'declared-encoding-contradicts-bytes',
    category: 'encoding',
    operation: 'GetFeatures',
    bindings: ['get'],
    description: 'the XML declaration says ISO-8859-1 over UTF-8 bytes served as charset=utf-8',
    apply: { body: onData((b) => b.replace(/^(<\?xml[^>]*encoding=)(["'])[^"']*\2/, '$1"ISO-8859-1"')) },
  },
  {
    name: 'latin1-bytes-declared-utf8',
    category: 'encoding',
    operation: 'GetMeals',
    bindings: ['post'],
    description: 'the body bytes are ISO-8859-1 while header and declaration say utf-8',
    apply: {
      response: onData((r) => ({ ...r, body: typeof r.body === 'string' ? Buffer.from(r.body, 'latin1') : r.body })),
    },
  },
  {
    name: 'truncated-body',
    category: 'encoding',
    operation: 'GetRoomNoteTypes',
    bindings: ['get'],
    description: 'the body is cut off in the middle of the document',
    apply: {
      response: onData((r) => {
        const b = Buffer.from(r.body);
        return { ...r, body: b.subarray(0, Math.floor(b.length / 2)) };
      }),
    },
  },
  {
    name: 'empty-body',
    category: 'encoding',
    operation: 'GetHotelNoteTypes',
    bindings: ['soap11'],
    description: 'a valid call is answered 200 with an empty body',
    apply: { body: onData(() => '') },
  },
  {
    name: 'unescaped-ampersand',
    category: 'encoding',
    operation: 'GetLanguages',
    bindings: ['soap12'],
    description: 'a language name holds a raw & (not well-formed XML)',
    apply: { xml: onData((x) => x.replace(/<\/((?:[\w.-]+:)?)name>/, ' & Co</$1name>')) },
  },

  // a binding missing, the documented difference broken
  {
    name: 'binding-missing-404',
    category: 'status',
    operation: 'GetHotelNoteTypes',
    bindings: ['soap12'],
    description: 'the SOAP 1.2 binding of the operation is not served: 404 for every call',
    apply: {
      response: () => ({
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><body>404 Not Found</body></html>',
      }),
    },
  },
  {
    name: 'active-cancellation-policy-text-in-soap',
    category: 'binding-rules',
    operation: 'CancelBooking',
    bindings: ['soap11'],
    description: 'activecancellationpolicy holds text in SOAP 1.1, where the contract shows it nil',
    apply: {
      value: edit((v) => {
        for (const m of v.CancellationPaymentMethod)
          for (const k of m.cancellation) k.activecancellationpolicy = 'Free cancellation';
      }),
    },
  },
  {
    name: 'active-cancellation-policy-nil-in-get',
    category: 'binding-rules',
    operation: 'CancelBooking',
    bindings: ['get'],
    description: 'activecancellationpolicy is nil in HTTP GET, where the contract shows child text',
    apply: {
      value: edit((v) => {
        for (const m of v.CancellationPaymentMethod) for (const k of m.cancellation) k.activecancellationpolicy = null;
      }),
    },
  },

  // one binding answers differently
  {
    name: 'soap12-drops-list-item',
    category: 'equivalence',
    operation: 'GetMeals',
    bindings: ['soap12'],
    description: 'SOAP 1.2 leaves the last meal out of the list the other bindings return',
    apply: {
      value: edit((v) => {
        v.meals.pop();
      }),
    },
  },
  {
    name: 'post-changes-attribute-value',
    category: 'equivalence',
    operation: 'GetHotelNoteTypes',
    bindings: ['post'],
    description: 'HTTP POST returns another id attribute on the second noteType',
    apply: {
      value: edit((v) => {
        v.noteTypes[1].id = Number(v.noteTypes[1].id) + 1000;
      }),
    },
  },
  {
    name: 'soap11-different-price',
    category: 'equivalence',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap11'],
    description: 'SOAP 1.1 quotes a price one unit higher than the other bindings',
    apply: {
      value: edit((v) => {
        const t = String(v.Price.$text);
        v.Price.$text = (Number(t) + 1).toFixed(t.split('.')[1]?.length ?? 0);
      }),
    },
  },
  {
    name: 'get-extra-list-item',
    category: 'equivalence',
    operation: 'GetThemes',
    bindings: ['get'],
    description: 'HTTP GET returns one theme more than the other bindings',
    apply: {
      value: edit((v) => {
        v.themes.push({ id: 9901, name: 'Rooftop bars' });
      }),
    },
  },
  {
    name: 'soap12-different-text',
    category: 'equivalence',
    operation: 'SearchTransfers',
    bindings: ['soap12'],
    description: 'SOAP 1.2 names the first airport differently from the other bindings',
    apply: {
      value: edit((v) => {
        if (v.airports?.[0]) v.airports[0].airportName = 'Somewhere Else Intl';
      }),
    },
  },

  // wrong credentials answered with data
  {
    name: 'wrong-credentials-answered-with-data',
    category: 'credentials',
    operation: 'GetSpecialRequest',
    bindings: ['get'],
    description: 'HTTP GET answers a call with a wrong password with the data and no Error element',
    apply: { params: rightCredentials },
  },
  {
    name: 'wrong-credentials-error-with-data',
    category: 'credentials',
    operation: 'GetRoomTypes',
    bindings: ['post'],
    description: 'HTTP POST answers a wrong password with an in-band Error and the room types as well',
    apply: {
      value: (v, c) =>
        c.kind === 'in-band-error' ? ({ ...(c.validValue() as object), ...(v as object) } as Value) : v,
    },
  },
  {
    name: 'wrong-credentials-transfers-error-with-data',
    category: 'credentials',
    operation: 'SearchTransfers',
    bindings: ['get'],
    description:
      'HTTP GET answers SearchTransfers with a wrong password with an in-band Error and the airports as well',
    apply: {
      value: (v, c) =>
        c.kind === 'in-band-error' ? ({ ...(c.validValue() as object), ...(v as object) } as Value) : v,
    },
  },
  {
    name: 'wrong-credentials-transfers-data',
    category: 'credentials',
    operation: 'SearchTransfers',
    bindings: ['soap11'],
    description: 'SOAP 1.1 answers SearchTransfers with a wrong password with airports and no Error',
    apply: { params: rightCredentials },
  },

  // bad requests answered with data
  {
    name: 'unparsable-booking-id-answered',
    category: 'bad-request',
    operation: 'GetSpecialRequest',
    bindings: ['soap12'],
    description: 'an unparsable bookingId (int) is read as 0 and answered with data',
    apply: { params: defaultParam('bookingId', '0', isInt) },
  },
  {
    name: 'missing-booking-id-answered',
    category: 'bad-request',
    operation: 'UpdateSpecialRequest',
    bindings: ['get'],
    description: 'a call without its required bookingId is answered with data',
    apply: { params: defaultParam('bookingId', '0', isInt) },
  },
  {
    name: 'unparsable-date-answered',
    category: 'bad-request',
    operation: 'AmendmentPriceRequest',
    bindings: ['post'],
    description: 'an unparsable checkInDate is read as a default date and answered with data',
    apply: { params: defaultParam('checkInDate', '2025-01-01T00:00:00', isDateTime) },
  },
  {
    name: 'wrong-soapaction-answered',
    category: 'bad-request',
    operation: 'GetMeals',
    bindings: ['soap11'],
    description: 'a SOAP 1.1 call whose SOAPAction names another operation is answered with data',
    apply: { request: (req, c) => ({ ...req, headers: { ...req.headers, soapaction: `"${c.ns}${c.op.name}"` } }) },
  },
  {
    name: 'soapaction-dispatch-ignores-body',
    category: 'bad-request',
    operation: 'GetHotelNoteTypes',
    bindings: ['soap11'],
    description:
      "a SOAP 1.1 call whose SOAPAction does not match its body is answered with another operation's "
      + 'data (GetLanguages)',
    apply: {
      request: (req, c) => ({ ...req, headers: { ...req.headers, soapaction: `"${c.ns}${c.op.name}"` } }),
      response: (r, c) => (c.rewritten ? answerOfOther('GetLanguages', c) : r),
    },
  },

  // XML a SOAP endpoint must refuse (issue 42): a request's DTD processed
  {
    name: 'doctype-internal-entity-expanded',
    category: 'hostile-xml',
    operation: 'GetRoomTypes',
    bindings: ['soap11'],
    description:
      'a SOAP 1.1 request with a DOCTYPE is read with its DTD: its internal entities are expanded and '
      + 'the call answered with data',
    apply: { request: (req) => ({ ...req, body: processDoctype(req.body, false) ?? req.body }) },
  },
  {
    name: 'doctype-external-entity-fetched',
    category: 'hostile-xml',
    operation: 'GetThemes',
    bindings: ['soap12'],
    description:
      'a SOAP 1.2 request with a DOCTYPE is read with its DTD: an external entity at http://127.0.0.1 '
      + 'or localhost is fetched (a real GET) and stands as the user name it served, the call answered '
      + 'with data',
    apply: {
      request: (req) => ({ ...req, body: processDoctype(req.body, true) ?? req.body }),
      params: (p, c) =>
        Object.values(p).includes(FETCHED_MARKER)
          ? Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v === FETCHED_MARKER ? c.credentials.user : v]))
          : p,
    },
  },

  // probes: violations a careless check could let through
  {
    name: 'transfer-missing-known-field',
    category: 'required',
    operation: 'SearchTransfers',
    bindings: ['get'],
    description: 'no transfer has its required estimatedTimeInMinutes (a known field of an open type)',
    apply: {
      value: edit((v) => {
        for (const a of v.airports ?? []) for (const t of a.transfers ?? []) t.estimatedTimeInMinutes = undefined;
      }),
    },
  },
  {
    name: 'post-different-policy-text',
    category: 'equivalence',
    operation: 'CancelBooking',
    bindings: ['post'],
    description:
      'HTTP POST gives another activecancellationpolicy text than HTTP GET would for the same booking '
      + '(the place SOAP shows nil)',
    undetectable:
      'a booking cancels once: GET and POST never cancel the same booking, so no run has two texts of '
      + 'one booking to compare, '
      + "and the text of one booking says nothing about another's (no read operation gives it either: "
      + "AmendmentPriceRequest's "
      + 'cancellation_policies hold a deadline and a percentage, no text)',
    apply: {
      value: edit((v) => {
        for (const m of v.CancellationPaymentMethod)
          for (const k of m.cancellation) k.activecancellationpolicy += ' (conditions apply)';
      }),
    },
  },
  {
    name: 'doctype-in-response',
    category: 'encoding',
    operation: 'GetRoomTypes',
    bindings: ['post'],
    description: 'the document carries a DOCTYPE with an internal entity',
    apply: { body: onData((b) => b.replace(/^(<\?xml[^>]*\?>)/, '$1<!DOCTYPE getRoomTypesResult [<!ENTITY x "y">]>')) },
  },
  {
    name: 'get-ignores-language',
    category: 'equivalence',
    operation: 'GetRoomNoteTypes',
    bindings: ['get'],
    description: 'HTTP GET ignores the language parameter and always answers in English',
    apply: { params: (p) => ({ ...p, language: 'en' }) },
  },
  {
    name: 'unqualified-result-children',
    category: 'namespace',
    operation: 'GetFeatures',
    bindings: ['soap12'],
    description: 'the children of getFeaturesResult are in no namespace (elementFormDefault unqualified)',
    apply: { xml: onData((x) => x.replace(/^(<[^>]*>)<((?:[\w.-]+:)?)features(?=[\s/>])/, '$1<features xmlns=""')) },
  },
  {
    name: 'get-omits-optional-element',
    category: 'equivalence',
    operation: 'SearchTransfers',
    bindings: ['get'],
    description: 'HTTP GET leaves out the optional iataCode of the first airport, which the other bindings give',
    apply: {
      value: edit((v) => {
        if (v.airports?.[0]) v.airports[0].iataCode = undefined;
      }),
    },
  },
  {
    name: 'nil-element-with-content',
    category: 'nil',
    operation: 'GetRoomTypes',
    bindings: ['soap12'],
    description: 'a sharedFacilities element marked xsi:nil still holds a value',
    apply: {
      xml: onData((x) => x.replace(/<((?:[\w.-]+:)?)sharedFacilities>/, '<$1sharedFacilities xsi:nil="true">')),
    },
  },
  {
    name: 'wrong-credentials-empty-result',
    category: 'credentials',
    operation: 'CancelTransferBooking',
    bindings: ['soap11'],
    description:
      'SOAP 1.1 answers a wrong password with 200 and an empty cancelTransferBookingResult, as if it succeeded',
    apply: {
      response: (r, c) =>
        c.kind === 'rejection' && c.params.password !== c.credentials.password
          ? toMock(bindingModule(c.binding).encodeResult(c.op, `<${c.op.resultElement}/>`, c.ns))
          : r,
    },
  },
  {
    name: 'get-reverses-list',
    category: 'equivalence',
    operation: 'GetLanguages',
    bindings: ['get'],
    description: 'HTTP GET lists the languages in reverse order',
    apply: {
      value: edit((v) => {
        v.languages.reverse();
      }),
    },
  },
  {
    name: 'text-in-complex-element',
    category: 'structure',
    operation: 'UpdateSpecialRequest',
    bindings: ['get'],
    description: 'text "OK" directly inside updateSpecialRequestResult, whose type holds only elements',
    apply: { xml: onData((x) => x.replace(/^(<[^>]*>)/, '$1OK')) },
  },
  {
    name: 'extra-element-in-wrapper',
    category: 'result-element',
    operation: 'GetThemes',
    bindings: ['soap12'],
    description: 'GetThemesResponse holds an element besides getThemesResult',
    apply: {
      body: onData((b) =>
        b.replace('</GetThemesResponse>', '<serverTime>2025-01-01T00:00:00</serverTime></GetThemesResponse>'),
      ),
    },
  },
  {
    name: 'soap-header-after-body',
    category: 'envelope',
    operation: 'AmendmentRequest',
    bindings: ['soap11'],
    description: 'the SOAP Header comes after the Body',
    apply: { body: onData((b) => b.replace('</soap:Body>', '</soap:Body><soap:Header/>')) },
  },
  // faults only some inputs trigger (issue 16): the generated cases and the credential variants find them
  {
    name: 'post-plus-literal',
    category: 'input',
    operation: 'AmendmentPriceRequest',
    bindings: ['post'],
    description: 'HTTP POST decodes "+" in a form value literally: a space sent as "+" reaches the service as "+"',
    triggeredBy: 'a string parameter holding a space',
    apply: { params: (p) => mapStrings(p, (v) => v.replace(/ /g, '+')) },
  },
  {
    name: 'get-utf8-as-latin1',
    category: 'input',
    operation: 'UpdateSpecialRequest',
    bindings: ['get'],
    description:
      'HTTP GET decodes percent-encoded UTF-8 as Latin-1: a special request "Zürich" is stored, and '
      + 'read back on every binding, as "ZÃ¼rich"',
    triggeredBy: 'a parameter holding a character beyond ASCII (the text written)',
    apply: { params: (p) => mapStrings(p, (v) => Buffer.from(v, 'utf8').toString('latin1')) },
  },
  {
    name: 'soap12-truncates-long-strings',
    category: 'input',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 cuts string parameters longer than 64 characters to 64: a long special request is '
      + 'stored, and read back on every binding, cut',
    triggeredBy: 'a string parameter longer than 64 characters (the text written)',
    apply: { params: (p) => mapStrings(p, (v) => ([...v].length > 64 ? [...v].slice(0, 64).join('') : v)) },
  },
  {
    name: 'soap11-late-evening-next-day',
    category: 'input',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap11'],
    description: 'SOAP 1.1 shifts a dateTime from 22:00 on to the next day (a time-zone conversion gone wrong)',
    triggeredBy: 'a checkInDate or checkOutDate at 22:00 or later',
    apply: {
      params: (p) => ({ ...p, checkInDate: nextDayIfLate(p.checkInDate), checkOutDate: nextDayIfLate(p.checkOutDate) }),
    },
  },
  {
    name: 'get-rejects-negative-int',
    category: 'input',
    operation: 'GetSpecialRequest',
    bindings: ['get'],
    description: 'HTTP GET rejects a negative bookingId that the other bindings accept',
    triggeredBy: 'a negative bookingId',
    apply: { params: (p) => (/^\s*-\d/.test(p.bookingId ?? '') ? { ...p, bookingId: 'negative' } : p) },
  },
  {
    name: 'post-rejects-int-max',
    category: 'input',
    operation: 'GetSpecialRequest',
    bindings: ['post'],
    description: 'HTTP POST rejects bookingId 2147483647 (the xs:int maximum) that the other bindings accept',
    triggeredBy: 'bookingId 2147483647',
    apply: { params: (p) => (Number(p.bookingId) === 2147483647 ? { ...p, bookingId: 'overflow' } : p) },
  },
  {
    name: 'soap12-ignores-transfer-id',
    category: 'input',
    operation: 'SearchTransfers',
    bindings: ['soap12'],
    description: 'SOAP 1.2 ignores the transferID filter of SearchTransfers',
    triggeredBy: 'a non-empty transferID',
    apply: {
      params: (p) => {
        const { transferID: _ignored, ...rest } = p;
        return rest;
      },
    },
  },
  {
    name: 'empty-password-accepted',
    category: 'credentials',
    operation: 'GetThemes',
    bindings: 'all',
    description: 'the right user name with an empty password is answered with data',
    triggeredBy: 'an empty password',
    apply: { params: (p, c) => (p.password === '' && p.userName === c.credentials.user ? rightCredentials(p, c) : p) },
  },
  {
    name: 'any-user-accepted',
    category: 'credentials',
    operation: 'GetHotelNoteTypes',
    bindings: 'all',
    description: 'the right password is accepted with any user name',
    triggeredBy: 'a wrong user name with the right password',
    apply: { params: (p, c) => (p.password === c.credentials.password ? rightCredentials(p, c) : p) },
  },
  {
    name: 'password-case-insensitive',
    category: 'credentials',
    operation: 'GetRoomTypes',
    bindings: 'all',
    description: 'the password is compared without regard to letter case',
    triggeredBy: 'the right password in other letter case',
    apply: {
      params: (p, c) =>
        p.userName === c.credentials.user && p.password?.toLowerCase() === c.credentials.password.toLowerCase()
          ? rightCredentials(p, c)
          : p,
    },
  },
  {
    name: 'no-credentials-accepted',
    category: 'credentials',
    operation: 'GetFeatures',
    bindings: 'all',
    description: 'a call without userName and password is answered with data',
    triggeredBy: 'neither userName nor password sent',
    apply: { params: (p, c) => (p.userName === undefined && p.password === undefined ? rightCredentials(p, c) : p) },
  },
  {
    name: 'missing-element-for-one-language',
    category: 'input',
    operation: 'GetMeals',
    bindings: 'all',
    description: 'for language "el" the first meal has no id (a required element)',
    triggeredBy: 'language el',
    apply: {
      value: edit((v, c) => {
        if (c.params.language === 'el' && v.meals?.[0]) v.meals[0].id = undefined;
      }),
    },
  },
  {
    name: 'bad-int-in-300th-airport',
    category: 'input',
    operation: 'SearchTransfers',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 writes the resortId (an int) of the 300th airport with a thousands separator '
      + '("70,073"), far down a large result',
    triggeredBy:
      'a result of 300 airports or more: SearchTransfers without resortID, hotelID and bookingID (the broadest result)',
    apply: {
      value: edit((v) => {
        const a = v.airports?.[299];
        if (a) a.resortId = Number(a.resortId).toLocaleString('en-US');
      }),
    },
  },
  {
    name: 'nil-as-empty-for-boundary',
    category: 'input',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 writes the deadline of the last cancellation policy as an empty element, not xsi:nil, '
      + 'when bookingID is "0"',
    triggeredBy: 'bookingID 0',
    apply: {
      value: edit((v, c) => {
        const last = (v.cancellation_policies ?? []).at(-1);
        if (c.params.bookingID?.trim() === '0' && last) last.deadline = '';
      }),
    },
  },
  // Issue 25: inputs a budget of examples may not reach; the coverage cases send each of them once.
  {
    name: 'soap11-drops-note-type-for-one-language',
    category: 'input',
    operation: 'GetRoomNoteTypes',
    bindings: ['soap11'],
    description:
      'SOAP 1.1 answers GetRoomNoteTypes in Turkish ("tr", a language GetLanguages lists) without its last note type',
    triggeredBy: 'language tr',
    apply: {
      value: edit((v, c) => {
        if (c.params.language?.trim() === 'tr') v.noteTypes?.pop();
      }),
    },
  },
  {
    name: 'get-transfer-id-zero-unfiltered',
    category: 'input',
    operation: 'SearchTransfers',
    bindings: ['get'],
    description:
      'HTTP GET takes transferID "0" as "no filter": every airport with every transfer, where the other '
      + 'bindings find no transfer of type 0',
    triggeredBy: 'transferID 0',
    apply: {
      params: (p) => {
        if (p.transferID?.trim() !== '0') return p;
        const { transferID: _zero, ...rest } = p;
        return rest;
      },
    },
  },
  {
    name: 'get-plus-literal-in-list',
    category: 'input',
    operation: 'SearchTransfers',
    bindings: ['get'],
    description:
      'HTTP GET keeps "+" literally in the query (an RFC 3986 reading): a currency list "EUR, SEK", '
      + 'sent as "EUR%2C+SEK", arrives as "EUR,+SEK"',
    triggeredBy: 'a currencies value holding a space',
    apply: { params: (p) => (p.currencies?.includes(' ') ? { ...p, currencies: p.currencies.replace(/ /g, '+') } : p) },
  },

  // Issue 30: identifiers and values of state-changing calls. The probes of an identifier name no
  // booking (each binding its own where a call would use one up), the values of the one booking
  // every binding amends are compared by value, and the languages of the harness's own list go
  // beside the target's: each fault below shows in one of them, against a service where only real
  // bookings exist as against one where any id does.
  {
    name: 'soap12-cuts-long-booking-id',
    category: 'input',
    operation: 'CancelBooking',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 cuts a bookingID longer than 64 characters to 64 before looking it up: a long id is '
      + '"not found" under another id',
    triggeredBy: 'a bookingID longer than 64 characters',
    needsKnownBookings: 'where any id exists, the id cut short is a booking of its own, cancelled like any other',
    apply: {
      params: (p) =>
        p.bookingID !== undefined && [...p.bookingID].length > 64
          ? { ...p, bookingID: [...p.bookingID].slice(0, 64).join('') }
          : p,
    },
  },
  {
    name: 'post-500-on-booking-id-separators',
    category: 'input',
    operation: 'AmendmentRequest',
    bindings: ['post'],
    description: 'HTTP POST answers 500 to a bookingID holding a form or URL separator (& = + # %): its decoder throws',
    triggeredBy: 'a bookingID holding &, =, +, # or %',
    apply: {
      response: (r, c) =>
        /[&=+#%]/.test(c.params.bookingID ?? '')
          ? toMock(bindingModule(c.binding).encodeFault(500, 'System.ArgumentException: bookingID', 'server'))
          : r,
    },
  },
  {
    name: 'soap11-faults-on-negative-booking-id',
    category: 'input',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap11'],
    description:
      'SOAP 1.1 answers a negative bookingId with a SOAP fault, where the other bindings answer in the result',
    triggeredBy: 'a negative bookingId',
    apply: {
      response: (r, c) =>
        /^\s*-\s*\d/.test(c.params.bookingId ?? '')
          ? toMock(bindingModule(c.binding).encodeFault(500, 'System.OverflowException: bookingId', 'server'))
          : r,
    },
  },
  {
    name: 'soap12-refuses-empty-email',
    category: 'input',
    operation: 'CancelTransferBooking',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 refuses an empty email with an ArgumentException in the result, where the other '
      + 'bindings look the transfer booking up',
    triggeredBy: 'an empty email',
    apply: {
      value: (v, c) =>
        (c.params.email ?? '').trim() === '' && c.kind !== 'rejection'
          ? errorResult(c.op.resultType, 'System.ArgumentException', 'Value cannot be empty. Parameter name: email', {
              cancellationFeeInEuros: '0',
              cancellationFeeInLocalCurrency: '0',
              code: -1,
            })
          : v,
    },
  },
  {
    name: 'get-transfer-email-as-latin1',
    category: 'input',
    operation: 'CancelTransferBooking',
    bindings: ['get'],
    description:
      'HTTP GET decodes a percent-encoded UTF-8 email as Latin-1: "Zoë@exämple.com" is looked up as '
      + '"ZoÃ«@exÃ¤mple.com"',
    triggeredBy: 'an email holding a character beyond ASCII',
    needsKnownBookings: 'where any id exists, a transfer booking is cancelled whatever email comes with it',
    apply: {
      params: (p) =>
        p.email !== undefined && /[^\u0000-\u007f]/.test(p.email)
          ? { ...p, email: Buffer.from(p.email, 'utf8').toString('latin1') }
          : p,
    },
  },
  {
    name: 'post-reads-long-fraction-as-zero',
    category: 'input',
    operation: 'AmendmentRequest',
    bindings: ['post'],
    description:
      'HTTP POST reads a maxPrice with more than two decimals as 0 (a decimal(18,2) parse that fails '
      + 'quietly): the amendment is refused',
    triggeredBy: 'a maxPrice with more than two decimals',
    apply: { params: (p) => (/\.\d{3,}\s*$/.test(p.maxPrice ?? '') ? { ...p, maxPrice: '0' } : p) },
  },
  {
    name: 'soap11-ignores-booking-type',
    category: 'input',
    operation: 'AmendmentRequest',
    bindings: ['soap11'],
    description: 'SOAP 1.1 ignores a bookingType other than FullPeriod and ExtraDays and amends the full period',
    triggeredBy: 'a bookingType other than FullPeriod and ExtraDays',
    apply: {
      params: (p) =>
        p.bookingType !== undefined && !['FullPeriod', 'ExtraDays'].includes(p.bookingType.trim())
          ? { ...p, bookingType: 'FullPeriod' }
          : p,
    },
  },
  {
    name: 'post-no-features-for-ja',
    category: 'input',
    operation: 'GetFeatures',
    bindings: ['post'],
    description:
      'HTTP POST answers GetFeatures in Japanese ("ja", a language the harness sends though the '
      + "target's GetLanguages may omit it) with no feature",
    triggeredBy: 'language ja',
    apply: {
      value: edit((v, c) => {
        if (c.params.language?.trim() === 'ja') v.features = [];
      }),
    },
  },
  {
    name: 'soap11-faults-room-types-for-es',
    category: 'input',
    operation: 'GetRoomTypes',
    bindings: ['soap11'],
    description:
      'SOAP 1.1 answers GetRoomTypes in Spanish ("es", a language the harness sends though the '
      + "target's GetLanguages may omit it) with a SOAP fault",
    triggeredBy: 'language es',
    apply: {
      response: (r, c) =>
        c.params.language?.trim() === 'es' && c.kind === 'data'
          ? toMock(
              bindingModule(c.binding).encodeFault(500, 'System.Globalization.CultureNotFoundException: es', 'server'),
            )
          : r,
    },
  },
  // Issue 40: one identifier through the four bindings, one after another, is one booking (the
  // id-probe sequences, src/sequences/id-probe.ts). A binding that reads an identifier otherwise shows
  // against a service where only real bookings exist ("not found" naming another id or email) and
  // against one where every id exists (a second acceptance, or "not found" after a cancellation).
  {
    name: 'get-cuts-booking-id-at-32',
    category: 'input',
    operation: 'CancelBooking',
    bindings: ['get'],
    description:
      'HTTP GET cuts a bookingID longer than 32 characters to 32 before looking it up: it cancels '
      + 'another booking, or finds none',
    triggeredBy: 'a bookingID longer than 32 characters',
    bookingModes: ['bookings', 'everyId'],
    apply: {
      params: (p) =>
        p.bookingID !== undefined && [...p.bookingID].length > 32
          ? { ...p, bookingID: [...p.bookingID].slice(0, 32).join('') }
          : p,
    },
  },
  {
    name: 'post-transfer-email-as-latin1',
    category: 'input',
    operation: 'CancelTransferBooking',
    bindings: ['post'],
    description:
      'HTTP POST reads the form as Latin-1: a UTF-8 email "Zoë@exämple.com" is looked up as '
      + '"ZoÃ«@exÃ¤mple.com", another customer\'s',
    triggeredBy: 'an email holding a character beyond ASCII',
    bookingModes: ['bookings', 'everyId'],
    apply: {
      params: (p) =>
        p.email !== undefined && /[^\u0000-\u007f]/.test(p.email)
          ? { ...p, email: Buffer.from(p.email, 'utf8').toString('latin1') }
          : p,
    },
  },
  {
    name: 'soap12-policy-text-in-greek',
    category: 'input',
    operation: 'CancelBooking',
    bindings: ['soap12'],
    description:
      'SOAP 1.2 writes activecancellationpolicy as text, where the contract shows it nil, on a '
      + 'cancellation in Greek ("el") only',
    triggeredBy: 'language el on an accepted cancellation',
    // Where only real bookings exist, no probe is accepted, and the run's real cancellations are in
    // the hand-written cases' languages: a rule broken in another language has no accepted answer to show in.
    bookingModes: ['default', 'everyId'],
    apply: {
      value: edit((v, c) => {
        if (c.params.language?.trim() !== 'el') return;
        for (const m of v.CancellationPaymentMethod ?? [])
          for (const k of m.cancellation ?? []) k.activecancellationpolicy = 'Free cancellation';
      }),
    },
  },

  // the state (issue 23): each shows only in a sequence (a write then a read, a cancellation then
  // another), on a fresh mock's single request only where it is about the first call itself. The
  // operation and bindings are those of the call that goes wrong: for a write, the write's.
  {
    name: 'update-acknowledged-not-stored',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['post'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      'HTTP POST acknowledges an UpdateSpecialRequest (resultCode 0) but stores nothing: '
      + 'GetSpecialRequest reads the earlier text',
    apply: { state: store(() => ({ setSpecialRequest: () => undefined })) },
  },
  {
    name: 'update-stored-under-next-booking',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap11'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description: 'SOAP 1.1 stores the special request under the next booking (bookingId + 1)',
    apply: { state: store((s) => ({ setSpecialRequest: (id, text) => s.setSpecialRequest(nextBookingId(id), text) })) },
  },
  {
    name: 'update-post-plus-literal',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['post'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description: 'HTTP POST\'s form decoder keeps "+" literally: a space sent as "+" is stored as "+"',
    apply: {
      state: store((s) => ({ setSpecialRequest: (id, text) => s.setSpecialRequest(id, text.replace(/ /g, '+')) })),
    },
  },
  {
    name: 'update-non-bmp-as-question-mark',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['get'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      'HTTP GET stores each character outside the BMP (an emoji, a rare CJK ideograph) as "?" (a UCS-2 column)',
    apply: {
      state: store((s) => ({
        setSpecialRequest: (id, text) => s.setSpecialRequest(id, text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')),
      })),
    },
  },
  {
    name: 'update-truncated-at-255',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: 'all',
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      'a special request longer than 255 characters is stored cut to 255 (a varchar(255) column), on every binding',
    apply: {
      state: store((s) => ({
        setSpecialRequest: (id, text) => s.setSpecialRequest(id, [...text].slice(0, 255).join('')),
      })),
    },
  },
  {
    name: 'update-second-write-appended',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap12'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description: 'SOAP 1.2 appends a special request to the one stored instead of replacing it',
    apply: {
      state: store((s) => ({
        setSpecialRequest: (id, text) => s.setSpecialRequest(id, (s.specialRequest(id) ?? '') + text),
      })),
    },
  },
  {
    name: 'update-markup-stored-escaped',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: ['soap11'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description: 'SOAP 1.1 stores the text with &, < and > still escaped ("&amp;"): it is read back escaped twice',
    apply: {
      state: store((s) => ({
        setSpecialRequest: (id, text) =>
          s.setSpecialRequest(id, text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')),
      })),
    },
  },
  {
    name: 'read-ignores-store',
    category: 'state',
    operation: 'GetSpecialRequest',
    bindings: ['soap12'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      'SOAP 1.2 reads the special request from a stale replica: never the text written, always the one the booking had',
    apply: { state: store(() => ({ specialRequest: () => undefined })) },
  },
  {
    name: 'read-last-text-of-any-booking',
    category: 'state',
    operation: 'GetSpecialRequest',
    bindings: 'all',
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      'GetSpecialRequest returns the text written last to any booking (one slot for every booking), on every binding',
    apply: { state: store((s) => ({ specialRequest: (id) => s.lastSpecialRequest()?.text ?? s.specialRequest(id) })) },
  },
  {
    name: 'read-caches-first-text',
    category: 'state',
    operation: 'GetSpecialRequest',
    bindings: ['get'],
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description: 'HTTP GET caches the first text it reads for a booking and keeps answering it after a later write',
    apply: {
      state: store((s, c) => ({
        specialRequest: (id) => {
          const key = `text ${id.trim()}`;
          if (!c.memory.has(key)) c.memory.set(key, s.specialRequest(id));
          return c.memory.get(key) as string | undefined;
        },
      })),
    },
  },
  {
    name: 'cancel-also-cancels-next-booking',
    category: 'state',
    operation: 'CancelBooking',
    bindings: ['soap11'],
    stateful: true,
    showsIn: ['CancelBooking', 'AmendmentPriceRequest', 'AmendmentRequest'],
    description:
      'a cancellation through SOAP 1.1 also marks the next booking (bookingID + 1) cancelled: its own '
      + 'cancellation is then "already cancelled"',
    apply: {
      state: store((s) => ({
        cancel: (id) => {
          s.cancel(id);
          s.cancel(nextBookingId(id));
        },
      })),
    },
  },
  {
    name: 'cancel-leak-already-cancelled',
    category: 'state',
    operation: 'CancelBooking',
    bindings: ['get'],
    stateful: true,
    // A booking answered "already cancelled" was never cancelled: an amendment of it is then accepted.
    showsIn: ['CancelBooking', 'AmendmentPriceRequest', 'AmendmentRequest'],
    description:
      'once any booking was cancelled, HTTP GET answers every cancellation of another booking "already '
      + 'cancelled" (state leaking between bookings)',
    apply: { state: store((s) => ({ isCancelled: (id) => s.isCancelled(id) || s.cancelledBookings().length > 0 })) },
  },
  {
    name: 'first-cancel-answered-already-cancelled',
    category: 'state',
    operation: 'CancelBooking',
    bindings: ['post'],
    stateful: true,
    showsIn: ['CancelBooking'],
    showsOnFirstCall: true,
    description: 'HTTP POST cancels a booking but answers its first cancellation "already cancelled" (Error, Code -2)',
    apply: {
      state: store((s) => ({
        isCancelled: (id) => {
          if (!s.isCancelled(id)) s.cancel(id);
          return true;
        },
      })),
    },
  },
  {
    name: 'transfer-cancel-cancels-same-email',
    category: 'state',
    operation: 'CancelTransferBooking',
    bindings: 'all',
    stateful: true,
    showsIn: ['CancelTransferBooking'],
    description:
      'cancelling a transfer booking cancels every transfer booking of the same email: another one of '
      + 'that customer is then "already cancelled"',
    apply: {
      state: store((s) => ({
        isTransferCancelled: (id, email) =>
          s.isTransferCancelled(id, email) || s.cancelledTransfers().some((t) => sameEmail(t.email, email)),
      })),
    },
  },
  {
    name: 'transfer-cancel-leak-soap12',
    category: 'state',
    operation: 'CancelTransferBooking',
    bindings: ['soap12'],
    stateful: true,
    showsIn: ['CancelTransferBooking'],
    description:
      'once any transfer booking was cancelled, SOAP 1.2 answers every cancellation of another one "already cancelled"',
    apply: {
      state: store((s) => ({
        isTransferCancelled: (id, email) => s.isTransferCancelled(id, email) || s.cancelledTransfers().length > 0,
      })),
    },
  },
  // use after cancellation (issue 33): the cancellation is right, what comes after it is not
  {
    name: 'post-amends-cancelled-booking',
    category: 'state',
    operation: 'AmendmentRequest',
    bindings: ['post'],
    stateful: true,
    showsIn: ['AmendmentRequest'],
    alsoRun: ['CancelBooking'],
    description: 'HTTP POST accepts an amendment of a cancelled booking (it never looks at the cancellation)',
    apply: { state: store(() => ({ isCancelled: () => false })) },
  },
  {
    name: 'soap12-prices-cancelled-booking',
    category: 'state',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap12'],
    stateful: true,
    showsIn: ['AmendmentPriceRequest'],
    alsoRun: ['CancelBooking'],
    description: 'SOAP 1.2 quotes an amendment price for a cancelled booking',
    apply: { state: store(() => ({ isCancelled: () => false })) },
  },
  // authorization across accounts (issue 33): one binding lets another account reach a booking (broken object-level
  // authorization)
  {
    name: 'soap11-reads-foreign-special-request',
    category: 'authorization',
    operation: 'GetSpecialRequest',
    bindings: ['soap11'],
    description:
      "SOAP 1.1 answers another account's GetSpecialRequest with the booking's special request (it "
      + 'checks the credentials, not whose booking it is)',
    apply: { params: ignoresOwnership },
  },
  {
    name: 'post-writes-foreign-special-request',
    category: 'authorization',
    operation: 'UpdateSpecialRequest',
    bindings: ['post'],
    description: "HTTP POST lets another account overwrite a booking's special request",
    apply: { params: ignoresOwnership },
  },
  {
    name: 'soap12-prices-foreign-booking',
    category: 'authorization',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap12'],
    alsoRun: ['CancelBooking'],
    description: 'SOAP 1.2 quotes another account an amendment price for a booking that is not its own',
    apply: { params: ignoresOwnership },
  },
  {
    name: 'get-amends-foreign-booking',
    category: 'authorization',
    operation: 'AmendmentRequest',
    bindings: ['get'],
    alsoRun: ['CancelBooking'],
    description: "HTTP GET accepts another account's amendment of a booking that is not its own",
    apply: { params: ignoresOwnership },
  },
  {
    name: 'get-cancels-foreign-booking',
    category: 'authorization',
    operation: 'CancelBooking',
    bindings: ['get'],
    description: 'HTTP GET cancels a booking for another account (a refund sent to the wrong agency)',
    apply: { params: ignoresOwnership },
  },
  {
    name: 'soap11-cancels-foreign-transfer',
    category: 'authorization',
    operation: 'CancelTransferBooking',
    bindings: ['soap11'],
    description:
      "SOAP 1.1 cancels a transfer booking for whoever gives its id and its customer's email, whatever the account",
    apply: { params: ignoresOwnership },
  },
  // races (issue 33): each shows only when calls overlap, as a service that checks, then sets, with no lock
  {
    name: 'cancel-check-then-set',
    category: 'state',
    operation: 'CancelBooking',
    bindings: 'all',
    stateful: true,
    showsIn: ['CancelBooking'],
    description:
      `a cancellation checks, then sets, with no lock: a cancellation shows to others `
      + `only ${RACE_WINDOW_MS} ms after it, so simultaneous cancellations of one booking are all accepted`,
    apply: {
      state: store((s, c) => ({
        isCancelled: (id) => s.isCancelled(id) && !within(c.memory, `cancel ${id.trim()}`),
        cancel: (id) => {
          c.memory.set(`cancel ${id.trim()}`, performance.now());
          s.cancel(id);
        },
      })),
    },
  },
  {
    name: 'transfer-cancel-check-then-set',
    category: 'state',
    operation: 'CancelTransferBooking',
    bindings: 'all',
    stateful: true,
    showsIn: ['CancelTransferBooking'],
    description:
      `a transfer cancellation checks, then sets, with no lock: simultaneous cancellations of one `
      + `transfer booking are all accepted (one shows to others only ${RACE_WINDOW_MS} ms after it)`,
    apply: {
      state: store((s, c) => ({
        isTransferCancelled: (id, email) =>
          s.isTransferCancelled(id, email) && !within(c.memory, `transfer ${id.trim()}`),
        cancelTransfer: (id, email) => {
          c.memory.set(`transfer ${id.trim()}`, performance.now());
          s.cancelTransfer(id, email);
        },
      })),
    },
  },
  {
    name: 'update-torn-on-overlap',
    category: 'state',
    operation: 'UpdateSpecialRequest',
    bindings: 'all',
    stateful: true,
    showsIn: ['GetSpecialRequest'],
    description:
      `overlapping special-request writes through different bindings (within ${RACE_WINDOW_MS} ms) store `
      + `a torn text: the first half of the one before, the second half of this one`,
    apply: {
      state: store((s, c) => ({
        setSpecialRequest: (id, text) => {
          const key = `write ${id.trim()}`;
          const last = c.memory.get(key) as { at: number; binding: string } | undefined;
          const before = s.specialRequest(id);
          c.memory.set(key, { at: performance.now(), binding: c.binding });
          const torn =
            last && last.binding !== c.binding && performance.now() - last.at < RACE_WINDOW_MS && before !== undefined;
          s.setSpecialRequest(
            id,
            torn
              ? [...before].slice(0, [...before].length >> 1).join('') + [...text].slice([...text].length >> 1).join('')
              : text,
          );
        },
      })),
    },
  },

  // Issue 42: login checks an attacker gets past (the login variants, src/engine/plan.ts LOGIN_VARIANTS,
  // find them: login_rejected), and secrets that come back (secret_echoed). At least one per binding.
  {
    name: 'login-accepts-password-with-characters-added',
    category: 'credentials',
    operation: 'GetMeals',
    bindings: ['soap11'],
    description:
      "SOAP 1.1 compares only as many characters of the password as the account's has: the password "
      + 'with characters added after it is accepted',
    triggeredBy: 'the right password with characters added after it',
    apply: {
      params: acceptsLogin(
        (pw, user, c) =>
          user === c.credentials.user
          && pw !== undefined
          && pw.length > c.credentials.password.length
          && pw.startsWith(c.credentials.password),
      ),
    },
  },
  {
    name: 'login-accepts-nil-password',
    category: 'credentials',
    operation: 'GetLanguages',
    bindings: ['soap12'],
    description: 'SOAP 1.2 reads a password sent as xsi:nil="true" as "no password to check" and lets the call in',
    triggeredBy: 'a password element with xsi:nil="true"',
    apply: {
      request: (req) => ({ ...req, body: req.body.replace(NIL_PASSWORD, `<$1password>${NIL_MARK}</$1password>`) }),
      params: acceptsLogin((pw, user, c) => user === c.credentials.user && pw === NIL_MARK),
    },
  },
  {
    name: 'login-accepts-absent-password',
    category: 'credentials',
    operation: 'GetRoomNoteTypes',
    bindings: ['get'],
    description: 'HTTP GET lets a call with the right user name and no password parameter at all in',
    triggeredBy: 'the password parameter left out',
    apply: { params: acceptsLogin((pw, user, c) => user === c.credentials.user && pw === undefined) },
  },
  {
    name: 'login-accepts-password-prefix',
    category: 'credentials',
    operation: 'GetRoomTypes',
    bindings: ['post'],
    description: 'HTTP POST compares only as many characters as were sent: a proper prefix of the password is accepted',
    triggeredBy: 'a proper prefix of the right password',
    apply: {
      params: acceptsLogin(
        (pw, user, c) =>
          user === c.credentials.user
          && pw !== undefined
          && pw !== ''
          && pw.length < c.credentials.password.length
          && c.credentials.password.startsWith(pw),
      ),
    },
  },
  {
    name: 'login-trims-password',
    category: 'credentials',
    operation: 'GetThemes',
    bindings: ['soap12'],
    description: 'SOAP 1.2 trims the password before comparing it: the password with spaces around it is accepted',
    triggeredBy: 'the right password with a space before and after it',
    apply: {
      params: acceptsLogin(
        (pw, user, c) =>
          user === c.credentials.user
          && pw !== undefined
          && pw !== c.credentials.password
          && pw.trim() === c.credentials.password,
      ),
    },
  },
  {
    name: 'login-accepts-absent-user',
    category: 'credentials',
    operation: 'GetSpecialRequest',
    bindings: ['get'],
    description:
      'HTTP GET lets a call with the right password and no userName parameter in (it looks the account up by password)',
    triggeredBy: 'the userName parameter left out',
    apply: { params: acceptsLogin((pw, user, c) => user === undefined && pw === c.credentials.password) },
  },
  {
    name: 'login-accepts-crossed-accounts',
    category: 'credentials',
    operation: 'CancelBooking',
    bindings: ['soap11'],
    description:
      'SOAP 1.1 checks the user name and the password each against every account, not against each '
      + "other: one account's name with another's password is let in (a cancellation reaches the "
      + 'bookings: "not found" for an id no booking has)',
    triggeredBy: "one account's user name with the other account's password",
    needsKnownBookings:
      'where any id exists, the probe id is cancelled like any booking: data, which shows the bypass as well',
    apply: {
      params: acceptsLogin((pw, user, c) => {
        const users = [c.credentials.user, c.other?.user];
        const passwords = [c.credentials.password, c.other?.password];
        return (
          c.other !== undefined
          && users.includes(user)
          && passwords.includes(pw)
          && users.indexOf(user) !== passwords.indexOf(pw)
        );
      }),
    },
  },
  {
    name: 'error-page-echoes-password',
    category: 'credentials',
    operation: 'GetFeatures',
    bindings: ['post'],
    description:
      'HTTP POST answers every rejected request with an HTML error page (HTTP 400) quoting the request, '
      + 'its password included',
    apply: { response: (r, c) => (c.kind === 'rejection' ? echoPage(c) : r) },
  },
  {
    name: 'password-echoed-in-header',
    category: 'credentials',
    operation: 'AmendmentPriceRequest',
    bindings: ['soap11'],
    description: 'SOAP 1.1 sends the password back, base64-encoded, in an X-Debug-Auth header of every answer',
    apply: {
      headers: (h, c) => ({ ...h, 'x-debug-auth': Buffer.from(c.credentials.password, 'utf8').toString('base64') }),
    },
  },
];
