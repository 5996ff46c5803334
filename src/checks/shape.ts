/**
 * shape: the result element walked with the type model (src/contract/model.ts), path-precisely.
 * It finds what XSD finds, in words a reader can act on (missing, duplicated, out of order,
 * unknown, wrong namespace, wrong case, bad nil, bad lexical form), and it also checks what the
 * schemas must leave open: the known fields of types with a "not shown" region (XSD 1.0 cannot
 * place unknown elements among known ones, so those types are one wildcard there).
 *
 * "Not shown" is never flagged: anyType content, openContent, unknown elements of open types and
 * attributes under anyAttribute are accepted whatever they hold.
 */
import type { Finding } from '../core/types.js';
import { isNil, type XElement } from '../xml/tree.js';
import type { Check, CheckOutcome } from './types.js';
import type { CheckContext } from './context.js';
import { inBandError, inBandErrorMessage, isSkip, needsDocument } from './support.js';
import { shapeFindings } from './shape-walk.js';

/** The shape walk of the result element: a function of the tree alone, so it may run beside libxml2 (Check.beside). */
function resultFindings(ctx: CheckContext, result: XElement, path: string): Finding[] {
  return ctx.beside('shape', result, () =>
    shapeFindings(result, ctx.op.resultType, path, ctx.ns, {
      nillable: ctx.op.resultNillable,
      check: 'shape',
      namespaces: ctx.namespaces,
    }),
  );
}

export const shape: Check = {
  name: 'shape',
  description:
    'The result element matches the type model: required/optional fields, order, multiplicity, names '
    + 'and namespaces, attributes, nil, enumerations and lexical forms.',
  // On a rejected call there is nothing to walk: the error format is not shown (section 7.5).
  places: ['valid', 'generated', 'answered-with-data', 'document'],
  severity: 110,
  appliesTo: (ctx) => ctx.caseKind === 'valid' || (ctx.response?.status === 200 && ctx.located().result !== undefined),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const loc = ctx.located();
    if (!loc.result) {
      return { skipped: 'result element not found: reported by result_element or soap_envelope' };
    }
    if (isNil(loc.result) && !ctx.op.resultNillable)
      return { skipped: 'nil result element: reported by result_element' };
    const found = resultFindings(ctx, loc.result, loc.path);
    const error =
      ctx.caseKind === 'valid' && found.length === 0 ? inBandError(loc.result, ctx.op.resultType, ctx.ns) : undefined;
    if (error) return { skipped: inBandErrorMessage(error), inBandError: error };
    return found;
  },
  beside(ctx): void {
    const loc = ctx.located();
    if (loc.result && (ctx.op.resultNillable || !isNil(loc.result))) resultFindings(ctx, loc.result, loc.path);
  },
};
