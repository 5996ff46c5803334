/** SOAP 1.1 and SOAP 1.2: the two envelope bindings, one factory with the differences as data. */
import type { Operation } from '../contract/catalogue.js';
import { escapeAttr, escapeText } from '../core/escape.js';
import {
  hasDoctype,
  parseXml,
  SOAP11_ENV_NS,
  SOAP12_ENV_NS,
  XmlError,
  XSI_NS,
  isNil,
  type XElement,
} from '../xml/tree.js';
import {
  NIL_VALUE,
  type Binding,
  type Decoded,
  type DoctypeProbe,
  type DocumentForm,
  type IncomingRequest,
  type OutgoingResponse,
  type Params,
} from './types.js';
import { mediaType } from './media-type.js';

interface SoapVersion {
  readonly id: 'soap11' | 'soap12';
  readonly label: string;
  readonly envNs: string;
  readonly otherEnvNs: string;
  readonly mediaType: string;
  readonly usesSoapAction: boolean;
  /** Section 4.1 of SOAP 1.1 lets qualified elements follow the Body; SOAP 1.2 does not. */
  readonly qualifiedAfterBody: boolean;
  /** WSDL: port suffix, namespace prefix of the binding extension and its namespace. */
  readonly wsdl: { readonly port: string; readonly prefix: string };
  fault(code: 'client' | 'server' | 'version', reason: string): string;
}

const XMLSCHEMA_NS = 'http://www.w3.org/2001/XMLSchema';
const SOAP_HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http';

const SOAP11: SoapVersion = {
  id: 'soap11',
  label: 'SOAP 1.1',
  envNs: SOAP11_ENV_NS,
  otherEnvNs: SOAP12_ENV_NS,
  mediaType: 'text/xml',
  usesSoapAction: true,
  qualifiedAfterBody: true,
  wsdl: { port: 'Soap', prefix: 'soap' },
  fault: (code, reason) => {
    const c = code === 'client' ? 'Client' : code === 'server' ? 'Server' : 'VersionMismatch';
    return `<soap:Fault><faultcode>soap:${c}</faultcode><faultstring>${escapeText(reason)}</faultstring><detail/></soap:Fault>`;
  },
};

const SOAP12: SoapVersion = {
  id: 'soap12',
  label: 'SOAP 1.2',
  envNs: SOAP12_ENV_NS,
  otherEnvNs: SOAP11_ENV_NS,
  mediaType: 'application/soap+xml',
  usesSoapAction: false,
  qualifiedAfterBody: false,
  wsdl: { port: 'Soap12', prefix: 'soap12' },
  fault: (code, reason) => {
    const c = code === 'client' ? 'Sender' : code === 'server' ? 'Receiver' : 'VersionMismatch';
    return (
      `<soap:Fault><soap:Code><soap:Value>soap:${c}</soap:Value></soap:Code>`
      + `<soap:Reason><soap:Text `
      + `xml:lang="en">${escapeText(reason)}</soap:Text></soap:Reason><soap:Detail/></soap:Fault>`
    );
  },
};

/**
 * The form every request, fault and reference result is written in: compact, prefix soap, xsi and xsd on the Envelope.
 */
const REFERENCE: DocumentForm = {
  envelopePrefix: 'soap',
  soapHeader: 'none',
  namespaceAt: 'wrapper',
  resultPrefix: '',
  xsiPrefix: 'xsi',
  xsiAt: 'envelope',
  indent: '',
  newline: '\n',
};

/**
 * The one envelope writer: an Envelope of this version around `inner` (and, given `wrapper`, an
 * <Operation>Response declaring the group namespace around it), in a form.
 */
function envelopeOf(
  v: SoapVersion,
  form: DocumentForm,
  inner: string,
  wrapper?: { name: string; ns: string },
  header = '',
): string {
  const e = form.envelopePrefix;
  const nl = form.indent ? form.newline : '';
  const ind = (n: number) => form.indent.repeat(n);
  const xsi =
    form.xsiAt === 'envelope'
      ? ` xmlns:${form.xsiPrefix}="${XSI_NS}"${form === REFERENCE ? ` xmlns:xsd="${XMLSCHEMA_NS}"` : ''}`
      : '';
  let envDecl = '';
  let body = inner;
  if (wrapper) {
    const w = form.resultPrefix ? `${form.resultPrefix}:${wrapper.name}` : wrapper.name;
    const nsDecl = form.resultPrefix
      ? ` xmlns:${form.resultPrefix}="${escapeAttr(wrapper.ns)}"`
      : ` xmlns="${escapeAttr(wrapper.ns)}"`;
    const [onEnvelope, onWrapper] = form.namespaceAt === 'envelope' ? [nsDecl, ''] : ['', nsDecl];
    envDecl = onEnvelope;
    body = `${ind(2)}<${w}${onWrapper}>${nl}${ind(3)}${inner}${nl}${ind(2)}</${w}>`;
  }
  return (
    `<${e}:Envelope `
    + `xmlns:${e}="${v.envNs}"${xsi}${envDecl}>${nl}${header}${ind(1)}<${e}:Body>${nl}${body}${nl}${ind(1)}</${e}:Body>${nl}</${e}:Envelope>`
  );
}

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const envelope = (v: SoapVersion, inner: string): string => DECLARATION + envelopeOf(v, REFERENCE, inner);

