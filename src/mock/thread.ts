/**
 * The mock in a worker thread of this process: it answers on the other core while this thread sends
 * and checks (the embedded mock of `conformance run`: about a third of a run's CPU moves off the
 * thread that checks). Only where this module runs compiled (dist/, or the clone's source cache of
 * bin/conformance.js), with ./mock-worker.js beside it; elsewhere (under tsx or vitest, whose loaders
 * a worker does not inherit), and for options a thread cannot be given (a style function), undefined:
 * the caller starts the mock in this thread. The same answers either way: the worker runs startMock.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MockOptions, RunningMock } from './server.js';

const ENTRY = new URL('./mock-worker.js', import.meta.url);

/** The mock started in a worker thread, or undefined when it cannot be (see the module comment). */
export async function startMockThread(options: MockOptions): Promise<RunningMock | undefined> {
  if (!import.meta.url.endsWith('.js') || options.style !== undefined || !existsSync(fileURLToPath(ENTRY))) return undefined;
  const worker = new Worker(ENTRY, { workerData: options });
  const started = await new Promise<{ url?: string; port?: number; error?: string }>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (e) => resolve({ error: e.message }));
    worker.once('exit', (code) => resolve({ error: `the mock's thread exited (${code})` }));
  });
  if (started.error !== undefined || started.url === undefined) {
    await worker.terminate();
    throw new Error(started.error ?? 'the mock\'s thread did not start');
  }
  let closing: Promise<void> | undefined;
  return {
    url: started.url, port: started.port!,
    close: () => (closing ??= new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    }).then(async () => { await worker.terminate(); })),
  };
}
