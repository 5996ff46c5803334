/**
 * The schema components of two WSDLs compared by meaning: global elements, named and anonymous
 * types, simple types (bases, enumerations, facets, lists, unions), complex content (elements,
 * occurrences, nillable, order, open content, mixed, simple content) and attributes, each
 * difference classified by the way its values travel (./drift-rules.ts). Named types are matched
 * by qualified name, the target's namespace read as the contract's; each is compared once per way.
 * ./wsdl-compare.ts reaches them through the messages, and then the named types no message reached.
 */
import { DriftLedger } from './drift-ledger.js';
import type { Way } from './drift-rules.js';
import {
  qkey,
  type AttributeDecl,
  type ComplexDef,
  type Particle,
  type QName,
  type SimpleDef,
  type TypeDef,
  type WsdlTypeRef,
} from './wsdl-model.js';
import { XS_NS } from './xsd.js';
import type { DriftPlace } from '../core/types.js';

const isAnyType = (r: WsdlTypeRef | undefined) =>
  r === undefined || ('named' in r && r.named.ns === XS_NS && r.named.local === 'anyType');

/** The schema components of the contract's model (`c`) compared with the target's (`t`). */
export class SchemaComparer extends DriftLedger {
  /** What was compared already, per way: `e` global elements and `t` named types (./wsdl-compare.ts reads it too). */
  protected readonly seen = new Set<string>();

  globalElement(cq: QName, tq: QName, dir: Way): void {
    const seen = `e\u0000${qkey(cq)}\u0000${dir}`;
    if (this.seen.has(seen)) return;
    this.seen.add(seen);
    const ce = this.c.elements.get(qkey(cq));
    const te = this.t.elements.get(qkey(tq));
    const place: DriftPlace = { element: cq.local };
    if (!ce || !te) {
      if (ce && !te)
        this.add(
          'type_changed',
          dir,
          place,
          'declared',
          undefined,
          `the element ${this.show(tq, 't')} of the message is not declared in the schema`,
        );
      return;
    }
    this.nillable(ce.nillable, te.nillable, dir, place);
    this.typeRef(ce.type, te.type, dir, place, cq.local);
  }

  nillable(c: boolean, t: boolean, dir: Way, place: DriftPlace): void {
    if (c === t) return;
    this.add(
      t ? 'became_nillable' : 'no_longer_nillable',
      dir,
      place,
      `nillable=${c}`,
      `nillable=${t}`,
      t ? 'may now be nil' : 'may no longer be nil',
    );
  }

  typeRef(cr: WsdlTypeRef | undefined, tr: WsdlTypeRef | undefined, dir: Way, place: DriftPlace, path: string): void {
    if (isAnyType(cr)) {
      if (!isAnyType(tr))
        this.add(
          'open_content_declared',
          dir,
          { ...place, path },
          'xs:anyType',
          this.showRef(tr, 't'),
          `declared as ${this.showRef(tr, 't')} where the contract leaves the content open`,
        );
      return;
    }
    if (isAnyType(tr)) {
      this.add(
        'type_changed',
        dir,
        { ...place, path },
        this.showRef(cr, 'c'),
        'xs:anyType',
        `of any type, not ${this.showRef(cr, 'c')}`,
      );
      return;
    }
    if ('named' in cr! && 'named' in tr!) {
      const ck = this.key(cr.named, 'c');
      if (ck !== this.key(tr.named, 't')) {
        this.add(
          'type_changed',
          dir,
          { ...place, path },
          this.show(cr.named, 'c'),
          this.show(tr.named, 't'),
          `of type ${this.show(tr.named, 't')}, not ${this.show(cr.named, 'c')}`,
        );
        return;
      }
      if (cr.named.ns === XS_NS) return;
      const seen = `t\u0000${ck}\u0000${dir}`;
      if (this.seen.has(seen)) return;
      this.seen.add(seen);
      const cd = this.c.types.get(qkey(cr.named));
      const td = this.t.types.get(qkey(tr.named));
      if (cd && td) this.def(cd, td, dir, { type: cr.named.local }, cr.named.local);
      else if (cd && !td)
        this.add(
          'type_changed',
          dir,
          { type: cr.named.local },
          'declared',
          undefined,
          `the type ${this.show(tr.named, 't')} is not declared in the schema`,
        );
      return;
    }
    const cd = this.defOf(cr!, 'c');
    const td = this.defOf(tr!, 't');
    if (!cd || !td) {
      this.add(
        'type_changed',
        dir,
        { ...place, path },
        this.showRef(cr, 'c'),
        this.showRef(tr, 't'),
        `of ${this.showRef(tr, 't')}, not ${this.showRef(cr, 'c')}`,
      );
      return;
    }
    this.def(cd, td, dir, place, path);
  }

