/**
 * The canonical entries of a result hashed as they come (./canonical.ts walks, this digests), in
 * blocks, so bindings that agree are compared without holding one path string per value.
 */
import { createHash } from 'node:crypto';
import { stepOf, type Entry } from './entry.js';

/** How many raw segments (split at every '/') a step adds to a path: one, unless a namespace in its name holds '/'. */
export function segmentsOf(name: string): number {
  let n = 1;
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) n++;
  return n;
}

/** The number of decimal digits of a positive integer. */
function digitCount(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}

/** `n` (a non-negative integer) in decimal digits into `buf` at `at`; returns the offset after it. */
function writeNumber(buf: Uint16Array, at: number, n: number): number {
  if (n < 10) {
    buf[at] = 0x30 + n;
    return at + 1;
  }
  const d = String(n);
  for (let i = 0; i < d.length; i++) buf[at++] = d.charCodeAt(i);
  return at;
}

/**
 * Entries per block of a digest (EntryDigest.blocks): two large results that differ are compared
 * in a window of three blocks around the first block whose digests differ (src/equivalence/differences.ts),
 * so what the comparison holds is bounded whatever the answers' size. A result of up to two blocks
 * is compared whole, as before.
 */
export const ENTRY_BLOCK = 4096;

/** Characters of hash input buffered between updates, at most. */
const CHUNK = 32_768;
/**
 * Characters a digest's buffer starts with: it doubles up to CHUNK as entries come. A view takes a
 * digest per answer, most of a few hundred characters: a CHUNK buffer each (64 KiB zeroed) was most
 * of a digest's cost. How the input is cut into updates does not change a SHA-256.
 */
const FIRST_CHUNK = 1024;

/**
 * Entries into a SHA-256. Each path is fed relative to the previous entry's: how many of its raw
 * segments (the path split at every '/') it shares with it, at most, and the rest of it. That is a
 * function of the two path strings alone, and the path is recovered from it, so the digest is the
 * same whether an entry comes whole (push) or as its parent's place and its step (pushAt), and
 * equal digests still mean equal entries; but each element's name is hashed once, not again in
 * every path below it. Each entry is `shared:restLength:rest valueLength:value`, as UTF-16 code
 * units (every JS string, lone surrogates too, hashes apart), written into a buffer that is hashed
 * when full: no string is built per entry.
 */
export class EntryDigest {
  #hash = createHash('sha256');
  /** Entries pushed so far, and the digests of the blocks of ENTRY_BLOCK entries closed so far. */
  #entries = 0;
  readonly #blocks: string[] = [];
  #finished: string | undefined;
  #buf = new Uint16Array(FIRST_CHUNK);
  #at = 0;
  /**
   * The previous entry's path, split at every '/': its first #depth segments (a path starts with
   * '/': the first is ''). A segment that is an indexed step is kept as its name in #last and its
   * index in #index (0 for any other), so that no `name[index]` string is built.
   */
  readonly #last: string[] = [''];
  readonly #index: number[] = [0];
  #depth = 1;

  /** The previous entry's segment at `k` as a string (built only for the rare comparisons that need it). */
  #segment(k: number): string {
    return stepOf(this.#last[k]!, this.#index[k]!);
  }

