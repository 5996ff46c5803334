/**
 * XSD generation from the type model (src/contract/model.ts) and the operation catalogue
 * (src/contract/catalogue.ts). One schema per group namespace; both hold every named type of the
 * model (local elements are qualified in the schema's own target namespace, so each namespace needs
 * its own copy of the types) plus the request, response and result elements of the operations of
 * that namespace. scripts/generate-schemas.ts writes them to schemas/; a test keeps the files equal
 * to what this module produces.
 *
 * "Not shown" stays open, so the schemas never reject what the contract leaves unsaid:
 * - `openContent` → mixed content with a lax wildcard;
 * - `anyAttribute` → a lax attribute wildcard;
 * - an `open` field ("Fields of NonStaticTransfer after rates: not shown") → the whole element
 *   content of the type (and of every type derived from it) is one lax wildcard. XSD 1.0 cannot
 *   say "unknown elements between known ones" deterministically (Unique Particle Attribution: a
 *   wildcard next to optional or repeated named elements is ambiguous and libxml2 refuses such a
 *   schema), so the known fields of those types are checked by name by the shape check instead;
 * - `anyType` → xs:anyType, nillable wherever it stands (its content, nil included, is not shown).
 *
 * Where the contract is ambiguous, every reasonable reading is accepted:
 * - an `orText` type → mixed content whose element content is optional (text, or the elements);
 *   the shape check refuses text and elements together;
 * - a type extending BaseResult (`rejection`) → a choice of an in-band rejection (Error first,
 *   then anything, checked by the shape walk) and the result with its fields as listed.
 */
import { OPERATIONS, type Namespaces, type NsKey, type Operation, type ParamType } from '../contract/catalogue.js';
import {
  ANY_TYPE_NOTES,
  MODEL,
  allTypes,
  contentNotShown,
  effective,
  hasOpenFields,
  isSimple,
  namedType,
  type AttributeDef,
  type ComplexType,
  type EffectiveType,
  type ElementField,
  type EnumType,
  type Field,
  type NamedType,
  type SimpleType,
  type TypeRef,
} from '../contract/model.js';
import { escapeAttr, escapeText } from '../core/escape.js';

export const XS_NS = 'http://www.w3.org/2001/XMLSchema';

/** File names of the generated schemas under schemas/. */
export const SCHEMA_FILES: Record<NsKey, string> = { book: 'booking.xsd', search: 'search.xsd' };

const GROUP_LABEL: Record<NsKey, string> = {
  book: 'booking group ({book_ns}: section 4.1)',
  search: 'reference-data group and SearchTransfers ({search_ns}: sections 4.2 and 4.3)',
};

const SIMPLE_XS: Record<Exclude<SimpleType, 'intList'>, string> = {
  string: 'xs:string',
  int: 'xs:int',
  decimal: 'xs:decimal',
  double: 'xs:double',
  boolean: 'xs:boolean',
  dateTime: 'xs:dateTime',
};
const PARAM_XS: Record<ParamType, string> = {
  string: 'xs:string',
  int: 'xs:int',
  decimal: 'xs:decimal',
  dateTime: 'xs:dateTime',
};

/** Name of the simple type generated for `intList` (space-separated ints, section 2.1). */
export const INT_LIST_TYPE = 'IntList';

// ---- a tiny pretty-printing writer ------------------------------------------------------------

