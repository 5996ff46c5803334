/** SOAP 1.1 and SOAP 1.2: the two envelope bindings, one factory with the differences as data. */
import type { Operation } from '../contract/catalogue.js';
import { escapeText } from '../core/escape.js';
import { parseXml, SOAP11_ENV_NS, SOAP12_ENV_NS, XmlError, isNil, type XElement } from '../xml/tree.js';
import type { Binding, Decoded, IncomingRequest, OutgoingResponse, Params } from './types.js';
import { mediaType } from './media-type.js';

interface SoapVersion {
  readonly id: 'soap11' | 'soap12';
  readonly label: string;
  readonly envNs: string;
  readonly otherEnvNs: string;
  readonly mediaType: string;
  readonly usesSoapAction: boolean;
  fault(code: 'client' | 'server' | 'version', reason: string): string;
}

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

const SOAP11: SoapVersion = {
  id: 'soap11', label: 'SOAP 1.1', envNs: SOAP11_ENV_NS, otherEnvNs: SOAP12_ENV_NS, mediaType: 'text/xml', usesSoapAction: true,
  fault: (code, reason) => {
    const c = code === 'client' ? 'Client' : code === 'server' ? 'Server' : 'VersionMismatch';
    return `<soap:Fault><faultcode>soap:${c}</faultcode><faultstring>${escapeText(reason)}</faultstring><detail/></soap:Fault>`;
  },
};

const SOAP12: SoapVersion = {
  id: 'soap12', label: 'SOAP 1.2', envNs: SOAP12_ENV_NS, otherEnvNs: SOAP11_ENV_NS, mediaType: 'application/soap+xml', usesSoapAction: false,
  fault: (code, reason) => {
    const c = code === 'client' ? 'Sender' : code === 'server' ? 'Receiver' : 'VersionMismatch';
    return `<soap:Fault><soap:Code><soap:Value>soap:${c}</soap:Value></soap:Code>`
      + `<soap:Reason><soap:Text xml:lang="en">${escapeText(reason)}</soap:Text></soap:Reason><soap:Detail/></soap:Fault>`;
  },
};

function envelope(v: SoapVersion, body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${v.envNs}" ${XSI}><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

const fail = (status: number, reason: string, faultCode: 'client' | 'server' | 'version' = 'client'): Decoded =>
  ({ ok: false, status, reason, faultCode });

function makeSoapBinding(v: SoapVersion): Binding {
  const contentType = `${v.mediaType}; charset=utf-8`;
  const soapAction = (op: Operation, ns: string) => `"${ns}${op.name}"`;
  return {
    id: v.id,
    label: v.label,
    requestMediaType: v.mediaType,
    responseMediaType: v.mediaType,
    envelopeNs: v.envNs,

    soapAction: v.usesSoapAction ? soapAction : undefined,

    servicePath: (paths) => paths.soap,

    encodeRequest(op, params: Params, serviceUrl, ns) {
      const children = op.params
        .filter((p) => params[p.name] !== undefined)
        .map((p) => `<${p.name}>${escapeText(params[p.name]!)}</${p.name}>`).join('');
      const headers: Record<string, string> = { 'content-type': contentType };
      if (v.usesSoapAction) headers.soapaction = soapAction(op, ns);
      return { method: 'POST', url: serviceUrl, headers, body: envelope(v, `<${op.name} xmlns="${ns}">${children}</${op.name}>`) };
    },

    claims(req, servicePath) {
      if (req.method !== 'POST' || req.path !== servicePath) return false;
      const mt = mediaType(req.headers['content-type']);
      return mt === v.mediaType || (v.usesSoapAction && mt === undefined && req.headers.soapaction !== undefined);
    },

    decode(req: IncomingRequest, _servicePath, ops, namespaces): Decoded {
      let root: XElement;
      try {
        root = parseXml(req.body).root;
      } catch (e) {
        return fail(500, e instanceof XmlError ? `request is not well-formed XML: ${e.message}` : String(e));
      }
      if (root.local !== 'Envelope' || (root.ns !== v.envNs && root.ns !== v.otherEnvNs)) {
        return fail(500, `request root is {${root.ns}}${root.local}, expected a ${v.label} Envelope`);
      }
      if (root.ns !== v.envNs) return fail(500, `${v.label} request (Content-Type ${v.mediaType}) carries an envelope of namespace ${root.ns}`, 'version');
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
      const params: Record<string, string | undefined> = {};
      for (const c of call.children) {
        if (c.ns !== ns) continue;
        params[c.local] = isNil(c) ? undefined : c.text;
      }
      return { ok: true, op, params };
    },

    encodeResult(op, resultXml, ns): OutgoingResponse {
      return {
        status: 200,
        headers: { 'content-type': contentType },
        body: envelope(v, `<${op.name}Response xmlns="${ns}">${resultXml}</${op.name}Response>`),
      };
    },

    encodeFault(status, reason, faultCode): OutgoingResponse {
      return { status, headers: { 'content-type': contentType }, body: envelope(v, v.fault(faultCode, reason)) };
    },
  };
}

export const soap11 = makeSoapBinding(SOAP11);
export const soap12 = makeSoapBinding(SOAP12);
