/**
 * A unit sent on its bindings and made into rows (moved whole from ./run.ts): each exchange checked
 * as it arrives (./check-exchange.ts), the bindings' answers compared, the bookings each call changed
 * told; a failed unit sent again (./flaky.ts) is checked again only if its answers differ.
 */
import type { BindingId } from '../contract/catalogue.js';
import { bindingField, EQUIVALENCE_CHECK, NOT_RUN_CHECK } from '../core/rows.js';
import { stateRuleOf } from '../contract/state-rules.js';
import type { Exchange, ResultRow } from '../core/types.js';
import { compareViews, type CallContext } from '../equivalence/compare.js';
import { createHash } from 'node:crypto';
import { exchangeUnit } from './exchange.js';
import type { EngineDeps } from './deps.js';
import { sequenceUnitRows, sequenceNotRun } from './sequence-unit.js';
import { bindingParams, comparesBindings, unitRequests, type RunPlan, type Unit } from './plan.js';
import { findingsBytes, RowMaker } from './rows.js';
import {
  checkExchange,
  DEADLINE_PASSED,
  inTurn,
  redactorOf,
  reproduceCommand,
  type Checked,
} from './check-exchange.js';
import { rejectedBeforeRows } from './rejected-before.js';
import { markFetches } from './fetches.js';

/** Send one unit on every selected binding and produce its rows, redacted. */
export async function runUnit(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  return (await unitRows(plan, deps, unit)) as ResultRow[];
}

/** What identifies an answer byte for byte: its status and a digest of its body, or its transport error. */
export function answerPrint(ex: Exchange): string {
  return ex.response
    ? `${ex.response.status} ${createHash('sha1').update(ex.response.body).digest('base64')}`
    : `error ${ex.error?.code}`;
}

/**
 * Send a failed unit again (./flaky.ts): 'same' when every binding's answer is, byte for byte, the
 * one it failed on (`before`: answerPrint per binding), so the failure reproduces and is not checked
 * again; else its rows, checked as in the main pass.
 */
export async function resendUnit(
  plan: RunPlan,
  deps: EngineDeps,
  unit: Unit,
  before: ReadonlyMap<string, string> | undefined,
): Promise<ResultRow[] | 'same'> {
  return unitRows(plan, deps, unit, before);
}

/** No rows: the answers of a re-sent unit were the same bytes again (resendUnit). */
const SAME: Checked = { rows: [] };

