/**
 * The last line of defence against publishing a credential: every file a writer is about to write
 * is searched for each secret, in every spelling the redactor finds (src/core/redact.ts: the same
 * decoded views, so the same forms). What it finds is redacted, not refused: a finished run is
 * never thrown away. The guard says so on stderr, naming the file, and never the secret.
 */
import { makeSecretMatcher, REDACTED, replaceSpans, type SecretMatcher } from '../core/redact.js';

/** Where the line holding position `at` ends. */
function lineEnd(text: string, at: number): number {
  const n = text.indexOf('\n', Math.max(0, at - 1));
  return n < 0 ? text.length : n;
}

/** Where a text spells a secret: ranges, merged, in order (and which secrets: 1-based indexes). */
export interface SecretSpans {
  spans: Array<[number, number]>;
  which: number[];
}

/** Writes a warning line (default: stderr). */
export type Warn = (message: string) => void;

export const stderrWarn: Warn = (m) => {
  process.stderr.write(`${m}\n`);
};

/**
 * Searches content about to be written for secrets and redacts them; each secret is named by its index, never echoed.
 */
export class SecretGuard {
  readonly #matchers: SecretMatcher[];
  /**
   * All the secrets in one matcher: it decodes a text's views once for every secret, where a matcher
   * per secret decodes them once each (most of a whole file's search). What it finds is a superset
   * of what the matchers per secret find (the union of their forms, searched in the union of their
   * views), so when it finds nothing neither would they; when it finds something, they are asked,
   * and say which secrets and where, exactly as without it.
   */
  readonly #any: SecretMatcher | undefined;
  readonly #warn: Warn;
  /** Files the guard redacted something in, and how many places. */
  readonly redacted: Array<{ file: string; places: number }> = [];

  constructor(secrets: readonly string[], warn: Warn = stderrWarn) {
    const kept = secrets.filter((s) => s.length > 0);
    this.#matchers = kept.map((s) => makeSecretMatcher([s]));
    this.#any = kept.length > 1 ? makeSecretMatcher(kept) : undefined;
    this.#warn = warn;
  }

  /** Ranges of `text` that spell a secret, merged (and which secrets: 1-based indexes). */
  find(text: string): SecretSpans {
    if (this.#any !== undefined && this.#any.spans(text).length === 0) return { spans: [], which: [] };
    const all: Array<[number, number]> = [];
    const which: number[] = [];
    this.#matchers.forEach((m, i) => {
      const spans = m.spans(text);
      if (spans.length) which.push(i + 1);
      all.push(...spans);
    });
    all.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [s, e] of all) {
      const last = merged[merged.length - 1];
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else merged.push([s, e]);
    }
    return { spans: merged, which };
  }

  /**
   * `text` with every spelling of a secret replaced by *** (a warning names the file). `harness` is
   * the same file rendered from the harness's own text alone (a short password can be spelled there:
   * "en" in "content_type", "p" in "http"). When the file holds no more spellings than that, none of
   * them is the target's and the file is left as it is; when it holds more, only spellings on lines
   * the harness does not write itself are redacted, so the report keeps its structure and words.
   * `found` is what find(text) answers, when it was asked already (./guard-search.ts, ahead).
   */
  protect(file: string, text: string, harness?: () => string, found: SecretSpans = this.find(text)): string {
    let { spans } = found;
    const { which } = found;
    if (spans.length > 0 && harness) {
      const own = harness();
      if (spans.length <= this.find(own).spans.length) return text;
      const lines = new Set(own.split('\n'));
      spans = spans.filter(([s, e]) => !lines.has(text.slice(text.lastIndexOf('\n', s - 1) + 1, lineEnd(text, e))));
    }
    if (spans.length === 0) return text;
    this.#report(file, spans.length, which);
    return replaceSpans(text, spans, REDACTED);
  }

  /**
   * A JSON value with the secret redacted from every string that differs from the harness's own
   * rendering (`skeleton`, the same value with what was sent and received left out): keys and the
   * harness's own strings are never touched, so the file keeps its structure whatever the password.
   * What holds nothing to redact is returned as it is (the same objects, not copies). `note` ends
   * the warning in place of what #report says.
   */
  protectTree<T>(file: string, value: T, skeleton: unknown, note?: string): T {
    let places = 0;
    const which = new Set<number>();
    // A report repeats its texts (a reproduce command on every check row of its exchange): each
    // distinct one is searched once.
    const found = new Map<string, { out: string; places: number }>();
    const walk = (v: unknown, k: unknown): unknown => {
      if (typeof v === 'string') {
        if (v === k || v === '') return v;
        const known = found.get(v);
        if (known !== undefined) {
          places += known.places;
          return known.out;
        }
        const f = this.find(v);
        const out = f.spans.length === 0 ? v : replaceSpans(v, f.spans, REDACTED);
        found.set(v, { out, places: f.spans.length });
        places += f.spans.length;
        for (const w of f.which) which.add(w);
        return out;
      }
      if (Array.isArray(v)) {
        let copy: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const x = walk(v[i], Array.isArray(k) ? k[i] : undefined);
          if (x !== v[i]) (copy ??= v.slice())[i] = x;
        }
        return copy ?? v;
      }
      if (v !== null && typeof v === 'object') {
        const ks = k !== null && typeof k === 'object' ? (k as Record<string, unknown>) : {};
        let copy: Record<string, unknown> | undefined;
        for (const key of Object.keys(v)) {
          const x0 = (v as Record<string, unknown>)[key];
          const x = walk(x0, ks[key]);
          if (x !== x0) (copy ??= { ...(v as Record<string, unknown>) })[key] = x;
        }
        return copy ?? v;
      }
      return v;
    };
    const out = walk(value, skeleton) as T;
    if (places > 0)
      this.#report(
        file,
        places,
        [...which].sort((a, b) => a - b),
        note,
      );
    return out;
  }

  /**
   * The same for bytes in any encoding (a recorded body): read one byte per character (Latin-1),
   * which the redactor's single-byte readings cover, so the other bytes are kept exactly.
   */
  protectBytes(file: string, bytes: Buffer): Buffer {
    const { spans, which } = this.find(bytes.toString('latin1'));
    if (spans.length === 0) return bytes;
    this.#report(file, spans.length, which);
    const parts: Buffer[] = [];
    let at = 0;
    for (const [s, e] of spans) {
      parts.push(bytes.subarray(at, s), Buffer.from(REDACTED, 'latin1'));
      at = e;
    }
    parts.push(bytes.subarray(at));
    return Buffer.concat(parts);
  }

  #report(file: string, places: number, which: number[], note = 'redacted there as *** before writing'): void {
    this.redacted.push({ file, places });
    this.#warn(
      `warning: ${file} would have contained secret ${which.map((i) => `#${i}`).join(', ')} `
        + `in ${places} place${places > 1 ? 's' : ''} `
        + `that the run's own redaction did not cover: ${note}`,
    );
  }
}
