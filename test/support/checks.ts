/**
 * Test helpers for the checks: realistic documents for an operation and a binding built from the
 * type model (minimal: required parts only, nillable fields nil; full: every optional part, two
 * items per list, undocumented content in the "not shown" places), serialised with the variations a
 * conforming service may use (prefixes, default namespaces, pretty-printing, CRLF, declarations,
 * attribute order, where xsi is declared), and exchanges and contexts around them.
 */
import type { SecretWatch } from '../../src/core/secret-watch.js';
import libxml from 'libxmljs2';
import {
  DEFAULT_NAMESPACES,
  findOperation,
  type BindingId,
  type Namespaces,
  type Operation,
} from '../../src/contract/catalogue.js';
import { documentedDifference } from '../../src/contract/binding-differences.js';
import {
  effective,
  isSimple,
  namedType,
  rejectionFields,
  type SimpleType,
  type TypeRef,
} from '../../src/contract/model.js';
import type { Exchange, Finding, HttpRequest } from '../../src/core/types.js';
import type { Check, CheckOutcome } from '../../src/checks/types.js';
import { appliesHere } from '../../src/checks/registry.js';
import { binding as bindingModule } from '../../src/bindings/index.js';
import { escapeAttr, escapeText } from '../../src/core/escape.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS, XSI_NS } from '../../src/xml/tree.js';
import { CheckContext, type CaseKind, type DocumentValidator, type LibxmlOutcome } from '../../src/checks/context.js';

/** A small element tree; names may carry a prefix, namespace declarations are attributes. */
export interface XNode {
  name: string;
  attrs: [string, string][];
  children: XNode[];
  text?: string;
}

export const node = (name: string, attrs: [string, string][] = [], children: XNode[] = [], text?: string): XNode => ({
  name,
  attrs,
  children,
  ...(text !== undefined ? { text } : {}),
});

export const NS = DEFAULT_NAMESPACES;

export function op(name: string): Operation {
  const o = findOperation(name);
  if (!o) throw new Error(`no operation ${name}`);
  return o;
}

// ---- sample results from the type model ----------------------------------------------------------

export const SAMPLE: Record<SimpleType, string> = {
  string: 'sample',
  int: '7',
  decimal: '12.5',
  double: '1.5',
  boolean: 'true',
  dateTime: '2024-05-01T12:00:00',
  intList: '1 2',
};

export interface SampleOptions {
  /** Every optional part, two items per list and repeated field, undocumented content where "not shown". */
  readonly full?: boolean;
}

const nilNode = (name: string): XNode => node(name, [['xsi:nil', 'true']]);

function simpleValue(t: TypeRef): string {
  if (isSimple(t)) return SAMPLE[t];
  const n = namedType(t);
  if (n.kind !== 'enum') throw new Error(`${t} is not simple`);
  return n.values[0]!;
}

function sampleTyped(
  opName: string,
  steps: string[],
  name: string,
  type: TypeRef,
  full: boolean,
  binding: BindingId,
): XNode {
  if (type === 'anyType') {
    return full ? node(name, [['undocumented', 'yes']], [node('anything', [], [], 'goes')], 'text') : node(name);
  }
  if (isSimple(type) || namedType(type).kind === 'enum') return node(name, [], [], simpleValue(type));
  const e = effective(type);
  const attrs: [string, string][] = e.attributes.filter((a) => a.required || full).map((a) => [a.name, SAMPLE[a.type]]);
  if (full && e.anyAttribute !== undefined) attrs.push(['notShownAttribute', 'x']);
  if (e.text !== undefined) return node(name, attrs, [], SAMPLE[e.text]);
  if (e.openContent !== undefined) return node(name, attrs, full ? [node('notShown')] : [], '10.00');
  const children: XNode[] = [];
  const rejection = new Set(rejectionFields(type)); // Error, ErrorAttributes: a result with data carries neither
  for (const f of e.fields) {
    if (f.kind === 'element' && rejection.has(f.name)) continue;
    if (f.kind === 'open') {
      if (full) children.push(node('notShownField', [['any', '1']], [node('deeper', [], [], 'x')]));
      continue;
    }
    const here = [...steps, f.name];
    const rule = documentedDifference(opName, here.join('/'));
    if (rule) {
      children.push(
        rule.expect[binding] === 'nil' ? nilNode(f.name) : node(f.name, [], [], 'Free cancellation until arrival'),
      );
      continue;
    }
    if (f.list) {
      if (f.min === 0 && !full) continue;
      const n = full ? 2 : 1;
      const item = f.list.item === '*' ? 'rate' : f.list.item;
      const items = Array.from({ length: n }, () =>
        sampleTyped(opName, [...here, item], item, f.list!.type, full, binding),
      );
      children.push(node(f.name, [], items));
      continue;
    }
    if (f.min === 0 && !full) continue;
    if (f.nillable && !full) {
      children.push(nilNode(f.name));
      continue;
    }
    const times = f.max === 'unbounded' && full ? 2 : 1;
    for (let i = 0; i < times; i++) children.push(sampleTyped(opName, here, f.name, f.type, full, binding));
  }
  return node(name, attrs, children);
}

