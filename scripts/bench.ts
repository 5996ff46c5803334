/**
 * `npm run bench`: how close the harness runs to the speed of the wire, and how its cost grows.
 * Prints one table and writes reports/bench.json. Every figure is the median of several runs, with
 * min and max. Each measurement runs in a fresh child process (scripts/bench/*.ts); the mock, where
 * it is a target, runs in a process of its own.
 *
 *   1 floor      raw undici requests/s to the mock, the run's request mix, the harness's concurrency
 *   2 harness    exchanges/s with every check (XSD, shape, equivalence), same target and concurrency
 *   3 full run   `conformance run` against the embedded mock, process start to exit
 *   4 scaling    SearchTransfers responses of about 1, 10 and 50 MB through every check
 *   5 cases      1×, 4×, 16× the request cases; concurrency 1 → core count
 *   6 engine     libxmljs2 against libxml2-wasm on the same bundle schema and documents
 *   7 mock       requests/s and p99 latency at 64 keep-alive connections
 *   8 bounds     hostile answers through `conformance run`: time within --deadline + 15 s, peak memory
 *                of the run ≤ 1 GiB, reports ≤ 50 MB, no password; one unit at the body cap; redaction
 *   9 generation what generated cases cost: full runs at --examples 0, the default and 16, alternated;
 *                per example (one parameter set of one operation on every binding), and drawing alone
 *
 *  11 large readers  one exchange of a 10 MB and a 50 MB answer as the engine checks it (libxml2 in
 *                the validator process, tree, every check, the comparison's digests), by the reader
 *                before issue 35 (fast-xml-parser, tree after libxml2) and after it (the one-pass
 *                reader, tree built while libxml2 reads), each in its own process (compiled with
 *                esbuild as the command runs its sources), same call; wall and CPU MB/s, load average
 *
 *  12 busy     issue 43: the default full run with pools and mutations against the mock in a process
 *                of its own answering at once (4 connections, rate bound lifted): engine time against
 *                the sum of its exchanges' durations ÷ the connections (scripts/bench/busy.ts)
 *  13 specmatic  `conformance run` as a CI gate runs it (pools, --allow-mutations, the second account,
 *                rate bound lifted) beside Specmatic's 14 SOAP 1.1 tests from the mock's WSDLs, the same
 *                mock in its own process, start to exit, alternated (scripts/bench/specmatic.ts); needs
 *                the jar: SPECMATIC_JAR or --specmatic PATH (skipped, saying how to get it, without)
 *
 *  10 start to exit  the embedded run (`conformance run --report-dir` on tmpfs) and `npm test`, each
 *                process start to exit, beside the same commands of a baseline commit checked out
 *                in a temporary worktree, measured in the same call, runs alternated (A B A B ...)
 *
 * Options: --sections 1,2,... (default 1-9, 11 and 12: sections 10 and 13 only when named), --out FILE (default
 * reports/bench.json); for section 10: --baseline REF (default HEAD~1, the previous commit), --runs N (default 5, each
 * command), --start run,test (default both; `npm test` takes minutes a run). No timed assertion anywhere: goals are
 * reported as met or missed, never fail the command.
 */
import { rowKind } from '../src/core/rows.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  compileChild,
  MB,
  ROOT,
  runChild,
  startMockProcess,
  stat,
  type MockProcess,
  type Stat,
} from './bench/common.js';

const { values: flags } = parseArgs({
  options: {
    sections: { type: 'string' },
    out: { type: 'string' },
    baseline: { type: 'string' },
    runs: { type: 'string' },
    start: { type: 'string' },
    specmatic: { type: 'string' },
  },
});
// Section 10 runs `npm test` ten times (about half an hour): only when named.
const sections = new Set((flags.sections ?? '1,2,3,4,5,6,7,8,9,11,12').split(',').map((s) => s.trim()));
const outFile = flags.out ?? join(ROOT, 'reports', 'bench.json');
const CORES = availableParallelism();
const CONCURRENCY = 16; // `conformance run` against the mock (docs/cli.md: --concurrency default)
const SIZES = [1, 10, 50];

interface Row {
  readonly section: string;
  readonly what: string;
  readonly unit: string;
  readonly value: Stat | number | string;
  readonly goal?: string;
  readonly met?: boolean;
}
const rows: Row[] = [];
const raw: Record<string, unknown> = {};
const add = (r: Row) => {
  rows.push(r);
};
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const scale = (s: Stat, f: number): Stat => ({ median: s.median * f, min: s.min * f, max: s.max * f, runs: s.runs });

const tmp = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
const started = performance.now();
const loadBefore = loadavg()[0]!;

async function withMock<T>(f: (url: string, mock: MockProcess) => Promise<T>): Promise<T> {
  const mock = await startMockProcess();
  try {
    return await f(mock.url, mock);
  } finally {
    await mock.close();
  }
}

// ---- 1, 2, 7: rates against the mock in its own process ---------------------------------------

interface Floor {
  requestsPerRepetition: number;
  mixSize: number;
  rps: number[];
  cpuMsPerRequest: number[];
}
interface Harness {
  exchangesPerRun: number;
  checksPerRun: number;
  failed: number;
  eps: number[];
  cpuMsPerExchange: number[];
}
interface MockLoad {
  connections: number;
  warmupRequests: number;
  reps: { rps: number; p50: number; p99: number; requests: number }[];
}
interface Cases {
  factor: number;
  concurrency: number;
  ms: number[];
  cpuMs: number[];
  exchanges: number;
  checks: number;
  failed: number;
}

