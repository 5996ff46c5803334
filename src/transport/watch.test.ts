/**
 * The target's watch (./watch.ts): what stops a run at once, and what must not. The network matrix
 * (suites/e2e/network-failures.test.ts) proves it end to end against real servers; here each reading.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../core/types.js';
import { Transport } from './client.js';
import { TargetWatch } from './watch.js';

const URL_ = 'http://svc.example:8080/Search.asmx';
const HTTPS = 'https://svc.example:8443/Search.asmx';
const answer = (status: number, body: string, type = 'text/xml; charset=utf-8'): Pick<Exchange, 'response'> => ({
  response: { status, headers: { 'content-type': type }, body: Buffer.from(body), elapsedMs: 1 },
});
const error = (code: string, message: string): Pick<Exchange, 'error'> => ({ error: { code, message } });
const SOAP =
  '<?xml version="1.0"?><soap:Envelope '
  + 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>';
const PAGE500 = answer(500, '<html><head><title>500 Internal Server Error</title></head></html>', 'text/html');
const PAGE401 = answer(401, '<!DOCTYPE html><html><head><title>API key required</title></head></html>', 'text/html');

/** Feed attempts in order; the first judgement, with the attempt's number (1-based). */
function feed(watch: TargetWatch, attempts: readonly [string, Pick<Exchange, 'response' | 'error'>, boolean?][]) {
  for (const [i, [url, ex, after]] of attempts.entries()) {
    const j = watch.attempt(url, ex, after ?? false);
    if (j) return { at: i + 1, ...j };
  }
  return undefined;
}

describe('an outage: giveUpAfter transient answers in a row before any answer of the target', () => {
  test('five 500 pages: down at the fifth, naming what came', () => {
    const j = feed(
      new TargetWatch(undefined, 5),
      Array.from({ length: 9 }, () => [URL_, PAGE500] as [string, typeof PAGE500]),
    );
    expect(j).toMatchObject({
      at: 5,
      kind: 'outage',
      code: 'target_down',
      inRow: 5,
      detail: 'HTTP 500 HTML page',
      origin: 'http://svc.example:8080',
    });
  });

  test('resets half-way through the answer are transient too', () => {
    const reset = error('connection_reset', 'connection closed before the response was complete: other side closed');
    expect(
      feed(new TargetWatch(undefined, 3), [
        [URL_, reset, true],
        [URL_, reset, true],
        [URL_, reset, true],
      ]),
    ).toMatchObject({ at: 3, detail: 'connection reset half-way through the answer' });
  });

  test('a burst shorter than giveUpAfter at the start, then answers: never judged, and later noise neither', () => {
    const w = new TargetWatch(undefined, 5);
    const burst = Array.from({ length: 4 }, () => [URL_, PAGE500] as [string, typeof PAGE500]);
    // Then noise: four gateway pages in a row at most, between answers.
    const later = Array.from(
      { length: 60 },
      (_, i) => [URL_, i % 5 === 4 ? answer(200, SOAP) : PAGE500] as [string, Pick<Exchange, 'response'>],
    );
    expect(feed(w, [...burst, [URL_, answer(200, SOAP)], ...later])).toBeUndefined();
    expect(w.onProbation).toBe(false);
  });

  test(
    'a target gone down during the run: MID_RUN_FACTOR × giveUpAfter transient answers in a row after its ' + 'answers',
    () => {
      const pages = (n: number) => Array.from({ length: n }, () => [URL_, PAGE500] as [string, typeof PAGE500]);
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, answer(200, SOAP)],
          ...pages(19),
          [URL_, answer(200, SOAP)],
          ...pages(19),
        ]),
      ).toBeUndefined();
      expect(feed(new TargetWatch(undefined, 5), [[URL_, answer(200, SOAP)], ...pages(25)])).toMatchObject({
        at: 21,
        code: 'target_down',
        inRow: 20,
        midRun: true,
      });
    },
  );

  test('3% noise (a seeded sequence) is never an outage', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const attempts = Array.from(
      { length: 2000 },
      () => [URL_, random() < 0.03 ? PAGE500 : answer(200, SOAP)] as [string, Pick<Exchange, 'response'>],
    );
    expect(feed(new TargetWatch(undefined, 5), attempts)).toBeUndefined();
  });

  test("time-outs are --give-up-after's (the transport gives up on a silent host), not the watch's", () => {
    const timeout = error('timeout', 'no complete response within 400 ms');
    expect(
      feed(new TargetWatch(undefined, 2), [
        [URL_, timeout],
        [URL_, timeout],
        [URL_, timeout],
      ]),
    ).toBeUndefined();
  });

  test('--give-up-after 0: never judged early', () => {
    expect(
      feed(
        new TargetWatch(undefined, 0),
        Array.from({ length: 30 }, () => [URL_, PAGE500] as [string, typeof PAGE500]),
      ),
    ).toBeUndefined();
  });

  test('a WSDL served does not end probation: a service down behind a web server is still judged', () => {
    const w = new TargetWatch(undefined, 3);
    expect(
      feed(w, [
        [`${URL_}?WSDL`, answer(200, '<definitions/>')],
        [URL_, PAGE500],
        [URL_, PAGE500],
        [URL_, PAGE500],
      ]),
    ).toMatchObject({ at: 4, code: 'target_down' });
  });

  test("a SOAP fault with HTTP 500 is the service's own answer, not transient", () => {
    const fault = answer(500, SOAP);
    expect(
      feed(new TargetWatch(undefined, 2), [
        [URL_, fault],
        [URL_, PAGE500],
        [URL_, PAGE500],
      ]),
    ).toBeUndefined();
  });
});

