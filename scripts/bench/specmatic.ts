/**
 * Bench child, section 13 (issue 43): `conformance run` beside Specmatic (npm package `specmatic`, a
 * Java jar) on the same target, the reference mock in a process of its own (its URL is given), each
 * command timed from process start to exit, runs alternated (S C S C ...).
 *
 *   compare URL JAR RUNS   prints { specmatic: Timed[], conformance: Timed[], ... } as JSON
 *
 * Specmatic tests the service from the WSDLs the mock serves (`<service path>?WSDL`, the namespaces
 * the mock is configured with filled in for {book_ns} and {search_ns}): one SOAP 1.1 test per
 * operation, 14, each from an example holding the request our run's first hand-written case sends on
 * SOAP 1.1 (the target's credentials in it), so that every test can pass against a conforming service.
 * What Specmatic 2.55 cannot read as served is rewritten in its copy, and each rewrite is named in the
 * result (SPECMATIC_REWRITES): the comparison says exactly where it is not like for like.
 *
 * `conformance run` is started as a CI gate starts it against a service on a URL: the target's URLs,
 * its user and password (the password from CONFORMANCE_PASSWORD), the second account
 * (CONFORMANCE_OTHER_PASSWORD), --allow-mutations with booking pools of fresh ids for each run (the
 * mock makes any id a booking on first touch: no run meets a booking another one used), the rate
 * bound lifted (--max-rps), every other setting its default for a remote target (4 connections).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_PATHS, OPERATIONS, type Operation } from '../../src/contract/catalogue.js';
import { requestFor } from '../../src/bindings/endpoint.js';
import { rowKind } from '../../src/core/rows.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/index.js';
import { mockTarget, ROOT, runChild, stat, type Stat } from './common.js';

/** One command, start to exit. */
export interface Timed {
  readonly wallMs: number;
  /** CPU of the process and every process it waited for, where GNU time is there to say. */
  readonly cpuMs?: number;
  readonly code: number | null;
}

/**
 * What the WSDL copy Specmatic reads changes, and why: each is a construct Specmatic 2.55's WSDL
 * reader refuses (its message quoted), replaced by the nearest one it reads. Only the schema it
 * checks answers against changes; the requests it sends are our run's, byte for byte.
 */
export const SPECMATIC_REWRITES: readonly { readonly from: RegExp; readonly to: string; readonly why: string }[] = [
  {
    from: /<xs:list itemType="xs:int"\/>/g,
    to: '<xs:restriction base="xs:string"/>',
    why:
      'xs:list (IntList, paymentMethods): "Could not find type for node <xs:simpleType '
      + 'name=\\"IntList\\">"; read as xs:string',
  },
  {
    from: /type="xs:anyType"/g,
    to: 'type="tns:SpecmaticAnyElements"',
    why:
      'xs:anyType (ErrorAttributes, fee, label): "Couldn\'t find a node named complexType with attribute '
      + 'name=\\"anyType\\""; read as a sequence of any elements (no text)',
  },
  {
    from: /(<\/xs:schema>)/g,
    to:
      '<xs:complexType name="SpecmaticAnyElements"><xs:sequence><xs:any processContents="lax" '
      + 'minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>$1',
    why: 'the type the xs:anyType rewrite names, added to the schema',
  },
  {
    from: /<xs:complexType name="(\w+)" mixed="true">(\s*<xs:annotation>[\s\S]*?<\/xs:annotation>)?\s*<xs:sequence>\s*<xs:any [^>]*\/>\s*<\/xs:sequence>((?:\s*<xs:attribute [^>]*\/>)*)(\s*<xs:anyAttribute[\s\S]*?<\/xs:anyAttribute>)?/g,
    to:
      '<xs:complexType name="$1">$2<xs:simpleContent><xs:extension '
      + 'base="xs:string">$3</xs:extension></xs:simpleContent>',
    why:
      'mixed content of any elements (CancellationFee, TransferRate: a number with a currency): '
      + '"Couldn\'t read value 162.00 as type (xml-wildcard ##any)"; read as text with its attributes (any '
      + 'attribute dropped)',
  },
  {
    from: /type="xs:dateTime"/g,
    to: 'type="xs:string"',
    why:
      'xs:dateTime without a zone (the contract\'s "2027-03-05T00:00:00"): "Error while parsing the '
      + 'dateTime as per RFC 3339"; read as xs:string',
  },
  {
    from: /<xs:choice>\s*<xs:sequence>\s*<xs:element name="Error" type="tns:ErrorObject"\/>\s*<xs:any [^>]*\/>\s*<\/xs:sequence>/g,
    to: '<xs:choice>',
    why:
      'xs:choice of an in-band Error or the result (BaseResult, section 2.5): Specmatic reads its first '
      + 'branch only ("Specification expected Error but example contained Code"); the copy keeps the '
      + "result's branch, so an in-band rejection would fail there",
  },
];