if (sections.has('1') || sections.has('2') || sections.has('5') || sections.has('7')) {
  await withMock(async (url, mock) => {
    let floorRps: Stat | undefined;
    if (sections.has('1') || sections.has('2')) {
      log('1 floor: raw undici requests to the mock');
      const floor = await runChild<Floor>('./throughput.ts', ['floor', url, String(CONCURRENCY), '5']);
      raw.floor = floor;
      floorRps = stat(floor.rps);
      add({
        section: '1 floor',
        what: `raw undici → mock, c=${CONCURRENCY}, a run's ${floor.mixSize} requests, no checks`,
        unit: 'req/s',
        value: floorRps,
      });
      add({ section: '1 floor', what: '  client CPU per request', unit: 'ms', value: stat(floor.cpuMsPerRequest) });
    }
    if (sections.has('2')) {
      log('2 harness: every check on');
      const h = await runChild<Harness>('./throughput.ts', ['harness', url, String(CONCURRENCY), '5']);
      raw.harness = h;
      const eps = stat(h.eps);
      add({
        section: '2 harness',
        what: `every check + equivalence + negatives, libxmljs2, c=${CONCURRENCY}`,
        unit: 'exch/s',
        value: eps,
      });
      add({ section: '2 harness', what: '  harness CPU per exchange', unit: 'ms', value: stat(h.cpuMsPerExchange) });
      const ratio = (eps.median / floorRps!.median) * 100;
      add({ section: '2 harness', what: 'harness / floor', unit: '%', value: ratio, goal: '≥ 60 %', met: ratio >= 60 });
      log('2 harness: the same with the libxml2-wasm prototype validator');
      const w = await runChild<Harness>('./throughput.ts', ['harness', url, String(CONCURRENCY), '5', 'wasm']);
      raw.harnessWasm = w;
      const weps = stat(w.eps);
      add({
        section: '2 harness',
        what: 'the same, libxml2-wasm validator (bench prototype)',
        unit: 'exch/s',
        value: weps,
      });
      add({ section: '2 harness', what: '  harness CPU per exchange', unit: 'ms', value: stat(w.cpuMsPerExchange) });
      add({
        section: '2 harness',
        what: 'harness (libxml2-wasm) / floor',
        unit: '%',
        value: (weps.median / floorRps!.median) * 100,
        goal: '≥ 60 %',
        met: weps.median / floorRps!.median >= 0.6,
      });
      if (h.failed || w.failed)
        add({
          section: '2 harness',
          what: 'failed checks in those runs (should be 0)',
          unit: '',
          value: `${h.failed} / ${w.failed}`,
        });
    }
    if (sections.has('5')) {
      const byFactor: Cases[] = [];
      for (const factor of [1, 4, 16]) {
        log(`5 cases: ${factor}× the request cases`);
        byFactor.push(
          await runChild<Cases>(
            './throughput.ts',
            ['cases', url, String(CONCURRENCY), String(factor), '3'],
            [],
            300_000,
          ),
        );
      }
      raw.cases = byFactor;
      for (const c of byFactor) {
        add({
          section: '5 cases',
          what: `${c.factor}× cases: ${c.exchanges} exchanges, ${c.checks} checks, c=${CONCURRENCY}`,
          unit: 's',
          value: scale(stat(c.ms), 1 / 1000),
        });
      }
      const per = byFactor.map((c) => stat(c.ms).median / c.exchanges);
      const cpuPer = byFactor.map((c) => stat(c.cpuMs).median / c.exchanges);
      // Only the valid cases are multiplied: 1× is half negative cases (rejected, no XSD), so its
      // per-exchange cost is lower; linearity is read from 4× → 16×, where valid cases dominate.
      const growth =
        stat(byFactor[2]!.ms).median / stat(byFactor[1]!.ms).median / (byFactor[2]!.exchanges / byFactor[1]!.exchanges);
      const cpuGrowth = cpuPer[2]! / cpuPer[1]!;
      const marginal =
        (stat(byFactor[2]!.ms).median - stat(byFactor[1]!.ms).median)
        / (byFactor[2]!.exchanges - byFactor[1]!.exchanges);
      add({
        section: '5 cases',
        what: 'wall ms per exchange, 1× / 4× / 16×',
        unit: 'ms',
        value: per.map((x) => x.toFixed(2)).join(' / '),
      });
      add({
        section: '5 cases',
        what: 'harness CPU ms per exchange, 1× / 4× / 16×',
        unit: 'ms',
        value: cpuPer.map((x) => x.toFixed(2)).join(' / '),
      });
      add({ section: '5 cases', what: '  wall ms per exchange added from 4× to 16×', unit: 'ms', value: marginal });
      add({
        section: '5 cases',
        what: 'wall time growth 4× → 16× ÷ exchange growth (1.00 = linear)',
        unit: '×',
        value: growth,
        goal: 'linear (≤ 1.2)',
        met: growth <= 1.2,
      });
      add({
        section: '5 cases',
        what: 'CPU time growth 4× → 16× ÷ exchange growth (1.00 = linear)',
        unit: '×',
        value: cpuGrowth,
        goal: 'linear (≤ 1.2)',
        met: cpuGrowth <= 1.2,
      });
      const conc: Cases[] = [];
      for (const c of [1, CORES]) {
        log(`5 cases: concurrency ${c}`);
        conc.push(await runChild<Cases>('./throughput.ts', ['cases', url, String(c), '4', '3'], [], 300_000));
      }
      raw.concurrency = conc;
      for (const c of conc) {
        add({
          section: '5 cases',
          what: `4× cases at concurrency ${c.concurrency} (harness CPU ${(stat(c.cpuMs).median / 1000).toFixed(2)} s)`,
          unit: 's',
          value: scale(stat(c.ms), 1 / 1000),
        });
      }
      const c16 = byFactor[1]!;
      add({
        section: '5 cases',
        what: `speed-up concurrency 1 → ${CORES} (cores) / → ${CONCURRENCY}`,
        unit: '×',
        value:
          `${(stat(conc[0]!.ms).median / stat(conc[1]!.ms).median).toFixed(2)} `
          + `/ ${(stat(conc[0]!.ms).median / stat(c16.ms).median).toFixed(2)}`,
      });
    }
    if (sections.has('7')) {
      for (const fresh of [false, true]) {
        log(`7 mock: 64 keep-alive connections${fresh ? ', every request unique' : ''}`);
        const cpu0 = await mock.cpuMs();
        const m = await runChild<MockLoad>('./throughput.ts', ['mock', url, '64', '3', ...(fresh ? ['unique'] : [])]);
        const mockCpuPerRequest =
          ((await mock.cpuMs()) - cpu0) / (m.reps.reduce((n, r) => n + r.requests, 0) + m.warmupRequests);
        raw[fresh ? 'mockUnique' : 'mock'] = { ...m, mockCpuPerRequest };
        const rps = stat(m.reps.map((r) => r.rps));
        const mixName = fresh
          ? "a run's mix, every request unique (answer memo never hits)"
          : "a run's mix (repeats: answers from the memo)";
        add({
          section: '7 mock',
          what: `requests/s, 64 keep-alive connections, ${mixName}`,
          unit: 'req/s',
          value: rps,
          goal: '≥ 5,000',
          met: rps.median >= 5000,
        });
        add({
          section: '7 mock',
          what: '  latency p50 at 64 connections',
          unit: 'ms',
          value: stat(m.reps.map((r) => r.p50)),
        });
        add({
          section: '7 mock',
          what: '  latency p99 at 64 connections',
          unit: 'ms',
          value: stat(m.reps.map((r) => r.p99)),
        });
        add({ section: '7 mock', what: '  mock CPU per request', unit: 'ms', value: mockCpuPerRequest });
      }
    }
  });
}

