/**
 * The secret guard's whole-file search in a worker thread of its own (./guard-search.ts starts it):
 * while the main thread renders the next report, this one searches the last one, on the other
 * core. The secrets stay in this process's memory, as the guard's own do;
 * each message is { id, text } or { id, bytes } (UTF-8), answered by { id, found } with what
 * SecretGuard.find says of it. A search the main thread has claimed first (its flag in `claims`,
 * shared) is its own: skipped here, unanswered. The secrets and the flags come as the first message,
 * { setup }: the worker may be started before they are known (startGuardWorkerEarly in
 * ./guard-search.ts), so that it loads while the run goes on.
 */
import { parentPort } from 'node:worker_threads';
import { SecretGuard } from './secrets.js';

const port = parentPort!;
/** The guard and the claim flags, from the setup message (no search is posted before it). */
let search: { guard: SecretGuard; claims: Int32Array } | undefined;

port.on(
  'message',
  (m: { id: number; text?: string; bytes?: Uint8Array } | { setup: { secrets: string[]; claims: Int32Array } }) => {
    if ('setup' in m) {
      search = { guard: new SecretGuard(m.setup.secrets, () => undefined), claims: m.setup.claims };
      return;
    }
    if (!search) return;
    if (m.id < search.claims.length && Atomics.compareExchange(search.claims, m.id, 0, 1) !== 0) return;
    const text = m.text ?? Buffer.from(m.bytes!.buffer, m.bytes!.byteOffset, m.bytes!.byteLength).toString('utf8');
    port.postMessage({ id: m.id, found: search.guard.find(text) });
  },
);
