/**
 * The drift rules: every kind of difference a target's WSDL can have from the contract's, its
 * classification per direction (breaking or compatible for a client written against the contract),
 * and why (DRIFT_RULES, documented in docs/drift.md), with the shape of a difference found and its
 * place in words. ./drift-ledger.ts records the differences ./wsdl-compare.ts finds by these rules.
 */
import type { DriftDifference, DriftPlace } from '../core/types.js';

export type Severity = 'breaking' | 'compatible';
/** Which way a schema component's values travel: sent by the client, or read by it. */
export type Direction = 'request' | 'response';
/**
 * A direction, or 'both' for a named type no message reaches through declared content
 * (unreachedTypes): its values travel only in open content, either way, so each difference takes
 * the stricter of its rule's two readings.
 */
export type Way = Direction | 'both';

export interface Rule {
  readonly request: Severity;
  readonly response: Severity;
  readonly reason: string;
}
const both = (s: Severity, reason: string): Rule => ({ request: s, response: s, reason });

/** Every kind of difference, its classification per direction, and why (docs/drift.md lists them all). */
export const DRIFT_RULES = {
  target_namespace_changed: both(
    'breaking',
    'every element of every message is qualified by it: a client sends and looks for names the target no longer has',
  ),
  service_renamed: both(
    'compatible',
    'the service name is not on the wire: a client already generated keeps calling the same addresses',
  ),
  service_removed: both(
    'breaking',
    "none of the contract's ports is declared: every call of the client has nowhere to go",
  ),
  port_removed: both(
    'breaking',
    'the binding (SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST) is gone: a client using it has no endpoint',
  ),
  port_added: both('compatible', 'a binding more: no existing client uses it'),
  operation_removed: both('breaking', 'a client calling the operation gets a fault or a 404'),
  operation_added: both('compatible', 'an operation more: no existing client calls it'),
  soap_action_changed: both(
    'breaking',
    "ASMX dispatches SOAP 1.1 on the SOAPAction header (SOAP 1.2 on the action parameter): the client's "
      + 'action no longer routes',
  ),
  style_changed: both('breaking', 'document/rpc or literal/encoded changes how every message is laid out on the wire'),
  http_location_changed: both(
    'breaking',
    "HTTP GET/POST calls go to <service path><location>: the client's URL no longer exists",
  ),
  http_encoding_changed: both(
    'breaking',
    'the client encodes parameters (or reads the answer) in the form the contract gives',
  ),
  message_part_changed: both(
    'breaking',
    "the message carries another element (or parts): the client's body is not the one the target reads, "
      + 'or the answer not the one it parses',
  ),
  request_parameter_removed: {
    request: 'breaking',
    response: 'breaking',
    reason:
      'the client still sends it: an unknown element or parameter, rejected or silently dropped (a '
      + 'renamed parameter shows as removed and added)',
  },
  request_parameter_added_required: {
    request: 'breaking',
    response: 'breaking',
    reason: 'the client does not send it, and the target requires it',
  },
  request_parameter_added_optional: {
    request: 'compatible',
    response: 'compatible',
    reason: 'the client does not send it, and the target does not need it',
  },
  response_element_removed_required: {
    request: 'breaking',
    response: 'breaking',
    reason: 'the client reads an element the contract promises in every answer',
  },
  response_element_removed_optional: {
    request: 'compatible',
    response: 'compatible',
    reason: 'the contract already let answers leave it out: a client must cope with its absence',
  },
  response_element_added: {
    request: 'compatible',
    response: 'compatible',
    reason: 'a client reading answers skips elements it does not know (XmlSerializer and generated clients do)',
  },
  open_content_declared: both(
    'compatible',
    'the contract leaves this place open (not shown: xs:any, xs:anyType): the target declaring what it '
      + 'holds tells more, and changes nothing on the wire',
  ),
  became_required: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client may leave it out; response: the client already copes with it present',
  },
  became_optional: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: the client relies on it in every answer; request: the client sends it anyway',
  },
  became_nillable: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: the client gets xsi:nil where the contract promised a value',
  },
  no_longer_nillable: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client sending xsi:nil is refused',
  },
  max_occurs_raised: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: a client holding one value meets several',
  },
  max_occurs_lowered: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client sending several is refused',
  },
  type_changed: both(
    'breaking',
    'a type narrowed or changed: values the client sends may be refused, values it reads may not parse',
  ),
  enum_value_removed: {
    request: 'breaking',
    response: 'compatible',
    reason:
      'request: a client sending that value is refused; response: the client knows one value more than it will see',
  },
  enum_value_added: {
    request: 'compatible',
    response: 'breaking',
    reason:
      'response: a client mapping values to an enumeration meets one it does not know; request: nobody sends it yet',
  },
  element_order_changed: both(
    'breaking',
    'a sequence is ordered: clients that read or write in the declared order (JAXB, zeep, XmlSerializer '
      + 'with Order) fail',
  ),
  open_content_closed: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: the contract let clients send more there; response: the target promises less than allowed',
  },
  content_opened: both(
    'compatible',
    'the target may send more where the contract declared a closed list: clients skip unknown elements',
  ),
} as const satisfies Record<string, Rule>;

export type DriftRule = keyof typeof DRIFT_RULES;

export type { DriftPlace };

/** A difference, its rule one of DRIFT_RULES. */
export type Difference = DriftDifference & { readonly rule: DriftRule };

/**
 * The place of a difference in words: "service Booking, binding soap12, operation CancelBooking", "type Hotel:
 * Hotel/rooms/@id".
 */
export function placeText(p: DriftPlace): string {
  const head = [
    p.service && `service ${p.service}`,
    p.binding && `binding ${p.binding}`,
    p.operation && `operation ${p.operation}`,
    p.message && `${p.message} message`,
    p.part && `part ${p.part}`,
    p.element && `element ${p.element}`,
    p.type && `type ${p.type}`,
  ]
    .filter(Boolean)
    .join(', ');
  return p.path ? `${head}${head ? ': ' : ''}${p.path}` : head;
}