// ---- 3: the full run, process start to exit -----------------------------------------------------

const USAGE_HOOK = pathToFileURL(join(ROOT, 'scripts', 'bench', 'exit-usage.mjs')).href;

/** One `conformance run` process, start to exit: wall ms, and the CPU ms and peak RSS it reports at exit. */
function fullRun(
  dir: string,
  extra: readonly string[] = [],
): Promise<{ wallMs: number; cpuMs: number; maxRssKB: number; engineMs: number }> {
  const usageFile = join(tmp, 'usage.json');
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', USAGE_HOOK, join(ROOT, 'bin', 'conformance.js'), 'run', '--quiet', '--report-dir', dir, ...extra],
      { cwd: ROOT, stdio: 'ignore', env: { ...process.env, BENCH_USAGE_FILE: usageFile } },
    );
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t;
      if (code !== 0 && code !== 1) return reject(new Error(`conformance run exited with ${code}`));
      const u = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuMs: number; maxRssKB: number };
      const engineMs = (JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { durationMs: number })
        .durationMs;
      resolve({ wallMs, cpuMs: u.cpuMs, maxRssKB: u.maxRssKB, engineMs });
    });
  });
}

interface Made {
  exchanges: number;
  checks: number;
  failed: number;
}

/** The exchanges and checks of the run whose conformance.json is in dir; undefined when there is none to read. */
function madeIn(dir: string): Made | undefined {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
      summary: { total: number; failed: number };
      results: { check: string }[];
    };
    return {
      exchanges: report.results.filter((r) => rowKind(r) === 'exchange').length,
      checks: report.summary.total,
      failed: report.summary.failed,
    };
  } catch {
    return undefined;
  }
}

if (sections.has('3')) {
  const places: [string, string][] = [['on disk (tmp dir)', join(tmp, 'full-run')]];
  if (existsSync('/dev/shm')) places.push(['on tmpfs (/dev/shm)', mkdtempSync(join('/dev/shm', 'conformance-bench-'))]);
  for (const [where, dir] of places) {
    log(`3 full run: node bin/conformance.js run --quiet (embedded mock), reports in ${where}`);
    await fullRun(dir); // warm-up: tsx's transform cache, the schema cache
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await fullRun(dir));
    const { exchanges, checks, failed } = madeIn(dir)!;
    const wall = scale(stat(runs.map((r) => r.wallMs)), 1 / 1000);
    (raw.fullRun as unknown[] | undefined) ?? (raw.fullRun = []);
    (raw.fullRun as unknown[]).push({ where, runs, exchanges, checks, failed });
    add({
      section: '3 full run',
      what: `conformance run, start → exit, reports ${where}`,
      unit: 's',
      value: wall,
      goal: '< 2.5 s',
      met: wall.median < 2.5,
    });
    add({
      section: '3 full run',
      what: `  made ${exchanges} exchanges, ${checks} checks (${failed} failed)`,
      unit: '',
      value: '',
    });
    add({
      section: '3 full run',
      what: '  CPU time, all threads',
      unit: 's',
      value: scale(stat(runs.map((r) => r.cpuMs)), 1 / 1000),
    });
    add({
      section: '3 full run',
      what: '  engine part (durationMs in conformance.json)',
      unit: 's',
      value: scale(stat(runs.map((r) => r.engineMs)), 1 / 1000),
    });
    if (dir.startsWith('/dev/shm')) rmSync(dir, { recursive: true, force: true });
  }
}

// ---- 10: start to exit, against a baseline commit --------------------------------------------------

/** One command, start to exit: wall ms, and the CPU ms of it and every process it waited for (the shell's `times`). */
function timedCommand(cmd: string, cwd: string, log: string): Promise<{ wallMs: number; cpuMs: number; code: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    // `times` prints the shell's own and its children's user and system time; the second line is the children's.
    const child = spawn('sh', ['-c', `${cmd} >>"$BENCH_LOG" 2>&1; s=$?; times; exit $s`], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_LOG: log },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t;
      const secs = (m: string) => {
        const x = /^(\d+)m([\d.]+)s$/.exec(m);
        return x ? Number(x[1]) * 60 + Number(x[2]) : NaN;
      };
      const kids = out.trim().split('\n').pop()!.trim().split(/\s+/).map(secs);
      resolve({ wallMs, cpuMs: ((kids[0] ?? NaN) + (kids[1] ?? NaN)) * 1000, code: code ?? -1 });
    });
  });
}

