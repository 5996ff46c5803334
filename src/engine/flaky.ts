/**
 * FLAKY: a failure that does not reproduce. After the run's main pass, each read case that failed is
 * sent again (at most twice; never a write: it would be applied again, never a sequence: its bookings
 * are spent). A case whose failure comes back fails as before; one that passes when sent again is
 * FLAKY: its rows are those of the passing sending, and each failure of the first one stays as a
 * skipped row marked `flaky` with every attempt, shown as a warning and counted apart
 * (summary.flaky). It does not fail the gate.
 */
import { EXCHANGE_CHECK, NOT_RUN_CHECK } from '../core/rows.js';
import type { FlakyAttempt, ResultRow } from '../core/types.js';
import type { Unit } from './plan.js';

/** Sendings of a failed case after the main pass, at most. */
export const FLAKY_RESENDS = 2;
/** Failed cases sent again in one run, at most: a target broken everywhere must not double the run. */
export const FLAKY_MAX_CASES = 60;

/** Whether a unit's failure may be checked by sending its case again. */
export function resendable(u: Unit, rows: readonly ResultRow[]): boolean {
  return !u.sequence && !u.op.mutates && rows.some((r) => r.status === 'failed');
}

/** Whether every failure of a sending is a transient answer (sending it again says more). */
function onlyTransient(rows: readonly ResultRow[]): boolean {
  const failed = rows.filter((r) => r.status === 'failed');
  return (
    failed.length > 0
    && failed.every((r) => r.check === EXCHANGE_CHECK && r.findings.every((f) => f.code === 'transient_answer'))
  );
}

/**
 * Send the failed read cases again (`send` runs one unit; 'same': every answer was byte for byte the
 * one it failed on, so its failure reproduces without being checked again), within `deadline`: returns the rows of
 * each unit, the flaky ones replaced, and how many cases were flaky and how many sent again.
 */
export async function resendFailures(
  units: readonly Unit[],
  perUnit: readonly ResultRow[][],
  send: (u: Unit) => Promise<ResultRow[] | 'same'>,
  opts: { readonly deadline?: number; readonly atOnce?: number; readonly stopped?: () => string | undefined } = {},
): Promise<{ rows: ResultRow[][]; flaky: number; resent: number }> {
  const out = [...perUnit];
  const todo = units
    .map((_, i) => i)
    .filter((i) => resendable(units[i]!, perUnit[i] ?? []))
    .slice(0, FLAKY_MAX_CASES);
  let flaky = 0;
  let next = 0;
  const late = () => (opts.deadline !== undefined && Date.now() >= opts.deadline) || opts.stopped?.() !== undefined;
  await Promise.all(
    Array.from({ length: Math.min(opts.atOnce ?? 4, todo.length) }, async () => {
      while (next < todo.length && !late()) {
        const i = todo[next++]!;
        const first = perUnit[i]!;
        const attempts: FlakyAttempt[] = [{ attempt: 1, status: 'failed', message: failureOf(first) }];
        for (let k = 2; k <= 1 + FLAKY_RESENDS && !late(); k++) {
          const again = await send(units[i]!);
          // The very answers it failed on, byte for byte: the failure reproduces (a transient one is tried once more).
          if (again === 'same') {
            attempts.push({ attempt: k, status: 'failed', message: 'the same answers again, byte for byte' });
            if (onlyTransient(first)) continue;
            break;
          }
          if (passedAll(again)) {
            attempts.push({ attempt: k, status: 'passed', message: 'no check failed' });
            out[i] = [...again, ...first.filter((r) => r.status === 'failed').map((r) => flakyRow(r, attempts))];
            flaky++;
            break;
          }
          if (!again.some((r) => r.status === 'failed')) {
            // Not sent, or not checked: it says nothing either way, and the failure stands.
            attempts.push({ attempt: k, status: 'failed', message: 'not sent again or not checked' });
            break;
          }
          attempts.push({ attempt: k, status: 'failed', message: failureOf(again) });
          // A failure other than a transient answer came back: it reproduces.
          if (!onlyTransient(again)) break;
        }
      }
    }),
  );
  return { rows: out, flaky, resent: Math.min(next, todo.length) };
}

/**
 * A sending that passed: nothing failed, and nothing was left unsent or unchecked (a host given up on, the deadline).
 */
function passedAll(rows: readonly ResultRow[]): boolean {
  return (
    rows.some((r) => r.status === 'passed') && !rows.some((r) => r.status === 'failed' || r.check === NOT_RUN_CHECK)
  );
}

function failureOf(rows: readonly ResultRow[]): string {
  const failed = rows.filter((r) => r.status === 'failed');
  const first = failed[0]!;
  return `${first.binding} ${first.check}: ${first.message.slice(0, 300)}${failed.length > 1 ? ` (+${failed.length - 1} more failed row${failed.length > 2 ? 's' : ''})` : ''}`;
}

/** The first sending's failed row, kept as a skipped FLAKY row with its attempts. */
function flakyRow(r: ResultRow, attempts: readonly FlakyAttempt[]): ResultRow {
  const passed = attempts[attempts.length - 1]!.attempt;
  return {
    ...r,
    status: 'skipped',
    message: `FLAKY: failed, then passed when sent again (attempt ${passed} of ${passed}): ${r.message}`,
    flaky: { attempts: [...attempts] },
  };
}
