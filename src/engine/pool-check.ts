/**
 * The pool check (issue 40, section 4): a used pool is the pool's fault, never the target's. Bookings
 * are created by hand, and a pool file is easily given twice (a second run, a pool another job
 * used): its cancellation bookings are then already cancelled, and a call on them, or the read-back
 * of a rejected call sent against one, would blame the target for what an earlier run did.
 *
 * So, before the plan hands bookings out (./plan.ts withBookings), every booking it would take from
 * a pool that has a read without side effects is read once, through one binding (the plan's first:
 * the read is about the booking, not the binding), in the pool's order: AmendmentPriceRequest for
 * `cancel` and `amend`, GetSpecialRequest for `specialRequest`, with the parameters the families read
 * with (the first hand-written case's, else cancel.ts DEFAULT_READ). A booking answered "already
 * cancelled" or "not found" is the pool's: said (console, diagnosis, the report's bookings section,
 * naming the booking and the pool) and not used; the next booking of the pool takes its place, so a
 * pool holding enough live bookings still passes. A pool that runs short leaves calls unsent, and the
 * run ends INCOMPLETE (exit 6) naming the pool and how many more it needs (core/verdict.ts
 * poolShortage), as for a pool given too few. A booking read live is *shown live*: the evidence the
 * read-back of rejected calls needs (src/sequences/unchanged.ts) before it may blame them.
 *
 * Bounded: one read per booking read, at most the plan's need plus the dead ones found, in rounds
 * of what is still missing (so the check costs one round trip when the pool is fresh). Transfer
 * bookings have no read: their first cancellation tells (./run.ts spentUnusable).
 *
 * Not done against the embedded mock: the run starts it with no booking used and every id existing,
 * so its generated pools are live by construction (the read could find nothing; the ~20 reads would
 * cost the embedded run time for no evidence). In a shard (--shard) the bookings are read and the
 * dead ones said, but none is replaced: every shard must hand out the same bookings as the others,
 * which cancel theirs meanwhile.
 */
import { requestFor, serviceUrlOf } from '../bindings/endpoint.js';
import type { Params } from '../bindings/types.js';
import { findOperation, type BindingId, type Operation } from '../contract/catalogue.js';
import { CheckContext, type DocumentValidator } from '../checks/context.js';
import type { Diagnosis, Exchange } from '../core/types.js';
import { POOL_CHECK_CASE } from '../core/rows.js';
import { acceptance, alreadyCancelled, notFound, type Acceptance } from '../equivalence/acceptance.js';
import { DEFAULT_READ } from '../sequences/cancel.js';
import type { Transport } from '../transport/client.js';
import {
  POOL_NAMES,
  poolKey,
  type BookingPools,
  type PoolCheck,
  type PoolName,
  type UnusableBooking,
} from './bookings.js';

export { poolKey, POOL_CHECK_CASE, type PoolCheck, type UnusableBooking };
import { bookingNeeds, retriesFor, skipReason, type RunPlan } from './plan.js';

/** The read that shows a booking of a pool live, or undefined (transfers: none exists). */
function readOf(
  plan: Pick<RunPlan, 'cases'>,
  pool: PoolName,
): { op: string; params: (id: string) => Params } | undefined {
  if (pool === 'cancel' || pool === 'amend') {
    const base = plan.cases.get('AmendmentPriceRequest')?.[0]?.params ?? DEFAULT_READ;
    return { op: 'AmendmentPriceRequest', params: (id) => ({ ...base, bookingID: id }) };
  }
  if (pool === 'specialRequest') {
    const base = plan.cases.get('GetSpecialRequest')?.[0]?.params ?? {};
    return { op: 'GetSpecialRequest', params: (id) => ({ ...base, bookingId: id }) };
  }
  return undefined;
}

/** Whether a run of this plan checks its pools: state-changing calls are sent to a target this run did not start. */
export function checksPools(plan: Pick<RunPlan, 'target' | 'allowMutations' | 'operations' | 'bookings'>): boolean {
  return (
    !plan.target.embedded
    && plan.bookings !== undefined
    && plan.operations.some((o) => o.mutates && !skipReason(plan, o))
  );
}

/** What one read says of a booking: live, dead (why), or neither (why: a transient answer, a refusal). */
type BookingState = { readonly live: true } | { readonly live: false; readonly dead: boolean; readonly how: string };

function bookingStateOf(a: Acceptance): BookingState {
  if (a.kind === 'accepted') return { live: true };
  if (a.kind === 'unknown') return { live: false, dead: false, how: a.why };
  const how = `${a.how}${a.errorMessage ? ` (${JSON.stringify(a.errorMessage.length > 120 ? `${a.errorMessage.slice(0, 120)}…` : a.errorMessage)})` : ''}`;
  if (alreadyCancelled(a)) return { live: false, dead: true, how: `${how}: already cancelled` };
  if (notFound(a)) return { live: false, dead: true, how: `${how}: not found` };
  return { live: false, dead: false, how };
}

/** What the pool check needs of the run. */
export interface PoolCheckDeps {
  readonly transport: Transport;
  readonly validator: DocumentValidator;
  /**
   * Told of each read, in the order sent (`conformance record` keeps them, so a replay answers the run's own pool
   * check).
   */
  readonly onRead?: (read: {
    readonly op: Operation;
    readonly binding: BindingId;
    readonly params: Params;
    readonly exchange: Exchange;
  }) => void;
}