function git(args: string[], cwd = ROOT): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

if (sections.has('10')) {
  const ref = flags.baseline ?? 'HEAD~1';
  const runs = Number(flags.runs ?? '5');
  const what = new Set((flags.start ?? 'run,test').split(','));
  const head = git(['rev-parse', '--short', 'HEAD']);
  const baseSha = git(['rev-parse', '--short', ref]);
  const base = join(tmp, `baseline-${baseSha}`);
  log(
    `10 start to exit: the working tree (HEAD ${head}) against ${ref} (${baseSha}) in ${base}, ${runs} `
      + `runs each, alternated`,
  );
  git(['worktree', 'add', '--detach', base, ref]);
  try {
    // The same dependencies when the lockfiles agree; else the baseline's own install.
    if (
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8') === readFileSync(join(base, 'package-lock.json'), 'utf8')
    ) {
      symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
    } else {
      log(`  ${ref}'s package-lock.json differs: npm ci there`);
      const r = spawnSync('npm', ['ci', '--no-fund', '--no-audit'], { cwd: base, stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`npm ci in the baseline worktree failed (${r.status})`);
    }
    const reportDir = existsSync('/dev/shm')
      ? mkdtempSync(join('/dev/shm', 'conformance-bench-'))
      : join(tmp, 'start-run');
    const commands: Array<[string, string, string]> = [];
    if (what.has('run'))
      commands.push([
        'embedded run',
        `node bin/conformance.js run --quiet --report-dir ${reportDir}`,
        `conformance run --report-dir ${reportDir.startsWith('/dev/shm') ? 'on tmpfs' : 'on disk'}`,
      ]);
    if (what.has('test')) commands.push(['npm test', 'npm test', 'npm test']);
    for (const [name, cmd, label] of commands) {
      const logFile = join(tmp, `${name.replace(/\W+/g, '-')}.log`);
      const mine: Awaited<ReturnType<typeof timedCommand>>[] = [];
      const theirs: typeof mine = [];
      // What one side's run made, read from its report (both write to reportDir, one after the other).
      const made = () => (name === 'embedded run' ? madeIn(reportDir) : undefined);
      let mineMade: Made | undefined;
      let theirsMade: Made | undefined;
      // One warm-up each (tsx's transform cache, the source cache, the schema cache), then A B A B ...
      await timedCommand(cmd, ROOT, logFile);
      await timedCommand(cmd, base, logFile);
      for (let i = 0; i < runs; i++) {
        log(`  ${name}: run ${i + 1} of ${runs}`);
        mine.push(await timedCommand(cmd, ROOT, logFile));
        mineMade = made();
        theirs.push(await timedCommand(cmd, base, logFile));
        theirsMade = made();
      }
      raw[`start:${name}`] = { head, baseline: baseSha, mine, theirs };
      const wall = (xs: typeof mine) => scale(stat(xs.map((x) => x.wallMs)), 1 / 1000);
      const cpu = (xs: typeof mine) => scale(stat(xs.map((x) => x.cpuMs)), 1 / 1000);
      const exits = (xs: typeof mine) => [...new Set(xs.map((x) => x.code))].join(',');
      add({
        section: '10 start to exit',
        what: `${label}: this tree (${head}), exit ${exits(mine)}`,
        unit: 's',
        value: wall(mine),
      });
      add({
        section: '10 start to exit',
        what: `  ${ref} (${baseSha}), same call, exit ${exits(theirs)}`,
        unit: 's',
        value: wall(theirs),
      });
      add({ section: '10 start to exit', what: '  CPU time, all processes: this tree', unit: 's', value: cpu(mine) });
      add({
        section: '10 start to exit',
        what: `  CPU time, all processes: ${baseSha}`,
        unit: 's',
        value: cpu(theirs),
      });
      add({
        section: '10 start to exit',
        what: '  wall, this tree ÷ baseline, pair by pair',
        unit: '×',
        value: stat(mine.map((m, i) => m.wallMs / theirs[i]!.wallMs)),
      });
      if (mineMade && theirsMade) {
        // The two sides need not make the same run: the wall time per exchange says what each exchange cost.
        add({
          section: '10 start to exit',
          what:
            `  made: this tree ${mineMade.exchanges} exchanges, ${mineMade.checks} `
            + `checks; ${baseSha} ${theirsMade.exchanges} exchanges, ${theirsMade.checks} checks`,
          unit: '',
          value: '',
        });
        add({
          section: '10 start to exit',
          what: '  wall per exchange, start to exit: this tree',
          unit: 'ms',
          value: scale(stat(mine.map((m) => m.wallMs)), 1 / mineMade.exchanges),
        });
        add({
          section: '10 start to exit',
          what: `  wall per exchange, start to exit: ${baseSha}`,
          unit: 'ms',
          value: scale(stat(theirs.map((m) => m.wallMs)), 1 / theirsMade.exchanges),
        });
      }
    }
    if (reportDir.startsWith('/dev/shm')) rmSync(reportDir, { recursive: true, force: true });
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', base], { cwd: ROOT });
  }
}

// ---- 9: what generated cases cost -------------------------------------------------------------

if (sections.has('9')) {
  const { DEFAULT_EXAMPLES, FIXED_LANGUAGES, generatedCases } = await import('../src/engine/generate.js');
  const { OPERATIONS } = await import('../src/contract/catalogue.js');
  const dir = join(tmp, 'generation');
  const budgets = [0, DEFAULT_EXAMPLES, 16];
  log(`9 generation: conformance run --examples ${budgets.join(' / ')}, alternated, 5 runs each`);
  await fullRun(dir, ['--examples', '0']); // warm-up
  const runs = new Map<number, { wallMs: number; cpuMs: number; engineMs: number }[]>(budgets.map((b) => [b, []]));
  const exchanges = new Map<number, number>();
  for (let i = 0; i < 5; i++) {
    for (const b of budgets) {
      runs.get(b)!.push(await fullRun(dir, ['--examples', String(b)]));
      exchanges.set(b, madeIn(dir)!.exchanges);
    }
  }
  const med = (b: number, k: 'wallMs' | 'cpuMs' | 'engineMs') => stat(runs.get(b)!.map((r) => r[k])).median;
  for (const b of budgets) {
    const wall = scale(stat(runs.get(b)!.map((r) => r.wallMs)), 1 / 1000);
    add({
      section: '9 generation',
      what:
        `conformance run `
        + `--examples ${b}${b === DEFAULT_EXAMPLES ? ' (default)' : ''}: ${exchanges.get(b)} exchanges, `
        + `start → exit`,
      unit: 's',
      value: wall,
      ...(b === DEFAULT_EXAMPLES ? { goal: '≤ 2.5 s', met: wall.median <= 2.5 } : {}),
    });
  }
  const perExample = (k: 'wallMs' | 'cpuMs' | 'engineMs') => (med(16, k) - med(0, k)) / (16 * OPERATIONS.length);
  add({
    section: '9 generation',
    what:
      `  per example (one parameter set of one operation on ${4} bindings, checked and compared): wall / `
      + `CPU / engine`,
    unit: 'ms',
    value:
      `${perExample('wallMs').toFixed(1)} / ${perExample('cpuMs').toFixed(1)} `
      + `/ ${perExample('engineMs').toFixed(1)}`,
  });
  add({
    section: '9 generation',
    what: `  the default budget adds (wall, ${DEFAULT_EXAMPLES} × ${OPERATIONS.length} examples)`,
    unit: 's',
    value: ((med(DEFAULT_EXAMPLES, 'wallMs') - med(0, 'wallMs')) / 1000).toFixed(2),
  });
  const draws: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    OPERATIONS.forEach((op, k) => void generatedCases(op, { seed: i, examples: 64, languages: FIXED_LANGUAGES }, k));
    draws.push(((performance.now() - t) * 1000) / (64 * OPERATIONS.length));
  }
  add({
    section: '9 generation',
    what: '  drawing the values alone (fast-check), per example',
    unit: 'µs',
    value: stat(draws),
  });
  raw.generation = Object.fromEntries(budgets.map((b) => [b, { runs: runs.get(b), exchanges: exchanges.get(b) }]));
}

