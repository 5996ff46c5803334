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
import { EMPTY_POOLS, type BookingPools } from '../core/booking-pools.js';
import { judgeRun } from '../core/verdict.js';
import { OTHER_LOGIN_CHECK } from '../engine/other-login.js';
import { runPlan } from '../engine/run.js';
import { startMock } from '../mock/index.js';
import { Transport } from '../transport/client.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';

const FOREIGN_OPS = [
  'GetSpecialRequest',
  'UpdateSpecialRequest',
  'AmendmentPriceRequest',
  'AmendmentRequest',
  'CancelBooking',
  'CancelTransferBooking',
];
const OPS = FOREIGN_OPS.map((n) => findOperation(n)!);
const OTHER = { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD };
const CASES = ['foreign-account', 'foreign-special-request', 'foreign-account-transfer'].map((f) => SEQUENCE_CASE[f]!);

const plan = (url: string, operations: readonly Operation[] = OPS, over: Partial<Target> = { other: OTHER }) =>
  sequencePlan(url, operations, over);
const against = (options: Partial<MockOptions>, over?: Partial<Target>, operations: readonly Operation[] = OPS) =>
  runAgainstMock(options, operations, { other: OTHER, ...over });

const failed = (r: RunReport) => r.results.filter((x) => x.status === 'failed');
const foreignRows = (r: RunReport) => r.results.filter((x) => CASES.includes(x.case) && x.check === SEQUENCE_CHECK);

