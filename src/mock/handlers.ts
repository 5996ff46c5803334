/**
 * The reference mock as msw request handlers, generated from the catalogue × the four binding
 * modules: for each ASMX service, one WSDL handler, one handler per binding (matched by the
 * binding's own claims(), answered through its decode()/encodeResult()/encodeFault()), and one
 * fallback naming what is wrong with a request no binding claims (405, 415, 400). No operation is
 * named here: routing comes from SERVICE_PATHS and operationsOf(), so the mock and the client half
 * of each binding read the same rules and cannot drift apart.
 *
 * Use in-process with msw's setupServer (pass `baseUrl` so only that origin is answered), or over
 * HTTP through src/mock/server.ts. The mock is stateless: one bad request never affects another.
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import {
  BINDINGS, DEFAULT_NAMESPACES, operationsOf, SERVICE_PATHS, SERVICES,
  type BindingId, type Namespaces, type Operation,
} from '../contract/catalogue.js';
import { generateWsdl } from '../contract/wsdl.js';
import { binding as bindingModule } from '../bindings/index.js';
import type { Binding, IncomingRequest, OutgoingResponse } from '../bindings/types.js';
import { parseContentType } from '../bindings/media-type.js';
import type { Credentials } from './data.js';
import type { SerializeOptions } from './serialize.js';
import { resolveFaults, type Fault, type MockResponse } from './faults.js';
import { answer } from './respond.js';
import { replayAnswer, type ReplayLookup } from './replay.js';

export const DEFAULT_USER = 'mock-user';
export const DEFAULT_PASSWORD = 'mock-password';
/** Largest request body accepted (1 MiB); larger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Serialisation choices a binding's result may legitimately be written with. */
export type ResultStyle = Partial<Pick<SerializeOptions, 'prefix' | 'xsiPrefix' | 'pretty'>>;

export interface MockHandlerOptions {
  /** Accepted userName (default 'mock-user'). */
  readonly user?: string;
  /** Accepted password (default 'mock-password'). */
  readonly password?: string;
  /** Group namespaces (default DEFAULT_NAMESPACES). */
  readonly namespaces?: Partial<Namespaces>;
  /** Answer only requests to this origin (e.g. 'http://mock.test'); default: any origin. */
  readonly baseUrl?: string;
  /** Request body limit in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** How results are written, per binding (default: compact, default namespace, xsi prefix). */
  readonly style?: (binding: BindingId) => ResultStyle;
  /**
   * Faults to commit (names from src/mock/faults.ts, or fault objects): each breaks the contract in
   * one stated way on one operation and its bindings. An unknown name throws UnknownFaultError.
   */
  readonly faults?: readonly (string | Fault)[];
  /** Variation mode (src/mock/vary.ts): every legitimate serialisation and data variation. */
  readonly vary?: boolean;
  /** Recorded answers to serve first (src/mock/replay.ts, `--replay DIR`). */
  readonly replay?: ReplayLookup;
}

interface Config {
  readonly credentials: Credentials;
  readonly namespaces: Namespaces;
  readonly origin?: string;
  readonly maxBodyBytes: number;
  readonly style: (binding: BindingId) => ResultStyle;
  readonly faults: readonly Fault[];
  readonly vary: boolean;
  readonly replay?: ReplayLookup;
}

/** The msw handlers of the whole mock (both services, all four bindings, the WSDLs). */
export function createHandlers(options: MockHandlerOptions = {}): RequestHandler[] {
  const cfg: Config = {
    credentials: { user: options.user ?? DEFAULT_USER, password: options.password ?? DEFAULT_PASSWORD },
    namespaces: { ...DEFAULT_NAMESPACES, ...options.namespaces },
    origin: options.baseUrl === undefined ? undefined : new URL(options.baseUrl).origin,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    style: options.style ?? (() => ({})),
    faults: resolveFaults(options.faults),
    vary: options.vary ?? false,
    replay: options.replay,
  };
  const handlers: RequestHandler[] = [];
  for (const service of SERVICES) {
    const servicePath = SERVICE_PATHS[service];
    const ops = operationsOf(service);
    const ns = cfg.namespaces[serviceNsKey(ops)];
    const inService = (path: string) => path === servicePath || path.startsWith(`${servicePath}/`);

    handlers.push(http.get(
      matching(cfg, (r) => r.path === servicePath && [...r.query.keys()].some((k) => k.toLowerCase() === 'wsdl')),
      guarded(async ({ request }) => reply({
        status: 200,
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: generateWsdl(service, new URL(request.url).origin, cfg.namespaces),
      })),
    ));

    for (const id of BINDINGS) {
      const b = bindingModule(id);
      handlers.push(http.all(
        matching(cfg, (r) => b.claims(r, servicePath)),
        guarded(async ({ request }) => serve(cfg, b, request, servicePath, ops, ns), b),
      ));
    }

    handlers.push(http.all(matching(cfg, (r) => inService(r.path)), guarded(async ({ request }) => {
      const r = incoming(request)!;
      if (r.path === servicePath) {
        if (r.method === 'POST') {
          const ct = request.headers.get('content-type');
          return plain(415, `${ct === null ? 'No Content-Type' : `Content-Type "${ct}"`} is not served on POST ${servicePath}: `
            + 'SOAP 1.1 needs text/xml with a SOAPAction header, SOAP 1.2 application/soap+xml.');
        }
        if (r.method === 'GET') {
          return plain(400, `GET ${servicePath} serves only the service description (add ?WSDL); HTTP GET calls go to ${servicePath}/<Operation>.`);
        }
        return plain(405, `Method ${r.method} is not allowed on ${servicePath}: use POST (SOAP) or GET ?WSDL.`, { allow: 'GET, POST' });
      }
      return plain(405, `Method ${r.method} is not allowed on ${r.path}: the HTTP GET and HTTP POST bindings use GET and POST.`, { allow: 'GET, POST' });
    })));
  }
  if (cfg.origin) {
    handlers.push(http.all(({ request }) => new URL(request.url).origin === cfg.origin,
      guarded(async ({ request }) => plain(404, `No such resource: ${new URL(request.url).pathname}`))));
  }
  return handlers;
}

