/**
 * The mock under a bounded load: 64 concurrent keep-alive clients (one undici Pool, 64 connections)
 * for 10 s on loopback, every operation on every binding in turn. Zero
 * errors, every answer the expected one, and memory after GC stable between the first and the last
 * second (the figures are printed).
 */
import { Pool } from 'undici';
import { requestAt } from '../../src/bindings/endpoint.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BINDINGS, DEFAULT_NAMESPACES, OPERATIONS } from '../../src/contract/catalogue.js';
import type { HttpRequest } from '../../src/core/types.js';
import { memoryAfterGc, mib, MiB, type MemoryFigures } from '../../test/support/processes.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { resultElement, validParams } from '../../test/support/mock.js';

const CLIENTS = 64;
const DURATION_MS = 10_000;
/**
 * The same load before the measured part: V8 grows its young generation and compiles the hot code
 * in the first seconds of a load, and when it does so depends on how fast the code is (after
 * issue 35's faster XML scans it moved from before the half-way probe to after it). Memory is
 * judged once that has happened.
 */
const WARMUP_MS = 6_000;

let mock: RunningMock;
let pool: Pool;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  pool = new Pool(mock.url, { connections: CLIENTS, pipelining: 1, keepAliveTimeout: 30_000 });
});
afterAll(async () => {
  await pool?.close();
  await mock?.close();
});

interface Call {
  readonly req: HttpRequest;
  readonly status: number;
  readonly op: (typeof OPERATIONS)[number];
  readonly binding: (typeof BINDINGS)[number];
}

/** A valid call of every operation × binding. */
function calls(): Call[] {
  const out: Call[] = [];
  for (const op of OPERATIONS) {
    for (const b of BINDINGS) {
      const req = requestAt('', op, b, validParams(op), DEFAULT_NAMESPACES);
      out.push({ req, status: 200, op, binding: b });
    }
  }
  return out;
}

describe('the mock under load', () => {
  test(`${CLIENTS} keep-alive clients for ${DURATION_MS / 1000} s: no errors, memory stable`, async () => {
    const all = calls();
    const errors: string[] = [];
    const latencies: number[] = [];
    let done = 0;
    let checked = 0;
    let end = Date.now() + WARMUP_MS;
    const load = (client: (id: number) => Promise<void>) =>
      Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    let first: MemoryFigures | undefined;
    let mid: MemoryFigures | undefined;
    let last: MemoryFigures | undefined;

    const client = async (id: number) => {
      for (let i = id; Date.now() < end; i += CLIENTS) {
        const c = all[i % all.length]!;
        const s = performance.now();
        try {
          const res = await pool.request({
            path: c.req.url,
            method: c.req.method,
            headers: c.req.headers,
            body: c.req.body,
            signal: AbortSignal.timeout(15_000),
          });
          const text = await res.body.text();
          latencies.push(performance.now() - s);
          if (res.statusCode !== c.status)
            errors.push(`${c.op.name} ${c.binding}: status ${res.statusCode}: ${text.slice(0, 200)}`);
          else if (done % 50 === 0) {
            // Every 50th answer is read completely: the result element of the operation.
            checked++;
            if (resultElement(c.op, c.binding, text).local !== c.op.resultElement)
              errors.push(`${c.op.name} ${c.binding}: wrong result element`);
          } else if (!text.includes(c.op.resultElement))
            errors.push(`${c.op.name} ${c.binding}: no ${c.op.resultElement} in the answer`);
        } catch (e) {
          errors.push(`${c.op.name} ${c.binding}: ${(e as Error).message}`);
        }
        done++;
        if (errors.length > 20) return;
      }
    };
    // The warm-up, then the measured load.
    await load(client);
    const warm = { done, errors: errors.length };
    latencies.length = 0;
    const t0 = Date.now();
    end = t0 + DURATION_MS;
    // Memory after GC at 1 s, half-way and in the last second, with the load running.
    const probes = [
      setTimeout(() => {
        first = memoryAfterGc();
      }, 1_000),
      setTimeout(() => {
        mid = memoryAfterGc();
      }, DURATION_MS / 2),
      setTimeout(() => {
        last = memoryAfterGc();
      }, DURATION_MS - 700),
    ];
    await load(client);
    probes.forEach(clearTimeout);
    const elapsed = Date.now() - t0;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(1);
    const connected = pool.stats.connected;
    console.log(
      `[load] warm-up: ${warm.done} requests in ${WARMUP_MS} ms, ${warm.errors} errors; `
        + `then ${done - warm.done} requests in ${elapsed} ms `
        + `(${Math.round((done - warm.done) / (elapsed / 1000))}/s) over ${connected} keep-alive `
        + `connections; `
        + `latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms; ${checked} answers parsed `
        + `completely; errors ${errors.length}`,
    );
    if (first && mid && last) {
      const row = (k: keyof MemoryFigures) => `${k} ${mib(first![k])} → ${mib(mid![k])} → ${mib(last![k])}`;
      console.log(
        `[load] memory after GC at 1 s → ${DURATION_MS / 2000} s → ${(DURATION_MS - 700) / 1000} `
          + `s: ${(['rss', 'heapUsed', 'arrayBuffers', 'external'] as const).map(row).join(', ')}`,
      );
    }
    expect(errors).toEqual([]);
    expect(done).toBeGreaterThan(1_000);
    expect(connected).toBeLessThanOrEqual(CLIENTS);
    expect(connected).toBeGreaterThan(CLIENTS / 2);
    expect(first && mid && last).toBeTruthy();
    // The JS heap and buffers after GC: what a leak would grow. Stable from the first second on.
    expect(last!.heapUsed - first!.heapUsed).toBeLessThan(16 * MiB);
    expect(last!.arrayBuffers - first!.arrayBuffers).toBeLessThan(16 * MiB);
    // RSS rises once to a plateau (JIT code, V8's young generation, connection buffers, malloc
    // arenas of 64 sockets: about 240 MiB here) and stays there. When it gets there is V8's doing,
    // not the mock's: before the first probe on most runs (248 → 213 → 236 MiB), after the
    // half-way one on a fresh clone in CI (146 → 154 → 243 MiB, the heap flat at 34 MiB all along),
    // so the growth is bounded over the whole load, not per half; a leak shows in the heap and
    // buffers above.
    expect(last!.rss - first!.rss).toBeLessThan(128 * MiB);
    expect(last!.rss).toBeLessThan(400 * MiB);
  }, 90_000);
});
