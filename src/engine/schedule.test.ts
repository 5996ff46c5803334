import { describe, expect, test } from 'vitest';
import type { Operation } from '../contract/catalogue.js';
import { familyOf, type StageName } from '../sequences/index.js';
import { schedule } from './schedule.js';
import type { Unit } from './unit.js';

const op = { name: 'GetLanguages' } as Operation;
const unit = (caseId: string, stage?: StageName, family?: string, after?: string, on: Operation = op): Unit => ({
  op: on,
  caseId,
  kind: 'valid',
  params: {},
  ...(stage ? { stage } : {}),
  ...(family ? { sequence: { family, pool: 'cancel', needs: 0, ...(after ? { after: familyOf(after) } : {}) } } : {}),
});
const other = { name: 'SearchHotels' } as Operation;

/** Runs the units, each ending when the test lets it: which have started, and a way to end one. */
function harness(units: readonly Unit[], bounds?: Parameters<typeof schedule>[2]) {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const answerers = new Map<string, () => void>();
  const done = schedule(
    units,
    (u, _i, answered) =>
      new Promise<string>((resolve) => {
        started.push(u.caseId);
        enders.set(u.caseId, () => resolve(u.caseId));
        answerers.set(u.caseId, answered);
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
    /** The unit's answers are all in: only its checks are left. */
    answered: async (id: string) => {
      answerers.get(id)!();
      await tick();
      await tick();
    },
    tick,
    done,
  };
}

describe('the one scheduler (engine/schedule.ts)', () => {
  test(
    'a stage starts once the units of the stages before it that it depends on have ended; a sequence without a '
      + 'stage runs beside them; one that follows a family waits for it',
    async () => {
      const h = harness([
        unit('read'),
        unit('write', 'writes'),
        unit('seq', undefined, 'cancel'),
        unit('again', 'writes', 'use-after-cancel', 'cancel'),
        unit('back', 'read-backs', 'unchanged'),
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

  test(
    'a unit waits for the units it depends on, not for the whole stage before it: a read-back for its '
      + "own operation's reads, a write for every read and read-back sequence, a race for everything (issue 43)",
    async () => {
      const h = harness([
        unit('read', undefined, undefined, undefined, other),
        unit('reference'),
        unit('variant', 'read-backs'),
        unit('other-variant', 'read-backs', undefined, undefined, other),
        unit('read-back', 'read-backs', 'unchanged', undefined, other),
        unit('write', 'writes'),
        unit('race', 'race-cancel', 'race-cancel'),
      ]);
      await h.tick();
      await h.tick();
      expect(h.started.sort()).toEqual(['read', 'reference']);
      // Its operation's reference answered: the login variant starts while another operation's read is still under way.
      await h.end('reference');
      expect(h.started).toContain('variant');
      expect(h.started).not.toContain('other-variant');
      await h.end('read');
      expect(h.started).toContain('other-variant');
      expect(h.started).toContain('read-back');
      // The write waits for the read-back of a booking, not for the login variants.
      expect(h.started).not.toContain('write');
      await h.end('read-back');
      expect(h.started).toContain('write');
      expect(h.started).not.toContain('race');
      await h.end('write');
      await h.end('variant');
      expect(h.started).not.toContain('race');
      await h.end('other-variant');
      expect(h.started).toContain('race');
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

  test(
    'a unit whose answers are all in makes room on the wire for the next ones while it is checked, within `held`; '
      + 'what waits for it still waits for its end (issue 43)',
    async () => {
      const units = [unit('a'), unit('b'), unit('c'), unit('d'), unit('after', 'writes')];
      const h = harness(units, { capacity: 4, held: 4, weight: () => 4 });
      await h.tick();
      await h.tick();
      expect(h.started).toEqual(['a']);
      // a's answers are in: b sends while a waits for its checks.
      await h.answered('a');
      expect(h.started).toEqual(['a', 'b']);
      // b's too, but what is held (a and b: 8) is at its bound (capacity 4 + held 4): c waits for one to end.
      await h.answered('b');
      expect(h.started).toEqual(['a', 'b']);
      // Told twice, a unit counts once.
      await h.answered('a');
      expect(h.started).toEqual(['a', 'b']);
      await h.end('a');
      expect(h.started).toEqual(['a', 'b', 'c']);
      await h.end('b');
      await h.end('c');
      expect(h.started).toEqual(['a', 'b', 'c', 'd']);
      // The write depends on every read: it starts when d has ended, not when its answers are in.
      await h.answered('d');
      expect(h.started).not.toContain('after');
      await h.end('d');
      expect(h.started).toContain('after');
      await h.end('after');
      expect(await Promise.all(h.done)).toEqual(['a', 'b', 'c', 'd', 'after']);
    },
  );

  test('without `held`, a unit whose answers are in keeps its room until it ends (the bound as before)', async () => {
    const h = harness([unit('a'), unit('b')], { capacity: 4, weight: () => 4 });
    await h.tick();
    await h.answered('a');
    expect(h.started).toEqual(['a']);
    await h.end('a');
    expect(h.started).toEqual(['a', 'b']);
    await h.end('b');
  });

  test(
    'within a stage after the first, an external-entity probe starts first: the wait for its fetch passes while the '
      + 'rest runs; the first stage keeps the plan order',
    async () => {
      const external = { entity: 'external' } as Unit['doctype'];
      const probe: Unit = { ...unit('probe', 'writes'), doctype: external };
      const readProbe: Unit = { ...unit('read-probe'), doctype: external };
      const h = harness([unit('r1'), readProbe, unit('w1', 'writes'), probe, unit('w2', 'writes')], {
        capacity: 1,
        weight: () => 1,
      });
      await h.tick();
      await h.tick();
      expect(h.started).toEqual(['r1']);
      await h.end('r1');
      expect(h.started).toEqual(['r1', 'read-probe']);
      await h.end('read-probe');
      expect(h.started).toEqual(['r1', 'read-probe', 'probe']);
      await h.end('probe');
      expect(h.started).toEqual(['r1', 'read-probe', 'probe', 'w1']);
      await h.end('w1');
      await h.end('w2');
      expect(await Promise.all(h.done)).toEqual(['r1', 'read-probe', 'w1', 'probe', 'w2']);
    },
  );
});