/** The name of the one entity a DOCTYPE probe declares. */
export const PROBE_ENTITY = 'probe';

/**
 * An entity's literal value: its replacement text is `value` exactly. `&` and `<` are escaped twice
 * (a character reference in a literal is expanded when the entity is declared, and its replacement
 * text is parsed again where it is used), `"` and `%` once: no reference to another entity survives.
 */
const entityLiteral = (value: string): string =>
  value.replace(/&/g, '&#38;#38;').replace(/</g, '&#38;#60;').replace(/"/g, '&#34;').replace(/%/g, '&#37;');

/** The DOCTYPE of a probe: one entity, internal (its text) or external (the harness's listener). */
function doctypeOf(probe: DoctypeProbe): string {
  const decl =
    probe.entity === 'internal' ? `"${entityLiteral(probe.value)}"` : `SYSTEM "${probe.url.replace(/"/g, '%22')}"`;
  return `<!DOCTYPE soap:Envelope [<!ENTITY ${PROBE_ENTITY} ${decl}>]>`;
}

/**
 * What an ASMX service answers to a request with a DOCTYPE (its XmlReader prohibits DTDs): a client
 * fault with HTTP 500. The real service's words, so the mock refuses as it does.
 */
const DTD_PROHIBITED =
  'Server was unable to read request. ---> There is an error in XML document (1, 40). ---> '
  + 'For security reasons DTD is prohibited in this XML document. To enable DTD processing set the '
  + 'DtdProcessing property on XmlReaderSettings to Parse and pass the settings into XmlReader.Create '
  + 'method.';

const fail = (status: number, reason: string, faultCode: 'client' | 'server' | 'version' = 'client'): Decoded => ({
  ok: false,
  status,
  reason,
  faultCode,
});

function makeSoapBinding(v: SoapVersion): Binding {
  const contentType = `${v.mediaType}; charset=utf-8`;
  const soapAction = (op: Operation, ns: string) => `"${ns}${op.name}"`;
  return {
    id: v.id,
    label: v.label,
    requestMediaType: v.mediaType,
    responseMediaType: v.mediaType,
    envelopeNs: v.envNs,

    qualifiedAfterBody: v.qualifiedAfterBody,

    soapAction: v.usesSoapAction ? soapAction : undefined,
    misroutedProbe: v.usesSoapAction
      ? (routedTo, ns) => ({
          headers: { 'content-type': contentType, soapaction: `"${ns}${routedTo}"` },
          description: `${v.label} call whose SOAPAction names ${routedTo}`,
        })
      : undefined,

    servicePath: (paths) => paths.soap,
    wrapperOf: (op) => `${op.name}Response`,
    wrapperIn: (root) => root.children.find((c) => c.local === 'Body' && c.ns === root.ns)?.children[0],
    locate(root, op, ns) {
      const body = root.children.find((c) => c.local === 'Body' && c.ns === root.ns);
      const wrapper = body?.children.find((c) => c.ns === ns && c.local === `${op.name}Response`);
      const result = wrapper?.children.find((c) => c.ns === ns && c.local === op.resultElement);
      return { wrapper, result, path: `/Envelope/Body/${op.name}Response/${op.resultElement}` };
    },
    // An absent string parameter reads as null; a typed one cannot be read without a value.
    mayOmit: (p) => !p.required || p.type === 'string',

    sendsNil: true,

    encodeRequest(op, params: Params, serviceUrl, ns) {
      // NIL_VALUE: the parameter sent as nil, as a .NET client writes a null string.
      const children = op.params
        .filter((p) => params[p.name] !== undefined)
        .map((p) =>
          params[p.name] === NIL_VALUE
            ? `<${p.name} xsi:nil="true" xmlns:xsi="${XSI_NS}"/>`
            : `<${p.name}>${escapeText(params[p.name]!)}</${p.name}>`,
        )
        .join('');
      const headers: Record<string, string> = { 'content-type': contentType };
      if (v.usesSoapAction) headers.soapaction = soapAction(op, ns);
      return {
        method: 'POST',
        url: serviceUrl,
        headers,
        body: envelope(v, `<${op.name} xmlns="${ns}">${children}</${op.name}>`),
      };
    },

    // The request as encodeRequest writes it, the DOCTYPE after the XML declaration and the entity
    // reference as the parameter's whole value (sent even when the parameters leave it out).
    doctypeRequest(op, params, serviceUrl, ns, probe, param) {
      const marker = `conformance-doctype-${PROBE_ENTITY}-marker`;
      const req = this.encodeRequest(op, { ...params, [param]: marker }, serviceUrl, ns);
      const body = req
        .body!.replace(DECLARATION, `${DECLARATION}${doctypeOf(probe)}`)
        .replace(`>${marker}<`, `>&${PROBE_ENTITY};<`);
      return { ...req, body };
    },

    claims(req, servicePath) {
      if (req.method !== 'POST' || req.path !== servicePath) return false;
      const mt = mediaType(req.headers['content-type']);
      return mt === v.mediaType || (v.usesSoapAction && mt === undefined && req.headers.soapaction !== undefined);
    },

    decode(req: IncomingRequest, _servicePath, ops, namespaces): Decoded {
      let root: XElement;
      // A document type declaration is refused before anything is read from the document, as the
      // real service's XmlReader does: its entities are never expanded, nothing is fetched.
      if (hasDoctype(req.body)) return fail(500, DTD_PROHIBITED);
      try {
        root = parseXml(req.body).root;
      } catch (e) {
        return fail(500, e instanceof XmlError ? `request is not well-formed XML: ${e.message}` : String(e));
      }
      if (root.local !== 'Envelope' || (root.ns !== v.envNs && root.ns !== v.otherEnvNs)) {
        return fail(500, `request root is {${root.ns}}${root.local}, expected a ${v.label} Envelope`);
      }
      if (root.ns !== v.envNs)
        return fail(
          500,
          `${v.label} request (Content-Type ${v.mediaType}) carries an envelope of namespace ${root.ns}`,
          'version',
        );
      const body = root.children.find((c) => c.ns === v.envNs && c.local === 'Body');
      if (!body) return fail(500, 'the envelope has no Body');
      const call = body.children[0];
      if (!call) return fail(500, 'the Body holds no operation element');
      const op = ops.find((o) => o.name === call.local && namespaces[o.ns] === call.ns);
      if (!op) return fail(500, `unknown operation {${call.ns}}${call.local}`);
      const ns = namespaces[op.ns];
      if (v.usesSoapAction) {
        const action = req.headers.soapaction;
        if (action === undefined) return fail(500, 'missing SOAPAction header');
        if (action !== soapAction(op, ns)) {
          return fail(500, `SOAPAction ${action} does not match the operation: expected ${soapAction(op, ns)}`);
        }
      }
      const params: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
      for (const c of call.children) {
        if (c.ns !== ns) continue;
        params[c.local] = isNil(c) ? undefined : c.text;
      }
      return { ok: true, op, params };
    },

    // The wrapper declares the group namespace (the reference one only as the default namespace) and
    // the Envelope binds xsi (the reference one only as "xsi"): the result declares the rest.
    resultDeclarations: (prefix, xsiPrefix, form) =>
      form
        ? { declareNamespace: false, declareXsi: form.xsiAt === 'result' }
        : { declareNamespace: prefix !== '', declareXsi: xsiPrefix !== 'xsi' },

    encodeResult(op, resultXml, ns): OutgoingResponse {
      return {
        status: 200,
        headers: { 'content-type': contentType },
        body: DECLARATION + envelopeOf(v, REFERENCE, resultXml, { name: `${op.name}Response`, ns }),
      };
    },

    writeDocument(op, resultXml, ns, form) {
      const nl = form.indent ? form.newline : '';
      const e = form.envelopePrefix;
      const header =
        form.soapHeader === 'none'
          ? ''
          : form.soapHeader === 'empty'
            ? `${form.indent}<${e}:Header/>${nl}`
            : `${form.indent}<${e}:Header><t:Trace `
              + `xmlns:t="urn:example:trace">mock-${op.name}</t:Trace></${e}:Header>${nl}`;
      return envelopeOf(v, form, resultXml, { name: `${op.name}Response`, ns }, header);
    },

    encodeFault(status, reason, faultCode): OutgoingResponse {
      return { status, headers: { 'content-type': contentType }, body: envelope(v, v.fault(faultCode, reason)) };
    },

    wsdl: {
      port: v.wsdl.port,
      portType: 'Soap',
      messages: 'soap',
      bindingLines(ops, tns) {
        const p = v.wsdl.prefix;
        return [
          `<${p}:binding transport="${SOAP_HTTP_TRANSPORT}"/>`,
          ...ops.flatMap((op) => [
            `<wsdl:operation name="${escapeAttr(op.name)}">`,
            `  <${p}:operation soapAction="${escapeAttr(`${tns}${op.name}`)}" style="document"/>`,
            '  <wsdl:input>',
            `    <${p}:body use="literal"/>`,
            '  </wsdl:input>',
            '  <wsdl:output>',
            `    <${p}:body use="literal"/>`,
            '  </wsdl:output>',
            '</wsdl:operation>',
          ]),
        ];
      },
      address: (location) => `<${v.wsdl.prefix}:address location="${escapeAttr(location)}"/>`,
    },
  };
}

export const soap11 = makeSoapBinding(SOAP11);
export const soap12 = makeSoapBinding(SOAP12);
