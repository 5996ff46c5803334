/**
 * Binding equivalence: one operation, four ways in, one answer. For one request case, the bindings
 * must agree on acceptance (all answer with data, or all reject) and, where they answer, on the
 * result in canonical form, apart from the differences the contract documents. A documented
 * difference sets apart only bindings the contract expects to differ there: bindings with the same
 * expectation (HTTP GET and HTTP POST both carry activecancellationpolicy's text) must still agree.
 *
 * Its parts: a binding's acceptance (acceptance.ts), what is read of each answer (binding-view.ts),
 * where accepted answers differ by value (differences.ts).
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { CaseKind, CheckContext } from '../checks/context.js';
import type { Finding } from '../core/types.js';
import { EQUIVALENCE_CHECK } from '../core/rows.js';
import type { Entry } from './canonical.js';
import { BINDING_DIFFERENCES } from '../contract/binding-differences.js';
import { alreadyCancelled, notFound, type Acceptance } from './acceptance.js';
import { bindingViewOf, type BindingView } from './binding-view.js';
import {
  bindingList,
  canonicalOf,
  differences,
  groups,
  shown,
  WINDOW_ENTRIES,
  type EquivalenceRow,
} from './differences.js';

/** Compare the bindings of one unit. `contexts` holds the bindings that got a response. */
export function compareBindings(
  op: Operation,
  kind: CaseKind,
  bindings: readonly BindingId[],
  contexts: ReadonlyMap<BindingId, CheckContext>,
): EquivalenceRow[] {
  return compareViews(op, kind, bindings, new Map([...contexts].map(([b, c]) => [b, bindingViewOf(op, c)])));
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
    return [{ outcome: { skipped: `fewer than two bindings answered (${bindingList(answered) || 'none'})` } }];

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
        expected: `${bindingList(major!)}: ${formOf(acc.get(major![0]!)!) === 'in-band' ? 'an in-band Error' : 'a fault or an HTTP error'}`,
        actual: `${bindingList(minority)}: ${minority.map(shownHow).join(', ')}`,
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
        expected: `${bindingList(major!)}: ${shown(major![0]!)}`,
        actual: `${bindingList(minority)}: ${minority.map(shown).join(', ')}`,
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
          expected: `${bindingList(major!)}: ${shown(message(major![0]!))}`,
          actual: `${bindingList(minority)}: ${minority.map((b) => shown(message(b))).join(', ')}`,
        };
        return [{ binding: (tie && inBand.length === 2 ? inBand : minority).join(','), outcome: [f] }];
      }
    }
  }
  if (accepted.length < 2) {
    if (known.length >= 2) return [{ outcome: [] }];
    return [
      { outcome: { skipped: `fewer than two bindings gave a readable result (${bindingList(known) || 'none'})` } },
    ];
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
        ` (${bindingList(same)} must agree there: the contract treats them alike at ${where})`,
      ),
    );
  }
  return rows.length > 0 ? rows : [{ outcome: [] }];
}
