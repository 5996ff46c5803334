/**
 * Small shared pieces of the checks: the prerequisites that decide whether a check can run (so a
 * defect is reported by exactly one check and the others skip with a reason naming it), paths,
 * short quotes and the hints that explain a near miss (case, namespace version, other group).
 */
import { findFault, isSoapEnvNs } from './soap-fault.js';
import { quote } from './quote.js';
import { BINDING_MODULES } from '../bindings/index.js';
import { effective, MODEL } from '../contract/model.js';
import type { XElement } from '../xml/tree.js';
import type { CheckContext } from './context.js';

/**
 * Quoting (quote.ts) and the SOAP envelope namespaces (soap-fault.ts) live below this file, so
 * soap-fault.ts needs nothing of it (no circle); given here too, so a check finds its small pieces
 * in one import.
 */
export { MAX_QUOTE, quote } from './quote.js';
export { isSoapEnvNs } from './soap-fault.js';

export type Skip = { readonly skipped: string };

/**
 * Whether the per-exchange checks of a valid call judge this exchange: a valid case always; a
 * generated case (which a conforming service may reject: an unparsable date) only when it was
 * answered as a success, with 200 and no SOAP fault. A rejection of a generated case is judged only
 * by the comparison of bindings: all must reject it alike.
 */
export function judgedAsAnswer(ctx: CheckContext): boolean {
  if (ctx.caseKind === 'valid') return true;
  if (ctx.caseKind !== 'generated' || ctx.response?.status !== 200) return false;
  return findFault(ctx.xml().parsed?.root) === undefined;
}

/**
 * Why no check about the response document can run: no response, or not a 200 (status_code or credentials_rejected
 * speak).
 */
