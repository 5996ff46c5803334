/**
 * Bench child: large SearchTransfers responses.
 *
 *   gen DIR MB...     write valid SOAP 1.1 SearchTransfers responses of about MB megabytes each
 *                     (many airports, many transfers; serialised from the type model like the mock)
 *   check FILE [wasm] feed one through every check as an exchange (run with --expose-gc, one
 *                     process per size): time per stage, MB/s, peak RSS and retained heap
 *   unit FILE         one unit: the document on all four bindings, every check, then the
 *                     binding comparison: wall time and peak RSS
 *   pipeline FILE before|after
 *                     one exchange as the engine checks it (libxml2 in the validator process,
 *                     the tree, every check, the comparison's digests), with the reader and order
 *                     before issue 35 (fast-xml-parser, tree after libxml2) or after it (the
 *                     one-pass reader, tree built while libxml2 reads): MB/s, peak RSS of this
 *                     process and of the validator process, the findings (one process per reader)
 *   stages FILE [RUNS] CPU of each stage of the checking process alone (decoding, scans, tree, digest,
 *                     checks), RUNS times after a warm-up (run compiled, with --expose-gc)
 *   memory FILE       where the memory of one large answer goes, each part measured alone as the
 *                     heap it keeps after a collection (run with --expose-gc)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binding } from '../../src/bindings/index.js';
import {
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  findOperation,
  type BindingId,
  type Operation,
} from '../../src/contract/catalogue.js';
import { CheckContext, type DocumentValidator } from '../../src/checks/context.js';
import { CHECKS, runBeside, runChecks, yieldToLoop } from '../../src/checks/registry.js';
import type { Exchange } from '../../src/core/types.js';
import { canonicalResult, detachedView } from '../../src/equivalence/binding-view.js';
import { compareBindings } from '../../src/equivalence/compare.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, serializeResult, type DataObject } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { hasDoctype, parseXml, PARSER_OPTIONS, setScanReaderMinChars } from '../../src/xml/tree.js';
import { serialize } from 'node:v8';
import { checkBudgetMs, scanMarkup } from '../../src/xml/limits.js';
import { stopValidatorProcess, validatorPeakRss } from '../../src/schema/validator-process.js';
import { XMLParser } from 'fast-xml-parser';
import { MB, stat } from './common.js';
import { createWasmDocumentValidator } from './wasm-validator.js';

const op: Operation = findOperation('SearchTransfers')!;
const ns = DEFAULT_NAMESPACES[op.ns];
const soap11 = binding('soap11');

const NAMES = [
  'Zürich Airport',
  'Athens International „Eleftherios Venizelos“ (Αερολιμένας Αθηνών)',
  'Málaga–Costa del Sol',
  'Kraków John Paul II',
  'İstanbul Havalimanı',
];
const TYPES = ['Shared shuttle', 'Private taxi', 'Private minivan', 'Limousine'];
const CURRENCIES = ['EUR', 'SEK', 'GBP'];

/** A SearchTransfersResult with `airports` airports of 20 transfers with 3 rates each. */
function result(airports: number): DataObject {
  return {
    airports: Array.from({ length: airports }, (_, a) => ({
      airportId: 1000 + a,
      resortId: 5000 + (a % 97),
      airportName: `${NAMES[a % NAMES.length]} ${a}`,
      iataCode: `X${(a % 676).toString(36).toUpperCase().padStart(2, 'A')}`,
      timeZone: 'Europe/Zurich',
      transfers: Array.from({ length: 20 }, (_, t) => ({
        rates: CURRENCIES.map((c, i) => ({
          currency: c,
          $text: ((1000 + (((a * 7 + t * 13 + i) * 50) % 40000)) / 100).toFixed(2),
        })),
        transferTypeId: 1 + (t % 4),
        minimumPassengers: 1,
        maximumPassengers: 4 + (t % 12),
        estimatedTimeInHours: t % 3,
        estimatedTimeInMinutes: 25 + 60 * (t % 3),
        ...(t % 3 ? { transferTypeName: TYPES[t % TYPES.length] } : {}),
      })),
    })),
  };
}

/** The SOAP 1.1 response document holding `airports` airports. */
function document(airports: number): string {
  return soap11.encodeResult(op, serializeResult(op, result(airports), { ns, declareNamespace: false }), ns).body;
}

