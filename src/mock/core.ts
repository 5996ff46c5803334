/**
 * The mock's logic as plain functions, without Fetch objects: the route table (for each ASMX
 * service a WSDL route, one route per binding, a fallback naming what is wrong; an origin-wide 404
 * when an origin is configured) and each route's answer as { status, headers, body }.
 *
 * Two front ends share it: the msw handlers of src/mock/handlers.ts (one handler per route, in
 * this order) and the node:http adapter of src/mock/server.ts, which calls it directly and skips
 * building Request/Response objects. Whatever the mock answers is decided here, once.
 */
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  OPERATIONS,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from '../contract/catalogue.js';
import { wsdlAtPath } from '../schema/wsdl.js';
import { binding as bindingModule } from '../bindings/index.js';
import type { Binding, IncomingRequest } from '../bindings/types.js';
import { parseContentType } from '../bindings/media-type.js';
import type { Credentials } from './data.js';
import type { SerializeOptions } from './serialize.js';
import { faultNamed, resolveFaults } from './fault-lookup.js';
import type { Fault, MockResponse } from './fault-types.js';
import { answer, type AnswerConfig } from './respond.js';
import { replayAnswer, type ReplayHit, type ReplayLookup } from './replay.js';
import { everyIdBookings, exampleBookings, knownBookings, MockState } from './state.js';
import type { BookingPools } from '../core/booking-pools.js';
import { UsageError } from '../core/errors.js';

import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from './accounts.js';
export { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER };
/** Largest request body accepted (1 MiB); larger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Serialisation choices a binding's result may legitimately be written with. */
export type ResultStyle = Partial<Pick<SerializeOptions, 'prefix' | 'xsiPrefix' | 'pretty'>>;

export interface MockHandlerOptions {
  /** Accepted userName (default 'mock-user'). */
  readonly user?: string;
  /** Accepted password (default 'mock-password'). */
  readonly password?: string;
  /**
   * A second account (default mock-other / mock-other-password): it reads the reference data as the
   * first does, owns no booking, and is answered "not found" for every booking, as another agency's
   * account of the real service would be. Every booking belongs to the first account.
   */
  readonly otherUser?: string;
  readonly otherPassword?: string;
  /** Group namespaces (default DEFAULT_NAMESPACES). */
  readonly namespaces?: Partial<Namespaces>;
  /** Service paths per group (default section 4's, DEFAULT_PATHS): deployments differ. */
  readonly paths?: ServicePaths;
  /**
   * Answer as the real service does (src/mock/real-style.ts): wrong credentials get 200 and a
   * result holding only Error on every operation, null strings are left out, policies and rates
   * hold elements, fees may be nil, features carry an id, some valid calls get an in-band Error.
   */
  readonly realService?: boolean;
  /**
   * The bookings that exist (`--bookings FILE`, the pools format of `conformance run`), with the
   * example bookings of fixtures/cases: any other id is answered "not found", as the real service
   * answers an id nobody booked. Default: every non-blank id names a booking, made on first touch.
   */
  readonly bookings?: BookingPools;
  /**
   * Every identifier names a booking, made on first touch, blank included (`--every-id`), as an
   * independent service may behave; a transfer booking belongs to the email of its first touch
   * (src/mock/state.ts EveryId). Excludes `bookings`. Default false (see `bookings`).
   */
  readonly everyId?: boolean;
  /**
   * The isoCodes GetLanguages lists (a target listing fewer than it serves); default: every language of the reference
   * data.
   */
  readonly languages?: readonly string[];
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
  /**
   * No state (src/mock/state.ts): UpdateSpecialRequest stores nothing, a booking may be cancelled
   * any number of times; every answer is a function of the request alone, as before issue 23.
   * Default false: the mock keeps state, per instance, shared by its four bindings.
   */
  readonly stateless?: boolean;
}

