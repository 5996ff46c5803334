/**
 * One exchange checked as it arrives (moved whole from ./run.ts): one at a time in the whole process
 * (one document's tree in memory), the event loop given a turn between checks, libxml2 on large
 * documents in a process of its own; its tree dropped once checked, the comparison keeping digests.
 * No check starts after the deadline: what was not run is reported as such.
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { CheckContext } from '../checks/context.js';
import { runBeside, runChecks, runChecksAsync, yieldToLoop } from '../checks/registry.js';
import { secretEchoed } from '../checks/secret-echoed.js';
import { refusalWords } from '../checks/login-rejected.js';
import { SecretWatch } from '../core/secret-watch.js';
import { makeRedactor, swapCase, type Redactor } from '../core/redact.js';
import { EXCHANGE_CHECK, NOT_RUN_CHECK } from '../core/rows.js';
import type { Exchange, ResultRow, Target } from '../core/types.js';
import { acceptance } from '../equivalence/acceptance.js';
import { detachedView, type BindingView } from '../equivalence/binding-view.js';
import { checkBudgetMs } from '../xml/limits.js';
import { MEMO_MAX_CHARS, TextMemo } from '../xml/memo.js';
import { collectGarbage } from '../core/memory.js';
import { curlCommand } from '../transport/curl.js';
import type { EngineDeps } from './deps.js';
import { bindingParams, namedSecretsOf, secretsOf, WRONG_CREDENTIALS_CASE, type RunPlan, type Unit } from './plan.js';
import type { RowMaker, RowBase } from './rows.js';
import { ambiguousWrite } from './transient.js';
import { transientOf } from '../transport/transient.js';
import { coverageOf } from './coverage.js';

const targetRedactors = new WeakMap<Target, Redactor>();
/** The redactor of a run: the one it was given, or one built once per target from its secrets. */
export function redactorOf(plan: RunPlan, deps: EngineDeps): Redactor {
  if (deps.redact) return deps.redact;
  let r = targetRedactors.get(plan.target);
  if (!r) targetRedactors.set(plan.target, (r = makeRedactor(secretsOf(plan.target))));
  return r;
}

const targetWatches = new WeakMap<Target, SecretWatch>();
/**
 * The secrets secret_echoed looks for in every answer (core/secret-watch.ts), gathered once per target from what the
 * redactor gets.
 */
function secretWatchOf(plan: RunPlan): SecretWatch {
  let w = targetWatches.get(plan.target);
  if (!w) targetWatches.set(plan.target, (w = new SecretWatch(namedSecretsOf(plan.target))));
  return w;
}

/**
 * The words of the refusals of each operation × binding a run has seen (the wrong password, the bad
 * requests: src/checks/login-rejected.ts refusalWords), per plan: the login variants, sent after
 * them (stage `read-backs` and later: src/sequences/stages.ts), are compared with them.
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
export function inTurn<T>(f: () => Promise<T>): Promise<T> {
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
    setTimeout(() => c.abort(new Error("the run's deadline passed")), Math.max(0, deadline - Date.now())).unref();
    if (deadlineSignals.size > 16) deadlineSignals.clear();
    deadlineSignals.set(deadline, (s = c.signal));
  }
  return s;
}

export const DEADLINE_PASSED = "the run's deadline passed";

/** What checking one exchange leaves: its rows, and what the comparison of bindings needs (no tree). */
export interface Checked {
  readonly rows: ResultRow[];
  readonly view?: BindingView;
  /** Why the exchange has no view though it has a response (the deadline). */
  readonly unviewed?: string;
  /** What the call did to the booking it was sent with (a state-changing call). */
  readonly bookingOutcome?: string;
}

