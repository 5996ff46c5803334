/**
 * One module per binding behind one interface (see Binding): every rule of a binding lives in its
 * module, for the harness (client half) and the mock (server half) alike.
 */
import type { BindingId, GroupPaths, Namespaces, Operation, Param } from '../contract/catalogue.js';
import type { HttpRequest } from '../core/types.js';
import type { XElement } from '../xml/tree.js';

/** Parameter values as the wire carries them (lexical forms); an absent key is not sent. */
export type Params = Readonly<Record<string, string>>;

/**
 * A parameter value meaning "sent as nil" (`xsi:nil="true"`), for a binding that can say so (SOAP:
 * Binding.sendsNil). No real value holds a NUL character, so it cannot be a password or an id. The
 * credential variant "password nil" (src/engine/plan.ts) sends it; a binding without nil never gets it.
 */
export const NIL_VALUE = '\u0000xsi:nil';

/** An incoming request as the mock sees it. */
export interface IncomingRequest {
  readonly method: string;
  /** Path of the URL, percent-decoded, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a server half makes of a request: the operation and its raw parameter values, or why not. */
export type Decoded =
  | { readonly ok: true; readonly op: Operation; readonly params: Record<string, string | undefined> }
  | {
      readonly ok: false;
      readonly status: number;
      readonly reason: string;
      readonly faultCode: 'client' | 'server' | 'version';
    };

/** An HTTP response produced by a server half. */
export interface OutgoingResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Where the result of an operation sits in a response document. */
export interface Located {
  /** SOAP: the <Operation>Response wrapper; undefined for GET/POST. */
  readonly wrapper?: XElement;
  readonly result?: XElement;
  /** Path of the result element, for findings. */
  readonly path: string;
}

/**
 * How a response document around a result element is written (the mock's variation mode writes
 * every legitimate form): SOAP envelope prefix and header, where the group namespace and xsi are
 * declared, indentation. A binding without an envelope writes the result element as the document.
 */
export interface DocumentForm {
  readonly envelopePrefix: string;
  /** A SOAP Header before the Body: none, empty, or holding a header block nobody must understand. */
  readonly soapHeader: 'none' | 'empty' | 'block';
  /** Where the group namespace is declared: on the <Operation>Response wrapper or on the Envelope. */
  readonly namespaceAt: 'wrapper' | 'envelope';
  /** Prefix of the group namespace ('' = default namespace). */
  readonly resultPrefix: string;
  readonly xsiPrefix: string;
  /**
   * Where xmlns:xsi is declared: on the Envelope (a bare result: on the root), on the result element, or on each nil
   * element.
   */
  readonly xsiAt: 'envelope' | 'result' | 'nil';
  /** Indent unit ('' = compact) and line end. */
  readonly indent: string;
  readonly newline: '\n' | '\r\n';
}

/** A SOAP misrouting probe: a request whose routing header names another operation than its body. */
export interface MisroutedProbe {
  readonly headers: Record<string, string>;
  /** The request, in words. */
  readonly description: string;
}

/**
 * A request carrying a document type declaration (issue 42), which SOAP forbids in a message (SOAP
 * 1.1 section 3, SOAP 1.2 part 1 section 5): one entity, named `probe`, declared in the internal
 * subset and standing as one parameter's whole value. Internal: its replacement text is `value`.
 * External: its system identifier is `url`, the harness's own listener (src/engine/callback.ts) and
 * nothing else. Never more than one entity, never one entity in another, never a `file:` URL.
 */
export type DoctypeProbe =
  | { readonly entity: 'internal'; readonly value: string }
  | { readonly entity: 'external'; readonly url: string };

/** The binding's port in an ASMX WSDL 1.1 (see src/schema/wsdl.ts). */
export interface WsdlPort {
  /** Suffix of the wsdl:port and wsdl:binding names: Soap, Soap12, HttpGet, HttpPost. */
  readonly port: string;
  /** Suffix of the portType it implements (SOAP 1.1 and 1.2 share one). */
  readonly portType: string;
  /**
   * Message style of its portType: one `parameters` element part (soap), or a part per parameter in and a Body out
   * (http).
   */
  readonly messages: 'soap' | 'http';
  /** The lines of its wsdl:binding content: the protocol binding element and one wsdl:operation per operation. */
  bindingLines(ops: readonly Operation[], tns: string): string[];
  /** Its port's address element. */
  address(location: string): string;
}

/**
 * One binding: every rule of it lives in its module (nothing outside src/bindings/ branches on a
 * binding id). Client half: encode a request, find the result in a response. Server half (the
 * mock): recognise a request, decode it, write a result or a fault. And what the checks, the
 * engine and the WSDL need to know of it: where the result sits, which parameters a request may
 * leave out, its misrouting probe, its label and its WSDL port.
 */
export interface Binding {
  readonly id: BindingId;
  readonly label: string;
  /** Media type a request carries (undefined: no body). */
  readonly requestMediaType?: string;
  /** Media type every response of this binding must carry. */
  readonly responseMediaType: string;
  /** SOAP envelope namespace, undefined for GET/POST. */
  readonly envelopeNs?: string;
  /**
   * SOAP 1.1 (section 4.1) lets qualified elements follow the Body; SOAP 1.2 (5.1) allows nothing besides Header and
   * Body.
   */
  readonly qualifiedAfterBody?: boolean;
  readonly wsdl: WsdlPort;

