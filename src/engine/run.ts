/**
 * The conformance run: every unit of the plan (./plan.ts) is sent on its bindings through the one
 * send path (./exchange.ts), each exchange is checked as it arrives, the bindings' results are
 * compared, and everything becomes redacted result rows (./rows.ts) and a report.
 *
 * Bounded whatever the target sends: each exchange is checked as it arrives, one at a time in the
 * whole process (one document's tree in memory), with the event loop given a turn between checks
 * and libxml2 on large documents in a process of its own; its tree is dropped once checked, and
 * the comparison of bindings keeps digests (entries are read again only where digests differ). No
 * check starts after the deadline: what was not run is reported as such. Units run a few at a time
 * (about the transport's concurrency in requests), so bodies held wait for their unit's comparison
 * in bounded number.
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { CheckContext, type DocumentValidator } from '../checks/context.js';
import { runBeside, runChecks, runChecksAsync, yieldToLoop } from '../checks/registry.js';
import { secretEchoed } from '../checks/secret-echoed.js';
import { refusalWords } from '../checks/login-rejected.js';
import { SecretWatch } from '../core/secret-watch.js';
import { makeRedactor, REDACTED, redactUserInfo, swapCase, type Redactor } from '../core/redact.js';
import { bindingField, EQUIVALENCE_CHECK, EXCHANGE_CHECK, NOT_RUN_CHECK, NOTHING_TESTED, SEQUENCE_CHECK } from '../core/rows.js';
import { stateRuleOf } from '../contract/state-rules.js';
import type { BookingUse, Diagnosis, Exchange, ResultRow, RunReport, Target } from '../core/types.js';
import { TOOL } from '../core/version.js';
import { acceptance, ALREADY_CANCELLED, NOT_FOUND, compareViews, detachedView, type BindingView, type CallContext } from '../equivalence/compare.js';
import { checkBudgetMs } from '../xml/limits.js';
import { MEMO_MAX_CHARS, TextMemo } from '../xml/memo.js';
import { collectGarbage } from '../core/memory.js';
import { createHash } from 'node:crypto';
import { hasLatencyLimit, latencyGateRows } from './latency-gate.js';
import { curlCommand, networkFlags } from '../transport/curl.js';
import { withNetworkPath } from './network-path.js';
import type { Transport } from '../transport/client.js';
import { diagnoseUnits, preflight, settleWsdlHints, stopDiagnosis, type UnitsDiagnosis } from './diagnose.js';
import { OtherLoginProof } from './other-login.js';
import { exchangeUnit } from './exchange.js';
import { poolOf, POOL_NAMES } from './bookings.js';
import type { EngineDeps } from './deps.js';
import { runSequence, sequenceNotRun } from './sequence-unit.js';
import { bindingParams, bookingNeeds, callbackOf, comparesBindings, DOCTYPE_CHECK, namedSecretsOf, planUnits, secretsOf, WRONG_CREDENTIALS_CASE, sequenceNotes, shownLive, unitRequests, type RunPlan, type Unit } from './plan.js';
import { probePath } from './callback.js';
import { poolKey, unusableDiagnosis, type UnusableBooking } from './pool-check.js';
import { findingsBytes, RowMaker, summarise, type RowBase } from './rows.js';
import { schedule } from './schedule.js';

export { summarise };
import { resendFailures } from './flaky.js';
import { ambiguousWrite, DEFAULT_MAX_TRANSIENT, TransientTally } from './transient.js';
import { transientOf } from '../transport/transient.js';
import { coverageOf, startCoverage } from './coverage.js';

export type { EngineDeps } from './deps.js';

const targetRedactors = new WeakMap<Target, Redactor>();
/** The redactor of a run: the one it was given, or one built once per target from its secrets. */
function redactorOf(plan: RunPlan, deps: EngineDeps): Redactor {
  if (deps.redact) return deps.redact;
  let r = targetRedactors.get(plan.target);
  if (!r) targetRedactors.set(plan.target, (r = makeRedactor(secretsOf(plan.target))));
  return r;
}

const targetWatches = new WeakMap<Target, SecretWatch>();
/** The secrets secret_echoed looks for in every answer (core/secret-watch.ts), gathered once per target from what the redactor gets. */
function secretWatchOf(plan: RunPlan): SecretWatch {
  let w = targetWatches.get(plan.target);
  if (!w) targetWatches.set(plan.target, (w = new SecretWatch(namedSecretsOf(plan.target))));
  return w;
}

/**
 * The words of the refusals of each operation × binding a run has seen (the wrong password, the bad
 * requests: src/checks/login-rejected.ts refusalWords), per plan: the login variants, sent after
 * them (stage 1 and later, ./plan.ts), are compared with them.
 */
const planRefusals = new WeakMap<RunPlan, Map<string, string[]>>();
const REFERENCE_KINDS: ReadonlySet<string> = new Set(['missing-param', 'bad-param']);
function refusalsOf(plan: RunPlan): Map<string, string[]> {
  let m = planRefusals.get(plan);
  if (!m) planRefusals.set(plan, (m = new Map()));
  return m;
}

/** Exchanges are checked one at a time in the whole process: one document's tree in memory at once. */
let checking: Promise<unknown> = Promise.resolve();
function inTurn<T>(f: () => Promise<T>): Promise<T> {
  const turn = checking.then(f);
  checking = turn.catch(() => undefined);
  return turn;
}

const deadlineSignals = new Map<number, AbortSignal>();
/** A signal that aborts at the deadline (one per deadline; its timer never keeps the process alive). */
function signalAt(deadline: number): AbortSignal {
  let s = deadlineSignals.get(deadline);
  if (!s) {
    const c = new AbortController();
    setTimeout(() => c.abort(new Error('the run\'s deadline passed')), Math.max(0, deadline - Date.now())).unref();
    if (deadlineSignals.size > 16) deadlineSignals.clear();
    deadlineSignals.set(deadline, (s = c.signal));
  }
  return s;
}

const DEADLINE_PASSED = 'the run\'s deadline passed';

/** What checking one exchange leaves: its rows, and what the comparison of bindings needs (no tree). */
interface Checked {
  readonly rows: ResultRow[];
  readonly view?: BindingView;
  /** Why the exchange has no view though it has a response (the deadline). */
  readonly unviewed?: string;
  /** What the call did to the booking it was sent with (a state-changing call). */
  readonly bookingOutcome?: string;
}