describe("another account's bookings", () => {
  test.for(MOCK_STYLES)(
    'a correct mock (%s) refuses every call of the second account on every binding: passed, each '
      + 'operation × binding judged',
    async ([, options]) => {
      const r = await against(options as Partial<MockOptions>);
      expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`)).toEqual([]);
      const rows = foreignRows(r);
      expect(
        rows.filter((x) => x.status !== 'passed').map((x) => `${x.operation} ${x.binding} ${x.case}: ${x.message}`),
      ).toEqual([]);
      expect(rows.map((x) => `${x.operation} ${x.binding}`).sort()).toEqual(
        FOREIGN_OPS.flatMap((o) => BINDINGS.map((b) => `${o} ${b}`)).sort(),
      );
      expect(r.diagnosis?.some((d) => d.message === NO_SECOND_ACCOUNT)).not.toBe(true);
      // Its login proven first, once, on every binding: a row each, passed; nothing said of it.
      expect(
        r.results
          .filter((x) => x.check === OTHER_LOGIN_CHECK)
          .map((x) => `${x.operation} ${x.binding} ${x.case} ${x.status}`),
      ).toEqual(BINDINGS.map((b) => `GetLanguages ${b} preflight passed`));
      expect(r.diagnosis?.filter((d) => /login/.test(d.code ?? '')) ?? []).toEqual([]);
      expect(judgeRun(r).verdict).toBe('PASS');
      // The second account's calls are in the bookings' ledger, named by its user; no password anywhere.
      expect(r.bookings!.changed.filter((c) => c.account === DEFAULT_OTHER_USER).length).toBe(4 * 4);
      expect(JSON.stringify(r)).not.toContain(DEFAULT_OTHER_PASSWORD);
    },
  );

  test.for([
    ['soap11-reads-foreign-special-request', 'GetSpecialRequest', 'soap11', 'foreign_booking_read'],
    ['post-writes-foreign-special-request', 'UpdateSpecialRequest', 'post', 'foreign_booking_changed'],
    ['soap12-prices-foreign-booking', 'AmendmentPriceRequest', 'soap12', 'foreign_booking_read'],
    ['get-amends-foreign-booking', 'AmendmentRequest', 'get', 'foreign_booking_changed'],
    ['get-cancels-foreign-booking', 'CancelBooking', 'get', 'foreign_booking_changed'],
    ['soap11-cancels-foreign-transfer', 'CancelTransferBooking', 'soap11', 'foreign_booking_changed'],
  ] as const)(
    '%s is pinned on %s %s, code %s, with the steps that show it as the second account',
    async ([fault, operation, binding, code]) => {
      const r = await against({ faults: [fault] });
      const rows = failed(r);
      expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual([
        `${operation} ${binding} ${code}`,
      ]);
      expect(rows[0]!.message).toMatch(
        new RegExp(`^${operation} ${binding} with the credentials of the second account`),
      );
      expect(
        rows[0]!.steps!.some(
          (s) => s.account === DEFAULT_OTHER_USER && s.operation === operation && s.binding === binding,
        ),
      ).toBe(true);
      // Every report's steps say which calls went as the second account.
      expect(formatDefects(rows)).toMatch(
        new RegExp(`\\d+\\. ${operation} ${binding} · booking \\S+ · as ${DEFAULT_OTHER_USER}`),
      );
      // The re-run script sends the second account's calls with its password from its own variable.
      expect(rows[0]!.reproduce).toContain('CONFORMANCE_OTHER_PASSWORD');
      expect(JSON.stringify(r)).not.toContain(DEFAULT_OTHER_PASSWORD);
      // The steps and the ledger name the second account: the report stays valid against its schema.
      expect(validateReport(JSON.parse(JSON.stringify(r)))).toEqual([]);
    },
  );

  test("a refused write whose text is read back all the same is the write's, pinned on its binding", async () => {
    // SOAP 1.2 stores the second account's text, then answers it with an in-band "not found".
    let foreignCall = false;
    const r = await against({
      faults: [
        {
          name: 'soap12-refuses-but-stores',
          description: "SOAP 1.2 stores another account's text, then refuses the call",
          category: 'authorization',
          operation: 'UpdateSpecialRequest',
          bindings: ['soap12'],
          apply: {
            params: (p, c) => {
              foreignCall = p.userName === c.other?.user;
              return foreignCall ? { ...p, userName: c.credentials.user, password: c.credentials.password } : p;
            },
            value: (v, c) =>
              foreignCall && c.kind === 'data'
                ? { Error: { ErrorType: 'BookingNotFoundException', Message: 'No booking with this ID was found.' } }
                : v,
          },
        },
      ],
    });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual([
      'UpdateSpecialRequest soap12 foreign_booking_changed',
    ]);
    expect(rows[0]!.message).toMatch(
      /^UpdateSpecialRequest soap12 with the credentials of the second account, of booking \S+ of this run's account, was refused, yet GetSpecialRequest \S+ with its own account reads the text it sent/,
    );
  });

  /**
   * A fault that lets the second account act as the first on one binding, then answers its call with an in-band "not
   * found" (the data kept beside it: `keepData`).
   */
  function actsThenRefuses(operation: string, binding: 'soap11' | 'soap12' | 'get' | 'post', keepData = false) {
    let foreignCall = false;
    return {
      name: `${binding}-acts-then-refuses`,
      description: `${binding} acts for another account on ${operation}, then refuses the call`,
      category: 'authorization' as const,
      operation,
      bindings: [binding],
      apply: {
        params: (
          p: Readonly<Record<string, string | undefined>>,
          c: { credentials: { user: string; password: string }; other?: { user: string } },
        ) => {
          foreignCall = p.userName === c.other?.user;
          return foreignCall ? { ...p, userName: c.credentials.user, password: c.credentials.password } : p;
        },
        value: (v: never, c: { kind: string }) =>
          foreignCall && c.kind === 'data'
            ? {
                ...(keepData ? (v as object) : {}),
                Error: { ErrorType: 'BookingNotFoundException', Message: 'No booking with this ID was found.' },
              }
            : v,
      },
    };
  }

  test(
    '"already cancelled" to its own account after refused calls only: no verdict on the target (a used '
      + 'pool booking looks the same), the pool named',
    async () => {
      // The GET binding cancels the transfer booking and refuses the call: without a read of a transfer
      // booking, that cannot be told from a pool booking cancelled before the run (issue 40, section 3).
      const r = await against({ faults: [actsThenRefuses('CancelTransferBooking', 'get') as never] });
      expect(failed(r).map((x) => `${x.operation} ${x.binding} ${x.case}`)).toEqual([]);
      const rows = foreignRows(r).filter((x) => x.operation === 'CancelTransferBooking');
      expect(rows.map((x) => `${x.binding} ${x.status}`)).toEqual(BINDINGS.map((b) => `${b} skipped`));
      for (const x of rows) {
        expect(x.message).toMatch(
          /^not tested: transfer booking \S+ of `bookings\.transfers` was not shown to be this account's and live: its own account's cancellation \(CancelTransferBooking soap11\) answered .*"already cancelled": either the pool's booking was cancelled before this run .* or one of the second account's refused calls \(through soap11, soap12, get, post\) cancelled it/,
        );
      }
    },
  );

  test(
    'a transfer booking its own account finds "not found" was never its own: the row is not tested, '
      + 'naming the pool, never a failure of the target',
    async () => {
      const transfer = [findOperation('CancelTransferBooking')!];
      // The run's pool holds transfer bookings the mock does not know (it knows only those of fixtures/cases).
      const needs = bookingNeeds(plan('http://x.test', transfer)).transfers;
      expect(needs).toBeGreaterThan(0);
      const unknown = {
        ...EMPTY_POOLS,
        transfers: Array.from({ length: needs }, (_, i) => ({
          id: `TR-NOT-OURS-${i}`,
          email: `nobody${i}@example.com`,
        })),
      };
      const own = async (mine: BookingPools, faults: MockOptions['faults'] = []) => {
        const m = await startMock({ port: 0, bookings: mine, faults });
        try {
          return await runPlan(
            { ...plan(m.url, transfer), bookings: unknown },
            { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
          );
        } finally {
          await m.close();
        }
      };
      // As measured on a service where an id exists on first touch: the second account's cancellation
      // through SOAP 1.1 is accepted (the booking is its own there), and this account's is "not found":
      // no foreign_booking_changed, since nothing shows the booking was ever this account's.
      let foreignCall = false;
      const itsOwn = {
        name: 'soap11-second-account-owns-it',
        description: 'SOAP 1.1 lets the second account cancel a transfer booking as its own',
        category: 'authorization',
        operation: 'CancelTransferBooking',
        bindings: ['soap11'],
        apply: {
          params: (p: Readonly<Record<string, string | undefined>>, c: { other?: { user: string } }) => {
            foreignCall = p.userName === c.other?.user;
            return p;
          },
          value: (v: unknown, c: { validValue: () => unknown }) => (foreignCall ? c.validValue() : v),
        },
      };
      for (const faults of [[], [itsOwn as never]]) {
        const r = await own(EMPTY_POOLS, faults);
        // The ledger shows the second account's cancellation accepted where the fault says so.
        expect(
          r
            .bookings!.changed.filter((c) => c.account === DEFAULT_OTHER_USER && c.outcome === 'accepted')
            .map((c) => c.binding),
        ).toEqual(faults.length ? ['soap11'] : []);
        const rows = foreignRows(r);
        expect(rows.map((x) => `${x.operation} ${x.binding} ${x.status}`)).toEqual(
          BINDINGS.map((b) => `CancelTransferBooking ${b} skipped`),
        );
        expect(rows[0]!.message).toMatch(
          /^not tested: transfer booking TR-NOT-OURS-\d+ of `bookings\.transfers` was not shown to be this account's: its own account's cancellation \(CancelTransferBooking soap11\) answered .*not found.*give `bookings\.transfers` transfer bookings of this account/i,
        );
      }
      // The same pool known to the mock (the account's own bookings): judged, and passed.
      const r = await own(unknown);
      expect(foreignRows(r).map((x) => `${x.operation} ${x.binding} ${x.status}`)).toEqual(
        BINDINGS.map((b) => `CancelTransferBooking ${b} passed`),
      );
    },
  );

  test("a refusal that carries the booking's special request all the same revealed it: foreign_booking_read", async () => {
    const r = await against({ faults: [actsThenRefuses('GetSpecialRequest', 'post', true) as never] });
    const rows = failed(r);
    expect(rows.map((x) => `${x.operation} ${x.binding} ${x.findings.map((f) => f.code).join(',')}`)).toEqual([
      'GetSpecialRequest post foreign_booking_read',
    ]);
    expect(rows[0]!.message).toMatch(/refused it but revealed its special request/);
  });

  test(
    'a wrong second password: its login is refused, its families are not tested (no row passes, nothing '
      + 'sent as it), the run is UNTESTED, the cause named first',
    async () => {
      const WRONG = 'Wr0ng-0ther-pw';
      const r = await against({}, { other: { ...OTHER, password: WRONG } });
      const rows = foreignRows(r);
      expect(rows.length).toBe(FOREIGN_OPS.length * BINDINGS.length);
      expect(rows.filter((x) => x.status !== 'skipped').map((x) => `${x.operation} ${x.binding} ${x.status}`)).toEqual(
        [],
      );
      for (const x of rows)
        expect(x.message).toMatch(
          /^not tested: the second account's login \(mock-other\) was refused through soap11: GetLanguages with its credentials was refused as a wrong login/,
        );
      // Nothing was sent as the second account but the login proof, and no booking was spent on it.
      expect(r.bookings!.changed.filter((c) => c.account === DEFAULT_OTHER_USER)).toEqual([]);
      expect(r.results.filter((x) => x.check === OTHER_LOGIN_CHECK).map((x) => `${x.binding} ${x.status}`)).toEqual(
        BINDINGS.map((b) => `${b} skipped`),
      );
      expect(r.results.find((x) => x.check === OTHER_LOGIN_CHECK)!.response).toMatch(
        /Authentication failed|credentials/i,
      );
      // Said first, naming where the password came from; the one verdict UNTESTED (exit 5), that cause its reason.
      expect(r.diagnosis![0]).toMatchObject({ level: 'error', code: 'other_login_refused' });
      expect(r.diagnosis![0]!.message).toMatch(
        /^the second account's login was refused: GetLanguages with the credentials of mock-other was refused as a wrong login .* through soap11, soap12, get, post: authorization across accounts was not tested .*check its password \(from environment variable CONFORMANCE_OTHER_PASSWORD\)/,
      );
      expect(judgeRun(r)).toMatchObject({ verdict: 'UNTESTED', exitCode: 5, reason: r.diagnosis![0]!.message });
      expect(JSON.stringify(r)).not.toContain(WRONG);
      // With a failure besides, the run fails: never PASS either way.
      const f = await against(
        { faults: ['get-cancels-foreign-booking', 'missing-required-element'] },
        { other: { ...OTHER, password: WRONG } },
        [...OPS, findOperation('GetMeals')!],
      );
      expect(foreignRows(f).filter((x) => x.status !== 'skipped')).toEqual([]);
      expect(judgeRun(f).verdict).toBe('FAIL');
    },
  );

  test(
    "a login refused on one binding only: that binding's calls are not sent nor judged, the others are; "
      + 'the run is UNTESTED all the same',
    async () => {
      const r = await against({
        faults: [
          {
            name: 'post-refuses-second-account',
            description: "HTTP POST refuses the second account's login",
            category: 'credentials',
            operation: 'GetLanguages',
            bindings: ['post'],
            apply: { params: (p, c) => (p.userName === c.other?.user ? { ...p, password: 'x' } : p) },
          },
        ],
      });
      const rows = foreignRows(r);
      expect(rows.filter((x) => x.binding === 'post').map((x) => x.status)).toEqual(FOREIGN_OPS.map(() => 'skipped'));
      expect(rows.filter((x) => x.binding !== 'post' && x.status !== 'passed')).toEqual([]);
      expect(r.bookings!.changed.filter((c) => c.account === DEFAULT_OTHER_USER && c.binding === 'post')).toEqual([]);
      expect(judgeRun(r)).toMatchObject({
        verdict: 'UNTESTED',
        exitCode: 5,
        reason: expect.stringMatching(/^the second account's login was refused: .* through post:/),
      });
    },
  );

  test(
    'without a second account none of it is planned, and the run says authorization across accounts was '
      + 'not tested, and how to enable it',
    () => {
      const p = plan('http://x.test', OPS, {});
      expect(planUnits(p).filter((u) => CASES.includes(u.caseId))).toEqual([]);
      expect(sequenceNotes(p)).toEqual([{ level: 'note', code: 'sequence_not_planned', message: NO_SECOND_ACCOUNT }]);
      expect(NO_SECOND_ACCOUNT).toMatch(
        /--other-user NAME.*CONFORMANCE_OTHER_PASSWORD.*target\.otherUser.*target\.otherPasswordEnv/,
      );
      expect(sequenceNotes(plan('http://x.test'))).toEqual([]);
    },
  );

  test(
    'bookings: one of bookings.cancel and one of bookings.transfers; the special request uses '
      + "write-read's booking again",
    () => {
      const withOther = bookingNeeds(plan('http://x.test'));
      const without = bookingNeeds(plan('http://x.test', OPS, {}));
      expect(withOther.cancel - without.cancel).toBe(1);
      expect(withOther.transfers - without.transfers).toBe(1);
      expect(withOther.specialRequest).toBe(without.specialRequest);
    },
  );
});
