/**
 * Helpers of the harness's self-tests: a self-signed certificate made with openssl, running the CLI
 * as a child process with a time limit, reading every written file, measuring memory after GC, and
 * finding a secret in every form it could be spelled in.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(REPO_ROOT, 'bin', 'conformance.js');

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `conformance-${prefix}-`));
}

/** A self-signed certificate for 127.0.0.1, generated now with /usr/bin/openssl into `dir`. */
export function selfSignedCert(dir: string): { key: Buffer; cert: Buffer } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    '/usr/bin/openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore', timeout: 20_000 },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Peak resident memory of the command and every process it started, summed (sampled every 50 ms; Linux /proc). */
  readonly peakTreeRss: number;
  /**
   * Peak resident memory of the largest single process of the run, as the kernel reports it (VmHWM,
   * the high-water mark: a peak between two samples counts too), with its command; what GNU time's
   * "Maximum resident set size" reports (issue 43). 0 where /proc cannot tell.
   */
  readonly peakProcessRss: number;
  readonly peakProcess: string;
}

/** Each process of the tree under `pid` (itself included) with its /proc status text, skipping those gone meanwhile. */
function* treeStatus(pid: number): Generator<{ pid: number; status: string }> {
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    let status: string;
    const children: number[] = [];
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
      for (const t of readdirSync(`/proc/${p}/task`)) {
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/))
          if (c) children.push(Number(c));
      }
    } catch {
      continue; /* gone meanwhile */
    }
    yield { pid: p, status };
    stack.push(...children);
  }
}

const kbOf = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;

/** Each process of the tree under `pid` with its peak resident memory so far (VmHWM) and its command line. */
export function treePeaks(pid: number): { pid: number; hwm: number; command: string }[] {
  const out: { pid: number; hwm: number; command: string }[] = [];
  for (const { pid: p, status } of treeStatus(pid)) {
    let command = '';
    try {
      command = readFileSync(`/proc/${p}/cmdline`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((a) => a.split('/').pop())
        .slice(0, 2)
        .join(' ');
    } catch {
      /* gone meanwhile */
    }
    out.push({ pid: p, hwm: kbOf(status, 'VmHWM'), command });
  }
  return out;
}

/** Resident memory of a process and all its descendants, in bytes (0 where /proc cannot tell). */
export function treeRss(pid: number): number {
  let total = 0;
  for (const { status } of treeStatus(pid)) total += kbOf(status, 'VmRSS');
  return total;
}

/**
 * Run `node bin/conformance.js ...args` with exactly `env` (plus PATH and HOME), killed after
 * `timeoutMs`. CONFORMANCE_* variables of the test process are not inherited.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let peakTreeRss = 0;
    let peakProcessRss = 0;
    let peakProcess = '';
    const sampler = setInterval(() => {
      if (!child.pid) return;
      peakTreeRss = Math.max(peakTreeRss, treeRss(child.pid));
      for (const p of treePeaks(child.pid))
        if (p.hwm > peakProcessRss) {
          peakProcessRss = p.hwm;
          peakProcess = `${p.pid} ${p.command}`;
        }
    }, 50);
    child.on('error', (e) => {
      clearTimeout(timer);
      clearInterval(sampler);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(sampler);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
        peakTreeRss,
        peakProcessRss,
        peakProcess,
      });
    });
  });
}

/** Every regular file under `dir`, recursively, with its bytes. */
export function readTree(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push({ path: p, bytes: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}

/** Minimal view of conformance.json for assertions. */
export interface ReportRow {
  operation: string;
  binding: string;
  case: string;
  check: string;
  status: string;
  message: string;
  reproduce: string;
  findings: { check: string; code?: string; message: string; path: string }[];
  request?: string;
  response?: string;
}
export interface ReportJson {
  summary: { passed: number; failed: number; skipped: number; known: number; total: number };
  target: Record<string, unknown>;
  results: ReportRow[];
  diagnosis?: { level: string; message: string }[];
  incomplete?: string;
  generation?: { seed: number; examples: number; languagesFrom: string };
}

export function readReport(dir: string): ReportJson {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ReportJson;
}

/** The files a run writes: all must exist and be non-empty. */
export const REPORT_FILES = ['conformance.json', 'junit.xml', 'conformance.md', 'conformance.html'] as const;

let gcFn: (() => void) | undefined;

/** Run a full garbage collection (exposes gc for this process if needed). */
export function gc(): void {
  if (!gcFn) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (g) gcFn = g;
    else {
      setFlagsFromString('--expose-gc');
      gcFn = runInNewContext('gc') as () => void;
    }
  }
  gcFn();
  gcFn();
}

export interface MemoryFigures {
  readonly rss: number;
  readonly heapUsed: number;
  readonly arrayBuffers: number;
  readonly external: number;
}

/** Memory after a full GC. */
export function memoryAfterGc(): MemoryFigures {
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, external: m.external };
}

/** Sample RSS/heap/arrayBuffers every `everyMs` until stopped; returns the peaks. */
export function sampleMemory(everyMs = 10): { stop(): MemoryFigures } {
  const peak = { rss: 0, heapUsed: 0, arrayBuffers: 0, external: 0 };
  const take = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    peak.external = Math.max(peak.external, m.external);
  };
  take();
  const t = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(t);
      take();
      return { ...peak };
    },
  };
}

