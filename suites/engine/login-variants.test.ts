/**
 * The login variants of issue 42, section 1 (./plan.ts LOGIN_VARIANTS): planned on every operation ×
 * binding (nil on SOAP only), never on a pool booking, bounded by --max-failed-logins with every
 * variant and binding still tried, left out with the group's check; and proven end to end against
 * the mock: a login check that lets one in is pinpointed, the correct mock passes.
 */
import { describe, expect, test } from 'vitest';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  findOperation,
  OPERATIONS,
} from '../../src/contract/catalogue.js';
import { selectChecks } from '../../src/checks/registry.js';
import { NIL_VALUE } from '../../src/bindings/types.js';
import { LOGIN_CASE_IDS } from '../../src/core/check-groups.js';
import { makeRedactor } from '../../src/core/redact.js';
import type { Target } from '../../src/core/types.js';
import { startMock } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { Transport } from '../../src/transport/client.js';
import { idParamOf, mockBookings } from '../../src/engine/bookings.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import {
  bindingParams,
  failedLogins,
  loginTries,
  LOGIN_VARIANTS,
  planUnits,
  secretsOf,
  spreadLogins,
  unitRequests,
  type RunPlan,
} from '../../src/engine/plan.js';
import { checksOf } from '../../src/engine/session.js';
import { runPlan } from '../../src/engine/run.js';
import { testTarget } from '../../test/support/target.js';

const target = (over: Partial<Target> = {}): Target =>
  testTarget({
    user: 'agent-7',
    password: 'Tr0ub4dor&3',
    other: { user: 'agent-8', password: 'correct-horse-9' },
    ...over,
  });
const plan = (over: Partial<RunPlan> = {}): RunPlan => ({
  target: target(),
  bindings: BINDINGS,
  operations: OPERATIONS,
  cases: loadFixtureCases(),
  allowMutations: true,
  checks: selectChecks(),
  negative: true,
  equivalence: true,
  bookings: mockBookings(100),
  ...over,
});
const loginUnitsOf = (p: RunPlan) => planUnits(p).filter((u) => u.kind === 'login-variant');

describe('login variants: the plan', () => {
  test("every variant on every operation × binding, nil through SOAP only; their ids are the hostile group's", () => {
    expect(LOGIN_VARIANTS.map((v) => v.id)).toEqual(LOGIN_CASE_IDS);
    const units = loginUnitsOf(plan());
    expect(units).toHaveLength(OPERATIONS.length * LOGIN_VARIANTS.length);
    for (const u of units)
      expect(u.only, `${u.op.name} ${u.caseId}`).toEqual(
        u.caseId === 'login-password-nil' ? ['soap11', 'soap12'] : BINDINGS,
      );
    const nil = units.find((u) => u.caseId === 'login-password-nil')!;
    const [soap] = unitRequests(plan(), nil);
    expect(soap!.request.body).toMatch(
      /<password xsi:nil="true" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance"\/>/,
    );
    const sent = (id: string) => units.find((u) => u.caseId === id && u.op.name === 'GetMeals')!.params;
    expect(sent('login-password-absent')).toMatchObject({ userName: 'agent-7' });
    expect(sent('login-password-absent')).not.toHaveProperty('password');
    expect(sent('login-user-absent')).not.toHaveProperty('userName');
    expect(sent('login-password-nil').password).toBe(NIL_VALUE);
    expect(sent('login-password-extended').password).toBe('Tr0ub4dor&3x');
    expect(sent('login-password-prefix').password).toBe('Tr0ub4dor&');
    expect(sent('login-password-spaced').password).toBe(' Tr0ub4dor&3 ');
    expect(sent('login-other-user-my-password')).toMatchObject({ userName: 'agent-8', password: 'Tr0ub4dor&3' });
    expect(sent('login-my-user-other-password')).toMatchObject({ userName: 'agent-7', password: 'correct-horse-9' });
  });

  test('without a second account, the crossed variants are not planned', () => {
    const ids = new Set(loginUnitsOf(plan({ target: target({ other: undefined }) })).map((u) => u.caseId));
    expect([...ids]).toEqual(LOGIN_CASE_IDS.filter((id) => !id.includes('other')));
  });

  test('state-changing operations get probe ids, never a pool booking, and after every read (stage writes)', () => {
    const pools = mockBookings(100);
    const poolIds = new Set([
      ...pools.cancel,
      ...pools.amend,
      ...pools.specialRequest,
      ...pools.transfers.map((t) => t.id),
    ]);
    const fixtureIds = new Set(
      OPERATIONS.filter((o) => o.mutates).flatMap((o) =>
        loadFixtureCases()
          .get(o.name)!
          .flatMap((c) => Object.values(c.params)),
      ),
    );
    for (const u of loginUnitsOf(plan()).filter((x) => x.op.mutates)) {
      expect(u.bookings, `${u.op.name} ${u.caseId}`).toBeUndefined();
      expect(u.calls).toBe('probe');
      expect(u.stage).toBe('writes');
      for (const b of u.only!) {
        const id = bindingParams(u, b)[idParamOf(u.op.name)!]!;
        expect(poolIds.has(id) || fixtureIds.has(id), `${u.op.name} ${u.caseId} ${b} sends ${id}`).toBe(false);
        expect(id).toMatch(/^-\d+$|^PROBE-V\d+$/);
      }
    }
    // The reads' variants wait for the wrong password's answer (stage read-backs).
    for (const u of loginUnitsOf(plan()).filter((x) => !x.op.mutates)) expect(u.stage).toBe('read-backs');
  });

  test('the password, its prefix included, never shows in the plan as listed (every spelling masked)', () => {
    const redact = makeRedactor(secretsOf(target()));
    for (const u of loginUnitsOf(plan()))
      for (const v of Object.values(u.params)) expect(redact(v)).not.toMatch(/Tr0ub4dor|correct-horse/);
  });

  test('--skip-checks hostile_requests (or --no-negative) sends none of them', () => {
    const checks = checksOf({ checks: undefined, skipChecks: ['hostile_requests'] });
    expect(checks.map((c) => c.name)).not.toContain('login_rejected');
    expect(checks.map((c) => c.name)).not.toContain('secret_echoed');
    expect(loginUnitsOf(plan({ checks }))).toEqual([]);
    expect(loginUnitsOf(plan({ negative: false }))).toEqual([]);
    expect(() => checksOf({ checks: undefined, skipChecks: ['hostile_request'] })).toThrow(
      /unknown check name.*hostile_request.*groups: hostile_requests/,
    );
  });
});

