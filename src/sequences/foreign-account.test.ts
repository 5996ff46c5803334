import { describe, expect, test } from 'vitest';
import { MOCK_STYLES, runAgainstMock, sequencePlan } from '../../test/support/sequences.js';
import { BINDINGS, findOperation, type Operation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { RunReport, Target } from '../core/types.js';
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, type MockOptions } from '../mock/index.js';
import { bookingNeeds, planUnits, sequenceNotes } from '../engine/plan.js';
import { SEQUENCE_CASE } from './index.js';
import { NO_SECOND_ACCOUNT } from './foreign-account.js';
import { validateReport } from '../schema/json.js';
import { formatDefects } from '../report/console.js';

const FOREIGN_OPS = ['GetSpecialRequest', 'UpdateSpecialRequest', 'AmendmentPriceRequest', 'AmendmentRequest', 'CancelBooking', 'CancelTransferBooking'];
const OPS = FOREIGN_OPS.map((n) => findOperation(n)!);
const OTHER = { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD };
const CASES = ['foreign-account', 'foreign-special-request', 'foreign-account-transfer'].map((f) => SEQUENCE_CASE[f]!);

const plan = (url: string, operations: readonly Operation[] = OPS, over: Partial<Target> = { other: OTHER }) => sequencePlan(url, operations, over);
const against = (options: Partial<MockOptions>, over?: Partial<Target>, operations: readonly Operation[] = OPS) => runAgainstMock(options, operations, { other: OTHER, ...over });

const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const foreignRows = (r: RunReport) => r.results.filter((x) => CASES.includes(x.case) && x.check === SEQUENCE_CHECK);

