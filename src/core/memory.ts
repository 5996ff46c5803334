/**
 * A full garbage collection on demand. After a large document is checked its tree is garbage, but
 * V8 collects when its heap grows, not when a document ends: without this, the garbage of one
 * document and the tree of the next would be held together, and a run's peak memory would be set
 * by V8's heap limit rather than by the documents. Used after documents over 1 MiB only (a
 * collection with a small live heap takes some tens of milliseconds).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collect garbage now (exposes V8's gc() to this process on first use). */
export function collectGarbage(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
}
