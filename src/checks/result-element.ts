/**
 * result_element: the result sits where the binding puts it (section 4): SOAP — the Body holds
 * <Operation>Response in the group namespace holding the result element in the group namespace;
 * HTTP GET/POST — the result element in the group namespace is the document root. A nil result is
 * allowed only where the contract says so (searchTransfersResult, section 4.3).
 */
import type { Finding } from '../core/types.js';
import { isNil, type XElement } from '../xml/tree.js';
import type { CheckContext } from './context.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { findFault, soapBody } from './soap-fault.js';
import {
  caseHint,
  clarkOf,
  isSkip,
  isSoapEnvNs,
  needsDocument,
  nsDifference,
  step,
  judgedAsAnswer,
} from './support.js';

const CHECK = 'result_element';

/** Why `seen` is not the expected element `{ctx.ns}expected`, in words. */
function mismatch(ctx: CheckContext, seen: XElement, expected: string, role: string): string {
  const want = clarkOf(ctx.ns, expected);
  const got = clarkOf(seen.ns, seen.local);
  if (seen.local === expected)
    return (
      `${role} ${expected} in ${nsDifference(seen.ns, ctx.ns, ctx.namespaces)} (${seen.ns || 'none'}): `
      + `expected namespace ${ctx.ns}`
    );
  const hint = caseHint(seen.local, expected);
  if (hint)
    return (
      `${role} named ${seen.local} instead `
      + `of ${expected}${hint}${seen.ns !== ctx.ns ? `, and in ${nsDifference(seen.ns, ctx.ns, ctx.namespaces)}` : ''}`
    );
  return `${got} instead of the ${role} ${want}`;
}

/**
 * The best near miss among elements, for the message: same name first, then same name ignoring case, then the first.
 */
function nearest(els: readonly XElement[], expected: string): XElement | undefined {
  return (
    els.find((e) => e.local === expected) ?? els.find((e) => e.local.toLowerCase() === expected.toLowerCase()) ?? els[0]
  );
}

function checkNil(ctx: CheckContext, result: XElement, path: string): Finding[] {
  if (!isNil(result) || ctx.op.resultNillable) return [];
  return [
    finding(
      CHECK,
      'result_nil',
      path,
      `nil result element ${ctx.op.resultElement}: the contract does not allow a nil result for ${ctx.op.name}`,
      'a result',
      'xsi:nil="true"',
    ),
  ];
}