/** A valid result element (local names, no namespace declarations) for an operation on a binding. */
export function sampleResult(
  operation: string | Operation,
  binding: BindingId = 'soap11',
  opts: SampleOptions = {},
): XNode {
  const o = typeof operation === 'string' ? op(operation) : operation;
  return sampleTyped(o.name, [o.resultElement], o.resultElement, o.resultType, opts.full ?? false, binding);
}

/**
 * A result element (or an element `element` of any model type) as text, in namespace `ns` declared
 * as the default on it (xsi beside it where used): the same generator as sampleResult, for tests
 * that need the element without a binding's wrapping (the schema tests wrap it themselves).
 */
export function sampleInstance(
  of: string | Operation | { readonly type: string; readonly element: string },
  ns: string,
  opts: SampleOptions & { readonly binding?: BindingId } = {},
): string {
  const r =
    typeof of === 'object' && 'type' in of
      ? sampleTyped('', [of.element], of.element, of.type, opts.full ?? false, opts.binding ?? 'soap11')
      : sampleResult(of, opts.binding, opts);
  const usesXsi = (n: XNode): boolean => n.attrs.some(([k]) => k.startsWith('xsi:')) || n.children.some(usesXsi);
  const decls: [string, string][] = [['xmlns', ns], ...(usesXsi(r) ? [['xmlns:xsi', XSI_NS] as [string, string]] : [])];
  return serialize({ ...r, attrs: [...decls, ...r.attrs] });
}

// ---- tree editing ----------------------------------------------------------------------------------

/** The node at a '/'-separated path of names below `root` (name[n] picks the n-th of that name, 1-based). */
export function at(root: XNode, path: string): XNode {
  let cur = root;
  for (const s of path.split('/').filter(Boolean)) {
    const m = /^(.*?)(?:\[(\d+)\])?$/.exec(s)!;
    const hits = cur.children.filter((c) => c.name === m[1]);
    const hit = hits[(m[2] ? Number(m[2]) : 1) - 1];
    if (!hit) throw new Error(`no ${s} under ${cur.name}`);
    cur = hit;
  }
  return cur;
}

export const clone = (n: XNode): XNode => structuredClone(n);

// ---- serialisation ----------------------------------------------------------------------------------

export interface SerializeOptions {
  /** Indentation unit: pretty-print when set. */
  readonly indent?: string;
  /** Line end used when pretty-printing. Default '\n'. */
  readonly eol?: string;
  /** Write attributes in reverse order. */
  readonly reverseAttrs?: boolean;
}

export function serialize(n: XNode, o: SerializeOptions = {}, depth = 0): string {
  const pad = o.indent !== undefined ? o.indent.repeat(depth) : '';
  const eol = o.indent !== undefined ? (o.eol ?? '\n') : '';
  const attrs = o.reverseAttrs ? [...n.attrs].reverse() : n.attrs;
  const a = attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  if (n.children.length === 0) {
    return n.text === undefined || n.text === ''
      ? `${pad}<${n.name}${a}/>`
      : `${pad}<${n.name}${a}>${escapeText(n.text)}</${n.name}>`;
  }
  const inner = n.children.map((c) => serialize(c, o, depth + 1)).join(eol);
  const text = n.text ? escapeText(n.text) : '';
  return `${pad}<${n.name}${a}>${text}${eol}${inner}${eol}${pad}</${n.name}>`;
}

