/**
 * Bench child: XSD engine comparison, libxmljs2 (the shipped validator, src/schema/xsd-validator.ts)
 * against libxml2-wasm (scripts/bench/wasm-validator.ts). The same bundle schema, the same
 * documents, the same security rules.
 *
 *   small                µs per document over the mock's responses (every 200 answer of a run)
 *   large ENGINE FILE    MB/s and peak memory for one large document (one child per engine × size)
 *
 * `small` also cross-checks the verdicts on a few broken variants and probes entity handling.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import libxml from 'libxmljs2';
import { XmlDocument } from 'libxml2-wasm';
import { Agent, request } from 'undici';
import { DEFAULT_NAMESPACES } from '../../src/contract/catalogue.js';
import { startMock } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { fullPlan, MB, mockTarget, requestMix, stat } from './common.js';
import { createWasmDocumentValidator, DOCUMENT_PARSE, TARGET_PARSE } from './wasm-validator.js';

const [mode, engine, file] = process.argv.slice(2);
const ns = DEFAULT_NAMESPACES;

/** The bodies of every 200 XML answer of one run against the mock. */
async function mockDocuments(): Promise<string[]> {
  const mock = await startMock({ port: 0 });
  const agent = new Agent({ connections: 8 });
  const docs: string[] = [];
  try {
    for (const r of requestMix(fullPlan(mockTarget(mock.url)))) {
      const res = await request(r.url, { method: r.method, headers: r.headers, body: r.body, dispatcher: agent });
      const text = await res.body.text();
      if (res.statusCode === 200 && text.startsWith('<')) docs.push(text);
    }
  } finally {
    await agent.close();
    await mock.close();
  }
  return docs;
}

function timeEach(docs: readonly string[], f: (d: string) => unknown, reps: number): number[] {
  for (const d of docs) f(d); // warm-up
  const out: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    for (const d of docs) f(d);
    out.push(((performance.now() - t) * 1000) / docs.length);
  }
  return out;
}

async function small() {
  const docs = await mockDocuments();
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
  const t0 = performance.now();
  const js2 = createDocumentValidator(ns);
  const js2Setup = performance.now() - t0;
  const js2Whole = createDocumentValidator(ns, { subsets: false }); // the whole bundle compiled each time
  const t1 = performance.now();
  const wasm = createWasmDocumentValidator(ns);
  const wasmSetup = performance.now() - t1;

  // Verdicts agree on the mock's documents and on broken variants.
  const variants: [string, (d: string) => string][] = [
    ['as served', (d) => d],
    ['int field with letters', (d) => d.replace(/<(airportId|id|languageId|mealId)>\d+</, '<$1>x1<')],
    ['unknown element in a closed type', (d) => d.replace(/<\/(airportName|name)>/, '</$1><bogus>1</bogus>')],
    ['int with surrounding spaces (libxml2 2.9 defect)', (d) => d.replace(/<(airportId|id)>(\d+)</, '<$1> $2 <')],
    ['not well-formed', (d) => d.replace(/<\/[^>]+>$/, '')],
    [
      'declared iso-8859-1, given as decoded text',
      (d) => d.replace(/^<\?xml version="1.0" encoding="utf-8"\?>/, '<?xml version="1.0" encoding="iso-8859-1"?>'),
    ],
  ];
  const agreement = variants.map(([name, f]) => {
    let same = 0;
    let js2Invalid = 0;
    let wasmInvalid = 0;
    let changed = 0;
    for (const d of docs) {
      const v = f(d);
      if (v === d && name !== 'as served') continue;
      changed++;
      const a = js2.validate(v);
      const b = wasm.validate(v);
      const badA = a.wellFormedError !== undefined || a.xsdErrors.length > 0;
      const badB = b.wellFormedError !== undefined || b.xsdErrors.length > 0;
      if (badA) js2Invalid++;
      if (badB) wasmInvalid++;
      if (badA === badB) same++;
    }
    return { variant: name, documents: changed, agree: same, libxmljs2Rejects: js2Invalid, wasmRejects: wasmInvalid };
  });

  // Entity probe (our own document, so reading it back is allowed): an external entity naming a
  // local file must not be loaded. (The harness refuses any DOCTYPE before either engine sees it.)
  const secret = `marker-${process.pid}-${Date.now()}`;
  const secretFile = join(mkdtempSync(join(tmpdir(), 'bench-entity-')), 'secret.txt');
  writeFileSync(secretFile, secret);
  const probe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "${pathToFileURL(secretFile).href}">]><r>&x;</r>`;
  const wdoc = XmlDocument.fromString(probe, { option: TARGET_PARSE });
  const wasmLoaded = wdoc.toString().includes(secret);
  wdoc.dispose();
  const jdoc = libxml.parseXml(probe, { noent: false, nonet: true, huge: false });
  const js2Loaded = jdoc.toString().includes(secret);
  rmSync(dirname(secretFile), { recursive: true, force: true });

  const reps = 9;
  return {
    documents: docs.length,
    averageBytes: Math.round(bytes / docs.length),
    setupMs: { libxmljs2: js2Setup, wasm: wasmSetup },
    usPerDoc: {
      libxmljs2Validator: stat(timeEach(docs, (d) => js2.validate(d), reps)),
      libxmljs2WholeSchemas: stat(timeEach(docs, (d) => js2Whole.validate(d), reps)),
      libxmljs2ParseOnly: stat(
        timeEach(docs, (d) => libxml.parseXml(d, { noent: false, nonet: true, huge: false }), reps),
      ),
      wasmValidator: stat(timeEach(docs, (d) => wasm.validate(d), reps)),
      wasmParseOnly: stat(timeEach(docs, (d) => XmlDocument.fromString(d, { option: DOCUMENT_PARSE }).dispose(), reps)),
    },
    agreement,
    externalEntityLoaded: { libxmljs2: js2Loaded, wasm: wasmLoaded },
  };
}

function large(which: string, path: string) {
  const xml = readFileSync(path, 'utf8');
  const bytes = Buffer.byteLength(xml);
  const maxBytes = 64 * MB; // above the 32 MiB default cap, so the 50 MB document is checked at all
  const v =
    which === 'wasm' ? createWasmDocumentValidator(ns, { maxBytes }) : createDocumentValidator(ns, { maxBytes });
  v.validate('<probe/>'); // warm-up: compile paths
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  const ms: number[] = [];
  let outcome;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    outcome = v.validate(xml);
    ms.push(performance.now() - t);
  }
  const peak = process.resourceUsage().maxRSS * 1024;
  return {
    engine: which,
    bytes,
    ms: stat(ms),
    mbPerS: bytes / MB / (stat(ms).median / 1000),
    valid: outcome!.wellFormedError === undefined && outcome!.xsdErrors.length === 0,
    errors: outcome!.xsdErrors.length + (outcome!.wellFormedError ? 1 : 0),
    peakRssDelta: peak - rss0,
  };
}

const result = mode === 'small' ? await small() : mode === 'large' ? large(engine!, file!) : undefined;
if (!result) throw new Error('usage: engines.ts small | large js2|wasm FILE');
process.stdout.write(`${JSON.stringify(result)}\n`);
