/**
 * Serialiser driven by the type model (src/contract/model.ts): plain JS data in, the XML of one
 * element out. Nothing here knows an operation or a type by name; element order, attributes, list
 * wrappers and item names, nillability and simple content all come from `effective(type)`.
 *
 * Data representation (also used by fixtures/mock-data and src/mock/data.ts):
 * - a complex-typed value is an object keyed by field name and attribute name (the model never uses
 *   one name for both in a type); key order is irrelevant, the model's order is written;
 * - an absent key (or `undefined`) is an absent element or attribute;
 * - `null` is a nil element (`xsi:nil="true"`), allowed only where the model says nillable;
 * - a simple value is a string in its lexical form, or a number / boolean (written with String());
 *   decimals are given as strings so that "12.50" keeps its digits; an intList is an array of ints;
 * - a list wrapper field (`list` in the model) is an array of item values; `[]` is an empty wrapper;
 * - a repeated field (max unbounded, no wrapper) is an array of values, `[]` writes nothing;
 * - `$text`: the text of a type with simple content (MonetaryValue), or the typed text of a type
 *   whose other content is not shown (TransferRate: `$text` and `$content` may both be given);
 * - `$content`: the content of a type whose content is not shown (CancellationFee), as AnyContent;
 * - a string for a type that holds text or its element content (`orText`: activecancellationpolicy);
 * - `$open`: AnyContent written where an `open` field ("not shown") stands in the element content;
 * - `$element`: for items of a list whose item name is free ('*'), the item's element name
 *   (default: the item type's name, as ASMX names array items);
 * - a field of type anyType ("not shown": fee, label) holds AnyContent.
 *   AnyContent = string (text) | AnyElement | AnyContent[];
 *   AnyElement = { $element: name, $attributes?: {name: value}, $content?: AnyContent }, written in
 *   the group namespace like every other element;
 * - keys that are neither fields nor attributes nor `$`-keys are extra attributes, accepted only
 *   where the model has `anyAttribute` (TransferRate).
 * In strict mode (the default) the data must match the model: required content present, enum values
 * and lexical forms valid, no unknown keys. Fault injection (src/mock/faults.ts) turns strict off, so
 * that invalid data is written as given.
 */
import { SerializeError } from '../core/errors.js';
import { validParamValue } from '../bindings/params.js';
import {
  contentNotShown,
  effective,
  isSimple,
  namedType,
  type EffectiveType,
  type ElementField,
  type SimpleType,
  type TypeRef,
} from '../contract/model.js';
import type { Operation } from '../contract/catalogue.js';
import { escapeAttr, escapeText } from '../core/escape.js';
import { XSI_NS } from '../xml/tree.js';

export type SimpleValue = string | number | boolean;
export interface AnyElement {
  readonly $element: string;
  readonly $attributes?: Readonly<Record<string, string>>;
  readonly $content?: AnyContent;
}
export type AnyContent = string | AnyElement | readonly AnyContent[];
/** Any value of an element or attribute, as described in the header. */
export type Value = SimpleValue | null | undefined | AnyContent | readonly Value[] | DataObject;
export interface DataObject {
  readonly [key: string]: Value;
}

/** How the XML is written. Every choice is an option so other legitimate styles can be produced. */
export interface SerializeOptions {
  /** Namespace URI of the group: every element is qualified in it, attributes stay unqualified. */
  readonly ns: string;
  /**
   * Declare the group namespace on the element written (true for a GET/POST document root; false
   * inside a SOAP `<OpResponse xmlns="ns">` that already declares it as the default namespace).
   * A non-empty `prefix` inside an envelope that does not bind it needs this too.
   */
  readonly declareNamespace: boolean;
  /** Prefix of the group namespace; '' (default) writes unprefixed names in the default namespace. */
  readonly prefix?: string;
  /** Prefix bound to the XML Schema instance namespace for xsi:nil (default 'xsi'). */
  readonly xsiPrefix?: string;
  /** Declare xmlns:{xsiPrefix} on the element written (default: same as declareNamespace). */
  readonly declareXsi?: boolean;
  /** Indent element-only content: false (default, compact), true (two spaces) or the indent unit. */
  readonly pretty?: boolean | string;
  /** Check the data against the model (default true). */
  readonly strict?: boolean;
  /** Attribute order: the model's (default) or reversed; XML gives attribute order no meaning. */
  readonly attributeOrder?: 'model' | 'reverse';
  /** Declare the xsi prefix on every nil element itself instead of once (default false). */
  readonly xsiOnNil?: boolean;
  /**
   * Rewrite the lexical form of a typed simple value (element text or model attribute): another
   * lexical form of the same value (variation mode) or an invalid one (fault injection). Values of
   * type string, enumerations and content whose type is not shown are never passed here.
   */
  readonly lexical?: (type: SimpleType, lexical: string, path: string) => string;
  /**
   * How text is written: escaped (default); string values holding markup characters as CDATA
   * sections; or every non-ASCII character as a character reference (text and attributes).
   */
  readonly text?: 'escape' | 'cdata' | 'references';
  /**
   * With a prefix: only the element written carries it and also declares the group namespace as the
   * default one, which its descendants use unprefixed (default false: every element prefixed).
   */
  readonly prefixRootOnly?: boolean;
  /** Name the declared type with xsi:type on every element of a complex type (default false). */
  readonly xsiType?: boolean;
  /** Quote character of data attribute values (default '"'). */
  readonly attributeQuote?: '"' | "'";
}

