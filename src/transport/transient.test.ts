import { describe, expect, test } from 'vitest';
import { MockAgent } from 'undici';
import { Transport } from './client.js';
import { backoffMs, isHtmlPage, retryAfterMs, retryDelay, transientOf } from './transient.js';

const answer = (
  status: number,
  body: string,
  contentType?: string,
): { response: { status: number; headers: Record<string, string>; body: Buffer; elapsedMs: number } } => ({
  response: {
    status,
    headers: contentType ? { 'content-type': contentType } : {},
    body: Buffer.from(body),
    elapsedMs: 1,
  },
});

const SOAP_FAULT =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope '
  + 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>'
  + '<faultcode>soap:Server</faultcode><faultstring>Server was unable to process '
  + 'request.</faultstring></soap:Fault></soap:Body></soap:Envelope>';
const GATEWAY_503 =
  '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service '
  + 'Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>';
const IIS_500 =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"><html><head><title>500 - Internal server '
  + 'error.</title></head><body></body></html>';

describe("transientOf: gateway answers and lost connections, never the service's own answer", () => {
  test('502, 503 and 504 pages of a gateway are transient', () => {
    expect(transientOf(answer(503, GATEWAY_503, 'text/html'))).toBe('gateway_503');
    expect(transientOf(answer(502, GATEWAY_503, 'text/html; charset=utf-8'))).toBe('gateway_502');
    expect(transientOf(answer(504, 'upstream request timeout', 'text/plain'))).toBe('gateway_504');
    // No content type, but an HTML page.
    expect(transientOf(answer(503, `<!DOCTYPE html>${GATEWAY_503}`))).toBe('gateway_503');
  });

  test('any other 5xx is transient only when it is an HTML page', () => {
    expect(transientOf(answer(500, IIS_500, 'text/html'))).toBe('gateway_page');
    expect(transientOf(answer(500, IIS_500))).toBe('gateway_page');
    // Not Implemented (python3 -m http.server answering a POST) is a permanent answer, HTML or not.
    expect(
      transientOf(
        answer(501, '<!DOCTYPE HTML><html><body><h1>Error response</h1></body></html>', 'text/html;charset=utf-8'),
      ),
    ).toBeUndefined();
    expect(transientOf(answer(505, IIS_500, 'text/html'))).toBeUndefined();
  });

  test("the service's own 500 SOAP fault, XML or text is not transient", () => {
    expect(transientOf(answer(500, SOAP_FAULT, 'text/xml; charset=utf-8'))).toBeUndefined();
    expect(transientOf(answer(500, SOAP_FAULT, 'application/soap+xml; charset=utf-8'))).toBeUndefined();
    expect(
      transientOf(answer(500, 'System.ArgumentException: Missing parameter: bookingId.', 'text/plain; charset=utf-8')),
    ).toBeUndefined();
    // A 503 whose body is a SOAP fault is the service's own answer.
    expect(transientOf(answer(503, SOAP_FAULT, 'text/xml'))).toBeUndefined();
  });

  test('answers below 500 are never transient, an HTML 404 neither', () => {
    expect(transientOf(answer(200, '<a/>', 'text/xml'))).toBeUndefined();
    expect(transientOf(answer(404, GATEWAY_503, 'text/html'))).toBeUndefined();
    expect(transientOf(answer(429, 'slow down', 'text/plain'))).toBeUndefined();
  });

  test('a reset or a timeout is transient; a refused connection, a TLS error or the size cap is not', () => {
    expect(transientOf({ error: { code: 'connection_reset', message: '' } })).toBe('connection_reset');
    expect(transientOf({ error: { code: 'timeout', message: '' } })).toBe('timeout');
    for (const code of [
      'connection_refused',
      'tls_error',
      'response_too_large',
      'unknown_host',
      'not_sent',
      'deadline_exceeded',
    ]) {
      expect(transientOf({ error: { code, message: '' } })).toBeUndefined();
    }
  });

  test('isHtmlPage reads the content type or the body', () => {
    expect(isHtmlPage('text/html', Buffer.from('x'))).toBe(true);
    expect(isHtmlPage(undefined, Buffer.from('\uFEFF  <HTML><body/></HTML>'))).toBe(true);
    expect(isHtmlPage('text/xml', Buffer.from(SOAP_FAULT))).toBe(false);
  });
});