/** Check one exchange: its rows, and a view for the comparison when `compare` is set. */
async function checkExchange(plan: RunPlan, deps: EngineDeps, rows: RowMaker, unit: Unit, b: BindingId, ex: Exchange, compare: boolean): Promise<Checked> {
  const { op } = unit;
  const base: RowBase = { op, binding: b, caseId: unit.caseId, reproduce: reproduceCommand(plan, unit, ex), exchange: ex };
  if (ex.error?.code === 'not_sent') return { rows: [rows.row(base, NOT_RUN_CHECK, { skipped: ex.error.message })], unviewed: ex.error.message };
  // The coverage a run gathers (./coverage.ts), while runConformance runs it; runUnit alone (record, compare) gathers none.
  // A DOCTYPE probe's parameters are not what the wire carries (an entity stands as the user name): not counted.
  const coverage = unit.doctype ? undefined : coverageOf(plan);
  coverage?.request(op, b, bindingParams(unit, b));
  const booked = unit.bookings?.[b] !== undefined;
  deps.tally?.note(op.name, b, ex, op.mutates);
  const transient = transientRow(rows, base, unit, ex);
  if (transient) {
    // Not the service's answer, so not checked; but a secret in it came back all the same (a framework's 500 error page quoting the request).
    const echoed = echoRows(plan, deps, rows, base, unit, ex);
    return { ...transient, ...(echoed.length ? { rows: [...transient.rows, ...echoed] } : {}),
      ...(booked && transient.ambiguous ? { bookingOutcome: `ambiguous (${transient.ambiguous}): not re-sent, its state is unknown` } : {}) };
  }
  if (ex.error || !ex.response) {
    return { rows: [rows.row(base, EXCHANGE_CHECK, [{ check: EXCHANGE_CHECK, code: 'no_response', path: '/', message: `no response: ${ex.error?.code}: ${ex.error?.message}` }])],
      ...(booked ? { bookingOutcome: `no response (${ex.error?.code}): its state is unknown` } : {}) };
  }
  // Every exchange is recorded once, on its http_exchange row.
  const out: ResultRow[] = [rows.exchangeRow({ ...base, exchange: ex }, EXCHANGE_CHECK, [], ex.response.elapsedMs)];
  const deadline = deps.transport.options.deadline;
  const passed = () => deadline !== undefined && Date.now() >= deadline;
  if (passed()) {
    out.push(rows.row(base, NOT_RUN_CHECK, { skipped: `not checked: ${DEADLINE_PASSED} before this exchange's turn` }));
    return { rows: out, unviewed: DEADLINE_PASSED };
  }
  const refusals = refusalsOf(plan);
  const refKey = `${op.name}\u0000${b}`;
  const isReference = unit.caseId === WRONG_CREDENTIALS_CASE || REFERENCE_KINDS.has(unit.kind);
  const refs = unit.kind === 'login-variant' ? refusals.get(refKey) : undefined;
  const init = { op, binding: b, caseId: unit.caseId, caseKind: unit.kind, namespaces: plan.target.namespaces, exchange: ex, validator: deps.validator,
    secrets: secretWatchOf(plan), ...(refs ? { refusals: refs } : {}) };
  const bytes = ex.response.body.length;
  const budgetMs = checkBudgetMs(bytes);
  // In turn: one document at a time, its libxml2 reading (in the validator process when large,
  // the event loop free meanwhile, and the tree built beside it: CheckContext.prepare) and then its checks. Reading the next document while this one is
  // checked was tried: the two processes' garbage collectors then slowed each other down by half;
  // reading small documents ahead in a second process was tried too: no faster end to end (its
  // messages cost the main thread what libxml2 would), so it was taken out again.
  return inTurn(async () => {
    // The turn may come after the deadline (the documents before it took the time): not started then.
    if (passed()) {
      out.push(rows.row(base, NOT_RUN_CHECK, { skipped: `not checked: ${DEADLINE_PASSED} before this exchange's turn` }));
      return { rows: out, unviewed: DEADLINE_PASSED };
    }
    let ctx: CheckContext | undefined = new CheckContext(init);
    // The comparison's view and the checks' walks need the tree, not libxml2: done while a
    // validator process reads a large document (kept only if that document's tree stands; see
    // CheckContext.prepare), the event loop given a turn between them as between checks.
    let early: BindingView | undefined;
    const beside = async () => {
      if (compare && !passed()) early = detachedView(op, ctx!, () => new CheckContext(init));
      await yieldToLoop();
      if (!passed()) runBeside(ctx!, plan.checks);
    };
    const besideStood = await ctx.prepare({ budgetMs, ...(deadline !== undefined ? { signal: signalAt(deadline) } : {}) }, true, beside);
    const { runs, notRun } = await runChecksAsync(ctx!, plan.checks, { ...(deadline !== undefined ? { deadline } : {}), budgetMs });
    for (const r of runs) out.push(rows.row(base, r.check.name, r.outcome, r.ms));
    if (isReference && !passed()) {
      const words = refusalWords(ctx!);
      const list = refusals.get(refKey) ?? [];
      if (!list.includes(words)) refusals.set(refKey, [...list, words]);
    }
    if (notRun.length > 0) out.push(rows.row(base, NOT_RUN_CHECK, { skipped: `not run: ${DEADLINE_PASSED} before ${notRun.join(', ')}` }));
    // Acceptance and digests now, while the tree lives; entries later only if digests differ.
    const view = compare && !passed() ? viewOf(plan, op, b, ctx!, () => new CheckContext(init), besideStood ? early : undefined) : undefined;
    const acc = booked || coverage ? (view?.acceptance ?? acceptance(ctx!)) : undefined;
    // Coverage reads the tree now, while it lives: never kept.
    if (coverage && !passed()) coverage.answer(op, b, ctx!, acc!, unit.calls === 'probe');
    const bookingOutcome = acc === undefined || !booked ? undefined : acc.kind === 'accepted' ? 'accepted' : acc.kind === 'rejected' ? `rejected (${acc.how})` : `unknown (${acc.why})`;
    ctx = undefined;
    // The tree of a large document is garbage now: collect it before the next one is built, so
    // what the process holds stays one document's worth (V8 would let garbage pile up first).
    if (bytes > LARGE_DOCUMENT) collectGarbage();
    await yieldToLoop();
    const told = bookingOutcome ? { bookingOutcome } : {};
    if (!compare) return { rows: out, ...told };
    return view ? { rows: out, view, ...told } : { rows: out, unviewed: DEADLINE_PASSED, ...told };
  });
}

