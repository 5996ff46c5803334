/**
 * A broken or hostile target for the harness's self-tests, on 127.0.0.1 only. One plain HTTP
 * listener serves every behaviour on its own path prefix (the harness appends the service paths to
 * a base URL, so `url('trickle')` is a base URL whose every request trickles); an optional HTTPS
 * listener (caller's certificate) serves the same handler; a second plain listener is the redirect
 * target (it must never receive anything); one port is reserved and closed so connecting to it is
 * refused.
 *
 * Every request is recorded (behaviour, operation named by path/body and by SOAPAction, start and
 * end time) so tests can count attempts, measure peak concurrency and request rate, and prove that
 * mutations and credentials were not sent. Everything is bounded: trickles and floods stop by
 * themselves, and close() ends every connection.
 */
import {
  request as httpRequest,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import {
  deepNamespaces,
  hugeFault,
  longText,
  manyAttributes,
  manyNamespaceDeclarations,
  manySiblings,
  manyXsdErrors,
  unknownSiblings,
} from './hostile-docs.js';

export const BEHAVIOURS = [
  'proxy', // forwards to the upstream (the embedded mock): a conforming target
  'slow', // the same, each answer 250 ms late (for concurrency measurements)
  'silent', // reads the request, never answers
  'trickle', // 200 and headers, then one byte every 100 ms
  'reset', // 200, part of the body, then a TCP reset
  'reset-conn', // a TCP reset as soon as the request arrives (no response at all)
  'huge', // a 200 body far larger than any cap, written as fast as the client reads
  'not-xml', // 200 text/xml whose body is not XML
  'html', // 502 with an HTML error page
  'xxe', // XML with an external entity pointing at a local file (general and parameter entity)
  'xxe-hidden', // the same, the DOCTYPE after a comment that contains "<a" (fools a naive prolog scan)
  'bomb', // billion laughs
  'bomb-hidden', // billion laughs, DOCTYPE after a comment containing "<a"
  'deep', // 100,000 nested elements
  'bad-utf8', // declared UTF-8, invalid byte sequences
  'redirect', // 307 (POST) / 302 (GET) to the redirect-target listener
  'fault500', // 500 with a SOAP fault of the request's SOAP version (text for GET/POST)
  'echo', // echoes the request's password back, in many encodings, in a fault / document and a header
  'echo-cut', // a 500 whose fault or text puts the password where a 120-character quote cuts it
  'echo-utf16le', // the echo document in UTF-16LE with a BOM, declared utf-16
  'echo-utf16be', // the echo document in UTF-16BE without a BOM, declared utf-8 (a lie)
  'echo-latin1', // the echo document in ISO-8859-1 bytes, declared utf-8 (a lie)
  'echo-split', // the password echoed split by markup: adjacent CDATA sections, a comment, a character reference (splitEchoes)
  'xsd-errors', // a GetMeals answer with thousands of meals whose id is not an int (sizes.xsdErrors)
  'many-attributes', // one meal with 100,000 attributes (sizes.attributes)
  'deep-namespaces', // 20,000 declarations on the result, and 20,000 meals declaring one more (sizes.namespaces)
  'siblings', // a million empty meals (sizes.siblings)
  'namespace-declarations', // 400,000 namespace declarations on one element (sizes.declarations)
  'differ', // a valid answer whose meal name is 5 MB of text, different in SOAP and in GET/POST (sizes.differBytes)
  'fault-10mb', // HTTP 500 with a SOAP fault (text for GET/POST) of 10 MB (sizes.faultBytes)
  'status-099', // a status line with the code 099
  'spoof', // a 500 whose fault text holds U+202E, U+2028 and a fake CI log line
  'unknown-siblings', // a million empty elements the contract does not know, <z/>, in the result element (sizes.siblings)
  'unknown-siblings-differ', // the same, but GET/POST's first <z> holds a text: the bindings' answers differ, so the comparison reads them (sizes.siblings)
] as const;

export type Behaviour = (typeof BEHAVIOURS)[number];

export interface RecordedRequest {
  readonly listener: 'main' | 'tls' | 'redirect-target';
  readonly behaviour: Behaviour | 'unknown';
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The operation the path (GET/POST) or the SOAP body's first element names. */
  readonly operation?: string;
  /** The operation the SOAPAction header (SOAP 1.1) or the action parameter (SOAP 1.2) names. */
  readonly actionOperation?: string;
  readonly startedAt: number;
  endedAt?: number;
}

export interface HostileOptions {
  /** Base URL the 'proxy' behaviour forwards to (e.g. the embedded mock's URL). */
  readonly upstream?: string;
  /** The local file the XXE behaviours reference. */
  readonly xxeFile?: string;
  /** Key and certificate (PEM) for the HTTPS listener; without them there is none. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  /** Bytes the 'huge' behaviour offers per response (default 512 MiB). */
  readonly hugeBytes?: number;
  /** Longest time a trickle goes on (default 60 s). */
  readonly trickleMaxMs?: number;
  /** Sizes of the documents of the heavy behaviours (defaults: the sizes that once broke the harness). */
  readonly sizes?: Partial<HostileSizes>;
}

export interface HostileSizes {
  /** Meals with an invalid id ('xsd-errors'). */
  readonly xsdErrors: number;
  /** Attributes on one meal ('many-attributes'). */
  readonly attributes: number;
  /** Declarations on the result and declaring meals ('deep-namespaces'). */
  readonly namespaces: number;
  /** Empty meals ('siblings'). */
  readonly siblings: number;
  /** Declarations on one element ('namespace-declarations'). */
  readonly declarations: number;
  /** Characters of the differing text ('differ'). */
  readonly differBytes: number;
  /** Characters of the fault ('fault-10mb'). */
  readonly faultBytes: number;
}

export const DEFAULT_SIZES: HostileSizes = {
  xsdErrors: 5_000,
  attributes: 100_000,
  namespaces: 20_000,
  siblings: 1_000_000,
  declarations: 400_000,
  differBytes: 5 * 1024 * 1024,
  faultBytes: 10 * 1024 * 1024,
};

export interface HostileServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** Base URL for a behaviour on the plain listener. */
  url(b: Behaviour): string;
  /** Base URL for a behaviour on the HTTPS listener (throws without `tls`). */
  tlsUrl(b: Behaviour): string;
  /** A base URL on 127.0.0.1 where nothing listens. */
  readonly refusedUrl: string;
  /** Origin of the redirect target. */
  readonly redirectTargetOrigin: string;
  /** Everything received, on every listener, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests of one behaviour (plain and TLS listeners). */
  of(b: Behaviour): RecordedRequest[];
  /** What the redirect target received (must stay empty). */
  readonly redirectTargetRequests: readonly RecordedRequest[];
  /** Bytes of response body written per behaviour. */
  bytesSent(b: Behaviour): number;
  /**
   * Peak requests in flight at once and most request starts within any 1000 ms and any 2000 ms, for
   * one behaviour. Starts are taken on arrival here: a busy event loop bunches them by a few.
   */
  load(b: Behaviour): { peakInFlight: number; maxPerSecond: number; maxPerTwoSeconds: number; count: number };
  /** Forget recorded requests and counters. */
  clear(): void;
  close(): Promise<void>;
}

