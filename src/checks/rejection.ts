/**
 * The judgement the rejection checks share (credentials_rejected, bad_request_rejected, dtd_refused,
 * login_rejected): a request that must be refused got no data. Accepted: any HTTP 4xx/5xx answer or
 * SOAP fault, whatever its format (the contract does not show it, 7.5 and 7.6), and for results
 * extending BaseResult (7.1) a result carrying an Error element and no data. Not accepted: a result
 * with data, or, where the result type has no Error element, any result. The result looked for is
 * the requested operation's, or that of any other operation of the same service in its group
 * namespace: a server that dispatches on the SOAPAction instead of the body, or answers an unknown
 * operation with another one, answers with data too.
 */
import { operationsOf, type Operation } from '../contract/catalogue.js';
import { effective, isValueType, rejectionFields } from '../contract/model.js';
import type { Finding } from '../core/types.js';
import { isBlank, isNil, type XElement } from '../xml/tree.js';
import { finding } from './types.js';
import { describeFault, findFault } from './soap-fault.js';
import type { CheckContext } from './context.js';
import { step } from './support.js';

interface Found {
  readonly el: XElement;
  readonly path: string;
  readonly op: Operation;
}

/**
 * The first result element in document order: the requested operation's (by local name, any
 * namespace) or another operation's of the same service (by name and group namespace), with its
 * path and the operation it belongs to.
 */
function findResult(root: XElement, ctx: CheckContext): Found | undefined {
  const others = operationsOf(ctx.op.service).filter(
    (o) => o.name !== ctx.op.name && o.resultElement !== ctx.op.resultElement,
  );
  const match = (el: XElement): Operation | undefined =>
    el.local === ctx.op.resultElement
      ? ctx.op
      : others.find((o) => o.resultElement === el.local && el.ns === ctx.namespaces[o.ns]);
  const walk = (el: XElement, path: string): Found | undefined => {
    const op = match(el);
    if (op) return { el, path, op };
    for (const c of el.children) {
      const hit = walk(c, `${path}/${step(el, c)}`);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(root, `/${root.local}`);
}

/** What a rejection is, in a finding's "expected". */
export const EXPECTED_REJECTION =
  'no data: an HTTP 4xx/5xx error, a SOAP fault, or (BaseResult results) an Error element';

/** How the target rejected a request, in words (for the note of a passed check). */
export function rejectionForm(ctx: CheckContext): string {
  const r = ctx.response!;
  const root = ctx.xml().parsed?.root;
  const fault = root ? findFault(root) : undefined;
  const ct = r.headers['content-type'] ?? 'no Content-Type';
  if (fault) return `rejected with HTTP ${r.status} and a SOAP fault (${ct}): ${describeFault(fault).slice(0, 200)}`;
  if (r.status >= 400) return `rejected with HTTP ${r.status} (${ct})`;
  return `rejected with HTTP ${r.status} and no data (${ct})`;
}

/**
 * The findings of a response that should carry no data; `what` names the request in messages
 * ("wrong credentials"). Empty when the response rejects the request.
 */
export function dataFindings(ctx: CheckContext, check: string, what: string): Finding[] | undefined {
  const r = ctx.response!;
  if (r.status >= 400) return undefined;
  const root = ctx.xml().parsed?.root;
  if (!root || findFault(root)) return undefined;
  const hit = findResult(root, ctx);
  if (!hit || isNil(hit.el)) return undefined;
  const { el, path, op } = hit;
  const status = `status ${r.status}`;
  const whose = op === ctx.op ? '' : ` (the result of ${op.name}, another operation)`;
  const e = effective(op.resultType);
  if (e.rejection === undefined) {
    const kids = el.children.length;
    return [
      finding(
        check,
        'answered_with_data',
        path,
        `${what} answered with data: ${status} and a ${el.local} result `
          + `element${whose}${kids ? ` holding ${kids} element${kids > 1 ? 's' : ''}` : ''}; ${op.resultType} has `
          + `no Error element, so only an error status or a fault rejects`,
        EXPECTED_REJECTION,
        `${status} with ${el.local}`,
      ),
    ];
  }
  const envelope = new Set(rejectionFields(op.resultType));
  const fields = new Map(e.fields.flatMap((f) => (f.kind === 'element' ? [[f.name, f] as const] : [])));
  const error = el.children.find((c) => c.local === e.rejection);
  const out: Finding[] = [];
  for (const c of el.children) {
    if (envelope.has(c.local)) continue; // Error, ErrorAttributes: the rejection itself
    const f = fields.get(c.local);
    if (f?.list && c.children.length === 0) continue; // an empty list carries no data
    // Beside an Error, a value type is written whatever happened (XmlSerializer always writes them):
    // a code such as CancelBooking's Code is not data. Records, list items and strings are.
    if (error && f && !f.list && isValueType(f.type)) continue;
    if (c.children.length === 0 && c.attrs.length === 0 && isBlank(c.text)) continue; // nothing in it
    const items = f?.list
      ? `${c.children.length} ${f.list.item === '*' ? 'item' : f.list.item} item${c.children.length > 1 ? 's' : ''}`
      : 'content';
    out.push(
      finding(
        check,
        'answered_with_data',
        `${path}/${step(el, c)}`,
        `${what} answered with data${whose}: ${c.local} holds ${items}`,
        EXPECTED_REJECTION,
        `${c.local} with ${items}`,
      ),
    );
  }
  if (!error) {
    out.push(
      finding(
        check,
        'error_element_missing',
        `${path}/${e.rejection}`,
        `${what} answered with a ${el.local} without an ${e.rejection} element (section 7.1: errors are `
          + `reported as an Error element)`,
        `an ${e.rejection} element`,
        '(absent)',
      ),
    );
  }
  return out.length ? out : undefined;
}