/** secret_echoed's row of an answer the other checks do not judge (a transient one): only when it holds a secret of the run. */
function echoRows(plan: RunPlan, deps: EngineDeps, rows: RowMaker, base: RowBase, unit: Unit, ex: Exchange): ResultRow[] {
  const check = plan.checks.find((c) => c.name === secretEchoed.name);
  if (!check || !ex.response) return [];
  const ctx = new CheckContext({ op: unit.op, binding: base.binding as BindingId, caseId: unit.caseId, caseKind: unit.kind, namespaces: plan.target.namespaces,
    exchange: ex, validator: deps.validator, secrets: secretWatchOf(plan) });
  return runChecks(ctx, [check]).filter((r) => Array.isArray(r.outcome) && r.outcome.length > 0).map((r) => rows.row(base, r.check.name, r.outcome, r.ms));
}

/**
 * The row of an exchange that ended transient (src/transport/transient.ts): a write's outcome is
 * ambiguous (recorded, never re-sent, not judged); a read's transient answer, its retries spent, is
 * a failure the FLAKY pass sends again (./flaky.ts). Not checked either way: it is not the service's answer.
 */
function transientRow(rows: RowMaker, base: RowBase, unit: Unit, ex: Exchange): (Checked & { ambiguous?: string }) | undefined {
  const kind = transientOf(ex);
  if (!kind) return undefined;
  const what = ex.response ? `a transient answer (${kind}, HTTP ${ex.response.status})` : `no answer (${kind}: ${ex.error?.message})`;
  const n = ex.retried?.length ?? 0;
  if (unit.op.mutates) {
    const ambiguous = ambiguousWrite(ex)!;
    const row = rows.row(base, EXCHANGE_CHECK, { skipped: `ambiguous: ${unit.op.name} got ${ambiguous}: whether it took effect is unknown; a write is never re-sent blindly, so it is not judged` });
    return { rows: [ex.response ? { ...row, ...rows.excerpts(ex) } : row], unviewed: `${base.binding}: its ${unit.op.name} is ambiguous (${what})`, ambiguous };
  }
  const finding = { check: EXCHANGE_CHECK, code: 'transient_answer' as const, path: '/',
    message: `${what}${n ? ` after ${n} retr${n === 1 ? 'y' : 'ies'}` : ''}: not the service's answer (a gateway or the network failed); the case is sent again after the run's main pass` };
  return { rows: [ex.response ? rows.exchangeRow({ ...base, exchange: ex }, EXCHANGE_CHECK, [finding]) : rows.row(base, EXCHANGE_CHECK, [finding])],
    unviewed: `${base.binding} got ${what}` };
}

/** What a run's memo of views may hold, in characters of body text (see TextMemo). */
const VIEW_MEMO_BUDGET = 4 * 1024 * 1024;
const views = new WeakMap<RunPlan, TextMemo<BindingView>>();

/**
 * The comparison's view of an exchange. Its acceptance and digests are a function of the operation,
 * the binding (where the result is), the HTTP status and the decoded body (the namespaces are the
 * run's): an answer received again (a list asked by several cases) is read once. Entries, asked only
 * where digests differ, are read again from the first exchange that had this text (the same text).
 */
function viewOf(plan: RunPlan, op: Operation, b: BindingId, ctx: CheckContext, reread: () => CheckContext, ready?: BindingView): BindingView {
  const text = ctx.decoded().text;
  if (text === undefined) return ready ?? detachedView(op, ctx, reread);
  let memo = views.get(plan);
  if (!memo) views.set(plan, (memo = new TextMemo(MEMO_MAX_CHARS + 256, VIEW_MEMO_BUDGET)));
  return memo.get(`${op.name}\n${b}\n${ctx.response?.status}\n${text}`, () => ready ?? detachedView(op, ctx, reread));
}

/** Bytes from which a document's tree is collected as soon as it is checked. */
const LARGE_DOCUMENT = 1024 * 1024;

/**
 * The command reproducing an exchange: the target's password as its variable wherever the unit sends
 * it (the wrong-user variant too) or sends it in other letter case (the command swaps it); a wrong
 * password is no secret and is shown.
 */
function reproduceCommand(plan: RunPlan, unit: Unit, ex: Pick<Exchange, 'request'>): string {
  const { password } = plan.target;
  const sent = unit.params.password;
  // The password, or a login variant made of it (in other case, with characters added or spaces around it, its prefix): the command makes it from the variable.
  const madeOf = sent !== undefined && password !== '' && (sent === swapCase(password) || sent.includes(password) || (sent !== '' && password.startsWith(sent)));
  return curlCommand(ex.request, madeOf ? password : '', plan.target.passwordVariable, plan.target.network);
}

/** Send one unit on every selected binding and produce its rows, redacted. */
export async function runUnit(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  return (await unitRows(plan, deps, unit)) as ResultRow[];
}

/** What identifies an answer byte for byte: its status and a digest of its body, or its transport error. */
export function answerPrint(ex: Exchange): string {
  return ex.response ? `${ex.response.status} ${createHash('sha1').update(ex.response.body).digest('base64')}` : `error ${ex.error?.code}`;
}

/**
 * Send a failed unit again (./flaky.ts): 'same' when every binding's answer is, byte for byte, the
 * one it failed on (`before`: answerPrint per binding), so the failure reproduces and is not checked
 * again; else its rows, checked as in the main pass.
 */
export async function resendUnit(plan: RunPlan, deps: EngineDeps, unit: Unit, before: ReadonlyMap<string, string> | undefined): Promise<ResultRow[] | 'same'> {
  return unitRows(plan, deps, unit, before);
}

/** No rows: the answers of a re-sent unit were the same bytes again (resendUnit). */
const SAME: Checked = { rows: [] };

