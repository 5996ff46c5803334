/**
 * The bytes of response bodies the exchanges in flight hold at once (TransportOptions.bodyBudgetBytes),
 * so large answers queue at the transport instead of stacking up in memory.
 */

/**
 * Bytes held by the bodies in flight: granted first come, first served, whole (a body asks once, for
 * its declared length or, when it has none, for the cap), so no two bodies can each hold a part while
 * waiting for the rest of the other's. Bytes charged besides bodies (findings) count toward the
 * budget, but a body larger than what is left is still read when no other body is held: the charges
 * are given back only when their unit is done, which may need that body.
 */
export class BodyBudget {
  #used = 0;
  #peak = 0;
  /** Bodies holding a share now. */
  #bodies = 0;
  readonly #queue: { need: number; grant: () => void }[] = [];
  constructor(readonly capacity: number) {}

  /** Wait until `need` bytes fit (or nothing else is held), then hold them. */
  acquire(need: number, signal: AbortSignal): Promise<void> {
    if (this.#queue.length === 0 && this.#fits(need)) {
      this.#take(need);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        need,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(entry);
        if (i >= 0) this.#queue.splice(i, 1);
        this.#pump();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(entry);
    });
  }

  /** Hold `n` bytes already in memory (no wait: they are there), so that bodies asked for after them wait. */
  charge(n: number): void {
    if (n > 0) this.#add(n);
  }

  /** Give back `n` bytes: a body's share (`body`), or a charge. */
  release(n: number, body: boolean): void {
    if (body) this.#bodies = Math.max(0, this.#bodies - 1);
    if (n > 0) this.#used = Math.max(0, this.#used - n);
    this.#pump();
  }

  /** The most bytes held at once so far. */
  get peak(): number {
    return this.#peak;
  }

  #fits(need: number): boolean {
    return this.#bodies === 0 || this.#used + need <= this.capacity;
  }

  #take(need: number): void {
    this.#bodies++;
    this.#add(need);
  }

  #add(n: number): void {
    this.#used += n;
    this.#peak = Math.max(this.#peak, this.#used);
  }

  #pump(): void {
    while (this.#queue.length > 0 && this.#fits(this.#queue[0]!.need)) {
      const next = this.#queue.shift()!;
      this.#take(next.need);
      next.grant();
    }
  }
}
