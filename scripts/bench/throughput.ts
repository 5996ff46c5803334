/**
 * Bench child: request rates against a mock running in another process (argv: mode url [options]).
 *
 *   floor   URL CONC REPS   raw undici requests/s, the run's request mix, no checks
 *   harness URL CONC REPS [wasm]  exchanges/s of the engine with every check, equivalence and
 *                           negatives (wasm: the libxml2-wasm prototype validator instead of libxmljs2)
 *   mock    URL CONNS SECS [unique]  the mock's requests/s and latency percentiles at CONNS keep-alive
 *                           connections (unique: every request different, so none is answered from the memo)
 *   cases   URL CONC FACTOR REPS  wall time of an engine run with the shipped cases multiplied FACTOR times
 *
 * Prints one JSON line with the per-repetition figures; scripts/bench.ts takes medians.
 */
import { rowKind } from '../../src/core/rows.js';
import { Agent, request } from 'undici';
import type { HttpRequest } from '../../src/core/types.js';
import { runPlan } from '../../src/engine/run.js';
import { Transport } from '../../src/transport/client.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { fullPlan, mockTarget, multipliedCases, percentile, requestMix } from './common.js';
import { createWasmDocumentValidator } from './wasm-validator.js';

const [mode, url, a, b, c] = process.argv.slice(2);
if (!mode || !url) throw new Error('usage: throughput.ts floor|harness|mock|cases URL N M');

/** Send `reqs` through `agent` with `conc` requests in flight; returns per-request latencies (ms). */
async function blast(agent: Agent, reqs: readonly HttpRequest[], conc: number): Promise<number[]> {
  const lat: number[] = new Array(reqs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < reqs.length; i = next++) {
      const r = reqs[i]!;
      const t = performance.now();
      const res = await request(r.url, { method: r.method, headers: r.headers, body: r.body, dispatcher: agent });
      await res.body.arrayBuffer();
      lat[i] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: conc }, worker));
  return lat;
}

const target = mockTarget(url);
const mix = requestMix(fullPlan(target));

async function floor(conc: number, reps: number) {
  const agent = new Agent({ connections: conc, pipelining: 1, keepAliveTimeout: 10_000 });
  const rounds = 4; // one repetition sends the run's mix four times (about 870 requests)
  const batch = Array.from({ length: rounds }, () => mix).flat();
  await blast(agent, batch, conc); // warm-up: connections, JIT
  await blast(agent, batch, conc);
  const rps: number[] = [];
  const cpuMsPerRequest: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await blast(agent, batch, conc);
    rps.push(batch.length / ((performance.now() - t) / 1000));
    const u = process.cpuUsage(c);
    cpuMsPerRequest.push((u.user + u.system) / 1000 / batch.length);
  }
  await agent.close();
  return { requestsPerRepetition: batch.length, mixSize: mix.length, rps, cpuMsPerRequest };
}

async function harness(conc: number, reps: number, engine?: string) {
  const transport = new Transport({ concurrency: conc, timeoutMs: 10_000, maxBodyBytes: 32 * 1024 * 1024 });
  const validator =
    engine === 'wasm' ? createWasmDocumentValidator(target.namespaces) : createDocumentValidator(target.namespaces);
  const plan = fullPlan(target);
  const once = async () => {
    const report = await runPlan(plan, { transport, validator });
    return {
      exchanges: report.results.filter((r) => rowKind(r) === 'exchange').length,
      checks: report.results.length,
      failed: report.summary.failed,
    };
  };
  await once(); // warm-up
  const rounds = 2;
  const eps: number[] = [];
  const cpuMsPerExchange: number[] = [];
  let last = { exchanges: 0, checks: 0, failed: 0 };
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    let ex = 0;
    for (let k = 0; k < rounds; k++) {
      last = await once();
      ex += last.exchanges;
    }
    eps.push(ex / ((performance.now() - t) / 1000));
    const u = process.cpuUsage(c);
    cpuMsPerExchange.push((u.user + u.system) / 1000 / ex);
  }
  await transport.close();
  return { exchangesPerRun: last.exchanges, checksPerRun: last.checks, failed: last.failed, eps, cpuMsPerExchange };
}

/**
 * The request `r` made unique by `n` without changing its meaning: an XML comment in a SOAP body,
 * an extra parameter (ignored by the service, as by ASP.NET) in a query or form body. The mock's
 * answer memo then never hits: every request is parsed, resolved and serialised.
 */
function unique(r: HttpRequest, n: number): HttpRequest {
  const ct = String(r.headers['content-type'] ?? r.headers['Content-Type'] ?? '');
  if (r.method === 'GET') return { ...r, url: `${r.url}${r.url.includes('?') ? '&' : '?'}benchRequest=${n}` };
  if (ct.includes('form')) return { ...r, body: `${r.body}&benchRequest=${n}` };
  const body = String(r.body);
  const decl = /^<\?xml[^>]*\?>/.exec(body)?.[0] ?? '';
  return { ...r, body: `${decl}<!-- bench request ${n} -->${body.slice(decl.length)}` };
}

async function mockLoad(conns: number, seconds: number, fresh: boolean) {
  const agent = new Agent({ connections: conns, pipelining: 1, keepAliveTimeout: 10_000 });
  let counter = 0;
  const batchOf = () =>
    Array.from({ length: 4 }, () => mix)
      .flat()
      .map((r) => (fresh ? unique(r, counter++) : r));
  const batch = batchOf();
  await blast(agent, batch, conns); // warm-up: opens the connections
  const reps: { rps: number; p50: number; p99: number; requests: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const lat: number[] = [];
    const t = performance.now();
    while (performance.now() - t < seconds * 1000) lat.push(...(await blast(agent, fresh ? batchOf() : batch, conns)));
    const s = (performance.now() - t) / 1000;
    reps.push({ rps: lat.length / s, p50: percentile(lat, 50), p99: percentile(lat, 99), requests: lat.length });
  }
  await agent.close();
  return { connections: conns, fresh, warmupRequests: batch.length, reps };
}

async function cases(conc: number, factor: number, reps: number) {
  const transport = new Transport({ concurrency: conc, timeoutMs: 30_000, maxBodyBytes: 32 * 1024 * 1024 });
  const validator = createDocumentValidator(target.namespaces);
  const plan = fullPlan(target, multipliedCases(factor));
  await runPlan(fullPlan(target), { transport, validator }); // warm-up with the plain cases
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let report;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    report = await runPlan(plan, { transport, validator });
    ms.push(performance.now() - t);
    const u = process.cpuUsage(c);
    cpuMs.push((u.user + u.system) / 1000);
  }
  await transport.close();
  return {
    factor,
    concurrency: conc,
    ms,
    cpuMs,
    exchanges: report!.results.filter((r) => rowKind(r) === 'exchange').length,
    checks: report!.results.length,
    failed: report!.summary.failed,
  };
}

const n = Number(a);
const m = Number(b);
const result =
  mode === 'floor'
    ? await floor(n, m)
    : mode === 'harness'
      ? await harness(n, m, c)
      : mode === 'mock'
        ? await mockLoad(n, m, c === 'unique')
        : mode === 'cases'
          ? await cases(n, m, Number(c ?? 3))
          : undefined;
if (!result) throw new Error(`unknown mode ${mode}`);
process.stdout.write(`${JSON.stringify(result)}\n`);