async function unitRows(plan: RunPlan, deps: EngineDeps, unit: Unit, before?: ReadonlyMap<string, string>): Promise<ResultRow[] | 'same'> {
  if (unit.sequence) return runSequence(plan, { ...deps, redact: redactorOf(plan, deps) }, unit);
  // What each checked answer's findings hold counts in the transport's body budget until the unit is
  // done (issue 35): large bodies read meanwhile wait for it as for a body.
  const held: (() => void)[] = [];
  try {
    const got = await checkedRows(plan, deps, unit, held, before);
    // A fetch of a DOCTYPE probe's external entity, seen already (the run's end looks again: ./callback.ts).
    if (got !== 'same' && unit.doctype) markFetches(plan, unit, got, new RowMaker(redactorOf(plan, deps)));
    return got;
  } finally {
    for (const release of held) release();
  }
}

/** unitRows of a unit that is not a sequence, each checked answer's findings charged to the body budget (`held`). */
async function checkedRows(plan: RunPlan, deps: EngineDeps, unit: Unit, held: (() => void)[], before?: ReadonlyMap<string, string>): Promise<ResultRow[] | 'same'> {
  const { op } = unit;
  const rows = new RowMaker(redactorOf(plan, deps));
  const bindings = plan.bindings.filter((b) => !unit.only || unit.only.includes(b));
  // Not a DOCTYPE probe nor a login variant (each judged on its own row: plan.ts comparesBindings).
  const compare = comparesBindings(plan, unit);
  // Sent again: every binding's answer is awaited first; the same bytes everywhere are not checked again.
  const same = before ? sameAnswers(unitRequests(plan, unit).length, before) : undefined;
  // Each exchange is checked as soon as it arrives (in turn with every other exchange of the process).
  const outcome = await exchangeUnit(plan, deps.transport, unit, async (b, ex) => {
    if (same) {
      // Every binding's answer must be read before any is decided: while it waits for the others,
      // an answer gives its share of the body budget back (kept in memory, as a unit's answers are
      // until compared), or a unit whose answers together exceed the budget would wait for ever.
      const decided = same.arrive(b, ex);
      const bytes = deps.transport.release(ex);
      if (await decided) return SAME;
      held.push(deps.transport.charge(bytes));
    }
    const c = await checkExchange(plan, deps, rows, unit, b, ex, compare);
    held.push(deps.transport.charge(findingsBytes(c.rows)));
    return c;
  });
  if ('skipped' in outcome) return notRunRows(plan, rows, unit, outcome.skipped);
  const checked = outcome.sent;
  if (checked.length > 0 && checked.every((c) => c.value === SAME)) return 'same';
  const out = checked.flatMap((c) => c.value.rows);
  for (const b of bindings) {
    const c = checked.find((x) => x.binding === b);
    const booking = unit.bookings?.[b];
    if (!c || !booking || c.value.bookingOutcome === undefined) continue;
    deps.onBooking?.({ pool: booking.pool, id: booking.id, ...(booking.email ? { email: booking.email } : {}), operation: op.name, binding: b, case: unit.caseId, outcome: c.value.bookingOutcome });
  }
  if (compare) {
    const views = new Map(checked.flatMap((c) => (c.value.view ? [[c.binding, c.value.view] as const] : [])));
    const late = checked.filter((c) => c.value.unviewed !== undefined);
    // A comparison needs every binding's answer: one not sent (an interrupt, a host given up on) or not
    // checked before the deadline leaves nothing to compare.
    const unsent = late.find((c) => c.exchange.error?.code === 'not_sent');
    // A binding that got only a transient answer, or a write whose outcome is ambiguous: nothing to compare it by.
    const transient = late.find((c) => c.value.unviewed !== DEADLINE_PASSED);
    let compareMs: number | undefined;
    const outcomes = unsent
      ? [{ binding: undefined, outcome: { skipped: `not compared: ${unsent.exchange.error!.message}` } }]
      : transient ? [{ binding: undefined, outcome: { skipped: `not compared: ${transient.value.unviewed}` } }]
      : late.length > 0
        ? [{ binding: undefined, outcome: { skipped: `not compared: ${DEADLINE_PASSED} before ${late.map((c) => c.binding).join(', ')} ${late.length > 1 ? 'were' : 'was'} checked` } }]
        : await inTurn(async () => {
          // Its turn may come after the deadline (issue 43): bindings that differ read their answers
          // again, seconds for large ones, so the comparison keeps the deadline as the checks do.
          const deadline = deps.transport.options.deadline;
          if (deadline !== undefined && Date.now() >= deadline) return [{ binding: undefined, outcome: { skipped: `not compared: ${DEADLINE_PASSED} before the comparison's turn` } }];
          const t0 = performance.now();
          const compared = compareViews(op, unit.kind, bindings, views, callContext(unit, bindings));
          compareMs = Math.round((performance.now() - t0) * 1000) / 1000;
          return compared;
        });
    for (const eq of outcomes) {
      const c = checked.find((x) => x.binding === eq.binding);
      out.push(rows.row({
        op, binding: eq.binding ?? bindingField(bindings), caseId: unit.caseId,
        reproduce: c ? reproduceCommand(plan, unit, c.exchange) : '', ...(c ? { exchange: c.exchange } : {}),
      }, EQUIVALENCE_CHECK, eq.outcome, compareMs));
    }
  }
  if (unit.rejectedBefore) out.push(...rejectedBeforeRows(plan, rows, unit, checked));
  // A failed unit's answers, byte for byte: sent again, the same bytes reproduce its failure without checking them again.
  if (deps.onFailedAnswers && out.some((r) => r.status === 'failed')) deps.onFailedAnswers(unit, new Map(checked.map((c) => [c.binding, answerPrint(c.exchange)])));
  return out;
}

/** What the comparison needs to know of a state-changing unit's calls (./bookings.ts). */
function callContext(unit: Unit, bindings: readonly BindingId[]): CallContext | undefined {
  const rule = stateRuleOf(unit.op.name);
  if (!rule || !unit.calls) return undefined;
  const ids = Object.fromEntries(bindings.map((b) => [b, bindingParams(unit, b)[rule.idParam] ?? '']));
  return {
    calls: unit.calls, ids,
    ...(unit.calls !== 'rejection' && !rule.consumes ? { byValue: rule.byValue } : {}),
    ...(unit.bookings ? { bookings: unit.bookings } : {}),
  };
}

