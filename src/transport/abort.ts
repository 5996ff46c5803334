/**
 * How an exchange is aborted: its own time budget, which does not count time the event loop spent
 * blocked (checking a large document), the run's deadline (wall clock), and a request undici would
 * not yet abort (no connection yet). The abort signal's reason says which (Stop).
 */
import type { Dispatcher } from 'undici';

/** Why the transport aborted an exchange (the abort signal's reason). */
export class Stop extends Error {
  constructor(
    readonly why: 'timeout' | 'deadline' | 'stopped',
    readonly detail = '',
  ) {
    super(why);
  }
}

/**
 * How long the event loop has been blocked, summed: a timer every 25 ms notes how late it fires.
 * Runs only while exchanges are in flight, and never keeps the process alive.
 */
class LoopLag {
  static readonly INTERVAL = 25;
  /** Lateness below this is timer jitter, not a blocked loop. */
  static readonly SLACK = 15;
  #blocked = 0;
  #last = 0;
  #timer: NodeJS.Timeout | undefined;
  #users = 0;

  acquire(): void {
    if (this.#users++ > 0) return;
    this.#last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const late = now - this.#last - LoopLag.INTERVAL;
      if (late > LoopLag.SLACK) this.#blocked += late;
      this.#last = now;
    }, LoopLag.INTERVAL);
    this.#timer.unref();
  }

  release(): void {
    if (--this.#users > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Milliseconds blocked so far, a block still going on (this very call runs late) included. */
  blocked(): number {
    const late = performance.now() - this.#last - LoopLag.INTERVAL;
    return this.#blocked + (late > LoopLag.SLACK ? late : 0);
  }
}

const lag = new LoopLag();

/**
 * Abort `controller` after `budget` ms of the exchange's own time (time the event loop was blocked
 * not counted), and at the deadline (wall clock). Returns the function that disarms both.
 */
export function armTimers(
  controller: AbortController,
  budget: number,
  deadline: number | undefined,
  excused: () => number = () => 0,
): () => void {
  const started = performance.now();
  lag.acquire();
  const blocked0 = lag.blocked();
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(fire, Math.max(1, Math.ceil(ms)));
  };
  // Fire after the poll phase of this loop turn: what arrived while the loop was busy is read first.
  const fire = () => {
    immediate = setImmediate(() => {
      const spent = performance.now() - started - (lag.blocked() - blocked0) - excused();
      if (spent >= budget) controller.abort(new Stop('timeout'));
      else arm(budget - spent);
    });
  };
  arm(budget);
  const wall =
    deadline === undefined
      ? undefined
      : setTimeout(() => controller.abort(new Stop('deadline')), Math.max(1, deadline - Date.now()));
  let done = false;
  return () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(wall);
    if (immediate) clearImmediate(immediate);
    lag.release();
  };
}

/**
 * undici applies an abort signal only once the request has a connection: a name lookup or connect
 * that hangs would outlive the exchange's budget. Give up when the signal fires; a response that
 * still arrives later is discarded.
 */
export function abortable(p: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  const discard = () => {
    p.then(
      (r) => r.body.destroy(),
      () => {},
    );
  };
  if (signal.aborted) {
    discard();
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      discard();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