/**
 * The environment Specmatic runs with: the SOAPAction quoted as SOAP 1.1 writes it (the mock refuses it bare),
 * generated tests off.
 */
export const SPECMATIC_ENV: Readonly<Record<string, string>> = {
  // Without it Specmatic 2.55 sends `SOAPAction: http://...` (unquoted), which the mock refuses
  // (500 "SOAPAction ... does not match the operation"), as SOAP 1.1's quoted-string asks.
  SPECMATIC_ESCAPE_SOAP_ACTION: 'true',
  // One test per example; without examples Specmatic draws every combination of optional elements
  // (8,348 tests for these 14 operations, 8,192 of them SearchTransfers'), none with valid credentials.
  SPECMATIC_GENERATIVE_TESTS: 'false',
};

/** The WSDL of each SOAP service path the mock serves, fetched as a client would (`?WSDL`). */
async function fetchWsdls(url: string): Promise<{ name: string; path: string; text: string; ops: Operation[] }[]> {
  const paths = [...new Set(OPERATIONS.map((op) => DEFAULT_PATHS[op.group].soap))];
  return Promise.all(
    paths.map(async (path) => {
      const res = await fetch(`${url}${path}?WSDL`);
      if (!res.ok) throw new Error(`GET ${path}?WSDL: HTTP ${res.status}`);
      const name = path
        .split('/')
        .pop()!
        .replace(/\.asmx$/i, '');
      return {
        name,
        path,
        text: await res.text(),
        ops: OPERATIONS.filter((op) => DEFAULT_PATHS[op.group].soap === path),
      };
    }),
  );
}

/**
 * A case's parameters with every booking it names replaced by booking number n, which no other call
 * names: the mock makes any id a booking on first touch, so a call never meets a booking an earlier
 * one cancelled (the first hand-written cases all name BK-100234, which CancelBooking cancels).
 */
export function withFreshBooking(params: Readonly<Record<string, string>>, n: number): Record<string, string> {
  const out = { ...params };
  if (out.bookingID !== undefined) out.bookingID = `BK-${n}`;
  if (out.bookingId !== undefined) out.bookingId = String(n);
  if (out.transferBookingID !== undefined) out.transferBookingID = `TR-${n}`;
  return out;
}

/** Specmatic's working directory, written once: each WSDL the mock serves, rewritten (SPECMATIC_REWRITES). */
export async function prepareSpecmatic(
  url: string,
  dir: string,
): Promise<{
  wsdls: { file: string; name: string; path: string; ops: string[] }[];
  rewritten: Record<string, number>;
}> {
  const rewritten: Record<string, number> = {};
  const wsdls = [];
  for (const w of await fetchWsdls(url)) {
    let text = w.text;
    for (const r of SPECMATIC_REWRITES) {
      rewritten[r.why] = (rewritten[r.why] ?? 0) + (text.match(r.from)?.length ?? 0);
      text = text.replace(r.from, r.to);
    }
    writeFileSync(join(dir, `${w.name}.wsdl`), text);
    wsdls.push({ file: `${w.name}.wsdl`, name: w.name, path: w.path, ops: w.ops.map((op) => op.name) });
  }
  return { wsdls, rewritten };
}

/**
 * The examples of Specmatic's run k, beside each WSDL in `<name>_examples/`: one per operation, the
 * SOAP 1.1 request of our first hand-written case (the target's credentials in it), its bookings
 * fresh. Specmatic refuses an example without the answer's body: the body is the mock's answer to
 * the same request on yet another fresh booking (the same shape; the request itself is sent first
 * by Specmatic, as a test must).
 */