export function needsSuccess(ctx: CheckContext): Skip | undefined {
  const r = ctx.response;
  if (!r) return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): reported by status_code` };
  if (r.status !== 200) {
    return ctx.caseKind === 'valid'
      ? { skipped: `status ${r.status}, not 200: reported by status_code` }
      : { skipped: `status ${r.status}: an error response, whose format the contract does not show (section 7.5)` };
  }
  return undefined;
}

/** The parsed root of a 200 response, or why there is none (xml_wellformed reports the defect). */
export function needsDocument(ctx: CheckContext): { root: XElement } | Skip {
  const s = needsSuccess(ctx);
  if (s) return s;
  const d = ctx.decoded();
  if (d.text === undefined) return { skipped: 'the body cannot be decoded: reported by xml_wellformed' };
  const lx = ctx.libxml();
  if (lx.notParsed !== undefined)
    return { skipped: 'the document was not read (a limit of this harness, or its time): reported by xml_wellformed' };
  if (lx.wellFormedError !== undefined)
    return { skipped: 'the body is not well-formed XML: reported by xml_wellformed' };
  const x = ctx.xml();
  if (!x.parsed) return { skipped: 'the body cannot be read as XML: reported by xml_wellformed' };
  return { root: x.parsed.root };
}

export function isSkip(x: unknown): x is Skip {
  return typeof x === 'object' && x !== null && 'skipped' in x;
}

/** The label of the binding whose envelope namespace `ns` is ("SOAP 1.1"), or the namespace itself. */
export const soapLabel = (ns: string): string =>
  Object.values(BINDING_MODULES).find((b) => b.envelopeNs === ns)?.label ?? `namespace ${ns || '(none)'}`;

/** Each child's path step, per parent, computed for all its children at once on first use. */
const STEPS = new WeakMap<XElement, Map<XElement, string>>();

/**
 * Path step of a child: its local name, with a 1-based index only when siblings of that name
 * repeat. The steps of all children of a parent are computed in one pass and kept while the tree
 * lives (parents of up to 16 children are counted directly): counting the siblings for each child
 * was quadratic in a list's length.
 */
export function step(parent: XElement, child: XElement): string {
  if (parent.children.length <= 16) {
    let n = 0;
    let at = 0;
    for (const c of parent.children) {
      if (c.local !== child.local) continue;
      n++;
      if (c === child) at = n;
    }
    return n > 1 ? `${child.local}[${at}]` : child.local;
  }
  let steps = STEPS.get(parent);
  if (!steps) {
    const total = new Map<string, number>();
    for (const c of parent.children) total.set(c.local, (total.get(c.local) ?? 0) + 1);
    const at = new Map<string, number>();
    steps = new Map();
    for (const c of parent.children) {
      if (total.get(c.local) === 1) {
        steps.set(c, c.local);
        continue;
      }
      const i = (at.get(c.local) ?? 0) + 1;
      at.set(c.local, i);
      steps.set(c, `${c.local}[${i}]`);
    }
    STEPS.set(parent, steps);
  }
  return steps.get(child) ?? child.local;
}

export const childPath = (path: string, parent: XElement, child: XElement): string => `${path}/${step(parent, child)}`;

/** Clark name {ns}local of a name pair. */
export const clarkOf = (ns: string, local: string): string => (ns ? `{${ns}}${local}` : local);

/** Why a seen namespace is not the expected group namespace, in words. */
export function nsDifference(seen: string, expected: string, namespaces?: Readonly<Record<string, string>>): string {
  if (seen === '') return 'no namespace';
  if (namespaces) {
    for (const [key, uri] of Object.entries(namespaces)) {
      if (uri === seen && uri !== expected)
        return `the ${key === 'book' ? 'booking' : key === 'search' ? 'search' : key} group's namespace`;
    }
  }
  const version = /^(.*?)(\d+)(\/?)$/;
  const a = version.exec(seen);
  const b = version.exec(expected);
  if (a && b && a[1] === b[1] && a[2] !== b[2])
    return `another version: ends in ${a[2]}${a[3]} instead of ${b[2]}${b[3]}`;
  if (seen.toLowerCase() === expected.toLowerCase())
    return 'the namespace differs in letter case (namespaces are case-sensitive)';
  if (seen.replace(/\/$/, '') === expected.replace(/\/$/, '')) return 'the namespace differs in its trailing slash';
  if (isSoapEnvNs(seen)) return `the ${soapLabel(seen)} envelope namespace`;
  return 'another namespace';
}

/** An in-band rejection carried by a result element (section 7.1, BaseResult's Error), as read from it. */
export interface InBandError {
  /** ErrorType's text ('' when absent): a .NET exception class name on the real service. */
  readonly type: string;
  readonly message: string;
}

/**
 * The in-band Error a result element carries, or undefined: the type model's rejection field
 * (BaseResult's Error) present among its children in the group namespace.
 */
export function inBandError(result: XElement, resultType: string, ns: string): InBandError | undefined {
  const field = MODEL.get(resultType)?.kind === 'complex' ? effective(resultType).rejection : undefined;
  const error = field === undefined ? undefined : result.children.find((c) => c.local === field && c.ns === ns);
  if (!error) return undefined;
  const text = (local: string) => error.children.find((c) => c.local === local)?.text.trim() ?? '';
  return { type: text('ErrorType'), message: text('Message') };
}

/** What a valid call answered with an in-band Error means, in words (the shape check's skip reason). */
export function inBandErrorMessage(e: InBandError): string {
  return (
    `answered with an in-band `
    + `Error${e.type ? ` ${e.type}` : ''}${e.message ? ` (${quote(e.message, 160)})` : ''}: not a contract `
    + `violation, `
    + 'but this case never reached the data path; give it data that exists on this target (the config file\'s "cases")'
  );
}

/** A hint when two local names differ only in letter case, else ''. */
export function caseHint(seen: string, expected: string): string {
  return seen !== expected && seen.toLowerCase() === expected.toLowerCase()
    ? ` (names are case-sensitive: ${seen} differs from ${expected} only in letter case)`
    : '';
}
