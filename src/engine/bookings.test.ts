import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MockAgent } from 'undici';
import { BINDINGS, DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation, OPERATIONS } from '../contract/catalogue.js';
import { selectChecks } from '../checks/registry.js';
import { ConfigError, UsageError } from '../core/errors.js';
import type { Target } from '../core/types.js';
import { startMock } from '../mock/index.js';
import { call } from '../../test/support/mock.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { Transport } from '../transport/client.js';
import { consumesBooking, EMPTY_POOLS, idParamOf, mockBookings, parseBookings, probeVariant } from './bookings.js';
import { loadFixtureCases } from './cases.js';
import { bindingParams, bookingNeeds, planUnits, rejectedText, unitRequests, type RunPlan } from './plan.js';
import { poolShortage } from '../core/verdict.js';
import { runPlan } from './run.js';
import { resolveRunSettingsFlags } from './settings.js';

const target = (url = 'http://target.test', embedded = false): Target => ({
  bookUrl: url,
  searchUrl: url,
  transfersUrl: url,
  paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES,
  user: 'u',
  password: 'p',
  embedded,
});
const plan = (over: Partial<RunPlan> = {}): RunPlan => ({
  target: target(),
  bindings: BINDINGS,
  operations: OPERATIONS.filter((o) => o.mutates),
  cases: loadFixtureCases(),
  allowMutations: true,
  checks: selectChecks(),
  negative: false,
  equivalence: true,
  ...over,
});

const generation = { seed: 16, examples: 4, languages: ['en', 'de'], languagesFrom: 'test' };
const ALL = (over: Partial<RunPlan> = {}) =>
  plan({ operations: OPERATIONS, bookings: mockBookings(100), negative: true, generation, ...over });

