/**
 * Sharding: `conformance run --shard i/n` runs the i-th of n deterministic parts of the matrix. The
 * part is made of whole units (one operation × case, sent on every binding), so the binding
 * comparison stays inside one shard; units are dealt greedily by the number of requests they send,
 * in plan order, so the shards are balanced and every job computes the same split from the same
 * plan. A fingerprint of the plan goes into shard.json, so `conformance merge` can refuse shards of
 * different plans and notice a missing one.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import type { Expectation, ResultRow, RunReport } from '../core/types.js';
import { planUnits, type RunPlan, type Unit } from './plan.js';
import { runPlan, type EngineDeps } from './run.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** What `run --shard` writes next to the reports (shard.json), for merge. */
export interface ShardInfo {
  readonly format: typeof SHARD_FORMAT;
  readonly index: number;
  readonly count: number;
  /** sha256 of the plan's bindings, operations and unit keys: equal for every shard of one plan. */
  readonly plan: string;
  /** Units in this shard, and in the whole plan. */
  readonly units: number;
  readonly unitsTotal: number;
}

export const SHARD_FORMAT = 'accommodation-conformance-shard/1';
export const SHARD_FILE = 'shard.json';
const MAX_SHARDS = 1000;

/** Parse "i/n" (1 ≤ i ≤ n ≤ 1000). */
export function parseShard(text: string, what = '--shard'): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`${what} must be i/n, e.g. 1/2 (got ${JSON.stringify(text)})`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS)
    throw new UsageError(`${what}: the shard count must be from 1 to ${MAX_SHARDS} (got ${count})`);
  if (index < 1 || index > count)
    throw new UsageError(`${what}: the shard number must be from 1 to ${count} (got ${index})`);
  return { index, count };
}

export const unitKey = (u: Pick<Unit, 'op' | 'caseId'>): string => `${u.op.name}\u0000${u.caseId}`;

/** Requests a unit sends: its weight. */
function weight(plan: RunPlan, u: Unit): number {
  return plan.bindings.filter((b) => !u.only || u.only.includes(b)).length;
}

/**
 * The shard number (1-based) of every unit, in plan order: each unit goes to the lightest shard so far
 * (ties: the lowest number); a sequence that uses another's bookings again goes with that one, so
 * the two never run at once in two shards.
 */
export function assignShards(plan: RunPlan, units: readonly Unit[], count: number): number[] {
  const load = new Array<number>(count).fill(0);
  const shardOfFamily = new Map<string, number>();
  return units.map((u) => {
    const after = u.sequence?.after === undefined ? undefined : shardOfFamily.get(u.sequence.after.name);
    const at = after ?? lightest();
    load[at]! += weight(plan, u);
    if (u.sequence) shardOfFamily.set(u.sequence.family, at);
    return at + 1;
  });
  function lightest(): number {
    let best = 0;
    for (let i = 1; i < count; i++) if (load[i]! < load[best]!) best = i;
    return best;
  }
}

export function planFingerprint(plan: RunPlan, units: readonly Unit[]): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      bindings: plan.bindings,
      operations: plan.operations.map((o) => o.name),
      units: units.map(unitKey),
    }),
  );
  return h.digest('hex');
}

export interface ShardPlan {
  readonly all: readonly Unit[];
  readonly mine: readonly Unit[];
  readonly info: ShardInfo;
}

export function shardPlan(plan: RunPlan, shard: Shard): ShardPlan {
  const all = planUnits(plan);
  const at = assignShards(plan, all, shard.count);
  const mine = all.filter((_, i) => at[i] === shard.index);
  return {
    all,
    mine,
    info: {
      format: SHARD_FORMAT,
      index: shard.index,
      count: shard.count,
      plan: planFingerprint(plan, all),
      units: mine.length,
      unitsTotal: all.length,
    },
  };
}

/**
 * Whether a shard can judge an expectation stale: it ran every unit the entry is about (the
 * entry's case, or every case of its operation).
 */
export function shardJudge(
  sp: Pick<ShardPlan, 'all' | 'mine'>,
): (e: Expectation, rows: readonly ResultRow[]) => boolean {
  const mine = new Set(sp.mine.map(unitKey));
  return (e, rows) => {
    const about = sp.all.filter((u) => u.op.name === e.operation && (e.case === undefined || u.caseId === e.case));
    return rows.length > 0 && about.length > 0 && about.every((u) => mine.has(unitKey(u)));
  };
}

/** Run the units of one shard and build its report, as runPlan builds a whole run's. */
export function runShard(plan: RunPlan, deps: EngineDeps, sp: ShardPlan): Promise<RunReport> {
  return runPlan(plan, deps, sp.mine);
}