// ---- 4 and 6: large documents, and the XSD engines ----------------------------------------------

interface LargeCheck {
  bytes: number;
  ms: Stat;
  cpuMs: Stat;
  mbPerS: number;
  stages: Record<string, number>;
  peakRssDelta: number;
  retainedHeapDelta: number;
  failed: string[];
  checks: number;
  parserOnly: { ms: Stat; mbPerS: number; heapDelta: number };
}
interface LargeUnit {
  bytes: number;
  bindings: number;
  ms: number;
  cpuMs: number;
  peakRssDelta: number;
  agreed: boolean;
}
interface LargeEngine {
  engine: string;
  bytes: number;
  ms: Stat;
  mbPerS: number;
  valid: boolean;
  peakRssDelta: number;
}
interface SmallEngines {
  documents: number;
  averageBytes: number;
  setupMs: { libxmljs2: number; wasm: number };
  usPerDoc: Record<string, Stat>;
  agreement: { variant: string; documents: number; agree: number; libxmljs2Rejects: number; wasmRejects: number }[];
  externalEntityLoaded: { libxmljs2: boolean; wasm: boolean };
}

let files: { mb: number; file: string; bytes: number }[] = [];
if (sections.has('4') || sections.has('6') || sections.has('11')) {
  log(`4 scaling: generating SearchTransfers responses of ${SIZES.join(', ')} MB`);
  files = await runChild('./large.ts', ['gen', join(tmp, 'large'), ...SIZES.map(String)]);
}

if (sections.has('4')) {
  const results: LargeCheck[] = [];
  for (const f of files) {
    log(`4 scaling: checking the ${f.mb} MB response (own process)`);
    results.push(await runChild<LargeCheck>('./large.ts', ['check', f.file], ['--expose-gc'], 600_000));
  }
  raw.scaling = results;
  for (const r of results) {
    const mb = r.bytes / MB;
    const peakX = r.peakRssDelta / r.bytes;
    add({
      section: '4 scaling',
      what: `${mb.toFixed(1)} MB SearchTransfers, every check + canonical form (${r.failed.length} findings)`,
      unit: 's',
      value: scale(r.ms, 1 / 1000),
    });
    add({
      section: '4 scaling',
      what: '  throughput',
      unit: 'MB/s',
      value: r.mbPerS,
      goal: '≥ 50 MB/s',
      met: r.mbPerS >= 50,
    });
    add({
      section: '4 scaling',
      what:
        `  peak RSS Δ ${(r.peakRssDelta / MB).toFixed(0)} MB (heap `
        + `kept ${(r.retainedHeapDelta / MB).toFixed(0)} MB) ÷ size`,
      unit: '×',
      value: peakX,
      goal: '< 5×',
      met: peakX < 5,
    });
    add({
      section: '4 scaling',
      what:
        '  ms: '
        + Object.entries(r.stages)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(', '),
      unit: 'ms CPU',
      value: r.cpuMs.median,
    });
    add({
      section: '4 scaling',
      what:
        `  bound: fast-xml-parser alone (the tree stage's parser), heap `
        + `Δ ${(r.parserOnly.heapDelta / r.bytes).toFixed(0)}× size`,
      unit: 'MB/s',
      value: r.parserOnly.mbPerS,
    });
    add({
      section: '4 scaling',
      what: '  bound: libxml2 parse + XSD alone (libxml2 stage)',
      unit: 'MB/s',
      value: mb / ((r.stages.libxml2 ?? Infinity) / 1000),
    });
  }
  const ten = files.find((f) => f.mb === 10) ?? files[0];
  if (ten) {
    log(`4 scaling: one unit, the ${ten.mb} MB response on four bindings (own process)`);
    const u = await runChild<LargeUnit>('./large.ts', ['unit', ten.file], ['--expose-gc'], 600_000);
    raw.scalingUnit = u;
    add({
      section: '4 scaling',
      what:
        `one unit: ${(u.bytes / MB).toFixed(0)} MB on ${u.bindings} bindings, checks + comparison `
        + `(${u.agreed ? 'agree' : 'DIFFER'})`,
      unit: 's',
      value: u.ms / 1000,
    });
    add({
      section: '4 scaling',
      what: `  peak RSS Δ ${(u.peakRssDelta / MB).toFixed(0)} MB ÷ the ${u.bindings} documents' size`,
      unit: '×',
      value: u.peakRssDelta / (u.bytes * u.bindings),
    });
  }
  if (results.length >= 2) {
    const a = results[0]!;
    const b = results[results.length - 1]!;
    const growth = b.ms.median / a.ms.median / (b.bytes / a.bytes);
    add({
      section: '4 scaling',
      what: `time growth ${(a.bytes / MB).toFixed(0)} → ${(b.bytes / MB).toFixed(0)} MB ÷ size growth (1.00 = linear)`,
      unit: '×',
      value: growth,
      goal: 'linear (≤ 1.2)',
      met: growth <= 1.2,
    });
  }
}