  defOf(r: WsdlTypeRef, side: 'c' | 't'): TypeDef | undefined {
    if ('anon' in r) return r.anon;
    if (r.named.ns === XS_NS) return { kind: 'simple', base: r, enumerations: [], facets: {} };
    return (side === 'c' ? this.c : this.t).types.get(qkey(r.named));
  }

  def(c: TypeDef, t: TypeDef, dir: Way, place: DriftPlace, path: string): void {
    if (c.kind !== t.kind) {
      this.add(
        'type_changed',
        dir,
        { ...place, path },
        `a ${c.kind} type`,
        `a ${t.kind} type`,
        `a ${t.kind} type, not a ${c.kind} one`,
      );
      return;
    }
    if (c.kind === 'simple') this.simple(c, t as SimpleDef, dir, place, path);
    else this.complex(c, t as ComplexDef, dir, place, path);
  }

  simple(c: SimpleDef, t: SimpleDef, dir: Way, place: DriftPlace, path: string): void {
    const at = { ...place, path };
    if (c.base || t.base) {
      if (!c.base || !t.base)
        this.add(
          'type_changed',
          dir,
          at,
          this.showRef(c.base, 'c'),
          this.showRef(t.base, 't'),
          `derived from ${this.showRef(t.base, 't')}, not ${this.showRef(c.base, 'c')}`,
        );
      else this.typeRef(c.base, t.base, dir, place, path);
    }
    const ce = new Set(c.enumerations);
    const te = new Set(t.enumerations);
    if (ce.size > 0 && te.size > 0) {
      for (const v of ce)
        if (!te.has(v))
          this.add(
            'enum_value_removed',
            dir,
            { ...at, path: `${path}="${v}"` },
            v,
            undefined,
            `the value "${v}" is no longer allowed`,
          );
      for (const v of te)
        if (!ce.has(v))
          this.add('enum_value_added', dir, { ...at, path: `${path}="${v}"` }, undefined, v, `a value more: "${v}"`);
    } else if (ce.size > 0 || te.size > 0) {
      // An open value set closed to a list is values removed; a list opened, values added.
      this.add(
        te.size > 0 ? 'enum_value_removed' : 'enum_value_added',
        dir,
        at,
        ce.size ? [...ce].join(', ') : 'any value',
        te.size ? [...te].join(', ') : 'any value',
        te.size > 0 ? `restricted to ${[...te].join(', ')}` : 'no longer restricted to a list of values',
      );
    }
    for (const f of new Set([...Object.keys(c.facets), ...Object.keys(t.facets)])) {
      if (c.facets[f] !== t.facets[f])
        this.add(
          'type_changed',
          dir,
          at,
          `${f}=${c.facets[f] ?? '(none)'}`,
          `${f}=${t.facets[f] ?? '(none)'}`,
          `facet ${f} ${t.facets[f] ?? '(none)'}, not ${c.facets[f] ?? '(none)'}`,
        );
    }
    if (c.list || t.list) {
      if (!c.list || !t.list)
        this.add(
          'type_changed',
          dir,
          at,
          c.list ? 'a list' : 'not a list',
          t.list ? 'a list' : 'not a list',
          t.list ? 'a list, not a single value' : 'a single value, not a list',
        );
      else this.typeRef(c.list, t.list, dir, place, `${path}[item]`);
    }
    if ((c.union?.length ?? 0) !== (t.union?.length ?? 0))
      this.add(
        'type_changed',
        dir,
        at,
        `union of ${c.union?.length ?? 0}`,
        `union of ${t.union?.length ?? 0}`,
        'another union',
      );
  }

