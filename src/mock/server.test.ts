/** The mock over real HTTP: every operation × binding, equivalence, credentials, bad input, namespaces. */
import { Readable } from 'node:stream';
import { requestAt } from '../bindings/endpoint.js';
import { binding } from '../bindings/index.js';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  findOperation,
  OPERATIONS,
  DEFAULT_PATHS,
  type BindingId,
  type Namespaces,
  type Operation,
} from '../contract/catalogue.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS, XSI_NS, parseXml } from '../xml/tree.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import type { DocumentValidator } from '../schema/types.js';
import { loadFixtureCases } from '../engine/cases.js';
import { startMock, type RunningMock } from './server.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, MAX_BODY_BYTES } from './handlers.js';
import { reportsErrorsInBand } from './data.js';
import {
  call,
  canon,
  faultCode,
  faultReason,
  resultElement,
  sendRequest,
  validParams,
  walk,
  type CanonElement,
  type Sent,
} from '../../test/support/mock.js';

const NS = DEFAULT_NAMESPACES;
const PAIRS = OPERATIONS.flatMap((op) => BINDINGS.map((id) => [op, id] as const));
const MEDIA: Record<BindingId, string> = {
  soap11: 'text/xml',
  soap12: 'application/soap+xml',
  get: 'text/xml',
  post: 'text/xml',
};
const op = (name: string): Operation => findOperation(name)!;

let mock: RunningMock;
let validator: DocumentValidator;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  validator = createDocumentValidator(NS);
});
afterAll(() => mock.close());

function expectValid(body: string, v = validator): void {
  const outcome = v.validate(body);
  expect(outcome.wellFormedError).toBeUndefined();
  expect(outcome.xsdErrors, JSON.stringify(outcome.xsdErrors) + '\n' + body.slice(0, 2000)).toEqual([]);
}

/** A valid request still gets a valid answer: the previous bad one left nothing behind. */
async function expectStillServing(): Promise<void> {
  const r = await call(mock.url, NS, op('GetLanguages'), 'get', validParams(op('GetLanguages')));
  expect(r.status).toBe(200);
  expect(r.body).toContain('日本語');
}