export const MiB = 1024 * 1024;
export const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;

/**
 * Encodings a secret can pass through (kept apart from src/core/redact.ts: the test must not share the code it tests).
 */
const SPELLERS: readonly [string, (s: string) => string][] = [
  ['url-encoded', encodeURIComponent],
  ['url-encoded (encodeURI)', encodeURI],
  ['url-encoded, lower-case hex', (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  [
    'every byte url-encoded',
    (s) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  ],
  ['form-encoded', (s) => new URLSearchParams({ p: s }).toString().slice(2)],
  ['xml-escaped', (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')],
  [
    'xml-escaped, &quot; &apos;',
    (s) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;'),
  ],
  [
    'html-escaped, &quot; &#39;',
    (s) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;'),
  ],
  [
    'xml-escaped, &#34; &#x27;',
    (s) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&#34;')
        .replace(/'/g, '&#x27;'),
  ],
  ['decimal character references', (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['hex character references', (s) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
  ['json-escaped', (s) => JSON.stringify(s).slice(1, -1)],
  ['json \\u escapes', (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
];

/** The spellings of a secret's bytes read in another encoding than they were written in. */
function misread(secret: string): [string, string][] {
  const le = Buffer.from(secret, 'utf16le');
  const be = Buffer.from(le).swap16();
  const escNul = (t: string) => t.replace(/\u0000/g, '\\u0000');
  return [
    ['UTF-16LE read as UTF-8', le.toString('utf8')],
    ['UTF-16BE read as UTF-8', be.toString('utf8')],
    ['UTF-16LE read as UTF-8, NULs shown as \\u0000', escNul(le.toString('utf8'))],
    ['UTF-16BE read as UTF-8, NULs shown as \\u0000', escNul(be.toString('utf8'))],
    ['Latin-1 bytes read as UTF-8', Buffer.from(secret, 'latin1').toString('utf8')],
    ['UTF-8 bytes read as Latin-1', Buffer.from(secret, 'utf8').toString('latin1')],
    ['UTF-8 bytes read as Windows-1252', new TextDecoder('windows-1252').decode(Buffer.from(secret, 'utf8'))],
  ];
}

/**
 * Every spelling of a secret worth searching for: raw, one or two layers of each encoding,
 * whitespace folded, base64, and its bytes misread (UTF-16 as UTF-8, Latin-1 as UTF-8...).
 */
export function secretSpellings(secret: string): { form: string; text: string }[] {
  const all: [string, string][] = [['raw', secret]];
  for (const [n1, e1] of SPELLERS) {
    const once = e1(secret);
    all.push([n1, once]);
    for (const [n2, e2] of SPELLERS) all.push([`${n1}, then ${n2}`, e2(once)]);
  }
  all.push(['whitespace runs folded', secret.replace(/\s+/g, ' ')]);
  all.push(
    ['base64', Buffer.from(secret, 'utf8').toString('base64')],
    ['base64url', Buffer.from(secret, 'utf8').toString('base64url')],
  );
  all.push(...misread(secret));
  const seen = new Set<string>();
  // A misreading that keeps fewer than 4 characters of the secret finds nothing but noise.
  return all
    .filter(([, t]) => t.replace(/[\u0000\uFFFD]/g, '').length >= Math.min(4, secret.length))
    .filter(([, t]) => (seen.has(t) ? false : (seen.add(t), true)))
    .map(([form, text]) => ({ form, text }));
}

/**
 * Where (name and form) any spelling of `secret` occurs in the given texts/files; also the start
 * (4 characters or more) of the raw or a once-encoded spelling right before a cut ("…").
 */
export function findSecret(secret: string, sources: readonly { name: string; bytes: Buffer | string }[]): string[] {
  const hits: string[] = [];
  const spellings = secretSpellings(secret).map((s) => ({ ...s, bytes: Buffer.from(s.text, 'utf8') }));
  const partials: { form: string; bytes: Buffer }[] = [];
  for (const s of spellings.filter((x) => !x.form.includes(', then '))) {
    for (let k = 4; k < s.text.length; k++) {
      for (const cut of ['…', '\n…'])
        partials.push({
          form: `start (${k} characters) of ${s.form} before a cut`,
          bytes: Buffer.from(s.text.slice(0, k) + cut, 'utf8'),
        });
    }
  }
  for (const src of sources) {
    const buf = typeof src.bytes === 'string' ? Buffer.from(src.bytes, 'utf8') : src.bytes;
    for (const s of spellings) {
      const at = buf.indexOf(s.bytes);
      if (at >= 0) hits.push(`${src.name}: ${s.form} at byte ${at}`);
    }
    if (buf.includes('…')) {
      for (const p of partials) {
        const at = buf.indexOf(p.bytes);
        if (at >= 0) hits.push(`${src.name}: ${p.form} at byte ${at}`);
      }
    }
  }
  return hits;
}
