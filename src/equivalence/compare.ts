/**
 * Binding equivalence: one operation, four ways in, one answer. For one request case, the bindings
 * must agree on acceptance (all answer with data, or all reject) and, where they answer, on the
 * result in canonical form, apart from the differences the contract documents. A documented
 * difference sets apart only bindings the contract expects to differ there: bindings with the same
 * expectation (HTTP GET and HTTP POST both carry activecancellationpolicy's text) must still agree.
 */
import { EQUIVALENCE_CHECK } from '../core/rows.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { findFault } from '../checks/soap-fault.js';
import { inBandError } from '../checks/support.js';
import type { CaseKind, CheckContext } from '../checks/context.js';
import type { CheckOutcome } from '../checks/types.js';
import type { Finding } from '../core/types.js';
import { isNil } from '../xml/tree.js';
import {
  canonicalDigests,
  canonicalEntries,
  ELEMENT,
  type Digests,
  type Entry,
  type EntrySelect,
  type IgnorePredicate,
} from './canonical.js';
import { ENTRY_BLOCK, EntryDigest } from './entry-digest.js';
import { BINDING_DIFFERENCES, differencesOf, documentedDifference } from '../contract/binding-differences.js';
import { displayValue } from './values.js';
import { canonicalDiff, describeItem } from './canonical-diff.js';

export type Acceptance =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected'; readonly how: string; readonly errorType?: string; readonly errorMessage?: string }
  | { readonly kind: 'unknown'; readonly why: string };

/** Whether a binding answered with data, rejected the request (fault, HTTP error, in-band Error), or neither. */
export function acceptance(ctx: CheckContext): Acceptance {
  const res = ctx.response;
  if (!res) return { kind: 'unknown', why: 'no response' };
  if (findFault(ctx.xml().parsed?.root)) return { kind: 'rejected', how: `SOAP fault (HTTP ${res.status})` };
  if (res.status < 200 || res.status >= 300) return { kind: 'rejected', how: `HTTP ${res.status}` };
  const result = ctx.located().result;
  if (!result) return { kind: 'unknown', why: 'no result element' };
  const error = inBandError(result, ctx.op.resultType, ctx.ns);
  if (error)
    return {
      kind: 'rejected',
      how: `in-band Error${error.type ? ` ${error.type}` : ''}`,
      errorType: error.type,
      errorMessage: error.message,
    };
  return { kind: 'accepted' };
}

export interface EquivalenceRow {
  /** The departing binding(s), comma-separated; undefined when all agree (the row names all bindings). */
  readonly binding?: string;
  readonly outcome: CheckOutcome;
}

const list = (bs: readonly BindingId[]) => bs.join(', ');

/** Group bindings by a key; the largest group first (ties keep binding order). */
function groups<T>(items: readonly T[], key: (t: T) => string): T[][] {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    m.set(k, [...(m.get(k) ?? []), it]);
  }
  return [...m.values()].sort((a, b) => b.length - a.length);
}

/** The index of the first entry where two lists differ, or -1. */
function firstDifference(ref: readonly Entry[], other: readonly Entry[]): number {
  const n = Math.max(ref.length, other.length);
  for (let i = 0; i < n; i++) {
    const a = ref[i];
    const b = other[i];
    if (!a || !b || a.path !== b.path || a.value !== b.value) return i;
  }
  return -1;
}

/**
 * The place where two canonical entry lists first differ, or undefined when they are equal. Where
 * one side has an entry the other lacks, that entry's place is the difference.
 */
export function firstDifferingPath(ref: readonly Entry[], other: readonly Entry[]): string | undefined {
  const i = firstDifference(ref, other);
  if (i < 0) return undefined;
  const [a, m] = [ref[i], other[i]];
  if (a && m && a.path !== m.path) return ref.some((e) => e.path === m.path) ? a.path : m.path;
  return (a ?? m)!.path;
}

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

/** Compare the bindings of one unit. `contexts` holds the bindings that got a response. */
export function compareBindings(
  op: Operation,
  kind: CaseKind,
  bindings: readonly BindingId[],
  contexts: ReadonlyMap<BindingId, CheckContext>,
): EquivalenceRow[] {
  return compareViews(op, kind, bindings, new Map([...contexts].map(([b, c]) => [b, bindingViewOf(op, c)])));
}

/** An ErrorType or message saying the booking was cancelled before (BookingAlreadyCancelledException, Code -2). */
export const ALREADY_CANCELLED = /already\s*(been\s*)?cancel/i;
/** An ErrorType or message saying the booking named does not exist (BookingNotFoundException). */
export const NOT_FOUND = /not\s*found|no\s+(transfer\s+)?booking/i;

