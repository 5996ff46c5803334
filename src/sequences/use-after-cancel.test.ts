import { describe, expect, test } from 'vitest';
import { MOCK_STYLES, runAgainstMock, sequencePlan } from '../../test/support/sequences.js';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, type Operation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { RunReport, Target } from '../core/types.js';
import { startMock, type MockOptions } from '../mock/index.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { Transport } from '../transport/client.js';
import { bookingNeeds, planUnits } from '../engine/plan.js';
import { runPlan } from '../engine/run.js';
import { SEQUENCE_CASE } from './index.js';
import { cancelFamily } from './cancel.js';
import { EMPTY_POOLS } from '../core/booking-pools.js';

const OPS = ['CancelBooking', 'AmendmentPriceRequest', 'AmendmentRequest', 'UpdateSpecialRequest'].map(
  (n) => findOperation(n)!,
);

const plan = (url: string, operations: readonly Operation[] = OPS, over: Partial<Target> = {}) =>
  sequencePlan(url, operations, over);
const against = (options: Partial<MockOptions>, operations: readonly Operation[] = OPS) =>
  runAgainstMock(options, operations);

const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const rowsOf = (r: RunReport) =>
  r.results.filter((x) => x.case === SEQUENCE_CASE['use-after-cancel'] && x.check === SEQUENCE_CHECK);

describe('use after cancel', () => {
  test.for(MOCK_STYLES)(
    "a correct stateful mock (%s) refuses a cancelled booking's price and amendment on every binding: "
      + 'passed, and its special request is recorded',
    async ([, options]) => {
      const r = await against(options as Partial<MockOptions>);
      expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
      const rows = rowsOf(r);
      expect(rows.map((x) => `${x.operation} ${x.binding} ${x.status}`).sort()).toEqual(
        ['AmendmentPriceRequest', 'AmendmentRequest'].flatMap((o) => BINDINGS.map((b) => `${o} ${b} passed`)).sort(),
      );
      // The embedded pools' cancel ids (BK-…) are no xs:int: UpdateSpecialRequest of one cannot be sent, and is said
      // so.
      expect(
        r.bookings!.changed.filter(
          (c) => c.case === SEQUENCE_CASE['use-after-cancel'] && c.operation === 'UpdateSpecialRequest',
        ),
      ).toEqual([]);
      expect(rows[0]!.message).toMatch(
        /^booking BK-\d+ cancelled, then refused; UpdateSpecialRequest of it not sent: its id BK-\d+ is no xs:int/,
      );
    },
  );

  test.for([
    ['post-amends-cancelled-booking', 'AmendmentRequest', 'post'],
    ['soap12-prices-cancelled-booking', 'AmendmentPriceRequest', 'soap12'],
  ] as const)('%s is pinned on %s %s, code use_after_cancel', async ([fault, operation, binding]) => {
    const r = await against({ faults: [fault] });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings[0]?.code}`)).toEqual([
      `${operation} ${binding} use_after_cancel`,
    ]);
    expect(rows[0]!.message).toMatch(
      new RegExp(`^CancelBooking → ${operation} ${binding}: booking BK-\\d+ was cancelled`),
    );
    expect(rows[0]!.steps!.length).toBeGreaterThan(8);
  });

  test(
    'with int booking ids, UpdateSpecialRequest of the cancelled booking is sent through every binding '
      + 'and what each answered recorded, not judged',
    async () => {
      const ids = Array.from({ length: 20 }, (_, i) => String(4410000 + i));
      const m = await startMock({
        port: 0,
        realService: true,
        bookings: { ...EMPTY_POOLS, cancel: ids, specialRequest: ids },
      });
      try {
        const r = await runPlan(
          { ...plan(m.url), bookings: { ...EMPTY_POOLS, cancel: ids } },
          { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
        );
        expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
        const recorded = r.bookings!.changed.filter(
          (c) => c.case === SEQUENCE_CASE['use-after-cancel'] && c.operation === 'UpdateSpecialRequest',
        );
        expect(recorded.map((c) => c.binding)).toEqual([...BINDINGS]);
        expect(rowsOf(r)[0]!.message).toMatch(
          /^booking 44100\d\d cancelled, then refused; UpdateSpecialRequest of it, not judged \(the contract sets no rule\): soap11 \w+/,
        );
      } finally {
        await m.close();
      }
    },
  );

  test("it uses the cancel sequence's bookings again, once that sequence has ended: no booking of its own", async () => {
    const p = plan('http://mock.test');
    const units = planUnits(p);
    const cancel = units.find((u) => u.caseId === SEQUENCE_CASE.cancel)!;
    const after = units.find((u) => u.caseId === SEQUENCE_CASE['use-after-cancel'])!;
    expect(after.sequence!.after).toBe(cancelFamily);
    expect(after.sequence!.bookings).toEqual(cancel.sequence!.bookings);
    const without = bookingNeeds({
      ...p,
      operations: OPS.filter((o) => o.name !== 'AmendmentRequest' && o.name !== 'AmendmentPriceRequest'),
    });
    expect(bookingNeeds(p).cancel).toBe(without.cancel);
    // Without the cancellation, no sequence: it never cancels a booking of its own choosing.
    expect(
      planUnits(
        plan(
          'http://mock.test',
          OPS.filter((o) => o.name !== 'CancelBooking'),
        ),
      ).some((u) => u.caseId === SEQUENCE_CASE['use-after-cancel']),
    ).toBe(false);
  });
});
