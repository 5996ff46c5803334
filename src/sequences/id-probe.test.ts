import { stageRank } from './stages.js';
import { describe, expect, test } from 'vitest';
import { BOOKING_MODES } from '../../test/support/sequences.js';
import { BINDINGS, findOperation, type BindingId } from '../contract/catalogue.js';
import type { RunReport } from '../core/types.js';
import type { MockOptions } from '../mock/index.js';
import { DEFAULT_EXAMPLES, DEFAULT_SEED, FIXED_LANGUAGES } from '../engine/generate.js';
import { mockBookings } from '../engine/bookings.js';
import { loadFixtureCases } from '../engine/cases.js';
import { planUnits } from '../engine/plan.js';
import { sequencePlan } from '../../test/support/sequences.js';
import { idProbeFamily } from './id-probe.js';
import type { Call, FamilyRun, IdProbe, Read } from './types.js';

const CANCELS = ['CancelBooking', 'CancelTransferBooking'].map((n) => findOperation(n)!);
const generation = {
  seed: DEFAULT_SEED,
  examples: DEFAULT_EXAMPLES,
  languages: FIXED_LANGUAGES,
  languagesFrom: 'the fixed list (test)',
};
const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const shown = (r: RunReport) => failed(r).map((x) => `${x.operation} ${x.binding} ${x.case} ${x.check}: ${x.message}`);