function renameAll(n: XNode, prefix: string, xsiPrefix: string, xsiOnElements: boolean): XNode {
  const usesXsi = n.attrs.some(([k]) => k.startsWith('xsi:'));
  const attrs: [string, string][] = n.attrs.map(([k, v]) => [
    k.startsWith('xsi:') ? `${xsiPrefix}:${k.slice(4)}` : k,
    v,
  ]);
  if (usesXsi && xsiOnElements) attrs.unshift([`xmlns:${xsiPrefix}`, XSI_NS]);
  return {
    ...n,
    name: prefix && !n.name.includes(':') ? `${prefix}:${n.name}` : n.name,
    attrs,
    children: n.children.map((c) => renameAll(c, prefix, xsiPrefix, xsiOnElements)),
  };
}

export interface DocOptions extends SerializeOptions, SampleOptions {
  /** The result element to send (default: sampleResult). */
  readonly result?: XNode;
  /** Prefix of the group namespace ('' : default namespace). */
  readonly prefix?: string;
  /** Prefix of the SOAP envelope namespace. Default 'soap'. */
  readonly envPrefix?: string;
  /** Envelope namespace (default: the binding's). */
  readonly envNs?: string;
  /** Prefix for xsi. Default 'xsi'. */
  readonly xsiPrefix?: string;
  /** Declare xsi on each element that uses it instead of on the document element. */
  readonly xsiOnElements?: boolean;
  /** XML declaration: double-quoted (default), single-quoted, none, or a literal text. */
  readonly decl?: 'double' | 'single' | 'none' | { readonly text: string };
  /** Group namespace (default: the operation's in DEFAULT_NAMESPACES). */
  readonly ns?: string;
}

/** A whole response document for an operation on a binding. */
export function documentFor(operation: string, binding: BindingId, o: DocOptions = {}): string {
  const oper = op(operation);
  const ns = o.ns ?? NS[oper.ns];
  const prefix = o.prefix ?? '';
  const xsiPrefix = o.xsiPrefix ?? 'xsi';
  const nsDecl: [string, string] = [prefix ? `xmlns:${prefix}` : 'xmlns', ns];
  const xsiDecl: [string, string][] = o.xsiOnElements ? [] : [[`xmlns:${xsiPrefix}`, XSI_NS]];
  const result = renameAll(o.result ?? sampleResult(oper, binding, o), prefix, xsiPrefix, o.xsiOnElements ?? false);
  const envNs = o.envNs ?? bindingModule(binding).envelopeNs;
  let top: XNode;
  if (envNs) {
    const ep = o.envPrefix ?? 'soap';
    const q = (n: string) => (ep ? `${ep}:${n}` : n);
    const wrapper = node(prefix ? `${prefix}:${oper.name}Response` : `${oper.name}Response`, [nsDecl], [result]);
    top = node(q('Envelope'), [[ep ? `xmlns:${ep}` : 'xmlns', envNs], ...xsiDecl], [node(q('Body'), [], [wrapper])]);
  } else {
    top = { ...result, attrs: [nsDecl, ...xsiDecl, ...result.attrs] };
  }
  const decl = o.decl ?? 'double';
  const declText =
    decl === 'none'
      ? ''
      : decl === 'single'
        ? "<?xml version='1.0' encoding='utf-8'?>"
        : decl === 'double'
          ? '<?xml version="1.0" encoding="utf-8"?>'
          : decl.text;
  const eol = o.indent !== undefined ? (o.eol ?? '\n') : '';
  return `${declText}${declText ? eol : ''}${serialize(top, o)}${eol}`;
}

// ---- exchanges and contexts --------------------------------------------------------------------------