export { SerializeError };

interface Ctx {
  readonly p: string; // 'p:' or ''
  readonly xsi: string; // 'xsi'
  readonly indent: string; // '' when compact
  readonly strict: boolean;
  readonly reverseAttributes: boolean;
  readonly xsiOnNil: boolean;
  readonly lexical?: SerializeOptions['lexical'];
  readonly text: NonNullable<SerializeOptions['text']>;
  readonly xsiType: boolean;
  readonly q: '"' | "'";
  /** The context of the children, when it differs (prefixRootOnly). */
  readonly child?: Ctx;
}

const DOUBLE_RE = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)$/;
const BOOLEAN_RE = /^(true|false|1|0)$/;

/** Serialise the result element of an operation (`null` writes it nil where the catalogue allows). */
export function serializeResult(op: Operation, value: Value, options: SerializeOptions): string {
  return serializeElement(op.resultElement, op.resultType, value, options, op.resultNillable);
}

/** Serialise one element named `name` of model type `type` holding `value`. */
export function serializeElement(
  name: string,
  type: TypeRef,
  value: Value,
  options: SerializeOptions,
  nillable = false,
): string {
  const base: Ctx = {
    p: options.prefix ? `${options.prefix}:` : '',
    xsi: options.xsiPrefix ?? 'xsi',
    indent: options.pretty === true ? '  ' : typeof options.pretty === 'string' ? options.pretty : '',
    strict: options.strict ?? true,
    reverseAttributes: options.attributeOrder === 'reverse',
    xsiOnNil: options.xsiOnNil ?? false,
    lexical: options.lexical,
    text: options.text ?? 'escape',
    xsiType: options.xsiType ?? false,
    q: options.attributeQuote ?? '"',
  };
  const rootOnly = !!options.prefix && options.prefixRootOnly === true;
  const ctx: Ctx = rootOnly ? { ...base, child: { ...base, p: '' } } : base;
  const decls: string[] = [];
  if (options.declareNamespace)
    decls.push(
      options.prefix ? ` xmlns:${options.prefix}="${escapeAttr(options.ns)}"` : ` xmlns="${escapeAttr(options.ns)}"`,
    );
  if (rootOnly) decls.push(` xmlns="${escapeAttr(options.ns)}"`);
  if (options.declareXsi ?? options.declareNamespace) decls.push(` xmlns:${ctx.xsi}="${XSI_NS}"`);
  return writeElement(ctx, name, type, value, nillable, 0, decls.join(''), `/${name}`);
}

function fail(path: string, message: string): never {
  throw new SerializeError(`${path}: ${message}`);
}

function nl(ctx: Ctx, depth: number): string {
  return ctx.indent ? `\n${ctx.indent.repeat(depth)}` : '';
}

