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
import { effective, isSimple, MODEL, type ElementField, type TypeRef } from '../../src/contract/model.js';
import { isBlank, isNil, XSI_NS, type XElement } from '../../src/xml/tree.js';
import { canonicalUntyped, canonicalValue } from '../../src/equivalence/values.js';
// What entries are and hold did not change with the walk's rewrite: the live definitions.
import {
  compactValue,
  DOCUMENTED,
  ELEMENT,
  MAX_ENTRY_VALUE,
  NIL,
  type Entry,
  type IgnorePredicate,
} from '../../src/equivalence/canonical.js';

interface Walk {
  readonly ns: string;
  readonly ignore: IgnorePredicate;
  readonly out: { push(e: Entry): void };
}

/** The canonical entries of a result element of a model type (long values compacted: compactValue). */
export function canonicalEntries(
  el: XElement,
  typeName: TypeRef,
  groupNs: string,
  ignore: IgnorePredicate = () => false,
): Entry[] {
  const out: Entry[] = [];
  const push = (e: Entry) => {
    out.push(e.value.length > MAX_ENTRY_VALUE ? { path: e.path, value: compactValue(e.value) } : e);
  };
  visit({ ns: groupNs, ignore, out: { push } }, el, typeName, `/${el.local}`, el.local);
  return out;
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

function children(
  w: Walk,
  el: XElement,
  path: string,
  namePath: string,
  fieldOf: (c: XElement) => ElementField | undefined,
): void {
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
  const asItem: ElementField = {
    kind: 'element',
    name: item.item,
    type: item.type,
    min: 0,
    max: 'unbounded',
    nillable: false,
  };
  children(w, el, path, namePath, (c) =>
    c.ns === w.ns && (item.item === '*' || c.local === item.item) ? asItem : undefined,
  );
}

function untyped(w: Walk, el: XElement, path: string, namePath: string): void {
  if (!isBlank(el.text) || el.children.length === 0) {
    const t = canonicalUntyped(el.text);
    if (t !== '' || el.children.length === 0) w.out.push({ path: `${path}/text()`, value: t });
  }
  children(w, el, path, namePath, () => undefined);
}