const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

/** The operation named by a GET/POST path or by the first element of a SOAP Body. */
export function operationOf(path: string, body: string): string | undefined {
  const byPath = /\.asmx\/([A-Za-z0-9_]+)(?:[?#]|$)/.exec(path)?.[1];
  if (byPath) return byPath;
  return /<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/.exec(body)?.[1];
}

/** The operation named by SOAPAction (SOAP 1.1) or the Content-Type action parameter (SOAP 1.2). */
export function actionOperationOf(headers: IncomingMessage['headers']): string | undefined {
  const fromAction = (v: string) => /([A-Za-z0-9_]+)"?\s*$/.exec(v.replace(/^"|"$/g, ''))?.[1];
  const sa = headers.soapaction;
  if (typeof sa === 'string' && sa.trim()) return fromAction(sa);
  const action = /;\s*action\s*=\s*("[^"]*"|[^;\s]*)/i.exec(headers['content-type'] ?? '')?.[1];
  return action ? fromAction(action) : undefined;
}

/** The password a request carries: query, form body or SOAP <password> element (XML-unescaped). */
export function passwordOf(url: string, body: string): string | undefined {
  const q = new URL(url, 'http://x').searchParams.get('password');
  if (q !== null) return q;
  const m = /<(?:[\w.-]+:)?password(?:\s[^>]*)?>([^<]*)<\//.exec(body);
  if (m)
    return m[1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#13;/g, '\r')
      .replace(/&amp;/g, '&');
  if (body && !body.trimStart().startsWith('<')) return new URLSearchParams(body).get('password') ?? undefined;
  return undefined;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function soapVersion(req: IncomingMessage): '1.1' | '1.2' | undefined {
  const ct = (req.headers['content-type'] ?? '').toLowerCase();
  if (req.method !== 'POST') return undefined;
  if (ct.startsWith('application/soap+xml')) return '1.2';
  if (ct.startsWith('text/xml')) return '1.1';
  return undefined;
}

/**
 * The password in the spellings a target or its logs produce (kept apart from src/core/redact.ts):
 * entities named, decimal and hex (any case), percent-encoding upper and lower case and of every
 * byte, form encoding, JSON escapes, base64, and the whole request quoted (as faults do).
 */
export function echoForms(pw: string, request: string): string[] {
  const cps = [...pw].map((c) => c.codePointAt(0)!);
  const bytes = [...Buffer.from(pw, 'utf8')];
  const forms: [string, string][] = [
    ['apos-x27', xmlText(pw).replace(/'/g, '&#x27;').replace(/"/g, '&quot;')],
    ['dec-refs', cps.map((c) => `&#${c};`).join('')],
    ['hex-refs', cps.map((c) => `&#x${c.toString(16)};`).join('')],
    ['HEX-refs', cps.map((c) => `&#X${c.toString(16).toUpperCase()};`).join('')],
    ['pct-lower', encodeURIComponent(pw).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['pct-every-byte', bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
    [
      'pct-some-bytes',
      bytes
        .map((b, i) =>
          i % 2 && b < 0x80 && /[A-Za-z0-9]/.test(String.fromCharCode(b))
            ? String.fromCharCode(b)
            : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
        )
        .join(''),
    ],
    ['form', new URLSearchParams({ p: pw }).toString().slice(2)],
    ['json-u', [...pw].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['json-U', [...pw].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')],
    ['json', JSON.stringify(pw)],
    ['b64', Buffer.from(pw, 'utf8').toString('base64')],
  ];
  return [
    ...forms.map(([k, t]) => `<${k}>${xmlText(t)}</${k}>`),
    `<quoted-request>${xmlText(request)}</quoted-request>`,
  ];
}

/**
 * The password echoed so that no run of its raw characters is the password, while the text content
 * is: split across adjacent CDATA sections, by a comment, by a character reference in the middle,
 * and by all three (issue 25).
 */
export function splitEchoes(pw: string): string[] {
  const cps = [...pw];
  const mid = Math.max(1, Math.floor(cps.length / 2));
  const a = cps.slice(0, mid).join('');
  const b = cps.slice(mid).join('');
  const cdata = (t: string) => `<![CDATA[${t.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  const third = Math.max(1, Math.floor(cps.length / 3));
  return [
    `<cdata>${cdata(a)}${cdata(b)}</cdata>`,
    `<comment>${xmlText(a)}<!-- split -->${xmlText(b)}</comment>`,
    `<charref>${xmlText(a)}&#${cps[mid]!.codePointAt(0)};${xmlText(cps.slice(mid + 1).join(''))}</charref>`,
    `<all>${cdata(cps.slice(0, third).join(''))}<!---->&#x${cps[third]!.codePointAt(0)!.toString(16)};${xmlText(cps.slice(third + 1, 2 * third).join(''))}${cdata(cps.slice(2 * third).join(''))}</all>`,
  ];
}

function envelope(v: '1.1' | '1.2', inner: string, prolog = ''): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>${prolog}<soap:Envelope `
    + `xmlns:soap="${v === '1.1' ? SOAP11_NS : SOAP12_NS}"><soap:Body>${inner}</soap:Body></soap:Envelope>`
  );
}

function fault(v: '1.1' | '1.2', code: string, reason: string, detail = ''): string {
  return v === '1.1'
    ? envelope(
        v,
        `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${xmlText(reason)}</faultstring><detail>${detail}</detail></soap:Fault>`,
      )
    : envelope(
        v,
        `<soap:Fault><soap:Code><soap:Value>soap:${code === 'Client' ? 'Sender' : 'Receiver'}</soap:Value></soap:Code>`
          + `<soap:Reason><soap:Text `
          + `xml:lang="en">${xmlText(reason)}</soap:Text></soap:Reason><soap:Detail>${detail}</soap:Detail></soap:Fault>`,
      );
}

/** Billion laughs: 10 levels of 10 references, about 3 GB once expanded. */
export function billionLaughsDoctype(root: string): string {
  let d = `<!DOCTYPE ${root} [<!ENTITY lol0 "lollollollollollollollollollol">`;
  for (let i = 1; i <= 9; i++) d += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
  return `${d}]>`;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Start the hostile target. */
export async function startHostileServer(options: HostileOptions = {}): Promise<HostileServer> {
  const hugeBytes = options.hugeBytes ?? 512 * 1024 * 1024;
  const sizes: HostileSizes = { ...DEFAULT_SIZES, ...options.sizes };
  // The heavy documents are built once per framing and size, then served again and again.
  const built = new Map<string, Buffer>();
  const once = (key: string, make: () => string) => {
    let b = built.get(key);
    if (!b) built.set(key, (b = Buffer.from(make(), 'utf8')));
    return b;
  };
  const trickleMaxMs = options.trickleMaxMs ?? 60_000;
  const requests: RecordedRequest[] = [];
  const redirectTargetRequests: RecordedRequest[] = [];
  const sent = new Map<Behaviour, number>();
  const inFlight = new Map<Behaviour, number>();
  const peak = new Map<Behaviour, number>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let redirectOrigin = '';

  const count = (b: Behaviour, n: number) => sent.set(b, (sent.get(b) ?? 0) + n);
  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
    return t;
  };

  function readBody(req: IncomingMessage, max = 1024 * 1024): Promise<string> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let n = 0;
      req.on('data', (c: Buffer) => {
        n += c.length;
        if (n <= max) chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }

  function proxy(req: IncomingMessage, res: ServerResponse, path: string, body: string, b: Behaviour): void {
    if (!options.upstream) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('no upstream configured');
      return;
    }
    const target = new URL(options.upstream.replace(/\/+$/, '') + path);
    const headers = { ...req.headers, host: target.host };
    delete headers['content-length'];
    const out = httpRequest(
      target,
      { method: req.method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on('data', (c: Buffer) => count(b, c.length));
        up.pipe(res);
      },
    );
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${e.message}`);
    });
    out.end(body);
  }

  async function handle(listener: 'main' | 'tls', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const seg = /^\/([a-z0-9-]+)(\/.*)?$/.exec(url.split('?')[0]!);
    const b = (BEHAVIOURS as readonly string[]).includes(seg?.[1] ?? '') ? (seg![1] as Behaviour) : undefined;
    const rest = b ? url.slice(b.length + 1) || '/' : url;
    const startedAt = Date.now();
    const body = await readBody(req);
    const rec: RecordedRequest = {
      listener,
      behaviour: b ?? 'unknown',
      method: req.method ?? '',
      url,
      headers: req.headers,
      body,
      operation: operationOf(rest.split('?')[0]!, body),
      actionOperation: actionOperationOf(req.headers),
      startedAt,
    };
    requests.push(rec);
    if (!b) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`unknown behaviour in ${url}`);
      rec.endedAt = Date.now();
      return;
    }
    inFlight.set(b, (inFlight.get(b) ?? 0) + 1);
    peak.set(b, Math.max(peak.get(b) ?? 0, inFlight.get(b)!));
    res.on('close', () => {
      inFlight.set(b, inFlight.get(b)! - 1);
      rec.endedAt = Date.now();
    });
    const v = soapVersion(req);
    const xml = (
      status: number,
      text: string | Buffer,
      type = v === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8',
    ) => {
      const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
      count(b, bytes.length);
      res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.length) }).end(bytes);
    };
    const result = (inner: string, prolog = '') =>
      v ? envelope(v, inner, prolog) : `<?xml version="1.0" encoding="utf-8"?>${prolog}${inner}`;

    switch (b) {
      case 'proxy':
        return proxy(req, res, rest, body, b);
      case 'slow':
        later(250, () => proxy(req, res, rest, body, b));
        return;
      case 'silent':
        // Never answer; the harness must give up. close() ends the socket.
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
        res.write('<');
        const t = setInterval(() => {
          res.write('a');
          count(b, 1);
        }, 100);
        timers.add(t as unknown as NodeJS.Timeout);
        const stop = () => {
          clearInterval(t);
          timers.delete(t as unknown as NodeJS.Timeout);
        };
        res.on('close', stop);
        later(trickleMaxMs, () => {
          stop();
          res.end('/>');
        });
        return;
      }
      case 'reset': {
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': '100000' });
        const part = result('<partial>' + 'x'.repeat(2000));
        res.write(part);
        count(b, part.length);
        later(30, () => req.socket.resetAndDestroy());
        return;
      }
      case 'reset-conn':
        req.socket.resetAndDestroy();
        return;
      case 'huge': {
        res.writeHead(200, {
          'content-type': v === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8',
        });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let written = 0;
        const head = Buffer.from('<?xml version="1.0" encoding="utf-8"?><big>');
        res.write(head);
        const pump = (): void => {
          while (written < hugeBytes && !res.destroyed) {
            written += chunk.length;
            count(b, chunk.length);
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end('</big>');
        };
        pump();
        return;
      }
      case 'not-xml':
        return xml(200, 'this is not XML at all { "json": true } <unclosed', 'text/xml; charset=utf-8');
      case 'html': {
        const page =
          '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>'
          + '<p>The proxy server received an invalid response from an upstream '
          + 'server.<br></p><hr><address>Apache Server</address></body></html>';
        return xml(502, page, 'text/html; charset=iso-8859-1');
      }
      case 'xxe':
      case 'xxe-hidden': {
        const file = options.xxeFile ?? '/etc/hostname';
        const doctype =
          `<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM "file://${file}"><!ENTITY % pe SYSTEM `
          + `"file://${file}"> %pe;]>`;
        const inner = `<Leak xmlns="urn:hostile"><value>&xxe;</value><attr v="&xxe;"/></Leak>`;
        const text = result(inner, b === 'xxe-hidden' ? `<!-- <a> --><?pi <b ?>${doctype}` : doctype);
        return xml(200, text);
      }
      case 'bomb':
      case 'bomb-hidden': {
        const doctype = billionLaughsDoctype(v ? 'soap:Envelope' : 'lolz');
        const inner = `<Lolz xmlns="urn:hostile" a="&lol9;">&lol9;</Lolz>`;
        return xml(200, result(inner, b === 'bomb-hidden' ? `<!-- <a> -->${doctype}` : doctype));
      }
      case 'deep': {
        const depth = 100_000;
        return xml(200, result(`${'<d>'.repeat(depth)}x${'</d>'.repeat(depth)}`));
      }
      case 'bad-utf8': {
        const text = result('<Bad xmlns="urn:hostile">caf\u0000</Bad>');
        const bytes = Buffer.from(text, 'utf8');
        const at = bytes.indexOf(0);
        const bad = Buffer.concat([
          bytes.subarray(0, at),
          Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
          bytes.subarray(at + 1),
        ]);
        return xml(200, bad);
      }
      case 'redirect': {
        const status = req.method === 'POST' ? 307 : 302;
        res
          .writeHead(status, {
            location: `${redirectOrigin}/stolen${rest}`,
            'content-type': 'text/html',
            'content-length': '0',
          })
          .end();
        return;
      }
      case 'fault500': {
        if (v)
          return xml(
            500,
            fault(
              v,
              'Server',
              'Server was unable to process request. ---> Object reference not set to an instance of an object.',
            ),
          );
        return xml(
          500,
          'System.InvalidOperationException: Request format is invalid.\r\n   at '
            + 'System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()',
          'text/plain; charset=utf-8',
        );
      }
      case 'echo-cut': {
        const pw = passwordOf(url, body) ?? '';
        const reason = `${'P'.repeat(110)}${pw}`;
        return v ? xml(500, fault(v, 'Client', reason)) : xml(500, reason, 'text/plain; charset=utf-8');
      }
      case 'echo-utf16le':
      case 'echo-utf16be':
      case 'echo-latin1': {
        const pw = passwordOf(url, body) ?? '';
        const doc =
          `<?xml version="1.0" `
          + `encoding="${b === 'echo-utf16le' ? 'utf-16' : b === 'echo-latin1' ? 'iso-8859-1' : 'utf-8'}"?>`
          + `<Echo xmlns="urn:hostile"><message>Login failed for password `
          + `'${xmlText(pw)}'</message>${echoForms(pw, body).join('')}</Echo>`;
        if (b === 'echo-latin1') return xml(200, Buffer.from(doc, 'latin1'), 'text/xml; charset=utf-8');
        const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')]);
        if (b === 'echo-utf16le') return xml(200, le, 'text/xml; charset=utf-16');
        return xml(200, Buffer.from(doc, 'utf16le').swap16(), 'text/xml; charset=utf-8');
      }
      case 'xsd-errors':
        return xml(
          200,
          once(`x${v}${sizes.xsdErrors}`, () => manyXsdErrors(v, sizes.xsdErrors)),
        );
      case 'many-attributes':
        return xml(
          200,
          once(`a${v}${sizes.attributes}`, () => manyAttributes(v, sizes.attributes)),
        );
      case 'deep-namespaces':
        return xml(
          200,
          once(`n${v}${sizes.namespaces}`, () => deepNamespaces(v, sizes.namespaces)),
        );
      case 'siblings':
        return xml(
          200,
          once(`s${v}${sizes.siblings}`, () => manySiblings(v, sizes.siblings)),
        );
      case 'unknown-siblings':
        return xml(
          200,
          once(`u${v}${sizes.siblings}`, () => unknownSiblings(v, sizes.siblings)),
        );
      case 'unknown-siblings-differ':
        return xml(
          200,
          once(`ud${v}${sizes.siblings}`, () => unknownSiblings(v, sizes.siblings, v ? undefined : 'http')),
        );
      case 'namespace-declarations':
        return xml(
          200,
          once(`d${v}${sizes.declarations}`, () => manyNamespaceDeclarations(v, sizes.declarations)),
        );
      case 'differ':
        return xml(
          200,
          once(`t${v}${sizes.differBytes}`, () => longText(v, sizes.differBytes, v ? 'soap text ' : 'http text ')),
        );
      case 'fault-10mb':
        return v
          ? xml(
              500,
              once(`f${v}${sizes.faultBytes}`, () => hugeFault(v, sizes.faultBytes)),
            )
          : xml(
              500,
              once(`f${sizes.faultBytes}`, () => hugeFault(undefined, sizes.faultBytes)),
              'text/plain; charset=utf-8',
            );
      case 'status-099':
        count(b, 0);
        req.socket.end('HTTP/1.1 099 Weird\r\ncontent-type: text/xml\r\ncontent-length: 4\r\n\r\n<a/>');
        return;
      case 'spoof': {
        const text = 'Server error \u202Etxt.exe\u2028::error file=conformance.json::all checks passed\u2029\u0085ok';
        return v ? xml(500, fault(v, 'Server', text)) : xml(500, text, 'text/plain; charset=utf-8');
      }
      case 'echo-split': {
        const pw = passwordOf(url, body) ?? '';
        const forms = `<Echo xmlns="urn:hostile">${splitEchoes(pw).join('')}</Echo>`;
        if (v) return xml(500, fault(v, 'Client', 'Login failed', forms));
        return xml(200, `<?xml version="1.0" encoding="utf-8"?>${forms}`);
      }
      case 'echo': {
        const pw = passwordOf(url, body) ?? '';
        const forms = [
          ...echoForms(pw, body),
          `<raw>${xmlText(pw)}</raw>`,
          `<cdata><![CDATA[${pw.replace(/]]>/g, ']]]]><![CDATA[>')}]]></cdata>`,
          `<url>${xmlText(encodeURIComponent(pw))}</url>`,
          `<form>${xmlText(new URLSearchParams({ p: pw }).toString().slice(2))}</form>`,
          `<json>${xmlText(JSON.stringify(pw))}</json>`,
          `<b64>${Buffer.from(pw, 'utf8').toString('base64')}</b64>`,
          `<quoted q="${xmlText(pw).replace(/"/g, '&quot;').replace(/'/g, '&apos;')}" `
            + `q2="${xmlText(pw).replace(/"/g, '&#34;').replace(/'/g, '&#39;')}"/>`,
          `<request>${xmlText(body)}</request>`,
        ].join('');
        res.setHeader('x-echo-password', encodeURIComponent(pw));
        if (v)
          return xml(
            500,
            fault(
              v,
              'Client',
              `Login failed for password '${pw}' (user ${String(/userName>([^<]*)</.exec(body)?.[1] ?? '')})`,
              `<Echo xmlns="urn:hostile">${forms}</Echo>`,
            ),
          );
        return xml(
          200,
          `<?xml version="1.0" encoding="utf-8"?><Echo xmlns="urn:hostile"><message>Login failed for `
            + `password '${xmlText(pw)}'</message>${forms}</Echo>`,
        );
      }
    }
  }

  const track = (s: Server) =>
    s.on('connection', (sock: Socket) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
  const onError = (res: ServerResponse) => {
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  };

  const main = createServer((req, res) => {
    handle('main', req, res).catch(() => onError(res));
  });
  track(main);
  const mainPort = await listen(main);

  let tls: Server | undefined;
  let tlsPort = 0;
  if (options.tls) {
    tls = createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, (req, res) => {
      handle('tls', req, res).catch(() => onError(res));
    });
    track(tls);
    tls.on('tlsClientError', () => {
      /* the harness refusing our certificate: expected */
    });
    tlsPort = await listen(tls);
  }

  const redirectTarget = createServer((req, res) => {
    void readBody(req).then((body) => {
      redirectTargetRequests.push({
        listener: 'redirect-target',
        behaviour: 'redirect',
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        operation: undefined,
        actionOperation: undefined,
        startedAt: Date.now(),
        endedAt: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<stolen/>');
    });
  });
  track(redirectTarget);
  redirectOrigin = `http://127.0.0.1:${await listen(redirectTarget)}`;

  // A port that was free a moment ago and is closed now: connections to it are refused.
  const probe = createServer();
  const refusedPort = await listen(probe);
  await new Promise<void>((r) => probe.close(() => r()));

  const origin = `http://127.0.0.1:${mainPort}`;
  return {
    origin,
    url: (b) => `${origin}/${b}`,
    tlsUrl: (b) => {
      if (!tls) throw new Error('no TLS listener: pass options.tls');
      return `https://127.0.0.1:${tlsPort}/${b}`;
    },
    refusedUrl: `http://127.0.0.1:${refusedPort}`,
    redirectTargetOrigin: redirectOrigin,
    requests,
    redirectTargetRequests,
    of: (b) => requests.filter((r) => r.behaviour === b),
    bytesSent: (b) => sent.get(b) ?? 0,
    load(b) {
      const starts = requests
        .filter((r) => r.behaviour === b)
        .map((r) => r.startedAt)
        .sort((x, y) => x - y);
      const most = (ms: number) => {
        let n = 0;
        for (let i = 0, j = 0; j < starts.length; j++) {
          while (starts[j]! - starts[i]! >= ms) i++;
          n = Math.max(n, j - i + 1);
        }
        return n;
      };
      return {
        peakInFlight: peak.get(b) ?? 0,
        maxPerSecond: most(1000),
        maxPerTwoSeconds: most(2000),
        count: starts.length,
      };
    },
    clear() {
      requests.length = 0;
      redirectTargetRequests.length = 0;
      sent.clear();
      peak.clear();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const servers = [main, redirectTarget, ...(tls ? [tls] : [])];
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      );
      for (const s of sockets) s.destroy();
    },
  };
}