describe('every operation × binding with valid parameters', () => {
  test('the mock URL has no trailing slash', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test.for(PAIRS.map(([o, id]) => [o.name, id] as const))(
    '%s over %s: 200, media type, result element, XSD-valid',
    async ([name, id]) => {
      const o = op(name);
      const r = await call(mock.url, NS, o, id, validParams(o));
      expect(r.status, r.body).toBe(200);
      expect(r.headers['content-type']).toBe(`${MEDIA[id]}; charset=utf-8`);
      const result = resultElement(o, id, r.body);
      expect(result.ns).toBe(NS[o.ns]);
      expect(result.local).toBe(o.resultElement);
      expect(r.body).not.toContain(DEFAULT_PASSWORD);
      expectValid(r.body);
    },
  );

  const fixtureCases = [...loadFixtureCases()].flatMap(([name, cases]) =>
    cases.map((c) => [name, c.id, c.params] as const),
  );
  test.for(fixtureCases)('fixture case %s/%s validates in every binding', async ([name, , params]) => {
    const o = op(name);
    for (const id of BINDINGS) {
      const r = await call(mock.url, NS, o, id, { userName: DEFAULT_USER, password: DEFAULT_PASSWORD, ...params });
      expect(r.status, `${id}: ${r.body}`).toBe(200);
      expectValid(r.body);
    }
  });

  test.for([
    ['nil result (no transfer of the type)', { transferID: '99' }],
    ['unknown currency (in-band Error)', { currencies: 'XXX' }],
    ['non-numeric hotelID (in-band Error)', { hotelID: 'abc' }],
    ['no parameters at all (SOAP: every string may be absent)', { userName: undefined, password: undefined }],
    [
      'resort known to the fixtures, several currencies',
      { resortID: '503', currencies: 'JPY GBP', language: 'ja', hotelID: undefined, bookingID: undefined },
    ],
  ] as const)('SearchTransfers variant: %s validates in every binding', async ([, overrides]) => {
    const o = op('SearchTransfers');
    for (const id of BINDINGS) {
      const params = validParams(o, { ...overrides });
      const r = await call(mock.url, NS, o, id, params);
      expect(r.status, r.body).toBe(200);
      expectValid(r.body);
    }
  });

  test('a nil searchTransfersResult is the nil root in GET/POST and nil inside the response in SOAP', async () => {
    const o = op('SearchTransfers');
    for (const id of BINDINGS) {
      const r = await call(mock.url, NS, o, id, validParams(o, { transferID: '99' }));
      const el = resultElement(o, id, r.body);
      expect(el.attrs.find((a) => a.ns === XSI_NS && a.local === 'nil')?.value).toBe('true');
      expect(el.children).toEqual([]);
    }
  });
});

describe('the four bindings give the same result', () => {
  // One request on four bindings: a stateless mock, or a state-changing call would change the
  // booking between the bindings (src/mock/state.test.ts proves the state).
  let stateless: RunningMock;
  beforeAll(async () => {
    stateless = await startMock({ port: 0, stateless: true });
  });
  afterAll(() => stateless.close());
  const bodies = async (o: Operation, params = validParams(o)): Promise<Record<BindingId, Sent>> => {
    const out = {} as Record<BindingId, Sent>;
    for (const id of BINDINGS) out[id] = await call(stateless.url, NS, o, id, params);
    return out;
  };

  test.for(OPERATIONS.filter((o) => o.name !== 'CancelBooking').map((o) => o.name))(
    '%s: identical result trees',
    async (name) => {
      const o = op(name);
      const r = await bodies(o);
      const trees = BINDINGS.map((id) => canon(resultElement(o, id, r[id].body)));
      for (const t of trees.slice(1)) expect(t).toEqual(trees[0]);
    },
  );

  test(
    'CancelBooking: activecancellationpolicy is nil in SOAP and text in GET/POST, everything else ' + 'identical',
    async () => {
      const o = op('CancelBooking');
      const r = await bodies(o);
      const stripped: CanonElement[] = [];
      for (const id of BINDINGS) {
        const tree = canon(resultElement(o, id, r[id].body));
        const policies = [...walk(tree)].filter((e) => e.name === `{${NS.book}}activecancellationpolicy`);
        expect(policies.length).toBeGreaterThan(0);
        for (const p of policies) {
          if (binding(id).envelopeNs !== undefined) {
            expect(p.attrs, id).toEqual([`{${XSI_NS}}nil=true`]);
            expect(p.text, id).toBe('');
          } else {
            expect(p.attrs, id).toEqual([]);
            expect(p.text.length, id).toBeGreaterThan(0);
          }
          p.attrs = [];
          p.text = '';
        }
        stripped.push(tree);
      }
      for (const t of stripped.slice(1)) expect(t).toEqual(stripped[0]);
    },
  );

  test('same parameters give byte-identical bodies; other parameters other data', async () => {
    for (const o of OPERATIONS) {
      for (const id of BINDINGS) {
        const a = await call(mock.url, NS, o, id, validParams(o));
        const b = await call(mock.url, NS, o, id, validParams(o));
        expect(b.body, `${o.name} ${id}`).toBe(a.body);
      }
    }
    const cancel = op('CancelBooking');
    const one = await call(mock.url, NS, cancel, 'get', validParams(cancel, { bookingID: 'BK-1' }));
    const two = await call(mock.url, NS, cancel, 'get', validParams(cancel, { bookingID: 'BK-2' }));
    expect(one.body).not.toBe(two.body);
    const meals = op('GetMeals');
    const en = await call(mock.url, NS, meals, 'soap12', validParams(meals, { language: 'en' }));
    const el = await call(mock.url, NS, meals, 'soap12', validParams(meals, { language: 'el' }));
    expect(en.body).toContain('Breakfast');
    expect(el.body).toContain('Πρωινό');
  });
});

describe('wrong credentials never return data', () => {
  test.for(PAIRS.map(([o, id]) => [o.name, id] as const))('%s over %s', async ([name, id]) => {
    const o = op(name);
    const secret = 'wrong-Pa55word';
    const r = await call(mock.url, NS, o, id, validParams(o, { password: secret }));
    expect(r.body).not.toContain(secret);
    expect(r.body).not.toContain(DEFAULT_PASSWORD);
    if (reportsErrorsInBand(o.resultType)) {
      expect(r.status).toBe(200);
      expectValid(r.body);
      const tree = canon(resultElement(o, id, r.body));
      expect(tree.children.map((c) => c.name)).toEqual([`{${NS[o.ns]}}Error`]);
      expect(tree.children[0]!.children.map((c) => c.name)).toEqual([`{${NS[o.ns]}}ErrorType`, `{${NS[o.ns]}}Message`]);
      return;
    }
    expect(r.status).toBe(500);
    if (binding(id).envelopeNs !== undefined) {
      expect(r.headers['content-type']).toBe(`${MEDIA[id]}; charset=utf-8`);
      expect(faultReason(r.body)).toMatch(/Authentication failed/);
      expect(faultCode(r.body)).toBe(id === 'soap11' ? 'soap:Client' : 'soap:Sender');
      expectValid(r.body);
    } else {
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.body).toMatch(/Authentication failed/);
    }
  });
});