describe('--max-failed-logins: spread over the operations × bindings', () => {
  test.each([8, 10, 20, 57])('at most %i, every variant and every binding tried', (max) => {
    const p = plan({ maxFailedLogins: max });
    const units = loginUnitsOf(p);
    const tries = units.flatMap((u) => u.only!.map((b) => ({ variant: u.caseId, binding: b, op: u.op.name })));
    expect(tries).toHaveLength(max);
    expect(new Set(tries.map((t) => t.variant)).size).toBe(LOGIN_VARIANTS.length);
    expect(new Set(tries.map((t) => t.binding)).size).toBe(BINDINGS.length);
    // Spread: no operation takes more than its share (rounded up, one over at most).
    const perOp = new Map<string, number>();
    for (const t of tries) perOp.set(t.op, (perOp.get(t.op) ?? 0) + 1);
    expect(Math.max(...perOp.values())).toBeLessThanOrEqual(Math.ceil(max / OPERATIONS.length) + 1);
    const f = failedLogins(p);
    expect(f.variants).toBe(max);
    expect(f.variantsAll).toBe(OPERATIONS.length * (LOGIN_VARIANTS.length * BINDINGS.length - 2));
  });

  test('the default sends all of them; a bound at or above all changes nothing; 0 sends none', () => {
    const all = loginTries(plan());
    expect(spreadLogins(all, undefined, OPERATIONS, BINDINGS)).toEqual(all);
    expect(spreadLogins(all, all.length, OPERATIONS, BINDINGS)).toEqual(all);
    expect(loginUnitsOf(plan({ maxFailedLogins: 0 }))).toEqual([]);
    const f = failedLogins(plan());
    expect(f.variants).toBe(all.length);
    // The wrong password and the variants credentials_rejected judges: five per operation × binding (one fewer without
    // a letter in the password).
    expect(f.reference).toBe(OPERATIONS.length * BINDINGS.length * 5);
  });
});

describe('login variants: end to end against the mock', () => {
  const run = async (faults: string[], operations: string[], bookings?: boolean) => {
    const mock = await startMock({ faults, ...(bookings ? { bookings: mockBookings() } : {}) });
    const transport = new Transport({ concurrency: 8, timeoutMs: 20_000 });
    try {
      return await runPlan(
        {
          target: {
            bookUrl: mock.url,
            searchUrl: mock.url,
            transfersUrl: mock.url,
            paths: DEFAULT_PATHS,
            namespaces: DEFAULT_NAMESPACES,
            user: 'mock-user',
            password: 'mock-password',
            embedded: true,
            other: { user: 'mock-other', password: 'mock-other-password' },
          },
          bindings: BINDINGS,
          operations: operations.map((n) => findOperation(n)!),
          cases: loadFixtureCases(),
          allowMutations: true,
          checks: selectChecks(),
          negative: true,
          equivalence: true,
        },
        { transport, validator: createDocumentValidator(DEFAULT_NAMESPACES) },
      );
    } finally {
      await transport.close();
      await mock.close();
    }
  };
  const failed = (r: Awaited<ReturnType<typeof run>>) =>
    r.results
      .filter((x) => x.status === 'failed')
      .map((x) => `${x.operation} ${x.binding} ${x.case} ${x.check} ${x.findings?.[0]?.code}`);

  test('the correct mock passes every variant; a login check letting one in is pinpointed on its operation, '
    + 'binding and variant', async () => {
    const ok = await run([], ['GetMeals', 'CancelBooking']);
    expect(failed(ok)).toEqual([]);
    expect(ok.results.filter((x) => x.check === 'login_rejected' && x.status === 'passed')).toHaveLength(
      2 * (LOGIN_VARIANTS.length * BINDINGS.length - 2),
    );
    expect(failed(await run(['login-accepts-password-with-characters-added'], ['GetMeals']))).toEqual([
      'GetMeals soap11 login-password-extended login_rejected login_bypassed',
    ]);
    // A state-changing operation: the probe id is not found where the wrong password was refused.
    expect(failed(await run(['login-accepts-crossed-accounts'], ['CancelBooking'], true))).toEqual([
      'CancelBooking soap11 login-other-user-my-password login_rejected login_bypassed',
      'CancelBooking soap11 login-my-user-other-password login_rejected login_bypassed',
    ]);
  }, 120_000);
});