export async function writeExamples(
  url: string,
  dir: string,
  wsdls: Awaited<ReturnType<typeof prepareSpecmatic>>['wsdls'],
  k: number,
): Promise<number> {
  const target = mockTarget(url);
  const cases = loadFixtureCases();
  let examples = 0;
  for (const w of wsdls) {
    const exDir = join(dir, `${w.name}_examples`);
    rmSync(exDir, { recursive: true, force: true });
    mkdirSync(exDir, { recursive: true });
    for (const name of w.ops) {
      const op = OPERATIONS.find((o) => o.name === name)!;
      const params = { ...cases.get(op.name)?.[0]?.params, userName: DEFAULT_USER, password: DEFAULT_PASSWORD };
      const n = 5_000_000 + k * 100 + examples * 2;
      const req = requestFor(target, op, 'soap11', withFreshBooking(params, n));
      const shape = requestFor(target, op, 'soap11', withFreshBooking(params, n + 1));
      const res = await fetch(shape.url, { method: 'POST', headers: shape.headers, body: shape.body });
      const example = {
        'http-request': {
          method: 'POST',
          path: w.path,
          headers: { SOAPAction: req.headers.soapaction, 'Content-Type': 'text/xml' },
          body: req.body,
        },
        'http-response': { status: res.status, headers: { 'Content-Type': 'text/xml' }, body: await res.text() },
      };
      writeFileSync(join(exDir, `${op.name}.json`), `${JSON.stringify(example, null, 2)}\n`);
      examples++;
    }
  }
  return examples;
}

/**
 * One process, start to exit, its output kept; with GNU time (/usr/bin/time) also the CPU seconds of
 * it and every process it waited for (the JVM's threads, our validator processes): on a loaded
 * machine the wall times of both sides stretch, their CPU times much less.
 */
function timed(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Timed & { out: string }> {
  const cpuFile = join(tmpdir(), `bench-specmatic-cpu-${process.pid}`);
  const gnuTime = existsSync('/usr/bin/time');
  const [file, argv] = gnuTime ? ['/usr/bin/time', ['-o', cpuFile, '-f', '%U %S', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t;
      let cpuMs: number | undefined;
      if (gnuTime) {
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
        cpuMs = ((user ?? NaN) + (sys ?? NaN)) * 1000;
        rmSync(cpuFile, { force: true });
      }
      resolve({ wallMs, code, out, ...(cpuMs !== undefined ? { cpuMs } : {}) });
    });
  });
}

/** Specmatic's own count of its tests, from the line it ends with. */
export function specmaticCounts(out: string): { tests: number; passed: number; failed: number } | undefined {
  const m = /Tests run: (\d+), Successes: (\d+), Failures: (\d+)/.exec(out);
  return m ? { tests: Number(m[1]), passed: Number(m[2]), failed: Number(m[3]) } : undefined;
}

/**
 * Booking pools of ids no earlier run used: run k takes the block k (the mock makes any id a booking on first touch).
 */
export function freshPools(k: number, n = 120): object {
  const base = 1_000_000 + k * 10_000;
  const range = (f: (i: number) => string | object) => Array.from({ length: n }, (_, i) => f(i));
  return {
    cancel: range((i) => `BK-${base + i}`),
    amend: range((i) => `BK-${base + 5_000 + i}`),
    specialRequest: range((i) => String(base + i)),
    transfers: range((i) => ({ id: `TR-${base + i}`, email: `guest${k}-${Math.floor(i / 2)}@example.com` })),
  };
}

/** The exchanges and checks of the run whose conformance.json is in dir. */
function made(dir: string): { exchanges: number; checks: number; failed: number } {
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
    summary: { total: number; failed: number };
    results: { check: string }[];
  };
  return {
    exchanges: report.results.filter((r) => rowKind(r) === 'exchange').length,
    checks: report.summary.total,
    failed: report.summary.failed,
  };
}

/** The arguments of `conformance run` as a CI gate gives them against the service at url. */
export function conformanceArgs(url: string, bookings: string, reportDir: string): string[] {
  return [
    join(ROOT, 'bin', 'conformance.js'),
    'run',
    '--book-url',
    url,
    '--search-url',
    url,
    '--transfers-url',
    url,
    '--user',
    DEFAULT_USER,
    '--other-user',
    DEFAULT_OTHER_USER,
    '--allow-mutations',
    '--bookings',
    bookings,
    '--max-rps',
    '100000',
    '--quiet',
    '--report-dir',
    reportDir,
  ];
}

