import { describe, expect, test } from 'vitest';
import { BOOKING_MODES, MOCK_STYLES } from '../../test/support/sequences.js';
import { BINDINGS, DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation } from '../../src/contract/catalogue.js';
import { selectChecks } from '../../src/checks/registry.js';
import { SEQUENCE_CHECK } from '../../src/core/rows.js';
import type { RunReport, Target } from '../../src/core/types.js';
import { startMock, type MockOptions } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { Transport } from '../../src/transport/client.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import { planUnits, type RunPlan } from '../../src/engine/plan.js';
import { runPlan } from '../../src/engine/run.js';
import { longText, SEQUENCE_CASE, WRITE_TEXTS } from '../../src/sequences/index.js';
import { assignShards } from '../../src/engine/shard.js';

const STATE_OPS = ['UpdateSpecialRequest', 'GetSpecialRequest', 'CancelBooking', 'CancelTransferBooking'].map(
  (n) => findOperation(n)!,
);

function plan(url: string, over: Partial<RunPlan> = {}): RunPlan {
  const target: Target = {
    bookUrl: url,
    searchUrl: url,
    transfersUrl: url,
    paths: DEFAULT_PATHS,
    namespaces: DEFAULT_NAMESPACES,
    user: 'mock-user',
    password: 'mock-password',
    embedded: true,
  };
  return {
    target,
    bindings: BINDINGS,
    operations: STATE_OPS,
    cases: loadFixtureCases(),
    allowMutations: true,
    checks: selectChecks(),
    negative: false,
    equivalence: true,
    ...over,
  };
}

/** Run the state-changing operations (and GetSpecialRequest) against a mock started with `options`. */
async function against(
  options: Partial<MockOptions>,
  over: Partial<RunPlan> = {},
  operations = STATE_OPS,
): Promise<RunReport> {
  const m = await startMock({ port: 0, ...options });
  try {
    return await runPlan(
      plan(m.url, {
        operations,
        ...over,
        target: { ...plan(m.url).target, ...(options.paths ? { paths: options.paths } : {}) },
      }),
      { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
    );
  } finally {
    await m.close();
  }
}

const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const sequenceRows = (r: RunReport) => r.results.filter((x) => x.check === SEQUENCE_CHECK);

describe('sequences against a correct stateful mock: no false alarm', () => {
  test.for([...MOCK_STYLES, ...BOOKING_MODES])('%s', async ([, options]) => {
    const r = await against(options as Partial<MockOptions>);
    expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case} ${x.check}: ${x.message}`)).toEqual([]);
    const rows = sequenceRows(r);
    // write-read: UpdateSpecialRequest and GetSpecialRequest on each binding; the cancellations, the three races and
    // the two id probes: each binding.
    expect(rows).toHaveLength(4 * 9);
    // A race whose calls a loaded machine spaced out is not tested, never passed nor failed
    // (suites/sequences/races.test.ts proves they overlap).
    const held = (x: (typeof rows)[number]) =>
      x.status === 'passed'
      || (x.case.startsWith('seq-race-')
        && x.status === 'skipped'
        && /^not tested: .* did not overlap/.test(x.message));
    expect(rows.every(held), JSON.stringify(rows.filter((x) => !held(x)))).toBe(true);
  });
});

describe('sequences find what a single request cannot', () => {
  test(
    'a service that acknowledges every write and stores nothing (the stateless mock) fails write-read on '
      + 'every write binding',
    async () => {
      const r = await against({ stateless: true }, {}, [findOperation('UpdateSpecialRequest')!]);
      const rows = failed(r);
      expect(rows.map((x) => `${x.operation} ${x.binding}`).sort()).toEqual(
        BINDINGS.map((b) => `UpdateSpecialRequest ${b}`).sort(),
      );
      expect(rows.every((x) => x.findings[0]!.code === 'write_not_read_back')).toBe(true);
    },
  );

  test(
    'a write dropped through one binding: the row names UpdateSpecialRequest and its binding, '
      + 'GetSpecialRequest, the steps, bookings, texts and a script',
    async () => {
      const r = await against({ faults: ['update-acknowledged-not-stored'] }, {}, [
        findOperation('UpdateSpecialRequest')!,
      ]);
      const rows = failed(r);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row).toMatchObject({
        operation: 'UpdateSpecialRequest',
        binding: 'post',
        case: SEQUENCE_CASE['write-read'],
        check: SEQUENCE_CHECK,
      });
      expect(row.message).toMatch(
        /^UpdateSpecialRequest post → GetSpecialRequest soap11, soap12, get, post: booking \d+ \(first write\) does not read back the text written: wrote ".*", read /,
      );
      // Every step, in order, numbered, with its binding, booking and (for a write) text.
      const steps = row.steps!;
      expect(steps.map((s) => s.n)).toEqual(steps.map((_, i) => i + 1));
      expect(steps.filter((s) => s.operation === 'UpdateSpecialRequest')).toHaveLength(8);
      expect(steps.filter((s) => s.operation === 'GetSpecialRequest')).toHaveLength(32);
      expect(steps[0]).toMatchObject({
        operation: 'UpdateSpecialRequest',
        binding: 'soap11',
        text: WRITE_TEXTS[0],
        outcome: 'accepted',
      });
      expect(steps.find((s) => s.operation === 'GetSpecialRequest')!.outcome).toBe(
        `read ${JSON.stringify(WRITE_TEXTS[0]!.slice(0, 120))}`,
      );
      // The reproduce script: the curl command of each step, in order, password from its variable.
      const script = row.reproduce.split('\n');
      expect(script.filter((l) => l.startsWith('# '))).toEqual(
        steps.map((s) => `# ${s.n}. ${s.operation} ${s.binding} (booking ${s.booking})`),
      );
      expect(script.filter((l) => l.startsWith('curl '))).toHaveLength(steps.length);
      expect(row.reproduce).not.toContain('mock-password');
      expect(row.reproduce).toContain('${CONFORMANCE_PASSWORD:?');
    },
  );

  test.for([
    ['update-post-plus-literal', 'UpdateSpecialRequest', ['post']],
    ['update-truncated-at-255', 'UpdateSpecialRequest', BINDINGS],
    ['update-second-write-appended', 'UpdateSpecialRequest', ['soap12']],
    ['read-ignores-store', 'GetSpecialRequest', ['soap12']],
    ['read-last-text-of-any-booking', 'GetSpecialRequest', BINDINGS],
    ['read-caches-first-text', 'GetSpecialRequest', ['get']],
    ['cancel-also-cancels-next-booking', 'CancelBooking', ['soap11']],
    ['cancel-leak-already-cancelled', 'CancelBooking', ['get']],
    ['first-cancel-answered-already-cancelled', 'CancelBooking', ['post']],
    ['transfer-cancel-leak-soap12', 'CancelTransferBooking', ['soap12']],
  ] as const)('%s is pinned on %s %s', async ([fault, operation, bindings]) => {
    const r = await against({ faults: [fault] }, {}, [findOperation(operation)!]);
    const rows = failed(r);
    expect(rows.length).toBeGreaterThan(0);
    for (const x of rows) {
      expect(x.operation, x.message).toBe(operation);
      for (const b of x.binding.split(',')) expect(bindings, x.message).toContain(b);
    }
    expect(new Set(rows.flatMap((x) => x.binding.split(',')))).toEqual(new Set(bindings));
  });

  test('a leak names the booking and the booking cancelled just before; a second cancellation is no failure', async () => {
    const r = await against({ faults: ['cancel-also-cancels-next-booking'] }, {}, [findOperation('CancelBooking')!]);
    const row = failed(r).find((x) => x.check === SEQUENCE_CHECK)!;
    expect(row.findings[0]!.code).toBe('cancellation_leaked');
    expect(row.message).toMatch(
      /^CancelBooking soap11 → CancelBooking soap12: booking (BK-\d+), seen usable, was never cancelled by this run, but answered "already cancelled" .* right after (BK-\d+) was cancelled through soap11/,
    );
    // The correct mock answers the sequence's second cancellation "already cancelled": listed, not failed.
    const clean = await against({}, {}, [findOperation('CancelBooking')!]);
    const last = clean.bookings!.changed.filter((c) => c.case === SEQUENCE_CASE.cancel).at(-1)!;
    expect(last.outcome).toMatch(/already ?cancelled/i);
    expect(failed(clean)).toEqual([]);
  });
});