  /**
   * Before each entry: where a block of ENTRY_BLOCK entries ends, its digest is taken and the next
   * block hashed apart. The relative paths go on across blocks: a block's digest depends on the
   * entry before it too, which is equal on two sides whose earlier blocks are.
   */
  #next(): void {
    if (this.#entries > 0 && this.#entries % ENTRY_BLOCK === 0) {
      this.#flush();
      this.#blocks.push(this.#hash.digest('hex'));
      this.#hash = createHash('sha256');
    }
    this.#entries++;
  }

  /** An entry whole. */
  push(e: Entry): void {
    this.#next();
    const segs = e.path.split('/');
    let k = 0;
    while (k < segs.length && k < this.#depth && this.#segment(k) === segs[k]) k++;
    this.#remember(0, segs);
    this.#int(k);
    this.#string(k === 0 ? e.path : k === segs.length ? '' : `/${segs.slice(k).join('/')}`, true);
    this.#string(e.value, true);
  }

  /**
   * The entry at `parent + '/' + name[index]` (`index` 0: the name alone), where `parent` is the
   * previous entry's path or a path it starts with (the walk's document order), given as its
   * number of raw segments.
   */
  pushAt(parent: number, name: string, index: number, value: string): void {
    this.#next();
    if (name.indexOf('/') < 0) {
      // One segment, equal to the previous entry's there when both name and index are (`name[index]`
      // reads back one way only: the index is the digits before the closing ']'); an indexed step
      // against a plain one, as strings, when their lengths agree.
      let same = false;
      if (parent < this.#depth) {
        const l = this.#last[parent]!;
        const li = this.#index[parent]!;
        if (li === index) same = l === name;
        else if (li === 0 || index === 0) {
          same =
            l.length + (li === 0 ? 0 : 2 + digitCount(li)) === name.length + (index === 0 ? 0 : 2 + digitCount(index))
            && this.#segment(parent) === stepOf(name, index);
        }
      }
      this.#last[parent] = name;
      this.#index[parent] = index;
      this.#depth = parent + 1;
      const room = name.length + value.length + 80; // the characters, and room for four numbers and their marks
      if (room <= CHUNK) {
        // The usual entry, written in one go: the same characters as the calls below would write.
        this.#ensure(room);
        const buf = this.#buf;
        let at: number;
        if (same) {
          // The step the previous entry had there (a text() after its element's entry): `parent+1:0:`.
          at = writeNumber(buf, this.#at, parent + 1);
          buf[at++] = 0x3a;
          buf[at++] = 0x30; // '0'
          buf[at++] = 0x3a;
        } else {
          at = writeNumber(buf, this.#at, parent);
          buf[at++] = 0x3a; // ':'
          at = writeNumber(buf, at, name.length + 1 + (index === 0 ? 0 : 2 + digitCount(index)));
          buf[at++] = 0x3a;
          buf[at++] = 0x2f; // '/'
          for (let i = 0; i < name.length; i++) buf[at++] = name.charCodeAt(i);
          if (index !== 0) {
            buf[at++] = 0x5b; // '['
            at = writeNumber(buf, at, index);
            buf[at++] = 0x5d; // ']'
          }
        }
        at = writeNumber(buf, at, value.length);
        buf[at++] = 0x3a;
        for (let i = 0; i < value.length; i++) buf[at++] = value.charCodeAt(i);
        this.#at = at;
        return;
      }
      if (same) {
        this.#int(parent + 1);
        this.#string('', true);
      } else {
        this.#int(parent);
        this.#int(name.length + 1 + (index === 0 ? 0 : 2 + digitCount(index)));
        this.#char(0x2f); // '/'
        this.#string(name, false);
        if (index !== 0) {
          this.#char(0x5b); // '['
          this.#digits(index);
          this.#char(0x5d); // ']'
        }
      }
      this.#string(value, true);
      return;
    }
    const segs = stepOf(name, index).split('/');
    let j = 0;
    while (j < segs.length && parent + j < this.#depth && this.#segment(parent + j) === segs[j]) j++;
    this.#remember(parent, segs);
    this.#int(parent + j);
    this.#string(j === segs.length ? '' : `/${segs.slice(j).join('/')}`, true);
    this.#string(value, true);
  }

  #remember(from: number, segs: readonly string[]): void {
    for (let i = 0; i < segs.length; i++) {
      this.#last[from + i] = segs[i]!;
      this.#index[from + i] = 0;
    }
    this.#depth = from + segs.length;
  }

  /** Room for `n` (at most CHUNK) more characters in the buffer: grown, else hashed. */
  #ensure(n: number): void {
    const need = this.#at + n;
    const size = this.#buf.length;
    if (need <= size) return;
    if (size < CHUNK) {
      const grown = new Uint16Array(Math.min(CHUNK, Math.max(2 * size, need)));
      grown.set(this.#buf.subarray(0, this.#at));
      this.#buf = grown;
      if (need <= grown.length) return;
    }
    this.#flush();
  }

  #char(c: number): void {
    this.#ensure(1);
    this.#buf[this.#at++] = c;
  }

  /** `n` in decimal digits. */
  #digits(n: number): void {
    this.#ensure(17);
    const buf = this.#buf;
    if (n < 10) buf[this.#at++] = 0x30 + n;
    else {
      const d = String(n);
      for (let i = 0; i < d.length; i++) buf[this.#at++] = d.charCodeAt(i);
    }
  }

  /** `n:` in decimal digits. */
  #int(n: number): void {
    this.#digits(n);
    this.#buf[this.#at++] = 0x3a; // ':' (#digits left room)
  }

  /** A string's code units, preceded by `length:` when `counted`. */
  #string(s: string, counted: boolean): void {
    if (counted) this.#int(s.length);
    for (let from = 0; from < s.length; ) {
      this.#ensure(Math.min(s.length - from, CHUNK));
      const buf = this.#buf;
      const end = Math.min(s.length, from + buf.length - this.#at);
      let at = this.#at;
      for (let i = from; i < end; i++) buf[at++] = s.charCodeAt(i);
      this.#at = at;
      from = end;
    }
  }

  #flush(): void {
    if (this.#at === 0) return;
    this.#hash.update(new Uint8Array(this.#buf.buffer, 0, this.#at * 2));
    this.#at = 0;
  }

  /**
   * The digest of the entries: of their bytes up to ENTRY_BLOCK entries (as before issue 43), else
   * of the list of their blocks' digests (equal lists, equal entries).
   */
  finish(): string {
    if (this.#finished !== undefined) return this.#finished;
    this.#flush();
    const last = this.#hash.digest('hex');
    if (this.#blocks.length === 0) this.#blocks.push(last);
    else {
      this.#blocks.push(last);
      this.#finished = createHash('sha256')
        .update(`blocks:${this.#blocks.join(',')}`)
        .digest('hex');
    }
    this.#finished ??= last;
    return this.#finished;
  }

  /** The digests of the blocks of ENTRY_BLOCK entries, in order (after finish; one block for a short list). */
  blocks(): readonly string[] {
    this.finish();
    return this.#blocks;
  }
}
