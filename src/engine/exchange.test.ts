import { describe, expect, test } from 'vitest';
import { findOperation, type BindingId } from '../contract/catalogue.js';
import type { Exchange, HttpRequest } from '../core/types.js';
import type { Transport } from '../transport/client.js';
import { exchangeUnit } from './exchange.js';
import type { RunPlan, Unit } from './plan.js';
import { testTarget } from '../../test/support/target.js';

const plan: Pick<RunPlan, 'target' | 'bindings' | 'allowMutations'> = {
  target: testTarget({ embedded: true }),
  bindings: ['soap11', 'soap12', 'get', 'post'],
  allowMutations: true,
};

/** A transport whose answers come when the test says: what was sent, in order, and a way to answer the oldest. */
function heldTransport() {
  const sent: HttpRequest[] = [];
  const waiting: (() => void)[] = [];
  const transport = {
    send: (request: HttpRequest) =>
      new Promise<Exchange>((resolve) => {
        sent.push(request);
        waiting.push(() =>
          resolve({ request, response: { status: 200, headers: {}, body: Buffer.from('<a/>'), elapsedMs: 1 } }),
        );
      }),
    release: () => 0,
  } as unknown as Transport;
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    transport,
    sent,
    answer: async () => {
      waiting.shift()!();
      await tick();
    },
    tick,
  };
}

const unit = (serial: boolean): Unit => ({
  op: findOperation('UpdateSpecialRequest')!,
  caseId: 'default',
  kind: 'valid',
  params: { BookingId: '1', SpecialRequest: 'x' },
  ...(serial ? { serial: true } : {}),
});

describe('sending a unit (engine/exchange.ts)', () => {
  test(
    "a serial unit's next call waits for the answer before it, not for that answer's checks; `onAnswered` is told "
      + 'once, when the last answer is in, before the checks are done (issue 43)',
    async () => {
      const t = heldTransport();
      const checks: BindingId[] = [];
      const release: (() => void)[] = [];
      let answered = 0;
      const out = exchangeUnit(
        plan,
        t.transport,
        unit(true),
        (b) =>
          new Promise<BindingId>((resolve) => {
            checks.push(b);
            release.push(() => resolve(b));
          }),
        () => answered++,
      );
      await t.tick();
      // One call at a time: the second is not sent before the first is answered.
      expect(t.sent).toHaveLength(1);
      await t.answer();
      // The first answer is being checked (its check not done), and the second call is on its way.
      expect(checks).toEqual(['soap11']);
      expect(t.sent).toHaveLength(2);
      await t.answer();
      await t.answer();
      expect(answered).toBe(0);
      await t.answer();
      expect(t.sent).toHaveLength(4);
      expect(answered).toBe(1);
      expect(checks).toEqual(['soap11', 'soap12', 'get', 'post']);
      for (const r of release) r();
      const got = await out;
      expect('sent' in got && got.sent.map((s) => s.value)).toEqual(['soap11', 'soap12', 'get', 'post']);
      expect(answered).toBe(1);
    },
  );

  test(
    'a check that throws on a serial unit fails the unit, after its calls are sent, without an unhandled '
      + 'rejection',
    async () => {
      const t = heldTransport();
      const unhandled: unknown[] = [];
      const onUnhandled = (e: unknown) => unhandled.push(e);
      process.on('unhandledRejection', onUnhandled);
      try {
        const out = exchangeUnit(plan, t.transport, unit(true), async (b) => {
          if (b === 'soap11') throw new Error('check failed to run');
          return b;
        });
        const settled = out.then(
          () => 'resolved',
          (e: Error) => e.message,
        );
        for (let i = 0; i < 4; i++) {
          await t.tick();
          await t.answer();
        }
        expect(await settled).toBe('check failed to run');
        expect(t.sent).toHaveLength(4);
        await new Promise((r) => setTimeout(r, 10));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );

  test('a unit sent on every binding at once tells `onAnswered` when its last answer is in', async () => {
    const t = heldTransport();
    let answered = 0;
    const out = exchangeUnit(
      plan,
      t.transport,
      unit(false),
      (b) => b,
      () => answered++,
    );
    await t.tick();
    expect(t.sent).toHaveLength(4);
    await t.answer();
    await t.answer();
    await t.answer();
    expect(answered).toBe(0);
    await t.answer();
    expect(answered).toBe(1);
    await out;
  });
});
