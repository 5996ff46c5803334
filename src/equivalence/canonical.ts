/**
 * The canonical form of a result: a flat list of (path, value) entries in document order, read
 * with the type model. Prefixes are resolved away (names are namespace URI + local name), the
 * envelope and wrapper are not part of it, whitespace-only text between elements is ignored,
 * attributes are sorted, values are in their XSD value space, and xsi:nil is distinct from empty.
 * An xsi:type naming the element's declared type says nothing and is left out; another one is kept
 * by the type's local name (its prefix is the writer's choice).
 */
import { createHash } from 'node:crypto';
import {
  effective,
  isSimple,
  MODEL,
  type AttributeDef,
  type ElementField,
  type SimpleType,
  type TypeRef,
} from '../contract/model.js';
import { internalized } from '../xml/scan-reader.js';
import { isNil, XSI_NS, type XElement } from '../xml/tree.js';
import { canonicalUntyped, canonicalValue } from './values.js';
import { EntryDigest, segmentsOf } from './entry-digest.js';
import { stepOf, type Entry } from './entry.js';

export type { Entry } from './entry.js';

export const ELEMENT = '<element>';
export const NIL = '<nil>';
export const DOCUMENTED = '<binding-specific, documented>';

/** Decides whether a place (local names from the result element, no indexes) is a documented difference. */
export type IgnorePredicate = (namePath: string) => boolean;

/**
 * Where entries go. The walk names a place by its parent's place and its own step, given as a name
 * and a list index (`meal` and 2 for `meal[2]`; 0 for none, as in `@currency` or `text()`): the
 * entry list builds path strings from them, the digest only counts the parent's path segments and
 * writes the step, so a digest never builds a path nor an indexed step (issue 35: the whole paths
 * of a 10 MB answer were about 50 M characters, joined and hashed).
 */
interface Sink<P> {
  push(parent: P, name: string, index: number, value: string): void;
  child(parent: P, name: string, index: number): P;
}

interface Walk<P> {
  readonly ns: string;
  /** Undefined when nothing is ignored: no name path is built then. */
  readonly ignore: IgnorePredicate | undefined;
  readonly out: Sink<P>;
  /**
   * Names seen among one element's children, each marked with that element's number (a repeat
   * finds its own mark): one map for the walk, not one per element, and none kept past the walk
   * (a name may be a view of its document's whole text).
   */
  readonly marks: { readonly seen: Map<string, number>; last: number };
}

const newMarks = () => ({ seen: new Map<string, number>(), last: 0 });

/** Values longer than this are kept in entries as their start, length and digest (compactValue). */
export const MAX_ENTRY_VALUE = 1024;

/**
 * A long value as entries hold it: its first 120 characters, its length and a digest of the whole.
 * Two values compact alike only when they are equal (bar a SHA-256 collision), and a finding that
 * quotes one stays small: two answers that differ in a 30 MB text held both texts whole in every
 * entry list, message and report format.
 */
export function compactValue(value: string): string {
  if (value.length <= MAX_ENTRY_VALUE) return value;
  const digest = createHash('sha256').update(value, 'utf16le').digest('hex').slice(0, 16);
  return `${value.slice(0, 120)}… (${value.length.toLocaleString('en-US')} characters, SHA-256 ${digest})`;
}

/**
 * Which entries a walk keeps (issue 43): those whose place in the list is in [from, to), whose path
 * `path` accepts, at most `limit` of them. The comparison of two large answers that differ reads a
 * window around their first differing block, never the whole list (a million unknown elements were
 * two million entries, each a path string, held per binding: 2.6 GB).
 */
export interface EntrySelect {
  readonly from?: number;
  readonly to?: number;
  readonly path?: (path: string) => boolean;
  readonly limit?: number;
}

/** Thrown inside a walk to end it once its window is read (never escapes canonicalEntries). */
const WINDOW_READ = Symbol('window read');

/**
 * The canonical entries of a result element of a model type (long values compacted: compactValue);
 * with `select`, only those it keeps, the walk ended once past its window: what is held is the
 * window, whatever the size of the answer.
 */