  /** The service path this binding is served at, of a group's configured paths. */
  servicePath(paths: GroupPaths): string;
  /**
   * The element the result element sits in (SOAP: <Operation>Response); undefined when the result is the document root.
   */
  wrapperOf(op: Operation): string | undefined;
  /**
   * The element standing where a wrapper belongs in a document of this binding, whatever its name (SOAP: the Body's
   * first child).
   */
  wrapperIn(root: XElement): XElement | undefined;
  /** Where the result of `op` (group namespace `ns`) sits in a response document whose root is `root`. */
  locate(root: XElement, op: Operation, ns: string): Located;
  /**
   * Whether a request may leave this parameter out (SOAP reads an absent string as null; GET/POST need every required
   * one).
   */
  mayOmit(param: Param): boolean;

  // client half
  /**
   * Build the request for an operation. `serviceUrl` is the base URL and this binding's service
   * path (see requestFor in ./endpoint.ts); `ns` is the operation's group namespace.
   */
  encodeRequest(op: Operation, params: Params, serviceUrl: string, ns: string): HttpRequest;
  /** SOAPAction header value for an operation (SOAP 1.1 only). */
  soapAction?(op: Operation, ns: string): string;
  /**
   * Headers routing a request to the operation named `routedTo` while its body is another's (SOAP 1.1's SOAPAction);
   * none: no such probe.
   */
  misroutedProbe?(routedTo: string, ns: string): MisroutedProbe;
  /**
   * The request of an operation with a DOCTYPE declaring `probe`, whose entity stands as the value
   * of parameter `param` (SOAP: an envelope binding must refuse it); none: the binding sends no
   * XML document, so no such probe.
   */
  doctypeRequest?(
    op: Operation,
    params: Params,
    serviceUrl: string,
    ns: string,
    probe: DoctypeProbe,
    param: string,
  ): HttpRequest;
  /**
   * The binding can send a parameter as nil (NIL_VALUE becomes `<name xsi:nil="true"/>`): SOAP only; GET and POST have
   * no nil.
   */
  readonly sendsNil?: boolean;

  // server half
  /** True when this binding is the one the request uses (method, path, media type). */
  claims(req: IncomingRequest, servicePath: string): boolean;
  /** Decode the operation and parameters, given the operations served at the path and the namespaces. */
  decode(req: IncomingRequest, servicePath: string, ops: readonly Operation[], namespaces: Namespaces): Decoded;
  /**
   * Whether a result element written inside this binding's document declares the group namespace
   * and xsi itself: in the reference document (prefix and xsi prefix chosen), or in a document of
   * another form (`form`, the mock's variation mode).
   */
  resultDeclarations(
    prefix: string,
    xsiPrefix: string,
    form?: DocumentForm,
  ): { readonly declareNamespace: boolean; readonly declareXsi: boolean };
  /** Wrap a serialised result element (as written for this binding) into a complete response. */
  encodeResult(op: Operation, resultXml: string, ns: string): OutgoingResponse;
  /** The document around a result element in a given form, without XML declaration (the mock's variation mode). */
  writeDocument(op: Operation, resultXml: string, ns: string, form: DocumentForm): string;
  /** A failure response: SOAP fault (SOAP) or plain text (GET/POST). */
  encodeFault(status: number, reason: string, faultCode: 'client' | 'server' | 'version'): OutgoingResponse;
}
