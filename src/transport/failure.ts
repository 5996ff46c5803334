/**
 * A failed exchange classified: the stable code of its failure (TransportErrorCode, as findings carry
 * it) and words that say what happened, from what undici, Node or the abort threw.
 */
import { SizeCapError } from '../core/errors.js';
import { proxyFailure, tlsFailure } from './network.js';
import type { TransportErrorCode, TransportOptions } from './options.js';

/** The code and words of a failed exchange (`stop`: the transport's own abort, if it was one). */
export function classify(
  e: unknown,
  opts: TransportOptions,
  stop: 'timeout' | 'deadline' | undefined,
  elapsed: number,
): { code: TransportErrorCode; message: string } {
  if (e instanceof SizeCapError) {
    return {
      code: 'response_too_large',
      message: `response body larger than ${opts.maxBodyBytes} bytes: reading aborted`,
    };
  }
  if (stop === 'deadline')
    return {
      code: 'deadline_exceeded',
      message: `the run's overall deadline passed after ${Math.round(elapsed)} ms of this exchange`,
    };
  if (stop === 'timeout') return { code: 'timeout', message: `no complete response within ${opts.timeoutMs} ms` };
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  const msg = err.message ?? String(e);
  // undici's refusal by a proxy is a RequestAbortedError (an AbortError): not a time-out.
  const proxy = proxyFailure(msg);
  if (proxy) return { code: 'transport_error', message: proxy };
  if (
    err.name === 'TimeoutError'
    || err.name === 'AbortError'
    || code === 'UND_ERR_HEADERS_TIMEOUT'
    || code === 'UND_ERR_BODY_TIMEOUT'
    || code === 'UND_ERR_ABORTED'
    || code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return { code: 'timeout', message: `no complete response within ${opts.timeoutMs} ms` };
  }
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message: `connection refused: ${msg}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'unknown_host', message: `unknown host: ${msg}` };
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code) || /certificate|ssl|tls/i.test(msg)) {
    return { code: 'tls_error', message: `TLS failure: ${tlsFailure(code, msg, opts.network) ?? msg}` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return { code: 'connection_reset', message: `connection closed before the response was complete: ${msg}` };
  }
  // undici asserts on a status below 100 (its parser lets "099" through): say what the target sent, not undici's
  // internals.
  if (code === 'ERR_ASSERTION' && /statusCode >= 100/.test(msg)) {
    return {
      code: 'invalid_response',
      message: 'invalid HTTP status line: a status code below 100 (HTTP/1.1 status codes are 100 to 599)',
    };
  }
  if (code.startsWith('HPE_') || err.name === 'HTTPParserError') {
    const detail = /\(([^)]*)\)\s*$/.exec(msg)?.[1];
    return {
      code: 'invalid_response',
      message: `the response is not valid HTTP/1.1${detail ? `: ${detail.toLowerCase()}` : ''}`,
    };
  }
  return { code: 'transport_error', message: `${code ? code + ': ' : ''}${msg.split('\n')[0]!.slice(0, 300)}` };
}
