/**
 * The secret guard's whole-file search in a worker thread of its own (./guard-search.ts starts it):
 * while the main thread renders the next report, this one searches the last one, on the other
 * core. The secrets come as workerData (they stay in this process's memory, as the guard's own do);
 * each message is { id, text } or { id, bytes } (UTF-8), answered by { id, found } with what
 * SecretGuard.find says of it. A search the main thread has claimed first (its flag in `claims`,
 * shared) is its own: skipped here, unanswered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SecretGuard } from './secrets.js';

const port = parentPort!;
const data = workerData as { secrets: string[]; claims: Int32Array };
const guard = new SecretGuard(data.secrets, () => undefined);

port.on('message', (m: { id: number; text?: string; bytes?: Uint8Array }) => {
  if (m.id < data.claims.length && Atomics.compareExchange(data.claims, m.id, 0, 1) !== 0) return;
  const text = m.text ?? Buffer.from(m.bytes!.buffer, m.bytes!.byteOffset, m.bytes!.byteLength).toString('utf8');
  port.postMessage({ id: m.id, found: guard.find(text) });
});