class Writer {
  readonly lines: string[] = [];
  #depth = 0;
  line(s: string): void {
    this.lines.push('  '.repeat(this.#depth) + s);
  }
  open(s: string): void {
    this.line(s);
    this.#depth++;
  }
  close(s: string): void {
    this.#depth--;
    this.line(s);
  }
  doc(text: string): void {
    this.open('<xs:annotation>');
    this.line(`<xs:documentation>${escapeText(text)}</xs:documentation>`);
    this.close('</xs:annotation>');
  }
}

function attrs(pairs: Record<string, string | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(v!)}"`)
    .join('');
}

/** The QName of a type reference in the generated schema. */
function typeQName(t: TypeRef): string {
  if (t === 'anyType') return 'xs:anyType';
  if (t === 'intList') return `tns:${INT_LIST_TYPE}`;
  if (isSimple(t)) return SIMPLE_XS[t as Exclude<SimpleType, 'intList'>];
  namedType(t); // throws on a typo in the model
  return `tns:${t}`;
}

const LAX_ANY = '<xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/>';

// ---- types ------------------------------------------------------------------------------------

function writeEnum(w: Writer, t: EnumType): void {
  w.open(`<xs:simpleType${attrs({ name: t.name })}>`);
  w.doc(`Section ${t.section}.`);
  w.open('<xs:restriction base="xs:string">');
  for (const v of t.values) w.line(`<xs:enumeration${attrs({ value: v })}/>`);
  w.close('</xs:restriction>');
  w.close('</xs:simpleType>');
}

function writeAttributes(w: Writer, list: readonly AttributeDef[], anyAttribute: string | undefined): void {
  for (const a of list) {
    w.line(
      `<xs:attribute${attrs({ name: a.name, type: typeQName(a.type), use: a.required ? 'required' : undefined })}/>`,
    );
  }
  if (anyAttribute !== undefined) {
    w.open('<xs:anyAttribute processContents="lax">');
    w.doc(anyAttribute);
    w.close('</xs:anyAttribute>');
  }
}

function occurs(min: number, max: 1 | 'unbounded'): Record<string, string | undefined> {
  return { minOccurs: min === 1 ? undefined : String(min), maxOccurs: max === 1 ? undefined : max };
}

function writeField(w: Writer, f: Field): void {
  if (f.kind === 'open') {
    // Only reached for a type that is not emitted open: cannot happen (see writeComplex).
    throw new Error('open field outside an open type');
  }
  writeElementField(w, f);
}

function writeElementField(w: Writer, f: ElementField): void {
  const more = { ...occurs(f.min, f.max), nillable: f.nillable || contentNotShown(f.type) ? 'true' : undefined };
  if (f.list) {
    const base = { name: f.name, ...more };
    w.open(`<xs:element${attrs(base)}>`);
    w.open('<xs:complexType>');
    w.open('<xs:sequence>');
    if (f.list.item === '*') {
      w.open(`<xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded">`);
      w.doc(`Items of ${f.name}: the contract names no item element, any item name is accepted.`);
      w.close('</xs:any>');
    } else {
      writeItem(w, f.list.item, f.list.type);
    }
    w.close('</xs:sequence>');
    w.close('</xs:complexType>');
    w.close('</xs:element>');
    return;
  }
  writeTyped(
    w,
    { name: f.name, type: typeQName(f.type), ...more },
    f.type === 'anyType' ? ANY_TYPE_NOTES[f.name] : undefined,
  );
}

function writeItem(w: Writer, item: string, type: TypeRef): void {
  const nillable = contentNotShown(type) ? 'true' : undefined;
  writeTyped(
    w,
    { name: item, type: typeQName(type), minOccurs: '0', maxOccurs: 'unbounded', nillable },
    type === 'anyType' ? ANY_TYPE_NOTES[item] : undefined,
  );
}

function writeTyped(w: Writer, a: Record<string, string | undefined>, note: string | undefined): void {
  if (note === undefined) {
    w.line(`<xs:element${attrs(a)}/>`);
    return;
  }
  w.open(`<xs:element${attrs(a)}>`);
  w.doc(note);
  w.close('</xs:element>');
}

/** True when a type's element content is emitted as one lax wildcard. */
function isOpenType(t: ComplexType): boolean {
  return hasOpenFields(t.name) || effective(t.name).openContent !== undefined;
}

function openNotes(t: ComplexType): string[] {
  const e = effective(t.name);
  const notes = e.fields.flatMap((f) => (f.kind === 'open' ? [f.note] : []));
  if (e.openContent !== undefined) notes.push(e.openContent);
  return notes;
}

/** A type holding text or its element content: mixed, the element content optional as a whole. */
function writeOrText(w: Writer, t: ComplexType, e: EffectiveType): void {
  w.open(`<xs:complexType${attrs({ name: t.name, mixed: 'true' })}>`);
  w.doc(
    `Section ${t.section}. Either text (${e.orText}) or the element `
      + `content${t.base ? ` of ${t.base}` : ''}: both readings `
      + 'of the contract are accepted (XSD 1.0 cannot refuse text beside the elements: the shape check does).',
  );
  w.open('<xs:sequence minOccurs="0">');
  for (const f of e.fields) writeField(w, f);
  w.close('</xs:sequence>');
  writeAttributes(w, e.attributes, e.anyAttribute);
  w.close('</xs:complexType>');
}

/**
 * A type extending BaseResult: an in-band rejection (the rejection field first, then anything: the
 * fields after it need not be complete, and the shape check walks them) or the result as listed.
 * Unique Particle Attribution holds: the first branch starts with the rejection field, which the
 * second does not hold.
 */
function writeRejectable(w: Writer, t: ComplexType, e: EffectiveType): void {
  const rejection = e.fields.find((f): f is ElementField => f.kind === 'element' && f.name === e.rejection);
  if (!rejection) throw new Error(`${t.name}: rejection field ${e.rejection} is not a field`);
  w.open(`<xs:complexType${attrs({ name: t.name })}>`);
  w.doc(
    `Section ${t.section}. Extends BaseResult (every result does): either an in-band `
      + `rejection, ${rejection.name} first and then `
      + `any of the result's fields, which need not be complete (the shape check walks them), or the `
      + `result with its fields.`,
  );
  w.open('<xs:choice>');
  w.open('<xs:sequence>');
  writeElementField(w, { ...rejection, min: 1 });
  w.line(LAX_ANY);
  w.close('</xs:sequence>');
  w.open('<xs:sequence>');
  for (const f of e.fields) if (f !== rejection) writeField(w, f);
  w.close('</xs:sequence>');
  w.close('</xs:choice>');
  writeAttributes(w, e.attributes, e.anyAttribute);
  w.close('</xs:complexType>');
}

function writeComplex(w: Writer, t: ComplexType): void {
  const e = effective(t.name);
  const base = t.base ? namedType(t.base) : undefined;
  if (base && base.kind !== 'complex') throw new Error(`base of ${t.name} is not a complex type`);
  if (e.orText !== undefined) {
    writeOrText(w, t, e);
    return;
  }
  if (e.rejection !== undefined && base) {
    if (isOpenType(t)) throw new Error(`${t.name}: a rejectable type cannot have open content`);
    writeRejectable(w, t, e);
    return;
  }

  if (isOpenType(t)) {
    const known = e.fields.flatMap((f) => (f.kind === 'element' ? [f.name] : []));
    const mixed = e.openContent !== undefined;
    w.open(`<xs:complexType${attrs({ name: t.name, mixed: mixed ? 'true' : undefined })}>`);
    const notes = [`Section ${t.section}.`, ...openNotes(t)];
    if (known.length > 0) {
      notes.push(
        `Element content open (XSD 1.0 cannot place unknown elements among known ones deterministically); `
          + `the known fields, in order, are checked by name by the shape check: ${known.join(', ')}.`,
      );
    }
    w.doc(notes.join(' '));
    if (base && isOpenType(base)) {
      // The base already has the open content: the extension adds only attributes.
      w.open('<xs:complexContent>');
      const ext = `<xs:extension${attrs({ base: `tns:${base.name}` })}`;
      if (t.attributes.length === 0 && t.anyAttribute === undefined) {
        w.line(`${ext}/>`);
      } else {
        w.open(`${ext}>`);
        writeAttributes(w, t.attributes, t.anyAttribute);
        w.close('</xs:extension>');
      }
      w.close('</xs:complexContent>');
    } else {
      // No base, or a closed base (its fields are then among the known ones): standalone open type.
      w.open('<xs:sequence>');
      w.line(LAX_ANY);
      w.close('</xs:sequence>');
      writeAttributes(w, e.attributes, e.anyAttribute);
    }
    w.close('</xs:complexType>');
    return;
  }

  w.open(`<xs:complexType${attrs({ name: t.name })}>`);
  w.doc(`Section ${t.section}.`);
  if (e.text !== undefined) {
    // Simple content: MonetaryValue (decimal with attributes) and the types extending it.
    w.open('<xs:simpleContent>');
    w.open(`<xs:extension${attrs({ base: base ? `tns:${base.name}` : typeQName(e.text) })}>`);
    if (t.fields.length > 0) throw new Error(`${t.name}: simple content with element fields`);
    writeAttributes(w, t.attributes, t.anyAttribute);
    w.close('</xs:extension>');
    w.close('</xs:simpleContent>');
  } else if (base) {
    w.open('<xs:complexContent>');
    w.open(`<xs:extension${attrs({ base: `tns:${base.name}` })}>`);
    writeSequence(w, t.fields);
    writeAttributes(w, t.attributes, t.anyAttribute);
    w.close('</xs:extension>');
    w.close('</xs:complexContent>');
  } else {
    writeSequence(w, t.fields);
    writeAttributes(w, t.attributes, t.anyAttribute);
  }
  w.close('</xs:complexType>');
}

function writeSequence(w: Writer, fields: readonly Field[]): void {
  if (fields.length === 0) return;
  w.open('<xs:sequence>');
  for (const f of fields) writeField(w, f);
  w.close('</xs:sequence>');
}

// ---- operations -------------------------------------------------------------------------------

function writeOperation(w: Writer, op: Operation): void {
  w.open(`<xs:element${attrs({ name: op.name })}>`);
  w.doc(`Request of ${op.name} (${op.source}).`);
  w.open('<xs:complexType>');
  if (op.params.length > 0) {
    w.open('<xs:sequence>');
    for (const p of op.params) {
      const min = p.type === 'string' || !p.required ? '0' : '1';
      w.line(`<xs:element${attrs({ name: p.name, type: PARAM_XS[p.type], minOccurs: min })}/>`);
    }
    w.close('</xs:sequence>');
  }
  w.close('</xs:complexType>');
  w.close('</xs:element>');

  w.open(`<xs:element${attrs({ name: `${op.name}Response` })}>`);
  w.open('<xs:complexType>');
  w.open('<xs:sequence>');
  w.line(`<xs:element${attrs({ ref: `tns:${op.resultElement}` })}/>`);
  w.close('</xs:sequence>');
  w.close('</xs:complexType>');
  w.close('</xs:element>');

  w.open(
    `<xs:element${attrs({ name: op.resultElement, type: `tns:${op.resultType}`, nillable: op.resultNillable ? 'true' : undefined })}>`,
  );
  w.doc(`Result of ${op.name}: the child of ${op.name}Response (SOAP) and the document root (HTTP GET, HTTP POST).`);
  w.close('</xs:element>');
}

// ---- schemas ----------------------------------------------------------------------------------

/**
 * The schema for one target namespace holding the given operations' elements and every type.
 * `label` names the group in the header comment.
 */
export function generateXsdFor(
  targetNamespace: string,
  ops: readonly Operation[],
  label: string,
  types: readonly NamedType[] = allTypes(),
): string {
  const w = new Writer();
  w.line('<?xml version="1.0" encoding="utf-8"?>');
  w.line('<!--');
  w.line('  GENERATED FILE: do not edit by hand.');
  w.line('  Generated by `npm run generate` (scripts/generate-schemas.ts) from the type model in');
  w.line('  src/contract/model.ts and the operation catalogue in src/contract/catalogue.ts; a test fails');
  w.line('  when this file and the generator disagree. Change the model, then regenerate.');
  w.line(`  Namespace of the ${label.replace(/--/g, '-')}.`);
  w.line('-->');
  w.open(
    `<xs:schema${attrs({
      'xmlns:xs': XS_NS,
      'xmlns:tns': targetNamespace,
      targetNamespace,
      elementFormDefault: 'qualified',
      attributeFormDefault: 'unqualified',
    })}>`,
  );

  w.line('<!-- Operations: request, response and result elements (section 4). -->');
  for (const op of ops) writeOperation(w, op);

  w.line('<!-- Types of the model (section 2 and the result records of 2.5 and 2.6). -->');
  w.open(`<xs:simpleType${attrs({ name: INT_LIST_TYPE })}>`);
  w.doc('List of int, space-separated (section 2.1: paymentMethods).');
  w.line('<xs:list itemType="xs:int"/>');
  w.close('</xs:simpleType>');
  for (const t of types) {
    if (t.name === INT_LIST_TYPE) throw new Error(`model type ${INT_LIST_TYPE} clashes with the generated list type`);
    if (t.kind === 'enum') writeEnum(w, t);
    else writeComplex(w, t);
  }
  w.close('</xs:schema>');
  return w.lines.join('\n') + '\n';
}

/** The schema of one group namespace: every type, and the elements of the operations of that namespace. */
export function generateXsd(nsKey: NsKey, namespaces: Namespaces): string {
  return generateXsdFor(
    namespaces[nsKey],
    OPERATIONS.filter((op) => op.ns === nsKey),
    GROUP_LABEL[nsKey],
  );
}

/** The three global elements an operation declares: request, response and result. */
export function operationElementNames(op: Operation): readonly string[] {
  return [op.name, `${op.name}Response`, op.resultElement];
}

/** The named types `roots` need, closed under base types, field types and list item types. */
export function typeClosure(roots: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const visit = (name: string): void => {
    if (out.has(name) || !MODEL.has(name)) return; // simple types and anyType are built in
    out.add(name);
    const t = namedType(name);
    if (t.kind !== 'complex') return;
    if (t.base) visit(t.base);
    for (const f of t.fields) {
      if (f.kind !== 'element') continue;
      visit(f.type);
      if (f.list) visit(f.list.type);
    }
  };
  for (const r of roots) visit(r);
  return out;
}

/**
 * A schema for one target namespace that declares only what a document can use: the elements of
 * the operations any of whose element names `mentioned` accepts, and the types those need plus
 * every type whose name `mentioned` accepts (an xsi:type names its type), closed under reference.
 * For a document whose text mentions every name it uses, validating against this schema gives the
 * same verdict and messages as against the whole schema (src/schema/xsd-validator.ts); it compiles in
 * a fraction of the time, which matters because libxmljs2 compiles the schema on every validate().
 */
export function generateXsdSubset(
  targetNamespace: string,
  ops: readonly Operation[],
  label: string,
  mentioned: (name: string) => boolean,
): { text: string; names: string[] } {
  const used = ops.filter((op) => operationElementNames(op).some(mentioned));
  const closure = typeClosure([
    ...used.map((op) => op.resultType),
    ...allTypes()
      .map((t) => t.name)
      .filter(mentioned),
  ]);
  const types = allTypes().filter((t) => closure.has(t.name));
  return {
    text: generateXsdFor(targetNamespace, used, `${label}, subset`, types),
    names: [...used.map((op) => op.name), ...types.map((t) => t.name)],
  };
}

/** One schema for both groups, for a target whose book and search namespaces are the same URI. */
export function generateCombinedXsd(namespace: string): string {
  return generateXsdFor(namespace, OPERATIONS, 'booking and reference-data groups (one namespace for both)');
}
