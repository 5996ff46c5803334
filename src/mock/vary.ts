/**
 * Variation mode (`npm run mock -- --vary`, `startMock({ vary: true })`): the mock answers in every
 * legitimate way it can, so that the harness is proven to accept them all (a false alarm here is a
 * harness defect). Two kinds of variation, kept strictly apart:
 *
 * - Data (`varyData`): optional elements left out, nillable ones nil, undocumented content where
 *   the contract says "not shown" (elements in NonStaticTransfer's open region, attributes on
 *   TransferRate items, any label / fee / cancellationfee content), dateTimes given a time zone.
 *   Decided by a hash of the operation and the request parameters, never of the binding: the four
 *   bindings of one request carry the same data, as equivalence requires.
 * - Presentation (`presentationFor`): envelope prefix, a SOAP Header, default or prefixed result namespace, xsi prefix
 *   and where it is declared, pretty-printed or compact, CRLF line ends, the XML declaration (double or single quotes,
 *   none, no encoding, a byte order mark), comments, attribute order, xsi:type naming the declared types, text as CDATA
 *   or character references, a prefix on the result element only (its descendants in the default namespace), how
 *   Content-Type spells charset=utf-8, and the lexical form of typed values (12.5, 12.50, +12.5; 7, +7, 007; true, 1;
 *   one instant in other time zones). Decided per binding (and request), so the bindings of one request are written
 *   differently.
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { BINDINGS } from '../contract/catalogue.js';
import { documentedDifference } from '../contract/binding-differences.js';
import { effective, isSimple, MODEL, type ElementField, type SimpleType, type TypeRef } from '../contract/model.js';
import type { Binding, DocumentForm } from '../bindings/types.js';
import { Rng, stableHash } from './rng.js';
import type { AnyContent, DataObject, SerializeOptions, Value } from './serialize.js';
import { realStyle, withoutBookingPicks } from './real-style.js';

type RawParams = Readonly<Record<string, string | undefined>>;

/**
 * The seed of a request: its operation and its parameters (credentials and anything the operation
 * does not take excluded: SOAP would carry such extra elements, GET and POST would not), never its binding.
 */
export function requestSeed(op: Operation, params: RawParams): number {
  const keys = op.params
    .map((p) => p.name)
    .filter((k) => k !== 'userName' && k !== 'password' && params[k] !== undefined)
    .sort();
  return stableHash([op.name, ...keys.map((k) => `${k}=${params[k]!}`)].join('\u0000'));
}

// ---- data ---------------------------------------------------------------------------------------

/** Names of open-region elements: none is a field of a transfer or a global element of the schemas. */
const OPEN_ELEMENTS: readonly AnyContent[] = [
  { $element: 'vehicleClass', $content: 'Minivan' },
  {
    $element: 'luggage',
    $attributes: { pieces: '2', unit: 'bag' },
    $content: [{ $element: 'note', $content: 'Ski bags on request' }],
  },
  { $element: 'supplierCode', $content: 'TRF-ÅRE-07' },
];
const EXTRA_RATE_ATTRIBUTES: Readonly<Record<string, string>>[] = [
  { rateCode: 'STD' },
  { validUntil: '2030-12-31', priceType: 'perVehicle' },
];
/** Any content for a place whose type is not shown (label, fee). */
const ANY_CONTENT: readonly AnyContent[] = [
  'free text without elements',
  [
    { $element: 'code', $content: 'X1' },
    { $element: 'description', $attributes: { lang: 'sv' }, $content: 'Frukost ingår' },
  ],
  '',
];

interface DataWalk {
  readonly rng: Rng;
  readonly op: Operation;
  readonly zone: boolean;
}

/**
 * The same result, varied in data only as the contract allows; identical for every binding of a
 * request. Results carrying an Error element (rejections reported in-band) are left alone.
 */
export function varyData(op: Operation, params: RawParams, value: Value, stateful = false): Value {
  const seed = requestSeed(op, params);
  // The real service's style (src/mock/real-style.ts), each part by chance for this request; with
  // state, no in-band Error picked by booking id (the state says which booking is cancelled).
  const parts = new Rng(seed ^ 0x7ea1);
  const draw = () => parts.chance(0.5);
  const real = realStyle(op, params, value, stateful ? withoutBookingPicks(draw) : draw);
  if (!isObject(real) || 'Error' in real) return real;
  const rng = new Rng(seed ^ 0x5eed);
  return complex({ rng, op, zone: rng.chance(0.5) }, real, op.resultType, op.resultElement);
}