/**
 * CancelTransferBooking's rejected calls went against the first binding's booking of this case: its
 * cancellation now is their read-back. Answered "already cancelled", a rejected call cancelled it,
 * but only if the booking was shown live before them (issue 40: the embedded mock, started by this
 * run). No read of a transfer booking exists, so on another target "already cancelled" or "not
 * found" on its first cancellation is the pool's (an earlier run used it, or it is not there): not
 * tested, never a row against the target (the run says so and is INCOMPLETE: spentUnusable).
 */
function rejectedBeforeRows(plan: RunPlan, rows: RowMaker, unit: Unit, checked: readonly { binding: BindingId; value: Checked }[]): ResultRow[] {
  const first = plan.bindings[0]!;
  const outcome = checked.find((c) => c.binding === first)?.value.bookingOutcome;
  const booking = unit.bookings?.[first];
  if (!booking || outcome === undefined) return [];
  const calls = unit.rejectedBefore!;
  const through = [...new Set(calls.map((c) => c.binding))];
  const kind = booking.pool === 'transfers' ? 'transfer booking' : 'booking';
  // The row is this case's (its re-run sends this case, whose cancellation is the read-back again).
  const base = { op: unit.op, binding: bindingField(through), caseId: unit.caseId, reproduce: '' };
  if (shownLive(plan, booking) === undefined) {
    if (!ALREADY_CANCELLED.test(outcome) && !NOT_FOUND.test(outcome)) return [];
    return [rows.row(base, SEQUENCE_CHECK, { skipped: `not tested: ${kind} ${booking.id} of \`bookings.${booking.pool}\` answered ${outcome} on its first cancellation, through ${first}, `
      + `after ${calls.length} rejected calls: no read of it exists, so it was never shown live, and a booking an earlier run used (or one not on the target) `
      + 'cannot be told from one a rejected call cancelled: the pool\'s, not the target\'s' })];
  }
  if (!ALREADY_CANCELLED.test(outcome)) return [];
  return [rows.row(base, SEQUENCE_CHECK, [{
    check: SEQUENCE_CHECK, code: 'rejected_call_changed_state', path: `/${unit.op.resultElement}/Error`,
    message: `${unit.op.name} of ${kind} ${booking.id} answered ${outcome} through ${first}, `
      + `and the run sent it only ${calls.length} rejected calls before (${calls.map((c) => `${c.caseId} through ${c.binding}`).join(', ')}): a rejected call cancelled it`,
    expected: `${booking.id} cancellable after its rejected calls`, actual: outcome,
  }])];
}

/**
 * The pool bookings found unusable by the calls the run spent on them (issue 40): a booking never
 * shown live (a transfer booking: no read exists) none of whose own calls (the run's account, no
 * rejected call) was accepted, and one of which answered "already cancelled" or "not found". It is
 * the pool's (an earlier run used it, or it is not on the target): its calls are not tested, and the
 * run is INCOMPLETE, naming it. A booking once accepted was live: a later "already cancelled" is the
 * sequences' to judge; so is one a call of ours may have cancelled without its answer reaching us (a
 * write dropped after the target did it: ambiguous, no response).
 */
function spentUnusable(plan: RunPlan, units: readonly Unit[], used: readonly BookingUse[][]): UnusableBooking[] {
  const by = new Map<string, { use: BookingUse; accepted: boolean; dead?: BookingUse; unknown?: boolean }>();
  used.forEach((uses, i) => {
    if (units[i]!.calls === 'rejection') return;
    for (const u of uses) {
      if (u.account !== undefined) continue;
      const booking = { pool: u.pool as UnusableBooking['pool'], id: u.id };
      if (shownLive(plan, booking) !== undefined) continue;
      const k = poolKey(booking);
      const e = by.get(k) ?? { use: u, accepted: false };
      by.set(k, e);
      if (u.outcome === 'accepted') e.accepted = true;
      // A call of ours left without a real answer (a write the network dropped after the target did
      // it) may be what cancelled it: "already cancelled" afterwards is then no evidence against the pool.
      else if (/^(unknown|ambiguous|no response)\b/.test(u.outcome)) e.unknown = true;
      else if (!e.dead && (ALREADY_CANCELLED.test(u.outcome) || NOT_FOUND.test(u.outcome))) e.dead = u;
    }
  });
  return [...by.values()].filter((e) => !e.accepted && !e.unknown && e.dead).map(({ dead: d }) => ({
    pool: d!.pool as UnusableBooking['pool'], id: d!.id, spent: true as const,
    found: `${d!.operation} ${d!.binding} (case ${d!.case}) answered ${d!.outcome} on its first cancellation, no read of it existing`,
  }));
}

/**
 * Whether every binding of a unit sent again got the answer it had, byte for byte: each binding's
 * `arrive` resolves once all have arrived.
 */
function sameAnswers(n: number, before: ReadonlyMap<string, string>): { arrive(b: string, ex: Exchange): Promise<boolean> } {
  let left = n;
  let all = true;
  let done!: (v: boolean) => void;
  const decided = new Promise<boolean>((r) => { done = r; });
  return {
    arrive(b, ex) {
      if (answerPrint(ex) !== before.get(b)) all = false;
      if (--left === 0) done(all);
      return decided;
    },
  };
}

/** The rows of a unit not sent: one not-run row per binding, saying why. */
function notRunRows(plan: RunPlan, rows: RowMaker, unit: Unit, why: string): ResultRow[] {
  if (unit.sequence) return sequenceNotRun(plan, unit, why, rows);
  return unitRequests(plan, unit).map(({ binding, request }) =>
    rows.row({ op: unit.op, binding, caseId: unit.caseId, reproduce: reproduceCommand(plan, unit, { request }) }, NOT_RUN_CHECK, { skipped: why }));
}

/** At most this many re-sends of a unit while shrinking it. */
const SHRINK_ATTEMPTS = 16;

