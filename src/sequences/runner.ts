/**
 * The one runner every family shares: it numbers each step as it is started, sends it (through the
 * engine's send path), reads its answer (accepted, rejected, already cancelled), records it (the
 * step, the booking it used), and writes the whole sequence as a script of curl commands. A family
 * only says which calls to make and what their answers mean.
 */
import type { Params } from '../bindings/types.js';
import { findOperation, type BindingId, type Operation } from '../contract/catalogue.js';
import { CheckContext, type DocumentValidator } from '../checks/context.js';
import type { Acceptance } from '../equivalence/acceptance.js';
import { inBandError } from '../checks/support.js';
import type { Booking } from '../core/booking-pools.js';
import type { BookingUse, Exchange, SequenceStep, Target } from '../core/types.js';
import { acceptance, ALREADY_CANCELLED } from '../equivalence/acceptance.js';
import { curlCommand, OTHER_PASSWORD_VARIABLE } from '../transport/curl.js';
import { transientOf } from '../transport/transient.js';
import type {
  Account,
  GroupCall,
  OtherLogin,
  Read,
  SequenceFamily,
  SequenceSpec,
  Together,
  SequenceVerdict,
} from './types.js';

/** What the runner needs of the run: the target, the bindings, the validator, the send path, and whom to tell. */
export interface SequenceEnv {
  readonly target: Target;
  readonly bindings: readonly BindingId[];
  readonly validator: DocumentValidator;
  /**
   * Sends one call with the run's credentials and, for a state-changing operation, its booking put
   * in: what was sent, the exchange, and, for a write left without a real answer, why it is ambiguous.
   */
  readonly send: (
    op: Operation,
    binding: BindingId,
    params: Params,
    booking: Booking,
    account: Account,
  ) => Promise<{
    readonly params: Readonly<Record<string, string>>;
    readonly exchange: Exchange;
    readonly ambiguous?: string;
    /**
     * When the call was sent and its answer read whole, by the transport's clock (performance.now()).
     * Without them, the runner takes the moment it gets the answer, less the exchange's time: later
     * than the truth by the work done meanwhile on the answers before it.
     */
    readonly timing?: { readonly sentAt: number; readonly doneAt: number };
  }>;
  /**
   * Lets the next `n` calls go together, past the run's rate and concurrency bounds for that instant
   * (transport/client.ts burst).
   */
  readonly burst?: (n: number) => void;
  /** Told of each answer read, while its tree lives (the run's coverage). */
  readonly onAnswer?: (op: Operation, binding: BindingId, ctx: CheckContext, acc: Acceptance) => void;
  /** Told of each call, in the order started (`record` keeps them so). */
  readonly onStep?: (step: {
    readonly op: Operation;
    readonly binding: BindingId;
    readonly n: number;
    readonly params: Readonly<Record<string, string>>;
    readonly exchange: Exchange;
  }) => void;
  /** Told of every booking a state-changing call was sent with, and what the call did to it. */
  readonly onBooking?: (use: BookingUse) => void;
  /** The second account's login, proven once a run (FamilyRun.otherLogin). */
  readonly otherLogin?: () => Promise<OtherLogin>;
}

/** What a sequence leaves: its verdicts, its steps in order, and the script reproducing them. */
export interface SequenceOutcome {
  readonly verdicts: readonly SequenceVerdict[];
  readonly steps: readonly SequenceStep[];
  readonly script: string;
  /** A step says what was learnt of it later (an ambiguous write read back): every row shows the steps. */
  readonly noted: boolean;
}

/** One call of a sequence, as sent and read. */
interface Sent {
  readonly step: SequenceStep;
  readonly exchange: Exchange;
  readonly account: Account;
}

/**
 * What an answer says, as the comparison of bindings reads acceptance; a rejection's Error says whether it means
 * "already cancelled".
 */