describe('booking pools', () => {
  test(
    'a default full run takes at most 40 bookings: a booking per binding for the first case of a '
      + 'cancellation, one booking for the rest, one per race (issue 33: 36)',
    () => {
      const units = planUnits(ALL());
      const taken = new Map<string, Set<string>>();
      for (const u of units) {
        for (const b of [...Object.values(u.bookings ?? {}), ...(u.sequence?.bookings ?? [])])
          if (b) taken.set(b.pool, (taken.get(b.pool) ?? new Set()).add(b.id));
      }
      const count = Object.fromEntries([...taken].map(([k, v]) => [k, v.size]));
      // The cancellation races take a fresh booking each; use-after-cancel and the write race use the cancel and
      // write-read sequences' bookings again.
      expect(count).toEqual({ cancel: 15, transfers: 15, amend: 1, specialRequest: 5 });
      expect(bookingNeeds(ALL())).toEqual({ cancel: 15, transfers: 15, amend: 1, specialRequest: 5 });
      expect(Object.values(count).reduce((n, k) => n + k, 0)).toBeLessThanOrEqual(40);
      // Without generated or negative cases the figure is the same: they take nothing of their own.
      expect(bookingNeeds(ALL({ negative: false, generation: undefined }))).toEqual(bookingNeeds(ALL()));
    },
  );

  test(
    'with everything on, a second account included, a default full run takes 38 bookings: the '
      + 'foreign-account sequences one cancel and one transfer booking (issue 33)',
    () => {
      const withOther = ALL({ target: { ...target(), other: { user: 'other-agency', password: 'other-secret' } } });
      const needs = bookingNeeds(withOther);
      expect(needs).toEqual({ cancel: 16, transfers: 16, amend: 1, specialRequest: 5 });
      expect(Object.values(needs).reduce((n, k) => n + k, 0)).toBe(38);
    },
  );

  test(
    'real calls: the first case of a cancellation takes a booking per binding, each sent once; an '
      + 'amendment and a special request share one booking, bindings in turn',
    () => {
      const units = planUnits(ALL());
      const seen = new Set<string>();
      for (const u of units.filter((x) => x.calls === 'real' && consumesBooking(x.op.name))) {
        expect(u.caseId).toBe('default');
        for (const { binding, request } of unitRequests(ALL(), u)) {
          const b = u.bookings![binding]!;
          expect(decodeURIComponent(request.body ?? request.url), `${u.op.name} ${binding}`).toContain(b.id);
          expect(seen.has(`${b.pool} ${b.id}`), `${b.id} used twice`).toBe(false);
          seen.add(`${b.pool} ${b.id}`);
        }
      }
      const first = units.find((u) => u.op.name === 'CancelBooking' && u.caseId === 'default')!;
      expect(BINDINGS.map((b) => first.bookings![b]!.id)).toEqual(['BK-700000', 'BK-700001', 'BK-700002', 'BK-700003']);
      const transfer = units.find((u) => u.op.name === 'CancelTransferBooking' && u.caseId === 'default')!;
      const req = unitRequests(ALL(), transfer).find((r) => r.binding === 'post')!.request;
      expect(req.body).toContain('transferBookingID=TR-900003');
      expect(req.body).toContain(`email=${encodeURIComponent('guest1@example.com')}`);
      for (const op of ['AmendmentRequest', 'UpdateSpecialRequest']) {
        const real = units.filter((u) => u.op.name === op && u.calls === 'real');
        // Every hand-written case, and a generated case naming the booking for each value the examples sent only with a
        // probe id.
        expect(real.map((u) => u.caseId)).toEqual(
          expect.arrayContaining([
            ...(loadFixtureCases().get(op) ?? []).map((c) => c.id),
            expect.stringMatching(/^gen-/),
          ]),
        );
        if (op === 'AmendmentRequest') {
          const types = real.map((u) => u.params.bookingType);
          for (const t of ['FullPeriod', 'ExtraDays', 'NoAmendmentAvailable', 'fullperiod']) expect(types).toContain(t);
          expect(real.map((u) => u.params.maxPrice)).toContain('123456789012345.123456789');
        }
        expect(new Set(real.flatMap((u) => Object.values(u.bookings!).map((b) => b!.id))).size, op).toBe(1);
        expect(real.every((u) => u.serial && u.stage === 'writes')).toBe(true);
      }
    },
  );

  test(
    'probes name no booking; where a call uses its booking up, each binding sends its own value of the ' + 'same kind',
    () => {
      const units = planUnits(ALL());
      const pools = mockBookings(100);
      const poolIds = new Set([
        ...pools.cancel,
        ...pools.amend,
        ...pools.specialRequest,
        ...pools.transfers.map((t) => t.id),
      ]);
      const probes = units.filter((u) => u.calls === 'probe');
      expect(probes.length).toBeGreaterThan(20);
      const probeIds = new Set<string>();
      for (const u of probes) {
        expect(u.bookings, `${u.op.name} ${u.caseId}`).toBeUndefined();
        expect(u.stage).toBe('writes');
        const id = idParamOf(u.op.name)!;
        // The bindings it is sent on (a DOCTYPE probe: SOAP's only).
        const sent = (u.only ?? BINDINGS).map((b) => bindingParams(u, b)[id]!);
        for (const v of sent)
          expect(poolIds.has(v.trim()), `${u.op.name} ${u.caseId} sends pool booking ${v}`).toBe(false);
        if (consumesBooking(u.op.name) && u.params[id]!.trim() !== '')
          expect(new Set(sent).size, `${u.op.name} ${u.caseId}`).toBe(sent.length);
        // No two probe units of a cancellation send one id: a cancellation of one must not decide another's answer.
        if (consumesBooking(u.op.name))
          for (const v of sent)
            if (v.trim() !== '') {
              expect(probeIds.has(`${u.op.name} ${v}`), `${u.op.name} ${u.caseId} sends ${v} again`).toBe(false);
              probeIds.add(`${u.op.name} ${v}`);
            }
        if (!consumesBooking(u.op.name)) expect(new Set(sent).size).toBe(1);
      }
      // Kinds kept: digits stay digits with a sign, a long value stays long, a blank one blank.
      expect(probeVariant('-01', 2)).toBe('-0001');
      expect(probeVariant('2147483647', 1)).toBe('02147483647');
      expect(probeVariant(' Ünïcode long', 3)).toBe(' Ü3nïcode long');
      expect(probeVariant('😀x', 1)).toBe('😀1x');
      expect(probeVariant('', 4)).toBe('');
      // The other hand-written case of a cancellation is a probe too (a booking per binding for every case would take
      // 40 alone).
      expect(units.find((u) => u.op.name === 'CancelBooking' && u.caseId === 'other-language')!.calls).toBe('probe');
    },
  );

  test(
    'rejections go against one live booking, which a read-back (stage read-backs) shows unchanged before '
      + 'the real calls (stage writes) change it',
    () => {
      const units = planUnits(ALL());
      const cancelFirst = units.find((u) => u.op.name === 'CancelBooking' && u.caseId === 'default')!.bookings!.soap11!;
      for (const op of ['CancelBooking', 'AmendmentRequest', 'UpdateSpecialRequest', 'CancelTransferBooking']) {
        const wrong = units.find((u) => u.op.name === op && u.caseId === 'wrong-credentials')!;
        expect(wrong.calls).toBe('rejection');
        expect(wrong.stage ?? 'reads').toBe('reads');
        expect(new Set(Object.values(wrong.bookings!).map((b) => b!.id)).size, op).toBe(1);
      }
      expect(
        units.find((u) => u.op.name === 'CancelBooking' && u.caseId === 'wrong-credentials')!.bookings!.post,
      ).toEqual(cancelFirst);
      // A rejected write carries a text of its own per binding: read back, it names its call.
      const write = units.find((u) => u.op.name === 'UpdateSpecialRequest' && u.caseId === 'wrong-credentials')!;
      expect(bindingParams(write, 'get').text).toBe(rejectedText('wrong-credentials', 'get'));
      const readBacks = units.filter((u) => u.sequence?.family === 'unchanged');
      expect(readBacks.map((u) => u.op.name).sort()).toEqual([
        'AmendmentRequest',
        'CancelBooking',
        'UpdateSpecialRequest',
      ]);
      expect(readBacks.every((u) => u.stage === 'read-backs' && u.sequence!.bookings!.length === 1)).toBe(true);
      expect(readBacks.find((u) => u.op.name === 'CancelBooking')!.sequence!.bookings![0]).toEqual(cancelFirst);
      // No read of a transfer booking: its first case's cancellation (stage writes) on the same booking is the
      // read-back.
      const transfer = units.find((u) => u.op.name === 'CancelTransferBooking' && u.caseId === 'default')!;
      expect(transfer.rejectedBefore!.length).toBeGreaterThan(0);
    },
  );

  test(
    'a pool that runs out: the calls without a booking are not sent, each with the reason; the report '
      + 'says how many more bookings are needed',
    async () => {
      const sent: string[] = [];
      const agent = new MockAgent();
      agent.disableNetConnect();
      agent
        .get('http://target.test')
        .intercept({ path: () => true, method: () => true })
        .reply((o) => {
          sent.push(`${o.method} ${o.path} ${String(o.body ?? '')}`);
          return {
            statusCode: 200,
            data: '<x/>',
            responseOptions: { headers: { 'content-type': 'text/xml; charset=utf-8' } },
          };
        })
        .persist();
      const p = plan({
        operations: [findOperation('CancelBooking')!],
        bookings: { ...EMPTY_POOLS, cancel: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6'] },
      });
      const report = await runPlan(p, {
        transport: new Transport({ dispatcher: agent }),
        validator: createDocumentValidator(DEFAULT_NAMESPACES),
      });
      const skipped = report.results.filter((r) => r.check === 'all' && r.status === 'skipped');
      expect(skipped.map((r) => r.message)).toContain(
        'CancelBooking seq-cancel: needs 10 bookings, 2 left in `bookings.cancel`',
      );
      // The first case's four bookings, each cancelled once; the other case is a probe that names none of them.
      const cancels = sent.filter((s) => s.includes('CancelBooking'));
      const naming = (id: string) =>
        cancels.filter((s) => s.includes(`>${id}<`) || s.includes(`=${id}&`) || s.endsWith(`=${id}`));
      for (const id of ['C1', 'C2', 'C3', 'C4']) expect(naming(id)).toHaveLength(1);
      // The cancellation race takes one booking of its own, which its own read found unusable here (the target answers
      // <x/>): not raced.
      expect(naming('C5')).toHaveLength(0);
      expect(report.results.find((r) => r.case === 'seq-race-cancel')?.message).toMatch(
        /^not tested: booking C5 is not usable/,
      );
      for (const id of ['C6']) expect(cancels.filter((s) => s.includes(id))).toHaveLength(0);
      expect(report.bookings?.changed.map((b) => b.id)).toEqual(['C1', 'C2', 'C3', 'C4']);
      expect(report.bookings?.short).toEqual({ cancel: 4 });
      expect(report.bookings?.needed).toMatchObject({ cancel: 15 });
      expect(poolShortage(report)).toBe(
        'the booking pools hold fewer bookings than this run needs, so 4 state-changing calls were not '
          + 'sent: bookings.cancel has 6 of 15 (9 more)',
      );
      expect(poolShortage({ bookings: { ...report.bookings!, given: undefined } })).toMatch(
        /^no booking pool was given, so 4 state-changing calls were not sent: this run needs 15 in bookings\.cancel; .*--bookings FILE/,
      );
    },
  );

  test(
    'a real target without --allow-mutations claims no booking; with no pool, nothing state-changing is ' + 'sent',
    () => {
      const units = planUnits(plan({ allowMutations: false, bookings: mockBookings(10) }));
      expect(units.every((u) => u.bookings === undefined && !u.sequence?.bookings)).toBe(true);
      const none = planUnits(plan());
      expect(none.filter((u) => u.unsent).length).toBeGreaterThan(0);
      expect(none.every((u) => !u.bookings || Object.keys(u.bookings).length === 0)).toBe(true);
    },
  );

  test(
    'against the stateful mock, each state-changing operation exits clean: bookings changed are listed '
      + 'with their outcome',
    async () => {
      const m = await startMock({ port: 0 });
      try {
        const p = plan({ target: { ...target(m.url, true), user: 'mock-user', password: 'mock-password' } });
        const report = await runPlan(p, {
          transport: new Transport({ concurrency: 8 }),
          validator: createDocumentValidator(DEFAULT_NAMESPACES),
        });
        expect(
          report.results
            .filter((r) => r.status === 'failed')
            .map((r) => `${r.operation} ${r.binding} ${r.case} ${r.message}`),
        ).toEqual([]);
        const changed = report.bookings!.changed;
        // A cancellation's booking is changed by one call; an amendment's and a special request's by many.
        const cancels = changed.filter((c) => c.step === undefined && (c.pool === 'cancel' || c.pool === 'transfers'));
        expect(new Set(cancels.map((c) => `${c.pool} ${c.id}`)).size).toBe(cancels.length);
        expect(
          changed.find((c) => c.operation === 'CancelBooking' && c.case === 'default' && c.binding === 'soap12'),
        ).toMatchObject({ id: 'BK-700001', outcome: 'accepted' });
        // A second cancellation in the cancellation sequence is listed too (rejected as already cancelled: no failure).
        expect(changed.some((c) => c.case === 'seq-cancel' && /already/i.test(c.outcome))).toBe(true);
      } finally {
        await m.close();
      }
    },
  );
});

/**
 * The read-back of rejected calls (sequence family `unchanged`; a transfer booking's first
 * cancellation): against the stateful mock, a rejected call that changed its booking is simulated by
 * making that change before the read-back runs (the mock itself never lets a rejected call through).
 */
describe('rejected calls change nothing: their read-back', () => {
  const judge = async (
    opName: string,
    change?: (url: string, units: ReturnType<typeof planUnits>) => Promise<unknown>,
    embedded = true,
    all = false,
  ) => {
    const m = await startMock({ port: 0 });
    try {
      // Embedded: the run started the mock, its bookings live by construction (plan.ts shownLive); else a URL with
      // pools and no pool check.
      const p = plan({
        target: { ...target(m.url, embedded), user: 'mock-user', password: 'mock-password' },
        operations: [findOperation(opName)!],
        negative: true,
        ...(embedded ? {} : { bookings: mockBookings(20) }),
      });
      const units = planUnits(p);
      await change?.(m.url, units);
      // The read-back alone (stage read-backs), or, for a transfer booking, the first case that is its read-back.
      const readBack = units.filter((u) => u.sequence?.family === 'unchanged' || u.rejectedBefore !== undefined);
      expect(readBack).toHaveLength(1);
      const report = await runPlan(
        p,
        { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
        readBack,
      );
      return all
        ? report.results
        : report.results.filter((r) => r.findings.some((f) => f.code === 'rejected_call_changed_state'));
    } finally {
      await m.close();
    }
  };
  const valid = (url: string, op: string, b: 'soap11' | 'soap12' | 'get' | 'post', params: Record<string, string>) =>
    call(url, DEFAULT_NAMESPACES, findOperation(op)!, b, {
      userName: 'mock-user',
      password: 'mock-password',
      ...params,
    });

  test('nothing changed: no failure, on every kind of booking', async () => {
    for (const op of ['UpdateSpecialRequest', 'CancelBooking', 'AmendmentRequest', 'CancelTransferBooking'])
      expect(await judge(op), op).toEqual([]);
  });

  test(
    'the text a rejected write sent through one binding is stored: failed on that binding only, naming ' + 'its case',
    async () => {
      const rows = await judge('UpdateSpecialRequest', async (url, units) => {
        const booking = units.find((u) => u.caseId === 'wrong-credentials')!.bookings!.get!;
        await valid(url, 'UpdateSpecialRequest', 'soap11', {
          bookingId: booking.id,
          text: rejectedText('wrong-credentials', 'get'),
        });
      });
      expect(rows.map((r) => `${r.operation} ${r.binding} ${r.status}`)).toEqual(['UpdateSpecialRequest get failed']);
      expect(rows[0]!.message).toMatch(
        /UpdateSpecialRequest get \(wrong-credentials\) was rejected, yet GetSpecialRequest .* reads the text it sent/,
      );
    },
  );

  test(
    'a booking a rejected cancellation was sent for is cancelled: failed, naming every binding that sent ' + 'one',
    async () => {
      const rows = await judge('CancelBooking', async (url, units) => {
        const booking = units.find((u) => u.caseId === 'wrong-credentials')!.bookings!.soap11!;
        await valid(url, 'CancelBooking', 'soap11', { bookingID: booking.id, language: 'en' });
      });
      expect(rows.map((r) => r.binding).sort()).toEqual([...BINDINGS].sort());
      expect(rows.every((r) => r.status === 'failed' && /now finds booking BK-700000 cancelled/.test(r.message))).toBe(
        true,
      );
    },
  );

  test(
    'a booking not shown live before the rejected calls (no pool check read it): never blamed on them, '
      + 'not tested, naming the booking and its pool (issue 40)',
    async () => {
      for (const op of ['CancelBooking', 'CancelTransferBooking']) {
        const rows = await judge(
          op,
          async (url, units) => {
            const booking = units.find((u) => u.caseId === 'wrong-credentials')!.bookings!.soap11!;
            await valid(
              url,
              op,
              'soap11',
              op === 'CancelBooking'
                ? { bookingID: booking.id, language: 'en' }
                : { transferBookingID: booking.id, email: booking.email!, language: 'en' },
            );
          },
          false,
          true,
        );
        expect(
          rows.filter((r) => r.status === 'failed'),
          op,
        ).toEqual([]);
        const skipped = rows.filter((r) => r.check === 'sequence').map((r) => r.message);
        expect(skipped.length, op).toBeGreaterThan(0);
        expect(
          skipped.every((m) => m.startsWith('not tested:') && /`bookings\.(cancel|transfers)`/.test(m)),
          skipped.join('\n'),
        ).toBe(true);
      }
    },
  );

  test(
    "a transfer booking a rejected cancellation was sent for is cancelled: its first case's cancellation " + 'says so',
    async () => {
      const rows = await judge('CancelTransferBooking', async (url, units) => {
        const booking = units.find((u) => u.caseId === 'wrong-credentials')!.bookings!.soap11!;
        await valid(url, 'CancelTransferBooking', 'soap11', {
          transferBookingID: booking.id,
          email: booking.email!,
          language: 'en',
        });
      });
      expect(rows).toHaveLength(1);
      // The row is the first case's: re-running that case (--case default) sends it again.
      expect(rows[0]!).toMatchObject({ operation: 'CancelTransferBooking', status: 'failed', case: 'default' });
      const again = planUnits(
        plan({
          operations: [findOperation('CancelTransferBooking')!],
          negative: true,
          caseFilter: ['default'],
          target: target('http://t', true),
        }),
      );
      expect(again.filter((u) => u.rejectedBefore)).toHaveLength(1);
      expect(rows[0]!.message).toMatch(
        /AlreadyCancelled.*and the run sent it only \d+ rejected calls before .*: a rejected call cancelled it/,
      );
    },
  );
});

describe('the bookings setting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bookings-'));
  const file = (name: string, v: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof v === 'string' ? v : JSON.stringify(v));
    return p;
  };
  test('from --bookings FILE, CONFORMANCE_BOOKINGS_FILE, CONFORMANCE_BOOKINGS or the config key, in that order', () => {
    const a = file('a.json', { cancel: ['A1'] });
    const b = file('b.json', { cancel: ['B1'] });
    const cfg = file('cfg.json', {
      bookings: { cancel: ['K1'], transfers: [{ id: 'T1', email: 'x@example.com' }], specialRequest: [42] },
    });
    expect(resolveRunSettingsFlags({ bookings: a }, { CONFORMANCE_BOOKINGS_FILE: b }).bookings?.cancel).toEqual(['A1']);
    expect(resolveRunSettingsFlags({ config: cfg }, { CONFORMANCE_BOOKINGS_FILE: b }).bookings?.cancel).toEqual(['B1']);
    expect(resolveRunSettingsFlags({ config: cfg }, { CONFORMANCE_BOOKINGS: '{"amend":["E1"]}' }).bookings).toEqual({
      cancel: [],
      amend: ['E1'],
      specialRequest: [],
      transfers: [],
    });
    expect(resolveRunSettingsFlags({ config: cfg }, {}).bookings).toEqual({
      cancel: ['K1'],
      amend: [],
      specialRequest: ['42'],
      transfers: [{ id: 'T1', email: 'x@example.com' }],
    });
    expect(resolveRunSettingsFlags({ config: file('cfg2.json', { bookings: a }) }, {}).bookings?.cancel).toEqual([
      'A1',
    ]);
    expect(resolveRunSettingsFlags({}, {}).bookings).toBeUndefined();
  });
  test('a bad pool is refused, naming its source', () => {
    expect(() => resolveRunSettingsFlags({ bookings: file('dup.json', { cancel: ['A', 'A'] }) }, {})).toThrow(
      ConfigError,
    );
    expect(() => resolveRunSettingsFlags({ bookings: file('dup.json', { cancel: ['A', 'A'] }) }, {})).toThrow(
      /bookings file .*dup\.json \(--bookings\)\.cancel lists the booking A twice/,
    );
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{' })).toThrow(UsageError);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{' })).toThrow(
      /^environment variable CONFORMANCE_BOOKINGS is not JSON/,
    );
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{"cancle":[]}' })).toThrow(
      /environment variable CONFORMANCE_BOOKINGS: unknown pool "cancle"/,
    );
    expect(() =>
      resolveRunSettingsFlags({ config: file('c.json', { bookings: { specialRequest: ['abc'] } }) }, {}),
    ).toThrow(/: bookings\.specialRequest\[0\] must be an int booking id/);
    expect(() =>
      resolveRunSettingsFlags({ config: file('c2.json', { bookings: { transfers: [{ id: 'T' }] } }) }, {}),
    ).toThrow(/bookings\.transfers|transfers\/0/);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS_FILE: join(dir, 'absent.json') })).toThrow(
      /environment variable CONFORMANCE_BOOKINGS_FILE/,
    );
  });
  test('parseBookings: ids are trimmed strings, numbers allowed', () => {
    expect(parseBookings({ cancel: [' 7 ', 8] }, 'x')).toEqual({
      cancel: ['7', '8'],
      amend: [],
      specialRequest: [],
      transfers: [],
    });
    expect(parseBookings([], 'x')).toMatch(/^x must be an object/);
  });
});