function serviceNsKey(ops: readonly Operation[]) {
  const keys = new Set(ops.map((o) => o.ns));
  if (keys.size !== 1) throw new Error(`operations of one service use ${keys.size} namespaces`);
  return ops[0]!.ns;
}

/** The request as the binding modules see it (body not read yet), or undefined if its path is not decodable. */
function incoming(request: Request, body = ''): IncomingRequest | undefined {
  const url = new URL(request.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  return { method: request.method.toUpperCase(), path, query: url.searchParams, headers: Object.fromEntries(request.headers), body };
}

/** An msw custom predicate over the decoded request, limited to the configured origin. */
function matching(cfg: Config, test: (r: IncomingRequest) => boolean) {
  return ({ request }: { request: Request }): boolean => {
    if (cfg.origin && new URL(request.url).origin !== cfg.origin) return false;
    const r = incoming(request);
    return r !== undefined && test(r);
  };
}

type Resolver = (info: { request: Request }) => Promise<Response>;

/** A resolver that never throws: an unexpected error becomes a 500 in the binding's failure format. */
function guarded(resolve: Resolver, b?: Binding): Resolver {
  return async (info) => {
    try {
      return await resolve(info);
    } catch (e) {
      const reason = `internal mock error: ${e instanceof Error ? e.message : String(e)}`;
      return b ? reply(b.encodeFault(500, reason, 'server')) : plain(500, reason);
    }
  };
}

async function serve(cfg: Config, b: Binding, request: Request, servicePath: string, ops: readonly Operation[], ns: string): Promise<Response> {
  const body = await readBody(request, cfg.maxBodyBytes);
  if (!body.ok) return plain(body.status, body.reason);
  const replayed = cfg.replay && replayAnswer(cfg.replay, cfg.credentials, b, incoming(request, body.text)!, servicePath, ops, ns);
  if (replayed) return replayed;
  const config = { ...cfg, options: (bm: Binding, n: string) => resultOptions(bm, n, cfg.style(bm.id)) };
  return reply(answer(config, b, incoming(request, body.text)!, servicePath, ops, ns));
}

/**
 * How a binding's result element is written. SOAP: inside <OpResponse xmlns="ns"> in an envelope
 * that binds xsi, so nothing needs declaring unless another prefix is chosen. GET/POST: the result
 * is the document root and declares both namespaces itself.
 */
export function resultOptions(b: Binding, ns: string, style: ResultStyle = {}): SerializeOptions {
  const soap = b.envelopeNs !== undefined;
  const prefix = style.prefix ?? '';
  const xsiPrefix = style.xsiPrefix ?? 'xsi';
  return {
    ns, prefix, xsiPrefix, pretty: style.pretty ?? false,
    declareNamespace: !soap || prefix !== '',
    declareXsi: !soap || xsiPrefix !== 'xsi',
  };
}

type BodyRead = { ok: true; text: string } | { ok: false; status: number; reason: string };

/** Read the body up to `max` bytes (counting while reading) and decode it in its declared charset. */
async function readBody(request: Request, max: number): Promise<BodyRead> {
  const tooLarge: BodyRead = { ok: false, status: 413, reason: `Request body too large: the limit is ${max} bytes.` };
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) return tooLarge;
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        // Not awaited: a branch of a tee'd body (msw clones requests) settles its cancel only
        // once the other branch is cancelled too.
        reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  }
  const charset = parseContentType(request.headers.get('content-type') ?? undefined)?.params.charset ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    return { ok: false, status: 415, reason: `Unsupported charset "${charset}" in Content-Type.` };
  }
  const bytes = Buffer.concat(chunks, total);
  return { ok: true, text: decoder.decode(bytes) };
}

function reply(r: OutgoingResponse | MockResponse): Response {
  return new HttpResponse(r.body as BodyInit, { status: r.status, headers: r.headers });
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new HttpResponse(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