export function readAnswer(
  env: Pick<SequenceEnv, 'target' | 'validator' | 'onAnswer'>,
  op: Operation,
  binding: BindingId,
  caseId: string,
  ex: Exchange,
): Read {
  if (!ex.response) return { kind: 'unknown', how: `no response (${ex.error?.code ?? 'unknown'})` };
  const ctx = new CheckContext({
    op,
    binding,
    caseId,
    caseKind: 'valid',
    namespaces: env.target.namespaces,
    exchange: ex,
    validator: env.validator,
  });
  const acc = acceptance(ctx);
  env.onAnswer?.(op, binding, ctx, acc);
  if (acc.kind === 'unknown') return { kind: 'unknown', how: acc.why };
  if (acc.kind === 'rejected') {
    const result = ctx.located().result;
    const e = result ? inBandError(result, op.resultType, ctx.ns) : undefined;
    const rejectedText = result?.children.find((c) => c.local === 'text')?.text;
    return {
      kind: 'rejected',
      how: acc.how,
      alreadyCancelled: e !== undefined && ALREADY_CANCELLED.test(`${e.type} ${e.message}`),
      ...(e?.message !== undefined ? { errorMessage: e.message } : {}),
      ...(rejectedText ? { rejectedText } : {}),
    };
  }
  const result = ctx.located().result!;
  const text = result.children.find((c) => c.local === 'text')?.text;
  return { kind: 'accepted', how: 'accepted', ...(text !== undefined ? { text } : {}) };
}

/**
 * What came back when the service did not answer an exchange itself: a transient answer (a gateway
 * page, a reset, a time-out: src/transport/transient.ts says which) or no response at all; undefined
 * for the service's own answer, whatever it says.
 */
export function unansweredBy(ex: Pick<Exchange, 'response' | 'error'>): string | undefined {
  const kind = transientOf(ex);
  if (kind) return `a transient answer (${kind}${ex.response ? `, HTTP ${ex.response.status}` : ''})`;
  return ex.response ? undefined : `no response (${ex.error?.code ?? 'unknown'})`;
}

/**
 * The steps among `calls` (with their reads) that got no answer of the service's, each named by its
 * number, operation and binding, and what came back; undefined when every one got the service's answer.
 */
export function unansweredSteps(
  calls: readonly Pick<GroupCall, 'op' | 'binding'>[],
  reads: readonly Read[],
): string | undefined {
  const lost = calls.flatMap((c, k) => {
    const r = reads[k]!;
    return r.unanswered ? [`step ${r.n ?? k + 1} (${c.op.name} ${c.binding}) got ${r.unanswered}`] : [];
  });
  return lost.length ? lost.join('; ') : undefined;
}

/** A text as a step or a finding quotes it: JSON, cut at 120 characters. */
export const q = (s: string | undefined) =>
  s === undefined ? '(no text)' : JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