describe('another account\'s bookings', () => {
  test.for(MOCK_STYLES)(
    'a correct mock (%s) refuses every call of the second account on every binding: passed, each operation × binding judged', async ([, options]) => {
      const r = await against(options as Partial<MockOptions>);
      expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
      const rows = foreignRows(r);
      expect(rows.filter((x) => x.status !== 'passed').map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
      expect(rows.map((x) => `${x.operation} ${x.binding}`).sort()).toEqual(FOREIGN_OPS.flatMap((o) => BINDINGS.map((b) => `${o} ${b}`)).sort());
      expect(r.diagnosis?.some((d) => d.message === NO_SECOND_ACCOUNT)).not.toBe(true);
      // The second account's calls are in the bookings' ledger, named by its user; no password anywhere.
      expect(r.bookings!.changed.filter((c) => c.account === DEFAULT_OTHER_USER).length).toBe(4 * 4);
      expect(JSON.stringify(r)).not.toContain(DEFAULT_OTHER_PASSWORD);
    });

  test.for([
    ['soap11-reads-foreign-special-request', 'GetSpecialRequest', 'soap11', 'foreign_booking_read'],
    ['post-writes-foreign-special-request', 'UpdateSpecialRequest', 'post', 'foreign_booking_changed'],
    ['soap12-prices-foreign-booking', 'AmendmentPriceRequest', 'soap12', 'foreign_booking_read'],
    ['get-amends-foreign-booking', 'AmendmentRequest', 'get', 'foreign_booking_changed'],
    ['get-cancels-foreign-booking', 'CancelBooking', 'get', 'foreign_booking_changed'],
    ['soap11-cancels-foreign-transfer', 'CancelTransferBooking', 'soap11', 'foreign_booking_changed'],
  ] as const)('%s is pinned on %s %s, code %s, with the steps that show it as the second account', async ([fault, operation, binding, code]) => {
    const r = await against({ faults: [fault] });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual([`${operation} ${binding} ${code}`]);
    expect(rows[0]!.message).toMatch(new RegExp(`^${operation} ${binding} with the credentials of the second account`));
    expect(rows[0]!.steps!.some((s) => s.account === DEFAULT_OTHER_USER && s.operation === operation && s.binding === binding)).toBe(true);
    // Every report's steps say which calls went as the second account.
    expect(formatDefects(rows)).toMatch(new RegExp(`\\d+\\. ${operation} ${binding} · booking \\S+ · as ${DEFAULT_OTHER_USER}`));
    // The re-run script sends the second account's calls with its password from its own variable.
    expect(rows[0]!.reproduce).toContain('CONFORMANCE_OTHER_PASSWORD');
    expect(JSON.stringify(r)).not.toContain(DEFAULT_OTHER_PASSWORD);
    // The steps and the ledger name the second account: the report stays valid against its schema.
    expect(validateReport(JSON.parse(JSON.stringify(r)))).toEqual([]);
  });

  test('a refused write whose text is read back all the same is the write\'s, pinned on its binding', async () => {
    // SOAP 1.2 stores the second account's text, then answers it with an in-band "not found".
    let foreignCall = false;
    const r = await against({
      faults: [{
        name: 'soap12-refuses-but-stores', description: 'SOAP 1.2 stores another account\'s text, then refuses the call', category: 'authorization',
        operation: 'UpdateSpecialRequest', bindings: ['soap12'],
        apply: {
          params: (p, c) => {
            foreignCall = p.userName === c.other?.user;
            return foreignCall ? { ...p, userName: c.credentials.user, password: c.credentials.password } : p;
          },
          value: (v, c) => (foreignCall && c.kind === 'data' ? { Error: { ErrorType: 'BookingNotFoundException', Message: 'No booking with this ID was found.' } } : v),
        },
      }],
    });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual(['UpdateSpecialRequest soap12 foreign_booking_changed']);
    expect(rows[0]!.message).toMatch(/^UpdateSpecialRequest soap12 with the credentials of the second account, of booking \S+ of this run's account, was refused, yet GetSpecialRequest \S+ with its own account reads the text it sent/);
  });

  /** A fault that lets the second account act as the first on one binding, then answers its call with an in-band "not found" (the data kept beside it: `keepData`). */
  function actsThenRefuses(operation: string, binding: 'soap11' | 'soap12' | 'get' | 'post', keepData = false) {
    let foreignCall = false;
    return {
      name: `${binding}-acts-then-refuses`, description: `${binding} acts for another account on ${operation}, then refuses the call`, category: 'authorization' as const,
      operation, bindings: [binding],
      apply: {
        params: (p: Readonly<Record<string, string | undefined>>, c: { credentials: { user: string; password: string }; other?: { user: string } }) => {
          foreignCall = p.userName === c.other?.user;
          return foreignCall ? { ...p, userName: c.credentials.user, password: c.credentials.password } : p;
        },
        value: (v: never, c: { kind: string }) => (foreignCall && c.kind === 'data' ? { ...(keepData ? v as object : {}), Error: { ErrorType: 'BookingNotFoundException', Message: 'No booking with this ID was found.' } } : v),
      },
    };
  }

  test('a refused cancellation that cancelled all the same: its own account finds the transfer booking "already cancelled", every binding that sent one named', async () => {
    const r = await against({ faults: [actsThenRefuses('CancelTransferBooking', 'get') as never] });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`).sort()).toEqual(
      BINDINGS.map((b) => `CancelTransferBooking ${b} foreign_booking_changed`).sort());
    expect(rows[0]!.message).toMatch(/was refused, yet its own account then could not cancel it: "already cancelled"/);
  });

  test('a refusal that carries the booking\'s special request all the same revealed it: foreign_booking_read', async () => {
    const r = await against({ faults: [actsThenRefuses('GetSpecialRequest', 'post', true) as never] });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual(['GetSpecialRequest post foreign_booking_read']);
    expect(rows[0]!.message).toMatch(/refused it but revealed its special request/);
  });

  test('without a second account none of it is planned, and the run says authorization across accounts was not tested, and how to enable it', () => {
    const p = plan('http://x.test', OPS, {});
    expect(planUnits(p).filter((u) => CASES.includes(u.caseId))).toEqual([]);
    expect(sequenceNotes(p)).toEqual([{ level: 'note', code: 'sequence_not_planned', message: NO_SECOND_ACCOUNT }]);
    expect(NO_SECOND_ACCOUNT).toMatch(/--other-user NAME.*CONFORMANCE_OTHER_PASSWORD.*target\.otherUser.*target\.otherPasswordEnv/);
    expect(sequenceNotes(plan('http://x.test'))).toEqual([]);
  });

  test('bookings: one of bookings.cancel and one of bookings.transfers; the special request uses write-read\'s booking again', () => {
    const withOther = bookingNeeds(plan('http://x.test'));
    const without = bookingNeeds(plan('http://x.test', OPS, {}));
    expect(withOther.cancel - without.cancel).toBe(1);
    expect(withOther.transfers - without.transfers).toBe(1);
    expect(withOther.specialRequest).toBe(without.specialRequest);
  });
});