export function canonicalEntries(
  el: XElement,
  typeName: TypeRef,
  groupNs: string,
  ignore?: IgnorePredicate,
  select?: EntrySelect,
): Entry[] {
  const out: Entry[] = [];
  const from = select?.from ?? 0;
  const to = select?.to ?? Infinity;
  const limit = select?.limit ?? Infinity;
  const keep = select?.path;
  let n = 0;
  const sink: Sink<string> = {
    push: (parent, name, index, value) => {
      const i = n++;
      if (i < from) return;
      if (i >= to || out.length >= limit) throw WINDOW_READ;
      const path = `${parent}/${stepOf(name, index)}`;
      if (keep && !keep(path)) return;
      out.push({ path, value: value.length > MAX_ENTRY_VALUE ? compactValue(value) : value });
    },
    child: (parent, name, index) => `${parent}/${stepOf(name, index)}`,
  };
  try {
    visit({ ns: internalized(groupNs), ignore, out: sink, marks: newMarks() }, el, typeName, '', el.local, 0, el.local);
  } catch (e) {
    if (e !== WINDOW_READ) throw e;
  }
  return out;
}

/**
 * A result's digest and its blocks' (EntryDigest.blocks): equal digests mean equal entries; the first differing block
 * says where to look.
 */
export interface Digests {
  readonly whole: string;
  readonly blocks: readonly string[];
}

/**
 * A digest of the canonical entries (as EntryDigest gives for canonicalEntries' list), computed
 * without holding them or building their paths: equal digests mean equal entries. For large
 * results this keeps the comparison of bindings that agree from holding one path string per value
 * for every binding.
 */
export function canonicalDigest(el: XElement, typeName: TypeRef, groupNs: string, ignore?: IgnorePredicate): string {
  return canonicalDigests(el, typeName, groupNs, ignore).whole;
}

/** canonicalDigest and the digests of its blocks of ENTRY_BLOCK entries, in one walk. */
export function canonicalDigests(el: XElement, typeName: TypeRef, groupNs: string, ignore?: IgnorePredicate): Digests {
  const digest = new EntryDigest();
  const sink: Sink<number> = {
    push: (parent, name, index, value) => digest.pushAt(parent, name, index, value),
    child: (parent, name) => parent + segmentsOf(name),
  };
  visit({ ns: internalized(groupNs), ignore, out: sink, marks: newMarks() }, el, typeName, 1, el.local, 0, el.local);
  const whole = digest.finish();
  return { whole, blocks: digest.blocks() };
}

const typeLocal = (v: string) => v.trim().split(':').pop()!;

type ListItem = NonNullable<ElementField['list']>;

/** What the walk reads of a type, looked up once per type (the model does not change). */
interface TypeInfo {
  /** How its content is read: a simple or enum value, untyped, open content, a typed text, or complex fields. */
  readonly content: 'simple' | 'enum' | 'untyped' | 'open' | 'text' | 'complex';
  /** The type of its text: the simple type itself, an enum's 'enum', a complex type's text or orText type. */
  readonly textType?: SimpleType | 'enum';
  readonly orText?: SimpleType;
  /** A complex type's element fields by name. */
  readonly fields?: ReadonlyMap<string, ElementField>;
  readonly attributes: readonly AttributeDef[];
}

const UNTYPED: TypeInfo = { content: 'untyped', attributes: [] };
const INFOS = new Map<string, TypeInfo>();

function infoOf(type: TypeRef | undefined): TypeInfo {
  if (type === undefined) return UNTYPED;
  let info = INFOS.get(type);
  if (info) return info;
  const named = MODEL.get(type);
  if (isSimple(type)) info = { content: 'simple', textType: type, attributes: [] };
  else if (named?.kind === 'enum') info = { content: 'enum', textType: 'enum', attributes: [] };
  else if (!named || type === 'anyType') info = UNTYPED;
  else {
    const eff = effective(named.name);
    const fields = new Map<string, ElementField>();
    for (const f of eff.fields) if (f.kind === 'element') fields.set(f.name, f);
    const content = eff.openContent ? 'open' : eff.text ? 'text' : 'complex';
    info = { content, textType: eff.text, orText: eff.orText, fields, attributes: eff.attributes };
  }
  INFOS.set(type, info);
  return info;
}