function writeElement(
  ctx: Ctx,
  name: string,
  type: TypeRef,
  value: Value,
  nillable: boolean,
  depth: number,
  decls: string,
  path: string,
): string {
  const tag = ctx.p + name;
  if (value === null) {
    if (ctx.strict && !nillable) fail(path, 'null given for an element that is not nillable');
    const local = ctx.xsiOnNil && !decls.includes(`xmlns:${ctx.xsi}=`) ? ` xmlns:${ctx.xsi}="${XSI_NS}"` : '';
    return `<${tag}${decls}${local} ${ctx.xsi}:nil="true"/>`;
  }
  if (value === undefined) fail(path, 'no value');
  const kid = ctx.child ?? ctx;
  if (type === 'anyType') return wrap(tag, decls, '', writeAny(kid, value as AnyContent, path));
  if (isSimple(type)) return wrap(tag, decls, '', textOf(ctx, simple(ctx, type, value, path), type === 'string'));
  const t = namedType(type);
  if (t.kind === 'enum') {
    const v = simple(ctx, 'string', value, path);
    if (ctx.strict && !t.values.includes(v))
      fail(path, `"${v}" is not one of ${t.name}'s values ${t.values.join(', ')}`);
    return wrap(tag, decls, '', textOf(ctx, v, false));
  }
  const e = effective(type);
  // Text instead of the element content, where the model accepts both (orText).
  if (e.orText !== undefined && typeof value === 'string')
    return wrap(tag, decls, '', textOf(ctx, simple(ctx, e.orText, value, path), e.orText === 'string'));
  if (typeof value !== 'object' || Array.isArray(value)) fail(path, `an object is needed for type ${type}`);
  const obj = value as DataObject;
  let attrs = writeAttributes(ctx, e, obj, path);
  if (ctx.xsiType) {
    const local = ctx.xsiOnNil && !decls.includes(`xmlns:${ctx.xsi}=`) ? ` xmlns:${ctx.xsi}="${XSI_NS}"` : '';
    attrs = `${local} ${ctx.xsi}:type="${ctx.p}${type}"${attrs}`;
  }
  if (e.openContent) {
    // Content not shown: any content; with a typed text (TransferRate), the text comes first.
    const text =
      e.text && obj.$text !== undefined && obj.$text !== null
        ? textOf(ctx, simple(ctx, e.text, obj.$text, `${path}/text()`), false)
        : '';
    return wrap(
      tag,
      decls,
      attrs,
      text + (obj.$content === undefined ? '' : writeAny(kid, obj.$content as AnyContent, path)),
    );
  }
  if (e.text) {
    const text = obj.$text;
    if (text === undefined || text === null)
      return ctx.strict ? fail(path, `simple content ($text) of ${type} missing`) : wrap(tag, decls, attrs, '');
    return wrap(tag, decls, attrs, textOf(ctx, simple(ctx, e.text, text, `${path}/text()`), false));
  }
  let inner = '';
  // An in-band rejection (BaseResult's Error, section 7.1): its other fields, required or not, may
  // be absent (the real service answers wrong credentials with a result holding only Error).
  const rejecting = e.rejection !== undefined && obj[e.rejection] !== undefined && obj[e.rejection] !== null;
  for (const f of e.fields) {
    if (f.kind === 'open') {
      if (obj.$open !== undefined) inner += nl(ctx, depth + 1) + writeAny(kid, obj.$open as AnyContent, path);
      continue;
    }
    inner += writeField(kid, f, obj[f.name], depth + 1, `${path}/${f.name}`, rejecting);
  }
  if (inner) inner += nl(ctx, depth);
  return wrap(tag, decls, attrs, inner);
}

function writeField(ctx: Ctx, f: ElementField, v: Value, depth: number, path: string, rejecting = false): string {
  if (v === undefined) {
    if (ctx.strict && f.min === 1 && !rejecting) fail(path, 'required element missing');
    return '';
  }
  if (f.list) {
    if (!Array.isArray(v)) return ctx.strict ? fail(path, 'a list needs an array of items') : '';
    const { item, type } = f.list;
    let inner = '';
    (v as readonly Value[]).forEach((it, i) => {
      let name = item;
      if (item === '*') {
        const given =
          it !== null && typeof it === 'object' && !Array.isArray(it) ? (it as DataObject).$element : undefined;
        name = typeof given === 'string' ? given : type;
      }
      inner +=
        nl(ctx, depth + 1)
        + writeElement(ctx, name, type, it, contentNotShown(type), depth + 1, '', `${path}/${name}[${i + 1}]`);
    });
    if (inner) inner += nl(ctx, depth);
    return nl(ctx, depth) + wrap(ctx.p + f.name, '', '', inner);
  }
  if (f.max === 'unbounded') {
    if (!Array.isArray(v)) return ctx.strict ? fail(path, 'a repeated element needs an array') : '';
    return (v as readonly Value[])
      .map(
        (it, i) => nl(ctx, depth) + writeElement(ctx, f.name, f.type, it, f.nillable, depth, '', `${path}[${i + 1}]`),
      )
      .join('');
  }
  return nl(ctx, depth) + writeElement(ctx, f.name, f.type, v, f.nillable || contentNotShown(f.type), depth, '', path);
}