interface Config {
  readonly credentials: Credentials;
  readonly namespaces: Namespaces;
  readonly origin?: string;
  readonly maxBodyBytes: number;
  readonly faults: readonly Fault[];
  readonly vary: boolean;
  readonly replay?: ReplayLookup;
  /** What answer() needs: the above and the reference serialisation options. */
  readonly answer: AnswerConfig;
}

/** One entry of the route table; the msw handlers are these, one each, in order. */
export type Route =
  | { readonly kind: 'wsdl'; readonly servicePath: string; readonly ops: readonly Operation[] }
  | {
      readonly kind: 'binding';
      readonly binding: Binding;
      readonly servicePath: string;
      readonly ops: readonly Operation[];
    }
  | { readonly kind: 'fallback'; readonly servicePath: string }
  | { readonly kind: 'origin' };

/** A request as the routes see it, before its body is read. */
export interface RouteRequest {
  /** As the request carries it (the routes compare it upper-cased). */
  readonly method: string;
  readonly url: URL;
  /** The decoded request (body ''), or undefined when the path does not percent-decode. */
  readonly incoming: IncomingRequest | undefined;
}

export interface MockCore {
  readonly routes: readonly Route[];
  /** Whether a route answers this request (msw's predicate of that route's handler). */
  matches(route: Route, req: RouteRequest): boolean;
  /** The first route answering the request, or undefined (msw: no handler matched). */
  route(req: RouteRequest): Route | undefined;
  /** The answer of a route other than 'binding' (which needs its body: serveBinding). */
  respond(route: Exclude<Route, { kind: 'binding' }>, req: RouteRequest): MockResponse;
  /**
   * A binding route's answer to a request whose body is read: a response, or a recorded answer
   * (replay). `body` is the raw bytes (decoded here in the declared charset).
   */
  serveBinding(
    route: Extract<Route, { kind: 'binding' }>,
    incoming: IncomingRequest,
    body: Uint8Array,
  ): MockResponse | ReplayHit;
  /** The answer when a route's resolver throws (a 500 in the binding's failure format). */
  internalError(route: Route, e: unknown): MockResponse;
  readonly maxBodyBytes: number;
  /** This instance's state, shared by its four bindings (undefined when stateless). */
  readonly state?: MockState;
  /**
   * True when every fault is one of the catalogue's (given by name): their responses are plain
   * data and never set cookies. Fault objects may do anything a Fetch Response can carry.
   */
  readonly catalogueFaultsOnly: boolean;
}

const PLAIN = 'text/plain; charset=utf-8';

export function plain(status: number, message: string, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { 'content-type': PLAIN, ...headers }, body: message };
}

/**
 * How a binding's result element is written: what it declares itself is the binding's rule
 * (Binding.resultDeclarations).
 */
export function resultOptions(b: Binding, ns: string, style: ResultStyle = {}): SerializeOptions {
  const prefix = style.prefix ?? '';
  const xsiPrefix = style.xsiPrefix ?? 'xsi';
  return { ns, prefix, xsiPrefix, pretty: style.pretty ?? false, ...b.resultDeclarations(prefix, xsiPrefix) };
}

/** The request as the binding modules see it, or undefined if its path does not percent-decode. */
export function incomingOf(
  method: string,
  url: URL,
  headers: Readonly<Record<string, string>>,
  body = '',
): IncomingRequest | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  return { method: method.toUpperCase(), path, query: url.searchParams, headers, body };
}

export type BodyText = { ok: true; text: string } | { ok: false; status: number; reason: string };

const decoders = new Map<string, TextDecoder | null>();