describe('refusals of the whole target', () => {
  test('a proxy 407 stops at the first, naming the proxy it went through', () => {
    const net = { httpsProxy: { url: 'http://alice:pw@proxy:3128', variable: 'HTTPS_PROXY' } };
    const j = feed(new TargetWatch(net, 5), [
      [HTTPS, error('transport_error', 'the proxy demands credentials (HTTP 407 Proxy Authentication Required): ...')],
    ]);
    expect(j).toMatchObject({ at: 1, kind: 'refused', code: 'proxy_refused', proxy: net.httpsProxy });
    // A forward proxy answers an http:// request's 407 itself.
    expect(feed(new TargetWatch(undefined, 5), [[URL_, answer(407, '')]])).toMatchObject({
      at: 1,
      code: 'proxy_refused',
      status: 407,
    });
  });

  test(
    'an untrusted certificate, a refused handshake, a name that does not resolve: at the first, even '
      + 'after answers',
    () => {
      const untrusted = error(
        'tls_error',
        "TLS failure: the target's certificate is not signed by a CA you trust "
          + '(SELF_SIGNED_CERT_IN_CHAIN): pass --ca-file PEM',
      );
      expect(
        feed(new TargetWatch(undefined, 5), [
          [HTTPS, answer(200, SOAP)],
          [HTTPS, untrusted],
        ]),
      ).toMatchObject({ at: 2, code: 'tls_untrusted' });
      expect(
        feed(new TargetWatch(undefined, 5), [[HTTPS, error('tls_error', 'TLS failure: alert handshake failure')]]),
      ).toMatchObject({ at: 1, code: 'tls_refused' });
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, error('unknown_host', 'unknown host: getaddrinfo ENOTFOUND svc.example')],
        ]),
      ).toMatchObject({ at: 1, code: 'unknown_host' });
      // A temporary failure of the resolver could be chance: two.
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, error('unknown_host', 'unknown host: getaddrinfo EAI_AGAIN svc.example')],
          [URL_, error('unknown_host', 'unknown host: getaddrinfo EAI_AGAIN svc.example')],
        ]),
      ).toMatchObject({ at: 2 });
    },
  );

  test(
    'an https connection closed after the handshake with no answer: twice before any answer; after '
      + 'answers, a transient close',
    () => {
      const closed = error('connection_reset', 'connection closed before the response was complete: other side closed');
      expect(
        feed(new TargetWatch(undefined, 5), [
          [HTTPS, closed],
          [HTTPS, closed],
        ]),
      ).toMatchObject({ at: 2, code: 'tls_closed' });
      expect(
        feed(new TargetWatch(undefined, 5), [
          [HTTPS, answer(200, SOAP)],
          [HTTPS, closed],
          [HTTPS, closed],
          [HTTPS, closed],
        ]),
      ).toBeUndefined();
    },
  );

  test(
    'closed before the handshake was done, direct because NO_PROXY names the host: closed_before_tls, '
      + 'bypassed (no client certificate blamed)',
    () => {
      const net = { httpsProxy: { url: 'http://proxy:3128' }, noProxy: 'svc.example' };
      const reset = error('connection_reset', 'connection closed before the response was complete: read ECONNRESET');
      expect(
        feed(new TargetWatch(net, 5), [
          [HTTPS, reset],
          [HTTPS, reset],
        ]),
      ).toMatchObject({ at: 2, code: 'closed_before_tls', bypassed: true });
    },
  );

  test(
    'the same 401 page three times before any answer: a gateway; a SOAP 401, different pages, or after '
      + 'answers: not',
    () => {
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, PAGE401],
          [URL_, PAGE401],
          [URL_, PAGE401],
        ]),
      ).toMatchObject({
        at: 3,
        code: 'gateway_refusal',
        status: 401,
        page: 'API key required',
        contentType: 'text/html',
      });
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, answer(401, SOAP)],
          [URL_, answer(401, SOAP)],
          [URL_, answer(401, SOAP)],
          [URL_, answer(401, SOAP)],
        ]),
      ).toBeUndefined();
      const other = answer(403, '<html><title>Forbidden: booking 12</title></html>', 'text/html');
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, PAGE401],
          [URL_, other],
          [URL_, PAGE401],
          [URL_, other],
        ]),
      ).toBeUndefined();
      expect(
        feed(new TargetWatch(undefined, 5), [
          [URL_, answer(200, SOAP)],
          [URL_, PAGE401],
          [URL_, PAGE401],
          [URL_, PAGE401],
        ]),
      ).toBeUndefined();
    },
  );
});

