import { describe, expect, test } from 'vitest';
import type { Operation } from '../contract/catalogue.js';
import type { StageName } from '../sequences/index.js';
import { schedule } from './schedule.js';
import type { Unit } from './unit.js';

const op = { name: 'GetLanguages' } as Operation;
const unit = (caseId: string, stage?: StageName, family?: string, after?: string): Unit => ({
  op,
  caseId,
  kind: 'valid',
  params: {},
  ...(stage ? { stage } : {}),
  ...(family ? { sequence: { family, pool: 'cancel', needs: 0, ...(after ? { after } : {}) } } : {}),
});

/** Runs the units, each ending when the test lets it: which have started, and a way to end one. */
function harness(units: readonly Unit[], bounds?: Parameters<typeof schedule>[2]) {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const done = schedule(
    units,
    (u) =>
      new Promise<string>((resolve) => {
        started.push(u.caseId);
        enders.set(u.caseId, () => resolve(u.caseId));
      }),
    bounds,
  );
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    started,
    end: async (id: string) => {
      enders.get(id)!();
      await tick();
      await tick();
    },
    tick,
    done,
  };
}

describe('the one scheduler (engine/schedule.ts)', () => {
  test(
    'a stage starts once every unit of the stages before it has ended; a sequence without a stage runs '
      + 'beside them; one that follows a family waits for it',
    async () => {
      const h = harness([
        unit('read'),
        unit('write', 'writes'),
        unit('seq', undefined, 'cancel'),
        unit('again', 'writes', 'use-after-cancel', 'cancel'),
        unit('back', 'read-backs'),
      ]);
      await h.tick();
      await h.tick();
      expect(h.started.sort()).toEqual(['read', 'seq']);
      await h.end('read');
      expect(h.started).toContain('back');
      expect(h.started).not.toContain('write');
      await h.end('back');
      expect(h.started).toContain('write');
      expect(h.started).not.toContain('again');
      await h.end('seq');
      expect(h.started).toContain('again');
      await h.end('write');
      await h.end('again');
      // Each unit's result keeps its place, whichever ended first.
      expect(await Promise.all(h.done)).toEqual(['read', 'write', 'seq', 'again', 'back']);
    },
  );

  test(
    'bounded by what runs at once, not by a count of units: a sequence weighing one runs beside two cases '
      + 'of four bindings (issue 43)',
    async () => {
      const units = [unit('seq', undefined, 'cancel'), unit('a'), unit('b'), unit('c')];
      const h = harness(units, { capacity: 11, weight: (u) => (u.sequence ? 1 : 4) });
      await h.tick();
      await h.tick();
      // seq (1) + a (4) + b (4) = 9; c (4) would make 13 > 11: it waits for room (12 once seq ends).
      expect(h.started).toEqual(['seq', 'a', 'b']);
      await h.end('seq');
      expect(h.started).not.toContain('c');
      await h.end('a');
      expect(h.started).toContain('c');
    },
  );

  test('a ready unit that does not fit is not overtaken by a later one that would', async () => {
    const units = [unit('big'), unit('wide'), unit('small')];
    const h = harness(units, { capacity: 5, weight: (u) => (u.caseId === 'small' ? 1 : u.caseId === 'wide' ? 4 : 2) });
    await h.tick();
    await h.tick();
    expect(h.started).toEqual(['big']);
    await h.end('big');
    expect(h.started).toEqual(['big', 'wide', 'small']);
  });
});
