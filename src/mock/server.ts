/**
 * A small node:http adapter serving the mock. Two paths to the same answers:
 *   direct  the plain core of src/mock/core.ts called with the request as it arrived (no Fetch
 *           objects), its answer written as it is;
 *   msw     IncomingMessage → Fetch Request, msw's getResponse(handlers, request), Response →
 *           ServerResponse: the reference path, and the one taken for what the direct path does not
 *           reproduce byte for byte (fault objects, request headers or URLs Fetch would change or
 *           refuse, answers a Fetch Response would change or refuse).
 * On the direct path the answers of the binding routes are remembered by request (AnswerMemo): a
 * request seen before is answered with the same bytes without being decoded and answered again
 * (./answer-memo.ts). Bodies are read with a size cap enforced while reading (413 beyond it, never
 * buffered unbounded: ./http-io.ts, with the headers, the URL and the writing of an answer);
 * keep-alive is left on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'msw';
import type { Namespaces } from '../contract/catalogue.js';
import {
  createMockCore,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  incomingOf,
  MAX_BODY_BYTES,
  type MockCore,
  type MockHandlerOptions,
  type Route,
} from './core.js';
import { AnswerMemo } from './answer-memo.js';
import type { MockResponse } from './fault-types.js';
import { handlerHeaders, header, HOP_BY_HOP, readCapped, refuseTooLarge, requestUrl, send } from './http-io.js';
import { loadReplay, ReplayHit } from './replay.js';
import { gatewayPage, isWriteRequest, TransientFaults, type TransientMode } from './transient.js';
import { plainToWire, responseToWire, type Wire } from './wire.js';

export interface MockOptions {
  /** Port to listen on; 0 or absent picks a free one. */
  readonly port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  readonly user?: string;
  readonly password?: string;
  /** The second account (see MockHandlerOptions.otherUser). */
  readonly otherUser?: string;
  readonly otherPassword?: string;
  readonly namespaces?: Partial<Namespaces>;
  /** Service paths per group (default section 4's). */
  readonly paths?: MockHandlerOptions['paths'];
  /** Answer as the real service does (see MockHandlerOptions.realService). */
  readonly realService?: boolean;
  /** Result serialisation style per binding (see MockHandlerOptions.style). */
  readonly style?: MockHandlerOptions['style'];
  /** Faults to commit, by name (src/mock/faults.ts); an unknown name rejects with UnknownFaultError. */
  readonly faults?: MockHandlerOptions['faults'];
  /** Variation mode: every legitimate serialisation and data variation (src/mock/vary.ts). */
  readonly vary?: boolean;
  /** No state (see MockHandlerOptions.stateless): every answer a function of the request alone. */
  readonly stateless?: boolean;
  /** The bookings that exist (see MockHandlerOptions.bookings); any other id is not found. */
  readonly bookings?: MockHandlerOptions['bookings'];
  /** Every id exists on first touch, blank included (see MockHandlerOptions.everyId). */
  readonly everyId?: boolean;
  /** The isoCodes GetLanguages lists (see MockHandlerOptions.languages). */
  readonly languages?: MockHandlerOptions['languages'];
  /**
   * A recording directory (`conformance record --out DIR`) to serve first (src/mock/replay.ts);
   * its namespaces are used unless `namespaces` is given. A bad recording rejects with ReplayError.
   */
  readonly replay?: string;
  /**
   * How requests reach the handlers: 'direct' (default) calls the plain core and builds no Fetch
   * objects where that gives the same bytes; 'msw' always goes through msw's getResponse (the
   * reference path; tests compare the two).
   */
  readonly via?: 'direct' | 'msw';
  /**
   * The transient-fault mode (./transient.ts): a share of requests met by a gateway page, a dropped
   * connection or a pause before processing, and a share of writes processed then dropped. Seeded.
   */
  readonly transient?: TransientMode;
}

export interface RunningMock {
  /** http://HOST:PORT, no trailing slash. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  /** The recording served (with `replay`). */
  readonly replay?: { readonly dir: string; readonly size: number; readonly namespaces: Namespaces };
  /** The transient faults committed so far, by kind (with `transient`; a routed mock: summed over its mocks). */
  transientCounts?(): Readonly<Record<string, number>>;
}

// Methods a Fetch Request refuses to carry.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Start the mock on a node:http server; resolves once it listens. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const { served, replay } = servedOf(options);
  const server = createServer((req, res) => {
    void handle(served, req, res, host);
  });
  return withCounts(await listen(server, options, host, replay), [served]);
}

/** What a mock of `startRoutedMock` serves under one path prefix: a mock's options (no port or host). */
export type RoutedMockOptions = Omit<MockOptions, 'port' | 'host' | 'replay'>;

/**
 * Several mocks behind one server: a request whose path starts with `/NAME/` is answered by the
 * mock of `routes[NAME]` (its own state, faults and options) as if that prefix were not there; any
 * other path gets 404. A target's base URL is then `${url}/NAME`. One process and one port serve
 * many differently configured mocks at once (the self-test runs every fault of the catalogue
 * concurrently this way). Names are path segments: letters, digits, '-', '_' and '.'.
 */