/** Check one exchange: its rows, and a view for the comparison when `compare` is set. */
export async function checkExchange(
  plan: RunPlan,
  deps: EngineDeps,
  rows: RowMaker,
  unit: Unit,
  b: BindingId,
  ex: Exchange,
  compare: boolean,
): Promise<Checked> {
  const { op } = unit;
  const base: RowBase = {
    op,
    binding: b,
    caseId: unit.caseId,
    reproduce: reproduceCommand(plan, unit, ex),
    exchange: ex,
  };
  if (ex.error?.code === 'not_sent')
    return { rows: [rows.row(base, NOT_RUN_CHECK, { skipped: ex.error.message })], unviewed: ex.error.message };
  // The coverage a run gathers (./coverage.ts), while runPlan runs it; runUnit alone (record, compare) gathers none.
  // A DOCTYPE probe's parameters are not what the wire carries (an entity stands as the user name): not counted.
  const coverage = unit.doctype ? undefined : coverageOf(plan);
  coverage?.request(op, b, bindingParams(unit, b));
  const booked = unit.bookings?.[b] !== undefined;
  deps.tally?.note(op.name, b, ex, op.mutates);
  const transient = transientRow(rows, base, unit, ex);
  if (transient) {
    // Not the service's answer, so not checked; but a secret in it came back all the same (a framework's 500 error page
    // quoting the request).
    const echoed = echoRows(plan, deps, rows, base, unit, ex);
    return {
      ...transient,
      ...(echoed.length ? { rows: [...transient.rows, ...echoed] } : {}),
      ...(booked && transient.ambiguous
        ? { bookingOutcome: `ambiguous (${transient.ambiguous}): not re-sent, its state is unknown` }
        : {}),
    };
  }
  if (ex.error || !ex.response) {
    return {
      rows: [
        rows.row(base, EXCHANGE_CHECK, [
          {
            check: EXCHANGE_CHECK,
            code: 'no_response',
            path: '/',
            message: `no response: ${ex.error?.code}: ${ex.error?.message}`,
          },
        ]),
      ],
      ...(booked ? { bookingOutcome: `no response (${ex.error?.code}): its state is unknown` } : {}),
    };
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
  const init = {
    op,
    binding: b,
    caseId: unit.caseId,
    caseKind: unit.kind,
    namespaces: plan.target.namespaces,
    exchange: ex,
    validator: deps.validator,
    secrets: secretWatchOf(plan),
    ...(refs ? { refusals: refs } : {}),
  };
  const bytes = ex.response.body.length;
  const budgetMs = checkBudgetMs(bytes);
  // In turn: one document at a time, its libxml2 reading (in the validator process when large, the event loop free
  // meanwhile, and the tree built beside it: CheckContext.prepare) and then its checks. Reading the next document while
  // this one is checked was tried: the two processes' garbage collectors then slowed each other down by half; reading
  // small documents ahead in a second process was tried too: no faster end to end (its messages cost the main thread
  // what libxml2 would), so it was taken out again.
  return inTurn(async () => {
    // The turn may come after the deadline (the documents before it took the time): not started then.
    if (passed()) {
      out.push(
        rows.row(base, NOT_RUN_CHECK, { skipped: `not checked: ${DEADLINE_PASSED} before this exchange's turn` }),
      );
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
    const besideStood = await ctx.prepare(
      { budgetMs, ...(deadline !== undefined ? { signal: signalAt(deadline) } : {}) },
      true,
      beside,
    );
    const { runs, notRun } = await runChecksAsync(ctx!, plan.checks, {
      ...(deadline !== undefined ? { deadline } : {}),
      budgetMs,
    });
    for (const r of runs) out.push(rows.row(base, r.check.name, r.outcome, r.ms));
    if (isReference && !passed()) {
      const words = refusalWords(ctx!);
      const list = refusals.get(refKey) ?? [];
      if (!list.includes(words)) refusals.set(refKey, [...list, words]);
    }
    if (notRun.length > 0)
      out.push(rows.row(base, NOT_RUN_CHECK, { skipped: `not run: ${DEADLINE_PASSED} before ${notRun.join(', ')}` }));
    // Acceptance and digests now, while the tree lives; entries later only if digests differ.
    const view =
      compare && !passed()
        ? viewOf(plan, op, b, ctx!, () => new CheckContext(init), besideStood ? early : undefined)
        : undefined;
    const acc = booked || coverage ? (view?.acceptance ?? acceptance(ctx!)) : undefined;
    // Coverage reads the tree now, while it lives: never kept.
    if (coverage && !passed()) coverage.answer(op, b, ctx!, acc!, unit.calls === 'probe');
    const bookingOutcome =
      acc === undefined || !booked
        ? undefined
        : acc.kind === 'accepted'
          ? 'accepted'
          : acc.kind === 'rejected'
            ? `rejected (${acc.how})`
            : `unknown (${acc.why})`;
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

/**
 * secret_echoed's row of an answer the other checks do not judge (a transient one): only when it holds a secret of the
 * run.
 */
function echoRows(
  plan: RunPlan,
  deps: EngineDeps,
  rows: RowMaker,
  base: RowBase,
  unit: Unit,
  ex: Exchange,
): ResultRow[] {
  const check = plan.checks.find((c) => c.name === secretEchoed.name);
  if (!check || !ex.response) return [];
  const ctx = new CheckContext({
    op: unit.op,
    binding: base.binding as BindingId,
    caseId: unit.caseId,
    caseKind: unit.kind,
    namespaces: plan.target.namespaces,
    exchange: ex,
    validator: deps.validator,
    secrets: secretWatchOf(plan),
  });
  return runChecks(ctx, [check])
    .filter((r) => Array.isArray(r.outcome) && r.outcome.length > 0)
    .map((r) => rows.row(base, r.check.name, r.outcome, r.ms));
}

/**
 * The row of an exchange that ended transient (src/transport/transient.ts): a write's outcome is
 * ambiguous (recorded, never re-sent, not judged); a read's transient answer, its retries spent, is
 * a failure the FLAKY pass sends again (./flaky.ts). Not checked either way: it is not the service's answer.
 */
function transientRow(
  rows: RowMaker,
  base: RowBase,
  unit: Unit,
  ex: Exchange,
): (Checked & { ambiguous?: string }) | undefined {
  const kind = transientOf(ex);
  if (!kind) return undefined;
  const what = ex.response
    ? `a transient answer (${kind}, HTTP ${ex.response.status})`
    : `no answer (${kind}: ${ex.error?.message})`;
  const n = ex.retried?.length ?? 0;
  if (unit.op.mutates) {
    const ambiguous = ambiguousWrite(ex)!;
    const row = rows.row(base, EXCHANGE_CHECK, {
      skipped:
        `ambiguous: ${unit.op.name} got ${ambiguous}: whether it took effect is unknown; a write is never `
        + `re-sent blindly, so it is not judged`,
    });
    return {
      rows: [ex.response ? { ...row, ...rows.excerpts(ex) } : row],
      unviewed: `${base.binding}: its ${unit.op.name} is ambiguous (${what})`,
      ambiguous,
    };
  }
  const finding = {
    check: EXCHANGE_CHECK,
    code: 'transient_answer' as const,
    path: '/',
    message:
      `${what}${n ? ` after ${n} retr${n === 1 ? 'y' : 'ies'}` : ''}: not the service's answer (a gateway `
      + `or the network failed); the case is sent again after the run's main pass`,
  };
  return {
    rows: [
      ex.response
        ? rows.exchangeRow({ ...base, exchange: ex }, EXCHANGE_CHECK, [finding])
        : rows.row(base, EXCHANGE_CHECK, [finding]),
    ],
    unviewed: `${base.binding} got ${what}`,
  };
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
function viewOf(
  plan: RunPlan,
  op: Operation,
  b: BindingId,
  ctx: CheckContext,
  reread: () => CheckContext,
  ready?: BindingView,
): BindingView {
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
export function reproduceCommand(plan: RunPlan, unit: Unit, ex: Pick<Exchange, 'request'>): string {
  const { password } = plan.target;
  const sent = unit.params.password;
  // The password, or a login variant made of it (in other case, with characters added or spaces around it, its prefix):
  // the command makes it from the variable (the common case, the password itself, asked first: no case swapped).
  const madeOf =
    sent !== undefined
    && password !== ''
    && (sent.includes(password) || sent === swapCase(password) || (sent !== '' && password.startsWith(sent)));
  return curlCommand(ex.request, madeOf ? password : '', plan.target.passwordVariable, plan.target.network);
}
