/**
 * The secret guard's whole-file search, started as soon as a report is rendered and run on the
 * other core (./guard-worker.ts) while this thread renders the next one: the search of a full run's
 * files costs about as much as their rendering, and at the end of a run the second core is idle
 * (the validator processes and the embedded mock have nothing left to do). The answer is
 * SecretGuard.find's, computed by the same code on the same text; what the guard does with it
 * (compare with the harness's own text, redact, warn) stays in the writer's thread. Without a
 * compiled worker beside this module (the TypeScript sources under a test runner), or should the
 * worker fail, each text is searched in this thread instead, with the same answer.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SecretGuard, SecretSpans } from './secrets.js';

/** The worker's module: compiled beside this one (dist/report/, or the in-repo bundle's directory). */
const WORKER = import.meta.url.endsWith('.js')
  ? fileURLToPath(new URL('./guard-worker.js', import.meta.url))
  : undefined;

/** How many searches can be claimed by either thread (a full run's reports are fewer than 200 files). */
const CLAIMS = 4096;
/** A search's flag once this thread has claimed it (the worker sets 1: ./guard-worker.ts). */
const CLAIMED_HERE = 2;

/** Where the worker's module is (tests: a shim that loads the TypeScript module through tsx). */
export interface WorkerModule {
  readonly file: string;
}

/** A worker started before the run's reports are written (startGuardWorkerEarly), until a search ahead takes it. */
let early: { file: string; worker: Worker } | undefined;

/**
 * Start the search's worker now, before the secrets are known, so that its modules load on the
 * other core while the run goes on (about a tenth of a second, otherwise spent while the first
 * report waits for its search): the next searchAhead with the same module takes it and gives it
 * the secrets. Unreferenced, it never keeps the process alive; should it fail, searchAhead starts
 * its own (or searches in this thread). Answers the worker's threadId (SearchAhead.threadId).
 */
export function startGuardWorkerEarly(
  module: WorkerModule | undefined = WORKER ? { file: WORKER } : undefined,
): number | undefined {
  if (early) return early.worker.threadId;
  if (!module || !existsSync(module.file)) return undefined;
  try {
    const worker = new Worker(module.file, { stdout: false, stderr: false });
    const started = { file: module.file, worker };
    // Failed or ended before it was taken: searchAhead starts its own.
    const died = () => {
      if (early === started) early = undefined;
    };
    worker.on('error', died);
    worker.on('exit', died);
    worker.unref();
    early = started;
    return worker.threadId;
  } catch {
    return undefined; // searchAhead starts its own.
  }
}

/** Stop the early worker if no search ahead took it (a run that ended before its reports). */
export function stopGuardWorkerEarly(): void {
  const e = early;
  early = undefined;
  if (e) void e.worker.terminate();
}

/** The early worker, taken (once) with its secrets and flags; undefined when there is none. */
function takeEarly(setup: { secrets: string[]; claims: Int32Array }): Worker | undefined {
  const e = early;
  early = undefined;
  if (!e) return undefined;
  e.worker.removeAllListeners('error').removeAllListeners('exit');
  e.worker.postMessage({ setup });
  return e.worker;
}

/** Searches texts for the guard's secrets ahead of their use; close() when done. */
export interface SearchAhead {
  /** What guard.find(text) answers, from the worker when there is one. */
  find(text: string | Buffer): Promise<SecretSpans>;
  /**
   * Search here, from the last one back, every search the worker has not started yet (work
   * stealing): called once this thread has nothing else to do, so neither thread idles while the
   * other finishes. A search is claimed once, by one thread or the other (a shared flag each).
   */
  help(): void;
  /** Stop the worker (pending searches still answer, in this thread). */
  close(): void;
  /** Whether the searches run in a worker (false: in this thread, from the start or since the worker failed). */
  readonly inWorker: boolean;
  /** The worker's thread id, when there is a worker. */
  readonly threadId?: number;
}

/**
 * A search ahead for `guard`, whose secrets are `secrets`: in a worker thread when its module is
 * available (`module`, default the compiled one beside this module), else in this thread.
 */
export function searchAhead(
  guard: SecretGuard,
  secrets: readonly string[],
  module: WorkerModule | undefined = WORKER ? { file: WORKER } : undefined,
): SearchAhead {
  const here = (text: string | Buffer): SecretSpans =>
    guard.find(typeof text === 'string' ? text : text.toString('utf8'));
  let worker: Worker | undefined;
  // One flag per search, 0 until a thread claims it (1: the worker, 2: this thread); searches past
  // the last flag are the worker's alone.
  const claims = new Int32Array(new SharedArrayBuffer(4 * CLAIMS));
  if (module && secrets.some((s) => s.length > 0)) {
    // The worker started early when there is one of this module, else one started now: either way
    // its secrets and flags come as its first message.
    if (early?.file !== module.file) stopGuardWorkerEarly();
    startGuardWorkerEarly(module);
    worker = takeEarly({ secrets: [...secrets], claims });
  } else stopGuardWorkerEarly();
  if (!worker)
    return { find: async (text) => here(text), help: () => undefined, close: () => undefined, inWorker: false };

  const w = worker;
  // Each search's text, kept until it is answered: should the worker fail, it is searched here.
  const pending = new Map<number, { text: string | Buffer; resolve: (f: SecretSpans) => void }>();
  let next = 0;
  let failed = false;
  const fallBack = () => {
    if (failed) return;
    failed = true;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve(here(p.text));
    }
  };
  w.on('message', (m: { id: number; found: SecretSpans }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    p?.resolve(m.found);
  });
  w.on('error', fallBack);
  w.on('exit', fallBack);
  // Never what keeps the process alive: a search is awaited by the writer, which is.
  w.unref();
  return {
    get inWorker() {
      return !failed;
    },
    threadId: w.threadId,
    find(text) {
      if (failed) return Promise.resolve(here(text));
      const id = next++;
      return new Promise<SecretSpans>((resolve) => {
        pending.set(id, { text, resolve });
        w.ref();
        w.postMessage(typeof text === 'string' ? { id, text } : { id, bytes: text });
      }).finally(() => {
        if (pending.size === 0) w.unref();
      });
    },
    help() {
      const ids = [...pending.keys()].filter((id) => id < CLAIMS).sort((a, b) => b - a);
      for (const id of ids) {
        if (Atomics.compareExchange(claims, id, 0, CLAIMED_HERE) !== 0) break;
        const p = pending.get(id)!;
        pending.delete(id);
        p.resolve(here(p.text));
      }
    },
    close() {
      fallBack();
      void w.terminate();
    },
  };
}
