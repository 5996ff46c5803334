import { describe, expect, test } from 'vitest';
import { MOCK_STYLES, runAgainstMock, sequencePlan } from '../../test/support/sequences.js';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, type Operation } from '../../src/contract/catalogue.js';
import { SEQUENCE_CHECK } from '../../src/core/rows.js';
import type { Exchange, HttpRequest, RunReport, Target } from '../../src/core/types.js';
import { gatewayPage, startMock, type MockOptions } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { Transport } from '../../src/transport/client.js';
import { planUnits } from '../../src/engine/plan.js';
import { assignShards } from '../../src/engine/shard.js';
import { runPlan } from '../../src/engine/run.js';
import { FAMILIES, SEQUENCE_CASE } from '../../src/sequences/index.js';
import { writeReadFamily } from '../../src/sequences/write-read.js';

const OPS = ['CancelBooking', 'CancelTransferBooking', 'UpdateSpecialRequest', 'GetSpecialRequest'].map(
  (n) => findOperation(n)!,
);
const RACES = ['race-cancel', 'race-cancel-transfer', 'race-write'].map((f) => SEQUENCE_CASE[f]!);

const plan = (url: string, operations: readonly Operation[] = OPS, over: Partial<Target> = {}) =>
  sequencePlan(url, operations, over);
const against = (options: Partial<MockOptions>, operations: readonly Operation[] = OPS) =>
  runAgainstMock(options, operations);

const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const raceRows = (r: RunReport) => r.results.filter((x) => RACES.includes(x.case) && x.check === SEQUENCE_CHECK);

/**
 * A run, again (up to three in all) while a race's calls did not overlap: the mock runs in this
 * process, and on a loaded machine a race's calls may be spaced out (not tested, never failed, and
 * never passed: each run checks it).
 */
async function overlapped(options: Partial<MockOptions>): Promise<RunReport> {
  let r = await against(options);
  for (let k = 0; k < 2 && raceRows(r).some((x) => x.status === 'skipped'); k++) {
    expect(
      raceRows(r)
        .filter((x) => x.status === 'skipped')
        .every((x) => /^not tested: .* did not overlap/.test(x.message)),
    ).toBe(true);
    expect(raceRows(r).filter((x) => x.status === 'passed' && x.message.startsWith('not tested'))).toEqual([]);
    r = await against(options);
  }
  return r;
}

