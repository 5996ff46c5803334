/**
 * What a target's WSDL declares, compared with the contract's (src/schema/wsdl.ts), by meaning:
 * both are read into a WsdlModel (./wsdl-read.ts), and every difference a client written against
 * the contract could meet is listed with its place, what the contract has, what the target
 * declares, and whether it breaks such a client (the rules, each with its reason: DRIFT_RULES,
 * documented in docs/drift.md). Ports are matched by their kind of binding (SOAP 1.1, SOAP 1.2,
 * HTTP GET, HTTP POST), messages through the operations that use them, and schema components by
 * qualified name, the target's namespace read as the contract's (a changed namespace is one
 * difference, not one per name). Addresses are where a deployment is, not what it declares: not compared.
 */
import { readWsdl } from './wsdl-read.js';
import {
  qkey,
  type AttributeDecl,
  type BindingKind,
  type ComplexDef,
  type Particle,
  type QName,
  type SimpleDef,
  type TypeDef,
  type WsdlTypeRef,
  type WsdlModel,
} from './wsdl-model.js';
import { XS_NS } from './xsd.js';
import type { DriftDifference, DriftPlace } from '../core/types.js';

export type Severity = 'breaking' | 'compatible';
/** Which way a schema component's values travel: sent by the client, or read by it. */
export type Direction = 'request' | 'response';
/**
 * A direction, or 'both' for a named type no message reaches through declared content
 * (unreachedTypes): its values travel only in open content, either way, so each difference takes
 * the stricter of its rule's two readings.
 */
type Way = Direction | 'both';

interface Rule {
  readonly request: Severity;
  readonly response: Severity;
  readonly reason: string;
}
const both = (s: Severity, reason: string): Rule => ({ request: s, response: s, reason });

/** Every kind of difference, its classification per direction, and why (docs/drift.md lists them all). */
export const DRIFT_RULES = {
  target_namespace_changed: both(
    'breaking',
    'every element of every message is qualified by it: a client sends and looks for names the target no longer has',
  ),
  service_renamed: both(
    'compatible',
    'the service name is not on the wire: a client already generated keeps calling the same addresses',
  ),
  service_removed: both(
    'breaking',
    "none of the contract's ports is declared: every call of the client has nowhere to go",
  ),
  port_removed: both(
    'breaking',
    'the binding (SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST) is gone: a client using it has no endpoint',
  ),
  port_added: both('compatible', 'a binding more: no existing client uses it'),
  operation_removed: both('breaking', 'a client calling the operation gets a fault or a 404'),
  operation_added: both('compatible', 'an operation more: no existing client calls it'),
  soap_action_changed: both(
    'breaking',
    "ASMX dispatches SOAP 1.1 on the SOAPAction header (SOAP 1.2 on the action parameter): the client's "
      + 'action no longer routes',
  ),
  style_changed: both('breaking', 'document/rpc or literal/encoded changes how every message is laid out on the wire'),
  http_location_changed: both(
    'breaking',
    "HTTP GET/POST calls go to <service path><location>: the client's URL no longer exists",
  ),
  http_encoding_changed: both(
    'breaking',
    'the client encodes parameters (or reads the answer) in the form the contract gives',
  ),
  message_part_changed: both(
    'breaking',
    "the message carries another element (or parts): the client's body is not the one the target reads, "
      + 'or the answer not the one it parses',
  ),
  request_parameter_removed: {
    request: 'breaking',
    response: 'breaking',
    reason:
      'the client still sends it: an unknown element or parameter, rejected or silently dropped (a '
      + 'renamed parameter shows as removed and added)',
  },
  request_parameter_added_required: {
    request: 'breaking',
    response: 'breaking',
    reason: 'the client does not send it, and the target requires it',
  },
  request_parameter_added_optional: {
    request: 'compatible',
    response: 'compatible',
    reason: 'the client does not send it, and the target does not need it',
  },
  response_element_removed_required: {
    request: 'breaking',
    response: 'breaking',
    reason: 'the client reads an element the contract promises in every answer',
  },
  response_element_removed_optional: {
    request: 'compatible',
    response: 'compatible',
    reason: 'the contract already let answers leave it out: a client must cope with its absence',
  },
  response_element_added: {
    request: 'compatible',
    response: 'compatible',
    reason: 'a client reading answers skips elements it does not know (XmlSerializer and generated clients do)',
  },
  open_content_declared: both(
    'compatible',
    'the contract leaves this place open (not shown: xs:any, xs:anyType): the target declaring what it '
      + 'holds tells more, and changes nothing on the wire',
  ),
  became_required: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client may leave it out; response: the client already copes with it present',
  },
  became_optional: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: the client relies on it in every answer; request: the client sends it anyway',
  },
  became_nillable: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: the client gets xsi:nil where the contract promised a value',
  },
  no_longer_nillable: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client sending xsi:nil is refused',
  },
  max_occurs_raised: {
    request: 'compatible',
    response: 'breaking',
    reason: 'response: a client holding one value meets several',
  },
  max_occurs_lowered: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: a client sending several is refused',
  },
  type_changed: both(
    'breaking',
    'a type narrowed or changed: values the client sends may be refused, values it reads may not parse',
  ),
  enum_value_removed: {
    request: 'breaking',
    response: 'compatible',
    reason:
      'request: a client sending that value is refused; response: the client knows one value more than it will see',
  },
  enum_value_added: {
    request: 'compatible',
    response: 'breaking',
    reason:
      'response: a client mapping values to an enumeration meets one it does not know; request: nobody sends it yet',
  },
  element_order_changed: both(
    'breaking',
    'a sequence is ordered: clients that read or write in the declared order (JAXB, zeep, XmlSerializer '
      + 'with Order) fail',
  ),
  open_content_closed: {
    request: 'breaking',
    response: 'compatible',
    reason: 'request: the contract let clients send more there; response: the target promises less than allowed',
  },
  content_opened: both(
    'compatible',
    'the target may send more where the contract declared a closed list: clients skip unknown elements',
  ),
} as const satisfies Record<string, Rule>;

