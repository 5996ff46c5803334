/**
 * binding_rules: the per-binding rules the contract states, enforced both ways. The rules are data,
 * each with its contract sentence, kept in src/contract/binding-differences.ts (one place shared
 * with the mock and the equivalence comparison, which ignores exactly these places); this module
 * walks them.
 */
import { BINDING_DIFFERENCES } from '../contract/binding-differences.js';
import type { Finding } from '../core/types.js';
import { isBlank, isNil, type XElement } from '../xml/tree.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { inBandError, isSkip, needsDocument, quote, step, judgedAsAnswer } from './support.js';

/** Every element reached by a rule's name path from the result element, with its path. */
function reach(result: XElement, steps: readonly string[], path: string): { el: XElement; path: string }[] {
  let level = [{ el: result, path }];
  for (const name of steps) {
    level = level.flatMap(({ el, path: p }) =>
      el.children
        .filter((c) => c.local === name && c.ns === result.ns)
        .map((c) => ({ el: c, path: `${p}/${step(el, c)}` })),
    );
  }
  return level;
}

export const bindingRules: Check = {
  name: 'binding_rules',
  description:
    'What the contract states per binding holds: e.g. CancelBooking activecancellationpolicy is nil in '
    + 'SOAP and holds text or child elements in HTTP GET/POST.',
  places: ['valid', 'generated', 'document'],
  severity: 140,
  operations: (name) => BINDING_DIFFERENCES.some((r) => r.operation === name),
  appliesTo: (ctx) => judgedAsAnswer(ctx),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const loc = ctx.located();
    if (!loc.result) return { skipped: 'result element not found: reported by result_element or soap_envelope' };
    if (isNil(loc.result)) return { skipped: 'nil result element: nothing to apply the rules to' };
    const error = inBandError(loc.result, ctx.op.resultType, ctx.ns);
    if (error)
      return {
        skipped: `answered with an in-band Error (${error.type || 'no ErrorType'}): no data to apply the rules to`,
      };
    const out: Finding[] = [];
    for (const rule of BINDING_DIFFERENCES.filter((r) => r.operation === ctx.op.name)) {
      const [first, ...steps] = rule.path.split('/');
      if (first !== ctx.op.resultElement) continue;
      const want = rule.expect[ctx.bindingId];
      for (const { el, path } of reach(loc.result, steps, loc.path)) {
        const nil = isNil(el);
        if (want === 'nil' && !nil) {
          const seen =
            el.children.length > 0
              ? `child element ${el.children[0]!.local}`
              : isBlank(el.text)
                ? 'an empty element without xsi:nil'
                : `text ${quote(el.text, 60)}`;
          out.push(
            finding(
              this.name,
              'binding_rule_not_nil',
              path,
              `${el.local} not nil in ${ctx.binding.label}: ${seen}; ${rule.source}`,
              'xsi:nil="true"',
              seen,
            ),
          );
        } else if (want === 'content' && (nil || (isBlank(el.text) && el.children.length === 0))) {
          const seen = nil ? 'xsi:nil="true"' : 'an empty element';
          out.push(
            finding(
              this.name,
              'binding_rule_no_content',
              path,
              `${el.local} without content in ${ctx.binding.label} (${seen}): expected text or child `
                + `elements; ${rule.source}`,
              'child text or elements',
              seen,
            ),
          );
        }
      }
    }
    return out;
  },
};
