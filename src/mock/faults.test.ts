/**
 * The fault catalogue (its entries well-formed, covering every operation, binding and class of
 * violation) and its hook points: each fault breaks only its operation and bindings.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestAt } from '../bindings/endpoint.js';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { parseXml } from '../xml/tree.js';
import { catalogueProblems, faultBindings, faultNamed } from './fault-lookup.js';
import { FAULTS } from './faults.js';
import type { Fault, FaultCategory } from './fault-types.js';
import { startMock, type RunningMock } from './server.js';
import { call, faultReason, resultElement, sendRequest, validParams } from '../../test/support/mock.js';
import { binding } from '../bindings/index.js';
import type { DoctypeProbe } from '../bindings/types.js';
import { CallbackListener } from '../engine/callback.js';
import { DEFAULT_USER } from './core.js';

const NS = DEFAULT_NAMESPACES;
const op = (name: string) => findOperation(name)!;

describe('the catalogue', () => {
  test(
    'at least 40 well-formed entries: kebab-case unique names, catalogue operations, bindings, a hook, a '
      + 'description',
    () => {
      expect(FAULTS.length).toBeGreaterThanOrEqual(40);
      expect(catalogueProblems()).toEqual([]);
    },
  );

  test('every operation, every binding and every class of violation is covered', () => {
    for (const o of OPERATIONS)
      expect(
        FAULTS.some((f) => f.operation === o.name),
        o.name,
      ).toBe(true);
    for (const b of BINDINGS)
      expect(
        FAULTS.some((f) => faultBindings(f).includes(b)),
        b,
      ).toBe(true);
    const categories: FaultCategory[] = [
      'status',
      'media-type',
      'envelope',
      'result-element',
      'namespace',
      'required',
      'nil',
      'enumeration',
      'lexical',
      'structure',
      'encoding',
      'binding-rules',
      'equivalence',
      'credentials',
      'bad-request',
    ];
    for (const c of categories)
      expect(
        FAULTS.some((f) => f.category === c),
        c,
      ).toBe(true);
  });
});

describe('hook points, confined to the fault operation and bindings', () => {
  const mocks: RunningMock[] = [];
  const withFaults = async (...faults: (string | Fault)[]) => {
    const m = await startMock({ port: 0, faults });
    mocks.push(m);
    return m.url;
  };
  let clean: string;
  beforeAll(async () => {
    clean = await withFaults();
  });
  afterAll(() => Promise.all(mocks.map((m) => m.close())));

  const send = (url: string, name: string, b: BindingId, overrides: Record<string, string | undefined> = {}) =>
    call(url, NS, op(name), b, validParams(op(name), overrides));

  test('value: soap12-drops-list-item removes one meal in SOAP 1.2 only', async () => {
    const url = await withFaults('soap12-drops-list-item');
    const meals = async (b: BindingId, u = url) =>
      resultElement(op('GetMeals'), b, (await send(u, 'GetMeals', b)).body).children[0]!.children.length;
    const full = await meals('soap12', clean);
    expect(await meals('soap12')).toBe(full - 1);
    for (const b of ['soap11', 'get', 'post'] as const) expect(await meals(b)).toBe(full);
    // Another operation on the faulty binding is untouched.
    expect((await send(url, 'GetLanguages', 'soap12')).body).toBe((await send(clean, 'GetLanguages', 'soap12')).body);
  });

  test('status: 202 on HTTP GET of GetLanguages, 200 elsewhere', async () => {
    const url = await withFaults('status-202-on-valid-call');
    expect((await send(url, 'GetLanguages', 'get')).status).toBe(202);
    expect((await send(url, 'GetLanguages', 'post')).status).toBe(200);
    expect((await send(url, 'GetThemes', 'get')).status).toBe(200);
  });

  test('headers: charset-missing drops the charset on GET only', async () => {
    const url = await withFaults('charset-missing');
    expect((await send(url, 'GetHotelNoteTypes', 'get')).headers['content-type']).toBe('text/xml');
    expect((await send(url, 'GetHotelNoteTypes', 'post')).headers['content-type']).toBe('text/xml; charset=utf-8');
  });

  test('response bytes: truncated-body halves the body; latin1-bytes-declared-utf8 re-encodes it', async () => {
    const url = await withFaults('truncated-body', 'latin1-bytes-declared-utf8');
    const whole = (await send(clean, 'GetRoomNoteTypes', 'get')).body;
    const cut = (await send(url, 'GetRoomNoteTypes', 'get')).body;
    expect(whole.startsWith(cut)).toBe(true);
    expect(Buffer.byteLength(cut)).toBe(Math.floor(Buffer.byteLength(whole) / 2));
    const latin1 = await send(url, 'GetMeals', 'post', { language: 'de' });
    expect(latin1.body).toContain('\uFFFD'); // the é / ü bytes are not UTF-8
  });

  test('params: wrong credentials are answered with data on HTTP GET only', async () => {
    const url = await withFaults('wrong-credentials-answered-with-data');
    expect((await send(url, 'GetSpecialRequest', 'get', { password: 'wrong' })).status).toBe(200);
    expect((await send(url, 'GetSpecialRequest', 'post', { password: 'wrong' })).status).toBe(500);
    expect((await send(url, 'GetMeals', 'get', { password: 'wrong' })).status).toBe(500);
  });

  test('value on an in-band rejection: Error and data together', async () => {
    const url = await withFaults('wrong-credentials-error-with-data');
    const result = parseXml((await send(url, 'GetRoomTypes', 'post', { password: 'wrong' })).body).root;
    expect(result.children.map((c) => c.local)).toEqual(['Error', 'roomTypes']);
    const soap = resultElement(
      op('GetRoomTypes'),
      'soap11',
      (await send(url, 'GetRoomTypes', 'soap11', { password: 'wrong' })).body,
    );
    expect(soap.children.map((c) => c.local)).toEqual(['Error']);
  });

  test('request: a wrong SOAPAction is accepted for the fault operation only', async () => {
    const url = await withFaults('wrong-soapaction-answered');
    const wrongAction = (name: string) => {
      const o = op(name);
      const r = requestAt(url, o, 'soap11', validParams(o), NS);
      return sendRequest({ ...r, headers: { ...r.headers, soapaction: `"${NS[o.ns]}GetFeatures"` } });
    };
    expect((await wrongAction('GetMeals')).status).toBe(200);
    expect((await wrongAction('GetThemes')).status).toBe(500);
  });

  test("'all' bindings: CancelBooking's result renamed everywhere", async () => {
    const url = await withFaults('cancel-booking-result-renamed');
    // A booking per binding: each call is a first cancellation.
    for (const [i, b] of BINDINGS.entries())
      expect((await send(url, 'CancelBooking', b, { bookingID: `BK-77${i}` })).body, b).toMatch(
        /<cancelBookingResult[ >]/,
      );
  });

  test('rewritten: a request hook that made a refused request acceptable is known to the later hooks', async () => {
    const url = await withFaults('soapaction-dispatch-ignores-body');
    const o = op('GetHotelNoteTypes');
    const r = requestAt(url, o, 'soap11', validParams(o), NS);
    const wrong = await sendRequest({ ...r, headers: { ...r.headers, soapaction: `"${NS[o.ns]}GetThemes"` } });
    expect(resultElement(op('GetLanguages'), 'soap11', wrong.body).local).toBe('getLanguagesResult');
    // A call as sent is answered as always.
    expect(resultElement(o, 'soap11', (await sendRequest(r)).body).local).toBe('getHotelNoteTypesResult');
  });

  test('a fault object is one entry: passed in, it applies like a catalogue fault', async () => {
    const mine: Fault = {
      name: 'teapot',
      description: 'HTTP POST of GetThemes answers 418',
      category: 'status',
      operation: 'GetThemes',
      bindings: ['post'],
      apply: { status: () => 418 },
    };
    const url = await withFaults(mine);
    expect((await send(url, 'GetThemes', 'post')).status).toBe(418);
    expect((await send(url, 'GetThemes', 'get')).status).toBe(200);
  });

  // Issue 42: the DOCTYPE probes' requests, as the harness writes them (src/bindings/soap.ts doctypeRequest).
  const doctypeCall = (url: string, name: string, b: BindingId, probe: DoctypeProbe) => {
    const o = op(name);
    const serviceUrl = requestAt(url, o, b, validParams(o), NS).url;
    return sendRequest(binding(b).doctypeRequest!(o, validParams(o), serviceUrl, NS[o.ns], probe, 'userName'));
  };

  test(
    'the correct mock refuses a DOCTYPE on SOAP as the real service does: HTTP 500, a client fault, "DTD '
      + 'is prohibited"; nothing fetched',
    async () => {
      const listener = await CallbackListener.start();
      try {
        for (const b of ['soap11', 'soap12'] as const) {
          for (const probe of [
            { entity: 'internal', value: DEFAULT_USER },
            { entity: 'external', url: `${listener.url}/conformance-probe/x/GetMeals/${b}` },
          ] as const) {
            const r = await doctypeCall(clean, 'GetMeals', b, probe);
            expect(r.status, `${b} ${probe.entity}`).toBe(500);
            expect(faultReason(r.body)).toMatch(/For security reasons DTD is prohibited in this XML document/);
          }
        }
        expect(listener.hits).toEqual([]);
      } finally {
        await listener.close();
      }
    },
  );

  test(
    'doctype-internal-entity-expanded: SOAP 1.1 of GetRoomTypes expands the entity and answers with data; '
      + 'elsewhere, and without a DOCTYPE, as the correct mock',
    async () => {
      const url = await withFaults('doctype-internal-entity-expanded');
      const internal = { entity: 'internal', value: DEFAULT_USER } as const;
      const r = await doctypeCall(url, 'GetRoomTypes', 'soap11', internal);
      expect(r.status).toBe(200);
      expect(resultElement(op('GetRoomTypes'), 'soap11', r.body).children.length).toBeGreaterThan(0);
      expect((await doctypeCall(url, 'GetRoomTypes', 'soap12', internal)).status).toBe(500);
      expect((await doctypeCall(url, 'GetMeals', 'soap11', internal)).status).toBe(500);
      // An external entity is not fetched: it stands empty, so the login fails.
      const ext = await doctypeCall(url, 'GetRoomTypes', 'soap11', { entity: 'external', url: 'http://127.0.0.1:9/x' });
      expect(ext.body).not.toMatch(/roomType/);
      expect((await send(url, 'GetRoomTypes', 'soap11')).body).toBe((await send(clean, 'GetRoomTypes', 'soap11')).body);
    },
  );

  test(
    'doctype-external-entity-fetched: SOAP 1.2 of GetThemes fetches the entity from 127.0.0.1 (a real '
      + 'GET) and answers with data; never another host',
    async () => {
      const url = await withFaults('doctype-external-entity-fetched');
      const listener = await CallbackListener.start('127.0.0.1', 0, DEFAULT_USER);
      try {
        const path = '/conformance-probe/0123456789abcdef/GetThemes/soap12';
        const r = await doctypeCall(url, 'GetThemes', 'soap12', { entity: 'external', url: `${listener.url}${path}` });
        expect(r.status).toBe(200);
        expect(resultElement(op('GetThemes'), 'soap12', r.body).children.length).toBeGreaterThan(0);
        for (let i = 0; i < 100 && listener.hitsOf(path).length === 0; i++)
          await new Promise((res) => setTimeout(res, 20));
        expect(listener.hitsOf(path)).toHaveLength(1);
        // Not at another host (the .invalid one a run without a listener names), and not on SOAP 1.1.
        const remote = await doctypeCall(url, 'GetThemes', 'soap12', {
          entity: 'external',
          url: 'http://conformance-callback.invalid/p',
        });
        expect(remote.body).not.toMatch(/theme/i);
        expect(
          (await doctypeCall(url, 'GetThemes', 'soap11', { entity: 'external', url: `${listener.url}/other` })).status,
        ).toBe(500);
        await new Promise((res) => setTimeout(res, 100));
        expect(listener.hits.map((h) => h.path)).toEqual([path]);
      } finally {
        await listener.close();
      }
    },
  );

  test('several faults at once each keep to their place', async () => {
    const url = await withFaults('charset-missing', 'status-202-on-valid-call');
    expect((await send(url, 'GetHotelNoteTypes', 'get')).headers['content-type']).toBe('text/xml');
    expect((await send(url, 'GetLanguages', 'get')).status).toBe(202);
    expect(faultNamed('charset-missing')!.operation).toBe('GetHotelNoteTypes');
  });
});