/** Runs one sequence of a family: its calls as the family makes them, then its verdicts, steps and script. */
export async function runSequence(
  env: SequenceEnv,
  family: SequenceFamily,
  op: Operation,
  caseId: string,
  spec: SequenceSpec,
): Promise<SequenceOutcome> {
  const sent: Sent[] = [];
  // What was learnt of an ambiguous write, said on its step (the state read back).
  const notes = new Map<number, string>();
  const note = (n: number | undefined, text: string) => {
    if (n !== undefined) notes.set(n, text);
  };
  // Steps are numbered as they are started (reads of one phase go out together, in a fixed order).
  let started = 0;
  const call = async (
    stepOp: Operation,
    binding: BindingId,
    params: Params,
    booking: Booking,
    text?: string,
    account: Account = 'own',
  ): Promise<Read> => {
    const n = ++started;
    const {
      params: sentParams,
      exchange,
      ambiguous,
      timing,
    } = await env.send(stepOp, binding, params, booking, account);
    const doneAt = performance.now();
    const timed = !exchange.response
      ? {}
      : timing
        ? { sentAt: timing.sentAt, doneAt: timing.doneAt }
        : { sentAt: doneAt - exchange.response.elapsedMs, doneAt };
    const lost = unansweredBy(exchange);
    const read: Read = ambiguous
      ? {
          kind: 'unknown',
          how: `ambiguous: ${ambiguous}, not re-sent`,
          ambiguous: true,
          n,
          ...(lost ? { unanswered: lost } : {}),
        }
      : { ...readAnswer(env, stepOp, binding, caseId, exchange), n, ...timed, ...(lost ? { unanswered: lost } : {}) };
    const outcome =
      read.kind === 'accepted' && text === undefined && read.text !== undefined ? `read ${q(read.text)}` : read.how;
    const step: SequenceStep = {
      n,
      operation: stepOp.name,
      binding,
      booking: booking.id,
      ...(text !== undefined ? { text } : {}),
      ...(account === 'other' && env.target.other ? { account: env.target.other.user } : {}),
      outcome,
    };
    sent.push({ step, exchange, account });
    env.onStep?.({ op: stepOp, binding, n, params: sentParams, exchange });
    // A probe identifier names no booking of a pool (ProbeBooking): nothing to record as spent.
    if (stepOp.mutates && !('probe' in booking)) {
      env.onBooking?.({
        pool: booking.pool,
        id: booking.id,
        ...(booking.email ? { email: booking.email } : {}),
        operation: stepOp.name,
        binding,
        case: caseId,
        step: n,
        ...(step.account ? { account: step.account } : {}),
        outcome:
          read.kind === 'unknown'
            ? `unknown (${read.how})`
            : read.kind === 'accepted'
              ? 'accepted'
              : `rejected (${read.how})`,
      });
    }
    return read;
  };
  const verdicts = await family.run({
    bindings: env.bindings,
    op,
    caseId,
    spec,
    bookings: spec.bookings ?? [],
    call,
    note,
    together: (calls) => {
      env.burst?.(calls.length);
      return together(call, calls);
    },
    ops: (name) => findOperation(name)!,
    ...(env.otherLogin ? { otherLogin: env.otherLogin } : {}),
  });
  sent.sort((a, b) => a.step.n - b.step.n);
  const steps = sent.map((s) =>
    notes.has(s.step.n) ? { ...s.step, outcome: `${s.step.outcome}; ${notes.get(s.step.n)}` } : s.step,
  );
  return { verdicts, steps, script: reproduceScript(env.target, sent), noted: notes.size > 0 };
}

/**
 * Calls started in one tick (numbered in the order given), and how close together they went: the
 * spread of their send times, and whether the last went before the first answer was in (each send
 * time is its answer's time less the exchange's elapsed time, so a call queued in the transport counts
 * from when it really went).
 */
async function together(
  call: (
    op: GroupCall['op'],
    b: GroupCall['binding'],
    p: GroupCall['params'],
    booking: GroupCall['booking'],
    text?: string,
    account?: Account,
  ) => Promise<Read>,
  calls: readonly GroupCall[],
): Promise<Together> {
  const reads = await Promise.all(calls.map((c) => call(c.op, c.binding, c.params, c.booking, c.text, c.account)));
  const lost = unansweredSteps(calls, reads);
  const unanswered = lost ? { unanswered: lost } : {};
  const sent = reads.map((r) => r.sentAt);
  const done = reads.map((r) => r.doneAt);
  if (sent.some((t) => t === undefined) || done.some((t) => t === undefined))
    return { reads, spreadMs: Number.NaN, overlapped: false, ...unanswered };
  const lastSent = Math.max(...(sent as number[]));
  const spreadMs = Math.round((lastSent - Math.min(...(sent as number[]))) * 1000) / 1000;
  return { reads, spreadMs, overlapped: lastSent < Math.min(...(done as number[])), ...unanswered };
}

/**
 * The whole sequence as a script: each step's curl command, in order, under a comment naming it (each account's
 * password as its variable).
 */
function reproduceScript(target: Target, sent: readonly Sent[]): string {
  return sent
    .map((s) => {
      const other = s.account === 'other' ? target.other : undefined;
      const command = other
        ? curlCommand(
            s.exchange.request,
            other.password,
            other.passwordVariable ?? OTHER_PASSWORD_VARIABLE,
            target.network,
          )
        : curlCommand(s.exchange.request, target.password, target.passwordVariable, target.network);
      return (
        `# ${s.step.n}. ${s.step.operation} ${s.step.binding} `
        + `(booking ${s.step.booking}${other ? `, as ${other.user}` : ''})\n${command}`
      );
    })
    .join('\n');
}