/** Well-formedness by libxml2, no XSD: the stub for checks that do not read XSD errors. */
export const wellFormedOnly: DocumentValidator = {
  validate(xml: string): LibxmlOutcome {
    if (/<!DOCTYPE/i.test(xml)) return { wellFormedError: 'DOCTYPE present', xsdErrors: [] };
    try {
      const doc = libxml.parseXml(xml, { noent: false, nonet: true });
      const ns = (doc.errors as { message?: string; level?: number }[]).find((e) => (e.level ?? 0) >= 2);
      return ns ? { wellFormedError: String(ns.message).trim(), xsdErrors: [] } : { xsdErrors: [] };
    } catch (e) {
      return { wellFormedError: (e as Error).message.trim(), xsdErrors: [] };
    }
  },
};

/** A validator returning fixed XSD errors (well-formedness by libxml2). */
export function fixedErrors(errors: LibxmlOutcome['xsdErrors']): DocumentValidator {
  return { validate: (xml) => ({ ...wellFormedOnly.validate(xml), xsdErrors: errors }) };
}

export interface ExchangeOptions {
  readonly status?: number;
  /** Content-Type header; null: absent. Default: the binding's media type with charset=utf-8. */
  readonly contentType?: string | null;
  readonly headers?: Record<string, string>;
  readonly request?: HttpRequest;
}

const DEFAULT_REQUEST: HttpRequest = { method: 'POST', url: 'http://target.test/1/SOAP/Booking.asmx', headers: {} };

export function exchangeOf(body: string | Buffer, binding: BindingId, o: ExchangeOptions = {}): Exchange {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  const ct = o.contentType === undefined ? `${bindingModule(binding).responseMediaType}; charset=utf-8` : o.contentType;
  if (ct !== null) headers['content-type'] = ct;
  return {
    request: o.request ?? DEFAULT_REQUEST,
    response: {
      status: o.status ?? 200,
      headers,
      body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
      elapsedMs: 1,
    },
  };
}

export interface ContextOptions extends ExchangeOptions {
  readonly caseKind?: CaseKind;
  readonly caseId?: string;
  readonly validator?: DocumentValidator;
  readonly namespaces?: Namespaces;
  /** A whole exchange instead of a body. */
  readonly exchange?: Exchange;
  /** The run's refusals of this operation and binding (login_rejected's references). */
  readonly refusals?: readonly string[];
  /** The run's secrets (secret_echoed). */
  readonly secrets?: SecretWatch;
}

/** A check context for a response body to an operation on a binding. */
export function contextFor(
  operation: string,
  binding: BindingId,
  body: string | Buffer,
  o: ContextOptions = {},
): CheckContext {
  return new CheckContext({
    op: op(operation),
    binding,
    caseId: o.caseId ?? 'test',
    caseKind: o.caseKind ?? 'valid',
    namespaces: o.namespaces ?? NS,
    exchange: o.exchange ?? exchangeOf(body, binding, o),
    validator: o.validator ?? wellFormedOnly,
    ...(o.refusals ? { refusals: o.refusals } : {}),
    ...(o.secrets ? { secrets: o.secrets } : {}),
  });
}

export const ALL_BINDINGS: readonly BindingId[] = ['soap11', 'soap12', 'get', 'post'];
export const ENV: Record<'soap11' | 'soap12', string> = { soap11: SOAP11_ENV_NS, soap12: SOAP12_ENV_NS };

// ---- running one check ------------------------------------------------------------------------------

/**
 * The outcome of one check on a context (the registry asks whether it applies here first: its places, operations,
 * appliesTo).
 */
export function outcomeOf(check: Check, ctx: CheckContext): CheckOutcome | 'not applicable' {
  return appliesHere(check, ctx) ? check.run(ctx) : 'not applicable';
}

/** The findings of one check, failing the test when it did not run. */
export function findingsOf(check: Check, ctx: CheckContext): Finding[] {
  const o = outcomeOf(check, ctx);
  if (o !== 'not applicable' && 'note' in o) return [];
  if (o === 'not applicable' || !Array.isArray(o)) throw new Error(`${check.name} did not run: ${JSON.stringify(o)}`);
  return o;
}

/** The skip reason of one check, failing the test when it ran. */
export function skipOf(check: Check, ctx: CheckContext): string {
  const o = outcomeOf(check, ctx);
  if (o === 'not applicable' || Array.isArray(o) || !('skipped' in o))
    throw new Error(`${check.name} did not skip: ${JSON.stringify(o)}`);
  return (o as { skipped: string }).skipped;
}
