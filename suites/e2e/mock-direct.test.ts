/**
 * The node:http adapter's direct path (the plain core, no Fetch objects) against the msw path
 * (Request → getResponse → Response): byte-identical responses, Date aside, for a run's request
 * mix, every fault, the variation, replay and custom-namespace modes, and requests Fetch would
 * change or refuse.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { requestAt } from '../../src/bindings/endpoint.js';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../../src/checks/registry.js';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  findOperation,
  OPERATIONS,
  DEFAULT_PATHS,
  type BindingId,
  type Namespaces,
} from '../../src/contract/catalogue.js';
import type { HttpRequest, Target } from '../../src/core/types.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import { planUnits } from '../../src/engine/plan.js';
import { createMockCore, DEFAULT_PASSWORD, DEFAULT_USER, MAX_BODY_BYTES } from '../../src/mock/core.js';
import { FAULTS } from '../../src/mock/faults.js';
import type { Fault, MockResponse } from '../../src/mock/fault-types.js';
import { RECORDING_FORMAT, RECORDING_INDEX } from '../../src/mock/replay.js';
import { AnswerMemo } from '../../src/mock/answer-memo.js';
import { startMock, type MockOptions, type RunningMock } from '../../src/mock/server.js';
import { plainToWire, responseToWire } from '../../src/mock/wire.js';
import { toResponse } from '../../src/mock/fetch-response.js';
import { validParams } from '../../test/support/mock.js';

/** One raw request: method, request target, headers as sent (Host included unless given), body. */
interface Raw {
  readonly method: string;
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string | Buffer;
}

/** Send a request on a fresh connection (Connection: close) and return the whole answer, Date line removed. */
function exchange(port: number, r: Raw): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, 'utf8');
    const lines = [`${r.method} ${r.target} HTTP/1.1`];
    // One Host for both mocks: the WSDL names the origin it was fetched from.
    if (!r.headers.some(([k]) => k.toLowerCase() === 'host')) lines.push('Host: mock.test');
    for (const [k, v] of r.headers) lines.push(`${k}: ${v}`);
    if (
      body !== undefined
      && !r.headers.some(([k]) => ['content-length', 'transfer-encoding'].includes(k.toLowerCase()))
    )
      lines.push(`Content-Length: ${body.length}`);
    lines.push('Connection: close', '', '');
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, ''),
      ),
    );
    socket.write(Buffer.from(lines.join('\r\n'), 'latin1'));
    if (body !== undefined) socket.write(body);
  });
}

function rawOf(r: HttpRequest): Raw {
  const u = new URL(r.url);
  return { method: r.method, target: u.pathname + u.search, headers: Object.entries(r.headers), body: r.body };
}

function target(namespaces: Namespaces = DEFAULT_NAMESPACES, user = DEFAULT_USER, password = DEFAULT_PASSWORD): Target {
  return {
    bookUrl: 'http://mock',
    searchUrl: 'http://mock',
    transfersUrl: 'http://mock',
    paths: DEFAULT_PATHS,
    namespaces,
    user,
    password,
    embedded: true,
  };
}

/** Every request a `conformance run` against the mock sends (valid cases, negatives, probes). */
function requestMix(t: Target = target()): Raw[] {
  const plan = {
    target: t,
    bindings: BINDINGS,
    operations: OPERATIONS,
    cases: loadFixtureCases(),
    allowMutations: false,
    checks: CHECKS,
    negative: true,
    equivalence: true,
  };
  const out: Raw[] = [];
  for (const unit of planUnits(plan)) {
    const ns = t.namespaces[unit.op.ns];
    for (const b of BINDINGS.filter((x: BindingId) => !unit.only || unit.only.includes(x))) {
      const req = requestAt('http://mock', unit.op, b, unit.params, { book: ns, search: ns });
      out.push(rawOf(unit.headers ? { ...req, headers: unit.headers } : req));
    }
  }
  return out;
}

/** A direct and an msw mock with the same options. */
async function pair(
  options: MockOptions = {},
): Promise<{ direct: RunningMock; msw: RunningMock; close(): Promise<void> }> {
  const direct = await startMock({ ...options, port: 0, via: 'direct' });
  const msw = await startMock({ ...options, port: 0, via: 'msw' });
  return {
    direct,
    msw,
    close: async () => {
      await direct.close();
      await msw.close();
    },
  };
}