describe('the transport with judgeTarget', () => {
  test(
    'a target answering every request with a 500 page: stopped after giveUpAfter attempts, two in flight '
      + 'at most meanwhile; the rest not sent',
    async () => {
      let received = 0;
      let inFlight = 0;
      let most = 0;
      const server = createServer((req, res) => {
        received++;
        most = Math.max(most, ++inFlight);
        req.resume();
        setTimeout(() => {
          inFlight--;
          res.writeHead(500, { 'content-type': 'text/html' }).end('<html><title>down</title></html>');
        }, 20);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc`;
      try {
        const t = new Transport({ judgeTarget: true, giveUpAfter: 5, concurrency: 8 });
        const all = await Promise.all(Array.from({ length: 30 }, () => t.send({ method: 'GET', url, headers: {} }, 3)));
        await t.close();
        expect(t.judgement).toMatchObject({ kind: 'outage', code: 'target_down', inRow: 5 });
        expect(received).toBeLessThanOrEqual(6);
        expect(most).toBeLessThanOrEqual(2);
        expect(all.filter((x) => x.error?.code === 'not_sent').length).toBeGreaterThan(20);
        // Without it (the default), every request and its retries go.
        received = 0;
        const plain = new Transport({ giveUpAfter: 5, concurrency: 8 });
        await Promise.all(Array.from({ length: 10 }, () => plain.send({ method: 'GET', url, headers: {} }, 1)));
        await plain.close();
        expect(plain.judgement).toBeUndefined();
        expect(received).toBe(20);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  );

  test('once the target has answered, the full concurrency is used', async () => {
    let inFlight = 0;
    let most = 0;
    const server = createServer((req, res) => {
      most = Math.max(most, ++inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'text/xml' }).end('<ok/>');
      }, 30);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc`;
    try {
      const t = new Transport({ judgeTarget: true, concurrency: 6 });
      await Promise.all(Array.from({ length: 30 }, () => t.send({ method: 'GET', url, headers: {} })));
      await t.close();
      expect(t.judgement).toBeUndefined();
      expect(most).toBe(6);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test(
    'a target on two hosts: one refusing is given up on alone, one down is left to --max-transient; both '
      + 'judged stop the transport',
    async () => {
      const counts = { refusing: 0, down: 0, fine: 0 };
      const serve = (name: keyof typeof counts, status: number, type: string, body: string) =>
        new Promise<string>((resolve) => {
          const server = createServer((req, res) => {
            counts[name]++;
            req.resume();
            res.writeHead(status, { 'content-type': type }).end(body);
          });
          servers.push(server);
          server.listen(0, '127.0.0.1', () =>
            resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/svc`),
          );
        });
      const servers: import('node:http').Server[] = [];
      try {
        const refusing = await serve('refusing', 407, 'text/html', '<html><title>proxy</title></html>');
        const down = await serve('down', 500, 'text/html', '<html><title>down</title></html>');
        const fine = await serve('fine', 200, 'text/xml', '<ok/>');
        const t = new Transport({ judgeTarget: [refusing, fine], giveUpAfter: 3, concurrency: 4 });
        const sendAll = (url: string, n: number) =>
          Promise.all(Array.from({ length: n }, () => t.send({ method: 'GET', url, headers: {} })));
        const [toRefusing] = await Promise.all([sendAll(refusing, 10), sendAll(fine, 10)]);
        expect(t.judgement).toBeUndefined();
        expect(t.judgements.map((j) => j.code)).toEqual(['proxy_refused']);
        expect(counts.refusing).toBeLessThanOrEqual(2);
        expect(toRefusing.filter((x) => x.error?.code === 'not_sent').length).toBeGreaterThanOrEqual(8);
        expect(counts.fine).toBe(10);
        await t.close();

        const two = new Transport({ judgeTarget: [down, fine], giveUpAfter: 3, concurrency: 4 });
        await Promise.all(Array.from({ length: 8 }, () => two.send({ method: 'GET', url: down, headers: {} })));
        // Down, but the other host is not judged: nothing given up, every request sent.
        expect(counts.down).toBe(8);
        expect(two.judgement).toBeUndefined();
        await two.close();

        const both = new Transport({ judgeTarget: [refusing, down], giveUpAfter: 3, concurrency: 4 });
        await both.send({ method: 'GET', url: refusing, headers: {} });
        for (let i = 0; i < 3; i++) await both.send({ method: 'GET', url: down, headers: {} });
        expect(both.judgement).toMatchObject({ code: 'target_down' });
        expect((await both.send({ method: 'GET', url: down, headers: {} })).error?.code).toBe('not_sent');
        await both.close();
      } finally {
        await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      }
    },
  );
});

describe('pending: what fewer refusals than a rule asks point to (drift sends a WSDL request per service only)', () => {
  test('one gateway page and one 500 page: no judgement, the latest pending; an answer of the target clears it', () => {
    const w = new TargetWatch(undefined, 5);
    expect(w.attempt(URL_, PAGE401, false)).toBeUndefined();
    expect(w.pending).toMatchObject({ kind: 'refused', code: 'gateway_refusal', inRow: 1, status: 401 });
    expect(w.attempt(URL_, PAGE500, false)).toBeUndefined();
    expect(w.pending).toMatchObject({ kind: 'outage', code: 'target_down', inRow: 1, detail: 'HTTP 500 HTML page' });
    w.attempt(URL_, answer(200, SOAP), false);
    expect(w.pending).toBeUndefined();
  });

  test('nothing refused: nothing pending', () => {
    const w = new TargetWatch(undefined, 5);
    w.attempt(URL_, answer(200, SOAP), false);
    expect(w.pending).toBeUndefined();
  });
});
