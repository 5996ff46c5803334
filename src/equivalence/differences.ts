/**
 * Where the accepted answers of bindings differ by value: bindings grouped by the digest of their
 * canonical entries, and for each group departing from the largest one the first differing path and
 * every binding's value there, read in a window of entries around the first differing block.
 */
import { EQUIVALENCE_CHECK } from '../core/rows.js';
import type { BindingId } from '../contract/catalogue.js';
import type { CheckOutcome } from '../checks/types.js';
import type { Finding } from '../core/types.js';
import { ELEMENT, type Entry } from './canonical.js';
import { ENTRY_BLOCK } from './entry-digest.js';
import { displayValue } from './values.js';
import { canonicalDiff, describeItem } from './canonical-diff.js';
import type { BindingView } from './binding-view.js';

export interface EquivalenceRow {
  /** The departing binding(s), comma-separated; undefined when all agree (the row names all bindings). */
  readonly binding?: string;
  readonly outcome: CheckOutcome;
}

/** Bindings as a message names them: `soap11, get`. */
export const bindingList = (bs: readonly BindingId[]) => bs.join(', ');

/** Group bindings by a key; the largest group first (ties keep binding order). */
export function groups<T>(items: readonly T[], key: (t: T) => string): T[][] {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    m.set(k, [...(m.get(k) ?? []), it]);
  }
  return [...m.values()].sort((a, b) => b.length - a.length);
}

/** The index of the first entry where two lists differ, or -1. */
function firstDifference(ref: readonly Entry[], other: readonly Entry[]): number {
  const n = Math.max(ref.length, other.length);
  for (let i = 0; i < n; i++) {
    const a = ref[i];
    const b = other[i];
    if (!a || !b || a.path !== b.path || a.value !== b.value) return i;
  }
  return -1;
}

/**
 * The place where two canonical entry lists first differ, or undefined when they are equal. Where
 * one side has an entry the other lacks, that entry's place is the difference.
 */
export function firstDifferingPath(ref: readonly Entry[], other: readonly Entry[]): string | undefined {
  const i = firstDifference(ref, other);
  if (i < 0) return undefined;
  const [a, m] = [ref[i], other[i]];
  if (a && m && a.path !== m.path) return ref.some((e) => e.path === m.path) ? a.path : m.path;
  return (a ?? m)!.path;
}

/**
 * Entries of a window the comparison reads of one binding: three blocks (the one before the first differing block, it,
 * and the one after).
 */
export const WINDOW_ENTRIES = 3 * ENTRY_BLOCK;

/** A window of entries: those at places [from, to) of the canonical list. */
interface EntryWindow {
  readonly from: number;
  readonly to: number;
}

/**
 * What the comparison reads of each binding's result: a digest of its canonical entries and of its
 * blocks, and the entries themselves only where digests differ, a window of them at a time.
 */
interface Canonical {
  digest(b: BindingId): string;
  blocks(b: BindingId): readonly string[];
  entries(b: BindingId, window: EntryWindow): Entry[];
}

export function canonicalOf(views: ReadonlyMap<BindingId, BindingView>, ignoreDocumented: boolean): Canonical {
  return {
    digest: (b) => views.get(b)!.digest(ignoreDocumented),
    blocks: (b) => views.get(b)!.blocks(ignoreDocumented),
    entries: (b, w) => views.get(b)!.entries(ignoreDocumented, w),
  };
}

/**
 * Where to read two results that differ (issue 43): from the block before their first differing
 * block to the block after it. Their entries before it are equal (their blocks' digests are), so
 * the first difference lies in the window; a result of up to two blocks is read whole.
 */
function windowOf(ref: readonly string[], mine: readonly string[]): EntryWindow {
  let j = 0;
  while (j < ref.length && j < mine.length && ref[j] === mine[j]) j++;
  const from = Math.max(0, (j - 1) * ENTRY_BLOCK);
  return { from, to: from + WINDOW_ENTRIES };
}

/** A value quoted in a finding: at most this many characters (entries already hold long values compacted). */
const MAX_QUOTED = 200;

/** A canonical value as a finding (or the comparison of two targets) quotes it; "(absent)" for none. */
export function shown(value: string | undefined): string {
  if (value === undefined) return '(absent)';
  const v = displayValue(value);
  return v.length > MAX_QUOTED ? `${v.slice(0, MAX_QUOTED)}… (${v.length.toLocaleString('en-US')} characters)` : v;
}