/**
 * Send each request to both (a few at a time; one at a time for a stateful pair, whose answers
 * depend on the order) and expect the same bytes; returns the direct answers.
 */
async function expectSame(
  p: { direct: RunningMock; msw: RunningMock },
  reqs: readonly Raw[],
  label = '',
  workers = 8,
): Promise<string[]> {
  const out: string[] = new Array(reqs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < reqs.length; i = next++) {
      const r = reqs[i]!;
      const [a, b] = await Promise.all([exchange(p.direct.port, r), exchange(p.msw.port, r)]);
      expect(a, `${label} ${r.method} ${r.target} ${JSON.stringify(r.headers)}`).toBe(b);
      out[i] = a;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return out;
}

/** A body in two chunks and the last one. */
function chunked(text: string): Buffer {
  const b = Buffer.from(text);
  const half = b.subarray(0, 10);
  const rest = b.subarray(10);
  return Buffer.concat([
    Buffer.from(`${half.length.toString(16)}\r\n`),
    half,
    Buffer.from(`\r\n${rest.length.toString(16)}\r\n`),
    rest,
    Buffer.from('\r\n0\r\n\r\n'),
  ]);
}

const statusOf = (answer: string) => Number(answer.slice(9, 12));

describe('direct path = msw path, byte for byte', () => {
  // Stateless: the requests go a few at a time, and the mix is sent twice (a stateful mock answers
  // the second cancellation of a booking otherwise; that is the next test's).
  let p: Awaited<ReturnType<typeof pair>>;
  beforeAll(async () => {
    p = await pair({ stateless: true });
  });
  afterAll(() => p.close());

  test("a run's request mix, twice (the second time from the direct path's memo)", async () => {
    const mix = requestMix();
    const answers = await expectSame(p, [...mix, ...mix]);
    expect(answers.slice(mix.length)).toEqual(answers.slice(0, mix.length));
    // The mix is not vacuous: results, rejections and bad requests.
    const statuses = new Set(answers.map(statusOf));
    expect(statuses).toContain(200);
    expect(statuses).toContain(500);
    expect(statuses).toContain(404);
  });

  test(
    'with state: the mix twice, one request at a time; an answer that read or changed the state is never '
      + 'served from the memo',
    async () => {
      const q = await pair();
      try {
        const mix = requestMix().filter((r) =>
          /Cancel|Amendment|SpecialRequest/.test(`${r.target} ${String(r.body ?? '')}`),
        );
        expect(mix.length).toBeGreaterThan(20);
        const answers = await expectSame(q, [...mix, ...mix], 'stateful', 1);
        // The second round sees the first round's cancellations.
        const second = answers.slice(mix.length).join('\n');
        expect(second).toContain('BookingAlreadyCancelledException');
        expect(
          answers.slice(0, mix.length).filter((a) => a.includes('CancelBookingResponse') || a.includes('<result'))
            .length,
        ).toBeGreaterThan(0);
      } finally {
        await q.close();
      }
    },
  );

  test('requests Fetch would change or refuse, odd methods, paths and bodies', async () => {
    const book = DEFAULT_PATHS.booking.soap;
    const search = DEFAULT_PATHS.reference.soap;
    const meals = findOperation('GetMeals')!;
    const get = rawOf(requestAt('http://mock', meals, 'get', validParams(meals), DEFAULT_NAMESPACES));
    const soap11 = rawOf(requestAt('http://mock', meals, 'soap11', validParams(meals), DEFAULT_NAMESPACES));
    const soap12 = rawOf(requestAt('http://mock', meals, 'soap12', validParams(meals), DEFAULT_NAMESPACES));
    const post = rawOf(requestAt('http://mock', meals, 'post', validParams(meals), DEFAULT_NAMESPACES));
    const reqs: Raw[] = [
      { method: 'HEAD', target: get.target, headers: [] },
      { method: 'HEAD', target: `${search}?wsdl`, headers: [] },
      { method: 'GET', target: `${search}?WSDL`, headers: [] },
      { method: 'GET', target: `${book}?Wsdl&x=1`, headers: [['Host', 'example.org:8443']] },
      { method: 'GET', target: `${book}/`, headers: [] },
      { method: 'GET', target: book, headers: [] },
      { method: 'OPTIONS', target: book, headers: [] },
      { method: 'PUT', target: `${search}/GetMeals`, headers: [], body: 'language=en' },
      { method: 'DELETE', target: book, headers: [] },
      { method: 'PATCH', target: book, headers: [['content-type', 'application/soap+xml']], body: soap12.body },
      { method: 'M-SEARCH', target: book, headers: [] },
      { method: 'GET', target: '/%E0%A4%A', headers: [] },
      {
        method: 'GET',
        target: `${search}/Get%4Deals?language=en&userName=${DEFAULT_USER}&password=${DEFAULT_PASSWORD}`,
        headers: [],
      },
      { method: 'GET', target: `${search}/../${search}/GetMeals`, headers: [] },
      { method: 'GET', target: `http://example.org${get.target}`, headers: [] },
      { method: 'GET', target: `http://user:secret@127.0.0.1${get.target}`, headers: [] },
      { method: 'GET', target: get.target, headers: [['Host', 'bad host']] },
      {
        method: 'GET',
        target: get.target,
        headers: [
          ['Cookie', 'a=1; b=2'],
          ['Set-Cookie', 'x=1'],
          ['set-cookie', 'y=2'],
        ],
      },
      {
        method: 'GET',
        target: get.target,
        headers: [
          ['__proto__', 'x'],
          ['X-Z', 'z'],
          ['x-a', 'a'],
        ],
      },
      {
        method: 'GET',
        target: get.target,
        headers: [
          ['X-Latin', Buffer.from('caf\u00e9', 'latin1').toString('latin1')],
          ['Accept', 'a'],
          ['accept', 'b'],
        ],
      },
      {
        method: 'GET',
        target: get.target,
        headers: [
          ['X-Empty', ''],
          ['X-Tab', 'a\tb'],
        ],
      },
      { ...soap11, headers: [...soap11.headers, ['SOAPAction', '"other"']] },
      {
        ...soap11,
        headers: [
          ['Content-Type', 'text/xml'],
          ['content-type', 'charset=utf-8'],
          ['SOAPAction', soap11.headers.find(([k]) => k === 'soapaction')![1]],
        ],
      },
      { ...soap11, headers: [['SOAPAction', soap11.headers.find(([k]) => k === 'soapaction')![1]]] },
      {
        ...soap12,
        headers: [['content-type', 'application/soap+xml; charset=iso-8859-1']],
        body: Buffer.from(String(soap12.body), 'latin1'),
      },
      { ...soap12, headers: [['content-type', 'application/soap+xml; charset=x-nothing']] },
      {
        ...soap12,
        headers: [['content-type', 'application/soap+xml; charset=utf-16le']],
        body: Buffer.from(String(soap12.body), 'utf16le'),
      },
      { ...soap12, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(String(soap12.body))]) },
      { ...soap12, body: Buffer.from([0x3c, 0xff, 0xfe, 0x3e]) },
      {
        ...soap12,
        headers: [
          ['content-type', 'application/soap+xml'],
          ['Transfer-Encoding', 'chunked'],
        ],
        body: chunked(String(soap12.body)),
      },
      { ...post, headers: [['content-type', 'text/xml']] },
      { ...post, headers: [] },
      { method: 'POST', target: book, headers: [['content-type', '']], body: 'x' },
      { method: 'POST', target: book, headers: [], body: 'x' },
      { method: 'POST', target: book, headers: [['content-type', 'application/json']], body: '{}' },
      {
        method: 'POST',
        target: book,
        headers: [
          ['content-type', 'application/soap+xml'],
          ['Content-Length', String(MAX_BODY_BYTES + 1)],
        ],
      },
      {
        method: 'POST',
        target: book,
        headers: [['content-type', 'application/soap+xml']],
        body: 'y'.repeat(MAX_BODY_BYTES),
      },
    ];
    const answers = await expectSame(p, reqs);
    expect(new Set(answers.map(statusOf))).toEqual(new Set([200, 400, 404, 405, 413, 415, 500]));
  });

  test.for(FAULTS.map((f) => f.name))('fault %s: its operation on every binding, probes included', async (name) => {
    const f = FAULTS.find((x) => x.name === name)!;
    // A stateful fault needs the state, and then the order of requests matters: one at a time.
    const q = await pair(f.stateful ? { faults: [name] } : { faults: [name], stateless: true });
    try {
      const mix = requestMix().filter((r) => `${r.target} ${String(r.body ?? '')}`.includes(f.operation));
      expect(mix.length).toBeGreaterThan(4);
      await expectSame(q, [...mix, ...mix], name, f.stateful ? 1 : 8);
    } finally {
      await q.close();
    }
  });

  test('variation mode', async () => {
    const q = await pair({ vary: true, stateless: true });
    try {
      await expectSame(q, [...requestMix(), ...requestMix()]);
    } finally {
      await q.close();
    }
  });

  test('configured namespaces and credentials', async () => {
    const ns: Namespaces = { book: 'urn:example:booking:1/', search: 'https://api.example.org/search/1/' };
    const q = await pair({ namespaces: ns, user: 'alice', password: 'S3cret&<"', stateless: true });
    try {
      const answers = await expectSame(q, [...requestMix(target(ns, 'alice', 'S3cret&<"')), ...requestMix()]);
      expect(answers.filter((a) => statusOf(a) === 200).length).toBeGreaterThan(100);
    } finally {
      await q.close();
    }
  });

  test('a fault object goes through msw: same bytes', async () => {
    const cookie: Fault = {
      name: 'sets-a-cookie',
      description: 'sets a cookie',
      category: 'status',
      operation: 'GetMeals',
      bindings: 'all',
      apply: { headers: (h) => ({ ...h, 'Set-Cookie': 'session=1', 'X-Padded': 'v' }) },
    };
    expect(createMockCore({ faults: [cookie] }).catalogueFaultsOnly).toBe(false);
    expect(createMockCore({ faults: [FAULTS[0]!, FAULTS[1]!.name] }).catalogueFaultsOnly).toBe(true);
    const q = await pair({ faults: [cookie] });
    try {
      const mix = requestMix().filter((r) => `${r.target} ${String(r.body ?? '')}`.includes('GetMeals'));
      const answers = await expectSame(q, [...mix, ...mix]);
      expect(answers[0]).toMatch(/\r\nset-cookie: session=1\r\n/);
    } finally {
      await q.close();
    }
  });

  test('replay mode, recorded answers Fetch keeps or changes included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-direct-'));
    const languages = findOperation('GetLanguages')!;
    const meals = findOperation('GetMeals')!;
    const { userName: _u, password: _p, ...langParams } = validParams(languages);
    const { userName: _u2, password: _p2, ...mealParams } = validParams(meals);
    const entries = [
      {
        operation: 'GetLanguages',
        binding: 'soap11',
        status: 200,
        contentType: 'text/xml; charset=utf-8',
        headers: { 'x-served-by': 'recording', 'Content-Type': 'x/ignored', Date: 'old' },
        body: '<recorded/>',
      },
      { operation: 'GetLanguages', binding: 'soap12', status: 204, contentType: '', headers: {}, body: '' },
      {
        operation: 'GetLanguages',
        binding: 'get',
        status: 200,
        contentType: '',
        headers: { 'X-Upper': 'v', 'x-tab': 'a\tb', 'content-type': 'text/plain' },
        body: 'caf\u00e9',
      },
      {
        operation: 'GetLanguages',
        binding: 'post',
        status: 500,
        contentType: 'text/plain',
        headers: { 'x-bad': '\u20ac' },
        body: 'nope',
      },
      {
        operation: 'GetMeals',
        binding: 'get',
        status: 404,
        contentType: 'text/html',
        headers: { 'x-padded': ' v ' },
        body: '<html/>',
      },
      { operation: 'GetMeals', binding: 'post', status: 299, contentType: 'text/xml', headers: {}, body: '<x/>' },
    ];
    mkdirSync(join(dir, 'r'));
    for (const [i, e] of entries.entries()) writeFileSync(join(dir, 'r', `${i}.txt`), e.body);
    writeFileSync(
      join(dir, RECORDING_INDEX),
      JSON.stringify({
        format: RECORDING_FORMAT,
        recordedAt: '2025-01-01T00:00:00Z',
        target: {
          bookUrl: 'http://x',
          searchUrl: 'http://x',
          transfersUrl: 'http://x',
          paths: DEFAULT_PATHS,
          namespaces: DEFAULT_NAMESPACES,
          embedded: true,
        },
        entries: entries.map(({ body: _b, ...e }, i) => ({
          ...e,
          case: `c${i}`,
          params: e.operation === 'GetLanguages' ? langParams : mealParams,
          file: `r/${i}.txt`,
        })),
      }),
    );
    const q = await pair({ replay: dir });
    try {
      const calls = [languages, meals].flatMap((o) =>
        BINDINGS.map((id) => rawOf(requestAt('http://mock', o, id, validParams(o), DEFAULT_NAMESPACES))),
      );
      const answers = await expectSame(q, [...calls, ...requestMix(), ...calls]);
      expect(answers[0]).toContain('<recorded/>');
      expect(statusOf(answers[1]!)).toBe(204);
      expect(answers[3]).toMatch(/^HTTP\/1.1 500 .*internal mock error/s);
      expect(answers[6]).toContain('\r\nx-padded: v\r\n');
      expect(statusOf(answers[7]!)).toBe(299);
    } finally {
      await q.close();
    }
  });
});