/** A list's items as the field its children are read with (once per list of the model). */
const ITEM_FIELDS = new WeakMap<ListItem, ElementField>();
function itemField(item: ListItem): ElementField {
  let f = ITEM_FIELDS.get(item);
  if (!f)
    ITEM_FIELDS.set(
      item,
      (f = { kind: 'element', name: item.item, type: item.type, min: 0, max: 'unbounded', nillable: false }),
    );
  return f;
}

function attributes<P>(
  w: Walk<P>,
  el: XElement,
  typeName: TypeRef | undefined,
  defs: readonly AttributeDef[],
  at: P,
): void {
  const all = el.attrs;
  if (all.length === 0) return; // most elements: no arrays to build
  if (all.length === 1 && all[0]!.ns === '') {
    // one plain attribute (a rate's currency): nothing to sort or leave out
    const a = all[0]!;
    const def = defs.find((d) => d.name === a.local);
    w.out.push(at, `@${a.local}`, 0, def ? canonicalValue(def.type, a.value) : canonicalUntyped(a.value));
    return;
  }
  const attrs = all
    .filter((a) => !(a.ns === XSI_NS && a.local === 'nil'))
    .filter(
      (a) => !(a.ns === XSI_NS && a.local === 'type' && typeName !== undefined && typeLocal(a.value) === typeName),
    )
    .map((a) => {
      if (a.ns === XSI_NS && a.local === 'type') return { key: `{${XSI_NS}}type`, value: typeLocal(a.value) };
      const def = a.ns === '' ? defs.find((d) => d.name === a.local) : undefined;
      const key = a.ns ? `{${a.ns}}${a.local}` : a.local;
      return { key, value: def ? canonicalValue(def.type, a.value) : canonicalUntyped(a.value) };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const a of attrs) w.out.push(at, `@${a.key}`, 0, a.value);
}

/** Text is whitespace only (XML whitespace), without a regular expression for the usual empty or short text. */
function blank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The element `el` at `parent`/`name[index]`; `namePath` (local names, no indexes) only when something is ignored. */
function visit<P>(
  w: Walk<P>,
  el: XElement,
  type: TypeRef | undefined,
  parent: P,
  name: string,
  index: number,
  namePath: string,
): void {
  if (w.ignore?.(namePath)) {
    w.out.push(parent, name, index, DOCUMENTED);
    return;
  }
  const nil = isNil(el);
  w.out.push(parent, name, index, nil ? NIL : ELEMENT);
  const at = w.out.child(parent, name, index);
  const info = infoOf(type);
  attributes(w, el, type, info.attributes, at);
  if (nil) return;
  switch (info.content) {
    case 'simple':
    case 'enum':
    case 'text':
      w.out.push(at, 'text()', 0, canonicalValue(info.textType!, el.text));
      return;
    case 'untyped':
      untyped(w, el, at, namePath);
      return;
    case 'open':
      // Content not shown: untyped, but a typed text (TransferRate's price) keeps its value space.
      if (info.textType && !blank(el.text)) {
        w.out.push(at, 'text()', 0, canonicalValue(info.textType, el.text));
        children(w, el, at, namePath, undefined, undefined);
      } else {
        untyped(w, el, at, namePath);
      }
      return;
    case 'complex':
      if (info.orText && el.children.length === 0) {
        w.out.push(at, 'text()', 0, canonicalValue(info.orText, el.text));
        return;
      }
      if (!blank(el.text)) w.out.push(at, 'text()', 0, canonicalUntyped(el.text));
      children(w, el, at, namePath, info.fields, undefined);
  }
}

/**
 * The children of `el`, each read with its field: of `fields` (a complex type's), or the list's
 * `item`, or none. A child is indexed (`meal[2]`) when its field may repeat or, without a field,
 * when its name does.
 */
function children<P>(
  w: Walk<P>,
  el: XElement,
  at: P,
  namePath: string,
  fields: ReadonlyMap<string, ElementField> | undefined,
  item: ListItem | undefined,
): void {
  const kids = el.children;
  const n = kids.length;
  if (n === 0) return;
  const ns = w.ns;
  // Whether all names are one (a list's items), else whether any repeats: without a count per
  // name for the usual record of distinct fields or list of one item name.
  const first = kids[0]!;
  let allSame = true;
  for (let k = 1; k < n && allSame; k++) allSame = kids[k]!.local === first.local && kids[k]!.ns === first.ns;
  let repeats = false;
  if (!allSame && n <= FEW && sameNamespace(kids, ns)) repeats = repeatsAmongFew(kids);
  else if (!allSame) {
    const mark = ++w.marks.last;
    const seenNames = w.marks.seen;
    for (let k = 0; k < n && !repeats; k++) {
      const c = kids[k]!;
      const nm = c.ns === ns ? c.local : `{${c.ns}}${c.local}`;
      repeats = seenNames.get(nm) === mark;
      seenNames.set(nm, mark);
    }
  }
  // Occurrences of each name, counted only when names repeat and differ.
  let counts: Map<string, number> | undefined;
  let seen: Map<string, number> | undefined;
  if (repeats) {
    counts = new Map();
    for (const c of kids) counts.set(c.ns === ns ? c.local : `{${c.ns}}${c.local}`, 0);
    for (const c of kids) {
      const nm = c.ns === ns ? c.local : `{${c.ns}}${c.local}`;
      counts.set(nm, counts.get(nm)! + 1);
    }
  }
  const asItem = item ? itemField(item) : undefined;
  for (let k = 0; k < n; k++) {
    const c = kids[k]!;
    const nm = c.ns === ns ? c.local : `{${c.ns}}${c.local}`;
    const count = allSame ? n : counts ? counts.get(nm)! : 1;
    let i = 1;
    if (allSame) i = k + 1;
    else if (count > 1) {
      seen ??= new Map();
      i = (seen.get(nm) ?? 0) + 1;
      seen.set(nm, i);
    }
    const f =
      c.ns !== ns
        ? undefined
        : asItem
          ? item!.item === '*' || c.local === item!.item
            ? asItem
            : undefined
          : fields?.get(c.local);
    const indexed = f ? f.max === 'unbounded' : count > 1;
    const childNames = w.ignore ? `${namePath}/${c.local}` : '';
    if (f?.list) list(w, c, f.list, at, nm, indexed ? i : 0, childNames);
    else visit(w, c, f?.type, at, nm, indexed ? i : 0, childNames);
  }
}

/**
 * Children up to this many, all in the group namespace, are searched for a repeated name pair by pair (fewer steps than
 * a map's).
 */
const FEW = 16;

function sameNamespace(kids: readonly XElement[], ns: string): boolean {
  for (let k = 0; k < kids.length; k++) if (kids[k]!.ns !== ns) return false;
  return true;
}

/** Whether two of `kids` (few, all in the group namespace: named by their local names) have the same name. */
function repeatsAmongFew(kids: readonly XElement[]): boolean {
  for (let a = 1; a < kids.length; a++) {
    const l = kids[a]!.local;
    for (let b = 0; b < a; b++) if (kids[b]!.local === l) return true;
  }
  return false;
}

function list<P>(
  w: Walk<P>,
  el: XElement,
  item: ListItem,
  parent: P,
  name: string,
  index: number,
  namePath: string,
): void {
  if (w.ignore?.(namePath)) {
    w.out.push(parent, name, index, DOCUMENTED);
    return;
  }
  w.out.push(parent, name, index, isNil(el) ? NIL : ELEMENT);
  const at = w.out.child(parent, name, index);
  attributes(w, el, undefined, UNTYPED.attributes, at);
  if (!blank(el.text)) w.out.push(at, 'text()', 0, canonicalUntyped(el.text));
  children(w, el, at, namePath, undefined, item);
}

function untyped<P>(w: Walk<P>, el: XElement, at: P, namePath: string): void {
  if (!blank(el.text) || el.children.length === 0) {
    const t = canonicalUntyped(el.text);
    if (t !== '' || el.children.length === 0) w.out.push(at, 'text()', 0, t);
  }
  children(w, el, at, namePath, undefined, undefined);
}
