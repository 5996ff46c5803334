/**
 * One module per binding behind one interface: the client half (encode a request, find the result
 * in a response) and the server half (recognise a request, decode its parameters, encode a result
 * or a fault) used by the mock. Every rule of a binding lives in its module.
 */
import type { BindingId, GroupPaths, Namespaces, Operation } from '../contract/catalogue.js';
import type { HttpRequest } from '../core/types.js';
import type { XElement } from '../xml/tree.js';

/** Parameter values as the wire carries them (lexical forms); an absent key is not sent. */
export type Params = Readonly<Record<string, string>>;

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
  | { readonly ok: false; readonly status: number; readonly reason: string; readonly faultCode: 'client' | 'server' | 'version' };

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

export interface Binding {
  readonly id: BindingId;
  readonly label: string;
  /** Media type a request carries (undefined: no body). */
  readonly requestMediaType?: string;
  /** Media type every response of this binding must carry. */
  readonly responseMediaType: string;
  /** SOAP envelope namespace, undefined for GET/POST. */
  readonly envelopeNs?: string;

  /** The service path this binding is served at, of a group's configured paths. */
  servicePath(paths: GroupPaths): string;

  // client half
  /**
   * Build the request for an operation. `serviceUrl` is the base URL and this binding's service
   * path (see requestFor in ./endpoint.ts); `ns` is the operation's group namespace.
   */
  encodeRequest(op: Operation, params: Params, serviceUrl: string, ns: string): HttpRequest;
  /** SOAPAction header value for an operation (SOAP 1.1 only). */
  soapAction?(op: Operation, ns: string): string;

  // server half
  /** True when this binding is the one the request uses (method, path, media type). */
  claims(req: IncomingRequest, servicePath: string): boolean;
  /** Decode the operation and parameters, given the operations served at the path and the namespaces. */
  decode(req: IncomingRequest, servicePath: string, ops: readonly Operation[], namespaces: Namespaces): Decoded;
  /** Wrap a serialised result element (as written for this binding) into a complete response. */
  encodeResult(op: Operation, resultXml: string, ns: string): OutgoingResponse;
  /** A failure response: SOAP fault (SOAP) or plain text (GET/POST). */
  encodeFault(status: number, reason: string, faultCode: 'client' | 'server' | 'version'): OutgoingResponse;
}