/**
 * An in-band Error saying the booking was cancelled before (the live service: BookingAlreadyCancelledException, Code
 * -2).
 */
export function alreadyCancelled(a: Acceptance): boolean {
  return a.kind === 'rejected' && ALREADY_CANCELLED.test(`${a.errorType ?? ''} ${a.errorMessage ?? ''}`);
}

/** An in-band Error saying the booking named does not exist (the live service: BookingNotFoundException). */
export function notFound(a: Acceptance): boolean {
  return a.kind === 'rejected' && NOT_FOUND.test(`${a.errorType ?? ''} ${a.errorMessage ?? ''}`);
}

/**
 * What the comparison knows of a state-changing unit's calls (src/engine/bookings.ts): their kind,
 * the id each binding sent, the places compared by value (src/contract/state-rules.ts), and the pool
 * booking each binding's real call changed.
 */
export interface CallContext {
  readonly calls: 'real' | 'probe' | 'rejection';
  readonly ids: Readonly<Partial<Record<BindingId, string>>>;
  readonly byValue?: readonly string[];
  readonly bookings?: Readonly<Partial<Record<BindingId, { readonly pool: string; readonly id: string }>>>;
}

/** How a rejection was given: in the result (in-band Error), or thrown (a SOAP fault, an HTTP error status). */
const formOf = (a: Acceptance) =>
  a.kind === 'rejected' && (a.errorType !== undefined || a.how.startsWith('in-band')) ? 'in-band' : 'thrown';