function gen(dir: string, sizes: number[]) {
  mkdirSync(dir, { recursive: true });
  const per = Buffer.byteLength(document(100)) / 100;
  return sizes.map((mb) => {
    const xml = document(Math.max(1, Math.round((mb * MB) / per)));
    const file = join(dir, `search-transfers-${mb}mb.xml`);
    writeFileSync(file, xml);
    return { mb, file, bytes: Buffer.byteLength(xml) };
  });
}

function exchange(body: Buffer): Exchange {
  const request = soap11.encodeRequest(
    op,
    { userName: DEFAULT_USER, password: DEFAULT_PASSWORD },
    `http://127.0.0.1:1${DEFAULT_PATHS.transfers.soap}`,
    ns,
  );
  return {
    request,
    response: { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body, elapsedMs: 0 },
  };
}

/** Every check on one exchange, stage by stage (the context computes each stage once, lazily). */
function checkOnce(body: Buffer, validator: DocumentValidator) {
  const cpu0 = process.cpuUsage();
  const t: number[] = [performance.now()];
  const ctx = new CheckContext({
    op,
    binding: 'soap11',
    caseId: 'large',
    caseKind: 'valid',
    namespaces: DEFAULT_NAMESPACES,
    exchange: exchange(body),
    validator,
  });
  ctx.decoded();
  t.push(performance.now());
  ctx.libxml();
  t.push(performance.now());
  ctx.xml();
  t.push(performance.now());
  const runs = runChecks(ctx, CHECKS);
  t.push(performance.now());
  canonicalResult(op, ctx);
  t.push(performance.now()); // binding_equivalence's per-exchange part: the canonical form
  const failed = runs
    .filter((r) => Array.isArray(r.outcome) && r.outcome.length > 0)
    .map((r) => `${r.check.name}: ${(r.outcome as { message: string }[])[0]!.message}`);
  const stages = {
    decode: t[1]! - t[0]!,
    libxml2: t[2]! - t[1]!,
    tree: t[3]! - t[2]!,
    checks: t[4]! - t[3]!,
    canonical: t[5]! - t[4]!,
  };
  const cpu = process.cpuUsage(cpu0);
  return { ctx, total: t[5]! - t[0]!, cpuMs: (cpu.user + cpu.system) / 1000, stages, failed, checks: runs.length };
}

function check(file: string, engine: string) {
  const body = readFileSync(file);
  const maxBytes = 64 * MB; // above the 32 MiB default cap: the 50 MB case needs --max-body-bytes like this
  const validator =
    engine === 'wasm'
      ? createWasmDocumentValidator(DEFAULT_NAMESPACES, { maxBytes })
      : createDocumentValidator(DEFAULT_NAMESPACES, { maxBytes });
  checkOnce(Buffer.from(document(3)), validator); // warm-up: JIT, schema paths
  const gc = globalThis.gc ?? (() => undefined);
  gc();
  const base = process.memoryUsage();
  const first = checkOnce(body, validator);
  const peakRss = process.resourceUsage().maxRSS * 1024 - base.rss;
  const retainedHeap = process.memoryUsage().heapUsed - base.heapUsed; // the tree and strings the context keeps
  const runs = [first];
  first.ctx.toString(); // keep the context alive until here
  for (let i = 0; i < 2; i++) {
    gc();
    runs.push(checkOnce(body, validator));
  }
  // The bound of the tree stage: fast-xml-parser alone, same options, on the decoded text.
  const text = body.toString('utf8');
  const fxp = new XMLParser(PARSER_OPTIONS);
  const fxpMs: number[] = [];
  let fxpHeap = 0;
  for (let i = 0; i < 3; i++) {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    const t = performance.now();
    const out = fxp.parse(text) as unknown;
    fxpMs.push(performance.now() - t);
    fxpHeap = Math.max(fxpHeap, process.memoryUsage().heapUsed - h0);
    if (!out) throw new Error('no output');
  }
  const total = stat(runs.map((r) => r.total));
  const stages = Object.fromEntries(
    Object.keys(first.stages).map((k) => [k, stat(runs.map((r) => r.stages[k as keyof typeof first.stages])).median]),
  );
  return {
    engine,
    bytes: body.length,
    ms: total,
    cpuMs: stat(runs.map((r) => r.cpuMs)),
    mbPerS: body.length / MB / (total.median / 1000),
    stages,
    peakRssDelta: peakRss,
    retainedHeapDelta: retainedHeap,
    failed: first.failed,
    checks: first.checks,
    parserOnly: { ms: stat(fxpMs), mbPerS: body.length / MB / (stat(fxpMs).median / 1000), heapDelta: fxpHeap },
  };
}

