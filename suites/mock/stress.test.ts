/**
 * The mock under random and malformed requests (fast-check, bounded runs and time): whatever comes
 * in — methods, paths, query strings, headers, bodies, raw bytes that are not HTTP — it answers with
 * a well-formed error or a valid result, never crashes (no "internal mock error"), never hangs, and
 * still serves a valid request afterwards.
 */
import { connect } from 'node:net';
import { requestAt } from '../../src/bindings/endpoint.js';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BINDINGS, DEFAULT_NAMESPACES, OPERATIONS } from '../../src/contract/catalogue.js';
import { parseXml } from '../../src/xml/tree.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, startMock, type RunningMock } from '../../src/mock/index.js';
import { resultElement, validParams } from '../../test/support/mock.js';

const PER_REQUEST_MS = 5_000;
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';

let mock: RunningMock;
let agent: Agent;
const validator = createDocumentValidator(DEFAULT_NAMESPACES);

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  agent = new Agent({ connections: 8, headersTimeout: PER_REQUEST_MS, bodyTimeout: PER_REQUEST_MS });
});
afterAll(async () => {
  await agent?.close();
  await mock?.close();
});

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}
interface Answer {
  status: number;
  type: string;
  body: Buffer;
  ms: number;
}

async function send(r: Sent): Promise<Answer> {
  const t0 = Date.now();
  const res = await request(`${mock.url}${r.path}`, {
    method: r.method as 'GET',
    headers: r.headers,
    body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body,
    dispatcher: agent,
    signal: AbortSignal.timeout(PER_REQUEST_MS),
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, type, body, ms: Date.now() - t0 };
}

/** A well-formed error or a valid result: the mock's whole promise to a client. */
function expectWellFormed(r: Sent, a: Answer): void {
  const what = `${r.method} ${r.path} → ${a.status} ${a.type} ${a.body.subarray(0, 200).toString()}`;
  expect(a.status, what).toBeGreaterThanOrEqual(200);
  expect(a.status, what).toBeLessThan(600);
  expect(a.status === 200 || a.status >= 400, what).toBe(true);
  expect(a.body.toString('utf8'), what).not.toMatch(/internal mock error/);
  if (r.method === 'HEAD') return;
  if (a.type === '' && a.body.length === 0) {
    // Refused by Node's HTTP parser before the mock saw it (a method token like "Post"): a bare 4xx.
    expect([400, 413, 414, 431], what).toContain(a.status);
    return;
  }
  expect(a.type, what).not.toBe('');
  expect(a.body.length, what).toBeGreaterThan(0);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(a.body);
  if (/xml/.test(a.type)) expect(() => parseXml(text), what).not.toThrow();
  else expect(a.type, what).toMatch(/^text\/plain; charset=utf-8$/);
  // A 200 that is not a WSDL is a result: valid against the schemas.
  const wsdl = [...new URL(r.path, 'http://x').searchParams.keys()].some((k) => k.toLowerCase() === 'wsdl');
  if (a.status === 200 && !wsdl) expect(validator.validate(text).xsdErrors, what).toEqual([]);
}

// ---- generators ----------------------------------------------------------------------------------

const SERVICE_PATHS = ['/1/SOAP/Booking.asmx', '/1/SOAP/NonStaticXMLAPI.asmx'];
const opNames = OPERATIONS.map((o) => o.name);
const junk = fc.string({ unit: 'binary', maxLength: 40 });
const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);

const pathArb = fc.oneof(
  fc.constantFrom(...SERVICE_PATHS),
  fc
    .tuple(fc.constantFrom(...SERVICE_PATHS), fc.constantFrom(...opNames, 'NoSuch', '', '..', '%2e%2e', 'getmeals'))
    .map(([p, o]) => `${p}/${o}`),
  fc
    .tuple(fc.constantFrom(...SERVICE_PATHS), fc.constantFrom('?WSDL', '?wsdl', '?WSDL&x=1', '?disco'))
    .map(([p, q]) => `${p}${q}`),
  fc
    .array(fc.oneof(token, fc.constantFrom('%zz', '%00', '%ff', '..', '.', '%2F', '~', 'ü')), { maxLength: 6 })
    .map((s) => `/${s.join('/')}`),
  fc.constant(`/1/SOAP/${'a'.repeat(3000)}`),
);

const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('userName', 'password', 'language', 'bookingId', 'bookingID', 'checkInDate', 'roomId', 'WSDL'),
        token,
      ),
      fc.oneof(
        fc.constantFrom(
          DEFAULT_USER,
          DEFAULT_PASSWORD,
          'not-a-number',
          '2025-13-45T99:00:00',
          '',
          '-1',
          '99999999999999',
        ),
        junk,
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''));