/**
 * The value at `path` as a finding quotes it: an element by its content in angle brackets
 * (`<meal id=3 name="Half board">`), any other value as shown().
 */
function describedValue(entries: readonly Entry[], path: string): Described {
  const v = valueIn(entries, path);
  const item = v === ELEMENT ? describeItem(entries, path) : undefined;
  return item !== undefined ? { text: `<${item}>`, item: true } : { text: shown(v), item: false };
}

/** A value as a finding quotes it; an item description is not put in quotes again in the message. */
interface Described {
  readonly text: string;
  readonly item: boolean;
}

/** The value of the entry at `path`, or undefined when there is none. */
export function valueIn(entries: readonly Entry[], path: string): string | undefined {
  return entries.find((x) => x.path === path)?.value;
}

/**
 * Rows for the bindings whose entries depart from the largest group's, each naming the first
 * differing path and every binding's value there. Two bindings that differ (no majority) are named
 * together: nothing says which of them is wrong. Only windows of entries are read (windowOf: at
 * most WINDOW_ENTRIES a binding, whatever the answers' size), each binding's once per window; the
 * values of the others are read one binding at a time.
 */
export function differences(accepted: readonly BindingId[], canonical: Canonical, note: string): EquivalenceRow[] {
  // Group by digest: bindings that agree (the usual case) never hold their entries.
  const digests = new Map(accepted.map((b) => [b, canonical.digest(b)]));
  const byValue = groups(accepted, (b) => digests.get(b)!);
  if (byValue.length === 1) return [];
  const reference = byValue[0]!;
  const others = byValue.slice(1);
  const noMajority = others.some((g) => g.length === reference.length);
  const pair = accepted.length === 2;
  const refBlocks = canonical.blocks(reference[0]!);
  const refLabel = `${bindingList(reference)}${noMajority ? '' : ' (majority)'}`;
  const read = new Map<string, Entry[]>();
  const entriesOf = (g: readonly BindingId[], w: EntryWindow): Entry[] => {
    const key = `${g[0]} ${w.from}`;
    let e = read.get(key);
    if (!e) read.set(key, (e = canonical.entries(g[0]!, w)));
    return e;
  };
  // The first difference of each departing group, and its own value there.
  const found = others.map((g) => {
    const w = windowOf(refBlocks, canonical.blocks(g[0]!));
    const ref = entriesOf(reference, w);
    const mine = entriesOf(g, w);
    const path = firstDifferingPath(ref, mine)!;
    return {
      g,
      path,
      w,
      mine: describedValue(mine, path),
      diff: canonicalDiff(refLabel, ref, bindingList(g), mine, w.from),
    };
  });
  // Every binding's value at the path named, read in that difference's window; an element is
  // named by its content (`meal id=3 name="Half board"`), not by the marker its entry holds.
  const valueAt = (b: BindingId, f: (typeof found)[number]): Described =>
    describedValue(entriesOf(byValue.find((x) => x.includes(b))!, f.w), f.path);
  const values = new Map<BindingId, Map<string, Described>>(accepted.map((b) => [b, new Map()]));
  for (const f of found) for (const b of accepted) values.get(b)!.set(f.path, valueAt(b, f));
  return found.map(({ g, path, mine, diff }) => {
    const all = accepted
      .map((b) => {
        const v = values.get(b)!.get(path)!;
        return `${b}=${v.item ? v.text : JSON.stringify(v.text)}`;
      })
      .join(', ');
    const f: Finding = {
      check: EQUIVALENCE_CHECK,
      code: 'value_differs',
      path,
      message:
        `${bindingList(g)} ${g.length > 1 ? 'depart' : 'departs'} `
        + `from ${bindingList(reference)}${noMajority ? ' (no majority: either side may be wrong)' : ''}: `
        + `first difference at ${path}: ${all}${note}`,
      expected: `${bindingList(reference)}: ${values.get(reference[0]!)!.get(path)!.text}`,
      actual: `${bindingList(g)}: ${mine.text}`,
      ...(diff !== undefined ? { diff } : {}),
    };
    return { binding: (pair ? accepted : g).join(','), outcome: [f] };
  });
}