/** Compare the bindings of one unit by their views. `views` holds the bindings that got a response. */
export function compareViews(
  op: Operation,
  kind: CaseKind,
  bindings: readonly BindingId[],
  views: ReadonlyMap<BindingId, BindingView>,
  call?: CallContext,
): EquivalenceRow[] {
  // A state-changing call whose booking answers "already cancelled" had a booking that was not usable:
  // that says nothing about its binding (a pool reused by a second run, or state leaking, which the
  // sequences judge, src/sequences/). The others are compared; the row is not judged otherwise.
  const spent =
    op.mutates && call?.calls !== 'probe' && (kind === 'valid' || kind === 'generated')
      ? bindings.filter((b) => views.has(b) && alreadyCancelled(views.get(b)!.acceptance))
      : [];
  // A pool booking the target does not know: the pool's problem, not its binding's.
  const unknown =
    call?.calls === 'real'
      ? bindings.filter((b) => views.has(b) && !spent.includes(b) && notFound(views.get(b)!.acceptance))
      : [];
  if (spent.length > 0 || unknown.length > 0) {
    const rest = compareViews(
      op,
      kind,
      bindings.filter((b) => !spent.includes(b) && !unknown.includes(b)),
      views,
      call,
    );
    if (rest.some((r) => Array.isArray(r.outcome) && r.outcome.length > 0)) return rest;
    const named = (bs: readonly BindingId[]) =>
      bs
        .map((b) => {
          const k = call?.bookings?.[b];
          return k ? `${k.id} of \`bookings.${k.pool}\` (${b})` : b;
        })
        .join(', ');
    const why = [
      ...(unknown.length
        ? [`booking ${named(unknown)} is not found on the target: give bookings that exist there`]
        : []),
      ...(spent.length
        ? [
            `booking ${named(spent)} answered "already cancelled": not usable any more (a pool used by `
              + `an earlier run needs fresh bookings; state leaking between bookings is judged by the `
              + `sequences)`,
          ]
        : []),
    ];
    return [{ outcome: { skipped: `not compared: ${why.join('; ')}` } }];
  }
  const answered = bindings.filter((b) => views.has(b));
  if (answered.length < 2)
    return [{ outcome: { skipped: `fewer than two bindings answered (${list(answered) || 'none'})` } }];

  const acc = new Map(answered.map((b) => [b, views.get(b)!.acceptance]));
  const known = answered.filter((b) => acc.get(b)!.kind !== 'unknown');
  const byKind = groups(known, (b) => acc.get(b)!.kind);
  if (byKind.length > 1) {
    const [major, ...rest] = byKind;
    const minority = rest.flat();
    const tie = major!.length === minority.length;
    const departing = tie ? known.filter((b) => acc.get(b)!.kind === 'accepted') : minority;
    const describe = (b: BindingId) => {
      const a = acc.get(b)!;
      return `${b}: ${a.kind === 'rejected' ? `rejected (${a.how})` : 'answered with data'}`;
    };
    const f: Finding = {
      check: EQUIVALENCE_CHECK,
      code: 'acceptance_differs',
      path: `/${op.resultElement}`,
      message:
        `bindings disagree on accepting the request: ${known.map(describe).join('; ')}`
        + (kind === 'wrong-credentials' ? ' (wrong credentials must be rejected by every binding)' : ''),
      expected:
        `every `
        + `binding ${kind === 'wrong-credentials' ? 'rejects' : acc.get(major![0]!)!.kind === 'accepted' ? 'answers with data' : 'rejects'}`,
      actual: departing.map(describe).join('; '),
    };
    return [{ binding: departing.join(','), outcome: [f] }];
  }

  const accepted = known.filter((b) => acc.get(b)!.kind === 'accepted');
  if ((kind === 'valid' || kind === 'generated') && accepted.length === 0) {
    // The same request rejected in the result on some bindings and thrown (a fault, an HTTP error) on
    // others: a binding that fails on an input the others take in (a parser, a decoder).
    const byForm = groups(known, (b) => formOf(acc.get(b)!));
    if (byForm.length > 1) {
      const [major, ...rest] = byForm;
      const minority = rest.flat();
      const tie = major!.length === minority.length;
      const shownHow = (b: BindingId) => {
        const a = acc.get(b)!;
        return a.kind === 'rejected' ? a.how : a.kind;
      };
      const f: Finding = {
        check: EQUIVALENCE_CHECK,
        code: 'rejection_differs',
        path: `/${op.resultElement}`,
        message:
          `bindings reject the request `
          + `differently: ${known.map((b) => `${b}: ${shownHow(b)}`).join('; ')}${tie ? ' (no majority: either side may be wrong)' : ''}`,
        expected: `${list(major!)}: ${formOf(acc.get(major![0]!)!) === 'in-band' ? 'an in-band Error' : 'a fault or an HTTP error'}`,
        actual: `${list(minority)}: ${minority.map(shownHow).join(', ')}`,
      };
      return [
        { binding: (tie ? known.filter((b) => formOf(acc.get(b)!) === 'thrown') : minority).join(','), outcome: [f] },
      ];
    }
    // A valid call every binding answered with an in-band Error: the same error on every binding.
    const errorType = (b: BindingId): string | undefined => {
      const a = acc.get(b)!;
      return a.kind === 'rejected' ? a.errorType : undefined;
    };
    const inBand = known.filter((b) => errorType(b) !== undefined);
    const byType = groups(inBand, (b) => errorType(b)!);
    if (byType.length > 1) {
      const [major, ...rest] = byType;
      const minority = rest.flat();
      const tie = major!.length === minority.length;
      const shown = (b: BindingId) => errorType(b) || '(no ErrorType)';
      const f: Finding = {
        check: EQUIVALENCE_CHECK,
        code: 'error_type_differs',
        path: `/${op.resultElement}/Error/ErrorType`,
        message:
          `bindings answer with different in-band `
          + `Errors: ${inBand.map((b) => `${b}=${shown(b)}`).join(', ')}${tie ? ' (no majority: either side may be wrong)' : ''}`,
        expected: `${list(major!)}: ${shown(major![0]!)}`,
        actual: `${list(minority)}: ${minority.map(shown).join(', ')}`,
      };
      return [{ binding: (tie && inBand.length === 2 ? inBand : minority).join(','), outcome: [f] }];
    }
    // A probe names no booking: its in-band messages are compared by value, the id each binding sent set aside.
    if (call?.calls === 'probe' && inBand.length > 1) {
      const message = (b: BindingId) => {
        const a = acc.get(b)!;
        const id = call.ids[b];
        const m = a.kind === 'rejected' ? (a.errorMessage ?? '') : '';
        return id && id.trim() !== '' ? m.split(id.trim()).join('{id}') : m;
      };
      const byMessage = groups(inBand, message);
      if (byMessage.length > 1) {
        const [major, ...rest] = byMessage;
        const minority = rest.flat();
        const tie = major!.length === minority.length;
        const f: Finding = {
          check: EQUIVALENCE_CHECK,
          code: 'error_message_differs',
          path: `/${op.resultElement}/Error/Message`,
          message:
            `bindings answer the probe with different messages (the id each sent shown as `
            + `{id}): ${inBand.map((b) => `${b}=${JSON.stringify(shown(message(b)))}`).join(', ')}`
            + `${tie ? ' (no majority: either side may be wrong)' : ''}`,
          expected: `${list(major!)}: ${shown(message(major![0]!))}`,
          actual: `${list(minority)}: ${minority.map((b) => shown(message(b))).join(', ')}`,
        };
        return [{ binding: (tie && inBand.length === 2 ? inBand : minority).join(','), outcome: [f] }];
      }
    }
  }
  if (accepted.length < 2) {
    if (known.length >= 2) return [{ outcome: [] }];
    return [{ outcome: { skipped: `fewer than two bindings gave a readable result (${list(known) || 'none'})` } }];
  }
  // A state-changing call changes the booking it names, so each binding sent one of its own: they are
  // compared by outcome (accepted, or rejected with which ErrorType, above), never by the values that
  // belong to each booking (nil included: a nillable place is the booking's). Each answer's shape is
  // held to the contract by the checks of its binding (shape, xsd_valid, binding_rules).
  if (op.mutates) {
    // Only the places the request decides or the contract fixes (src/contract/state-rules.ts), where
    // every binding changed one booking or named one id.
    const places = new Set(call?.byValue ?? []);
    if (places.size === 0) return [{ outcome: [] }];
    const bare = (path: string) =>
      path
        .replace(/\[\d+\]/g, '')
        .replace(/\/text\(\)$/, '')
        .slice(1);
    // Only the places compared are kept while the walk goes (at most a window's worth of them: a
    // hostile answer repeating such a place a million times holds no more).
    const picked = (b: BindingId) =>
      views.get(b)!.entries(true, { path: (p) => places.has(bare(p)), limit: WINDOW_ENTRIES });
    const memo = new Map<BindingId, Entry[]>();
    const entries = (b: BindingId) => memo.get(b) ?? (memo.set(b, picked(b)), memo.get(b)!);
    const digest = (b: BindingId) => JSON.stringify(entries(b));
    const rows = differences(
      accepted,
      { digest, blocks: (b) => [digest(b)], entries: (b, w) => entries(b).slice(w.from, w.to) },
      ` (compared by value: ${[...places].join(', ')})`,
    );
    return rows.length > 0 ? rows : [{ outcome: [] }];
  }
  const rows = differences(accepted, canonicalOf(views, true), '');
  if (rows.length > 0) return rows;
  // Where a documented difference was set aside, the bindings that share an expectation must agree.
  const documented = BINDING_DIFFERENCES.filter((d) => d.operation === op.name);
  for (const same of groups(accepted, (b) => documented.map((d) => d.expect[b]).join('|'))) {
    if (documented.length === 0 || same.length < 2) continue;
    const where = documented.map((d) => d.path).join(', ');
    rows.push(
      ...differences(
        same,
        canonicalOf(views, false),
        ` (${list(same)} must agree there: the contract treats them alike at ${where})`,
      ),
    );
  }
  return rows.length > 0 ? rows : [{ outcome: [] }];
}

