/**
 * A WSDL 1.1 document read into its meaning (WsdlModel, ./wsdl-model.ts): services and ports, bindings with their
 * kind (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) and per-operation details, portTypes, messages and
 * parts, and the inline schemas' global elements and types with each content model flattened into
 * element particles. Prefixes are resolved here (fast-xml-parser does not), in element names and in
 * QName-valued attributes (type=, element=, ref=, base=, message=, binding=), so that what the
 * comparison (./wsdl-compare.ts) sees holds no prefix, no order of declarations, no annotation and
 * no whitespace. External imports and includes are not fetched: only what the document holds is read.
 */
import { XMLParser } from 'fast-xml-parser';
import { hasDoctype } from '../xml/tree.js';
import { XmlError } from '../core/errors.js';
import { XS_NS } from './xsd.js';
import {
  qkey,
  WSDL_HTTP_NS,
  WSDL_MIME_NS,
  WSDL_NS,
  WSDL_SOAP11_NS,
  WSDL_SOAP12_NS,
  type AttributeDecl,
  type BindingKind,
  type BindingOperation,
  type ComplexDef,
  type ElementDecl,
  type Particle,
  type Part,
  type QName,
  type SimpleDef,
  type TypeDef,
  type WsdlBinding,
  type WsdlModel,
  type WsdlTypeRef,
} from './wsdl-model.js';

/** An element with its in-scope prefixes, for resolving QName values. */
interface Node {
  readonly ns: string;
  readonly local: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly Node[];
  readonly scope: ReadonlyMap<string, string>;
}

type Raw = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  maxNestedTags: 512,
});

function build(raw: Raw, outer: ReadonlyMap<string, string>): Node | undefined {
  const tag = Object.keys(raw).find((k) => k !== ':@');
  if (tag === undefined || tag === '#text') return undefined;
  const rawAttrs = (raw[':@'] ?? {}) as Record<string, string>;
  let scope = outer;
  // No prototype: an attribute a hostile document names __proto__ or constructor is only a key.
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(rawAttrs)) {
    if (k === 'xmlns' || k.startsWith('xmlns:')) {
      if (scope === outer) scope = new Map(outer);
      (scope as Map<string, string>).set(k === 'xmlns' ? '' : k.slice(6), v);
    } else if (!k.includes(':')) {
      attrs[k] = v;
    }
  }
  const i = tag.indexOf(':');
  const prefix = i < 0 ? '' : tag.slice(0, i);
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw new XmlError(`undeclared prefix "${prefix}" on <${tag}>`);
  const children = ((raw[tag] ?? []) as Raw[]).map((c) => build(c, scope)).filter((c): c is Node => c !== undefined);
  return { ns: ns ?? '', local: i < 0 ? tag : tag.slice(i + 1), attrs, children, scope };
}

/** A QName-valued attribute resolved in its element's scope (an unprefixed one takes the default namespace). */
function qname(n: Node, value: string | undefined): QName | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  const i = v.indexOf(':');
  const prefix = i < 0 ? '' : v.slice(0, i);
  const ns = n.scope.get(prefix);
  if (ns === undefined && prefix !== '') throw new XmlError(`undeclared prefix "${prefix}" in "${v}"`);
  return { ns: ns ?? '', local: i < 0 ? v : v.slice(i + 1) };
}

const kids = (n: Node, ns: string, local?: string) =>
  n.children.filter((c) => c.ns === ns && (local === undefined || c.local === local));
const kid = (n: Node, ns: string, local: string) => n.children.find((c) => c.ns === ns && c.local === local);

const occurs = (v: string | undefined, dflt: number): number =>
  v === undefined ? dflt : v.trim() === 'unbounded' ? Infinity : Number(v.trim());

/** One xs:schema's context: its target namespace and element form. */
interface SchemaCtx {
  readonly tns: string;
  readonly qualified: boolean;
  readonly attrQualified: boolean;
}