/** How a request with wrong credentials is rejected in variation mode: an in-band Error or a fault, per request. */
export function variedRejection(op: Operation, params: RawParams): 'in-band' | 'fault' {
  // Not by the booking named: each binding may name its own (a probe where a call would use a
  // booking up), and one request must be rejected in one form on every binding.
  const { bookingID: _a, bookingId: _b, transferBookingID: _c, ...rest } = params;
  return new Rng(requestSeed(op, rest) ^ 0x0e44).chance(0.5) ? 'in-band' : 'fault';
}

function isObject(v: Value): v is DataObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function complex(w: DataWalk, obj: DataObject, type: string, namePath: string): DataObject {
  const t = MODEL.get(type);
  if (t?.kind !== 'complex') return obj;
  const e = effective(type);
  const out: Record<string, Value> = { ...obj };
  if (e.anyAttribute !== undefined && w.rng.chance(0.5)) Object.assign(out, w.rng.pick(EXTRA_RATE_ATTRIBUTES));
  if (e.openContent !== undefined && out.$content !== undefined) {
    // "Numeric content of a cancellationfee element: not shown": the number, nothing, or elements.
    const pick = w.rng.int(0, 2);
    if (pick === 1) out.$content = undefined;
    if (pick === 2)
      out.$content = [
        { $element: 'amount', $content: String(out.$content) },
        { $element: 'rule', $content: 'no-show' },
      ];
  }
  for (const a of e.attributes) {
    if (a.type === 'dateTime' && typeof out[a.name] === 'string') out[a.name] = zoned(w, out[a.name] as string);
    // An optional attribute left out (a null string attribute is not written).
    if (!a.required && out[a.name] !== undefined && w.rng.chance(0.2)) out[a.name] = undefined;
  }
  for (const f of e.fields) {
    if (f.kind === 'open') {
      if (w.rng.chance(0.6)) out.$open = w.rng.sample(OPEN_ELEMENTS, w.rng.int(1, OPEN_ELEMENTS.length));
      continue;
    }
    const path = `${namePath}/${f.name}`;
    const v = out[f.name];
    if (v === undefined || documentedDifference(w.op.name, path)) continue;
    // An Error element is the in-band rejection (section 7.1): never added or taken away.
    if (f.name === 'Error') continue;
    if (f.min === 0 && f.max === 1 && w.rng.chance(0.25)) {
      out[f.name] = undefined;
      continue;
    }
    if (f.nillable && f.max === 1 && w.rng.chance(0.3)) {
      out[f.name] = null;
      continue;
    }
    out[f.name] = field(w, f, v, path);
  }
  return out;
}

function field(w: DataWalk, f: ElementField, v: Value, path: string): Value {
  if (v === null) return v;
  if (f.list) {
    if (!Array.isArray(v)) return v;
    const item = f.list;
    return (v as readonly Value[]).map((it) => element(w, item.type, it, `${path}/${item.item}`));
  }
  if (f.max === 'unbounded' && Array.isArray(v))
    return (v as readonly Value[]).map((it) => element(w, f.type, it, path));
  return element(w, f.type, v, path);
}

function element(w: DataWalk, type: TypeRef, v: Value, path: string): Value {
  if (v === null || v === undefined) return v;
  if (type === 'anyType') return w.rng.chance(0.5) ? w.rng.pick(ANY_CONTENT) : v;
  if (type === 'dateTime' && typeof v === 'string') return zoned(w, v);
  if (isSimple(type) || !isObject(v)) return v;
  return complex(w, v, type, path);
}

/** A dateTime without a zone, read as UTC and given the zone Z (decided once per request). */
function zoned(w: DataWalk, v: string): string {
  return w.zone && /T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v) ? `${v}Z` : v;
}

// ---- presentation ---------------------------------------------------------------------------------

