/**
 * credentials_rejected: a call with a wrong password gets no data (section 5; section 7). Accepted:
 * any HTTP 4xx/5xx answer or SOAP fault, whatever its format (the contract does not show it, 7.5
 * and 7.6), and for results extending BaseResult (7.1) a result carrying an Error element and no
 * data. Not accepted: a result with data, or, where the result type has no Error element, any result.
 */
import { effective } from '../contract/model.js';
import type { Finding } from '../core/types.js';
import { isNil, type XElement } from '../xml/tree.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { findFault } from './soap-fault.js';
import { extendsType, step } from './support.js';

/** The first element of that local name in document order (any namespace), with its path. */
function findByLocal(root: XElement, local: string): { el: XElement; path: string } | undefined {
  const walk = (el: XElement, path: string): { el: XElement; path: string } | undefined => {
    if (el.local === local) return { el, path };
    for (const c of el.children) {
      const hit = walk(c, `${path}/${step(el, c)}`);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(root, `/${root.local}`);
}

const EXPECTED = 'no data: an HTTP 4xx/5xx error, a SOAP fault, or (BaseResult results) an Error element';

export const credentialsRejected: Check = {
  name: 'credentials_rejected',
  description: 'A call with a wrong password is answered without data: an error status, a SOAP fault, or a BaseResult result with Error and no data.',
  appliesTo: (ctx) => ctx.caseKind === 'wrong-credentials',
  run(ctx): CheckOutcome {
    const r = ctx.response;
    if (!r) return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): nothing to judge` };
    if (r.status >= 400) return [];
    const root = ctx.xml().parsed?.root;
    if (!root || findFault(root)) return [];
    const hit = findByLocal(root, ctx.op.resultElement);
    if (!hit || isNil(hit.el)) return [];
    const { el, path } = hit;
    const status = `status ${r.status}`;
    if (!extendsType(ctx.op.resultType, 'BaseResult')) {
      const kids = el.children.length;
      return [finding(this.name, path,
        `wrong credentials answered with data: ${status} and a ${el.local} result element${kids ? ` holding ${kids} element${kids > 1 ? 's' : ''}` : ''}; ${ctx.op.resultType} has no Error element, so only an error status or a fault rejects`,
        EXPECTED, `${status} with ${el.local}`)];
    }
    const fields = effective(ctx.op.resultType).fields;
    const out: Finding[] = [];
    let error: XElement | undefined;
    for (const c of el.children) {
      if (c.local === 'Error') { error ??= c; continue; }
      const f = fields.find((x) => x.kind === 'element' && x.name === c.local);
      if (f?.kind === 'element' && f.list && c.children.length === 0) continue; // an empty list carries no data
      const what = f?.kind === 'element' && f.list ? `${c.children.length} ${f.list.item === '*' ? 'item' : f.list.item} item${c.children.length > 1 ? 's' : ''}` : 'content';
      out.push(finding(this.name, `${path}/${step(el, c)}`, `wrong credentials answered with data: ${c.local} holds ${what}`, EXPECTED, `${c.local} with ${what}`));
    }
    if (!error) {
      out.push(finding(this.name, `${path}/Error`, `wrong credentials answered with a ${el.local} without an Error element (section 7.1: errors are reported as an Error element)`, 'an Error element', '(absent)'));
    }
    return out;
  },
};