async function unitRows(
  plan: RunPlan,
  deps: EngineDeps,
  unit: Unit,
  before?: ReadonlyMap<string, string>,
): Promise<ResultRow[] | 'same'> {
  if (unit.sequence) return sequenceUnitRows(plan, { ...deps, redact: redactorOf(plan, deps) }, unit);
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
async function checkedRows(
  plan: RunPlan,
  deps: EngineDeps,
  unit: Unit,
  held: (() => void)[],
  before?: ReadonlyMap<string, string>,
): Promise<ResultRow[] | 'same'> {
  const { op } = unit;
  const rows = new RowMaker(redactorOf(plan, deps));
  const bindings = plan.bindings.filter((b) => !unit.only || unit.only.includes(b));
  // Not a DOCTYPE probe nor a login variant (each judged on its own row: plan.ts comparesBindings).
  const compare = comparesBindings(plan, unit);
  // Sent again: every binding's answer is awaited first; the same bytes everywhere are not checked again.
  const same = before ? sameAnswers(unitRequests(plan, unit).length, before) : undefined;
  // Each exchange is checked as soon as it arrives (in turn with every other exchange of the process).
  const outcome = await exchangeUnit(
    plan,
    deps.transport,
    unit,
    async (b, ex) => {
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
    },
    deps.onAnswered,
  );
  if ('skipped' in outcome) return notRunRows(plan, rows, unit, outcome.skipped);
  const checked = outcome.sent;
  if (checked.length > 0 && checked.every((c) => c.value === SAME)) return 'same';
  const out = checked.flatMap((c) => c.value.rows);
  for (const b of bindings) {
    const c = checked.find((x) => x.binding === b);
    const booking = unit.bookings?.[b];
    if (!c || !booking || c.value.bookingOutcome === undefined) continue;
    deps.onBooking?.({
      pool: booking.pool,
      id: booking.id,
      ...(booking.email ? { email: booking.email } : {}),
      operation: op.name,
      binding: b,
      case: unit.caseId,
      outcome: c.value.bookingOutcome,
    });
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
      : transient
        ? [{ binding: undefined, outcome: { skipped: `not compared: ${transient.value.unviewed}` } }]
        : late.length > 0
          ? [
              {
                binding: undefined,
                outcome: {
                  skipped:
                    `not compared: ${DEADLINE_PASSED} `
                    + `before ${late.map((c) => c.binding).join(', ')} ${late.length > 1 ? 'were' : 'was'} `
                    + `checked`,
                },
              },
            ]
          : await inTurn(async () => {
              // Its turn may come after the deadline (issue 43): bindings that differ read their answers
              // again, seconds for large ones, so the comparison keeps the deadline as the checks do.
              const deadline = deps.transport.options.deadline;
              if (deadline !== undefined && Date.now() >= deadline)
                return [
                  {
                    binding: undefined,
                    outcome: { skipped: `not compared: ${DEADLINE_PASSED} before the comparison's turn` },
                  },
                ];
              const t0 = performance.now();
              const compared = compareViews(op, unit.kind, bindings, views, callContext(unit, bindings));
              compareMs = Math.round((performance.now() - t0) * 1000) / 1000;
              return compared;
            });
    for (const eq of outcomes) {
      const c = checked.find((x) => x.binding === eq.binding);
      out.push(
        rows.row(
          {
            op,
            binding: eq.binding ?? bindingField(bindings),
            caseId: unit.caseId,
            reproduce: c ? reproduceCommand(plan, unit, c.exchange) : '',
            ...(c ? { exchange: c.exchange } : {}),
          },
          EQUIVALENCE_CHECK,
          eq.outcome,
          compareMs,
        ),
      );
    }
  }
  if (unit.rejectedBefore) out.push(...rejectedBeforeRows(plan, rows, unit, checked));
  // A failed unit's answers, byte for byte: sent again, the same bytes reproduce its failure without checking them
  // again.
  if (deps.onFailedAnswers && out.some((r) => r.status === 'failed'))
    deps.onFailedAnswers(unit, new Map(checked.map((c) => [c.binding, answerPrint(c.exchange)])));
  return out;
}

/** What the comparison needs to know of a state-changing unit's calls (./bookings.ts). */
function callContext(unit: Unit, bindings: readonly BindingId[]): CallContext | undefined {
  const rule = stateRuleOf(unit.op.name);
  if (!rule || !unit.calls) return undefined;
  const ids = Object.fromEntries(bindings.map((b) => [b, bindingParams(unit, b)[rule.idParam] ?? '']));
  return {
    calls: unit.calls,
    ids,
    ...(unit.calls !== 'rejection' && !rule.consumes ? { byValue: rule.byValue } : {}),
    ...(unit.bookings ? { bookings: unit.bookings } : {}),
  };
}

/**
 * Whether every binding of a unit sent again got the answer it had, byte for byte: each binding's
 * `arrive` resolves once all have arrived.
 */
function sameAnswers(
  n: number,
  before: ReadonlyMap<string, string>,
): { arrive(b: string, ex: Exchange): Promise<boolean> } {
  let left = n;
  let all = true;
  let done!: (v: boolean) => void;
  const decided = new Promise<boolean>((r) => {
    done = r;
  });
  return {
    arrive(b, ex) {
      if (answerPrint(ex) !== before.get(b)) all = false;
      if (--left === 0) done(all);
      return decided;
    },
  };
}

/** The rows of a unit not sent: one not-run row per binding, saying why. */
export function notRunRows(plan: RunPlan, rows: RowMaker, unit: Unit, why: string): ResultRow[] {
  if (unit.sequence) return sequenceNotRun(plan, unit, why, rows);
  return unitRequests(plan, unit).map(({ binding, request }) =>
    rows.row(
      { op: unit.op, binding, caseId: unit.caseId, reproduce: reproduceCommand(plan, unit, { request }) },
      NOT_RUN_CHECK,
      { skipped: why },
    ),
  );
}