/**
 * Entries of a window the comparison reads of one binding: three blocks (the one before the first differing block, it,
 * and the one after).
 */
const WINDOW_ENTRIES = 3 * ENTRY_BLOCK;

/** A window of entries: those at places [from, to) of the canonical list. */
interface EntryWindow {
  readonly from: number;
  readonly to: number;
}

/**
 * What the comparison reads of each binding's result: a digest of its canonical entries and of its
 * blocks, and the entries themselves only where digests differ, a window of them at a time.
 */
interface Canonical {
  digest(b: BindingId): string;
  blocks(b: BindingId): readonly string[];
  entries(b: BindingId, window: EntryWindow): Entry[];
}

function canonicalOf(views: ReadonlyMap<BindingId, BindingView>, ignoreDocumented: boolean): Canonical {
  return {
    digest: (b) => views.get(b)!.digest(ignoreDocumented),
    blocks: (b) => views.get(b)!.blocks(ignoreDocumented),
    entries: (b, w) => views.get(b)!.entries(ignoreDocumented, w),
  };
}

/**
 * Where to read two results that differ (issue 43): from the block before their first differing
 * block to the block after it. Their entries before it are equal (their blocks' digests are), so
 * the first difference lies in the window; a result of up to two blocks is read whole.
 */
function windowOf(ref: readonly string[], mine: readonly string[]): EntryWindow {
  let j = 0;
  while (j < ref.length && j < mine.length && ref[j] === mine[j]) j++;
  const from = Math.max(0, (j - 1) * ENTRY_BLOCK);
  return { from, to: from + WINDOW_ENTRIES };
}

/** A value quoted in a finding: at most this many characters (entries already hold long values compacted). */
const MAX_QUOTED = 200;

/** A canonical value as a finding (or the comparison of two targets) quotes it; "(absent)" for none. */
export function shown(value: string | undefined): string {
  if (value === undefined) return '(absent)';
  const v = displayValue(value);
  return v.length > MAX_QUOTED ? `${v.slice(0, MAX_QUOTED)}… (${v.length.toLocaleString('en-US')} characters)` : v;
}

