/**
 * The embedded mock in a worker thread of its own (src/mock/in-worker.ts starts it): the run's
 * process then spends its main thread on sending and checking, while the mock's answering (HTTP
 * parsing, decoding, serialising) runs on the other core. The options come as workerData; the first
 * message says where it listens (or why it could not start); "close" closes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startMock, type MockOptions } from './server.js';

const port = parentPort!;
try {
  const mock = await startMock(workerData as MockOptions);
  port.on('message', (m: unknown) => {
    if (m !== 'close') return;
    mock.close().then(() => port.postMessage({ closed: true }), (e: Error) => port.postMessage({ closed: true, error: e.message }));
  });
  port.postMessage({ url: mock.url, port: mock.port });
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