/**
 * One unit as the engine runs it: the same document answered on all four bindings (each exchange
 * checked in turn, its context kept), then the binding comparison. Peak RSS of the whole unit.
 */
function unit(file: string) {
  const body = readFileSync(file);
  const validator = createDocumentValidator(DEFAULT_NAMESPACES, { maxBytes: 64 * MB });
  checkOnce(Buffer.from(document(3)), validator); // warm-up
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const bindings: BindingId[] = ['soap11', 'soap12', 'get', 'post'];
  const contexts = new Map<BindingId, CheckContext>();
  for (const b of bindings) {
    const ctx = new CheckContext({
      op,
      binding: 'soap11',
      caseId: 'large',
      caseKind: 'valid',
      namespaces: DEFAULT_NAMESPACES,
      exchange: exchange(Buffer.from(body)),
      validator,
    });
    runChecks(ctx, CHECKS);
    contexts.set(b, ctx);
  }
  const rows = compareBindings(op, 'valid', bindings, contexts);
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const agreed = rows.length === 1 && Array.isArray(rows[0]!.outcome) && rows[0]!.outcome.length === 0;
  return {
    bytes: body.length,
    bindings: bindings.length,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssDelta: process.resourceUsage().maxRSS * 1024 - rss0,
    agreed,
  };
}

/** One exchange through the engine's steps: prepare (libxml2 in its process), every check, the comparison's digests. */
async function pipelineOnce(body: Buffer, validator: DocumentValidator, overlap: boolean) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const init = {
    op,
    binding: 'soap11' as const,
    caseId: 'large',
    caseKind: 'valid' as const,
    namespaces: DEFAULT_NAMESPACES,
    exchange: exchange(body),
    validator,
  };
  let ctx: CheckContext | undefined = new CheckContext(init);
  // As the engine (src/engine/run.ts): the comparison's view and the checks' walks done while
  // libxml2 reads, when overlapping.
  let early: ReturnType<typeof detachedView> | undefined;
  const stood = await ctx.prepare({ budgetMs: checkBudgetMs(body.length) }, overlap, async () => {
    early = detachedView(op, ctx!, () => new CheckContext(init));
    await yieldToLoop();
    runBeside(ctx!, CHECKS);
  });
  const t1 = performance.now();
  const libxmlNotParsed = ctx.libxml().notParsed;
  ctx.xml();
  const t2 = performance.now();
  const heapWithTree = process.memoryUsage().heapUsed;
  const runs = runChecks(ctx, CHECKS);
  const t3 = performance.now();
  const view = (stood ? early : undefined) ?? detachedView(op, ctx, () => new CheckContext(init));
  const t4 = performance.now();
  const failed = runs
    .filter((r) => Array.isArray(r.outcome) && r.outcome.length > 0)
    .map((r) => `${r.check.name}: ${(r.outcome as { message: string }[]).map((f) => f.message).join(' | ')}`);
  const digest = view.digest(true);
  ctx = undefined;
  const cpu = process.cpuUsage(cpu0);
  return {
    total: t4 - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapWithTree,
    failed,
    digest,
    notParsed: libxmlNotParsed,
    stages: { prepare: t1 - t0, tree: t2 - t1, checks: t3 - t2, digests: t4 - t3 },
  };
}

async function pipeline(file: string, which: string) {
  const body = readFileSync(file);
  const after = which === 'after';
  setScanReaderMinChars(after ? 256 * 1024 : Infinity);
  const validator = createDocumentValidator(DEFAULT_NAMESPACES, { maxBytes: 64 * MB });
  // Warm-up on a document large enough for the validator process (its start is not measured).
  await pipelineOnce(Buffer.from(document(300)), validator, after);
  const gc = globalThis.gc ?? (() => undefined);
  gc();
  const base = process.memoryUsage();
  const runs: Awaited<ReturnType<typeof pipelineOnce>>[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) gc();
    runs.push(await pipelineOnce(body, validator, after));
  }
  const peakRss = process.resourceUsage().maxRSS * 1024 - base.rss;
  const childPeak = validatorPeakRss();
  stopValidatorProcess();
  const total = stat(runs.map((r) => r.total));
  const stages = Object.fromEntries(
    Object.keys(runs[0]!.stages).map((k) => [
      k,
      stat(runs.map((r) => r.stages[k as keyof (typeof runs)[0]['stages']])).median,
    ]),
  );
  return {
    reader: after ? 'one-pass reader, tree beside libxml2' : 'fast-xml-parser, tree after libxml2',
    bytes: body.length,
    chars: body.toString('utf8').length,
    ms: total,
    mbPerS: body.length / MB / (total.median / 1000),
    cpuMs: stat(runs.map((r) => r.cpuMs)),
    stages,
    peakRssDelta: peakRss,
    childPeakRss: childPeak,
    heapWithTreeDelta: runs[0]!.heapWithTree - base.heapUsed,
    failed: runs[0]!.failed,
    digest: runs[0]!.digest,
    perRun: runs.map((r) => ({ total: r.total, ...r.stages, ...(r.notParsed ? { notParsed: r.notParsed } : {}) })),
  };
}