export async function startRoutedMock(
  routes: Readonly<Record<string, RoutedMockOptions>>,
  options: Pick<MockOptions, 'port' | 'host'> = {},
): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const table = new Map<string, Served>();
  for (const [name, o] of Object.entries(routes)) {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..')
      throw new Error(`routed mock: ${JSON.stringify(name)} is not a path segment`);
    table.set(name, servedOf(o).served);
  }
  const server = createServer((req, res) => {
    const target = req.url ?? '/';
    const m = /^\/([^/?#]+)(?=[/?#]|$)/.exec(target);
    const served = m ? table.get(m[1]!) : undefined;
    if (!served) {
      req.resume();
      send(
        res,
        404,
        { 'content-type': 'text/plain; charset=utf-8' },
        Buffer.from(`No mock under this path: ${target.slice(0, 200)}`),
      );
      return;
    }
    // The mock sees the request as if it had been sent to its own origin.
    req.url = target.slice(m![0].length) || '/';
    void handle(served, req, res, host);
  });
  return withCounts(await listen(server, options, host, undefined), [...table.values()]);
}

/**
 * The msw handlers of a core, made when first asked: the direct path answers most requests without
 * them, so msw (a tenth of a second to load) is not loaded until a request needs it.
 */
function lazyHandlers(core: MockCore): () => Promise<RequestHandler[]> {
  let made: Promise<RequestHandler[]> | undefined;
  return () => (made ??= import('./handlers.js').then((m) => m.handlersOf(core)));
}

/** The core and handlers of a mock's options (and its recording, with `replay`). */
function servedOf(options: MockOptions): { served: Served; replay?: ReturnType<typeof loadReplay> } {
  const replay = options.replay === undefined ? undefined : loadReplay(options.replay);
  const core = createMockCore({
    user: options.user ?? DEFAULT_USER,
    password: options.password ?? DEFAULT_PASSWORD,
    ...(options.otherUser ? { otherUser: options.otherUser } : {}),
    ...(options.otherPassword ? { otherPassword: options.otherPassword } : {}),
    namespaces: options.namespaces ?? replay?.namespaces,
    style: options.style,
    faults: options.faults,
    vary: options.vary,
    stateless: options.stateless,
    ...(options.bookings ? { bookings: options.bookings } : {}),
    ...(options.everyId ? { everyId: true } : {}),
    ...(options.languages ? { languages: options.languages } : {}),
    paths: options.paths ?? replay?.paths,
    realService: options.realService,
    replay: replay?.lookup,
  });
  const direct = options.via !== 'msw' && core.catalogueFaultsOnly;
  const served: Served = {
    core,
    handlers: lazyHandlers(core),
    direct,
    // Every answer is a function of the request alone once the style function (the one piece of
    // caller code left) is out of the way: the catalogue's faults, variation and replay are pure;
    // answers that read or change the state are marked volatile and never remembered.
    memo: direct && options.style === undefined ? new AnswerMemo() : undefined,
    ...(options.transient ? { transient: new TransientFaults(options.transient) } : {}),
  };
  return { served, ...(replay ? { replay } : {}) };
}

/** A running mock with its transient faults' counts, when any of its mocks has the mode. */
function withCounts(mock: RunningMock, served: readonly Served[]): RunningMock {
  const faults = served.flatMap((x) => (x.transient ? [x.transient] : []));
  if (faults.length === 0) return mock;
  return {
    ...mock,
    transientCounts: () => {
      const sum: Record<string, number> = {};
      for (const f of faults) for (const [k, n] of Object.entries(f.counts)) sum[k] = (sum[k] ?? 0) + n;
      return sum;
    },
  };
}

/** Listen (resolves once listening) and describe the running mock. */
async function listen(
  server: Server,
  options: Pick<MockOptions, 'port'>,
  host: string,
  replay: ReturnType<typeof loadReplay> | undefined,
): Promise<RunningMock> {
  // A slow client must not hold a request open forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () => closeServer(server),
    ...(replay ? { replay: { dir: replay.dir, size: replay.size, namespaces: replay.namespaces } } : {}),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((e) => (e ? reject(e) : resolve()));
    server.closeAllConnections();
  });
}

interface Served {
  readonly core: MockCore;
  /** The same routes as msw handlers (made, and msw loaded, on the first request that takes the msw path). */
  readonly handlers: () => Promise<RequestHandler[]>;
  /** Whether the direct path may be taken (else every request goes through msw). */
  readonly direct: boolean;
  /** Answers of the binding routes already given, when they depend on nothing but the request. */
  readonly memo?: AnswerMemo;
  /** The transient-fault mode's draws (./transient.ts). */
  readonly transient?: TransientFaults;
}

const EMPTY = Buffer.alloc(0);

