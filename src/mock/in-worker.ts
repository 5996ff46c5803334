/**
 * Start the embedded mock in a worker thread (./mock-worker.ts) instead of this thread: the run's
 * main thread is then free of the mock's share of the work (answering ~840 requests: about a fifth
 * of the engine's time), which goes to the second core. The mock is the same one startMock makes;
 * only plain options can cross to a worker. Undefined when they cannot (a function among them), or
 * when the worker's compiled module is not beside this one (the TypeScript sources under a test
 * runner): the caller then starts the mock in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MockOptions, RunningMock } from './server.js';

/** The worker's module: compiled beside this one (dist/mock/, or the in-repo bundle's directory). */
const WORKER = import.meta.url.endsWith('.js')
  ? fileURLToPath(new URL('./mock-worker.js', import.meta.url))
  : undefined;

type Started = { url: string; port: number } | { error: string };

/**
 * Where a worker started early waits to be taken: bin/conformance.js starts one for `run` while the
 * command's modules load (the worker's load on the other core meanwhile), unreferenced, so a run
 * that does not take it (a real target) is not kept alive by it. The file says which module it runs.
 */
export const EARLY_WORKER = Symbol.for('accommodation-conformance.early-mock-worker');
interface EarlyWorker {
  readonly worker: Worker;
  readonly file: string;
  readonly exited: boolean;
}

/** The worker started early for this module's worker file, taken (once), or a new one. */
function workerFor(file: string, options: MockOptions): Worker {
  const holder = globalThis as { [EARLY_WORKER]?: EarlyWorker };
  const early = holder[EARLY_WORKER];
  delete holder[EARLY_WORKER];
  if (early && early.file === file && !early.exited) {
    early.worker.ref();
    early.worker.postMessage({ start: options });
    return early.worker;
  }
  void early?.worker.terminate();
  return new Worker(file, { workerData: options, stdout: false, stderr: false });
}

/** The mock of `options` listening in a worker thread, or undefined when no worker module is available. */
export async function startMockInWorker(options: MockOptions): Promise<RunningMock | undefined> {
  if (WORKER === undefined || !existsSync(WORKER)) return undefined;
  // Only what a worker can be handed crosses (a style function or a Fault object with its hooks does
  // not): such a mock is started in this thread by the caller.
  try {
    structuredClone(options);
  } catch {
    return undefined;
  }
  const worker = workerFor(WORKER, options);
  const started = await new Promise<Started>((resolve) => {
    worker.once('message', (m: Started) => resolve(m));
    worker.once('error', (e) => resolve({ error: e.message }));
    worker.once('exit', (code) => resolve({ error: `the mock's worker exited (${code}) before it listened` }));
  });
  if ('error' in started) {
    await worker.terminate();
    throw new Error(started.error);
  }
  // A failure inside the worker after it listens ends the worker: the exchanges then get no
  // response, which the run reports; it must not end this process.
  worker.on('error', () => undefined);
  let closing: Promise<void> | undefined;
  return {
    url: started.url,
    port: started.port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        const done = () => {
          void worker.terminate().then(
            () => resolve(),
            () => resolve(),
          );
        };
        worker.once('exit', () => resolve());
        worker.once('message', done);
        worker.postMessage('close');
      })),
  };
}
