/**
 * Determinism of the mock's data: a stable hash of a text and a small seeded PRNG, so the same
 * parameters give the same data (no clock, no global state). Also the seed of the variation mode and
 * the real-service style (./vary.ts, ./real-style.ts).
 */

/** FNV-1a (32 bit) of the UTF-8 bytes of a string. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small seeded PRNG (mulberry32) with the picks the generators need. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }
  /** k distinct items, in their original order. */
  sample<T>(xs: readonly T[], k: number): T[] {
    const idx = xs.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    return idx
      .slice(0, Math.min(k, xs.length))
      .sort((a, b) => a - b)
      .map((i) => xs[i]!);
  }
}
