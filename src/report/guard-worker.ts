/**
 * The secret guard's whole-file search in a worker thread of its own (./guard-search.ts starts it):
 * while the main thread renders the next report, this one searches the last one, on the other
 * core. The secrets come as workerData (they stay in this process's memory, as the guard's own do);
 * each message is { id, text } or { id, bytes } (UTF-8), answered by { id, found } with what
 * SecretGuard.find says of it. A search the main thread has claimed first (its flag in `claims`,
 * shared) is its own: skipped here, unanswered. A worker started before the secrets are known
 * (startGuardWorkerEarly in ./guard-search.ts) takes them, and the flags, from its first message,
 * { setup }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SecretGuard } from './secrets.js';

/** What the worker searches with: given as workerData, or by the first message of a worker started early. */
interface Setup {
  secrets: string[];
  claims: Int32Array;
}

const port = parentPort!;
let setup = (workerData as Setup | null) ?? undefined;
let guard = setup ? new SecretGuard(setup.secrets, () => undefined) : undefined;

port.on('message', (m: { id: number; text?: string; bytes?: Uint8Array } | { setup: Setup }) => {
  if ('setup' in m) {
    setup = m.setup;
    guard = new SecretGuard(setup.secrets, () => undefined);
    return;
  }
  if (!setup || !guard) return; // never: a search is only posted after the setup
  if (m.id < setup.claims.length && Atomics.compareExchange(setup.claims, m.id, 0, 1) !== 0) return;
  const text = m.text ?? Buffer.from(m.bytes!.buffer, m.bytes!.byteOffset, m.bytes!.byteLength).toString('utf8');
  port.postMessage({ id: m.id, found: guard.find(text) });
});