function typeRefOf(n: Node, ctx: SchemaCtx): WsdlTypeRef | undefined {
  const named = qname(n, n.attrs.type);
  if (named) return { named };
  const inline = kid(n, XS_NS, 'complexType') ?? kid(n, XS_NS, 'simpleType');
  return inline ? { anon: typeDefOf(inline, ctx) } : undefined;
}

/**
 * The element particles of a model group, in document order. A group's occurrence multiplies into
 * its members': an optional sequence makes its elements optional, a repeated one repeats them. A
 * choice does not make its branches' elements optional: an element required in its branch stays
 * required (the Error-or-result choice of every result would otherwise hide that its fields are).
 */
function flatten(n: Node, ctx: SchemaCtx, min: number, max: number, out: Particle[]): void {
  for (const c of n.children) {
    if (c.ns !== XS_NS) continue;
    const cmin = min * occurs(c.attrs.minOccurs, 1);
    const cmax = max * occurs(c.attrs.maxOccurs, 1);
    switch (c.local) {
      case 'element': {
        if (c.attrs.ref !== undefined) {
          out.push({
            kind: 'element',
            name: qname(c, c.attrs.ref)!,
            min: cmin,
            max: cmax,
            nillable: false,
            type: { named: { ns: '\u0000ref', local: qkey(qname(c, c.attrs.ref)!) } },
          });
        } else {
          const form = c.attrs.form ?? (ctx.qualified ? 'qualified' : 'unqualified');
          out.push({
            kind: 'element',
            name: { ns: form === 'qualified' ? ctx.tns : '', local: c.attrs.name ?? '' },
            ...withType(typeRefOf(c, ctx)),
            min: cmin,
            max: cmax,
            nillable: c.attrs.nillable?.trim() === 'true',
          });
        }
        break;
      }
      case 'any':
        out.push({ kind: 'any', min: cmin, max: cmax });
        break;
      case 'sequence':
      case 'choice':
      case 'all':
        flatten(c, ctx, cmin, cmax, out);
        break;
      case 'group':
        out.push({
          kind: 'element',
          name: { ns: '\u0000group', local: qkey(qname(c, c.attrs.ref)!) },
          min: cmin,
          max: cmax,
          nillable: false,
        });
        break;
      default:
        break;
    }
  }
}

const withType = (t: WsdlTypeRef | undefined): { type?: WsdlTypeRef } => (t ? { type: t } : {});

function attributesOf(n: Node, ctx: SchemaCtx): { attributes: AttributeDecl[]; anyAttribute: boolean } {
  const attributes: AttributeDecl[] = [];
  let anyAttribute = false;
  for (const a of n.children) {
    if (a.ns !== XS_NS) continue;
    if (a.local === 'anyAttribute') anyAttribute = true;
    if (a.local !== 'attribute') continue;
    const ref = qname(a, a.attrs.ref);
    const form = a.attrs.form ?? (ctx.attrQualified ? 'qualified' : 'unqualified');
    attributes.push({
      name: ref ?? { ns: form === 'qualified' ? ctx.tns : '', local: a.attrs.name ?? '' },
      ...withType(typeRefOf(a, ctx)),
      required: a.attrs.use?.trim() === 'required',
    });
  }
  return { attributes, anyAttribute };
}

