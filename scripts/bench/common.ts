/**
 * Shared pieces of the benchmark (scripts/bench.ts): statistics, child processes, the reference
 * mock in a process of its own, and the request mix of a real run.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BINDINGS, DEFAULT_NAMESPACES, DEFAULT_PATHS, OPERATIONS } from '../../src/contract/catalogue.js';
import { CHECKS } from '../../src/checks/registry.js';
import type { HttpRequest, Target } from '../../src/core/types.js';
import { loadFixtureCases, type CaseTable } from '../../src/engine/cases.js';
import { planUnits, unitRequests, type RunPlan } from '../../src/engine/plan.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/index.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Median, min and max of repeated measurements. */
export interface Stat {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

export function stat(values: readonly number[]): Stat {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, runs: s.length };
}

/** Percentile (0..100) of a list of numbers, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** A target for a mock listening at `url` (the default credentials and namespaces). */
export function mockTarget(url: string): Target {
  return {
    bookUrl: url,
    searchUrl: url,
    transfersUrl: url,
    paths: DEFAULT_PATHS,
    namespaces: DEFAULT_NAMESPACES,
    user: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
    embedded: true,
  };
}

/** The plan of `conformance run` against the mock: all operations × bindings, every check, negatives, equivalence. */
export function fullPlan(target: Target, cases: CaseTable = loadFixtureCases()): RunPlan {
  return {
    target,
    bindings: BINDINGS,
    operations: OPERATIONS,
    cases,
    allowMutations: false,
    checks: CHECKS,
    negative: true,
    equivalence: true,
  };
}

/** The shipped cases multiplied `factor` times: copies get distinct ids (`<id>-x2`, ...). */
export function multipliedCases(factor: number): CaseTable {
  const base = loadFixtureCases();
  const out = new Map<string, { id: string; description?: string; params: Record<string, string> }[]>();
  for (const [op, cases] of base) {
    const list = [];
    for (let k = 1; k <= factor; k++) for (const c of cases) list.push({ ...c, id: k === 1 ? c.id : `${c.id}-x${k}` });
    out.set(op, list);
  }
  return out;
}

/** Every HTTP request one run of `plan` sends, in unit order (the same encoders and headers as the engine). */
export function requestMix(plan: RunPlan): HttpRequest[] {
  return planUnits(plan).flatMap((unit) => unitRequests(plan, unit).map((r) => r.request));
}

/** Argument list running a TypeScript file of this repository under tsx in a fresh Node process. */
export function tsxArgs(file: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): string[] {
  return [...nodeFlags, '--import', 'tsx', fileURLToPath(new URL(file, import.meta.url)), ...args];
}

/**
 * A bench child compiled as the command runs its sources (esbuild, as bin/source-cache.js builds
 * `npx conformance`; the package's dist/ is tsc's), beside the validator process's module: tsx's
 * transform keeps every function's name (one more call per closure made) and costs the hot loops
 * of a large answer 20-30% more CPU than the code that runs. Written two levels below the root, as
 * .source-cache/'s entries are, so module-relative lookups (../../schemas/) find the same files.
 * Returns the file to start and a function removing the compiled files.
 */
export async function compileChild(file: string): Promise<{ js: string; remove: () => void }> {
  const { build } = await import('esbuild');
  const dir = join(ROOT, 'reports', `bench-compiled-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  await build({
    entryPoints: [
      { out: 'child', in: fileURLToPath(new URL(file, import.meta.url)) },
      { out: 'validator-child', in: join(ROOT, 'src', 'schema', 'validator-child.ts') },
    ],
    outdir: dir,
    bundle: true,
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    tsconfig: join(ROOT, 'tsconfig.json'),
  });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  // Started through a module of its own: a bundled module that asks whether it is the process's
  // main module (src/mock/main.ts) must not find that it is.
  writeFileSync(join(dir, 'start.js'), "await import('./child.js');\n");
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove); // also when a child fails and the bench stops
  return { js: join(dir, 'start.js'), remove };
}

/**
 * Run a bench child (a .ts file next to this one, or a file compileChild() made) and parse the JSON it prints last on
 * stdout.
 */
export function runChild<T>(
  file: string,
  args: readonly string[] = [],
  nodeFlags: readonly string[] = [],
  timeoutMs = 120_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const argv =
      file.endsWith('.js') && isAbsolute(file) ? [...nodeFlags, file, ...args] : tsxArgs(file, args, nodeFlags);
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0)
        return reject(new Error(`${file} ${args.join(' ')} exited with ${code ?? signal}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${file} ${args.join(' ')} printed no JSON result: ${out.slice(-500)} ${err.slice(-1000)}`));
      }
    });
  });
}

export interface MockProcess {
  readonly url: string;
  readonly pid: number;
  /** CPU milliseconds the mock process has used so far. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** The reference mock in a Node process of its own (so it gets its own core, like a real server). */
export function startMockProcess(): Promise<MockProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsxArgs('./mock-child.ts'), {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the mock process did not start within 30 s'));
    }, 30_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the mock process exited with ${code}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const { url } = JSON.parse(line) as { url: string };
      resolve({
        url,
        pid: child.pid!,
        cpuMs: () =>
          new Promise<number>((done) => {
            lines.once('line', (l) => done((JSON.parse(l) as { cpuMs: number }).cpuMs));
            child.stdin.write('usage\n');
          }),
        close: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.stdin.end(); // the child closes the mock and exits when its stdin ends
          }),
      });
    });
  });
}

/** Milliseconds of a synchronous or asynchronous function. */
export async function timed<T>(f: () => T | Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

export const MB = 1024 * 1024;