describe('AnswerMemo', () => {
  const wire = (n: number) => ({ status: 200, headers: {}, body: Buffer.alloc(n) });
  test('keeps at most its entry and byte budgets, dropping the oldest first', () => {
    const memo = new AnswerMemo(3, 1000);
    for (const k of ['a', 'b', 'c', 'd']) memo.set(k, wire(10));
    expect(memo.size).toBe(3);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('d')?.body.length).toBe(10);
    memo.set('big', wire(900));
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('big')).toBeDefined();
    memo.set('huge', wire(5000));
    expect(memo.get('huge')).toBeUndefined();
  });

  test('keys: Host aside, every header, the body, method, path and query count; large bodies are not kept', () => {
    const url = new URL('http://a/p?q=1');
    const base = AnswerMemo.key('POST', url, { 'content-type': 'text/xml', host: 'a' }, Buffer.from('x'));
    expect(
      AnswerMemo.key('POST', new URL('http://b/p?q=1'), { 'content-type': 'text/xml', host: 'b' }, Buffer.from('x')),
    ).toBe(base);
    for (const other of [
      AnswerMemo.key('GET', url, { 'content-type': 'text/xml', host: 'a' }, Buffer.from('x')),
      AnswerMemo.key('POST', new URL('http://a/p?q=2'), { 'content-type': 'text/xml', host: 'a' }, Buffer.from('x')),
      AnswerMemo.key('POST', url, { 'content-type': 'text/xml', soapaction: '"a"', host: 'a' }, Buffer.from('x')),
      AnswerMemo.key('POST', url, { 'content-type': 'text/xml', host: 'a' }, Buffer.from('y')),
    ])
      expect(other).not.toBe(base);
    expect(AnswerMemo.key('POST', url, {}, Buffer.alloc(64 * 1024))).toBeUndefined();
  });
});

