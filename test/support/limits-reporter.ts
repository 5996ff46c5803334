/**
 * A vitest reporter that holds every time limit of a test run against what it measured: each test's
 * limit (its own, or the config's testTimeout) beside its duration, each beforeAll/afterAll hook's
 * beside its duration, and the files by duration. The rule (README, issue 24): no limit closer than
 * 5× to its measured duration, so a machine three times slower still passes.
 *
 * It writes `reports/<name>.json` (every row) and prints the five slowest files and the five limits
 * closest to their durations. It reports, never fails the run: a ratio measured on a loaded machine is
 * a figure to read, not a verdict (speed belongs in `npm run bench`).
 *
 * A hook's own limit is not visible to a reporter: where a file gives any hook a numeric limit of its
 * own, the smallest such limit in that file stands for all its hooks (so a ratio is never overstated).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

type HookName = 'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach';
interface Limit {
  readonly kind: 'test' | HookName;
  readonly file: string;
  readonly name: string;
  readonly ms: number;
  readonly limitMs: number;
}

/** The smallest numeric last argument of a hook call in `source` (`beforeAll(async () => {…}, 180_000)`), if any. */
export function explicitHookLimit(source: string): number | undefined {
  let min: number | undefined;
  for (const m of source.matchAll(/\b(?:beforeAll|afterAll|beforeEach|afterEach)\(/g)) {
    // Find the call's closing parenthesis by counting brackets (the tests' hooks hold no unbalanced ones in strings).
    let depth = 0;
    let end = -1;
    for (let i = m.index + m[0].length - 1; i < source.length; i++) {
      const c = source[i];
      if (c === '(' || c === '{' || c === '[') depth++;
      else if (c === ')' || c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          end = i;
          break;
        }
      }
    }
    if (end < 0) continue;
    const last = /,\s*([\d_]+)\s*,?\s*$/.exec(source.slice(m.index, end));
    if (last) {
      const n = Number(last[1]!.replace(/_/g, ''));
      min = min === undefined ? n : Math.min(min, n);
    }
  }
  return min;
}

export default class LimitsReporter implements Reporter {
  readonly #out: string;
  #root = process.cwd();
  #testTimeout = 5_000;
  #hookTimeout = 10_000;
  readonly #rows: Limit[] = [];
  readonly #hookStarts = new Map<string, number>();
  readonly #fileLimits = new Map<string, number | undefined>();

  constructor(options: { outputFile?: string } = {}) {
    this.#out = options.outputFile ?? 'reports/vitest-limits.json';
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#testTimeout = vitest.config.testTimeout;
    this.#hookTimeout = vitest.config.hookTimeout;
  }

  #file(path: string): string {
    return relative(this.#root, path);
  }

  #hookLimit(path: string): number {
    if (!this.#fileLimits.has(path)) {
      let own: number | undefined;
      try {
        own = explicitHookLimit(readFileSync(path, 'utf8'));
      } catch {
        own = undefined;
      }
      this.#fileLimits.set(path, own);
    }
    return this.#fileLimits.get(path) ?? this.#hookTimeout;
  }

  onHookStart(hook: { name: HookName; entity: { id: string } }): void {
    this.#hookStarts.set(`${hook.name} ${hook.entity.id}`, performance.now());
  }

  onHookEnd(hook: {
    name: HookName;
    entity: TestCase | TestModule | { id: string; module: TestModule; fullName: string };
  }): void {
    if (hook.name === 'beforeEach' || hook.name === 'afterEach') return; // counted in their test's duration
    const started = this.#hookStarts.get(`${hook.name} ${hook.entity.id}`);
    if (started === undefined) return;
    const entity = hook.entity as TestModule | { module: TestModule; fullName: string };
    const module = 'moduleId' in entity ? entity : entity.module;
    this.#rows.push({
      kind: hook.name,
      file: this.#file(module.moduleId),
      name: 'fullName' in entity ? entity.fullName : '(file)',
      ms: performance.now() - started,
      limitMs: this.#hookLimit(module.moduleId),
    });
  }

  onTestCaseResult(test: TestCase): void {
    const ms = test.diagnostic()?.duration;
    if (ms === undefined || test.result().state === 'skipped') return;
    this.#rows.push({
      kind: 'test',
      file: this.#file(test.module.moduleId),
      name: test.fullName,
      ms,
      limitMs: test.options.timeout ?? this.#testTimeout,
    });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules
      .map((m) => ({ file: this.#file(m.moduleId), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    const limits = this.#rows
      .filter((r) => r.ms > 0)
      .map((r) => ({ ...r, ratio: r.limitMs / r.ms }))
      .sort((a, b) => a.ratio - b.ratio);
    mkdirSync(dirname(this.#out), { recursive: true });
    writeFileSync(this.#out, `${JSON.stringify({ files, limits }, null, 1)}\n`);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [
      '',
      `Time limits against measured durations (${limits.length} tests and hooks; rule: at least 5×; all `
        + `in ${this.#out}):`,
      ...limits
        .slice(0, 5)
        .map((r) => `  ${r.ratio.toFixed(1)}×  ${s(r.limitMs)} for ${s(r.ms)}  ${r.kind} ${r.file} > ${r.name}`),
      'Slowest files:',
      ...files.slice(0, 5).map((f) => `  ${s(f.ms)}  ${f.file}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