async function compare(url: string, jar: string, runs: number): Promise<Compared & Record<string, unknown>> {
  const work = mkdtempSync(join(tmpdir(), 'bench-specmatic-'));
  try {
    const sm = join(work, 'specmatic');
    mkdirSync(sm);
    const prepared = await prepareSpecmatic(url, sm);
    const specmatic: Timed[] = [];
    const conformance: Timed[] = [];
    let smCounts: ReturnType<typeof specmaticCounts>;
    let ours: ReturnType<typeof made> | undefined;
    const credentials = { CONFORMANCE_PASSWORD: DEFAULT_PASSWORD, CONFORMANCE_OTHER_PASSWORD: DEFAULT_OTHER_PASSWORD };
    let examples = 0;
    const runSpecmatic = async (k: number) => {
      examples = await writeExamples(url, sm, prepared.wsdls, k);
      return timed(
        'java',
        ['-jar', jar, 'test', ...prepared.wsdls.map((w) => w.file), `--testBaseURL=${url}`],
        sm,
        SPECMATIC_ENV,
      );
    };
    const runOurs = (k: number) => {
      const pools = join(work, `pools-${k}.json`);
      writeFileSync(pools, JSON.stringify(freshPools(k)));
      return timed(process.execPath, conformanceArgs(url, pools, join(work, 'reports')), ROOT, credentials);
    };
    // One warm-up each (the JVM's class data, the source cache, the schema cache), then alternated.
    const warm = await runSpecmatic(0);
    if (!specmaticCounts(warm.out))
      throw new Error(`Specmatic printed no "Tests run" line (exit ${warm.code}): ${warm.out.slice(-2000)}`);
    const warmOurs = await runOurs(0);
    if (warmOurs.code !== 0 && warmOurs.code !== 1)
      throw new Error(`conformance run exited ${warmOurs.code}: ${warmOurs.out.slice(-2000)}`);
    for (let i = 1; i <= runs; i++) {
      const s = await runSpecmatic(i);
      smCounts = specmaticCounts(s.out);
      specmatic.push({ wallMs: s.wallMs, cpuMs: s.cpuMs, code: s.code });
      const c = await runOurs(i);
      conformance.push({ wallMs: c.wallMs, cpuMs: c.cpuMs, code: c.code });
      ours = made(join(work, 'reports'));
    }
    return {
      specmatic,
      conformance,
      specmaticTests: smCounts,
      specmaticExamples: examples,
      conformanceMade: ours,
      rewritten: prepared.rewritten,
      env: SPECMATIC_ENV,
      conformanceArgs: conformanceArgs('URL', 'POOLS', 'DIR').slice(1),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- the section in scripts/bench.ts ------------------------------------------------------------

interface Compared {
  specmatic: Timed[];
  conformance: Timed[];
  specmaticTests?: { tests: number; passed: number; failed: number };
  specmaticExamples: number;
  conformanceMade?: { exchanges: number; checks: number; failed: number };
  rewritten: Record<string, number>;
}

/** Where to get the jar, said when it is missing. */
export const SPECMATIC_HOWTO =
  'npm install --prefix /work/tools/specmatic specmatic (not a dependency of this package), '
  + 'then SPECMATIC_JAR=/work/tools/specmatic/node_modules/specmatic/specmatic.jar or --specmatic PATH; '
  + 'Java 17 on the PATH';

/** Section 13: the comparison in a child (the mock in a process of its own), its rows added to the table. */
export async function specmaticSection(o: {
  jar: string | undefined;
  runs: number;
  log: (s: string) => void;
  raw: Record<string, unknown>;
  add: (r: {
    section: string;
    what: string;
    unit: string;
    value: Stat | number | string;
    goal?: string;
    met?: boolean;
  }) => void;
  withMock: <T>(f: (url: string) => Promise<T>) => Promise<T>;
}): Promise<void> {
  const section = '13 specmatic';
  if (!o.jar || !existsSync(o.jar)) {
    const why = o.jar
      ? `no file at ${o.jar} (${process.env.SPECMATIC_JAR === o.jar ? 'SPECMATIC_JAR' : '--specmatic'})`
      : 'neither SPECMATIC_JAR nor --specmatic is set';
    o.log(`13 specmatic: skipped: ${why}; to get it: ${SPECMATIC_HOWTO}`);
    o.add({ section, what: `skipped: ${why}; ${SPECMATIC_HOWTO}`, unit: '', value: '' });
    return;
  }
  const jar = o.jar;
  o.log(`13 specmatic: Specmatic (${jar}) and conformance run against the mock, ${o.runs} runs each, alternated`);
  const c = await o.withMock((url) =>
    runChild<Compared>('./specmatic.ts', ['compare', url, jar, String(o.runs)], [], 1_800_000),
  );
  o.raw.specmatic = c;
  const s = stat(c.specmatic.map((x) => x.wallMs / 1000));
  const ours = stat(c.conformance.map((x) => x.wallMs / 1000));
  const t = c.specmaticTests;
  const m = c.conformanceMade;
  const exits = (xs: Timed[]) => [...new Set(xs.map((x) => x.code))].join(',');
  o.add({
    section,
    what:
      `Specmatic: ${t ? `${t.tests} SOAP 1.1 tests (${t.passed} passed)` : 'no count'}, ${c.specmaticExamples} `
      + `examples, start → exit, exit ${exits(c.specmatic)}`,
    unit: 's',
    value: s,
  });
  o.add({
    section,
    what:
      `conformance run, pools + --allow-mutations + second `
      + `account: ${m ? `${m.exchanges} exchanges, ${m.checks} checks (${m.failed} failed)` : ''}, `
      + `exit ${exits(c.conformance)}`,
    unit: 's',
    value: ours,
  });
  const ratio = ours.median / s.median;
  o.add({
    section,
    what: 'conformance run ÷ Specmatic (medians)',
    unit: '×',
    value: ratio,
    goal: '≤ 0.4',
    met: ratio <= 0.4,
  });
  o.add({
    section,
    what: '  the same, pair by pair',
    unit: '×',
    value: stat(c.conformance.map((x, i) => x.wallMs / c.specmatic[i]!.wallMs)),
  });
  if (c.specmatic.every((x) => x.cpuMs !== undefined) && c.conformance.every((x) => x.cpuMs !== undefined)) {
    const sc = stat(c.specmatic.map((x) => x.cpuMs! / 1000));
    const oc = stat(c.conformance.map((x) => x.cpuMs! / 1000));
    o.add({ section, what: '  CPU, every process: Specmatic (the JVM)', unit: 's', value: sc });
    o.add({
      section,
      what: '  CPU, every process: conformance run (with its validator processes)',
      unit: 's',
      value: oc,
    });
    o.add({ section, what: '  CPU, conformance run ÷ Specmatic (medians)', unit: '×', value: oc.median / sc.median });
  }
  o.add({
    section,
    what:
      `load average (1 min) ${loadavg()[0]!.toFixed(1)} at the end, ${availableParallelism()} cores: wall `
      + `times stretch under load, CPU times less`,
    unit: '',
    value: '',
  });
  for (const [why, n] of Object.entries(c.rewritten))
    o.add({ section, what: `  Specmatic's WSDL copy: ${why} (${n}×)`, unit: '', value: '' });
}

const [cmd, ...args] = process.argv.slice(2);
// A command only when started as a bench child, not when scripts/bench.ts imports the section.
const started = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (started && cmd === 'compare') {
  process.stdout.write(`${JSON.stringify(await compare(args[0]!, args[1]!, Number(args[2] ?? '5')))}\n`);
} else if (started && cmd === 'prepare') {
  // For a look by hand: `tsx scripts/bench/specmatic.ts prepare URL DIR`, then run Specmatic in DIR
  // with SPECMATIC_ENV: `java -jar JAR test Booking.wsdl NonStaticXMLAPI.wsdl --testBaseURL=URL`.
  const prepared = await prepareSpecmatic(args[0]!, args[1]!);
  process.stdout.write(
    `${JSON.stringify({ ...prepared, examples: await writeExamples(args[0]!, args[1]!, prepared.wsdls, Date.now() % 10_000) })}\n`,
  );
}