/** The cancellations' full run (generated cases included) against a mock started with `options`. */
async function full(options: Partial<MockOptions>): Promise<RunReport> {
  const { runPlan } = await import('../engine/run.js');
  const { startMock } = await import('../mock/index.js');
  const { Transport } = await import('../transport/client.js');
  const { createDocumentValidator } = await import('../schema/xsd-validator.js');
  const { DEFAULT_NAMESPACES } = await import('../contract/catalogue.js');
  const m = await startMock({ port: 0, ...options });
  try {
    return await runPlan(
      { ...sequencePlan(m.url, CANCELS), generation },
      { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
    );
  } finally {
    await m.close();
  }
}

describe('one identifier through four bindings is one booking (issue 40)', () => {
  // The false alarm of issue 40: the blank id sent to the four bindings at once, on a service where it exists.
  test.for([
    ['every id, blank included', { everyId: true }],
    ["only the pools' bookings", { bookings: mockBookings() }],
    ['any non-blank id', {}],
  ] as const)(
    'a correct service, %s: the full run of the cancellations passes, the id probes judged on every binding',
    async ([, options]) => {
      const r = await full(options);
      expect(shown(r)).toEqual([]);
      const rows = r.results.filter((x) => x.case === 'seq-id-probe');
      expect(rows).toHaveLength(2 * BINDINGS.length);
      for (const x of rows) expect(x.status, x.message).toBe('passed');
    },
  );

  test(
    'the blank id of a use-once operation goes to no binding at once; the probes take no booking; every '
      + 'language still goes through every binding',
    () => {
      const plan = { ...sequencePlan('http://x.test', CANCELS), generation, bookings: mockBookings() };
      const units = planUnits(plan);
      for (const u of units.filter((x) => x.calls === 'probe')) {
        const id = u.op.name === 'CancelBooking' ? 'bookingID' : 'transferBookingID';
        expect(u.params[id]!.trim(), `${u.op.name} ${u.caseId}`).not.toBe('');
      }
      const seqs = units.filter((u) => u.sequence?.family === 'id-probe');
      expect(seqs.map((u) => u.op.name)).toEqual(['CancelBooking', 'CancelTransferBooking']);
      for (const u of seqs) expect(u.sequence!.bookings).toEqual([]);
      expect(seqs[0]!.sequence!.probes!.map((p) => p.kind)).toEqual(['zero', 'with separators', 'long', 'empty']);
      expect(seqs[1]!.sequence!.probes!.map((p) => p.kind)).toEqual([
        'zero',
        'with separators',
        'long',
        'empty',
        'email beyond ASCII',
        'empty email',
      ]);
      // Their identifiers are their own: no other call of the run names one (the blank one aside, sent by no other unit
      // of these operations).
      for (const u of seqs) {
        const id = u.op.name === 'CancelBooking' ? 'bookingID' : 'transferBookingID';
        const theirs = new Set(
          u
            .sequence!.probes!.flatMap((p) => [p.params[id], p.witness?.[id]])
            .filter((v) => v !== undefined && v !== ''),
        );
        const others = units
          .filter((x) => x.op === u.op && !x.sequence)
          .flatMap((x) => BINDINGS.map((b) => x.perBinding?.[b]?.[id] ?? x.params[id]));
        expect(others.filter((v) => theirs.has(v))).toEqual([]);
      }
      // Each language through every binding, on a probe of each use-once operation.
      for (const op of CANCELS) {
        const langs = new Set(units.filter((u) => u.op === op && u.calls === 'probe').map((u) => u.params.language));
        for (const l of FIXED_LANGUAGES)
          if (!(plan.cases.get(op.name) ?? []).some((c) => c.params.language === l))
            expect(langs.has(l), `${op.name} ${l}`).toBe(true);
      }
    },
  );

  test('it runs in a stage of its own, after the probes and real calls (writes), before the races', () => {
    const plan = { ...sequencePlan('http://x.test', CANCELS), cases: loadFixtureCases() };
    const seq = planUnits(plan).find((u) => u.sequence?.family === 'id-probe' && u.op.name === 'CancelBooking')!;
    expect(stageRank(seq.stage)).toBeGreaterThan(stageRank('writes'));
    expect(stageRank(seq.stage)).toBeLessThan(stageRank('race-cancel'));
  });
});

// ---- the judgement, on answers made up -------------------------------------------------------------

const A: Read = { kind: 'accepted', how: 'accepted' };
const U: Read = {
  kind: 'rejected',
  how: 'in-band Error X.BookingAlreadyCancelledException',
  alreadyCancelled: true,
  errorMessage: 'already cancelled',
};
const nf = (id: string): Read => ({
  kind: 'rejected',
  how: 'in-band Error X.BookingNotFoundException',
  alreadyCancelled: false,
  errorMessage: `No booking with ID ${id} was found.`,
});

/**
 * A service of one booking space: `reads(b, id)` is the id binding b reads; `exists(id)` whether it is
 * a booking. Each call answers as that service would, state kept.
 */
function service(
  reads: (b: BindingId, id: string) => string,
  exists: (id: string) => boolean,
): { call: Call; sent: string[] } {
  const used = new Set<string>();
  const sent: string[] = [];
  const call: Call = async (_op, b, params) => {
    const id = reads(b, params.bookingID ?? '');
    sent.push(`${b}:${params.bookingID}`);
    if (!exists(id)) return nf(id);
    if (used.has(id)) return U;
    used.add(id);
    return A;
  };
  return { call, sent };
}

async function judge(
  call: Call,
  probes: readonly IdProbe[] = [
    {
      kind: 'long',
      params: { bookingID: 'X123456789', language: 'en' },
      witness: { bookingID: 'X223456789', language: 'en' },
    },
  ],
) {
  const op = findOperation('CancelBooking')!;
  const r: FamilyRun = {
    bindings: BINDINGS,
    op,
    caseId: 'seq-id-probe',
    spec: { family: 'id-probe', pool: 'cancel', needs: 0, probes },
    bookings: [],
    call,
    note: () => {},
    together: async () => ({ reads: [], spreadMs: 0, overlapped: true }),
    ops: (n) => findOperation(n)!,
  };
  return idProbeFamily.run(r);
}

const cut = (faulty: BindingId) => (b: BindingId, id: string) => (b === faulty ? id.slice(0, 4) : id);
const blamed = (vs: Awaited<ReturnType<typeof judge>>) => vs.filter((v) => v.outcome.length > 0).map((v) => v.binding);

describe('the id-probe judgement pins the binding that read another identifier', () => {
  test(
    'a correct service: every id exists (the first accepts, the rest "already cancelled"), or none does '
      + '(all "not found"): no finding',
    async () => {
      for (const exists of [() => true, () => false]) {
        const { call, sent } = service((_b, id) => id, exists);
        const vs = await judge(call);
        expect(blamed(vs)).toEqual([]);
        expect(vs.every((v) => v.skipped === undefined)).toBe(true);
        expect(sent).toHaveLength(4); // no witness
      }
    },
  );

  test.for(BINDINGS.map((b) => [b]))(
    '%s cuts the id short, where every id exists: pinned on it, wherever it stands (the witness where it went first)',
    async ([faulty]) => {
      for (let k = 0; k < 4; k++) {
        // Kind k starts with binding k: the faulty binding first, second, third and fourth.
        const probes = Array.from({ length: k + 1 }, (_, i) => ({
          kind: `kind ${i}`,
          params: { bookingID: `K${i}-123456789` },
          witness: { bookingID: `K${i}-223456789` },
        }));
        // Only the last kind triggers the fault (ids of the others are short).
        const { call } = service(
          (b, id) => (id.startsWith(`K${k}-`) ? cut(faulty as BindingId)(b, id) : id),
          () => true,
        );
        const vs = await judge(call, probes);
        expect(blamed(vs), `faulty ${faulty}, kind ${k}`).toEqual([faulty]);
        expect(vs.find((v) => v.binding === faulty)!.outcome[0]!.code).toBe('id_read_otherwise');
      }
    },
  );

  test(
    'where only real bookings exist, the "not found" naming another id is pinned on the binding that sent ' + 'it',
    async () => {
      const { call } = service(cut('post'), () => false);
      const vs = await judge(call);
      expect(blamed(vs)).toEqual(['post']);
      expect(vs.find((v) => v.binding === 'post')!.outcome[0]!.code).toBe('error_message_differs');
    },
  );

  test('a kind with one value only (empty): with the first two in doubt and no witness, both are named', async () => {
    const { call } = service(
      (b, id) => (b === 'soap11' ? 'other' : id),
      () => true,
    );
    const vs = await judge(call, [{ kind: 'empty', params: { bookingID: '' } }]);
    expect(blamed(vs)).toEqual(['soap11', 'soap12']);
    expect(vs[0]!.outcome[0]!.message).toMatch(/or soap12 did/);
  });
});

describe('the sequence tests run the three modes of which bookings exist', () => {
  test("only the pools', every id (the default mode is every style of MOCK_STYLES)", () => {
    expect(BOOKING_MODES.some(([, o]) => o.everyId === true)).toBe(true);
    expect(BOOKING_MODES.some(([, o]) => o.bookings !== undefined)).toBe(true);
  });
});

describe('a binding that leaks "already cancelled" is not mistaken for one that reads another id', () => {
  test.for(BINDINGS.map((b) => [b]))(
    '%s answers "already cancelled" once any booking was cancelled: pinned on it, never on the binding '
      + 'that accepted after it',
    async ([leaky]) => {
      for (let k = 0; k < 4; k++) {
        const used = new Set<string>();
        const call: Call = async (_op, b, params) => {
          const id = params.bookingID ?? '';
          if (used.has(id) || (b === leaky && used.size > 0)) return U;
          used.add(id);
          return A;
        };
        const probes = Array.from({ length: k + 1 }, (_, i) => ({
          kind: `kind ${i}`,
          params: { bookingID: `K${i}` },
          witness: { bookingID: `W${i}` },
        }));
        const vs = await judge(call, probes);
        // The first kind: nothing cancelled yet, the leak does not show; every later one where the leaky binding goes
        // first shows it.
        expect(
          blamed(vs).every((b) => b === leaky),
          `${leaky}, ${k + 1} kinds: ${blamed(vs)}`,
        ).toBe(true);
      }
    },
  );
});
