/**
 * What the comparison of bindings reads of one binding's answer (a BindingView): its acceptance and
 * the canonical form of its result, documented differences ignored or not, from a live context or
 * detached from its tree (the engine drops each exchange's tree once it is checked).
 */
import type { Operation } from '../contract/catalogue.js';
import type { CheckContext } from '../checks/context.js';
import { isNil } from '../xml/tree.js';
import {
  canonicalDigests,
  canonicalEntries,
  type Digests,
  type Entry,
  type EntrySelect,
  type IgnorePredicate,
} from './canonical.js';
import { EntryDigest } from './entry-digest.js';
import { BINDING_DIFFERENCES, differencesOf, documentedDifference } from '../contract/binding-differences.js';
import { acceptance, type Acceptance } from './acceptance.js';

/**
 * What the comparison needs of one binding's answer: whether it accepted the request, and for an
 * accepted one the digest of its canonical entries (documented differences ignored, or not) with
 * its blocks' digests, and the entries themselves only where digests differ, only those `select`
 * keeps (a window around the first differing block: possibly read again from the body, one binding
 * at a time).
 */
export interface BindingView {
  readonly acceptance: Acceptance;
  digest(ignoreDocumented: boolean): string;
  blocks(ignoreDocumented: boolean): readonly string[];
  entries(ignoreDocumented: boolean, select?: EntrySelect): Entry[];
}

/**
 * The places of an operation's documented differences as the canonical walk asks, or undefined when it has none (no
 * name paths built then).
 */
function ignoreOf(op: Operation): IgnorePredicate | undefined {
  if (differencesOf(op.name).length === 0) return undefined;
  return (namePath) => documentedDifference(op.name, namePath) !== undefined;
}

/** The canonical form of a context's result: digests and entries, computed when asked. */
function canonicalView(op: Operation, ctx: CheckContext) {
  const ignore = ignoreOf(op);
  const nilEntries = (local: string): Entry[] => [{ path: `/${local}`, value: '<nil>' }];
  return {
    digests(ignoreDocumented: boolean): Digests {
      const result = ctx.located().result!;
      if (!isNil(result)) return canonicalDigests(result, op.resultType, ctx.ns, ignoreDocumented ? ignore : undefined);
      const d = new EntryDigest();
      for (const e of nilEntries(result.local)) d.push(e);
      return { whole: d.finish(), blocks: d.blocks() };
    },
    entries(ignoreDocumented: boolean, select?: EntrySelect): Entry[] {
      const result = ctx.located().result!;
      return isNil(result)
        ? nilEntries(result.local)
        : canonicalEntries(result, op.resultType, ctx.ns, ignoreDocumented ? ignore : undefined, select);
    },
  };
}

/** A view reading a live context (its tree) whenever asked. */
export function bindingViewOf(op: Operation, ctx: CheckContext): BindingView {
  const live = canonicalView(op, ctx);
  const walked = new Map<boolean, Digests>();
  const digests = (i: boolean) => walked.get(i) ?? (walked.set(i, live.digests(i)), walked.get(i)!);
  return {
    acceptance: acceptance(ctx),
    digest: (i) => digests(i).whole,
    blocks: (i) => digests(i).blocks,
    entries: live.entries,
  };
}

/**
 * A view that holds no tree: acceptance and the digests the comparison will ask for are taken from
 * `ctx` now; entries are derived from a fresh context (`reread`: the body parsed again) only if
 * asked, when digests differ. The engine drops each exchange's tree once it is checked.
 */
export function detachedView(op: Operation, ctx: CheckContext, reread: () => CheckContext): BindingView {
  const acc = acceptance(ctx);
  const digests = new Map<boolean, Digests>();
  if (acc.kind === 'accepted') {
    const live = canonicalView(op, ctx);
    digests.set(true, live.digests(true));
    if (BINDING_DIFFERENCES.some((d) => d.operation === op.name)) digests.set(false, live.digests(false));
  }
  const digestsOf = (ignoreDocumented: boolean): Digests =>
    digests.get(ignoreDocumented) ?? canonicalView(op, reread()).digests(ignoreDocumented);
  return {
    acceptance: acc,
    digest: (ignoreDocumented) => digestsOf(ignoreDocumented).whole,
    blocks: (ignoreDocumented) => digestsOf(ignoreDocumented).blocks,
    entries: (ignoreDocumented, select) => canonicalView(op, reread()).entries(ignoreDocumented, select),
  };
}

/** Exposed for the compare command and tests: a result's canonical entries with the documented differences ignored. */
export function canonicalResult(op: Operation, ctx: CheckContext): Entry[] | undefined {
  const result = ctx.located().result;
  if (!result) return undefined;
  return canonicalEntries(result, op.resultType, ctx.ns, ignoreOf(op));
}