function typeDefOf(n: Node, ctx: SchemaCtx): TypeDef {
  if (n.local === 'simpleType') return simpleOf(n, ctx);
  const particles: Particle[] = [];
  const own = attributesOf(n, ctx);
  const attributes = [...own.attributes];
  let anyAttribute = own.anyAttribute;
  let textType: WsdlTypeRef | undefined;
  let mixed = n.attrs.mixed?.trim() === 'true';
  const content = kid(n, XS_NS, 'complexContent') ?? kid(n, XS_NS, 'simpleContent');
  if (content) {
    if (content.attrs.mixed?.trim() === 'true') mixed = true;
    const der = kid(content, XS_NS, 'extension') ?? kid(content, XS_NS, 'restriction');
    if (der) {
      const base = qname(der, der.attrs.base);
      if (content.local === 'simpleContent') textType = base ? { named: base } : undefined;
      else if (der.local === 'extension' && base)
        particles.push({
          kind: 'element',
          name: { ns: '\u0000base', local: qkey(base) },
          min: 1,
          max: 1,
          nillable: false,
        });
      flatten(der, ctx, 1, 1, particles);
      const more = attributesOf(der, ctx);
      attributes.push(...more.attributes);
      anyAttribute ||= more.anyAttribute;
    }
  } else {
    flatten(n, ctx, 1, 1, particles);
  }
  return { kind: 'complex', particles, attributes, anyAttribute, mixed, ...(textType ? { textType } : {}) };
}