if (sections.has('6')) {
  log("6 engine: libxmljs2 vs libxml2-wasm on the mock's documents");
  const small = await runChild<SmallEngines>('./engines.ts', ['small']);
  raw.engineSmall = small;
  add({
    section: '6 engine',
    what:
      `libxmljs2 0.35 (shipped: schema subset per document), ${small.documents} mock responses of `
      + `~${small.averageBytes} B`,
    unit: 'µs/doc',
    value: small.usPerDoc.libxmljs2Validator!,
  });
  add({
    section: '6 engine',
    what: '  the same, whole schemas compiled on every validate()',
    unit: 'µs/doc',
    value: small.usPerDoc.libxmljs2WholeSchemas!,
  });
  add({
    section: '6 engine',
    what: '  of which parse only',
    unit: 'µs/doc',
    value: small.usPerDoc.libxmljs2ParseOnly!,
  });
  add({
    section: '6 engine',
    what: 'libxml2-wasm 0.7 (schema compiled once), same',
    unit: 'µs/doc',
    value: small.usPerDoc.wasmValidator!,
  });
  add({ section: '6 engine', what: '  of which parse only', unit: 'µs/doc', value: small.usPerDoc.wasmParseOnly! });
  const agree = small.agreement.every((a) => a.agree === a.documents);
  add({
    section: '6 engine',
    what: `verdicts agree: as served, bad int, unknown element, " 42 ", broken, iso-8859-1`,
    unit: '',
    value: `${agree ? 'yes' : 'NO'} ${small.agreement.reduce((n, a) => n + a.agree, 0)}/${small.agreement.reduce((n, a) => n + a.documents, 0)}`,
  });
  add({
    section: '6 engine',
    what: 'external entity loaded, libxmljs2 / wasm (DOCTYPE is refused first anyway)',
    unit: '',
    value: `${small.externalEntityLoaded.libxmljs2 ? 'YES' : 'no'} / ${small.externalEntityLoaded.wasm ? 'YES' : 'no'}`,
  });
  const large: LargeEngine[] = [];
  for (const f of files) {
    for (const e of ['libxmljs2', 'wasm']) {
      log(`6 engine: ${e} on the ${f.mb} MB response (own process)`);
      large.push(await runChild<LargeEngine>('./engines.ts', ['large', e, f.file], ['--expose-gc'], 300_000));
    }
  }
  raw.engineLarge = large;
  for (const r of large) {
    add({
      section: '6 engine',
      what:
        `${r.engine === 'wasm' ? 'libxml2-wasm' : 'libxmljs2'}, ${(r.bytes / MB).toFixed(0)} `
        + `MB${r.valid ? '' : ' (NOT valid)'}, peak RSS Δ ${(r.peakRssDelta / r.bytes).toFixed(1)}× size`,
      unit: 'MB/s',
      value: r.mbPerS,
    });
  }
}

// ---- 11: large answers through both readers (issue 35) ------------------------------------------

interface Pipeline {
  reader: string;
  bytes: number;
  ms: Stat;
  mbPerS: number;
  cpuMs: Stat;
  stages: Record<string, number>;
  peakRssDelta: number;
  childPeakRss: number;
  heapWithTreeDelta: number;
  failed: string[];
  digest: string;
}

