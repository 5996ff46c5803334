/** HTTP GET and HTTP POST: parameters as name=value pairs, the result element as the document root. */
import type { Operation } from '../contract/catalogue.js';
import type { HttpRequest } from '../core/types.js';
import type { Binding, Decoded, IncomingRequest, OutgoingResponse, Params } from './types.js';
import { mediaType } from './media-type.js';
import { escapeAttr } from '../core/escape.js';

const FORM = 'application/x-www-form-urlencoded';
const TEXT_XML = 'text/xml; charset=utf-8';

/** The query string / form body for an operation: every parameter sent as a string, in catalogue order. */
export function encodePairs(op: Operation, params: Params): string {
  const q = new URLSearchParams();
  for (const p of op.params) if (params[p.name] !== undefined) q.append(p.name, params[p.name]!);
  return q.toString();
}

function makeHttpBinding(id: 'get' | 'post'): Binding {
  const method = id === 'get' ? 'GET' : 'POST';
  const port = id === 'get' ? 'HttpGet' : 'HttpPost';
  return {
    id,
    label: id === 'get' ? 'HTTP GET' : 'HTTP POST',
    requestMediaType: id === 'post' ? FORM : undefined,
    responseMediaType: 'text/xml',

    wrapperOf: () => undefined,
    wrapperIn: () => undefined,
    locate(root, op, ns) {
      const ok = root.ns === ns && root.local === op.resultElement;
      return { result: ok ? root : undefined, path: `/${op.resultElement}` };
    },
    // ASMX answers a GET or POST without a required parameter with "Missing parameter".
    mayOmit: (p) => !p.required,
    // The result element is the document root: it declares both namespaces itself (xsi unless each nil element does).
    resultDeclarations: (_prefix, _xsiPrefix, form) => ({ declareNamespace: true, declareXsi: form?.xsiAt !== 'nil' }),
    writeDocument: (_op, resultXml) => resultXml,

    servicePath: (paths) => paths.http,

    encodeRequest(op, params, serviceUrl): HttpRequest {
      const pairs = encodePairs(op, params);
      const url = `${serviceUrl}/${op.name}`;
      if (id === 'get') return { method: 'GET', url: pairs ? `${url}?${pairs}` : url, headers: {} };
      return { method: 'POST', url, headers: { 'content-type': FORM }, body: pairs };
    },

    claims(req, servicePath) {
      return req.method === method && req.path.startsWith(`${servicePath}/`);
    },

    decode(req: IncomingRequest, servicePath, ops): Decoded {
      const name = req.path.slice(servicePath.length + 1);
      const op = ops.find((o) => o.name === name);
      if (!op)
        return { ok: false, status: 404, reason: `unknown operation "${name}" on ${servicePath}`, faultCode: 'client' };
      if (id === 'post' && mediaType(req.headers['content-type']) !== FORM) {
        return { ok: false, status: 415, reason: `HTTP POST needs Content-Type ${FORM}`, faultCode: 'client' };
      }
      const pairs = id === 'get' ? req.query : new URLSearchParams(req.body);
      const params: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
      for (const p of op.params) {
        const v = pairs.get(p.name);
        if (v !== null) params[p.name] = v;
      }
      return { ok: true, op, params };
    },

    encodeResult(_op, resultXml): OutgoingResponse {
      return {
        status: 200,
        headers: { 'content-type': TEXT_XML },
        body: `<?xml version="1.0" encoding="utf-8"?>${resultXml}`,
      };
    },

    encodeFault(status, reason): OutgoingResponse {
      return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: reason };
    },

    wsdl: {
      port,
      portType: port,
      messages: 'http',
      bindingLines: (ops) => [
        `<http:binding verb="${method}"/>`,
        ...ops.flatMap((op) => [
          `<wsdl:operation name="${escapeAttr(op.name)}">`,
          `  <http:operation location="${escapeAttr(`/${op.name}`)}"/>`,
          '  <wsdl:input>',
          `    ${id === 'get' ? '<http:urlEncoded/>' : `<mime:content type="${FORM}"/>`}`,
          '  </wsdl:input>',
          '  <wsdl:output>',
          '    <mime:mimeXml part="Body"/>',
          '  </wsdl:output>',
          '</wsdl:operation>',
        ]),
      ],
      address: (location) => `<http:address location="${escapeAttr(location)}"/>`,
    },
  };
}

export const httpGet = makeHttpBinding('get');
export const httpPost = makeHttpBinding('post');
