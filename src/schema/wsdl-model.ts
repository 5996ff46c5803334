/**
 * What a WSDL 1.1 document means (WsdlModel), as ./wsdl-read.ts reads it and ./wsdl-compare.ts
 * compares it: services and ports, bindings with their kind (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP
 * POST) and per-operation details, portTypes, messages and parts, and the inline schemas' global
 * elements and types with each content model flattened into element particles. Every name is a
 * resolved QName: no prefix, no order of declarations, no annotation and no whitespace. With the
 * namespaces of WSDL 1.1 and its bindings.
 */

export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
export const WSDL_HTTP_NS = 'http://schemas.xmlsoap.org/wsdl/http/';
export const WSDL_MIME_NS = 'http://schemas.xmlsoap.org/wsdl/mime/';

/** A qualified name, resolved. */
export interface QName {
  readonly ns: string;
  readonly local: string;
}

/** `{ns}local`: the key a QName is compared by. */
export const qkey = (q: QName): string => `{${q.ns}}${q.local}`;

/** A type as an element or attribute gives it: by name, or declared in place. */
export type WsdlTypeRef = { readonly named: QName } | { readonly anon: TypeDef };

/** One element of a flattened content model, or a wildcard (open content: xs:any). */
export type Particle =
  | {
      readonly kind: 'element';
      readonly name: QName;
      readonly type?: WsdlTypeRef;
      readonly min: number;
      readonly max: number;
      readonly nillable: boolean;
    }
  | { readonly kind: 'any'; readonly min: number; readonly max: number };

export interface AttributeDecl {
  readonly name: QName;
  readonly type?: WsdlTypeRef;
  readonly required: boolean;
}

export interface ComplexDef {
  readonly kind: 'complex';
  /** Elements in document order, groups flattened (see flatten()). */
  readonly particles: readonly Particle[];
  readonly attributes: readonly AttributeDecl[];
  readonly anyAttribute: boolean;
  readonly mixed: boolean;
  /** simpleContent: the type of the text. */
  readonly textType?: WsdlTypeRef;
  /**
   * The qkeys of the types it extends, nearest first (their particles are in `particles`): a base is reached through
   * its extensions.
   */
  readonly bases?: readonly string[];
}

export interface SimpleDef {
  readonly kind: 'simple';
  readonly base?: WsdlTypeRef;
  readonly enumerations: readonly string[];
  /** Other facets (pattern, length, minInclusive, …), name → values joined by "|". */
  readonly facets: Readonly<Record<string, string>>;
  readonly list?: WsdlTypeRef;
  readonly union?: readonly WsdlTypeRef[];
}

export type TypeDef = ComplexDef | SimpleDef;

export interface ElementDecl {
  readonly name: QName;
  readonly type?: WsdlTypeRef;
  readonly nillable: boolean;
}

export type BindingKind = 'soap11' | 'soap12' | 'get' | 'post' | 'other';

export interface BindingOperation {
  readonly name: string;
  readonly soapAction?: string;
  readonly style?: string;
  readonly inputUse?: string;
  readonly outputUse?: string;
  readonly location?: string;
  /** HTTP input: `urlEncoded`, `urlReplacement` or the mime:content type; output: the mime element. */
  readonly inputEncoding?: string;
  readonly outputEncoding?: string;
}

export interface WsdlBinding {
  readonly name: QName;
  readonly kind: BindingKind;
  readonly portType?: QName;
  readonly verb?: string;
  readonly transport?: string;
  readonly operations: ReadonlyMap<string, BindingOperation>;
}

export interface Part {
  readonly name: string;
  readonly element?: QName;
  readonly type?: QName;
}

export interface WsdlModel {
  readonly targetNamespace: string;
  readonly services: readonly {
    readonly name: string;
    readonly ports: readonly { readonly name: string; readonly binding: QName }[];
  }[];
  readonly bindings: ReadonlyMap<string, WsdlBinding>;
  /** portType key → operation name → input and output message. */
  readonly portTypes: ReadonlyMap<string, ReadonlyMap<string, { readonly input?: QName; readonly output?: QName }>>;
  readonly messages: ReadonlyMap<string, readonly Part[]>;
  readonly elements: ReadonlyMap<string, ElementDecl>;
  readonly types: ReadonlyMap<string, TypeDef>;
}
