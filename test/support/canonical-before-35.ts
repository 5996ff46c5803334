/**
 * The canonical walk as it was before issue 35 part 2 (src/equivalence/canonical.ts at 87a98e7),
 * kept as the reference its rewrite is held to: the same entries on every tree the tests generate,
 * so the comparison still finds two answers equal exactly when it did.
 */
/**
 * The canonical form of a result: a flat list of (path, value) entries in document order, read
 * with the type model. Prefixes are resolved away (names are namespace URI + local name), the
 * envelope and wrapper are not part of it, whitespace-only text between elements is ignored,
 * attributes are sorted, values are in their XSD value space, and xsi:nil is distinct from empty.
 * An xsi:type naming the element's declared type says nothing and is left out; another one is kept
 * by the type's local name (its prefix is the writer's choice).
 */
import { createHash } from 'node:crypto';
import { effective, isSimple, MODEL, type ElementField, type TypeRef } from '../../src/contract/model.js';
import { isBlank, isNil, XSI_NS, type XElement } from '../../src/xml/tree.js';
import { canonicalUntyped, canonicalValue } from '../../src/equivalence/values.js';

export interface Entry {
  /** Path from the result element, e.g. /getMealsResult/meals/meal[2]/id or .../@currency */
  readonly path: string;
  readonly value: string;
}

export const ELEMENT = '<element>';
export const NIL = '<nil>';
export const DOCUMENTED = '<binding-specific, documented>';

/** Decides whether a place (local names from the result element, no indexes) is a documented difference. */
export type IgnorePredicate = (namePath: string) => boolean;

interface Walk {
  readonly ns: string;
  readonly ignore: IgnorePredicate;
  readonly out: { push(e: Entry): void };
}

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

/** The canonical entries of a result element of a model type (long values compacted: compactValue). */
export function canonicalEntries(el: XElement, typeName: TypeRef, groupNs: string, ignore: IgnorePredicate = () => false): Entry[] {
  const out: Entry[] = [];
  const push = (e: Entry) => { out.push(e.value.length > MAX_ENTRY_VALUE ? { path: e.path, value: compactValue(e.value) } : e); };
  visit({ ns: groupNs, ignore, out: { push } }, el, typeName, `/${el.local}`, el.local);
  return out;
}

/**
 * A digest of the canonical entries (SHA-256 over each path and value, length-prefixed), computed
 * without holding them: equal digests mean equal entries. For large results this keeps the
 * comparison of bindings that agree from holding one path string per value for every binding.
 */
export function canonicalDigest(el: XElement, typeName: TypeRef, groupNs: string, ignore: IgnorePredicate = () => false): string {
  const digest = new EntryDigest();
  visit({ ns: groupNs, ignore, out: digest }, el, typeName, `/${el.local}`, el.local);
  return digest.finish();
}

/** Entries into a SHA-256, fed in chunks of about 64 K characters. */
export class EntryDigest {
  readonly #hash = createHash('sha256');
  #pending: string[] = [];
  #size = 0;
  push(e: Entry): void {
    const s = `${e.path.length}:${e.path}${e.value.length}:${e.value}`;
    this.#pending.push(s);
    this.#size += s.length;
    if (this.#size > 65_536) this.#flush();
  }
  #flush(): void {
    this.#hash.update(this.#pending.join(''), 'utf16le'); // every JS string, lone surrogates too, hashes apart
    this.#pending = [];
    this.#size = 0;
  }
  finish(): string {
    this.#flush();
    return this.#hash.digest('hex');
  }
}

function name(el: XElement, ns: string): string {
  return el.ns === ns ? el.local : `{${el.ns}}${el.local}`;
}

