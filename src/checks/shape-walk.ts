/**
 * The shape walk: one element walked with the type model (src/contract/model.ts), path-precisely,
 * each departure a finding in words a reader can act on. The check `shape` (src/checks/shape.ts)
 * walks the result element with it; `validate FILE` walks a bare element.
 *
 * "Not shown" is never flagged: anyType content, openContent, unknown elements of open types and
 * attributes under anyAttribute are accepted whatever they hold.
 */
import type { DefectCode } from '../core/defect-codes.js';
import type { Finding } from '../core/types.js';
import {
  contentNotShown,
  effective,
  extendsType,
  hasOpenFields,
  isSimple,
  MODEL,
  namedType,
  type EffectiveType,
  type ElementField,
  type SimpleType,
  type TypeRef,
} from '../contract/model.js';
import { internalized } from '../xml/scan-reader.js';
import { isBlank, isNil, XSI_NS, type XElement } from '../xml/tree.js';
import { FindingList } from './types.js';
import { collapse, lexicalProblem, xsdName } from './lexical.js';
import { caseHint, childPath, clarkOf, nsDifference, quote } from './support.js';
import { childPaths, type Marks } from './shape-paths.js';

export interface ShapeOptions {
  /** Whether the element itself may be nil (the result element: op.resultNillable). Default false. */
  readonly nillable?: boolean;
  /** Check name put on findings. Default 'shape'. */
  readonly check?: string;
  /** The configured namespaces, to name the other group's namespace in messages. */
  readonly namespaces?: Readonly<Record<string, string>>;
}

/**
 * A complex type's element fields, by name with their place, and whether it has a "not shown" region: once per type.
 */
interface Fields {
  readonly list: readonly ElementField[];
  readonly byName: ReadonlyMap<string, { readonly f: ElementField; readonly i: number }>;
  readonly open: boolean;
  /** For each of `list`, where its name's count is kept (its place in `byName`). */
  readonly countAt: readonly number[];
  /** Where the rejection field's count is kept (-1: the type has none among its fields). */
  readonly rejectionAt: number;
}
const FIELDS = new WeakMap<EffectiveType, Fields>();
function fieldsOf(typeName: string, e: EffectiveType): Fields {
  let fs = FIELDS.get(e);
  if (!fs) {
    const list = e.fields.filter((f): f is ElementField => f.kind === 'element');
    const byName = new Map(list.map((f, i) => [f.name, { f, i }]));
    const rejectionAt = e.rejection === undefined ? -1 : (byName.get(e.rejection)?.i ?? -1);
    FIELDS.set(
      e,
      (fs = {
        list,
        byName,
        open: hasOpenFields(typeName),
        countAt: list.map((f) => byName.get(f.name)!.i),
        rejectionAt,
      }),
    );
  }
  return fs;
}

const MAX_NAMES = 8;
const names = (list: readonly string[]): string =>
  list.length <= MAX_NAMES ? list.join(', ') : `${list.slice(0, MAX_NAMES).join(', ')}, …`;

class Walker {
  /** Bounded: a list of a million broken items gives a few findings per kind and counts the rest. */
  readonly out = new FindingList();
  readonly marks: Marks = { seen: new Map(), last: 0 };
  constructor(
    readonly ns: string,
    readonly check: string,
    readonly namespaces?: Readonly<Record<string, string>>,
  ) {}

  add(code: DefectCode, path: string, message: string, expected?: string, actual?: string): void {
    this.out.add(this.check, code, path, message, expected, actual);
  }