describe('a sequence is one unit of the plan', () => {
  test('the texts hold what an encoding can mangle', () => {
    const all = [...WRITE_TEXTS, longText(0)].join('');
    for (const c of [' ', '+', '&', '<', '>', '"', "'", 'é', 'ü', 'ß']) expect(all).toContain(c);
    expect(WRITE_TEXTS.every((t) => [...t].some((ch) => ch.codePointAt(0)! > 0xffff))).toBe(true);
    expect(longText(0).length).toBeGreaterThan(300);
    expect(longText(0)).not.toEqual(longText(1));
  });
  test(
    'every text each binding writes, first and second, holds a character beyond ASCII and is longer than '
      + '64 characters',
    () => {
      // What a decoder or a column on one binding mangles (UTF-8 read as Latin-1, strings cut at 64):
      // whichever binding writes a booking's texts, both writes must be read back exactly.
      for (let i = 0; i < 8; i++) {
        for (const t of [WRITE_TEXTS[i % WRITE_TEXTS.length]!, longText(i)]) {
          expect(
            [...t].some((ch) => ch.codePointAt(0)! > 0x7f && ch.codePointAt(0)! <= 0xff),
            t,
          ).toBe(true);
          expect([...t].length, t).toBeGreaterThan(64);
        }
      }
    },
  );
  test('each family is one unit, kept whole in one shard, with the bookings it needs', () => {
    const p = plan('http://mock.test');
    const units = planUnits(p);
    const seqs = units.filter((u) => u.sequence);
    expect(seqs.map((u) => u.caseId)).toEqual([
      'seq-write-read',
      'seq-cancel',
      'seq-cancel-transfer',
      'seq-race-cancel',
      'seq-race-cancel-transfer',
      'seq-race-write',
      'seq-id-probe',
      'seq-id-probe',
    ]);
    // The write race uses write-read's bookings again (after it), the others a booking each of their own; the id probes
    // none (they name no booking).
    expect(seqs.map((u) => u.sequence!.bookings!.length)).toEqual([4, 10, 10, 1, 1, 4, 0, 0]);
    for (const count of [2, 3, 7]) {
      const at = assignShards(p, units, count);
      for (const u of seqs) expect(at.filter((_, i) => units[i] === u)).toHaveLength(1);
    }
  });
});