function simpleOf(n: Node, ctx: SchemaCtx): SimpleDef {
  const r = kid(n, XS_NS, 'restriction');
  if (r) {
    const enumerations: string[] = [];
    const facets: Record<string, string> = {};
    for (const f of r.children) {
      if (f.ns !== XS_NS || f.attrs.value === undefined) continue;
      if (f.local === 'enumeration') enumerations.push(f.attrs.value);
      else facets[f.local] = facets[f.local] === undefined ? f.attrs.value : `${facets[f.local]}|${f.attrs.value}`;
    }
    const base = qname(r, r.attrs.base);
    const inline = kid(r, XS_NS, 'simpleType');
    return {
      kind: 'simple',
      ...(base ? { base: { named: base } } : inline ? { base: { anon: simpleOf(inline, ctx) } } : {}),
      enumerations,
      facets,
    };
  }
  const l = kid(n, XS_NS, 'list');
  if (l) {
    const item = qname(l, l.attrs.itemType);
    const inline = kid(l, XS_NS, 'simpleType');
    return {
      kind: 'simple',
      enumerations: [],
      facets: {},
      list: item
        ? { named: item }
        : { anon: inline ? simpleOf(inline, ctx) : { kind: 'simple', enumerations: [], facets: {} } },
    };
  }
  const u = kid(n, XS_NS, 'union');
  if (u) {
    const members = (u.attrs.memberTypes ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((m) => ({ named: qname(u, m)! }) as WsdlTypeRef);
    return {
      kind: 'simple',
      enumerations: [],
      facets: {},
      union: [...members, ...kids(u, XS_NS, 'simpleType').map((s) => ({ anon: simpleOf(s, ctx) }) as WsdlTypeRef)],
    };
  }
  return { kind: 'simple', enumerations: [], facets: {} };
}

/**
 * Resolve the placeholders flatten() leaves: an element reference takes the global element's name,
 * type and nillable; an extension's base and a model group reference are replaced by their particles.
 */
function resolveParticles(
  def: TypeDef,
  elements: Map<string, ElementDecl>,
  types: Map<string, TypeDef>,
  groups: Map<string, Particle[]>,
  depth = 0,
): TypeDef {
  if (def.kind === 'simple' || depth > 32) return def;
  const out: Particle[] = [];
  const attributes = [...def.attributes];
  const bases: string[] = [];
  let anyAttribute = def.anyAttribute;
  for (const p of def.particles) {
    if (p.kind !== 'element') {
      out.push(p);
      continue;
    }
    if (p.type && 'named' in p.type && p.type.named.ns === '\u0000ref') {
      const target = elements.get(p.type.named.local);
      out.push({
        kind: 'element',
        name: target?.name ?? p.name,
        ...withType(target?.type),
        min: p.min,
        max: p.max,
        nillable: target?.nillable ?? false,
      });
    } else if (p.name.ns === '\u0000base') {
      const base = types.get(p.name.local);
      if (base?.kind === 'complex') {
        const b = resolveParticles(base, elements, types, groups, depth + 1) as ComplexDef;
        out.push(...b.particles);
        bases.push(p.name.local, ...(b.bases ?? []));
        attributes.unshift(...b.attributes);
        anyAttribute ||= b.anyAttribute;
      }
    } else if (p.name.ns === '\u0000group') {
      for (const g of groups.get(p.name.local) ?? []) out.push({ ...g, min: g.min * p.min, max: g.max * p.max });
    } else {
      out.push(
        p.type && 'anon' in p.type
          ? { ...p, type: { anon: resolveParticles(p.type.anon, elements, types, groups, depth + 1) } }
          : p,
      );
    }
  }
  return { ...def, particles: out, attributes, anyAttribute, ...(bases.length ? { bases } : {}) };
}

/** Read a WSDL 1.1 document. Throws XmlError when it is not XML or not a WSDL 1.1 definitions document. */
export function readWsdl(text: string): WsdlModel {
  if (hasDoctype(text))
    throw new XmlError('document type declaration (<!DOCTYPE) present: not read (entities are never expanded)');
  let raw: Raw[];
  try {
    raw = parser.parse(text) as Raw[];
  } catch (e) {
    throw new XmlError(`not well-formed XML: ${(e as Error).message}`);
  }
  const roots = raw
    .map((r) => build(r, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']])))
    .filter((n): n is Node => n !== undefined);
  const root = roots[0];
  if (!root || root.ns !== WSDL_NS || root.local !== 'definitions') {
    throw new XmlError(
      `not a WSDL 1.1 document: the root is ${root ? `{${root.ns}}${root.local}` : 'missing'}, not `
        + `{${WSDL_NS}}definitions`,
    );
  }
  const tns = root.attrs.targetNamespace ?? '';
  const q = (_n: Node, local: string | undefined): QName => ({ ns: tns, local: local ?? '' });

  const elements = new Map<string, ElementDecl>();
  const types = new Map<string, TypeDef>();
  const groups = new Map<string, Particle[]>();
  for (const t of kids(root, WSDL_NS, 'types')) {
    for (const s of kids(t, XS_NS, 'schema')) {
      const ctx: SchemaCtx = {
        tns: s.attrs.targetNamespace ?? '',
        qualified: s.attrs.elementFormDefault?.trim() === 'qualified',
        attrQualified: s.attrs.attributeFormDefault?.trim() === 'qualified',
      };
      for (const d of s.children) {
        if (d.ns !== XS_NS || d.attrs.name === undefined) continue;
        const name = { ns: ctx.tns, local: d.attrs.name };
        if (d.local === 'element')
          elements.set(qkey(name), {
            name,
            ...withType(typeRefOf(d, ctx)),
            nillable: d.attrs.nillable?.trim() === 'true',
          });
        else if (d.local === 'complexType' || d.local === 'simpleType') types.set(qkey(name), typeDefOf(d, ctx));
        else if (d.local === 'group') {
          const ps: Particle[] = [];
          flatten(d, ctx, 1, 1, ps);
          groups.set(qkey(name), ps);
        }
      }
    }
  }
  for (const [k, d] of types) types.set(k, resolveParticles(d, elements, types, groups));
  for (const [k, e] of elements)
    if (e.type && 'anon' in e.type)
      elements.set(k, { ...e, type: { anon: resolveParticles(e.type.anon, elements, types, groups) } });

  const messages = new Map<string, Part[]>();
  for (const m of kids(root, WSDL_NS, 'message')) {
    messages.set(
      qkey(q(m, m.attrs.name)),
      kids(m, WSDL_NS, 'part').map((p) => ({
        name: p.attrs.name ?? '',
        ...(p.attrs.element !== undefined ? { element: qname(p, p.attrs.element)! } : {}),
        ...(p.attrs.type !== undefined ? { type: qname(p, p.attrs.type)! } : {}),
      })),
    );
  }
  const portTypes = new Map<string, Map<string, { input?: QName; output?: QName }>>();
  for (const pt of kids(root, WSDL_NS, 'portType')) {
    const ops = new Map<string, { input?: QName; output?: QName }>();
    for (const o of kids(pt, WSDL_NS, 'operation')) {
      const i = kid(o, WSDL_NS, 'input');
      const out = kid(o, WSDL_NS, 'output');
      ops.set(o.attrs.name ?? '', {
        ...(i ? { input: qname(i, i.attrs.message)! } : {}),
        ...(out ? { output: qname(out, out.attrs.message)! } : {}),
      });
    }
    portTypes.set(qkey(q(pt, pt.attrs.name)), ops);
  }
  const bindings = new Map<string, WsdlBinding>();
  for (const b of kids(root, WSDL_NS, 'binding'))
    bindings.set(qkey(q(b, b.attrs.name)), bindingOf(b, q(b, b.attrs.name)));
  const services = kids(root, WSDL_NS, 'service').map((s) => ({
    name: s.attrs.name ?? '',
    ports: kids(s, WSDL_NS, 'port').map((p) => ({
      name: p.attrs.name ?? '',
      binding: qname(p, p.attrs.binding) ?? { ns: '', local: '' },
    })),
  }));
  return { targetNamespace: tns, services, bindings, portTypes, messages, elements, types };
}

function bindingOf(b: Node, name: QName): WsdlBinding {
  const soap11 = kid(b, WSDL_SOAP11_NS, 'binding');
  const soap12 = kid(b, WSDL_SOAP12_NS, 'binding');
  const http = kid(b, WSDL_HTTP_NS, 'binding');
  const ext = soap11 ? WSDL_SOAP11_NS : soap12 ? WSDL_SOAP12_NS : undefined;
  const verb = http?.attrs.verb?.trim().toUpperCase();
  const kind: BindingKind = soap11
    ? 'soap11'
    : soap12
      ? 'soap12'
      : verb === 'GET'
        ? 'get'
        : verb === 'POST'
          ? 'post'
          : 'other';
  const defaultStyle = (soap11 ?? soap12)?.attrs.style ?? 'document';
  const operations = new Map<string, BindingOperation>();
  for (const o of kids(b, WSDL_NS, 'operation')) {
    const input = kid(o, WSDL_NS, 'input');
    const output = kid(o, WSDL_NS, 'output');
    if (ext) {
      const so = kid(o, ext, 'operation');
      const use = (io: Node | undefined) => (io ? kid(io, ext, 'body')?.attrs.use : undefined);
      operations.set(o.attrs.name ?? '', {
        name: o.attrs.name ?? '',
        soapAction: so?.attrs.soapAction ?? '',
        style: so?.attrs.style ?? defaultStyle,
        ...opt('inputUse', use(input)),
        ...opt('outputUse', use(output)),
      });
    } else {
      const enc = (io: Node | undefined) => {
        const c = io?.children.find((x) => x.ns === WSDL_HTTP_NS || x.ns === WSDL_MIME_NS);
        return c
          ? c.local === 'content'
            ? `mime:content ${c.attrs.type ?? ''}`
            : c.ns === WSDL_MIME_NS
              ? `mime:${c.local}`
              : c.local
          : undefined;
      };
      operations.set(o.attrs.name ?? '', {
        name: o.attrs.name ?? '',
        ...opt('location', kid(o, WSDL_HTTP_NS, 'operation')?.attrs.location),
        ...opt('inputEncoding', enc(input)),
        ...opt('outputEncoding', enc(output)),
      });
    }
  }
  return {
    name,
    kind,
    ...(b.attrs.type !== undefined ? { portType: qname(b, b.attrs.type)! } : {}),
    ...opt('verb', verb),
    ...opt('transport', (soap11 ?? soap12)?.attrs.transport),
    operations,
  };
}

const opt = <K extends string>(k: K, v: string | undefined): Partial<Record<K, string>> =>
  v === undefined ? {} : ({ [k]: v } as Record<K, string>);
