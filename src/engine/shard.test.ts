import { describe, expect, test } from 'vitest';
import { resolveRunSettingsFlags } from './settings.js';
import { UsageError } from '../core/errors.js';
import type { ResultRow } from '../core/types.js';
import { DEFAULT_PATHS } from '../contract/catalogue.js';
import { planUnits, type RunPlan } from './plan.js';
import { assignShards, parseShard, shardJudge, shardPlan, unitKey } from './shard.js';

const s = resolveRunSettingsFlags({}, {});
const plan: RunPlan = {
  target: {
    bookUrl: 'http://m',
    searchUrl: 'http://m',
    transfersUrl: 'http://m',
    paths: DEFAULT_PATHS,
    namespaces: s.namespaces,
    user: 'u',
    password: 'p',
    embedded: true,
  },
  bindings: s.bindings,
  operations: s.operations,
  cases: s.cases,
  allowMutations: false,
  checks: [],
  negative: true,
  equivalence: true,
};

describe('parseShard', () => {
  test('i/n with 1 ≤ i ≤ n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3', '-1/2', ''])
      expect(() => parseShard(bad), bad).toThrow(UsageError);
  });
});

describe('sharding', () => {
  const all = planUnits(plan);
  test.for([1, 2, 3, 7])(
    '%i shards: every unit in exactly one, the same split every time, balanced by requests',
    (n) => {
      const parts = Array.from({ length: n }, (_, i) => shardPlan(plan, { index: i + 1, count: n }));
      const keys = parts.flatMap((p) => p.mine.map(unitKey));
      expect(keys.sort()).toEqual(all.map(unitKey).sort());
      expect(new Set(keys).size).toBe(all.length);
      expect(assignShards(plan, all, n)).toEqual(assignShards(plan, all, n));
      const load = parts.map((p) => p.mine.reduce((a, u) => a + (u.only ? u.only.length : plan.bindings.length), 0));
      expect(Math.max(...load) - Math.min(...load)).toBeLessThanOrEqual(plan.bindings.length);
      expect(new Set(parts.map((p) => p.info.plan)).size).toBe(1);
      expect(parts.map((p) => p.info.units).reduce((a, b) => a + b, 0)).toBe(all.length);
    },
  );

  test('a unit keeps all its bindings together (equivalence stays in one shard)', () => {
    const sp = shardPlan(plan, { index: 1, count: 2 });
    for (const u of sp.mine)
      expect(u.only ?? plan.bindings).toEqual(all.find((x) => unitKey(x) === unitKey(u))!.only ?? plan.bindings);
  });

  test('another plan has another fingerprint', () => {
    const a = shardPlan(plan, { index: 1, count: 2 }).info.plan;
    const b = shardPlan({ ...plan, bindings: ['soap11'] }, { index: 1, count: 2 }).info.plan;
    expect(a).not.toBe(b);
  });

  test('a shard judges an expectation only when it ran every case the entry covers', () => {
    const sp = shardPlan(plan, { index: 1, count: 2 });
    const judge = shardJudge(sp);
    const rows = [{ operation: 'GetMeals' } as ResultRow];
    const mealsHere = sp.mine.filter((u) => u.op.name === 'GetMeals').map((u) => u.caseId);
    const mealsAll = all.filter((u) => u.op.name === 'GetMeals').map((u) => u.caseId);
    expect(mealsHere.length).toBeGreaterThan(0);
    expect(mealsHere.length).toBeLessThan(mealsAll.length);
    expect(judge({ operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' }, rows)).toBe(false);
    expect(
      judge({ operation: 'GetMeals', binding: 'get', check: 'shape', case: mealsHere[0]!, reason: 'r' }, rows),
    ).toBe(true);
    const elsewhere = mealsAll.find((c) => !mealsHere.includes(c))!;
    expect(judge({ operation: 'GetMeals', binding: 'get', check: 'shape', case: elsewhere, reason: 'r' }, rows)).toBe(
      false,
    );
    expect(
      shardJudge(shardPlan(plan, { index: 1, count: 1 }))(
        { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' },
        rows,
      ),
    ).toBe(true);
  });
});
