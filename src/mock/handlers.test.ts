/** The handlers in-process, as a consumer's own tests would use them with msw's setupServer. */
import { setupServer } from 'msw/node';
import { requestAt } from '../bindings/endpoint.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, OPERATIONS } from '../contract/catalogue.js';
import { createHandlers } from './handlers.js';
import { canon, resultElement, validParams } from '../../test/support/mock.js';

const BASE = 'http://mock.accommodation.example';
const server = setupServer(
  ...createHandlers({ baseUrl: BASE, style: (id) => (id === 'get' ? { prefix: 'g', pretty: true } : {}) }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

async function fetchEncoded(opName: string, id: (typeof BINDINGS)[number]) {
  const op = findOperation(opName)!;
  const r = requestAt(BASE, op, id, validParams(op), DEFAULT_NAMESPACES);
  const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
  return { op, res, text: await res.text() };
}

describe('in-process with setupServer', () => {
  test.for(OPERATIONS.flatMap((o) => BINDINGS.map((id) => [o.name, id] as const)))('%s over %s', async ([name, id]) => {
    const { op, res, text } = await fetchEncoded(name, id);
    expect(res.status, text).toBe(200);
    expect(resultElement(op, id, text).local).toBe(op.resultElement);
  });

  test('a result style applies to its binding only (prefixed and pretty-printed GET)', async () => {
    const get = await fetchEncoded('GetLanguages', 'get');
    expect(get.text).toMatch(/^<\?xml[^>]*\?><g:getLanguagesResult xmlns:g="/);
    expect(get.text).toContain('\n  <g:languages>');
    const post = await fetchEncoded('GetLanguages', 'post');
    expect(post.text).toMatch(/^<\?xml[^>]*\?><getLanguagesResult xmlns="/);
    // Another serialisation of the same infoset.
    expect(canon(resultElement(get.op, 'get', get.text))).toEqual(canon(resultElement(post.op, 'post', post.text)));
  });

  test('unknown paths on the mock origin are 404; the WSDL carries the origin', async () => {
    const res = await fetch(`${BASE}/elsewhere`);
    expect(res.status).toBe(404);
    const wsdl = await fetch(`${BASE}/1/SOAP/NonStaticXMLAPI.asmx?wsdl`);
    expect(wsdl.status).toBe(200);
    expect(await wsdl.text()).toContain(`${BASE}/1/SOAP/NonStaticXMLAPI.asmx`);
  });

  test('a body over the limit is refused while reading', async () => {
    const res = await fetch(`${BASE}/1/SOAP/Booking.asmx`, {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml' },
      body: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(res.status).toBe(413);
  });
});
