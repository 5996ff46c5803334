import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent, Dispatcher, ProxyAgent, request } from './undici.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'text/plain', 'x-seen': `${req.method} ${req.url}` });
      res.end(`body:${Buffer.concat(chunks).toString()}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** What an answer says: status, the server's view of the request, the body. */
async function seen(res: undici.Dispatcher.ResponseData) {
  return { status: res.statusCode, seen: res.headers['x-seen'], body: await res.body.text() };
}

describe("undici's parts, loaded without its index", () => {
  test('are its own classes', () => {
    expect(Agent).toBe(undici.Agent);
    expect(ProxyAgent).toBe(undici.ProxyAgent);
    expect(Dispatcher).toBe(undici.Dispatcher);
    // The index's step: every dispatcher has the api methods (a ProxyAgent's tunnel calls connect).
    expect(typeof (Dispatcher.prototype as unknown as Record<string, unknown>).connect).toBe('function');
  });

  test("request answers as the index's does: the URL's path and query, the method, the body", async () => {
    const dispatcher = new Agent();
    try {
      for (const [target, opts] of [
        [`${url}/a/b?x=1&y=2`, { method: 'POST', body: '<x/>' }],
        [`${url}/wsdl?wsdl`, {}],
        [new URL(`${url}/u`), { body: 'b' }],
        [url, { path: 'p?q' }],
      ] as const) {
        const ours = await seen(await request(target, { ...opts, dispatcher }));
        const theirs = await seen(await undici.request(target, { ...opts, dispatcher }));
        expect(ours).toEqual(theirs);
        expect(ours.status).toBe(201);
      }
      expect(() => request('', {})).toThrow(undici.errors.InvalidArgumentError);
      expect(() => request(url, { agent: {} } as never)).toThrow(/unsupported opts.agent/);
    } finally {
      await dispatcher.close();
    }
  });
});