/**
 * CPU milliseconds of each stage of the checking process's reading of one answer, each alone after
 * a full collection (collections it causes included), `runs` times: the decoding, the DOCTYPE and
 * markup scans, the one-pass reader's tree, the comparison's digest and the checks (libxml2's
 * outcome taken before, not timed). Minimum and median of the runs.
 */
function stages(file: string, runs: number) {
  const gc = globalThis.gc!;
  const body = readFileSync(file);
  const validator = createDocumentValidator(DEFAULT_NAMESPACES, { maxBytes: 64 * MB });
  const ms: Record<string, number[]> = {};
  const timed = <T>(stage: string, f: () => T): T => {
    gc();
    const c0 = process.cpuUsage();
    const out = f();
    const c = process.cpuUsage(c0);
    (ms[stage] ??= []).push((c.user + c.system) / 1000);
    return out;
  };
  setScanReaderMinChars(256 * 1024);
  for (let i = 0; i <= runs; i++) {
    const ctx = new CheckContext({
      op,
      binding: 'soap11',
      caseId: 'large',
      caseKind: 'valid',
      namespaces: DEFAULT_NAMESPACES,
      exchange: exchange(body),
      validator,
    });
    const text = timed('decode', () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
    timed('doctype', () => hasDoctype(text));
    timed('markup', () => scanMarkup(text));
    timed('tree', () => parseXml(text));
    ctx.xml();
    ctx.libxml();
    timed('digest', () => detachedView(op, ctx, () => ctx).digest(true));
    timed('checks', () => runChecks(ctx, CHECKS));
    if (i === 0) for (const k of Object.keys(ms)) ms[k] = []; // the first run warms up
  }
  return { bytes: body.length, runs, cpuMs: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, stat(v)])) };
}

/** The heap each stage of reading one answer keeps, measured alone after a full collection. */
function memory(file: string) {
  const gc = globalThis.gc!;
  const kept = (f: () => unknown) => {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    const held = f();
    gc();
    const d = process.memoryUsage().heapUsed - h0;
    if (held === undefined) throw new Error('nothing held');
    return d;
  };
  const body = readFileSync(file);
  let text = '';
  const textHeap = kept(() => (text = body.toString('utf8')));
  parseXml(document(30), 'scan'); // warm-up
  parseXml(document(30), 'fast-xml-parser');
  return {
    bytes: body.length,
    chars: text.length,
    decodedText: textHeap,
    ipcMessage: serialize({ id: 1, xml: text }).length,
    fastXmlParserOutput: kept(() => new XMLParser(PARSER_OPTIONS).parse(text)),
    treeViaFastXmlParser: kept(() => parseXml(text, 'fast-xml-parser')),
    treeViaScan: kept(() => parseXml(text, 'scan')),
  };
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'gen') {
  process.stdout.write(`${JSON.stringify(gen(args[0]!, args.slice(1).map(Number)))}\n`);
} else if (mode === 'check') {
  process.stdout.write(`${JSON.stringify(check(args[0]!, args[1] ?? 'libxmljs2'))}\n`);
} else if (mode === 'unit') {
  process.stdout.write(`${JSON.stringify(unit(args[0]!))}\n`);
} else if (mode === 'stages') {
  process.stdout.write(`${JSON.stringify(stages(args[0]!, Number(args[1] ?? 9)))}\n`);
} else if (mode === 'memory') {
  process.stdout.write(`${JSON.stringify(memory(args[0]!))}\n`);
} else if (mode === 'pipeline') {
  process.stdout.write(`${JSON.stringify(await pipeline(args[0]!, args[1] ?? 'after'))}\n`);
} else if (mode !== undefined) {
  throw new Error(
    'usage: large.ts gen DIR MB... | check FILE [wasm] | unit FILE | pipeline FILE before|after | '
      + 'stages FILE [RUNS] | memory FILE',
  );
}
