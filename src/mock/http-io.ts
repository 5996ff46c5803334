/**
 * The node:http side of the mock's server (./server.ts): a request's headers as the handlers see them,
 * its URL, its body read under a size cap (413 beyond it, never buffered unbounded), and an answer
 * written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_BODY_BYTES } from './core.js';
import { isPlainHeaderName, isPlainHeaderValue } from './wire.js';

// Hop-by-hop headers describe this connection, not the request the handlers see.
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'content-length',
]);

/**
 * The request headers as Object.fromEntries(new Request(...).headers) gives them, without the
 * hop-by-hop ones; undefined when Headers would refuse or rewrite one (then the msw path decides).
 */
export function handlerHeaders(rawHeaders: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let sorted = true;
  let last = '';
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    const value = rawHeaders[i + 1]!;
    if (!isPlainHeaderName(name) || !isPlainHeaderValue(value) || lower === '__proto__') return undefined;
    const seen = out[lower];
    // Set-Cookie values stay apart in Headers; Object.fromEntries keeps the last.
    out[lower] = seen === undefined || lower === 'set-cookie' ? value : `${seen}, ${value}`;
    if (seen === undefined) {
      if (lower < last) sorted = false;
      last = lower;
    }
  }
  if (sorted) return out;
  const inOrder: Record<string, string> = {};
  for (const k of Object.keys(out).sort()) inOrder[k] = out[k]!;
  return inOrder;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function requestUrl(req: IncomingMessage, host: string): URL {
  const target = req.url ?? '/';
  if (target.startsWith('/')) return new URL(`http://${req.headers.host ?? host}${target}`);
  return new URL(target);
}

/** The body, or undefined once more than `max` bytes arrived (reading stops there). */
export function readCapped(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > max) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (c: Buffer) => {
      total += c.length;
      if (total > max) {
        req.off('data', onData);
        req.off('end', onEnd);
        resolve(undefined);
        return;
      }
      chunks.push(c);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, total));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/** 413, then close the connection; what the client still sends is discarded, not buffered. */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  const socket: Socket = req.socket;
  req.resume();
  send(
    res,
    413,
    { 'content-type': 'text/plain; charset=utf-8', connection: 'close' },
    Buffer.from(`Request body too large: the limit is ${MAX_BODY_BYTES} bytes.`),
  );
  // Give the client a moment to read the answer, then drop a sender that does not stop.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  length = body.length,
): void {
  res.writeHead(status, { ...headers, 'content-length': String(length) });
  res.end(body);
}