export interface Presentation {
  /** Prefix of the SOAP envelope namespace. */
  readonly envelopePrefix: string;
  /** A SOAP Header before the Body: none, empty, or holding a header block nobody must understand. */
  readonly soapHeader: 'none' | 'empty' | 'block';
  /** Where the group namespace is declared in SOAP: on the <Operation>Response wrapper or on the Envelope. */
  readonly namespaceAt: 'wrapper' | 'envelope';
  /** Quote character of attribute values. */
  readonly attributeQuote: '"' | "'";
  /** Prefix of the group namespace ('' = default namespace). */
  readonly resultPrefix: string;
  /** With a prefix: on every element, or on the result element only (its descendants in the default namespace). */
  readonly prefixScope: 'all' | 'root';
  /** Text escaped, string values with markup characters as CDATA, or non-ASCII as character references. */
  readonly text: 'escape' | 'cdata' | 'references';
  /** Comments before the document element and inside the result element. */
  readonly comments: boolean;
  /** xsi:type naming the declared type on every element of a complex type. */
  readonly xsiType: boolean;
  readonly xsiPrefix: string;
  /** Where xmlns:xsi is declared: on the envelope (SOAP), on the result element, or on each nil element. */
  readonly xsiAt: 'envelope' | 'result' | 'nil';
  readonly indent: string;
  readonly newline: '\n' | '\r\n';
  readonly declaration: 'double' | 'single' | 'none' | 'no-encoding' | 'bom' | 'standalone';
  readonly attributeOrder: 'model' | 'reverse';
  /** How Content-Type says "<media type>; charset=utf-8". */
  readonly contentType: 0 | 1 | 2 | 3;
  /** Which lexical form typed values take. */
  readonly lexical: 0 | 1 | 2 | 3;
}

const pick = <T>(xs: readonly T[], seed: number, bindingIndex: number): T => xs[(seed + bindingIndex) % xs.length]!;

/** How one binding writes the answer to one request: another choice for each binding of the request. */
export function presentationFor(binding: BindingId, seed: number): Presentation {
  const i = BINDINGS.indexOf(binding);
  // One independent draw per dimension, so that the choices do not move in step.
  const s = (dimension: number) => stableHash(`${seed}/${dimension}`);
  return {
    envelopePrefix: pick(['soap', 's', 'SOAP-ENV', 'env'], s(0), i),
    soapHeader: pick(['none', 'empty', 'none', 'block'] as const, s(2), i),
    namespaceAt: pick(['wrapper', 'envelope', 'wrapper'] as const, s(3), i),
    attributeQuote: pick(['"', "'"] as const, s(13), i),
    resultPrefix: pick(['', 'r', '', 'ns1'], s(4), i),
    prefixScope: pick(['all', 'root', 'all'] as const, s(5), i),
    text: pick(['escape', 'cdata', 'references'] as const, s(7), i),
    comments: pick([false, true, false], s(9), i),
    xsiType: pick([false, true, false], s(11), i),
    xsiPrefix: pick(['xsi', 'i', 'xsi', 'inst'], s(6), i),
    xsiAt: pick(['envelope', 'result', 'nil'] as const, s(8), i),
    indent: pick(['', '  ', '', '\t'], s(10), i),
    newline: pick(['\n', '\r\n'] as const, s(12), i),
    declaration: pick(['double', 'single', 'none', 'no-encoding', 'bom', 'standalone'] as const, s(14), i),
    attributeOrder: pick(['model', 'reverse'] as const, s(16), i),
    contentType: pick([0, 1, 2, 3] as const, s(18), i),
    lexical: pick([0, 1, 2, 3] as const, s(20), i),
  };
}

/** Content-Type with charset=utf-8 spelt one of the legitimate ways (RFC 9110: case-insensitive, quotable). */
export function contentTypeOf(mediaType: string, variant: Presentation['contentType']): string {
  switch (variant) {
    case 0:
      return `${mediaType}; charset=utf-8`;
    case 1:
      return `${mediaType}; charset=UTF-8`;
    case 2:
      return `${mediaType};charset="utf-8"`;
    case 3:
      return `${mediaType.replace(/^text\/xml$/, 'Text/XML')}; Charset=utf-8`;
  }
}