function attributes(w: Walk, el: XElement, typeName: TypeRef | undefined, path: string): void {
  if (el.attrs.length === 0) return; // most elements: no arrays to build
  const defs = typeName && MODEL.get(typeName)?.kind === 'complex' ? effective(typeName).attributes : [];
  const typeLocal = (v: string) => v.trim().split(':').pop()!;
  const attrs = el.attrs
    .filter((a) => !(a.ns === XSI_NS && a.local === 'nil'))
    .filter((a) => !(a.ns === XSI_NS && a.local === 'type' && typeName !== undefined && typeLocal(a.value) === typeName))
    .map((a) => {
      if (a.ns === XSI_NS && a.local === 'type') return { key: `{${XSI_NS}}type`, value: typeLocal(a.value) };
      const def = a.ns === '' ? defs.find((d) => d.name === a.local) : undefined;
      const key = a.ns ? `{${a.ns}}${a.local}` : a.local;
      return { key, value: def ? canonicalValue(def.type, a.value) : canonicalUntyped(a.value) };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const a of attrs) w.out.push({ path: `${path}/@${a.key}`, value: a.value });
}

function visit(w: Walk, el: XElement, type: TypeRef | undefined, path: string, namePath: string): void {
  if (w.ignore(namePath)) {
    w.out.push({ path, value: DOCUMENTED });
    return;
  }
  const nil = isNil(el);
  w.out.push({ path, value: nil ? NIL : ELEMENT });
  const named = type ? MODEL.get(type) : undefined;
  attributes(w, el, type, path);
  if (nil) return;

  if (type && isSimple(type)) {
    w.out.push({ path: `${path}/text()`, value: canonicalValue(type, el.text) });
    return;
  }
  if (named?.kind === 'enum') {
    w.out.push({ path: `${path}/text()`, value: canonicalValue('enum', el.text) });
    return;
  }
  if (!named || type === 'anyType') {
    untyped(w, el, path, namePath);
    return;
  }
  const eff = effective(named.name);
  if (eff.openContent) {
    // Content not shown: untyped, but a typed text (TransferRate's price) keeps its value space.
    if (eff.text && !isBlank(el.text)) {
      w.out.push({ path: `${path}/text()`, value: canonicalValue(eff.text, el.text) });
      children(w, el, path, namePath, () => undefined);
    } else {
      untyped(w, el, path, namePath);
    }
    return;
  }
  if (eff.text) {
    w.out.push({ path: `${path}/text()`, value: canonicalValue(eff.text, el.text) });
    return;
  }
  if (eff.orText && el.children.length === 0) {
    w.out.push({ path: `${path}/text()`, value: canonicalValue(eff.orText, el.text) });
    return;
  }
  if (!isBlank(el.text)) w.out.push({ path: `${path}/text()`, value: canonicalUntyped(el.text) });
  const fields = elementFields(named.name);
  children(w, el, path, namePath, (c) => (c.ns === w.ns ? fields.get(c.local) : undefined));
}

/** The element fields of a complex type by name (once per type: the model does not change). */
const FIELDS = new Map<string, ReadonlyMap<string, ElementField>>();
function elementFields(typeName: string): ReadonlyMap<string, ElementField> {
  let fields = FIELDS.get(typeName);
  if (!fields) {
    const m = new Map<string, ElementField>();
    for (const f of effective(typeName).fields) if (f.kind === 'element') m.set(f.name, f);
    FIELDS.set(typeName, (fields = m));
  }
  return fields;
}

function children(w: Walk, el: XElement, path: string, namePath: string, fieldOf: (c: XElement) => ElementField | undefined): void {
  const names = el.children.map((c) => name(c, w.ns));
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const [k, c] of el.children.entries()) {
    const n = names[k]!;
    const i = (seen.get(n) ?? 0) + 1;
    seen.set(n, i);
    const f = fieldOf(c);
    const indexed = f ? f.max === 'unbounded' : (counts.get(n) ?? 0) > 1;
    const childPath = `${path}/${n}${indexed ? `[${i}]` : ''}`;
    const childNames = `${namePath}/${c.local}`;
    if (f?.list) list(w, c, f.list, childPath, childNames);
    else visit(w, c, f?.type, childPath, childNames);
  }
}

function list(w: Walk, el: XElement, item: { item: string; type: TypeRef }, path: string, namePath: string): void {
  if (w.ignore(namePath)) {
    w.out.push({ path, value: DOCUMENTED });
    return;
  }
  w.out.push({ path, value: isNil(el) ? NIL : ELEMENT });
  attributes(w, el, undefined, path);
  if (!isBlank(el.text)) w.out.push({ path: `${path}/text()`, value: canonicalUntyped(el.text) });
  const asItem: ElementField = { kind: 'element', name: item.item, type: item.type, min: 0, max: 'unbounded', nillable: false };
  children(w, el, path, namePath, (c) => (c.ns === w.ns && (item.item === '*' || c.local === item.item) ? asItem : undefined));
}

function untyped(w: Walk, el: XElement, path: string, namePath: string): void {
  if (!isBlank(el.text) || el.children.length === 0) {
    const t = canonicalUntyped(el.text);
    if (t !== '' || el.children.length === 0) w.out.push({ path: `${path}/text()`, value: t });
  }
  children(w, el, path, namePath, () => undefined);
}
