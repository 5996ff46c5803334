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
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { Transport } from '../transport/client.js';
import { EMPTY_POOLS, mockBookings, parseBookings } from './bookings.js';
import { loadFixtureCases } from './cases.js';
import { planUnits, unitRequests, type RunPlan } from './plan.js';
import { runConformance } from './run.js';
import { resolveRunSettingsFlags } from './settings.js';

const target = (url = 'http://target.test', embedded = false): Target => ({
  bookUrl: url, searchUrl: url, transfersUrl: url, paths: DEFAULT_PATHS, namespaces: DEFAULT_NAMESPACES, user: 'u', password: 'p', embedded,
});
const plan = (over: Partial<RunPlan> = {}): RunPlan => ({
  target: target(), bindings: BINDINGS, operations: OPERATIONS.filter((o) => o.mutates), cases: loadFixtureCases(),
  allowMutations: true, checks: selectChecks(), negative: false, equivalence: true, ...over,
});
const idOf = (op: string, params: Readonly<Record<string, string>>) => (op === 'UpdateSpecialRequest' ? params.bookingId : op === 'CancelTransferBooking' ? params.transferBookingID : params.bookingID);

describe('booking pools', () => {
  test('every state-changing call gets a booking of its own: one per binding, case and sequence, none twice', () => {
    const units = planUnits(plan({ bookings: mockBookings(100), negative: true }));
    const seen = new Set<string>();
    let calls = 0;
    for (const u of units.filter((x) => !x.sequence)) {
      for (const { binding, request } of unitRequests(plan(), u)) {
        const b = u.bookings?.[binding];
        if (!b) continue; // a negative case that names no booking (missing or unparsable id)
        calls++;
        const sent = decodeURIComponent(request.body ?? request.url);
        expect(sent, `${u.op.name} ${u.caseId} ${binding}`).toContain(b.id);
        expect(seen.has(`${b.pool} ${b.id}`), `${b.id} used twice`).toBe(false);
        seen.add(`${b.pool} ${b.id}`);
      }
    }
    for (const u of units.filter((x) => x.sequence)) {
      for (const b of u.sequence!.bookings!) {
        expect(seen.has(`${b.pool} ${b.id}`), `${b.id} used twice`).toBe(false);
        seen.add(`${b.pool} ${b.id}`);
      }
    }
    expect(calls).toBeGreaterThan(40);
    // Hand-written cases first: the default case's four bindings take the first four bookings.
    const first = units.find((u) => u.op.name === 'CancelBooking' && u.caseId === 'default')!;
    expect(BINDINGS.map((b) => first.bookings![b]!.id)).toEqual(['BK-700000', 'BK-700001', 'BK-700002', 'BK-700003']);
    const transfer = units.find((u) => u.op.name === 'CancelTransferBooking' && u.caseId === 'default')!;
    const req = unitRequests(plan(), transfer).find((r) => r.binding === 'post')!.request;
    expect(req.body).toContain('transferBookingID=TR-900003');
    expect(req.body).toContain(`email=${encodeURIComponent('guest1@example.com')}`);
  });

  test('a pool that runs out: the calls without a booking are not sent, each with the reason; the report says how many', async () => {
    const sent: string[] = [];
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('http://target.test').intercept({ path: () => true, method: () => true }).reply((o) => {
      sent.push(`${o.method} ${o.path} ${String(o.body ?? '')}`);
      return { statusCode: 200, data: '<x/>', responseOptions: { headers: { 'content-type': 'text/xml; charset=utf-8' } } };
    }).persist();
    const p = plan({ operations: [findOperation('CancelBooking')!], bookings: { ...EMPTY_POOLS, cancel: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6'] } });
    const report = await runConformance(p, { transport: new Transport({ dispatcher: agent }), validator: createDocumentValidator(DEFAULT_NAMESPACES) });
    const skipped = report.results.filter((r) => r.check === 'all' && r.status === 'skipped');
    expect(skipped.map((r) => r.message)).toContain('CancelBooking get other-language: no booking left in `bookings.cancel`');
    expect(skipped.map((r) => r.message)).toContain('CancelBooking seq-cancel: needs 10 bookings, 0 left in `bookings.cancel`');
    // 6 bookings, 6 calls: every one with its own booking.
    const cancels = sent.filter((s) => s.includes('CancelBooking'));
    expect(cancels).toHaveLength(6);
    for (const id of ['C1', 'C2', 'C3', 'C4', 'C5', 'C6']) expect(cancels.filter((s) => s.includes(`>${id}<`) || s.includes(`=${id}`))).toHaveLength(1);
    expect(report.bookings?.changed.map((b) => b.id)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6']);
    expect(report.bookings?.short).toEqual({ cancel: 2 + 4 });
  });

  test('a real target without --allow-mutations claims no booking; with no pool, nothing state-changing is sent', () => {
    const units = planUnits(plan({ allowMutations: false, bookings: mockBookings(10) }));
    expect(units.every((u) => u.bookings === undefined && !u.sequence?.bookings)).toBe(true);
    const none = planUnits(plan());
    expect(none.filter((u) => u.unsent).length).toBeGreaterThan(0);
    expect(none.every((u) => !u.bookings || Object.keys(u.bookings).length === 0)).toBe(true);
  });

  test('against the stateful mock, each state-changing operation exits clean: bookings changed are listed with their outcome', async () => {
    const m = await startMock({ port: 0 });
    try {
      const p = plan({ target: { ...target(m.url, true), user: 'mock-user', password: 'mock-password' } });
      const report = await runConformance(p, { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) });
      expect(report.results.filter((r) => r.status === 'failed').map((r) => `${r.operation} ${r.binding} ${r.case} ${r.message}`)).toEqual([]);
      const changed = report.bookings!.changed;
      expect(new Set(changed.filter((c) => c.step === undefined).map((c) => `${c.pool} ${c.id}`)).size).toBe(changed.filter((c) => c.step === undefined).length);
      expect(changed.find((c) => c.operation === 'CancelBooking' && c.case === 'default' && c.binding === 'soap12')).toMatchObject({ id: 'BK-700001', outcome: 'accepted' });
      // A second cancellation in the cancellation sequence is listed too (rejected as already cancelled: no failure).
      expect(changed.some((c) => c.case === 'seq-cancel' && /already/i.test(c.outcome))).toBe(true);
    } finally {
      await m.close();
    }
  });
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
    const cfg = file('cfg.json', { bookings: { cancel: ['K1'], transfers: [{ id: 'T1', email: 'x@example.com' }], specialRequest: [42] } });
    expect(resolveRunSettingsFlags({ bookings: a }, { CONFORMANCE_BOOKINGS_FILE: b }).bookings?.cancel).toEqual(['A1']);
    expect(resolveRunSettingsFlags({ config: cfg }, { CONFORMANCE_BOOKINGS_FILE: b }).bookings?.cancel).toEqual(['B1']);
    expect(resolveRunSettingsFlags({ config: cfg }, { CONFORMANCE_BOOKINGS: '{"amend":["E1"]}' }).bookings).toEqual({ cancel: [], amend: ['E1'], specialRequest: [], transfers: [] });
    expect(resolveRunSettingsFlags({ config: cfg }, {}).bookings).toEqual({ cancel: ['K1'], amend: [], specialRequest: ['42'], transfers: [{ id: 'T1', email: 'x@example.com' }] });
    expect(resolveRunSettingsFlags({ config: file('cfg2.json', { bookings: a }) }, {}).bookings?.cancel).toEqual(['A1']);
    expect(resolveRunSettingsFlags({}, {}).bookings).toBeUndefined();
  });
  test('a bad pool is refused, naming its source', () => {
    expect(() => resolveRunSettingsFlags({ bookings: file('dup.json', { cancel: ['A', 'A'] }) }, {})).toThrow(ConfigError);
    expect(() => resolveRunSettingsFlags({ bookings: file('dup.json', { cancel: ['A', 'A'] }) }, {})).toThrow(/bookings file .*dup\.json \(--bookings\)\.cancel lists the booking A twice/);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{' })).toThrow(UsageError);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{' })).toThrow(/^environment variable CONFORMANCE_BOOKINGS is not JSON/);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS: '{"cancle":[]}' })).toThrow(/environment variable CONFORMANCE_BOOKINGS: unknown pool "cancle"/);
    expect(() => resolveRunSettingsFlags({ config: file('c.json', { bookings: { specialRequest: ['abc'] } }) }, {})).toThrow(/: bookings\.specialRequest\[0\] must be an int booking id/);
    expect(() => resolveRunSettingsFlags({ config: file('c2.json', { bookings: { transfers: [{ id: 'T' }] } }) }, {})).toThrow(/bookings\.transfers|transfers\/0/);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_BOOKINGS_FILE: join(dir, 'absent.json') })).toThrow(/environment variable CONFORMANCE_BOOKINGS_FILE/);
  });
  test('parseBookings: ids are trimmed strings, numbers allowed', () => {
    expect(parseBookings({ cancel: [' 7 ', 8] }, 'x')).toEqual({ cancel: ['7', '8'], amend: [], specialRequest: [], transfers: [] });
    expect(parseBookings([], 'x')).toMatch(/^x must be an object/);
  });
});
