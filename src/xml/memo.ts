/**
 * A bounded memo of pure per-document work, keyed by the document's exact text: a run receives the
 * same answer many times (every rejection of a binding alike, lists repeated across cases: of the
 * embedded run's 842 bodies about 356 are distinct), and what is computed from the text alone
 * (libxml2's verdict, the parsed tree) is then computed once.
 *
 * Bounded so that memory stays one document's worth plus a small constant: only texts of at most
 * `maxKeyChars` characters are kept (a large or hostile document is never held past its check), and
 * the kept texts (with the caller's estimate of what their values cost) add up to at most
 * `budget`; beyond it the least recently used go first. What is memoised must be immutable: every
 * holder of a text's value shares one object.
 */
export class TextMemo<V> {
  readonly #entries = new Map<string, { value: V; cost: number }>();
  #used = 0;

  /**
   * @param maxKeyChars texts longer than this are never kept
   * @param budget total cost kept (a text costs its length plus `extraCost(value, text)`)
   */
  constructor(
    readonly maxKeyChars: number,
    readonly budget: number,
    private readonly extraCost: (value: V, text: string) => number = () => 0,
  ) {}

  /** The value for `text`: remembered, or computed by `compute` (and remembered when small enough). */
  get(text: string, compute: () => V): V {
    if (text.length > this.maxKeyChars) return compute();
    const hit = this.#entries.get(text);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.#entries.delete(text);
      this.#entries.set(text, hit);
      return hit.value;
    }
    const value = compute();
    const cost = text.length + this.extraCost(value, text);
    if (cost > this.budget) return value;
    this.#entries.set(text, { value, cost });
    this.#used += cost;
    for (const [k, e] of this.#entries) {
      if (this.#used <= this.budget) break;
      this.#entries.delete(k);
      this.#used -= e.cost;
    }
    return value;
  }

  /** The value kept for `text`, if any (not computed). */
  peek(text: string): V | undefined {
    return text.length > this.maxKeyChars ? undefined : this.#entries.get(text)?.value;
  }

  /** Texts kept and their total cost (for tests). */
  get size(): { entries: number; cost: number } {
    return { entries: this.#entries.size, cost: this.#used };
  }

  clear(): void {
    this.#entries.clear();
    this.#used = 0;
  }
}

/** Texts up to this many characters are memoised (a response of a normal run is a few KiB). */
export const MEMO_MAX_CHARS = 64 * 1024;