describe('bad input: a clear error, never a crash, and the next request is served', () => {
  const soapBody = (envNs: string, inner: string) =>
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope `
    + `xmlns:soap="${envNs}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const bookPath = () => mock.url + DEFAULT_PATHS.booking.soap;
  const searchPath = () => mock.url + DEFAULT_PATHS.reference.soap;
  const send = (url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string) =>
    sendRequest({ method, url, headers, body });

  test.for([
    ['soap11', 'text/xml; charset=utf-8', { soapaction: `"${NS.book}GetSpecialRequest"` }],
    ['soap12', 'application/soap+xml; charset=utf-8', {}],
  ] as const)('malformed XML over %s → fault of that version naming the problem', async ([id, ct, extra]) => {
    const r = await send(
      bookPath(),
      'POST',
      { 'content-type': ct, ...extra },
      '<soap:Envelope><soap:Body><GetSpecialRequest>',
    );
    expect(r.status).toBe(500);
    expect(r.headers['content-type']).toBe(ct);
    expect(parseXml(r.body).root.ns).toBe(id === 'soap11' ? SOAP11_ENV_NS : SOAP12_ENV_NS);
    expect(faultReason(r.body)).toMatch(/not well-formed/);
    await expectStillServing();
  });

  test('wrong or missing SOAPAction → fault naming SOAPAction', async () => {
    const o = op('GetSpecialRequest');
    const req = requestAt(mock.url, o, 'soap11', validParams(o), NS);
    const wrong = await sendRequest({ ...req, headers: { ...req.headers, soapaction: `"${NS.book}GetMeals"` } });
    expect(wrong.status).toBe(500);
    expect(faultReason(wrong.body)).toMatch(/SOAPAction .*does not match/);
    const unquoted = await sendRequest({
      ...req,
      headers: { ...req.headers, soapaction: `${NS.book}GetSpecialRequest` },
    });
    expect(unquoted.status).toBe(500);
    expect(faultReason(unquoted.body)).toMatch(/SOAPAction/);
    const { soapaction: _, ...noAction } = req.headers;
    const missing = await sendRequest({ ...req, headers: noAction });
    expect(missing.status).toBe(500);
    expect(faultReason(missing.body)).toMatch(/missing SOAPAction/);
    await expectStillServing();
  });

  test('SOAP version mismatch → VersionMismatch fault', async () => {
    const inner =
      `<GetLanguages `
      + `xmlns="${NS.search}"><userName>${DEFAULT_USER}</userName><password>${DEFAULT_PASSWORD}</password></GetLanguages>`;
    const as11 = await send(
      searchPath(),
      'POST',
      { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS.search}GetLanguages"` },
      soapBody(SOAP12_ENV_NS, inner),
    );
    expect(as11.status).toBe(500);
    expect(faultCode(as11.body)).toBe('soap:VersionMismatch');
    const as12 = await send(
      searchPath(),
      'POST',
      { 'content-type': 'application/soap+xml; charset=utf-8' },
      soapBody(SOAP11_ENV_NS, inner),
    );
    expect(as12.status).toBe(500);
    expect(as12.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(faultCode(as12.body)).toBe('soap:VersionMismatch');
    await expectStillServing();
  });

  test.for([
    ['GetSpecialRequest', 'bookingId', undefined, /Missing parameter: bookingId/],
    ['GetSpecialRequest', 'bookingId', 'abc', /bookingId.*not a valid int/],
    ['AmendmentRequest', 'roomId', '12.5', /roomId.*not a valid int/],
    ['AmendmentRequest', 'maxPrice', '12,50', /maxPrice.*not a valid decimal/],
    ['AmendmentPriceRequest', 'checkInDate', '2025-02-30T00:00:00', /checkInDate.*not a valid dateTime/],
  ] as const)('SOAP: %s with %s=%s → fault naming the parameter', async ([name, param, value, message]) => {
    const o = op(name);
    for (const id of BINDINGS.filter((b) => binding(b).envelopeNs !== undefined)) {
      const r = await call(mock.url, NS, o, id, validParams(o, { [param]: value }));
      expect(r.status).toBe(500);
      expect(faultReason(r.body)).toMatch(message);
      expectValid(r.body);
    }
    await expectStillServing();
  });

  test('SOAP: an absent string parameter reads as null (ASMX), not as an error', async () => {
    const o = op('CancelBooking');
    const r = await call(mock.url, NS, o, 'soap11', validParams(o, { language: undefined }));
    expect(r.status).toBe(200);
  });

  test.for([
    ['GetMeals', 'language', undefined, 'Missing parameter: language.'],
    ['GetLanguages', 'userName', undefined, 'Missing parameter: userName.'],
    ['GetSpecialRequest', 'bookingId', 'abc', 'Invalid value for parameter bookingId: "abc" is not a valid int.'],
  ] as const)('GET/POST: %s with %s=%s → 500 text naming it', async ([name, param, value, message]) => {
    const o = op(name);
    for (const id of ['get', 'post'] as const) {
      const r = await call(mock.url, NS, o, id, validParams(o, { [param]: value }));
      expect(r.status).toBe(500);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.body).toBe(message);
    }
    await expectStillServing();
  });

  test('unknown operation → 404 (GET/POST) or a fault (SOAP)', async () => {
    const get = await send(`${bookPath()}/NoSuchOperation?userName=a`, 'GET', {});
    expect(get.status).toBe(404);
    expect(get.body).toMatch(/unknown operation "NoSuchOperation"/);
    const post = await send(
      `${searchPath()}/getMeals`,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'language=en',
    );
    expect(post.status).toBe(404);
    expect(post.body).toMatch(/unknown operation "getMeals"/);
    // An operation of the other service is unknown on this one.
    const wrongService = await send(`${bookPath()}/GetMeals`, 'GET', {});
    expect(wrongService.status).toBe(404);
    const soap = await send(
      bookPath(),
      'POST',
      { 'content-type': 'application/soap+xml' },
      soapBody(SOAP12_ENV_NS, `<NoSuchOperation xmlns="${NS.book}"/>`),
    );
    expect(soap.status).toBe(500);
    expect(faultReason(soap.body)).toMatch(/unknown operation .*NoSuchOperation/);
    await expectStillServing();
  });

  test('unknown path → 404', async () => {
    for (const path of ['/', '/1/SOAP/Nothing.asmx', '/1/soap/booking.asmx', '/1/SOAP/Booking.asmx.bak', '/%E0%A4%A']) {
      const r = await send(mock.url + path, 'GET', {});
      expect(r.status, path).toBe(404);
      expect(r.body).toMatch(/No such resource/);
    }
    await expectStillServing();
  });

  test('wrong method → 405 with Allow', async () => {
    for (const [method, url] of [
      ['PUT', bookPath()],
      ['DELETE', `${searchPath()}/GetMeals`],
      ['PATCH', searchPath()],
    ] as const) {
      const res = await request(url, { method, body: method === 'DELETE' ? undefined : 'x' });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe('GET, POST');
      expect(await res.body.text()).toMatch(new RegExp(`Method ${method} is not allowed`));
    }
    await expectStillServing();
  });

  test('POST with an unknown content type → 415', async () => {
    const json = await send(bookPath(), 'POST', { 'content-type': 'application/json' }, '{}');
    expect(json.status).toBe(415);
    expect(json.body).toMatch(/Content-Type "application\/json" is not served/);
    const none = await request(bookPath(), { method: 'POST', body: 'x' });
    expect(none.statusCode).toBe(415);
    await none.body.dump();
    const formAsXml = await send(`${searchPath()}/GetMeals`, 'POST', { 'content-type': 'text/xml' }, 'language=en');
    expect(formAsXml.status).toBe(415);
    expect(formAsXml.body).toMatch(/application\/x-www-form-urlencoded/);
    const charset = await send(
      `${searchPath()}/GetMeals`,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded; charset=x-unknown' },
      'language=en',
    );
    expect(charset.status).toBe(415);
    expect(charset.body).toMatch(/charset "x-unknown"/);
    await expectStillServing();
  });

  test('GET on the service path without ?WSDL → 400 naming the way', async () => {
    const r = await send(bookPath(), 'GET', {});
    expect(r.status).toBe(400);
    expect(r.body).toMatch(/\?WSDL/);
  });

  test('a body over 1 MiB → 413, declared or streamed', async () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const declared = await send(bookPath(), 'POST', { 'content-type': 'text/xml', soapaction: '"x"' }, big);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatch(/too large/);
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x78));
    const streamed = await request(bookPath(), {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml' },
      body: Readable.from(chunks),
    });
    expect(streamed.statusCode).toBe(413);
    await streamed.body.dump();
    // Exactly at the limit is still read (and then refused as not XML, not as too large).
    const atLimit = await send(
      bookPath(),
      'POST',
      { 'content-type': 'application/soap+xml' },
      'y'.repeat(MAX_BODY_BYTES),
    );
    expect(atLimit.status).toBe(500);
    await expectStillServing();
  });

  test('many bad requests at once do not disturb good ones', async () => {
    const o = op('GetRoomTypes');
    const good = call(mock.url, NS, o, 'post', validParams(o));
    const bad = Array.from({ length: 20 }, (_, i) =>
      send(bookPath(), 'POST', { 'content-type': 'text/xml', soapaction: '"x"' }, `<broken${i}`),
    );
    const [g, ...b] = await Promise.all([good, ...bad]);
    expect(g!.status).toBe(200);
    for (const r of b) expect(r.status).toBe(500);
    await expectStillServing();
  });
});