  complex(c: ComplexDef, t: ComplexDef, dir: Way, place: DriftPlace, path: string): void {
    const named = (ps: readonly Particle[], side: 'c' | 't') => {
      const out = new Map<string, Extract<Particle, { kind: 'element' }>>();
      for (const p of ps) {
        if (p.kind !== 'element') continue;
        let k = this.key(p.name, side);
        for (let n = 2; out.has(k); n++) k = `${this.key(p.name, side)}#${n}`;
        out.set(k, p);
      }
      return out;
    };
    const ce = named(c.particles, 'c');
    const te = named(t.particles, 't');
    const cOpen = c.particles.some((p) => p.kind === 'any');
    const tOpen = t.particles.some((p) => p.kind === 'any');
    const sub = (local: string) => `${path}/${local}`;
    for (const [k, cp] of ce) {
      const tp = te.get(k);
      const at = { ...place, path: sub(cp.name.local) };
      if (!tp) {
        if (dir === 'request')
          this.add('request_parameter_removed', dir, at, cp.name.local, undefined, `${cp.name.local} is not declared`);
        else
          this.add(
            cp.min >= 1 ? 'response_element_removed_required' : 'response_element_removed_optional',
            dir,
            at,
            cp.name.local,
            undefined,
            `${cp.name.local} is not declared`,
          );
        continue;
      }
      if (cp.min !== tp.min && (cp.min === 0 || tp.min === 0)) {
        this.add(
          tp.min === 0 ? 'became_optional' : 'became_required',
          dir,
          at,
          `minOccurs=${cp.min}`,
          `minOccurs=${tp.min}`,
          tp.min === 0 ? 'optional now' : 'required now',
        );
      }
      if (cp.max !== tp.max) {
        const txt = (n: number) => `maxOccurs=${n === Infinity ? 'unbounded' : n}`;
        this.add(
          tp.max > cp.max ? 'max_occurs_raised' : 'max_occurs_lowered',
          dir,
          at,
          txt(cp.max),
          txt(tp.max),
          `${txt(tp.max)}, not ${txt(cp.max)}`,
        );
      }
      this.nillable(cp.nillable, tp.nillable, dir, at);
      this.typeRef(cp.type, tp.type, dir, place, sub(cp.name.local));
    }
    for (const [k, tp] of te) {
      if (ce.has(k)) continue;
      const at = { ...place, path: sub(tp.name.local) };
      if (dir === 'request' && tp.min >= 1)
        this.add(
          'request_parameter_added_required',
          dir,
          at,
          undefined,
          tp.name.local,
          `${tp.name.local} is new and required`,
        );
      else if (cOpen)
        this.add(
          'open_content_declared',
          dir,
          at,
          'open content (xs:any)',
          tp.name.local,
          `${tp.name.local} declared where the contract leaves the content open`,
        );
      else if (dir === 'request')
        this.add(
          'request_parameter_added_optional',
          dir,
          at,
          undefined,
          tp.name.local,
          `${tp.name.local} is new and optional`,
        );
      else
        this.add(
          'response_element_added',
          dir,
          at,
          undefined,
          tp.name.local,
          `${tp.name.local} is new${tp.min === 0 ? ' and optional' : ''}`,
        );
    }
    const common = (m: Map<string, unknown>, other: Map<string, unknown>) => [...m.keys()].filter((k) => other.has(k));
    const co = common(ce, te);
    const to = common(te, ce);
    if (co.join('\u0000') !== to.join('\u0000')) {
      const names = (ks: string[], m: Map<string, Extract<Particle, { kind: 'element' }>>) =>
        ks.map((k) => m.get(k)!.name.local).join(', ');
      this.add(
        'element_order_changed',
        dir,
        { ...place, path },
        names(co, ce),
        names(to, te),
        `the elements are in another order: ${names(to, te)}`,
      );
    }
    if (cOpen && !tOpen)
      this.add(
        'open_content_closed',
        dir,
        { ...place, path },
        'open content (xs:any)',
        'closed',
        'the content is no longer open',
      );
    if (!cOpen && tOpen)
      this.add(
        'content_opened',
        dir,
        { ...place, path },
        'closed',
        'open content (xs:any)',
        'the content is open now (xs:any)',
      );
    if (c.mixed !== t.mixed)
      this.add(
        'type_changed',
        dir,
        { ...place, path },
        `mixed=${c.mixed}`,
        `mixed=${t.mixed}`,
        t.mixed ? 'mixed content now' : 'no longer mixed content',
      );
    if (c.textType || t.textType) this.typeRef(c.textType, t.textType, dir, place, `${path}/text()`);
    this.attributes(c.attributes, t.attributes, dir, place, path, c.anyAttribute);
  }

