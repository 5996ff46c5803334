/**
 * The body of a mock started in a worker thread (./thread.ts): the options arrive as workerData,
 * the URL goes back once it listens, and 'close' closes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startMock, type MockOptions } from './server.js';

const port = parentPort!;
try {
  const mock = await startMock(workerData as MockOptions);
  port.on('message', (m: unknown) => {
    if (m !== 'close') return;
    void mock.close().then(() => port.postMessage({ closed: true }), (e: unknown) => port.postMessage({ closed: true, error: String(e) }));
  });
  port.postMessage({ url: mock.url, port: mock.port });
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