/** A binding that wraps the result (SOAP): the Body holds the wrapper, the wrapper the result element. */
function wrapped(ctx: CheckContext, root: XElement, wrapperName: string): CheckOutcome {
  const body = soapBody(root);
  if (!body) return { skipped: 'no SOAP Envelope/Body: reported by soap_envelope' };
  if (findFault(root)) return { skipped: 'the Body holds a SOAP Fault: reported by soap_envelope' };
  const bodyPath = '/Envelope/Body';
  const out: Finding[] = [];
  const wrappers = body.children.filter((c) => c.ns === ctx.ns && c.local === wrapperName);
  if (wrappers.length === 0) {
    const want = clarkOf(ctx.ns, wrapperName);
    const seen = nearest(body.children, wrapperName);
    if (!seen)
      return [
        finding(
          CHECK,
          'body_empty',
          `${bodyPath}/${wrapperName}`,
          `empty Body: expected the wrapper ${want}`,
          want,
          '(empty Body)',
        ),
      ];
    const path = `${bodyPath}/${step(body, seen)}`;
    if (seen.local === ctx.op.resultElement && seen.local.toLowerCase() !== wrapperName.toLowerCase()) {
      return [
        finding(
          CHECK,
          'wrapper_missing',
          path,
          `missing wrapper ${wrapperName}: the Body holds the result element ${clarkOf(seen.ns, seen.local)} directly`,
          want,
          clarkOf(seen.ns, seen.local),
        ),
      ];
    }
    return [
      finding(
        CHECK,
        'wrapper_mismatch',
        path,
        mismatch(ctx, seen, wrapperName, 'wrapper'),
        want,
        clarkOf(seen.ns, seen.local),
      ),
    ];
  }
  const wrapper = wrappers[0]!;
  if (wrappers.length > 1)
    out.push(
      finding(
        CHECK,
        'wrapper_duplicated',
        `${bodyPath}/${step(body, wrappers[1]!)}`,
        `${wrappers.length} ${wrapperName} elements in the Body, expected one`,
        '1',
        String(wrappers.length),
      ),
    );
  const isWrapper = new Set(wrappers);
  for (const c of body.children) {
    if (!isWrapper.has(c))
      out.push(
        finding(
          CHECK,
          'unexpected_element',
          `${bodyPath}/${step(body, c)}`,
          `unexpected element ${clarkOf(c.ns, c.local)} in the Body besides ${wrapperName}`,
        ),
      );
  }
  const wrapperPath = `${bodyPath}/${step(body, wrapper)}`;
  const results = wrapper.children.filter((c) => c.ns === ctx.ns && c.local === ctx.op.resultElement);
  const want = clarkOf(ctx.ns, ctx.op.resultElement);
  if (results.length === 0) {
    const seen = nearest(wrapper.children, ctx.op.resultElement);
    if (!seen)
      out.push(
        finding(
          CHECK,
          'result_missing',
          `${wrapperPath}/${ctx.op.resultElement}`,
          `missing result element ${want} in ${wrapperName}`,
          want,
          '(absent)',
        ),
      );
    else
      out.push(
        finding(
          CHECK,
          'result_mismatch',
          `${wrapperPath}/${step(wrapper, seen)}`,
          mismatch(ctx, seen, ctx.op.resultElement, 'result element'),
          want,
          clarkOf(seen.ns, seen.local),
        ),
      );
    for (const c of wrapper.children) {
      if (c !== seen)
        out.push(
          finding(
            CHECK,
            'unexpected_element',
            `${wrapperPath}/${step(wrapper, c)}`,
            `unexpected element ${clarkOf(c.ns, c.local)} in ${wrapperName}`,
          ),
        );
    }
    return out;
  }
  if (results.length > 1)
    out.push(
      finding(
        CHECK,
        'result_duplicated',
        `${wrapperPath}/${step(wrapper, results[1]!)}`,
        `${results.length} result elements ${ctx.op.resultElement} in ${wrapperName}, expected one`,
        '1',
        String(results.length),
      ),
    );
  const isResult = new Set(results);
  for (const c of wrapper.children) {
    if (!isResult.has(c))
      out.push(
        finding(
          CHECK,
          'unexpected_element',
          `${wrapperPath}/${step(wrapper, c)}`,
          `unexpected element ${clarkOf(c.ns, c.local)} in ${wrapperName} besides the result `
            + `element${caseHint(c.local, ctx.op.resultElement)}`,
        ),
      );
  }
  out.push(...checkNil(ctx, results[0]!, `${wrapperPath}/${step(wrapper, results[0]!)}`));
  return out;
}

function bare(ctx: CheckContext, root: XElement): CheckOutcome {
  if (isSoapEnvNs(root.ns)) return { skipped: 'the document is a SOAP envelope: reported by soap_envelope' };
  const path = `/${root.local}`;
  if (root.ns === ctx.ns && root.local === ctx.op.resultElement) return checkNil(ctx, root, path);
  const want = clarkOf(ctx.ns, ctx.op.resultElement);
  return [
    finding(
      CHECK,
      'result_mismatch',
      path,
      `root element: ${mismatch(ctx, root, ctx.op.resultElement, 'result element')}`,
      want,
      clarkOf(root.ns, root.local),
    ),
  ];
}

export const resultElement: Check = {
  name: CHECK,
  description:
    'The result element sits where the binding puts it, with its exact name, in the group namespace; '
    + 'nil only where allowed.',
  places: ['valid', 'generated', 'document'],
  severity: 60,
  appliesTo: (ctx) => judgedAsAnswer(ctx),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const wrapperName = ctx.binding.wrapperOf(ctx.op);
    return wrapperName === undefined ? bare(ctx, doc.root) : wrapped(ctx, doc.root, wrapperName);
  },
};