  attributes(
    c: readonly AttributeDecl[],
    t: readonly AttributeDecl[],
    dir: Way,
    place: DriftPlace,
    path: string,
    cOpen: boolean,
  ): void {
    for (const ca of c) {
      const ta = t.find((a) => this.key(a.name, 't') === this.key(ca.name, 'c'));
      const at = { ...place, path: `${path}/@${ca.name.local}` };
      if (!ta) {
        if (dir === 'request')
          this.add(
            'request_parameter_removed',
            dir,
            at,
            `@${ca.name.local}`,
            undefined,
            `the attribute ${ca.name.local} is not declared`,
          );
        else
          this.add(
            ca.required ? 'response_element_removed_required' : 'response_element_removed_optional',
            dir,
            at,
            `@${ca.name.local}`,
            undefined,
            `the attribute ${ca.name.local} is not declared`,
          );
        continue;
      }
      if (ca.required !== ta.required)
        this.add(
          ta.required ? 'became_required' : 'became_optional',
          dir,
          at,
          ca.required ? 'required' : 'optional',
          ta.required ? 'required' : 'optional',
          ta.required ? 'required now' : 'optional now',
        );
      this.typeRef(
        ca.type ?? { named: { ns: XS_NS, local: 'anySimpleType' } },
        ta.type ?? { named: { ns: XS_NS, local: 'anySimpleType' } },
        dir,
        place,
        `${path}/@${ca.name.local}`,
      );
    }
    for (const ta of t) {
      if (c.some((a) => this.key(a.name, 'c') === this.key(ta.name, 't'))) continue;
      const at = { ...place, path: `${path}/@${ta.name.local}` };
      if (dir === 'request' && ta.required)
        this.add(
          'request_parameter_added_required',
          dir,
          at,
          undefined,
          `@${ta.name.local}`,
          `the attribute ${ta.name.local} is new and required`,
        );
      else if (cOpen)
        this.add(
          'open_content_declared',
          dir,
          at,
          'any attribute (xs:anyAttribute)',
          `@${ta.name.local}`,
          `the attribute ${ta.name.local} declared where the contract leaves attributes open`,
        );
      else if (dir === 'request')
        this.add(
          'request_parameter_added_optional',
          dir,
          at,
          undefined,
          `@${ta.name.local}`,
          `the attribute ${ta.name.local} is new and optional`,
        );
      else
        this.add(
          'response_element_added',
          dir,
          at,
          undefined,
          `@${ta.name.local}`,
          `the attribute ${ta.name.local} is new`,
        );
    }
  }
}