export type DriftRule = keyof typeof DRIFT_RULES;

export type { DriftPlace };

/** A difference, its rule one of DRIFT_RULES. */
export type Difference = DriftDifference & { readonly rule: DriftRule };

/**
 * The place of a difference in words: "service Booking, binding soap12, operation CancelBooking", "type Hotel:
 * Hotel/rooms/@id".
 */
export function placeText(p: DriftPlace): string {
  const head = [
    p.service && `service ${p.service}`,
    p.binding && `binding ${p.binding}`,
    p.operation && `operation ${p.operation}`,
    p.message && `${p.message} message`,
    p.part && `part ${p.part}`,
    p.element && `element ${p.element}`,
    p.type && `type ${p.type}`,
  ]
    .filter(Boolean)
    .join(', ');
  return p.path ? `${head}${head ? ': ' : ''}${p.path}` : head;
}

const isAnyType = (r: WsdlTypeRef | undefined) =>
  r === undefined || ('named' in r && r.named.ns === XS_NS && r.named.local === 'anyType');

/** The comparison of two models: the contract's (`c`) and the target's (`t`). */
class Comparer {
  readonly #diffs = new Map<string, Difference>();
  readonly #seen = new Set<string>();
  constructor(
    readonly c: WsdlModel,
    readonly t: WsdlModel,
  ) {}

  /** A QName's key, the target's namespace read as the contract's. */
  key(q: QName, side: 'c' | 't'): string {
    return side === 't' && q.ns === this.t.targetNamespace
      ? qkey({ ns: this.c.targetNamespace, local: q.local })
      : qkey(q);
  }

  show(q: QName | undefined, side: 'c' | 't'): string {
    if (q === undefined) return '(none)';
    if (q.ns === XS_NS) return `xs:${q.local}`;
    return q.ns === (side === 'c' ? this.c : this.t).targetNamespace ? q.local : `{${q.ns}}${q.local}`;
  }

  showRef(r: WsdlTypeRef | undefined, side: 'c' | 't'): string {
    if (r === undefined) return 'xs:anyType';
    if ('named' in r) return this.show(r.named, side);
    const d = r.anon;
    if (d.kind === 'complex') return 'an anonymous complex type';
    return d.enumerations.length ? `a restriction to {${d.enumerations.join(', ')}}` : 'an anonymous simple type';
  }

