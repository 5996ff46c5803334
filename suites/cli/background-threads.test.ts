/**
 * bin/background-threads.js: the threads a process has when the command starts (V8's background
 * pool) are lowered to nice 19, the main thread keeps its priority, and so does every thread the
 * command starts afterwards (a worker thread: the embedded mock's, the secret guard's). The bins
 * call it first: a running `conformance mock` shows V8's pool lowered, its main thread not.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const MODULE = new URL('../../bin/background-threads.js', import.meta.url).href;
const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

/** The nice value of each thread of process `pid`, by thread id (/proc/PID/task/TID/stat, field 19). */
function niceOf(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      out.set(Number(t), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('V8 background threads at the lowest priority', () => {
  test('the threads there are when it is called are lowered; the main thread and later threads keep theirs', () => {
    // A process of its own: it lowers its threads, then starts a worker thread, and says the
    // priority of each (os.getPriority by thread id), as the bins do before they start theirs.
    const script = `
      import { readdirSync } from 'node:fs';
      import { getPriority } from 'node:os';
      import { Worker } from 'node:worker_threads';
      const { lowerBackgroundThreads } = await import(${JSON.stringify(MODULE)});
      const tids = () => readdirSync('/proc/self/task').map(Number);
      const before = tids();
      const mainBefore = getPriority(process.pid);
      const lowered = lowerBackgroundThreads();
      const w = new Worker('import("node:worker_threads").then((m) => m.parentPort.postMessage(1))', { eval: true });
      await new Promise((r) => w.once('message', r));
      const later = tids().filter((t) => !before.includes(t));
      const priority = (t) => { try { return getPriority(t); } catch { return null; } };
      const of = (ts) => ts.map(priority).filter((p) => p !== null);
      console.log(JSON.stringify({
        lowered, mainBefore, main: getPriority(process.pid),
        others: of(before.filter((t) => t !== process.pid)), later: of(later),
      }));
      await w.terminate();`;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim(),
    ) as { lowered: number; mainBefore: number; main: number; others: number[]; later: number[] };
    // V8's pool (four threads) and the platform's own are there from the start.
    expect(out.lowered).toBeGreaterThanOrEqual(4);
    expect(out.others.length).toBe(out.lowered);
    expect(out.others.every((p) => p === 19)).toBe(true);
    expect(out.main).toBe(out.mainBefore);
    // The worker thread started after it (and whatever threads came with it): the main thread's priority.
    expect(out.later.length).toBeGreaterThan(0);
    expect(out.later.every((p) => p === out.mainBefore)).toBe(true);
  });

  test('`conformance mock` (the bin) runs with V8 pool lowered and its main thread as started', async () => {
    const child = spawn(process.execPath, [CLI, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
      });
      expect(line).toMatch(/^mock listening on /);
      const nice = niceOf(child.pid!);
      const parent = niceOf(process.pid).get(process.pid)!;
      expect(nice.get(child.pid!)).toBe(parent);
      const lowered = [...nice].filter(([tid, p]) => tid !== child.pid && p === 19);
      expect(lowered.length).toBeGreaterThanOrEqual(4);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
