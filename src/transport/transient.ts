/**
 * What a transient answer is, in one place: the network or a gateway in front of the service failed this once, not the
 * service's contract. A gateway answer (502, 503, 504, or any 5xx whose body is an HTML page: the service itself
 * answers XML or text, its faults included; 501 and 505 say "never", not "not now"), a connection reset or closed with
 * no answer, or a timeout. A read is retried on it (with backoff, honouring Retry-After, within the run's deadline); a
 * write never is: its outcome is ambiguous.
 */
import type { Exchange } from '../core/types.js';

/** The kind of a transient answer, as the reports name it. */
export type TransientKind =
  | 'gateway_502'
  | 'gateway_503'
  | 'gateway_504'
  | 'gateway_page'
  | 'connection_reset'
  | 'timeout';

/** Transport failures that leave no answer at all and may pass on their own. */
const TRANSIENT_ERRORS: ReadonlySet<string> = new Set(['connection_reset', 'timeout']);

/**
 * 5xx statuses that say the request will never be served (Not Implemented, HTTP Version Not Supported): never
 * transient.
 */
const PERMANENT: ReadonlySet<number> = new Set([501, 505]);

/** Whether a body reads as an HTML page (a gateway's or a web server's), not a SOAP/XML or text answer. */
export function isHtmlPage(contentType: string | undefined, body: Buffer): boolean {
  if (/^\s*text\/html\b/i.test(contentType ?? '')) return true;
  const head = body
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/**
 * Why an exchange is transient, or undefined when it is the service's own answer (a SOAP fault with
 * 500 included) or a failure that will not pass on its own (refused, unknown host, TLS, size cap).
 */
export function transientOf(ex: Pick<Exchange, 'response' | 'error'>): TransientKind | undefined {
  if (ex.error) return TRANSIENT_ERRORS.has(ex.error.code) ? (ex.error.code as TransientKind) : undefined;
  const r = ex.response;
  if (!r || r.status < 500 || r.status > 599) return undefined;
  if (r.status === 502 || r.status === 503 || r.status === 504) {
    // The service's own fault with a gateway status is not a gateway's answer: a SOAP or XML body says so.
    if (!isHtmlPage(r.headers['content-type'], r.body) && looksXml(r.body)) return undefined;
    return `gateway_${r.status}` as TransientKind;
  }
  return !PERMANENT.has(r.status) && isHtmlPage(r.headers['content-type'], r.body) ? 'gateway_page' : undefined;
}

function looksXml(body: Buffer): boolean {
  return body
    .subarray(0, 256)
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart()
    .startsWith('<');
}

/** Longest wait a Retry-After may ask for (a gateway asking for minutes is not waited for). */
export const RETRY_AFTER_CAP_MS = 10_000;

/**
 * Milliseconds a Retry-After header asks to wait (delay-seconds or an HTTP date), capped at `capMs`;
 * undefined when absent or unreadable.
 */
export function retryAfterMs(
  value: string | undefined,
  now = Date.now(),
  capMs = RETRY_AFTER_CAP_MS,
): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, capMs);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), capMs);
}

/** First backoff step, in milliseconds. */
export const BACKOFF_BASE_MS = 100;

/**
 * Full-jitter exponential backoff before retry `attempt` (0-based): a random wait up to base × 2^attempt (at least a
 * tenth of it).
 */
export function backoffMs(attempt: number, random: () => number = Math.random, baseMs = BACKOFF_BASE_MS): number {
  const top = baseMs * 2 ** attempt;
  return Math.round(top / 10 + (random() * (top * 9)) / 10);
}

/**
 * How long to wait before retrying a transient answer: what Retry-After asks (capped), else the
 * backoff; undefined when that wait would end past the deadline (no retry then).
 */
export function retryDelay(
  ex: Pick<Exchange, 'response'>,
  attempt: number,
  deadline: number | undefined,
  now = Date.now(),
  random: () => number = Math.random,
): number | undefined {
  const asked = retryAfterMs(ex.response?.headers['retry-after'], now);
  const wait = asked ?? backoffMs(attempt, random);
  if (deadline !== undefined && now + wait >= deadline) return undefined;
  return wait;
}