/** The body decoded in the charset its Content-Type declares (utf-8 by default); 415 for an unknown one. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): BodyText {
  const charset = parseContentType(contentType)?.params.charset ?? 'utf-8';
  let decoder = decoders.get(charset);
  if (decoder === undefined) {
    // A TextDecoder without { stream } keeps no state between decode() calls: one per charset will do.
    try {
      decoder = new TextDecoder(charset);
    } catch {
      decoder = null;
    }
    if (decoders.size < 64) decoders.set(charset, decoder);
  }
  if (decoder === null) return { ok: false, status: 415, reason: `Unsupported charset "${charset}" in Content-Type.` };
  return { ok: true, text: decoder.decode(bytes) };
}

/** The operations served at each distinct path of a binding, in catalogue order. */
function opsByPath(paths: ServicePaths, b: Binding): Map<string, Operation[]> {
  const out = new Map<string, Operation[]>();
  for (const op of OPERATIONS) {
    const path = b.servicePath(paths[op.group]);
    out.set(path, [...(out.get(path) ?? []), op]);
  }
  return out;
}

/** The mock's routes and answers for these options. */
export function createMockCore(options: MockHandlerOptions = {}): MockCore {
  const style = options.style ?? (() => ({}));
  const credentials = { user: options.user ?? DEFAULT_USER, password: options.password ?? DEFAULT_PASSWORD };
  const other = {
    user: options.otherUser ?? DEFAULT_OTHER_USER,
    password: options.otherPassword ?? DEFAULT_OTHER_PASSWORD,
  };
  const namespaces = { ...DEFAULT_NAMESPACES, ...options.namespaces };
  const faults = resolveFaults(options.faults);
  const vary = options.vary ?? false;
  const paths = options.paths ?? DEFAULT_PATHS;
  const stateNeeded = faults.filter((f) => f.stateful || f.apply.state);
  if (options.stateless && stateNeeded.length > 0) {
    throw new UsageError(
      `stateless mock: fault ${stateNeeded.map((f) => f.name).join(', ')} needs the mock's state (drop `
        + `stateless / --stateless, or that fault)`,
    );
  }
  if (options.everyId && options.bookings)
    throw new UsageError(
      'mock: everyId (--every-id) and bookings (--bookings) exclude each other: every id exists, or '
        + 'only those of the pools',
    );
  const state = options.stateless ? undefined : new MockState();
  const cfg: Config = {
    credentials,
    namespaces,
    origin: options.baseUrl === undefined ? undefined : new URL(options.baseUrl).origin,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    faults,
    vary,
    replay: options.replay,
    answer: {
      credentials,
      other,
      namespaces,
      faults,
      vary,
      realService: options.realService ?? false,
      state,
      ...(options.bookings
        ? { known: knownBookings(options.bookings, exampleBookings()) }
        : options.everyId
          ? { known: everyIdBookings() }
          : {}),
      ...(options.languages ? { languages: options.languages } : {}),
      options: (bm: Binding, n: string) => resultOptions(bm, n, style(bm.id)),
    },
  };

  // Per distinct service path: the WSDL (at a SOAP path), one route per binding served there, and a
  // fallback naming what is wrong with a request no binding claims. Section 4's paths give the two
  // ASMX services; a deployment may serve GET/POST elsewhere, or every operation at one path.
  const routes: Route[] = [];
  const byBinding = BINDINGS.map((id) => ({ b: bindingModule(id), at: opsByPath(paths, bindingModule(id)) }));
  const servicePaths = [...new Set(byBinding.flatMap(({ at }) => [...at.keys()]))];
  for (const servicePath of servicePaths) {
    // The WSDL is served where the SOAP bindings are (ASMX: <service path>?WSDL).
    const wsdlOps = OPERATIONS.filter((op) =>
      byBinding.some(({ b, at }) => b.envelopeNs !== undefined && at.get(servicePath)?.includes(op)),
    );
    if (wsdlOps.length > 0) routes.push({ kind: 'wsdl', servicePath, ops: wsdlOps });
    for (const { b, at } of byBinding) {
      const ops = at.get(servicePath);
      if (ops) routes.push({ kind: 'binding', binding: b, servicePath, ops });
    }
    routes.push({ kind: 'fallback', servicePath });
  }
  if (cfg.origin) routes.push({ kind: 'origin' });

  // The WSDL at a path depends only on the origin it is fetched from (and the fixed configuration).
  const wsdls = new Map<string, string | undefined>();
  const wsdlAt = (route: Extract<Route, { kind: 'wsdl' }>, origin: string): string | undefined => {
    const key = `${route.servicePath} ${origin}`;
    if (wsdls.has(key)) return wsdls.get(key);
    const text = wsdlAtPath(route.ops, route.servicePath, origin, cfg.namespaces, paths);
    if (wsdls.size < 256) wsdls.set(key, text);
    return text;
  };

  const matches = (route: Route, req: RouteRequest): boolean => {
    if (route.kind === 'origin') return req.url.origin === cfg.origin;
    if (route.kind === 'wsdl' && req.method.toUpperCase() !== 'GET') return false;
    if (cfg.origin && req.url.origin !== cfg.origin) return false;
    const r = req.incoming;
    if (r === undefined) return false;
    switch (route.kind) {
      case 'wsdl': {
        if (r.path !== route.servicePath) return false;
        for (const k of r.query.keys()) if (k.toLowerCase() === 'wsdl') return true;
        return false;
      }
      case 'binding':
        return route.binding.claims(r, route.servicePath);
      case 'fallback':
        return r.path === route.servicePath || r.path.startsWith(`${route.servicePath}/`);
    }
  };

  return {
    routes,
    matches,
    route(req) {
      for (const route of routes) if (matches(route, req)) return route;
      return undefined;
    },
    respond(route, req) {
      try {
        switch (route.kind) {
          case 'wsdl': {
            const text = wsdlAt(route, req.url.origin);
            return text === undefined
              ? plain(500, `No WSDL for ${route.servicePath}: its operations use more than one namespace.`)
              : { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: text };
          }
          case 'origin':
            return plain(404, `No such resource: ${req.url.pathname}`);
          case 'fallback': {
            const r = req.incoming!;
            const { servicePath } = route;
            if (r.path === servicePath) {
              if (r.method === 'POST') {
                const ct = r.headers['content-type'];
                return plain(
                  415,
                  `${ct === undefined ? 'No Content-Type' : `Content-Type "${ct}"`} is not served on `
                    + `POST ${servicePath}: `
                    + 'SOAP 1.1 needs text/xml with a SOAPAction header, SOAP 1.2 application/soap+xml.',
                );
              }
              if (r.method === 'GET') {
                return plain(
                  400,
                  `GET ${servicePath} serves only the service description (add ?WSDL); HTTP GET calls `
                    + `go to ${servicePath}/<Operation>.`,
                );
              }
              return plain(405, `Method ${r.method} is not allowed on ${servicePath}: use POST (SOAP) or GET ?WSDL.`, {
                allow: 'GET, POST',
              });
            }
            return plain(
              405,
              `Method ${r.method} is not allowed on ${r.path}: the HTTP GET and HTTP POST bindings use GET and POST.`,
              { allow: 'GET, POST' },
            );
          }
        }
      } catch (e) {
        return this.internalError(route, e);
      }
    },
    serveBinding(route, incoming, body) {
      const { binding: b, servicePath, ops } = route;
      try {
        const text = decodeBody(body, incoming.headers['content-type']);
        if (!text.ok) return plain(text.status, text.reason);
        const req: IncomingRequest = { ...incoming, body: text.text };
        const replayed =
          cfg.replay && replayAnswer(cfg.replay, cfg.credentials, b, req, servicePath, ops, cfg.namespaces);
        if (replayed) return replayed;
        return answer(cfg.answer, b, req, servicePath, ops);
      } catch (e) {
        return this.internalError(route, e);
      }
    },
    internalError(route, e) {
      const reason = `internal mock error: ${e instanceof Error ? e.message : String(e)}`;
      return route.kind === 'binding' ? route.binding.encodeFault(500, reason, 'server') : plain(500, reason);
    },
    maxBodyBytes: cfg.maxBodyBytes,
    state,
    catalogueFaultsOnly: faults.every((f) => faultNamed(f.name) === f),
  };
}
