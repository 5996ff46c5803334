/**
 * The kinds of defect a finding can name: its stable snake_case `code`, beside the check that found
 * it. One check finds several kinds (shape: a missing element, a value outside an enumeration, ...),
 * and one kind can be found by several checks (shape and xsd_valid both see a missing element), so
 * an expectation can accept one kind of defect without hiding a new one in the same check. A code is
 * never renamed: expectation files and diffs key on it.
 */
export const DEFECT_CODES = {
  // the exchange
  no_response: 'no HTTP response (connection, timeout, size cap)',
  host_unreachable: 'a host that answered nothing at the preflight (refused, unknown, TLS, time-out)',
  operation_not_called: 'an operation named in --operations that got no exchange at all',
  wsdl_breaking_drift:
    "a difference of the target's WSDL from the contract's that breaks its clients (--fail-on-drift)",
  status_not_200: 'a status other than 200 on a valid call',
  content_type_missing: 'no Content-Type header',
  content_type_malformed: 'a Content-Type header that does not parse',
  media_type_mismatch: "a media type other than the binding's",
  charset_missing: 'no charset parameter',
  charset_not_utf8: 'a charset other than utf-8',
  // the bytes and the XML
  body_empty: 'an empty body, or an empty SOAP Body',
  not_decodable: 'bytes that are not valid in their declared encoding',
  encoding_unknown: 'an encoding name the harness does not know',
  encoding_bom_mismatch: 'a byte order mark contradicting the XML declaration',
  encoding_contradicts_charset: 'an XML declaration contradicting the Content-Type charset',
  encoding_misstated: 'a single-byte declaration over UTF-8 bytes',
  document_not_read: 'a document beyond the limits of the harness',
  not_well_formed: 'not well-formed XML',
  xml_not_acceptable: 'XML the harness refuses (DOCTYPE, undeclared prefixes, ...)',
  // the SOAP envelope
  envelope_on_http_binding: 'a SOAP envelope on HTTP GET or POST',
  envelope_version_mismatch: "the other SOAP version's envelope",
  envelope_wrong_namespace: 'an Envelope in a namespace of no SOAP version',
  envelope_missing: 'no SOAP envelope on a SOAP binding',
  body_missing: 'no Body in the Envelope',
  body_wrong_namespace: 'a Body outside the envelope namespace',
  body_duplicated: 'more than one Body',
  header_after_body: 'a Header after the Body',
  unexpected_envelope_child: 'an element in the Envelope other than Header and Body',
  fault_on_valid_call: 'a SOAP Fault answering a valid call',
  // where the result is
  wrapper_missing: 'no <Operation>Response wrapper',
  wrapper_mismatch: 'a wrapper of another name or namespace',
  wrapper_duplicated: 'more than one wrapper',
  result_missing: 'no result element',
  result_mismatch: 'a result element of another name or namespace',
  result_duplicated: 'more than one result element',
  result_nil: 'a nil result element',
  // the result's shape (shape and xsd_valid)
  missing_required_element: 'a required element is absent',
  missing_required_attribute: 'a required attribute is absent',
  unknown_element: 'an element the type does not declare',
  unexpected_element: 'an element where none (or another) is expected',
  unknown_attribute: 'an attribute the type does not declare',
  unknown_root_element: 'a root element no schema declares',
  duplicated_element: 'an element repeated beyond its maximum',
  element_out_of_order: 'elements out of their sequence',
  wrong_namespace: 'an element outside its group namespace',
  mixed_content: 'text beside child elements',
  unexpected_text: 'text where only elements are allowed',
  unexpected_child_element: 'child elements in a simple value',
  empty_value: 'an empty simple value',
  invalid_lexical_value: 'a value outside its XSD type (int, decimal, dateTime, ...)',
  value_outside_enumeration: 'a value outside its enumeration',
  invalid_nil_value: 'an xsi:nil that is neither true nor false',
  nil_not_allowed: 'xsi:nil on an element that is not nillable',
  nil_with_content: 'a nil element with content',
  invalid_xsi_type: 'an xsi:type naming no derived type',
  xsd_invalid: 'invalid against the schemas (another libxml2 error)',
  // the per-binding rules of the contract
  binding_rule_not_nil: 'not nil where the contract says a binding writes nil',
  binding_rule_no_content: 'empty where the contract says a binding writes content',
  // rejections
  answered_with_data: 'a request that must be rejected answered with data',
  error_element_missing: 'a rejection without the Error element of section 7.1',
  rejected_by_server_error:
    'wrong credentials answered with a server failure (a crash), not a rejection of the credentials',
  // hostile requests (issue 42)
  dtd_processed:
    'a SOAP request with a DOCTYPE answered with data (or past the login): the target processed the '
    + 'document type declaration',
  external_entity_fetched:
    "the target fetched the external entity of a SOAP request's DOCTYPE from the harness's listener",
  login_bypassed:
    'a credential variant a careless login check lets in (a password with characters added, a prefix of '
    + 'it, nil, absent...) reached the data path: data, or a data-path answer where the wrong password was '
    + 'refused',
  secret_echoed:
    "an answer holds a secret of the run (a password, the proxy's password, an extra header's value) in "
    + 'its body or a header',
  // the comparison of bindings
  acceptance_differs: 'bindings disagree on accepting the request',
  error_type_differs: 'bindings answer with different in-band Errors',
  value_differs: 'bindings answer with different values',
  rejection_differs:
    'bindings reject the same request differently: in-band on some, with a fault or an HTTP error on others',
  error_message_differs: 'bindings answer a probe with different in-band Error messages (the id each sent set aside)',
  // sequences over state
  write_not_read_back: 'a text written with UpdateSpecialRequest that GetSpecialRequest does not read back exactly',
  write_not_replaced: 'a second write whose read still shows the first text',
  write_crossed_bookings: "a read that shows another booking's text",
  cancellation_leaked: 'a booking seen usable and never cancelled by the run answered "already cancelled"',
  rejected_call_changed_state: 'a rejected call (wrong credentials, a bad parameter) that changed the booking it named',
  use_after_cancel: 'an amendment price quoted, or an amendment accepted, for a booking already cancelled',
  id_read_otherwise:
    'one identifier sent through several bindings one after another, one binding answering as for '
    + 'another identifier: a second acceptance of it, or "not found" after another binding used it up',
  race_double_accept:
    'a booking cancelled at the same moment through several bindings, more than one cancellation accepted',
  foreign_booking_read:
    'a booking of this account read through another account: its special request or an amendment price '
    + 'given, or its text revealed in a refusal',
  foreign_booking_changed:
    'a booking of this account changed through another account: a write, an amendment or a cancellation '
    + 'accepted, or found done after a refusal',
  race_torn_write:
    'a special request written at the same moment through several bindings, read back differently or as '
    + 'none of the texts written',
  // the harness
  check_crashed: 'a check that threw (a harness defect: please report it)',
  check_over_budget: 'a check that took longer than its budget',
  expectation_stale: 'an accepted deviation that no longer occurs',
  expectation_expired: 'an accepted deviation past its expiry date',
  // the latency gate (--max-p95)
  latency_p95_exceeded:
    "an operation × binding whose 95th-percentile answer time is above its limit (--max-p95, the config's latency)",
  // the network between (src/transport/transient.ts)
  transient_answer: 'a read answered only transiently (a gateway page, a reset, a timeout), its retries included',
} as const;

export type DefectCode = keyof typeof DEFECT_CODES;

export const DEFECT_CODE_NAMES: readonly DefectCode[] = Object.keys(DEFECT_CODES) as DefectCode[];