describe('WSDL', () => {
  const send = (url: string) => sendRequest({ method: 'GET', url, headers: {} });
  test.for(['WSDL', 'wsdl', 'Wsdl'])('GET <service path>?%s serves the WSDL of each service', async (key) => {
    for (const [service, path] of Object.entries({
      Booking: DEFAULT_PATHS.booking.soap,
      NonStaticXMLAPI: DEFAULT_PATHS.reference.soap,
    })) {
      const r = await send(`${mock.url}${path}?${key}`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/xml; charset=utf-8');
      const root = parseXml(r.body).root;
      expect(root.local).toBe('definitions');
      expect(r.body).toContain(`${mock.url}${path}`);
      expect(r.body).toContain(service === 'Booking' ? NS.book : NS.search);
    }
  });
});

describe('configurable namespaces and credentials', () => {
  const custom: Namespaces = { book: 'urn:example:booking:1/', search: 'https://api.example.org/search/1/' };
  let other: RunningMock;
  let customValidator: DocumentValidator;
  beforeAll(async () => {
    other = await startMock({ port: 0, user: 'alice', password: 'S3cret&<"', namespaces: custom });
    customValidator = createDocumentValidator(custom);
  });
  afterAll(() => other.close());

  test.for(PAIRS.map(([o, id]) => [o.name, id] as const))(
    '%s over %s uses the configured namespace and validates',
    async ([name, id]) => {
      const o = op(name);
      const r = await call(other.url, custom, o, id, validParams(o, { userName: 'alice', password: 'S3cret&<"' }));
      expect(r.status, r.body).toBe(200);
      const result = resultElement(o, id, r.body);
      expect(result.ns).toBe(custom[o.ns]);
      expect(r.body).not.toContain(NS.book);
      expect(r.body).not.toContain(NS.search);
      expectValid(r.body, customValidator);
    },
  );

  test('the default credentials and namespaces are refused there', async () => {
    const o = op('GetRoomTypes');
    const defaults = await call(other.url, custom, o, 'get', validParams(o));
    expect(defaults.body).toMatch(/AuthenticationException/);
    const wrongNs = await call(
      other.url,
      NS,
      o,
      'soap12',
      validParams(o, { userName: 'alice', password: 'S3cret&<"' }),
    );
    expect(wrongNs.status).toBe(500);
    expect(faultReason(wrongNs.body)).toMatch(/unknown operation/);
  });
});