if (sections.has('11')) {
  const perSize: Record<string, Pipeline[]> = {};
  // Compiled as the command runs (esbuild), not through tsx: see compileChild.
  const compiled = await compileChild('./large.ts');
  const load0 = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  log(`11 large readers: load average ${load0} at the start`);
  for (const f of files.filter((x) => x.mb >= 10)) {
    const pair: Pipeline[] = [];
    for (const which of ['before', 'after']) {
      log(`11 large readers: the ${f.mb} MB answer, reader ${which} issue 35 (own process, compiled)`);
      pair.push(await runChild<Pipeline>(compiled.js, ['pipeline', f.file, which], ['--expose-gc'], 900_000));
    }
    perSize[f.mb] = pair;
    const [before, after] = pair as [Pipeline, Pipeline];
    const mbps = (r: Pipeline): Stat => ({
      median: r.bytes / MB / (r.ms.median / 1000),
      min: r.bytes / MB / (r.ms.max / 1000),
      max: r.bytes / MB / (r.ms.min / 1000),
      runs: r.ms.runs,
    });
    for (const [label, r, judged] of [
      ['before: fast-xml-parser, tree after libxml2', before, false],
      ['after: one-pass reader, tree beside libxml2', after, true],
    ] as const) {
      const peak = r.peakRssDelta / r.bytes;
      add({
        section: '11 readers',
        what: `${(r.bytes / MB).toFixed(0)} MB, ${label} (${r.failed.length} findings)`,
        unit: 'MB/s',
        value: mbps(r),
        ...(judged ? { goal: '≥ 25 MB/s', met: mbps(r).median >= 25 } : {}),
      });
      add({
        section: '11 readers',
        what:
          `  peak RSS Δ of this process ${(r.peakRssDelta / MB).toFixed(0)} MB (heap with the `
          + `tree ${(r.heapWithTreeDelta / MB).toFixed(0)} MB) ÷ size`,
        unit: '×',
        value: peak,
        ...(judged ? { goal: '≤ 8×', met: peak <= 8 } : {}),
      });
      add({
        section: '11 readers',
        what: `  peak RSS of the validator process (libxml2) ${(r.childPeakRss / MB).toFixed(0)} MB ÷ size`,
        unit: '×',
        value: r.childPeakRss / r.bytes,
      });
      add({
        section: '11 readers',
        what:
          '  ms: '
          + Object.entries(r.stages)
            .map(([k, v]) => `${k} ${v.toFixed(0)}`)
            .join(', '),
        unit: 'ms CPU',
        value: r.cpuMs,
      });
      // CPU time of this process moves less with other processes' load than wall time does.
      add({
        section: '11 readers',
        what: '  MB per second of CPU of this process',
        unit: 'MB/s',
        value: {
          median: r.bytes / MB / (r.cpuMs.median / 1000),
          min: r.bytes / MB / (r.cpuMs.max / 1000),
          max: r.bytes / MB / (r.cpuMs.min / 1000),
          runs: r.cpuMs.runs,
        },
      });
    }
    const same = JSON.stringify(before.failed) === JSON.stringify(after.failed) && before.digest === after.digest;
    add({
      section: '11 readers',
      what: '  same findings and canonical digest through both readers',
      unit: '',
      value: same ? 'yes' : 'NO',
      goal: 'yes',
      met: same,
    });
    add({
      section: '11 readers',
      what: '  speed-up, after ÷ before (medians)',
      unit: '×',
      value: before.ms.median / after.ms.median,
    });
  }
  compiled.remove();
  const load1 = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  log(`11 large readers: load average ${load1} at the end`);
  add({
    section: '11 readers',
    what:
      `load average (1, 5, 15 min) at the start ${load0}, at the end ${load1}; children compiled with `
      + `esbuild as the command runs`,
    unit: '',
    value: '',
  });
  raw.largeReaders = perSize;
  const ten = files.find((f) => f.mb === 10);
  if (ten) {
    log('11 large readers: where the memory of the 10 MB answer goes (own process)');
    const m = await runChild<Record<string, number>>('./large.ts', ['memory', ten.file], ['--expose-gc'], 300_000);
    raw.largeMemory = m;
    const x = (v: number) => `${(v / MB).toFixed(0)} MB, ${(v / m.bytes!).toFixed(1)}×`;
    add({
      section: '11 readers',
      what:
        `where memory goes, ${(m.bytes! / MB).toFixed(0)} MB answer `
        + `(${m.chars! < m.bytes! ? 'some characters beyond Latin-1: ' : ''}heap kept by each part alone):`,
      unit: '',
      value: '',
    });
    add({
      section: '11 readers',
      what: `  decoded text ${x(m.decodedText!)}; message to the validator process ${x(m.ipcMessage!)} (while sent)`,
      unit: '',
      value: '',
    });
    add({
      section: '11 readers',
      what:
        `  fast-xml-parser's output ${x(m.fastXmlParserOutput!)}; tree from `
        + `it ${x(m.treeViaFastXmlParser!)}; tree of the one-pass reader ${x(m.treeViaScan!)}`,
      unit: '',
      value: '',
    });
  }
}

// ---- 8: bounds whatever the target sends (issue 13) ---------------------------------------------

interface Bounded {
  what: string;
  exit: number | null;
  ms: number;
  deadlineMs: number;
  peakTreeRss: number;
  peakProcessRss?: number;
  reportBytes: number;
  leaks: number;
}