async function handle(served: Served, req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  try {
    const method = (req.method ?? 'GET').toUpperCase();
    if (FORBIDDEN_METHODS.has(method)) {
      req.resume();
      return send(
        res,
        405,
        { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, POST' },
        Buffer.from(`Method ${method} is not allowed.`),
      );
    }
    const body = await readCapped(req, MAX_BODY_BYTES);
    if (body === undefined) return refuseTooLarge(req, res);
    let url: URL;
    try {
      url = requestUrl(req, host);
    } catch {
      return send(
        res,
        400,
        { 'content-type': 'text/plain; charset=utf-8' },
        Buffer.from(`Bad request target: ${req.url ?? ''}`),
      );
    }
    // The transient-fault mode: a gateway or the network fails before the service sees the request.
    const before = served.transient?.before();
    if (before?.fault === 'drop') return void req.socket.destroy();
    if (before?.fault === 'gateway_503' || before?.fault === 'gateway_502') {
      const status = before.fault === 'gateway_503' ? 503 : 502;
      return send(res, status, { 'content-type': 'text/html', server: 'nginx' }, gatewayPage(status));
    }
    if (before?.fault === 'pause') await new Promise((r) => setTimeout(r, before.pauseMs));
    const wire =
      (served.direct ? await direct(served.core, served.memo, method, url, req.rawHeaders, body) : undefined)
      ?? (await viaMsw(await served.handlers(), method, url, req.rawHeaders, body));
    // A write processed, then its answer lost: the change is applied, the client never hears of it.
    if (
      served.transient?.dropsWrites
      && wire !== undefined
      && wire.status < 500
      && isWriteRequest(url.pathname, header(req, 'soapaction'), header(req, 'content-type'), body)
      && served.transient.dropAfter()
    ) {
      return void req.socket.destroy();
    }
    if (wire === undefined) {
      return send(
        res,
        404,
        { 'content-type': 'text/plain; charset=utf-8' },
        Buffer.from(`No such resource: ${url.pathname}`),
      );
    }
    send(res, wire.status, wire.headers, method === 'HEAD' ? EMPTY : wire.body, wire.body.length);
  } catch (e) {
    if (!res.headersSent) {
      send(
        res,
        500,
        { 'content-type': 'text/plain; charset=utf-8' },
        Buffer.from(`internal mock error: ${e instanceof Error ? e.message : String(e)}`),
      );
    } else {
      res.destroy();
    }
  }
}

/** Through msw: a Fetch Request, getResponse, the Response read back; undefined when no handler answers. */
async function viaMsw(
  handlers: RequestHandler[],
  method: string,
  url: URL,
  rawHeaders: readonly string[],
  body: Buffer,
): Promise<Wire | undefined> {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    try {
      headers.append(name, rawHeaders[i + 1]!);
    } catch {
      // A header Fetch cannot represent is dropped; Node has already checked the syntax.
    }
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(url, { method, headers, body: hasBody ? Uint8Array.from(body) : undefined });
  const { getResponse } = await import('msw');
  const response = await getResponse(handlers, request);
  return response && responseToWire(response);
}

/**
 * The direct path: the headers msw's handlers would see (Headers' normalisation: names lower-cased,
 * repeated ones joined with ", ", sorted), the core's route and answer, written as a Fetch Response
 * would carry it. Undefined (take the msw path) for a request Fetch would change or refuse.
 */
function direct(
  core: MockCore,
  memo: AnswerMemo | undefined,
  method: string,
  url: URL,
  rawHeaders: readonly string[],
  body: Buffer,
): Wire | Promise<Wire> | undefined {
  // A Request refuses a URL with credentials.
  if (url.username !== '' || url.password !== '') return undefined;
  const headers = handlerHeaders(rawHeaders);
  if (headers === undefined) return undefined;
  const key = memo && AnswerMemo.key(method, url, headers, body);
  const known = key === undefined ? undefined : memo!.get(key);
  if (known) return known;
  const req = { method, url, incoming: incomingOf(method, url, headers) };
  const route = core.route(req);
  if (route === undefined)
    return {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from(`No such resource: ${url.pathname}`),
    };
  const answer =
    route.kind === 'binding'
      ? core.serveBinding(route, req.incoming!, method === 'GET' || method === 'HEAD' ? EMPTY : body)
      : core.respond(route, req);
  const plain = answer instanceof ReplayHit ? answer.plain() : answer;
  const wire = plain && plainToWire(plain);
  if (wire === undefined) return throughResponse(core, route, answer);
  // Only a binding route's answer: the WSDL names the origin (Host), and the rest are cheap.
  // Nor an answer that read or changed the state: the same request may be answered otherwise later.
  if (
    key !== undefined
    && route.kind === 'binding'
    && !(plain && !(answer instanceof ReplayHit) && answer.volatile)
    && !(answer instanceof ReplayHit && answer.volatile)
  )
    memo!.set(key, wire);
  return wire;
}

/**
 * An answer a Fetch Response would change or refuse: build one, as the msw handler does (a throw is the route's 500).
 */
async function throughResponse(core: MockCore, route: Route, answer: MockResponse | ReplayHit): Promise<Wire> {
  const { replayResponse, toResponse } = await import('./fetch-response.js');
  let response: Response;
  try {
    response = answer instanceof ReplayHit ? replayResponse(answer) : toResponse(answer);
  } catch (e) {
    response = toResponse(core.internalError(route, e));
  }
  return responseToWire(response);
}