describe('races', () => {
  test.for(MOCK_STYLES)(
    'the mock (%s) is free of races: one cancellation accepted of five at once, one text of four read '
      + 'through every binding',
    async ([, options]) => {
      const r = await overlapped(options as Partial<MockOptions>);
      expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
      const rows = raceRows(r);
      expect(rows.map((x) => `${x.case} ${x.operation} ${x.binding} ${x.status}`).sort()).toEqual(
        [
          ['seq-race-cancel', 'CancelBooking'],
          ['seq-race-cancel-transfer', 'CancelTransferBooking'],
          ['seq-race-write', 'UpdateSpecialRequest'],
        ]
          .flatMap(([c, o]) => BINDINGS.map((b) => `${c} ${o} ${b} passed`))
          .sort(),
      );
      // Five cancellations of one booking, four of them at once through each binding: one accepted, four "already
      // cancelled".
      const raced = r.bookings!.changed.filter((c) => c.case === 'seq-race-cancel' && c.operation === 'CancelBooking');
      expect(raced).toHaveLength(5);
      expect(raced.filter((c) => c.outcome === 'accepted')).toHaveLength(1);
      expect(raced.filter((c) => /already ?cancel/i.test(c.outcome))).toHaveLength(4);
      // How close together they went is said on the rows that held. That they overlapped is said on the rows that held,
      // the same way every run (the spread is said where a race fails or is not tested).
      expect(rows.find((x) => x.case === 'seq-race-cancel')!.message).toMatch(
        /^5 cancellations of booking BK-\d+ at once, all in flight together: 1 accepted, 4 "already cancelled"$/,
      );
      expect(rows.find((x) => x.case === 'seq-race-write')!.message).toMatch(
        /^4 writes of booking \d+ at once, all in flight together: every binding reads the same text, one of those written$/,
      );
    },
  );

  test.for([
    ['cancel-check-then-set', 'CancelBooking', 'race_double_accept'],
    ['transfer-cancel-check-then-set', 'CancelTransferBooking', 'race_double_accept'],
    ['update-torn-on-overlap', 'UpdateSpecialRequest', 'race_torn_write'],
  ] as const)('%s is pinned on %s, every binding named, code %s', async ([fault, operation, code]) => {
    const r = await overlapped({ faults: [fault] });
    // The id-probe sequences (./id-probe.ts) see an unlocked cancellation too, calls in turn within its window both
    // accepted: same operation.
    expect(failed(r).filter((x) => x.operation !== operation)).toEqual([]);
    const rows = failed(r).filter((x) => x.case.startsWith('seq-race-'));
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings[0]?.code}`).sort()).toEqual(
      BINDINGS.map((b) => `${operation} ${b} ${code}`).sort(),
    );
    for (const b of BINDINGS) expect(rows[0]!.message).toContain(b);
    expect(rows[0]!.message).toMatch(/sent within [\d.]+ ms, all in flight together/);
  });

  test(
    "with a remote target's gentle defaults (4 connections, 20 requests per second) the races still "
      + "overlap: the transport lets a race's calls go at once",
    async () => {
      let rows: RunReport['results'] = [];
      // A loaded machine may still space them out (not tested, never failed): up to three runs, each on a mock of its
      // own.
      for (let k = 0; k < 3 && (k === 0 || rows.some((x) => x.status === 'skipped')); k++) {
        const m = await startMock({ port: 0 });
        try {
          const r = await runPlan(plan(m.url, OPS), {
            transport: new Transport({ concurrency: 4, maxRps: 20 }),
            validator: createDocumentValidator(DEFAULT_NAMESPACES),
          });
          expect(failed(r)).toEqual([]);
          rows = raceRows(r);
        } finally {
          await m.close();
        }
      }
      expect(rows.map((x) => `${x.case} ${x.binding} ${x.status}`).sort()).toEqual(
        ['seq-race-cancel', 'seq-race-cancel-transfer', 'seq-race-write']
          .flatMap((c) => BINDINGS.map((b) => `${c} ${b} passed`))
          .sort(),
      );
    },
  );

  test(
    'overlap is judged on when the transport sent each call and read its answer, not on when the run got '
      + 'to each answer',
    async () => {
      // The run gets to each answer some time after the transport read it (other answers' work runs
      // first): here 0 to 24 ms later, call by call. Judged by when the run got to them, the races
      // looked serial (the embedded run's transfer race was "not tested" in 6 runs of 36).
      class LateTransport extends Transport {
        #n = 0;
        override async send(...args: Parameters<Transport['send']>): ReturnType<Transport['send']> {
          const ex = await super.send(...args);
          await new Promise((r) => setTimeout(r, (this.#n++ % 5) * 6));
          return ex;
        }
      }
      const m = await startMock({ port: 0 });
      try {
        const r = await runPlan(plan(m.url), {
          transport: new LateTransport({ concurrency: 8 }),
          validator: createDocumentValidator(DEFAULT_NAMESPACES),
        });
        const rows = raceRows(r);
        expect(rows.length).toBe(RACES.length * BINDINGS.length);
        expect(rows.filter((x) => x.status !== 'passed').map((x) => `${x.case} ${x.binding}: ${x.message}`)).toEqual(
          [],
        );
      } finally {
        await m.close();
      }
    },
  );

  test('calls that do not overlap leave the race not tested, never passed', async () => {
    const m = await startMock({ port: 0 });
    try {
      // One connection: the calls go one after another, the first answered before the last went.
      const one = await runPlan(plan(m.url, [findOperation('CancelBooking')!]), {
        transport: new Transport({ concurrency: 1 }),
        validator: createDocumentValidator(DEFAULT_NAMESPACES),
      });
      const rows = one.results.filter((x) => x.case === 'seq-race-cancel');
      expect(rows.map((x) => x.status)).toEqual(BINDINGS.map(() => 'skipped'));
      expect(rows[0]!.message).toMatch(
        /^not tested: the 5 cancellations of booking BK-\d+ did not overlap .*the target serialises them/,
      );
    } finally {
      await m.close();
    }
  });

  /**
   * A transport through which the service's answer to the first request `hit` picks is replaced by a
   * gateway's 503 page (the request was sent and processed: its outcome is ambiguous, as behind a
   * gateway that drops an answer).
   */
  class GatewayOnce extends Transport {
    #done = false;
    constructor(readonly hit: (req: HttpRequest) => boolean) {
      super({ concurrency: 8 });
    }
    override async send(...args: Parameters<Transport['send']>): ReturnType<Transport['send']> {
      const ex = await super.send(...args);
      if (this.#done || !this.hit(args[0])) return ex;
      this.#done = true;
      return {
        request: ex.request,
        response: { status: 503, headers: { 'content-type': 'text/html' }, body: gatewayPage(503), elapsedMs: 1 },
      } satisfies Exchange;
    }
  }
  const text = (req: HttpRequest) => `${decodeURIComponent(req.url)} ${req.body ?? ''}`;
  const soap12 = (req: HttpRequest) =>
    /application\/soap\+xml/.test(req.headers['content-type'] ?? req.headers['Content-Type'] ?? '');

  test(
    'a write race in which one write got a gateway\'s 503 is not tested, naming that step: never "the '
      + 'target serialises them"',
    async () => {
      const m = await startMock({ port: 0 });
      try {
        const r = await runPlan(plan(m.url), {
          transport: new GatewayOnce((req) => text(req).includes('race-write-through-soap12')),
          validator: createDocumentValidator(DEFAULT_NAMESPACES),
        });
        const rows = r.results.filter((x) => x.case === 'seq-race-write' && x.check === SEQUENCE_CHECK);
        expect(rows.map((x) => x.status)).toEqual(BINDINGS.map(() => 'skipped'));
        expect(rows[0]!.message).toMatch(
          /^not tested: step \d+ \(UpdateSpecialRequest soap12\) got a transient answer \(gateway_503, HTTP 503\): /,
        );
        expect(rows[0]!.message).toContain("the network's doing, not the target's");
        expect(rows.filter((x) => /serialis|did not overlap/.test(x.message))).toEqual([]);
        expect(failed(r)).toEqual([]);
      } finally {
        await m.close();
      }
    },
  );

  test(
    "a cancellation race in which one call got a gateway's 503 is not tested, naming that step, and fails " + 'nothing',
    async () => {
      const m = await startMock({ port: 0 });
      try {
        const p = plan(m.url, [findOperation('CancelBooking')!]);
        const raced = planUnits(p).find((u) => u.caseId === 'seq-race-cancel')!.sequence!.bookings![0]!.id;
        const hit = (req: HttpRequest) => soap12(req) && /CancelBooking/.test(text(req)) && text(req).includes(raced);
        const r = await runPlan(p, {
          transport: new GatewayOnce(hit),
          validator: createDocumentValidator(DEFAULT_NAMESPACES),
        });
        const rows = r.results.filter((x) => x.case === 'seq-race-cancel');
        expect(rows.map((x) => x.status)).toEqual(BINDINGS.map(() => 'skipped'));
        expect(rows[0]!.message).toMatch(
          new RegExp(
            `^not tested: step \\d+ \\(CancelBooking soap12\\) got a transient answer \\(gateway_503, `
              + `HTTP 503\\): .*5 cancellations of booking ${raced}`,
          ),
        );
        expect(rows[0]!.message).not.toMatch(/serialis|did not overlap/);
        expect(failed(r)).toEqual([]);
      } finally {
        await m.close();
      }
    },
  );

  test(
    'a race whose booking no call could cancel (a transfer booking, which has no read, used up by an '
      + 'earlier run) is not tested, never passed',
    async () => {
      const m = await startMock({ port: 0 });
      try {
        const run = () =>
          runPlan(plan(m.url, [findOperation('CancelTransferBooking')!]), {
            transport: new Transport({ concurrency: 8 }),
            validator: createDocumentValidator(DEFAULT_NAMESPACES),
          });
        await run();
        const again = (await run()).results.filter((x) => x.case === 'seq-race-cancel-transfer');
        expect(again.map((x) => x.status)).toEqual(BINDINGS.map(() => 'skipped'));
        expect(again[0]!.message).toMatch(
          /^not tested: (none of the 5 cancellations of transfer booking TR-\S+ was accepted|the 5 cancellations .* did not overlap)/,
        );
      } finally {
        await m.close();
      }
    },
  );

  test("a race takes one booking of its own; the write race none (write-read's, once it has ended)", () => {
    const units = planUnits(plan('http://mock.test'));
    const of = (c: string) => units.find((u) => u.caseId === c)!.sequence!;
    expect(of('seq-race-cancel').bookings).toHaveLength(1);
    expect(of('seq-race-cancel-transfer').bookings).toHaveLength(1);
    expect(of('seq-race-write').after).toBe(writeReadFamily);
    expect(of('seq-race-write').bookings).toEqual(of('seq-write-read').bookings);
  });

  test("a sequence that uses another's bookings again is in that one's shard, whatever the count", () => {
    const p = plan('http://mock.test', [
      ...OPS,
      findOperation('AmendmentPriceRequest')!,
      findOperation('AmendmentRequest')!,
    ]);
    const units = planUnits(p);
    for (const count of [2, 3, 5, 7]) {
      const at = assignShards(p, units, count);
      const shardOf = (family: string) => at[units.findIndex((u) => u.sequence?.family === family)];
      for (const u of units.filter((x) => x.sequence?.after))
        expect(shardOf(u.sequence!.family), `${u.caseId} in ${count}`).toBe(shardOf(u.sequence!.after!.name));
    }
  });
});

describe('the families', () => {
  test(
    'each is listed once, its case id starts "seq-" (replay orders what sequences asked), and one it '
      + 'follows is listed before it',
    () => {
      const names = FAMILIES.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      for (const f of FAMILIES) expect(f.caseId).toMatch(/^seq-/);
      const units = planUnits(
        plan(
          'http://mock.test',
          [
            'CancelBooking',
            'CancelTransferBooking',
            'UpdateSpecialRequest',
            'GetSpecialRequest',
            'AmendmentPriceRequest',
            'AmendmentRequest',
          ].map((n) => findOperation(n)!),
        ),
      );
      // By reference: a family it follows that is not the listed one (left out of the list, or a copy) is dangling.
      const follows = units.filter((x) => x.sequence?.after);
      expect(follows.length).toBeGreaterThan(0);
      for (const u of follows) {
        expect(FAMILIES, `${u.caseId} follows a family not in the list`).toContain(u.sequence!.after!);
        expect(FAMILIES.indexOf(u.sequence!.after!)).toBeLessThan(names.indexOf(u.sequence!.family));
      }
    },
  );
});