if (sections.has('8')) {
  const GiB = 1024 * MB;
  const judge = (m: Bounded) => {
    add({
      section: '8 bounds',
      what: `${m.what}: exit ${m.exit}, wall time (--deadline ${m.deadlineMs / 1000} s)`,
      unit: 's',
      value: m.ms / 1000,
      // 1: judged and failed; 5: judged, and no valid call reached the data path (a target that only echoes, say).
      goal: `≤ ${(m.deadlineMs + 15_000) / 1000} s`,
      met: m.ms <= m.deadlineMs + 15_000 && (m.exit === 1 || m.exit === 5),
    });
    add({
      section: '8 bounds',
      what:
        `  peak memory of the run (CLI + validator process), reports ${(m.reportBytes / 1e6).toFixed(2)} `
        + `MB, password found ${m.leaks}×`,
      unit: 'MiB',
      value: m.peakTreeRss / MB,
      goal: '≤ 1,024 MiB, ≤ 50 MB, 0',
      met: m.peakTreeRss <= GiB && m.reportBytes <= 50e6 && m.leaks === 0,
    });
    // Issue 43: the largest single process as the kernel reports its peak (VmHWM; GNU time's figure).
    if (m.peakProcessRss !== undefined) {
      add({
        section: '8 bounds',
        what: '  peak memory of the largest process (VmHWM)',
        unit: 'MiB',
        value: m.peakProcessRss / MB,
        goal: '≤ 1 GB (953.7 MiB)',
        met: m.peakProcessRss <= 1e9,
      });
    }
  };
  log('8 bounds: hostile answers through the command line (about 4½ minutes)');
  const proofs = await runChild<Bounded[]>('./bounds.ts', ['proof'], [], 900_000);
  raw.bounds = proofs;
  for (const m of proofs) judge(m);
  log('8 bounds: one unit at the body cap: four 32 MiB answers of broken items');
  const c = await runChild<Bounded & { capBytes: number; documentBytes: number }>('./bounds.ts', ['cap'], [], 900_000);
  raw.boundsCap = c;
  judge({
    ...c,
    what:
      `one unit at the cap: 4 × ${(c.documentBytes / MB).toFixed(0)} MiB of broken list items (1.9 M `
      + `elements each)`,
  });
  add({
    section: '8 bounds',
    what: '  peak memory of the run ÷ --max-body-bytes',
    unit: '×',
    value: c.peakTreeRss / c.capBytes,
  });
  log('8 bounds: a conforming answer of 32 MiB, one exchange');
  const gen = await runChild<{ file: string; bytes: number }[]>('./large.ts', ['gen', join(tmp, 'cap'), '30']);
  const k = await runChild<Bounded & { documentBytes: number }>(
    './bounds.ts',
    ['conforming', gen[0]!.file],
    [],
    600_000,
  );
  raw.boundsConforming = k;
  add({ section: '8 bounds', what: `${k.what}: exit ${k.exit}`, unit: 's', value: k.ms / 1000 });
  add({
    section: '8 bounds',
    what: "  peak memory of the run ÷ the document's size",
    unit: '×',
    value: k.peakTreeRss / k.documentBytes,
  });
  const r = await runChild<{ excerptUs: Stat; findingUs: Stat; jsonMb: number; jsonUs: Stat }>('./bounds.ts', [
    'redact',
  ]);
  raw.redaction = r;
  add({ section: '8 bounds', what: 'redaction of an 8 KB excerpt full of escapes', unit: 'µs', value: r.excerptUs });
  add({ section: '8 bounds', what: "redaction of a finding's message", unit: 'µs', value: r.findingUs });
  add({
    section: '8 bounds',
    what: `redaction (the guard's matcher) over a ${r.jsonMb.toFixed(1)} MB JSON report`,
    unit: 'ms',
    value: scale(r.jsonUs, 1 / 1000),
  });
}

// ---- 12: the target kept busy (issue 43) ---------------------------------------------------------

if (sections.has('12')) {
  log(
    '12 busy: the full run with pools and mutations, mock in its own process, 4 connections, rate bound '
      + 'lifted (5 runs, a fresh mock each)',
  );
  const b = await runChild<{
    connections: number;
    runs: { engineMs: number; exchangeMs: number; exchanges: number; failed: number }[];
  }>('./busy.ts', ['5'], [], 600_000);
  raw.busy = b;
  const ratio = stat(b.runs.map((r) => r.engineMs / (r.exchangeMs / b.connections)));
  add({
    section: '12 busy',
    what:
      `full run, pools and mutations: ${b.runs[0]!.exchanges} exchanges (${b.runs[0]!.failed} failed `
      + `rows), engine time`,
    unit: 's',
    value: scale(stat(b.runs.map((r) => r.engineMs)), 1 / 1000),
  });
  add({
    section: '12 busy',
    what: `  sum of exchange durations ÷ ${b.connections} connections`,
    unit: 's',
    value: scale(stat(b.runs.map((r) => r.exchangeMs / b.connections)), 1 / 1000),
  });
  add({
    section: '12 busy',
    what: '  engine time ÷ (sum of exchange durations ÷ connections), run by run',
    unit: '×',
    value: ratio,
    goal: '≤ 1.3×',
    met: ratio.median <= 1.3,
  });
}

// ---- 13: beside Specmatic (issue 43) -------------------------------------------------------------

if (sections.has('13')) {
  const { specmaticSection } = await import('./bench/specmatic.js');
  await specmaticSection({
    jar: flags.specmatic ?? process.env.SPECMATIC_JAR,
    runs: Number(flags.runs ?? '5'),
    add,
    log,
    raw,
    withMock,
  });
}

// ---- output ------------------------------------------------------------------------------------

function fmt(v: number): string {
  const a = Math.abs(v);
  return a >= 1000 ? v.toFixed(0) : a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

function cells(r: Row): string[] {
  const v = r.value;
  if (typeof v === 'string')
    return [r.section, r.what, v, '', '', r.unit, r.goal ?? '', r.met === undefined ? '' : r.met ? 'met' : 'MISSED'];
  if (typeof v === 'number')
    return [
      r.section,
      r.what,
      fmt(v),
      '',
      '',
      r.unit,
      r.goal ?? '',
      r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
    ];
  return [
    r.section,
    r.what,
    fmt(v.median),
    fmt(v.min),
    fmt(v.max),
    r.unit,
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ];
}

const header = ['section', 'measure', 'median', 'min', 'max', 'unit', 'goal', ''];
const table = [header, ...rows.map(cells)];
const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
const right = new Set([2, 3, 4]);
const line = (r: string[]) =>
  `| ${r.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
const sep = `|${widths.map((w, i) => (right.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
const env =
  `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'cpu'}), `
  + `Node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z, `
  + `load average ${loadBefore.toFixed(1)} before / ${loadavg()[0]!.toFixed(1)} after`;
const text = [
  `Benchmark: ${env}; bench took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  line(table[0]!),
  sep,
  ...table.slice(1).map(line),
].join('\n');
process.stdout.write(`${text}\n`);

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(
  outFile,
  `${JSON.stringify({ environment: env, concurrency: CONCURRENCY, cores: CORES, rows, raw }, null, 2)}\n`,
);
process.stderr.write(`bench: wrote ${outFile}\n`);
rmSync(tmp, { recursive: true, force: true });