/** Another lexical form of the same value (XSD value space): what variant `v` writes for a valid value. */
export function relexical(type: SimpleType, s: string, v: Presentation['lexical']): string {
  if (v === 0) return s;
  switch (type) {
    case 'int': {
      if (!/^[+-]?\d+$/.test(s)) return s;
      const neg = s.startsWith('-');
      const digits = s.replace(/^[+-]/, '');
      if (v === 1) return neg ? s : `+${digits}`;
      if (v === 2) return `${neg ? '-' : ''}00${digits}`;
      return ` ${s} `;
    }
    case 'decimal': {
      const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
      if (!m) return s;
      const [, sign, int, frac = ''] = m;
      if (v === 1) {
        const f = frac.replace(/0+$/, '');
        return `${sign}${int || '0'}${f ? `.${f}` : ''}`;
      }
      if (v === 2) return `${sign || '+'}${int || '0'}.${frac}00`;
      return `${sign}0${int}${frac ? `.${frac}` : ''}`;
    }
    case 'boolean':
      return v === 2 ? s : s === 'true' ? '1' : s === 'false' ? '0' : s === '1' ? 'true' : s === '0' ? 'false' : s;
    case 'dateTime':
      return otherZone(s, v);
    case 'intList':
      return v === 2
        ? s
            .split(/\s+/)
            .map((x) => relexical('int', x, 2))
            .join('  ')
        : s;
    default:
      return s;
  }
}

/** The same instant written in another zone (zoned values), or with a zero fraction (local values). */
function otherZone(s: string, v: Presentation['lexical']): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z)?$/.exec(s);
  if (!m) return s;
  const [, y, mo, d, h, mi, sec, frac = '', z] = m;
  if (!z) return v === 3 ? `${s}.000` : s;
  const offset = v === 1 ? 120 : v === 2 ? -330 : 0;
  if (offset === 0) return `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac || '.0'}Z`;
  const t = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec)) + offset * 60_000,
  );
  const pad = (n: number) => String(n).padStart(2, '0');
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${t.toISOString().slice(0, 19)}${frac}${zone}`;
}

/** Serialisation options of the result element under a presentation. */
export function variedOptions(p: Presentation, ns: string, b: Binding): SerializeOptions {
  return {
    ns,
    prefix: p.resultPrefix,
    xsiPrefix: p.xsiPrefix,
    // Which declarations the document around the result makes is the binding's rule.
    ...b.resultDeclarations(p.resultPrefix, p.xsiPrefix, documentForm(p)),
    xsiOnNil: p.xsiAt === 'nil',
    pretty: p.indent === '' ? false : p.indent,
    attributeOrder: p.attributeOrder,
    attributeQuote: p.attributeQuote,
    text: p.text,
    prefixRootOnly: p.prefixScope === 'root',
    xsiType: p.xsiType,
    lexical: p.lexical === 0 ? undefined : (type, s) => relexical(type, s, p.lexical),
  };
}

function declaration(p: Presentation): string {
  switch (p.declaration) {
    case 'double':
      return '<?xml version="1.0" encoding="utf-8"?>';
    case 'single':
      return "<?xml version='1.0' encoding='UTF-8'?>";
    case 'none':
      return '';
    case 'no-encoding':
      return '<?xml version="1.0"?>';
    case 'bom':
      return '\uFEFF<?xml version="1.0" encoding="utf-8"?>';
    case 'standalone':
      return '<?xml version="1.0" encoding="utf-8" standalone="yes"?>';
  }
}

/** The form of the document around the result element, as the binding writes it. */
function documentForm(p: Presentation): DocumentForm {
  return {
    envelopePrefix: p.envelopePrefix,
    soapHeader: p.soapHeader,
    namespaceAt: p.namespaceAt,
    resultPrefix: p.resultPrefix,
    xsiPrefix: p.xsiPrefix,
    xsiAt: p.xsiAt,
    indent: p.indent,
    newline: p.newline,
  };
}

/**
 * The whole body of a result: the binding's document (SOAP: envelope, Body and wrapper) around the result element, then
 * comments, declaration, line ends.
 */
export function variedBody(p: Presentation, op: Operation, b: Binding, resultXml: string, ns: string): string {
  const nl = p.indent ? p.newline : '';
  let doc = b.writeDocument(op, resultXml, ns, documentForm(p));
  if (p.comments) {
    // Inside the result element (when it has content) and before the document element.
    doc = doc.replace(
      new RegExp(`(<(?:[\\w.-]+:)?${op.resultElement}(?:\\s[^>]*[^/])?>)`),
      '$1<!-- result of the reference mock -->',
    );
    doc = `<!-- ${op.name} -->${nl}${doc}`;
  }
  const decl = declaration(p);
  // A pretty-printed document ends with a line break.
  const text = (decl ? `${decl}${nl}${doc}` : doc) + nl;
  return p.newline === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text;
}