function writeAttributes(ctx: Ctx, e: EffectiveType, obj: DataObject, path: string): string {
  const defs = e.attributes;
  const written: string[] = [];
  for (const a of defs) {
    const v = obj[a.name];
    if (v === undefined) {
      if (ctx.strict && a.required) fail(`${path}/@${a.name}`, 'required attribute missing');
      continue;
    }
    written.push(` ${a.name}=${attrOf(ctx, simple(ctx, a.type, v, `${path}/@${a.name}`))}`);
  }
  const known = new Set<string>([
    ...defs.map((a) => a.name),
    ...e.fields.flatMap((f) => (f.kind === 'element' ? [f.name] : [])),
  ]);
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('$') || known.has(k) || v === undefined) continue;
    if (!e.anyAttribute) {
      if (ctx.strict) fail(path, `"${k}" is neither a field nor an attribute of this type`);
      continue;
    }
    written.push(` ${k}=${attrOf(ctx, simple(ctx, 'string', v, `${path}/@${k}`))}`);
  }
  return (ctx.reverseAttributes ? written.reverse() : written).join('');
}

/** The lexical form of a simple value, checked against its type in strict mode. */
function simple(ctx: Ctx, type: SimpleType, v: Value, path: string): string {
  let s: string;
  if (type === 'intList' && Array.isArray(v)) s = (v as readonly Value[]).map(String).join(' ');
  else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') s = String(v);
  else return fail(path, `a ${type} value is needed, got ${JSON.stringify(v)}`);
  if (ctx.strict && !validSimple(type, s)) fail(path, `"${s}" is not a valid ${type}`);
  return ctx.lexical && type !== 'string' ? ctx.lexical(type, s, path) : s;
}

/** Whether a lexical form is valid for a simple type of the model. */
export function validSimple(type: SimpleType, s: string): boolean {
  switch (type) {
    case 'string':
      return true;
    case 'int':
    case 'decimal':
    case 'dateTime':
      return validParamValue(type, s);
    case 'double':
      return DOUBLE_RE.test(s.trim());
    case 'boolean':
      return BOOLEAN_RE.test(s.trim());
    case 'intList':
      return (
        s.trim() === ''
        || s
          .trim()
          .split(/\s+/)
          .every((x) => validParamValue('int', x))
      );
  }
}

function writeAny(ctx: Ctx, c: AnyContent, path: string): string {
  if (typeof c === 'string') return escapeText(c);
  if (Array.isArray(c)) return (c as readonly AnyContent[]).map((x) => writeAny(ctx, x, path)).join('');
  const el = c as AnyElement;
  if (typeof el.$element !== 'string' || !/^[A-Za-z_][\w.-]*$/.test(el.$element))
    fail(path, `bad open-content element ${JSON.stringify(c)}`);
  const attrs = Object.entries(el.$attributes ?? {})
    .map(([k, v]) => ` ${k}=${attrOf(ctx, v)}`)
    .join('');
  return wrap(
    ctx.p + el.$element,
    '',
    attrs,
    el.$content === undefined ? '' : writeAny(ctx, el.$content, `${path}/${el.$element}`),
  );
}

const NON_ASCII = /[\u0080-\u{10FFFF}]/gu;
const reference = (c: string) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`;

/** Element text as the options write it (CDATA only for string values that hold markup characters). */
function textOf(ctx: Ctx, s: string, isString: boolean): string {
  if (ctx.text === 'references') return escapeText(s).replace(NON_ASCII, reference);
  if (ctx.text === 'cdata' && isString && /[&<>]/.test(s) && !s.includes('\r'))
    return `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  return escapeText(s);
}

/** A quoted attribute value as the options write it. */
function attrOf(ctx: Ctx, s: string): string {
  let v = escapeAttr(s);
  if (ctx.text === 'references') v = v.replace(NON_ASCII, reference);
  return ctx.q === '"' ? `"${v}"` : `'${v.replace(/&quot;/g, '"').replace(/'/g, '&apos;')}'`;
}

function wrap(tag: string, decls: string, attrs: string, inner: string): string {
  return inner === '' ? `<${tag}${decls}${attrs}/>` : `<${tag}${decls}${attrs}>${inner}</${tag}>`;
}
