/**
 * The harness's own listener for the external-entity probe (issue 42, section 2): an HTTP server the
 * run starts, at which the DOCTYPE of that probe points, on a path unique to the probe (the run's
 * nonce, the operation, the binding). A request to it means the target fetched an external entity
 * of a SOAP request: the defect `external_entity_fetched`, pinned through the path on that operation
 * and binding. Nothing else is ever named as an external resource of a request.
 *
 * The listener records the paths it is asked for and answers a probe's path with the run's user name
 * (text/plain; a target that fetched and used it as the user name then answers with data, as it
 * would with the internal entity); any other path gets 404. It stays open until the run's end: a
 * fetch is judged then, at least `graceMs` after the last probe was answered (a target that fetches
 * after answering, from a queue, is still seen; one that fetches later still is not).
 *
 * Where the target cannot reach the harness (a remote target: its 127.0.0.1 is its own), the run is
 * told the URL at which it can (--callback-url, CONFORMANCE_CALLBACK_URL, config `callbackUrl`), and
 * may be told where to listen (--callback-listen HOST:PORT). Without either, for a remote target, no
 * listener runs: the probe names a host of the reserved `.invalid` domain (RFC 6761, never resolved),
 * still judged on its refusal, and the report notes that a fetch was not observable.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The first segment of every probe path. */
export const PROBE_PATH = '/conformance-probe';

/** The base of a probe URL when no listener runs: a host that never resolves (RFC 6761 `.invalid`). */
export const UNREACHABLE_BASE = 'http://conformance-callback.invalid';

/**
 * How long a fetch is awaited after the last probe was answered: from the embedded mock (its
 * faults fetch at once, while they read the request), from a target on this machine, and through a
 * callback URL. A parser fetches an external entity while it reads the request, before it answers;
 * on loopback that fetch is in within a millisecond, so a target on this machine is given 250 ms
 * for one queued soon after its answer (1 s made every short run against a local target a second
 * longer, a third of `npm test`'s growth with issue 42).
 */
export const EMBEDDED_GRACE_MS = 50;
export const LOCAL_GRACE_MS = 250;
export const REMOTE_GRACE_MS = 5000;

/** One request the listener received. */
export interface CallbackHit {
  readonly path: string;
  readonly method: string;
  /** The peer's address, as the listener saw it. */
  readonly from: string;
  readonly userAgent?: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** The listener: an HTTP server on a local address, recording every request. */
export class CallbackListener {
  readonly #server: Server;
  readonly #hits: CallbackHit[] = [];
  #answer = '';
  /** The URL it listens at, as this process reaches it (http://HOST:PORT). */
  url = '';

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Listen at `host`:`port` (0: any free port); `answer` is the text a probe's path gets. */
  static async start(host = '127.0.0.1', port = 0, answer = ''): Promise<CallbackListener> {
    const server = createServer();
    const l = new CallbackListener(server);
    l.#answer = answer;
    server.on('request', (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      l.#hits.push({
        path,
        method: req.method ?? 'GET',
        from: req.socket.remoteAddress ?? '?',
        ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
        at: Date.now(),
      });
      req.resume();
      const ours = path.startsWith(`${PROBE_PATH}/`);
      res.writeHead(ours ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(ours ? l.#answer : '');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    server.unref();
    const a = server.address() as AddressInfo;
    l.url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
    return l;
  }

  /** The requests received for `path`, in order. */
  hitsOf(path: string): CallbackHit[] {
    return this.#hits.filter((h) => h.path === path);
  }

  /** Every request received (the tests). */
  get hits(): readonly CallbackHit[] {
    return this.#hits;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

/**
 * What a plan knows of the listener: the base URL its probes name, this run's nonce, and the
 * listener to ask at the end (absent: why a fetch is not observable).
 */
export interface Callback {
  /** The URL at which the target reaches the listener (no trailing slash). */
  readonly base: string;
  /** This run's nonce: no two runs share a probe path. */
  readonly nonce: string;
  readonly listener?: CallbackListener;
  /** Why a fetch cannot be observed (no listener the target can reach). */
  readonly unobservable?: string;
  /** How long a fetch is awaited after the last probe was answered. */
  readonly graceMs: number;
}

/** A fresh nonce: 16 hex digits. */
export function newNonce(): string {
  return randomBytes(8).toString('hex');
}

/** The path of the external-entity probe of an operation on a binding. */
export function probePath(cb: Pick<Callback, 'nonce'>, operation: string, binding: string): string {
  return `${PROBE_PATH}/${cb.nonce}/${encodeURIComponent(operation)}/${encodeURIComponent(binding)}`;
}

/** The URL the external entity of that probe names. */
export function probeUrl(cb: Pick<Callback, 'nonce' | 'base'>, operation: string, binding: string): string {
  return `${cb.base.replace(/\/+$/, '')}${probePath(cb, operation, binding)}`;
}

/** The callback of a plan without a listener: probes name the `.invalid` host, a fetch is not observable (why). */
export function unobservableCallback(why: string): Callback {
  return { base: UNREACHABLE_BASE, nonce: newNonce(), unobservable: why, graceMs: 0 };
}

/** Whether a URL's host is this machine's loopback (the harness's listener at 127.0.0.1 is reachable from it). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const h = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
}

/**
 * Open the callback of a run: a listener the target can reach, or none (why). `targets` are the
 * target's URLs; `callbackUrl` and `listen` the settings (source-named in messages by the caller).
 */
export async function openCallback(opts: {
  readonly targets: readonly string[];
  readonly embedded: boolean;
  readonly callbackUrl?: string;
  readonly listen?: { readonly host: string; readonly port: number };
  readonly answer: string;
}): Promise<Callback> {
  const nonce = newNonce();
  if (opts.callbackUrl !== undefined) {
    // The target reaches the listener through the URL given: on every interface at its port unless told where.
    const u = new URL(opts.callbackUrl);
    const port = opts.listen?.port ?? (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);
    const listener = await CallbackListener.start(opts.listen?.host ?? '0.0.0.0', port, opts.answer);
    return { base: `${u.origin}${u.pathname.replace(/\/+$/, '')}`, nonce, listener, graceMs: REMOTE_GRACE_MS };
  }
  if (opts.embedded || (opts.targets.length > 0 && opts.targets.every(isLoopbackUrl))) {
    const listener = await CallbackListener.start(
      opts.listen?.host ?? '127.0.0.1',
      opts.listen?.port ?? 0,
      opts.answer,
    );
    return { base: listener.url, nonce, listener, graceMs: opts.embedded ? EMBEDDED_GRACE_MS : LOCAL_GRACE_MS };
  }
  return unobservableCallback(
    'the target is not on this machine and no --callback-url (CONFORMANCE_CALLBACK_URL, config '
      + 'callbackUrl) says where it can reach the harness',
  );
}
