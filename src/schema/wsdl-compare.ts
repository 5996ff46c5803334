/**
 * What a target's WSDL declares, compared with the contract's (src/schema/wsdl.ts), by meaning:
 * both are read into a WsdlModel (./wsdl-read.ts), and every difference a client written against
 * the contract could meet is listed with its place, what the contract has, what the target
 * declares, and whether it breaks such a client (the rules, each with its reason: DRIFT_RULES,
 * documented in docs/drift.md). Ports are matched by their kind of binding (SOAP 1.1, SOAP 1.2,
 * HTTP GET, HTTP POST), messages through the operations that use them, and schema components by
 * qualified name, the target's namespace read as the contract's (a changed namespace is one
 * difference, not one per name). Addresses are where a deployment is, not what it declares: not compared.
 *
 * The parts: the rules, ./drift-rules.ts; the differences recorded, ./drift-ledger.ts; the schema
 * components compared, ./wsdl-compare-schema.ts; here the services, ports, bindings and messages,
 * and the named types no message reached.
 */
import type { Difference, Direction } from './drift-rules.js';
import { SchemaComparer } from './wsdl-compare-schema.js';
import { readWsdl } from './wsdl-read.js';
import { qkey, type BindingKind, type QName, type WsdlModel } from './wsdl-model.js';
import type { DriftPlace } from '../core/types.js';

/** The comparison of two models: the contract's (`c`) and the target's (`t`). */
class Comparer extends SchemaComparer {
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
        (['request', 'response'] as const).some((d) => this.seen.has(`t\u0000${k}\u0000${d}`)),
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
      if (based.has(k) || this.seen.has(`t\u0000${k}\u0000both`)) continue;
      const cd = this.c.types.get(k)!;
      const local = k.slice(own.length);
      const td = this.t.types.get(qkey({ ns: this.t.targetNamespace, local }));
      if (!td) continue;
      this.seen.add(`t\u0000${k}\u0000both`);
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