  /** An element declared with `type` (simple, enum, complex or anyType). */
  element(el: XElement, type: TypeRef, nillable: boolean, path: string): void {
    if (contentNotShown(type)) return; // "not shown": anything goes, nil included
    const nil = this.nilMarker(el, nillable, path);
    if (isSimple(type) || namedType(type).kind === 'enum') {
      this.noAttributes(el, path);
      if (nil) return;
      this.noChildren(el, path, isSimple(type) ? xsdName(type) : type);
      this.value(el.text, type, path, nillable, `element ${el.local}`);
      return;
    }
    const actual = this.resolveXsiType(el, type, path);
    const e = effective(actual);
    this.attributes(el, e, path);
    if (nil) return;
    if (e.openContent !== undefined) {
      // Content not shown: any elements; a typed text (TransferRate's price), when not blank, keeps its type.
      if (e.text !== undefined && !isBlank(el.text)) this.value(el.text, e.text, path, false, `element ${el.local}`);
      return;
    }
    if (e.orText !== undefined && el.children.length === 0) {
      // The text reading of an ambiguous place (activecancellationpolicy): text of that type.
      this.value(el.text, e.orText, path, false, `element ${el.local}`);
      return;
    }
    if (e.orText !== undefined && !isBlank(el.text)) {
      this.add(
        'mixed_content',
        path,
        `text ${quote(el.text, 60)} beside child elements in ${el.local}: it holds either text or the `
          + `elements of ${actual}, not both`,
        'text or elements',
        'both',
      );
    }
    if (e.text !== undefined) {
      this.noChildren(el, path, `${actual} (simple content)`);
      this.value(el.text, e.text, path, false, `element ${el.local}`);
      return;
    }
    this.content(el, actual, e, path);
  }