/**
 * Shrink a failing generated unit to a minimal parameter set: each generated value in turn is put
 * back to the first hand-written case's (an optional parameter left out when that case leaves it
 * out), and kept back when the unit still fails one of the checks it failed. Deterministic: the
 * same seed and target give the same minimal set, reported under the unit's case id (stable for
 * the seed); its rows are those of the minimal unit, their reproduce commands its requests, and a
 * failed row names the generated values that the failure needs.
 */
export async function shrinkUnit(plan: RunPlan, deps: EngineDeps, unit: Unit, rows: ResultRow[]): Promise<ResultRow[]> {
  const baseline = unit.baseline;
  // A state-changing call is sent once per booking, never again (as it is never retried): shrinking
  // would re-send it with a booking already consumed.
  if (!baseline || unit.op.mutates) return rows;
  // A transport failure (no response, the deadline) says nothing about the inputs: not shrunk.
  const failing = new Set(rows.filter((r) => r.status === 'failed' && r.check !== EXCHANGE_CHECK && r.check !== NOT_RUN_CHECK).map((r) => r.check));
  if (failing.size === 0) return rows;
  const stillFails = (rs: readonly ResultRow[]) => rs.some((r) => r.status === 'failed' && failing.has(r.check));
  const isCredential = (k: string) => k === 'userName' || k === 'password';
  const keys = [...new Set([...Object.keys(unit.params), ...Object.keys(baseline)])].filter((k) => !isCredential(k) && unit.params[k] !== baseline[k]);
  let current = unit;
  let best = rows;
  // A case no value of which differs from the hand-written one has nothing to shrink: no note.
  if (keys.length === 0) return rows;
  let tried = 0;
  for (const k of keys) {
    if (tried >= SHRINK_ATTEMPTS) break;
    if (deps.transport.options.deadline !== undefined && Date.now() >= deps.transport.options.deadline) break;
    tried++;
    const params: Record<string, string> = { ...current.params };
    if (baseline[k] === undefined) delete params[k]; else params[k] = baseline[k];
    const candidate: Unit = { ...current, params };
    const candidateRows = await runUnit(plan, deps, candidate);
    if (stillFails(candidateRows)) {
      current = candidate;
      best = candidateRows;
    }
  }
  if (tried === 0) return rows;
  const needed = keys.slice(0, tried).filter((k) => current.params[k] !== baseline[k]);
  const untried = keys.slice(tried);
  // What was sent differs from what the case id names: say from which values, to which (issue 31).
  const putBack = keys.slice(0, tried).filter((k) => !needed.includes(k))
    .map((k) => `${k} ${JSON.stringify(unit.params[k] ?? '')} → ${baseline[k] === undefined ? 'left out' : JSON.stringify(baseline[k])}`);
  const note = ` [generated case shrunk: ${needed.length ? `the failure needs ${needed.join(', ')}` : 'the failure needs none of the generated values tried'}; `
    + `${tried - needed.length} of ${keys.length} generated values put back to the first hand-written case's${putBack.length ? ` (sent: ${putBack.join(', ')})` : ''}`
    + `${untried.length ? `; not tried (${tried >= SHRINK_ATTEMPTS ? `at most ${SHRINK_ATTEMPTS} attempts` : 'the deadline passed'}): ${untried.join(', ')}` : ''}]`;
  return best.map((r) => (r.status === 'failed' ? { ...r, message: `${r.message}${note}` } : r));
}

/**
 * The external-entity probes judged on what the harness's listener received (./callback.ts), once
 * every probe was answered and `graceMs` after the last one: a request for a probe's path fails that
 * probe's dtd_refused row (operation, binding) with external_entity_fetched, beside what its answer
 * showed. Without a listener the target reaches, the run says once that a fetch was not observable
 * (a note): the probes were still judged on their refusal.
 */
async function judgeFetches(plan: RunPlan, units: readonly Unit[], perUnit: ResultRow[][], rows: RowMaker, lastProbe: number): Promise<Diagnosis[]> {
  const probes = [...units.entries()].filter(([, u]) => u.doctype?.entity === 'external');
  if (probes.length === 0) return [];
  const cb = callbackOf(plan);
  const listener = cb.listener;
  if (!listener) {
    return [{ level: 'note', code: 'external_fetch_not_observable',
      message: `the external-entity probes (${probes.length}) were judged on their refusal only; whether the target fetched their entity was not observable: ${cb.unobservable ?? 'no listener'}. `
        + 'Give --callback-url URL (CONFORMANCE_CALLBACK_URL, config callbackUrl), a URL at which the target reaches this machine, to see a fetch.' }];
  }
  const wait = lastProbe + cb.graceMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  for (const [i, u] of probes) {
    const got = perUnit[i];
    if (got) markFetches(plan, u, got, rows);
  }
  return [];
}

/**
 * A unit's rows with every fetch of its external entity the listener has had so far on the probe's
 * dtd_refused row of that binding (once: a row that has it keeps it), in place. The fetch a parser
 * makes while reading the request is there as soon as the answer is; the run looks again at its end.
 */
function markFetches(plan: RunPlan, u: Unit, got: ResultRow[], rows: RowMaker): void {
  const cb = plan.callback;
  if (u.doctype?.entity !== 'external' || !cb?.listener) return;
  for (const b of u.only ?? plan.bindings) {
    const probe = u.doctype.probes[b];
    if (probe?.entity !== 'external') continue;
    const path = probePath(cb, u.op.name, b);
    const hits = cb.listener.hitsOf(path);
    const k = got.findIndex((r) => r.check === DOCTYPE_CHECK && r.binding === b);
    const old = k >= 0 ? got[k] : undefined;
    if (hits.length === 0 || old?.findings.some((f) => f.code === 'external_entity_fetched')) continue;
    const h = hits[0]!;
    const fetched = {
      check: DOCTYPE_CHECK, code: 'external_entity_fetched' as const, path: `DOCTYPE/ENTITY ${probe.url}`,
      message: `the target fetched the external entity of this request's DOCTYPE: the harness's listener got ${hits.length} request${hits.length > 1 ? 's' : ''} for ${path} `
        + `(${h.method} from ${h.from}${h.userAgent ? `, User-Agent ${h.userAgent}` : ''}); a SOAP endpoint must refuse a DOCTYPE, never resolve its entities (an attacker's URL reaches any host the target can)`,
      expected: 'no request to the listener', actual: `${h.method} ${path}`,
    };
    const exchangeRow = got.find((r) => r.check === EXCHANGE_CHECK && r.binding === b);
    const row = rows.row({ op: u.op, binding: b, caseId: u.caseId, reproduce: old?.reproduce ?? exchangeRow?.reproduce ?? '' }, DOCTYPE_CHECK,
      [...(old?.status === 'failed' ? old.findings : []), fetched], old?.durationMs);
    const shown = { ...row, ...(exchangeRow?.request ? { request: exchangeRow.request } : {}), ...(exchangeRow?.response ? { response: exchangeRow.response } : {}) };
    if (k >= 0) got[k] = shown; else got.push(shown);
  }
}

