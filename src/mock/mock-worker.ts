/**
 * The embedded mock in a worker thread of its own (src/mock/in-worker.ts starts it): the run's
 * process then spends its main thread on sending and checking, while the mock's answering (HTTP
 * parsing, decoding, serialising) runs on the other core. The options come as workerData, or, for
 * a worker started before they were known (bin/conformance.js starts one while the command loads;
 * see in-worker.ts), in a first { start: options } message; the first message back says where it
 * listens (or why it could not start); "close" closes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startMock, type MockOptions } from './server.js';

const port = parentPort!;

async function serve(options: MockOptions): Promise<void> {
  try {
    const mock = await startMock(options);
    port.on('message', (m: unknown) => {
      if (m !== 'close') return;
      mock.close().then(
        () => port.postMessage({ closed: true }),
        (e: Error) => port.postMessage({ closed: true, error: e.message }),
      );
    });
    port.postMessage({ url: mock.url, port: mock.port });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
}

if (workerData && typeof workerData === 'object' && !('early' in workerData)) {
  await serve(workerData as MockOptions);
} else {
  // Started early: its modules are loaded; wait for the options.
  port.once('message', (m: { start?: MockOptions }) => void serve(m.start ?? {}));
}