describe('Retry-After and backoff', () => {
  const now = Date.parse('2026-11-27T05:00:00Z');
  test('seconds and HTTP dates, capped; garbage ignored', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(10_000);
    expect(retryAfterMs('3600', now, 5000)).toBe(5000);
    expect(retryAfterMs('Fri, 27 Nov 2026 05:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Fri, 27 Nov 2026 04:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('-1', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });

  test('backoff is exponential with jitter: between a tenth and all of base × 2^attempt', () => {
    expect(backoffMs(0, () => 0)).toBe(10);
    expect(backoffMs(0, () => 1)).toBe(100);
    expect(backoffMs(3, () => 1)).toBe(800);
    expect(backoffMs(3, () => 0)).toBe(80);
  });

  test('a wait that would end past the deadline means no retry', () => {
    expect(retryDelay(answer(503, GATEWAY_503), 0, now + 50, now, () => 1)).toBeUndefined();
    expect(retryDelay(answer(503, GATEWAY_503), 0, now + 500, now, () => 1)).toBe(100);
    const asked = { response: { ...answer(503, GATEWAY_503).response, headers: { 'retry-after': '2' } } };
    expect(retryDelay(asked, 0, undefined, now)).toBe(2000);
    expect(retryDelay(asked, 0, now + 1000, now)).toBeUndefined();
  });
});

describe('the transport retries reads on transient answers (undici MockAgent)', () => {
  const URL_ = 'http://svc.test';
  function agent(): MockAgent {
    const a = new MockAgent();
    a.disableNetConnect();
    return a;
  }

  test('a 503 page, then a reset, then the answer: one exchange, two transient answers retried', async () => {
    const a = agent();
    const pool = a.get(URL_);
    pool
      .intercept({ path: '/r', method: 'GET' })
      .reply(503, GATEWAY_503, { headers: { 'content-type': 'text/html', 'retry-after': '0' } });
    pool
      .intercept({ path: '/r', method: 'GET' })
      .replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    pool.intercept({ path: '/r', method: 'GET' }).reply(200, '<ok/>', { headers: { 'content-type': 'text/xml' } });
    const t = new Transport({ dispatcher: a, giveUpAfter: 0 });
    const ex = await t.send({ method: 'GET', url: `${URL_}/r`, headers: {} }, 3);
    expect(ex.response?.status).toBe(200);
    expect(ex.retried?.map((r) => r.kind)).toEqual(['gateway_503', 'connection_reset']);
    expect(ex.retried?.[0]).toMatchObject({ status: 503, waitedMs: 0 });
    a.assertNoPendingInterceptors();
  });

  test("the service's own 500 SOAP fault is not retried", async () => {
    const a = agent();
    a.get(URL_)
      .intercept({ path: '/f', method: 'POST' })
      .reply(500, SOAP_FAULT, { headers: { 'content-type': 'text/xml; charset=utf-8' } });
    const t = new Transport({ dispatcher: a });
    const ex = await t.send({ method: 'POST', url: `${URL_}/f`, headers: {}, body: '<x/>' }, 3);
    expect(ex.response?.status).toBe(500);
    expect(ex.retried).toBeUndefined();
  });

  test('a write (no retries) gets its transient answer back, sent once', async () => {
    const a = agent();
    a.get(URL_)
      .intercept({ path: '/w', method: 'POST' })
      .reply(502, GATEWAY_503, { headers: { 'content-type': 'text/html' } });
    const t = new Transport({ dispatcher: a });
    const ex = await t.send({ method: 'POST', url: `${URL_}/w`, headers: {}, body: '<x/>' }, 0);
    expect(ex.response?.status).toBe(502);
    expect(transientOf(ex)).toBe('gateway_502');
    expect(ex.retried).toBeUndefined();
  });

  test('retries stop at the deadline: a Retry-After past it is not waited for', async () => {
    const a = agent();
    const pool = a.get(URL_);
    pool
      .intercept({ path: '/d', method: 'GET' })
      .reply(503, GATEWAY_503, { headers: { 'content-type': 'text/html', 'retry-after': '5' } });
    pool.intercept({ path: '/d', method: 'GET' }).reply(200, '<ok/>');
    const t = new Transport({ dispatcher: a, deadline: Date.now() + 2000 });
    const t0 = Date.now();
    const ex = await t.send({ method: 'GET', url: `${URL_}/d`, headers: {} }, 3);
    expect(ex.response?.status).toBe(503);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  test('backoff waits stay within the retries asked: three 503s and no more', async () => {
    const a = agent();
    const pool = a.get(URL_);
    for (let i = 0; i < 3; i++)
      pool
        .intercept({ path: '/b', method: 'GET' })
        .reply(503, GATEWAY_503, { headers: { 'content-type': 'text/html' } });
    pool.intercept({ path: '/b', method: 'GET' }).reply(200, '<ok/>');
    const t = new Transport({ dispatcher: a });
    const ex = await t.send({ method: 'GET', url: `${URL_}/b`, headers: {} }, 2);
    expect(ex.response?.status).toBe(503);
    expect(ex.retried).toHaveLength(2);
    for (const [i, r] of ex.retried!.entries()) expect(r.waitedMs).toBeLessThanOrEqual(100 * 2 ** i);
  });
});