/** The report's bookings: each one a call was sent with (bindings in plan order), and the calls no pool had a booking for. */
function bookingsOf(plan: RunPlan, units: readonly Unit[], used: readonly BookingUse[][], unusable: readonly UnusableBooking[]): Pick<RunReport, 'bookings'> {
  if (!units.some((u) => u.bookings !== undefined) && unusable.length === 0) return {};
  const order = (b: string) => plan.bindings.indexOf(b as BindingId);
  // A case's bookings in binding order; a sequence's in the order of its steps.
  const changed = used.flatMap((us) => [...us].sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || order(a.binding) - order(b.binding)));
  const short: Record<string, number> = {};
  for (const u of units) {
    for (const [b, why] of Object.entries(u.unsent ?? {})) {
      if (why === undefined || u.bookings?.[b as BindingId]) continue;
      const pool = poolOf(u.op.name) ?? 'unknown';
      short[pool] = (short[pool] ?? 0) + 1;
    }
  }
  const needed = bookingNeeds(plan);
  // The pools as given (the pool check put their live bookings first, the dead ones out).
  const given = plan.poolCheck?.given ?? (plan.bookings ? Object.fromEntries(POOL_NAMES.map((p) => [p, plan.bookings![p].length])) : undefined);
  return { bookings: { changed, ...(Object.keys(short).length ? { short } : {}), needed, ...(given ? { given } : {}), ...(unusable.length ? { unusable } : {}) } };
}


/** What the preflight says of a host that the watch's judgement says better (and first). */
const PREFLIGHT_TOLD: ReadonlySet<string> = new Set(['host_unreachable', 'plain_http_port', 'tls_closed', 'wsdl_not_found']);

/** Why nothing more is sent, when the transport's watch stopped the run at once (src/transport/watch.ts). */
function stoppedAtOnce(transport: Transport): string | undefined {
  const j = transport.judgement;
  if (!j) return undefined;
  return j.kind === 'refused' ? `the target refused the run (${j.code}: see the diagnosis)` : `the target is down (${j.code}: see the diagnosis)`;
}

/**
 * Run a whole plan and build the (redacted) report; `units` narrows it to some of the plan's units
 * (a shard), the report keeping the plan's bindings and operations.
 */
