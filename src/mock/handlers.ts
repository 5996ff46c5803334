/**
 * The reference mock as msw request handlers, generated from the catalogue × the four binding
 * modules: for each ASMX service, one WSDL handler, one handler per binding (matched by the
 * binding's own claims(), answered through its decode()/encodeResult()/encodeFault()), and one
 * fallback naming what is wrong with a request no binding claims (405, 415, 400). No operation is
 * named here: routing comes from SERVICE_PATHS and operationsOf(), so the mock and the client half
 * of each binding read the same rules and cannot drift apart.
 *
 * The handlers are thin: each is one route of src/mock/core.ts (the plain logic the node:http
 * adapter also calls directly), turned into Fetch objects here.
 *
 * Use in-process with msw's setupServer (pass `baseUrl` so only that origin is answered), or over
 * HTTP through src/mock/server.ts. One createHandlers() call is one mock: its handlers share one
 * state (src/mock/state.ts: special requests written, bookings cancelled), which starts empty;
 * `stateless: true` gives handlers without one. A bad request never changes the state.
 */
import { http, type RequestHandler } from 'msw';
import {
  createMockCore,
  incomingOf,
  plain,
  type MockCore,
  type MockHandlerOptions,
  type Route,
  type RouteRequest,
} from './core.js';
import { ReplayHit } from './replay.js';
import { replayResponse, toResponse } from './fetch-response.js';

export {
  DEFAULT_USER,
  DEFAULT_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_OTHER_PASSWORD,
  MAX_BODY_BYTES,
  resultOptions,
  createMockCore,
  type MockHandlerOptions,
  type ResultStyle,
  type MockCore,
} from './core.js';

/** The msw handlers of the whole mock (both services, all four bindings, the WSDLs). */
export function createHandlers(options: MockHandlerOptions = {}): RequestHandler[] {
  return handlersOf(createMockCore(options));
}

/** One msw handler per route of the core, in the core's order. */
export function handlersOf(core: MockCore): RequestHandler[] {
  return core.routes.map((route) => {
    const predicate = ({ request }: { request: Request }) => core.matches(route, routeRequest(request));
    const resolve = guarded(core, route, async ({ request }) => {
      if (route.kind !== 'binding') return toResponse(core.respond(route, routeRequest(request)));
      const body = await readBody(request, core.maxBodyBytes);
      if (!body) return toResponse(plain(413, `Request body too large: the limit is ${core.maxBodyBytes} bytes.`));
      const answer = core.serveBinding(route, routeRequest(request).incoming!, body);
      return answer instanceof ReplayHit ? replayResponse(answer) : toResponse(answer);
    });
    return route.kind === 'wsdl' ? http.get(predicate, resolve) : http.all(predicate, resolve);
  });
}

/** What the core's routes look at: method, URL, and the decoded request without its body. */
function routeRequest(request: Request): RouteRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url,
    incoming: incomingOf(request.method, url, Object.fromEntries(request.headers)),
  };
}

type Resolver = (info: { request: Request }) => Promise<Response>;

/** A resolver that never throws: an unexpected error becomes a 500 in the route's failure format. */
function guarded(core: MockCore, route: Route, resolve: Resolver): Resolver {
  return async (info) => {
    try {
      return await resolve(info);
    } catch (e) {
      return toResponse(core.internalError(route, e));
    }
  };
}

/** The body bytes, or undefined once more than `max` arrived (counted while reading; reading stops there). */
async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) return undefined;
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
        return undefined;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks, total);
}