  add(
    rule: DriftRule,
    dir: Direction | 'both' | undefined,
    place: DriftPlace,
    contract: string | undefined,
    target: string | undefined,
    message: string,
  ): void {
    const r: Rule = DRIFT_RULES[rule];
    const severity =
      dir === 'request'
        ? r.request
        : dir === 'response'
          ? r.response
          : r.request === 'breaking' || r.response === 'breaking'
            ? 'breaking'
            : 'compatible';
    const where = placeText(place);
    const k = `${rule}\u0000${where}`;
    const before = this.#diffs.get(k);
    if (before) {
      // One place reached by requests and by answers: the worse reading stands.
      const merged: Severity = before.severity === 'breaking' || severity === 'breaking' ? 'breaking' : 'compatible';
      this.#diffs.set(k, {
        ...before,
        severity: merged,
        ...(before.direction !== dir && dir !== undefined ? { direction: 'both' } : {}),
      });
      return;
    }
    this.#diffs.set(k, {
      rule,
      severity,
      ...(dir ? { direction: dir } : {}),
      place,
      where,
      ...(contract !== undefined ? { contract } : {}),
      ...(target !== undefined ? { target } : {}),
      message,
    });
  }

  differences(): Difference[] {
    const order = (d: Difference) => (d.severity === 'breaking' ? 0 : 1);
    return [...this.#diffs.values()].sort(
      (a, b) => order(a) - order(b) || a.where.localeCompare(b.where) || a.rule.localeCompare(b.rule),
    );
  }

  run(): void {
    const { c, t } = this;
    if (c.targetNamespace !== t.targetNamespace) {
      this.add(
        'target_namespace_changed',
        undefined,
        {},
        c.targetNamespace,
        t.targetNamespace,
        `the target namespace is ${t.targetNamespace}, not ${c.targetNamespace}`,
      );
    }
    for (const cs of c.services) {
      let ts = t.services.find((s) => s.name === cs.name);
      if (!ts && c.services.length === 1 && t.services.length === 1) {
        ts = t.services[0]!;
        this.add(
          'service_renamed',
          undefined,
          { service: cs.name },
          cs.name,
          ts.name,
          `the service is named ${ts.name}, not ${cs.name}`,
        );
      }
      if (!ts) {
        this.add(
          'service_removed',
          undefined,
          { service: cs.name },
          cs.name,
          undefined,
          `the service ${cs.name} is not declared`,
        );
        continue;
      }
      const kinds = (m: WsdlModel, ports: typeof cs.ports) => {
        const out = new Map<BindingKind, { port: string; binding: QName }>();
        for (const p of ports) {
          const b = m.bindings.get(qkey(p.binding));
          if (b && !out.has(b.kind)) out.set(b.kind, { port: p.name, binding: p.binding });
        }
        return out;
      };
      const ck = kinds(c, cs.ports);
      const tk = kinds(t, ts.ports);
      for (const [kind, cp] of ck) {
        const tp = tk.get(kind);
        if (!tp) {
          this.add(
            'port_removed',
            undefined,
            { service: cs.name, binding: kind },
            cp.port,
            undefined,
            `no ${kind} port: the ${kind} binding is not declared`,
          );
          continue;
        }
        this.binding(cs.name, kind, cp.binding, tp.binding);
      }
      for (const [kind, tp] of tk) {
        if (!ck.has(kind))
          this.add(
            'port_added',
            undefined,
            { service: cs.name, binding: kind },
            undefined,
            tp.port,
            `a ${kind} port more`,
          );
      }
    }
    this.unreachedTypes();
  }

  /**
   * The contract's named types no message reached through declared content, compared by name with
   * the target's of that name (issue 41): the contract documents values a client meets only in open
   * content (TransferRate: NonStaticTransfer leaves its content open, so no element declares
   * `rates`), and a client reading them by the contract's definition breaks when the target defines
   * them otherwise (the real service's TransferRate has element content, not a decimal text with a
   * currency attribute). Which way they travel no declaration says: 'both', the stricter reading.
   * A type the target does not declare at all is not listed: nothing of the target's says it is gone.
   */
  unreachedTypes(): void {
    const own = `{${this.c.targetNamespace}}`;
    const reached = new Set(
      [...this.c.types.keys()].filter((k) =>
        (['request', 'response'] as const).some((d) => this.#seen.has(`t\u0000${k}\u0000${d}`)),
      ),
    );
    const basesOf = (k: string) => {
      const d = this.c.types.get(k);
      return d?.kind === 'complex' ? (d.bases ?? []) : [];
    };
    // A base is compared within each type that extends it (its content is theirs): reached with them.
    for (const k of [...reached]) for (const b of basesOf(k)) reached.add(b);
    const unreached = [...this.c.types.keys()].filter((k) => k.startsWith(own) && !reached.has(k));
    // Among those, the most derived stands for its bases (NonStaticTransfer within Transfer within StaticTransfer).
    const based = new Set(unreached.flatMap(basesOf));
    for (const k of unreached) {
      // Skipped too: one an earlier unreached type reached (its differences are listed there).
      if (based.has(k) || this.#seen.has(`t\u0000${k}\u0000both`)) continue;
      const cd = this.c.types.get(k)!;
      const local = k.slice(own.length);
      const td = this.t.types.get(qkey({ ns: this.t.targetNamespace, local }));
      if (!td) continue;
      this.#seen.add(`t\u0000${k}\u0000both`);
      this.def(cd, td, 'both', { type: local }, local);
    }
  }

  binding(service: string, kind: BindingKind, cName: QName, tName: QName): void {
    const cb = this.c.bindings.get(qkey(cName))!;
    const tb = this.t.bindings.get(qkey(tName))!;
    for (const [name, co] of cb.operations) {
      const place = { service, binding: kind, operation: name };
      const to = tb.operations.get(name);
      if (!to) {
        this.add(
          'operation_removed',
          undefined,
          place,
          name,
          undefined,
          `the operation ${name} is not in the ${kind} binding`,
        );
        continue;
      }
      if (
        (co.soapAction ?? '') !== (to.soapAction ?? '')
        && !this.sameAction(co.soapAction ?? '', to.soapAction ?? '')
      ) {
        this.add(
          'soap_action_changed',
          undefined,
          place,
          co.soapAction,
          to.soapAction,
          `SOAPAction "${to.soapAction}", not "${co.soapAction}"`,
        );
      }
      for (const [field, what] of [
        ['style', 'style'],
        ['inputUse', 'input body use'],
        ['outputUse', 'output body use'],
      ] as const) {
        if (co[field] !== to[field] && co[field] !== undefined)
          this.add(
            'style_changed',
            undefined,
            place,
            co[field],
            to[field],
            `${what} ${to[field] ?? '(none)'}, not ${co[field]}`,
          );
      }
      if (co.location !== to.location)
        this.add(
          'http_location_changed',
          undefined,
          place,
          co.location,
          to.location,
          `location ${to.location ?? '(none)'}, not ${co.location ?? '(none)'}`,
        );
      for (const [field, what] of [
        ['inputEncoding', 'input'],
        ['outputEncoding', 'output'],
      ] as const) {
        if (co[field] !== to[field])
          this.add(
            'http_encoding_changed',
            undefined,
            place,
            co[field],
            to[field],
            `${what} as ${to[field] ?? '(none)'}, not ${co[field] ?? '(none)'}`,
          );
      }
      const cm = this.c.portTypes.get(qkey(cb.portType ?? { ns: '', local: '' }))?.get(name);
      const tm = this.t.portTypes.get(qkey(tb.portType ?? { ns: '', local: '' }))?.get(name);
      // An HTTP binding's (GET, POST: it has a verb) input parts are its parameters, one each.
      this.message(place, 'input', cm?.input, tm?.input, cb.verb !== undefined);
      this.message(place, 'output', cm?.output, tm?.output, false);
    }
    for (const name of tb.operations.keys()) {
      if (!cb.operations.has(name))
        this.add(
          'operation_added',
          undefined,
          { service, binding: kind, operation: name },
          undefined,
          name,
          `an operation more: ${name}`,
        );
    }
  }

  /** Two SOAPActions that differ only by the namespace they start with (a changed namespace is said once). */
  sameAction(ca: string, ta: string): boolean {
    const { c, t } = this;
    return (
      c.targetNamespace !== ''
      && ca.startsWith(c.targetNamespace)
      && ta.startsWith(t.targetNamespace)
      && ca.slice(c.targetNamespace.length) === ta.slice(t.targetNamespace.length)
    );
  }

  message(
    place: DriftPlace,
    io: 'input' | 'output',
    cq: QName | undefined,
    tq: QName | undefined,
    parameters: boolean,
  ): void {
    const dir: Direction = io === 'input' ? 'request' : 'response';
    const cParts = cq ? (this.c.messages.get(qkey(cq)) ?? []) : [];
    const tParts = tq ? (this.t.messages.get(qkey(tq)) ?? []) : [];
    const at = { ...place, message: io };
    if (parameters) {
      // HTTP GET/POST: one part per parameter; none is optional on the wire.
      for (const cp of cParts) {
        const tp = tParts.find((p) => p.name === cp.name);
        if (!tp)
          this.add(
            'request_parameter_removed',
            dir,
            { ...at, part: cp.name },
            cp.name,
            undefined,
            `the parameter ${cp.name} is not declared`,
          );
        else if (this.partShape(cp, 'c') !== this.partShape(tp, 't'))
          this.add(
            'type_changed',
            dir,
            { ...at, part: cp.name },
            this.partText(cp, 'c'),
            this.partText(tp, 't'),
            `the parameter ${cp.name} is ${this.partText(tp, 't')}, not ${this.partText(cp, 'c')}`,
          );
      }
      for (const tp of tParts) {
        if (!cParts.some((p) => p.name === tp.name))
          this.add(
            'request_parameter_added_required',
            dir,
            { ...at, part: tp.name },
            undefined,
            tp.name,
            `a parameter more: ${tp.name} (HTTP parameters are all required)`,
          );
      }
      return;
    }
    // SOAP document/literal (and HTTP answers): parts matched by name, or the one part with the one part.
    for (const cp of cParts) {
      const tp =
        tParts.find((p) => p.name === cp.name) ?? (cParts.length === 1 && tParts.length === 1 ? tParts[0] : undefined);
      if (!tp) {
        this.add(
          'message_part_changed',
          dir,
          { ...at, part: cp.name },
          this.partText(cp, 'c'),
          undefined,
          `the part ${cp.name} is not in the message`,
        );
        continue;
      }
      if (this.partShape(cp, 'c') !== this.partShape(tp, 't')) {
        this.add(
          'message_part_changed',
          dir,
          { ...at, part: cp.name },
          this.partText(cp, 'c'),
          this.partText(tp, 't'),
          `the part ${cp.name} is ${this.partText(tp, 't')}, not ${this.partText(cp, 'c')}`,
        );
        continue;
      }
      if (cp.element && tp.element) this.globalElement(cp.element, tp.element, dir);
      else if (cp.type && tp.type)
        this.typeRef({ named: cp.type }, { named: tp.type }, dir, { ...at, part: cp.name }, cp.name);
    }
    for (const tp of tParts) {
      if (!cParts.some((p) => p.name === tp.name) && !(cParts.length === 1 && tParts.length === 1)) {
        this.add(
          'message_part_changed',
          dir,
          { ...at, part: tp.name },
          undefined,
          this.partText(tp, 't'),
          `a part more: ${tp.name}`,
        );
      }
    }
  }

  partShape(p: { element?: QName; type?: QName }, side: 'c' | 't'): string {
    return p.element ? `element ${this.key(p.element, side)}` : p.type ? `type ${this.key(p.type, side)}` : 'none';
  }

  partText(p: { element?: QName; type?: QName }, side: 'c' | 't'): string {
    return p.element ? `element ${this.show(p.element, side)}` : p.type ? `type ${this.show(p.type, side)}` : 'nothing';
  }

  globalElement(cq: QName, tq: QName, dir: Way): void {
    const seen = `e\u0000${qkey(cq)}\u0000${dir}`;
    if (this.#seen.has(seen)) return;
    this.#seen.add(seen);
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
      if (this.#seen.has(seen)) return;
      this.#seen.add(seen);
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

/** The differences of a target's WSDL from the contract's, breaking first. Both are WSDL texts or models. */
export function compareWsdl(contract: string | WsdlModel, target: string | WsdlModel): Difference[] {
  const cm = typeof contract === 'string' ? readWsdl(contract) : contract;
  const tm = typeof target === 'string' ? readWsdl(target) : target;
  const cmp = new Comparer(cm, tm);
  cmp.run();
  return cmp.differences();
}

/** How many differences of each kind. */
export function driftCounts(diffs: readonly Difference[]): { breaking: number; compatible: number } {
  const breaking = diffs.filter((d) => d.severity === 'breaking').length;
  return { breaking, compatible: diffs.length - breaking };
}