describe('plainToWire', () => {
  test('gives what a Fetch Response carries, or nothing', async () => {
    const value = fc.constantFrom(
      'text/xml; charset=utf-8',
      '',
      ' padded',
      'a\tb',
      'caf\u00e9',
      '\u20ac',
      'a\nb',
      'x ',
    );
    const name = fc.constantFrom(
      'content-type',
      'Content-Type',
      'x-a',
      'allow',
      'set-cookie',
      'bad name',
      'content-length',
    );
    const response = fc.record({
      status: fc.constantFrom(200, 202, 204, 205, 299, 304, 404, 500, 599, 600, 199),
      headers: fc.dictionary(name, value, { maxKeys: 3 }),
      body: fc.oneof(fc.string(), fc.constantFrom('\ud800x', 'caf\u00e9'), fc.uint8Array({ maxLength: 8 })),
    });
    await fc.assert(
      fc.asyncProperty(response, async (r: MockResponse) => {
        const direct = plainToWire(r);
        let viaFetch;
        try {
          viaFetch = await responseToWire(toResponse(r));
        } catch {
          expect(direct).toBeUndefined();
          return;
        }
        if (direct) expect(direct).toEqual(viaFetch);
      }),
      { numRuns: 500 },
    );
    // It does take the fast way for the mock's ordinary answers.
    expect(
      plainToWire({ status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: '<a/>' }),
    ).toBeDefined();
    expect(
      plainToWire({
        status: 405,
        headers: { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, POST' },
        body: 'no',
      }),
    ).toBeDefined();
  });
});