/**
 * The value at `path` as a finding quotes it: an element by its content in angle brackets
 * (`<meal id=3 name="Half board">`), any other value as shown().
 */
function describedValue(entries: readonly Entry[], path: string): Described {
  const v = valueIn(entries, path);
  const item = v === ELEMENT ? describeItem(entries, path) : undefined;
  return item !== undefined ? { text: `<${item}>`, item: true } : { text: shown(v), item: false };
}

/** A value as a finding quotes it; an item description is not put in quotes again in the message. */
interface Described {
  readonly text: string;
  readonly item: boolean;
}

/** The value of the entry at `path`, or undefined when there is none. */
export function valueIn(entries: readonly Entry[], path: string): string | undefined {
  return entries.find((x) => x.path === path)?.value;
}

/**
 * Rows for the bindings whose entries depart from the largest group's, each naming the first
 * differing path and every binding's value there. Two bindings that differ (no majority) are named
 * together: nothing says which of them is wrong. Only windows of entries are read (windowOf: at
 * most WINDOW_ENTRIES a binding, whatever the answers' size), each binding's once per window; the
 * values of the others are read one binding at a time.
 */
function differences(accepted: readonly BindingId[], canonical: Canonical, note: string): EquivalenceRow[] {
  // Group by digest: bindings that agree (the usual case) never hold their entries.
  const digests = new Map(accepted.map((b) => [b, canonical.digest(b)]));
  const byValue = groups(accepted, (b) => digests.get(b)!);
  if (byValue.length === 1) return [];
  const reference = byValue[0]!;
  const others = byValue.slice(1);
  const noMajority = others.some((g) => g.length === reference.length);
  const pair = accepted.length === 2;
  const refBlocks = canonical.blocks(reference[0]!);
  const refLabel = `${list(reference)}${noMajority ? '' : ' (majority)'}`;
  const read = new Map<string, Entry[]>();
  const entriesOf = (g: readonly BindingId[], w: EntryWindow): Entry[] => {
    const key = `${g[0]} ${w.from}`;
    let e = read.get(key);
    if (!e) read.set(key, (e = canonical.entries(g[0]!, w)));
    return e;
  };
  // The first difference of each departing group, and its own value there.
  const found = others.map((g) => {
    const w = windowOf(refBlocks, canonical.blocks(g[0]!));
    const ref = entriesOf(reference, w);
    const mine = entriesOf(g, w);
    const path = firstDifferingPath(ref, mine)!;
    return {
      g,
      path,
      w,
      mine: describedValue(mine, path),
      diff: canonicalDiff(refLabel, ref, list(g), mine, w.from),
    };
  });
  // Every binding's value at the path named, read in that difference's window; an element is
  // named by its content (`meal id=3 name="Half board"`), not by the marker its entry holds.
  const valueAt = (b: BindingId, f: (typeof found)[number]): Described =>
    describedValue(entriesOf(byValue.find((x) => x.includes(b))!, f.w), f.path);
  const values = new Map<BindingId, Map<string, Described>>(accepted.map((b) => [b, new Map()]));
  for (const f of found) for (const b of accepted) values.get(b)!.set(f.path, valueAt(b, f));
  return found.map(({ g, path, mine, diff }) => {
    const all = accepted
      .map((b) => {
        const v = values.get(b)!.get(path)!;
        return `${b}=${v.item ? v.text : JSON.stringify(v.text)}`;
      })
      .join(', ');
    const f: Finding = {
      check: EQUIVALENCE_CHECK,
      code: 'value_differs',
      path,
      message:
        `${list(g)} ${g.length > 1 ? 'depart' : 'departs'} `
        + `from ${list(reference)}${noMajority ? ' (no majority: either side may be wrong)' : ''}: `
        + `first difference at ${path}: ${all}${note}`,
      expected: `${list(reference)}: ${values.get(reference[0]!)!.get(path)!.text}`,
      actual: `${list(g)}: ${mine.text}`,
      ...(diff !== undefined ? { diff } : {}),
    };
    return { binding: (pair ? accepted : g).join(','), outcome: [f] };
  });
}

/** Exposed for the compare command and tests: a result's canonical entries with the documented differences ignored. */
export function canonicalResult(op: Operation, ctx: CheckContext): Entry[] | undefined {
  const result = ctx.located().result;
  if (!result) return undefined;
  return canonicalEntries(result, op.resultType, ctx.ns, ignoreOf(op));
}