const rawQueryArb = fc.constantFrom('', '?%', '?a=%zz', '?&&&', '?password=%E0%A4%A', '?userName', '?=x');

const contentTypeArb = fc.option(
  fc.oneof(
    fc.constantFrom(
      'text/xml',
      'text/xml; charset=utf-8',
      'text/xml; charset=utf-16',
      'text/xml; charset=x-unknown',
      'TEXT/XML;CHARSET=UTF-8',
      'application/soap+xml; charset=utf-8',
      'application/soap+xml; charset=utf-8; action="http://x/GetMeals"',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=latin1',
      'multipart/form-data; boundary=x',
      'application/json',
      'text/plain',
      '*/*',
      ';;;',
      'text/xml; charset=',
    ),
    token.map((t) => `${t}/${t}`),
  ),
  { nil: undefined },
);

const soapActionArb = fc.option(
  fc.oneof(
    fc.constantFrom(...opNames).map((o) => `"${DEFAULT_NAMESPACES.search}${o}"`),
    fc.constantFrom(...opNames).map((o) => `"${DEFAULT_NAMESPACES.book}${o}"`),
    fc.constantFrom('', '""', '"', 'urn:x', 'GetMeals'),
    junk.map((s) => s.replace(/[^\x20-\x7e\t]/g, '')),
  ),
  { nil: undefined },
);

/** A valid request of some operation and binding, then possibly damaged. */
const validRequestArb = fc
  .tuple(fc.constantFrom(...OPERATIONS), fc.constantFrom(...BINDINGS), fc.boolean(), fc.boolean())
  .map(([op, b, wrongPw, dropParam]) => {
    const params = validParams(op, {
      password: wrongPw ? 'wrong' : DEFAULT_PASSWORD,
      ...(dropParam ? { [op.params[op.params.length - 1]!.name]: undefined } : {}),
    });
    return requestAt('', op, b, params, DEFAULT_NAMESPACES);
  });

const bodyArb = fc.oneof(
  junk,
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    '',
    '<',
    '<?xml version="1.0"?>',
    `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body>`,
    `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`,
    `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><GetMeals/></soap:Body></soap:Envelope>`,
    '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
    `<!-- <a --><!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;">]><soap:Envelope `
      + `xmlns:soap="${SOAP11}"><soap:Body>&l2;</soap:Body></soap:Envelope>`,
    `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`,
    '<a xmlns:p="">&#0;</a>',
    '<a>\uD800</a>',
    'userName=mock-user&password=mock-password&language=%zz',
    Buffer.from([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00]),
    Buffer.from('<a>caf\xe9</a>', 'latin1'),
  ),
  fc.tuple(validRequestArb, fc.nat(400)).map(([r, cut]) => (r.body ?? '').slice(0, cut)),
  fc.tuple(validRequestArb, fc.nat(400), junk).map(([r, at, j]) => {
    const s = r.body ?? '';
    return s.slice(0, at) + j + s.slice(at);
  }),
);

const methodArb = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
  fc.constantFrom('PROPFIND', 'FOO', 'get', 'Post'),
);

const extraHeadersArb = fc.dictionary(
  fc.oneof(
    fc.constantFrom('accept', 'accept-charset', 'x-forwarded-for', 'cookie', 'authorization', 'transfer-encoding-x'),
    token.map((t) => `x-${t}`),
  ),
  fc.oneof(
    fc.constantFrom('*/*', 'utf-8', '127.0.0.1', 'a=b', 'Basic Zm9vOmJhcg=='),
    fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  ),
  { maxKeys: 4 },
);

const randomRequestArb: fc.Arbitrary<Sent> = fc.oneof(
  // Entirely random.
  fc
    .record({
      method: methodArb,
      path: pathArb,
      query: fc.oneof(queryArb, rawQueryArb),
      ct: contentTypeArb,
      sa: soapActionArb,
      extra: extraHeadersArb,
      body: bodyArb,
    })
    .map(({ method, path, query, ct, sa, extra, body }) => ({
      method,
      path: `${path}${path.includes('?') ? '' : query}`,
      body,
      headers: { ...extra, ...(ct ? { 'content-type': ct } : {}), ...(sa !== undefined ? { soapaction: sa } : {}) },
    })),
  // A valid request with one part replaced.
  fc
    .tuple(
      validRequestArb,
      fc.constantFrom('method', 'content-type', 'soapaction', 'body', 'query', 'none'),
      methodArb,
      contentTypeArb,
      soapActionArb,
      bodyArb,
      queryArb,
    )
    .map(([r, part, m, ct, sa, body, q]): Sent => {
      const headers = { ...r.headers };
      if (part === 'content-type') {
        if (ct) headers['content-type'] = ct;
        else delete headers['content-type'];
      }
      if (part === 'soapaction') {
        if (sa !== undefined) headers.soapaction = sa;
        else delete headers.soapaction;
      }
      return {
        method: part === 'method' ? m : r.method,
        path: part === 'query' ? `${r.url.split('?')[0]}${q}` : r.url,
        headers,
        body: part === 'body' ? body : r.body,
      };
    }),
);