export async function runConformance(plan: RunPlan, given: EngineDeps, units: readonly Unit[] = planUnits(plan)): Promise<RunReport> {
  const started = Date.now();
  const tally = given.tally ?? new TransientTally();
  const failedAnswers = new Map<Unit, ReadonlyMap<string, string>>();
  // The second account's login: proven before the first family that uses it asks for it, once (./other-login.ts).
  const otherLogin = new OtherLoginProof(plan, { ...given, tally });
  const deps: EngineDeps = { ...given, tally, otherLogin, onFailedAnswers: (u, prints) => { failedAnswers.set(u, prints); } };
  const redact = redactorOf(plan, deps);
  const coverage = startCoverage(plan, redact);
  const before = await preflight(plan, deps.transport);
  let done = 0;
  // What runs at once is bounded by what it holds (./schedule.ts): a case its bindings' answers, kept
  // until compared, a sequence one call at a time; about the transport's concurrency in requests,
  // plus one case's, so the connections stay busy while a case waits for its comparison. Bodies
  // held are bounded so: (concurrency + bindings) × --max-body-bytes.
  const perBinding = Math.max(1, plan.bindings.length);
  const capacity = deps.transport.options.concurrency + perBinding;
  const weight = (u: Unit) => (u.sequence ? 1 : plan.bindings.filter((b) => !u.only || u.only.includes(b)).length);
  // The FLAKY pass's units at once (./flaky.ts): the same bound in cases.
  const atOnce = Math.max(1, Math.ceil(deps.transport.options.concurrency / perBinding) + 1);
  const perUnit: ResultRow[][] = new Array(units.length);
  const used: BookingUse[][] = units.map(() => []);
  // Why the run stopped early (--max-failures, an interrupt): the units after it are not sent.
  let halted: string | undefined;
  const maxFailuresReached = `--max-failures ${plan.maxFailures} reached`;
  let failed = 0;
  let sent = 0;
  // When the last external-entity probe was answered: a fetch is awaited a little after it (./callback.ts).
  let lastExternalProbe = 0;
  await Promise.all(schedule(units, async (u, i) => {
    halted ??= deps.stopped?.() ?? stoppedAtOnce(deps.transport);
    if (halted) {
      perUnit[i] = notRunRows(plan, new RowMaker(redact), u, `not run: ${halted}`);
      return;
    }
    const rows = await runUnit(plan, { ...deps, onBooking: (x) => { used[i]!.push(x); deps.onBooking?.(x); } }, u);
    if (u.doctype?.entity === 'external') lastExternalProbe = Date.now();
    perUnit[i] = u.baseline && rows.some((r) => r.status === 'failed') ? await shrinkUnit(plan, deps, u, rows) : rows;
    sent++;
    // A read left transient is no failure yet: it is sent again after the main pass.
    failed += perUnit[i]!.filter((r) => r.status === 'failed' && !r.findings.every((f) => f.code === 'transient_answer')).length;
    if (plan.maxFailures !== undefined && failed >= plan.maxFailures) halted ??= maxFailuresReached;
    deps.onProgress?.(++done, units.length, `${u.op.name} ${u.caseId}`, failed);
  }, { capacity, weight }));
  halted ??= deps.stopped?.() ?? stoppedAtOnce(deps.transport);
  // FLAKY: the failed read cases sent again, once the main pass is over (./flaky.ts).
  if (!halted) {
    const again = await resendFailures(units, perUnit, (u) => resendUnit(plan, { ...deps, onFailedAnswers: undefined }, u, failedAnswers.get(u)),
      { ...(deps.transport.options.deadline !== undefined ? { deadline: deps.transport.options.deadline } : {}), atOnce, stopped: () => deps.stopped?.() });
    perUnit.splice(0, perUnit.length, ...again.rows);
  }
  // The target refused the run or was down (transport/watch.ts): that is the whole diagnosis, first;
  // what the units would conclude (credentials, paths) is not said. No row fails against an operation
  // for it: before any answer of the target's own, every failure is of answers that are not the
  // service's (a gateway's page); after (a target gone down mid-run), those of the exchanges it left
  // without an answer of its own, the service's findings kept.
  const judged = deps.transport.judgement;
  if (judged) {
    const why = `not judged: ${stoppedAtOnce(deps.transport)}`;
    const answered = deps.transport.answered;
    const notService = (r: ResultRow) => !answered || (r.findings.length > 0 && r.findings.every((f) => f.code === 'transient_answer' || f.code === 'no_response'));
    for (const [i, rs] of perUnit.entries()) {
      if (rs) perUnit[i] = rs.map((r) => (r.status === 'failed' && notService(r) ? { ...r, status: 'skipped', message: `${why} (${r.message})`, findings: [] } : r));
    }
  }
  // The external entities fetched from the harness's listener, judged now, on their probes' rows.
  const fetches = await judgeFetches(plan, units, perUnit, new RowMaker(redact), lastExternalProbe);
  // Pool bookings the run's calls found unusable (a transfer booking has no read): the pool's, not the target's.
  const spent = spentUnusable(plan, units, used);
  const unusable = [...(plan.poolCheck?.unusable ?? []), ...spent];
  const after: UnitsDiagnosis = judged ? { diagnosis: [], rows: [], untested: [], reachedServices: new Set() } : diagnoseUnits(plan, units, perUnit, new Set(spent.map(poolKey)));
  const login = await otherLogin.report(new RowMaker(redact));
  const ran = [...(judged ? [] : before.rows), ...login.rows, ...perUnit.flat(), ...after.rows];
  // The latency gate judges what was answered, last: its rows are about every case of a cell.
  const gated = hasLatencyLimit(plan.latency) ? latencyGateRows({ results: ran, bindings: plan.bindings, operations: plan.operations.map((o) => o.name) }, plan.latency) : [];
  const results = gated.length > 0 ? [...ran, ...gated] : ran;
  const health = tally.summary(plan.maxTransient ?? DEFAULT_MAX_TRANSIENT);
  // That nothing was tested is said first: it explains everything below it; an unhealthy target before the rest.
  const first = (d: Diagnosis) => d.code === NOTHING_TESTED;
  // Its words may quote the gateway's page: redacted as every row is.
  const stop = judged ? [stopDiagnosis(judged, plan.target)].map((d) => ({ ...d, message: redact(d.message) })) : [];
  const preflightSaid = judged ? before.diagnosis.filter((d) => !PREFLIGHT_TOLD.has(d.code ?? '')) : settleWsdlHints(before, after.reachedServices);
  // A refused login of the second account next: it explains the skipped rows of its families and the verdict (core/verdict.ts).
  const diagnosis = [...stop, ...after.diagnosis.filter(first), ...login.diagnosis, ...(health.diagnosis && !judged ? [health.diagnosis] : []), ...preflightSaid,
    ...after.diagnosis.filter((d) => !first(d)),
    // What no sequence could test, and how to enable it (authorization across accounts without a second account).
    ...sequenceNotes(plan),
    // Each pool booking found unusable, named with its pool (./pool-check.ts).
    ...unusableDiagnosis(unusable),
    // A fetch of the external entity that could not be observed (no listener the target reaches).
    ...fetches];
  const t = plan.target;
  const summary = summarise(results);
  // The failed rows counted when the bound was reached differ from the summary's: the cases under way
  // finish, and the preflight and the diagnosis add rows. Say the summary's number, and what it counts.
  if (halted === maxFailuresReached) {
    halted = `${maxFailuresReached} (${summary.failed} failed row${summary.failed === 1 ? '' : 's'} in all, the cases under way when it was reached included)`;
  }
  return {
    tool: { ...TOOL },
    target: {
      bookUrl: redactUserInfo(t.bookUrl), searchUrl: redactUserInfo(t.searchUrl), transfersUrl: redactUserInfo(t.transfersUrl), paths: t.paths, namespaces: t.namespaces,
      user: t.user, password: t.password ? REDACTED : '', embedded: t.embedded,
      // The second account's user name only: its password is a secret of the run (never written), read again from its variable.
      ...(t.other ? { otherUser: t.other.user } : {}),
      ...(networkFlags(t.network).length ? { network: networkFlags(t.network) } : {}),
      ...withNetworkPath(t),
    },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    bindings: plan.bindings,
    operations: plan.operations.map((o) => o.name),
    summary,
    results,
    ...(t.passwordVariable ? { passwordVariable: t.passwordVariable } : {}),
    ...(t.other?.passwordVariable ? { otherPasswordVariable: t.other.passwordVariable } : {}),
    ...(diagnosis.length > 0 ? { diagnosis } : {}),
    ...bookingsOf(plan, units, used, unusable),
    ...(after.untested.length > 0 ? { untested: after.untested } : {}),
    ...(health.transient ? { transient: health.transient } : {}),
    ...(halted ? { incomplete: `${halted}: ${sent} of ${units.length} cases run` } : {}),
    ...(plan.generation && plan.generation.examples > 0
      // The languages too: a re-run command pins them (--languages), so it sends the same values without asking the target.
      ? { generation: { seed: plan.generation.seed, examples: plan.generation.examples, languagesFrom: plan.generation.languagesFrom, languages: plan.generation.languages } } : {}),
    ...(hasLatencyLimit(plan.latency) ? { latencyGate: plan.latency } : {}),
    ...(before.drift ? { drift: before.drift } : {}),
    coverage: coverage.report(plan.minCoverage),
  };
}
