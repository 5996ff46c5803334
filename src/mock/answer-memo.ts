/**
 * The answers the mock's direct path already gave, by request (./server.ts): the same request gets
 * the same bytes without being decoded, answered and serialised again.
 */
import type { Wire } from './wire.js';

/** Largest request body whose answer is remembered. */
const MEMO_MAX_BODY = 16 * 1024;

/**
 * Answers already given, by request: method, path and query, the headers the handlers see (Host
 * aside: no binding route reads it) and the body. A binding route's answer depends on nothing else
 * (decode reads Content-Type, SOAPAction and the body; the data are seeded by the parameters; the
 * catalogue's faults are pure), so the same request gets the same bytes without being decoded,
 * resolved and serialised again. Bounded; the oldest entries are dropped first.
 */
export class AnswerMemo {
  private readonly answers = new Map<string, Wire>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 4096,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The key of a request, or undefined when its answer is not to be remembered (large body). */
  static key(method: string, url: URL, headers: Readonly<Record<string, string>>, body: Buffer): string | undefined {
    if (body.length > MEMO_MAX_BODY) return undefined;
    // Unambiguous: a method, path or query holds no newline; a header name no colon, a value no newline.
    let key = `${method} ${url.pathname}${url.search}\n`;
    for (const name in headers) if (name !== 'host') key += `${name}:${headers[name]}\n`;
    return `${key}\n${body.toString('latin1')}`;
  }

  get(key: string): Wire | undefined {
    return this.answers.get(key);
  }

  set(key: string, wire: Wire): void {
    const size = key.length + wire.body.length;
    if (size > this.maxBytes) return;
    while (this.answers.size >= this.maxEntries || (this.answers.size > 0 && this.bytes + size > this.maxBytes)) {
      const [oldKey, old] = this.answers.entries().next().value!;
      this.answers.delete(oldKey);
      this.bytes -= oldKey.length + old.body.length;
    }
    this.answers.set(key, wire);
    this.bytes += size;
  }

  get size(): number {
    return this.answers.size;
  }
}