// ---- properties ----------------------------------------------------------------------------------

async function expectStillServes(): Promise<void> {
  const op = OPERATIONS.find((o) => o.name === 'GetMeals')!;
  for (const b of BINDINGS) {
    const req = requestAt(mock.url, op, b, validParams(op), DEFAULT_NAMESPACES);
    const res = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(PER_REQUEST_MS),
    });
    const text = await res.body.text();
    expect(res.statusCode, text).toBe(200);
    expect(resultElement(op, b, text).local).toBe(op.resultElement);
  }
}

describe('the mock under random and malformed requests', () => {
  test('HTTP requests: always a well-formed error or a valid result, each within 5 s (300 runs)', async () => {
    let slowest = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(randomRequestArb, async (r) => {
        const a = await send(r);
        slowest = Math.max(slowest, a.ms);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        expectWellFormed(r, a);
      }),
      {
        numRuns: Number(process.env.STRESS_RUNS ?? 300),
        interruptAfterTimeLimit: 60_000,
        markInterruptAsFailure: false,
      },
    );
    console.log(
      `[stress] `
        + `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])))}; `
        + `slowest answer ${slowest} ms`,
    );
    expect(statuses.size).toBeGreaterThan(3); // the generators reach many answers, not one
    await expectStillServes();
  }, 120_000);

  test('raw bytes that are not HTTP: an HTTP error or a closed connection, never a hang (100 runs)', async () => {
    const host = new URL(mock.url);
    const rawArb = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 400 }).map((a) => Buffer.from(a)),
      fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'BREW', ''),
          fc.string({ maxLength: 60 }),
          fc.constantFrom('HTTP/1.1', 'HTTP/9.9', 'HTTP/1.1 x', ''),
          fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }),
        )
        .map(([m, target, v, hs]) => Buffer.from(`${m} ${target} ${v}\r\n${hs.join('\r\n')}\r\n\r\n`, 'utf8')),
      fc
        .constantFrom(
          'POST /1/SOAP/Booking.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: '
            + 'chunked\r\n\r\nzzz\r\n\r\n',
          'POST /1/SOAP/Booking.asmx HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n',
          'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
          `GET /${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
          `GET / HTTP/1.1\r\nHost: x\r\nX: ${'b'.repeat(20000)}\r\n\r\n`,
          'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
          'GET / HTTP/1.1\nHost: x\n\n',
          'POST /1/SOAP/Booking.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\nshort',
        )
        .map((s) => Buffer.from(s, 'latin1')),
    );
    await fc.assert(
      fc.asyncProperty(rawArb, async (bytes) => {
        const answer = await new Promise<{ text: string; closed: boolean }>((resolve, reject) => {
          const sock = connect(Number(host.port), host.hostname);
          const chunks: Buffer[] = [];
          const timer = setTimeout(() => {
            sock.destroy();
            resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: false });
          }, PER_REQUEST_MS);
          sock.on('data', (c: Buffer) => chunks.push(c));
          sock.on('error', () => {
            /* a reset is a closed connection */
          });
          sock.on('close', () => {
            clearTimeout(timer);
            resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: true });
          });
          sock.on('connect', () => sock.end(bytes)); // half-close: the server knows nothing more comes
          sock.on('timeout', () => reject(new Error('socket timeout')));
        });
        // Either an HTTP answer (Node's parser: 400/413/431..., or the mock's) or the connection closed.
        if (answer.text)
          expect(answer.text, JSON.stringify(bytes.toString('latin1').slice(0, 120))).toMatch(/^HTTP\/1\.1 [1-5]\d\d /);
        expect(answer.text).not.toMatch(/internal mock error/);
        expect(
          answer.closed || answer.text.length > 0,
          `no answer and no close for ${JSON.stringify(bytes.toString('latin1').slice(0, 120))}`,
        ).toBe(true);
      }),
      {
        numRuns: Number(process.env.STRESS_RUNS ?? 100),
        interruptAfterTimeLimit: 60_000,
        markInterruptAsFailure: false,
      },
    );
    await expectStillServes();
  }, 120_000);
});
