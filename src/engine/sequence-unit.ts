/**
 * The engine's side of a sequence unit (src/sequences/): whether it is sent (the mutation policy, its
 * bookings, an interrupt), the send path its runner uses (credentials, its booking put in, never
 * retried when it changes state), and its verdicts as redacted rows. Knows no family by name.
 */
import { requestFor, serviceUrlOf } from '../bindings/endpoint.js';
import { findOperation, type BindingId, type Operation } from '../contract/catalogue.js';
import { NOT_RUN_CHECK, SEQUENCE_CHECK } from '../core/rows.js';
import type { ResultRow } from '../core/types.js';
import { familyOf, runSequence } from '../sequences/index.js';
import { withBooking } from './bookings.js';
import { coverageOf } from './coverage.js';
import { OtherLoginProof } from './other-login.js';
import { ambiguousWrite } from './transient.js';
import type { EngineDeps } from './deps.js';
import { retriesFor, skipReason, type RunPlan, type Unit } from './plan.js';
import { RowMaker } from './rows.js';

/**
 * Runs one sequence unit: its calls in order, then its verdicts as rows (one per binding of each operation it judges).
 */
export async function sequenceUnitRows(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  const spec = unit.sequence!;
  const rows = new RowMaker(deps.redact ?? ((s: string) => s));
  const skipped = skipReason(plan, unit.op) ?? unsentReason(unit) ?? deps.stopped?.();
  if (skipped) return sequenceNotRun(plan, unit, skipped, rows);
  const coverage = coverageOf(plan);
  // The second account's login, proven once a run (runPlan's), or for this unit alone (record, compare).
  const login = plan.target.other ? (deps.otherLogin ?? new OtherLoginProof(plan, deps)) : undefined;
  const { verdicts, steps, script, noted } = await runSequence(
    {
      target: plan.target,
      bindings: plan.bindings,
      validator: deps.validator,
      send: async (op, binding, params, booking, account) => {
        // The second account's calls (foreign-account families) are planned only when it is given.
        const who = account === 'other' ? plan.target.other! : plan.target;
        const withCredentials = { ...params, userName: who.user, password: who.password };
        const sent = op.mutates ? withBooking(op.name, withCredentials, booking) : withCredentials;
        const exchange = await deps.transport.send(
          requestFor(plan.target, op, binding, sent),
          retriesFor(op),
          serviceUrlOf(plan.target, op, plan.bindings[0]!),
        );
        if (exchange.error?.code !== 'not_sent') coverage?.request(op, binding, sent);
        deps.tally?.note(op.name, binding, exchange, op.mutates);
        const ambiguous = op.mutates ? ambiguousWrite(exchange) : undefined;
        const timing = deps.transport.timing(exchange);
        return { params: sent, exchange, ...(ambiguous ? { ambiguous } : {}), ...(timing ? { timing } : {}) };
      },
      // A race's calls go at once, whatever --max-rps and --concurrency (the average rate is kept).
      burst: (n) => deps.transport.burst(n),
      // The run's coverage (./coverage.ts) reads each answer while its tree lives.
      ...(coverage ? { onAnswer: coverage.answer.bind(coverage) } : {}),
      ...(deps.onStep ? { onStep: deps.onStep } : {}),
      ...(deps.onBooking ? { onBooking: deps.onBooking } : {}),
      ...(login ? { otherLogin: () => login.prove() } : {}),
    },
    familyOf(spec.family),
    unit.op,
    unit.caseId,
    spec,
  );
  return verdicts.map((v) => {
    const row = rows.row(
      { op: v.op, binding: v.binding, caseId: unit.caseId, reproduce: v.outcome.length ? script : '' },
      SEQUENCE_CHECK,
      v.skipped ? { skipped: v.skipped } : v.outcome.length === 0 && v.note ? { note: v.note } : v.outcome,
    );
    // A failed row shows every step; so does one of a sequence that met an ambiguous write (the state it read back).
    return row.status === 'failed' || noted
      ? {
          ...row,
          steps: steps.map((s) => ({
            ...s,
            ...(s.text !== undefined ? { text: rows.redact(s.text) } : {}),
            outcome: rows.redact(s.outcome),
          })),
        }
      : row;
  });
}

/** Why a sequence is not sent: a pool had too few bookings for it. */
function unsentReason(unit: Unit): string | undefined {
  return Object.values(unit.unsent ?? {})[0];
}

/** The operations × bindings a family's rows are about: the unit's operation's, and those it also judges. */
function rowKeys(plan: RunPlan, unit: Unit): { op: Operation; binding: BindingId }[] {
  const spec = unit.sequence!;
  const ops = spec.judges
    ? spec.judges.map((n) => findOperation(n)!)
    : [unit.op, ...(familyOf(spec.family).alsoJudges ?? []).map((n) => findOperation(n)!)];
  return ops.flatMap((op) => plan.bindings.map((binding) => ({ op, binding })));
}

/** The rows of a sequence not sent, each saying why. */
export function sequenceNotRun(plan: RunPlan, unit: Unit, why: string, rows: RowMaker): ResultRow[] {
  return rowKeys(plan, unit).map(({ op, binding }) =>
    rows.row({ op, binding, caseId: unit.caseId, reproduce: '' }, NOT_RUN_CHECK, { skipped: why }),
  );
}