  /** A list wrapper: items named `item` in the group namespace ('*': any name), each of the item type. */
  list(el: XElement, f: ElementField, path: string): void {
    const { item, type } = f.list!;
    if (this.nilMarker(el, f.nillable, path)) return;
    this.noAttributes(el, path);
    if (!isBlank(el.text))
      this.add(
        'unexpected_text',
        path,
        `text ${quote(el.text, 60)} in the list ${el.local}, which holds `
          + `only ${item === '*' ? '' : `${item} `}elements`,
      );
    const paths = childPaths(path, el, this.marks);
    const kids = el.children;
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k]!;
      const p = paths[k]!;
      if (item === '*') {
        // TransferRate items: the contract names no item element, so any name (and namespace) is accepted.
        this.element(c, type, false, p);
      } else if (c.local === item && c.ns === this.ns) {
        this.element(c, type, false, p);
      } else if (c.local === item) {
        this.wrongNs(c, p);
      } else {
        this.add(
          'unknown_element',
          p,
          `unknown element ${clarkOf(c.ns, c.local)} in the list ${el.local}: expected ${item} `
            + `items${caseHint(c.local, item)}`,
          clarkOf(this.ns, item),
          clarkOf(c.ns, c.local),
        );
      }
    }
  }

  wrongNs(c: XElement, p: string): void {
    this.add(
      'wrong_namespace',
      p,
      `element ${c.local} in ${nsDifference(c.ns, this.ns, this.namespaces)} (${c.ns || 'none'}) `
        + `instead of the group namespace`,
      clarkOf(this.ns, c.local),
      clarkOf(c.ns, c.local),
    );
  }

  /** Element content of a complex type: presence, multiplicity, order (closed types), unknown elements. */
  content(el: XElement, typeName: string, e: EffectiveType, path: string): void {
    const { list: fields, byName, open, countAt, rejectionAt } = fieldsOf(typeName, e);
    if (!open && e.orText === undefined && !isBlank(el.text)) {
      this.add(
        'unexpected_text',
        path,
        `text ${quote(el.text, 60)} in ${el.local}, whose type ${typeName} holds only elements`,
        'elements only',
        el.text.trim().slice(0, 60),
      );
    }
    // Built only when a known name comes in another namespace (rare): most elements need neither.
    let inGroupNs: Set<string> | undefined;
    // Each known name's count, by its place among the fields (an array, not a map per element).
    const counts: number[] = new Array<number>(fields.length).fill(0);
    let wrongNsSeen: Set<string> | undefined;
    let lastAt = -1;
    let lastName = '';

    const paths = childPaths(path, el, this.marks);
    const kids = el.children;
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k]!;
      const p = paths[k]!;
      const known = byName.get(c.local);
      if (known && c.ns === this.ns) {
        const { f, i } = known;
        const n = ++counts[i]!;
        if (n > 1 && f.max === 1) {
          this.add(
            'duplicated_element',
            p,
            `duplicated element ${f.name}: at most one allowed in ${el.local}`,
            '1',
            String(n),
          );
          continue;
        }
        if (!open) {
          if (lastAt >= 0 && i < lastAt)
            this.add(
              'element_out_of_order',
              p,
              `element ${f.name} out of order: expected before ${lastName}`,
              `${f.name} before ${lastName}`,
              `${f.name} after ${lastName}`,
            );
          else {
            lastAt = i;
            lastName = f.name;
          }
        }
        if (f.list) this.list(c, f, p);
        else this.element(c, f.type, f.nillable, p);
        continue;
      }
      if (known) {
        // A known name in another namespace: open content where the field is present anyway, else a misplaced field.
        inGroupNs ??= new Set(el.children.filter((x) => x.ns === this.ns).map((x) => x.local));
        if (open && inGroupNs.has(c.local)) continue;
        (wrongNsSeen ??= new Set()).add(c.local);
        this.wrongNs(c, p);
        continue;
      }
      if (open) continue;
      const near = fields.find((f) => f.name.toLowerCase() === c.local.toLowerCase());
      this.add(
        'unknown_element',
        p,
        `unknown element ${clarkOf(c.ns, c.local)} `
          + `in ${el.local}${near ? caseHint(c.local, near.name) : `: expected only ${names(fields.map((f) => f.name))}`}`,
        near ? clarkOf(this.ns, near.name) : undefined,
        clarkOf(c.ns, c.local),
      );
    }

    // An in-band rejection (a BaseResult carrying Error) need not hold the result's other fields.
    const rejected = rejectionAt >= 0 && counts[rejectionAt]! > 0;
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k]!;
      if (f.min === 0 || rejected || counts[countAt[k]!]! > 0 || wrongNsSeen?.has(f.name)) continue;
      const near = el.children.find((c) => c.local !== f.name && c.local.toLowerCase() === f.name.toLowerCase());
      const hint = near ? ` (an element ${near.local} is present: names are case-sensitive)` : '';
      this.add(
        'missing_required_element',
        `${path}/${f.name}`,
        `missing required element ${f.name} in ${el.local}${hint}`,
        clarkOf(this.ns, f.name),
        '(absent)',
      );
    }
  }

  attributes(el: XElement, e: EffectiveType, path: string): void {
    for (const a of el.attrs) {
      if (a.ns === XSI_NS) continue; // nil and type are read by the walker; XSD allows xsi attributes anywhere
      const def = a.ns === '' ? e.attributes.find((d) => d.name === a.local) : undefined;
      const p = `${path}/@${a.local}`;
      if (!def) {
        if (e.anyAttribute !== undefined) continue;
        const near = e.attributes.find((d) => d.name === a.local || d.name.toLowerCase() === a.local.toLowerCase());
        const why =
          near && a.ns !== ''
            ? ` (attributes are unqualified: expected ${near.name} without a namespace)`
            : near
              ? caseHint(a.local, near.name)
              : '';
        this.add(
          'unknown_attribute',
          p,
          `unknown attribute ${clarkOf(a.ns, a.local)} on ${el.local}${why}`,
          near ? near.name : undefined,
          clarkOf(a.ns, a.local),
        );
        continue;
      }
      this.value(a.value, def.type, p, false, `attribute ${a.local}`);
    }
    for (const d of e.attributes) {
      if (!d.required || el.attrs.some((a) => a.ns === '' && a.local === d.name)) continue;
      const near = el.attrs.find((a) => a.local.toLowerCase() === d.name.toLowerCase());
      const hint = near
        ? ` (an attribute ${near.prefix ? `${near.prefix}:` : ''}${near.local} is `
          + `present${near.local === d.name ? ' in a namespace: attributes are unqualified' : ': names are case-sensitive'})`
        : '';
      this.add(
        'missing_required_attribute',
        `${path}/@${d.name}`,
        `missing required attribute ${d.name} on ${el.local}${hint}`,
        d.name,
        '(absent)',
      );
    }
  }

  noAttributes(el: XElement, path: string): void {
    for (const a of el.attrs) {
      if (a.ns === XSI_NS) continue;
      this.add(
        'unknown_attribute',
        `${path}/@${a.local}`,
        `unknown attribute ${clarkOf(a.ns, a.local)} on ${el.local}, which has no attributes`,
        undefined,
        clarkOf(a.ns, a.local),
      );
    }
  }

  noChildren(el: XElement, path: string, what: string): void {
    for (const c of el.children) {
      this.add(
        'unexpected_child_element',
        childPath(path, el, c),
        `child element ${clarkOf(c.ns, c.local)} in ${el.local}, whose content is a ${what} value`,
        'text only',
        clarkOf(c.ns, c.local),
      );
    }
  }

  /** The xsi:nil marker: true when the element is nil (and reports misuse). */
  nilMarker(el: XElement, nillable: boolean, path: string): boolean {
    const a = el.attrs.find((x) => x.ns === XSI_NS && x.local === 'nil');
    if (!a) return false;
    const v = collapse(a.value);
    if (!/^(true|false|1|0)$/.test(v)) {
      this.add(
        'invalid_nil_value',
        `${path}/@nil`,
        `invalid xsi:nil value ${quote(a.value, 40)} on ${el.local}: expected true or false`,
        'true',
        a.value,
      );
      return false;
    }
    if (!isNil(el)) return false;
    if (!nillable)
      this.add('nil_not_allowed', path, `xsi:nil on ${el.local}, which is not nillable`, 'a value', 'xsi:nil="true"');
    if (el.children.length > 0 || !isBlank(el.text)) {
      const what = el.children.length > 0 ? `child element ${el.children[0]!.local}` : `text ${quote(el.text, 40)}`;
      this.add(
        'nil_with_content',
        path,
        `nil element ${el.local} with content (${what}): a nil element must be empty`,
        'empty',
        what,
      );
    }
    return true;
  }

  /** A text or attribute value of a simple or enum type. */
  value(raw: string, type: TypeRef, path: string, nillable: boolean, what: string): void {
    if (type === 'string') return;
    const t = isSimple(type) ? undefined : namedType(type);
    if (collapse(raw) === '' && type !== 'intList') {
      const nilHint = nillable ? ' (the element is nillable: no value is written as xsi:nil="true")' : '';
      this.add(
        'empty_value',
        path,
        `empty value of ${what}: `
          + `expected ${t ? `one of ${t.kind === 'enum' ? t.values.join(', ') : t.name}` : `an ${xsdName(type as SimpleType)} value`}${what.startsWith('element') ? ' without xsi:nil' : ''}${nilHint}`,
        t ? (t.kind === 'enum' ? t.values.join(' | ') : t.name) : xsdName(type as SimpleType),
        '(empty)',
      );
      return;
    }
    if (t && t.kind === 'enum') {
      if (t.values.includes(raw)) return;
      const hint = t.values.includes(collapse(raw))
        ? ' (surrounding whitespace: the enumeration is of xs:string, whose whitespace is kept)'
        : t.values.find((v) => v.toLowerCase() === collapse(raw).toLowerCase())
          ? ' (values are case-sensitive)'
          : '';
      this.add(
        'value_outside_enumeration',
        path,
        `value ${quote(raw, 60)} of ${what} outside the enumeration ${t.name}: expected one `
          + `of ${t.values.join(', ')}${hint}`,
        t.values.join(' | '),
        raw.slice(0, 60),
      );
      return;
    }
    const st = type as SimpleType;
    const problem = lexicalProblem(st, raw);
    if (problem)
      this.add(
        'invalid_lexical_value',
        path,
        `invalid ${xsdName(st)} value ${quote(raw, 60)} of ${what}: ${problem}`,
        xsdName(st),
        raw.slice(0, 60),
      );
  }

  /** The type to walk with: the declared one, or an xsi:type naming a model type derived from it. */
  resolveXsiType(el: XElement, declared: string, path: string): string {
    const a = el.attrs.find((x) => x.ns === XSI_NS && x.local === 'type');
    if (!a) return declared;
    const local = collapse(a.value).split(':').pop()!;
    if (local === declared) return declared;
    const t = MODEL.get(local);
    if (t?.kind === 'complex' && extendsType(local, declared)) return local;
    this.add(
      'invalid_xsi_type',
      `${path}/@type`,
      `xsi:type ${quote(a.value, 60)} on ${el.local} does not name a type derived from ${declared}`,
      declared,
      a.value,
    );
    return declared;
  }
}

/**
 * Findings of the shape walk of one element against a model type, with paths under `path`. `ns` is
 * the group namespace the element's children must be in. Reused by the `validate FILE` command.
 */
export function shapeFindings(
  el: XElement,
  typeName: string,
  path: string,
  ns: string,
  opts: ShapeOptions = {},
): Finding[] {
  const w = new Walker(internalized(ns), opts.check ?? 'shape', opts.namespaces); // compared at every element: see internalized()
  w.element(el, typeName, opts.nillable ?? false, path);
  return w.out.list();
}
