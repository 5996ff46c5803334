/**
 * The differences found between two WSDL models, the contract's (`c`) and the target's (`t`): each
 * classified by its rule (./drift-rules.ts) and the way its values travel, one per rule and place
 * (a place reached by requests and by answers keeps the worse reading), in the names a reader knows
 * (the contract's namespace unprefixed, the target's read as the contract's). The comparisons
 * (./wsdl-compare-schema.ts, ./wsdl-compare.ts) extend it and add what they find.
 */
import {
  DRIFT_RULES,
  placeText,
  type Difference,
  type Direction,
  type DriftRule,
  type Rule,
  type Severity,
} from './drift-rules.js';
import { qkey, type QName, type WsdlModel, type WsdlTypeRef } from './wsdl-model.js';
import { XS_NS } from './xsd.js';
import type { DriftPlace } from '../core/types.js';

/** The differences of two models: the contract's (`c`) and the target's (`t`). */
export class DriftLedger {
  readonly #diffs = new Map<string, Difference>();
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
}