/**
 * Read the bookings the plan would take (./plan.ts bookingNeeds: each once), pool by pool, in order,
 * skipping dead ones, until the plan's needs are met or the pool is exhausted. Returns the plan with
 * the live bookings first in each checked pool (`replace` false: the pools as given) and what was
 * found; the plan unchanged when it checks no pool (checksPools).
 */
export async function checkPools(
  plan: RunPlan,
  deps: PoolCheckDeps,
  replace = true,
): Promise<{ plan: RunPlan; check?: PoolCheck }> {
  if (!checksPools(plan) || plan.bindings.length === 0) return { plan };
  const pools = plan.bookings!;
  const needs = bookingNeeds(plan);
  const binding: BindingId = plan.bindings[0]!;
  const shown = new Set<string>();
  const unusable: UnusableBooking[] = [];
  let reads = 0;
  const checked: Partial<Record<Exclude<PoolName, 'transfers'>, readonly string[]>> = {};
  for (const pool of POOL_NAMES) {
    const read = readOf(plan, pool);
    const need = needs[pool];
    if (!read || need === 0 || pool === 'transfers') continue;
    const op = findOperation(read.op)!;
    const list = pools[pool] as readonly string[];
    const live: string[] = [];
    let next = 0;
    // Rounds of what is still missing: a fresh pool costs one round.
    while (live.length < need && next < list.length && !(replace === false && next >= need)) {
      const round = list.slice(next, next + (replace ? need - live.length : need));
      next += round.length;
      const answers = await Promise.all(
        round.map(async (id) => {
          const params = read.params(id);
          const ex = await deps.transport.send(
            requestFor(plan.target, op, binding, {
              ...params,
              userName: plan.target.user,
              password: plan.target.password,
            }),
            retriesFor(op),
            serviceUrlOf(plan.target, op, binding),
          );
          deps.onRead?.({ op, binding, params, exchange: ex });
          return { id, v: bookingStateOf(acceptanceOf(plan, deps.validator, op.name, binding, ex)) };
        }),
      );
      reads += round.length;
      for (const { id, v } of answers) {
        if (v.live) {
          live.push(id);
          shown.add(poolKey({ pool, id }));
          continue;
        }
        if (v.dead) {
          unusable.push({ pool, id, found: `${op.name} ${binding} before the run answered ${v.how}` });
          continue;
        }
        // Neither shown live nor dead (a refusal, a transient answer): used as given, never counted as evidence.
        live.push(id);
      }
    }
    if (replace) checked[pool as Exclude<PoolName, 'transfers'>] = [...live, ...list.slice(next)];
  }
  const given = Object.fromEntries(POOL_NAMES.map((p) => [p, pools[p].length])) as Record<PoolName, number>;
  const check: PoolCheck = { shown, unusable, reads, given, ...(replace ? {} : { kept: true as const }) };
  const bookings: BookingPools = replace ? { ...pools, ...checked } : pools;
  return { plan: { ...plan, bookings, poolCheck: check }, check };
}

/** An exchange's acceptance, as the comparison of bindings reads it. */
function acceptanceOf(
  plan: RunPlan,
  validator: DocumentValidator,
  opName: string,
  binding: BindingId,
  ex: Exchange,
): Acceptance {
  if (!ex.response) return { kind: 'unknown', why: `no response (${ex.error?.code ?? 'unknown'})` };
  const op = findOperation(opName)!;
  return acceptance(
    new CheckContext({
      op,
      binding,
      caseId: POOL_CHECK_CASE,
      caseKind: 'valid',
      namespaces: plan.target.namespaces,
      exchange: ex,
      validator,
    }),
  );
}

/** The line the console says after the check: how many read, and each booking not used. */
export function poolCheckLine(check: PoolCheck): string {
  const dead = check.unusable.filter((u) => !u.spent);
  const by = POOL_NAMES.map((p) => [p, dead.filter((u) => u.pool === p)] as const).filter(([, us]) => us.length > 0);
  return (
    `conformance: pool check: ${check.reads} booking${check.reads === 1 ? '' : 's'} read before the run`
    + (by.length === 0
      ? ', all live'
      : `; not used (the pool's, not the `
        + `target's): ${by.map(([p, us]) => `\`bookings.${p}\` ${us.map((u) => u.id).join(', ')}`).join('; ')}`
        + (check.kept ? ' (a shard replaces none: every shard hands out the same bookings)' : ''))
  );
}

/**
 * The diagnosis of every unusable pool booking: one per pool, naming each booking, and what showed the first of them.
 */
export function unusableDiagnosis(unusable: readonly UnusableBooking[]): Diagnosis[] {
  return POOL_NAMES.flatMap((pool) => {
    const us = unusable.filter((u) => u.pool === pool);
    if (us.length === 0) return [];
    const spent = us.some((u) => u.spent);
    const named = `${us
      .slice(0, 10)
      .map((u) => u.id)
      .join(', ')}${us.length > 10 ? `, … (${us.length - 10} more: conformance.json bookings.unusable)` : ''}`;
    return [
      {
        level: spent ? ('error' as const) : ('note' as const),
        code: 'pool_booking_unusable',
        message:
          `${us.length} booking${us.length === 1 ? '' : 's'} of `
          + `\`bookings.${pool}\` ${us.length === 1 ? 'is' : 'are'} unusable, the pool's fault, not the `
          + `target's `
          + `(already cancelled by an earlier run, or not on this target): ${named}; ${us[0]!.id}: ${us[0]!.found}`
          + (spent
            ? '; the calls on them are not tested: give fresh bookings in the pool for every run (docs/real-service.md)'
            : '; not used: the next bookings of the pool took their place'),
      },
    ];
  });
}
