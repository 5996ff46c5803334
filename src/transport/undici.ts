/**
 * The parts of undici the harness uses (request, Agent, ProxyAgent, Dispatcher), loaded from its own
 * modules rather than its index: the index also loads fetch, WebSocket, the cache stores, the mock
 * agents and the cookie and MIME parsers, none of which a run uses, about 55 ms of CPU at every start
 * (bench section 13: a `conformance run` is a process of its own each time). The exports are undici's
 * own classes and its own `request`, as the index makes them: the index's one step besides
 * re-exporting, giving every Dispatcher the api methods (ProxyAgent's tunnel uses `connect`), is
 * taken here too, and `request` is the index's makeDispatcher over api.request (same URL checks,
 * same origin and path, same method default).
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

export const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
export type Dispatcher = Undici.Dispatcher;

const { InvalidArgumentError } = require('undici/lib/core/errors.js') as typeof Undici.errors;
const util = require('undici/lib/core/util.js') as { parseURL(url: unknown): URL; parseOrigin(url: unknown): URL };
const { getGlobalDispatcher } = require('undici/lib/global.js') as { getGlobalDispatcher(): Undici.Dispatcher };
const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Undici.Dispatcher,
  opts: Record<string, unknown>,
) => Promise<Undici.Dispatcher.ResponseData>;

/** undici's `request(url, options)`: its index's makeDispatcher(api.request), step for step. */
export const request = ((url: unknown, opts?: Record<string, unknown> | null) => {
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL)))
    throw new InvalidArgumentError('invalid url');
  if (opts != null && typeof opts !== 'object') throw new InvalidArgumentError('invalid opts');
  let target: URL;
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    target = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? (url as unknown as Record<string, unknown>) : {};
    target = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts as { agent?: unknown; dispatcher?: Undici.Dispatcher };
  if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return apiRequest.call(dispatcher, {
    ...opts,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}) as unknown as typeof Undici.request;
