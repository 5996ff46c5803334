/**
 * A mock answer as the node:http adapter writes it: status, headers in the order Fetch's Headers
 * gives them (lower-cased names, sorted), body bytes. Two ways to get there that give the same
 * bytes: from a Fetch Response (the msw path), and straight from a plain { status, headers, body }
 * when a Fetch Response would carry it unchanged (`plainToWire`; anything else goes through a
 * Response so that Fetch's own rules and errors apply exactly).
 */
import type { MockResponse } from './fault-types.js';

export interface Wire {
  readonly status: number;
  /** Lower-cased names, in Headers iteration order. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

// RFC 9110 token: what Headers accepts as a name.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What Headers keeps as it is: no leading or trailing HTTP whitespace, no NUL/CR/LF, bytes only.
const KEPT_VALUE = /^(?:[^\0\r\n\t \u0100-\uffff](?:[^\0\r\n\u0100-\uffff]*[^\0\r\n\t \u0100-\uffff])?)?$/;

/** A header name Headers accepts and writes lower-cased. */
export function isPlainHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** A header value Headers accepts and keeps as it is. */
export function isPlainHeaderValue(value: string): boolean {
  return KEPT_VALUE.test(value);
}

/** The default Content-Type Fetch gives a Response with a string body and none set. */
const STRING_BODY_TYPE = 'text/plain;charset=UTF-8';

/**
 * The wire form of a plain response, when `new HttpResponse(body, { status, headers })` would
 * carry it unchanged: a status 200-599 that may have a body (not 204, 205, 304), header names
 * already lower-case tokens, values Headers keeps as they are, no Set-Cookie (msw stores those in
 * its cookie jar). Otherwise undefined: build the Response and use responseToWire.
 */
export function plainToWire(r: MockResponse): Wire | undefined {
  const { status } = r;
  if (!Number.isInteger(status) || status < 200 || status > 599 || status === 204 || status === 205 || status === 304)
    return undefined;
  const names = Object.keys(r.headers);
  for (const name of names) {
    if (name === 'set-cookie' || !TOKEN.test(name) || name.toLowerCase() !== name || !KEPT_VALUE.test(r.headers[name]!))
      return undefined;
  }
  const stringBody = typeof r.body === 'string';
  if (stringBody && r.headers['content-type'] === undefined) names.push('content-type');
  let headers: Record<string, string>;
  if (names.length === 1 && names[0] === 'content-type') {
    headers = { 'content-type': r.headers['content-type'] ?? STRING_BODY_TYPE };
  } else {
    headers = {};
    for (const name of names.sort()) headers[name] = r.headers[name] ?? STRING_BODY_TYPE;
  }
  const body = stringBody
    ? Buffer.from(r.body as string, 'utf8')
    : Buffer.from((r.body as Uint8Array).buffer, (r.body as Uint8Array).byteOffset, (r.body as Uint8Array).byteLength);
  return { status, headers, body };
}

/** The wire form of a Fetch Response (headers as Headers iterates them, the whole body read). */
export async function responseToWire(response: Response): Promise<Wire> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}
