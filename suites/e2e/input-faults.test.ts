/**
 * The faults only some inputs trigger (issue 16, src/mock/faults.ts `triggeredBy`): byte for byte the
 * correct mock on every hand-written case and every request the harness sent before generation
 * (the wrong password, the bad requests), and different only on the fault's bindings for some
 * generated case or credential variant. The self-test (suites/self-test.test.ts) shows that the
 * harness pinpoints each at the default budget.
 *
 * Two exceptions, by nature: the fault far down a large result is triggered by the broadest result,
 * and the fixture's SearchTransfers `default` case asks for exactly that (so the planner sends no
 * `gen-broadest` beside it). That fault must differ on `default` alone among the hand-written cases;
 * with a case table that has no such case, as a user's may not, `gen-broadest` must find it. And
 * HTTP GET's UTF-8 read as Latin-1 (a special request written) is triggered by the fixture's
 * UpdateSpecialRequest `non-ascii` case, which holds such text: it must differ there alone, and
 * without that case the generated ones must find it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  findOperation,
  OPERATIONS,
} from '../../src/contract/catalogue.js';
import type { Exchange } from '../../src/core/types.js';
import { loadFixtureCases, type CaseTable, type RequestCase } from '../../src/engine/cases.js';
import {
  BROADEST_CASE,
  broadestCase,
  DEFAULT_EXAMPLES,
  DEFAULT_SEED,
  FIXED_LANGUAGES,
} from '../../src/engine/generate.js';
import { planUnits, unitRequests, WRONG_CREDENTIALS_CASE, type RunPlan, type Unit } from '../../src/engine/plan.js';
import {
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  startMock,
  type RunningMock,
} from '../../src/mock/index.js';
import { FAULTS } from '../../src/mock/faults.js';
import { faultBindings } from '../../src/mock/fault-lookup.js';
import type { Fault } from '../../src/mock/fault-types.js';
import type { BookingPools } from '../../src/core/booking-pools.js';
import { ON_A_BOOKING_OF_ITS_OWN } from '../../test/support/issue23.js';
import { mockBookings } from '../../src/engine/bookings.js';
import { Transport } from '../../src/transport/client.js';
import { CHECKS, selectChecks } from '../../src/checks/registry.js';
import { LOGIN_CASE_IDS } from '../../src/core/check-groups.js';
import { rowBindings, EQUIVALENCE_CHECK } from '../../src/core/rows.js';
import type { ResultRow } from '../../src/core/types.js';
import { discoverLanguages } from '../../src/engine/languages.js';
import { runPlan } from '../../src/engine/run.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';

// Left out: faults no honest run can see, each saying why in its entry (test/support/issue23.ts).
const TRIGGERED = FAULTS.filter((f) => f.triggeredBy !== undefined && !ON_A_BOOKING_OF_ITS_OWN.includes(f.name));
/**
 * Issue 25's kinds: a language the target lists, a pool value of an optional parameter, a list value with an inner
 * space.
 */
const COVERAGE_FAULTS = [
  'soap11-drops-note-type-for-one-language',
  'get-transfer-id-zero-unfiltered',
  'get-plus-literal-in-list',
];
/**
 * Issue 30's nine kinds: identifiers and values of state-changing calls, and languages the target's GetLanguages omits.
 */
const ISSUE30_FAULTS = [
  'soap12-cuts-long-booking-id',
  'post-500-on-booking-id-separators',
  'soap11-faults-on-negative-booking-id',
  'soap12-refuses-empty-email',
  'get-transfer-email-as-latin1',
  'post-reads-long-fraction-as-zero',
  'soap11-ignores-booking-type',
  'post-no-features-for-ja',
  'soap11-faults-room-types-for-es',
];
/**
 * Issue 40: how one binding reads an identifier, found by the id-probe sequences; a binding rule broken in one language
 * only.
 */
const ISSUE40_FAULTS = ['get-cuts-booking-id-at-32', 'post-transfer-email-as-latin1', 'soap12-policy-text-in-greek'];
/** Issue 42: login checks the login variants get past (src/engine/plan.ts LOGIN_VARIANTS). */
const LOGIN_FAULTS = [
  'login-accepts-password-with-characters-added',
  'login-accepts-nil-password',
  'login-accepts-absent-password',
  'login-accepts-password-prefix',
  'login-trims-password',
  'login-accepts-absent-user',
  'login-accepts-crossed-accounts',
];
const VARIANTS = new Set(['empty-password', 'wrong-user', 'password-case', 'no-credentials', ...LOGIN_CASE_IDS]);
/** Triggered by the broadest result, which a hand-written case may ask for too. */
const BY_BROADEST = new Set(['bad-int-in-300th-airport']);
const fixtureCases = loadFixtureCases();
/** The hand-written cases that ask for the broadest result (the planner's test: no gen-broadest beside them). */
const asksBroadest = (opName: string, c: RequestCase) =>
  broadestCase(findOperation(opName)!, []) !== undefined && broadestCase(findOperation(opName)!, [c]) === undefined;
/** A hand-written case holding a character beyond ASCII (the fixture's UpdateSpecialRequest `non-ascii`). */
const beyondAscii = (_opName: string, c: RequestCase) =>
  Object.values(c.params).some((v) => /[^\u0000-\u007f]/.test(v ?? ''));
/**
 * The faults a hand-written case of the fixture triggers too, by nature (the case holds the
 * triggering input), and which cases: they, on the fault's bindings, must be the only hand-written
 * ones to differ; a table without them must leave the fault to the generated cases.
 */
const HAND_WRITTEN_TRIGGER: Readonly<Record<string, (opName: string, c: RequestCase) => boolean>> = {
  'bad-int-in-300th-airport': asksBroadest,
  'get-utf8-as-latin1': beyondAscii,
};
const triggersByHand = (f: Fault, c: RequestCase) => HAND_WRITTEN_TRIGGER[f.name]?.(f.operation, c) ?? false;
/**
 * The fixture's table without the cases asking for the broadest result and those that trigger `f`: a table that leaves
 * both to generation.
 */
const narrowCasesFor = (f: Fault): CaseTable =>
  new Map(
    [...fixtureCases].map(([op, cs]) => [
      op,
      cs.filter((c) => !asksBroadest(op, c) && !(op === f.operation && triggersByHand(f, c))),
    ]),
  );
const transport = new Transport({ concurrency: 16, timeoutMs: 10_000, maxBodyBytes: 32 * 1024 * 1024 });
let clean: RunningMock;
afterAll(async () => {
  await clean?.close();
  await transport.close();
});
// Stateless, both mocks: each request is compared with its twin on the other mock, and one clean
// mock serves every fault's comparison (its cancellations would show in the next fault's answers).
beforeAll(async () => {
  clean = await startMock({ port: 0, stateless: true });
});

function plan(url: string, f: Fault, generated: boolean, cases: CaseTable = fixtureCases): RunPlan {
  return {
    target: {
      bookUrl: url,
      searchUrl: url,
      transfersUrl: url,
      paths: DEFAULT_PATHS,
      namespaces: DEFAULT_NAMESPACES,
      user: DEFAULT_USER,
      password: DEFAULT_PASSWORD,
      embedded: true,
      // A second account for the crossed-accounts fault only (it plans more sequences, which take more bookings).
      ...(LOGIN_FAULTS.includes(f.name)
        ? { other: { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD } }
        : {}),
    },
    // login_rejected selected: the login variants are planned only for the check that judges them.
    bindings: BINDINGS,
    operations: [findOperation(f.operation)!],
    cases,
    allowMutations: true,
    checks: selectChecks(['login_rejected']),
    negative: true,
    equivalence: true,
    ...(generated
      ? {
          generation: {
            seed: DEFAULT_SEED,
            examples: DEFAULT_EXAMPLES,
            languages: FIXED_LANGUAGES,
            languagesFrom: 'test',
          },
        }
      : {}),
  };
}

const wire = (ex: Exchange) =>
  ex.response
    ? `${ex.response.status}\n${JSON.stringify(ex.response.headers['content-type'])}\n${ex.response.body.toString('latin1')}`
    : `no response: ${ex.error?.code}`;

/**
 * Faults that show only where a booking is looked up (`needsKnownBookings`): their faulty and clean
 * mocks know their bookings (the embedded run's pools), so an id no pool holds is "not found",
 * naming what the service looked for.
 */
/**
 * A fault that shows where a service looks its bookings up (needsKnownBookings, or proved first against a mock told
 * them: bookingModes).
 */
const looksUp = (f: Fault) => f.needsKnownBookings !== undefined || f.bookingModes?.[0] === 'bookings';
const lookupOptions = (f: Fault) => (looksUp(f) ? { bookings: mockBookings() } : {});

/** Each request of the units against the faulty and the clean mock: the bindings where they differ, per case. */
async function differences(
  url: string,
  f: Fault,
  units: readonly Unit[],
  reference0: RunningMock = clean,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  await Promise.all(
    units.map(async (u) => {
      const faulty = unitRequests(plan(url, f, false), u);
      const reference = unitRequests(plan(reference0.url, f, false), u);
      await Promise.all(
        faulty.map(async ({ binding, request }, i) => {
          const [a, b] = await Promise.all([transport.send(request), transport.send(reference[i]!.request)]);
          if (wire(a) !== wire(b)) out.set(u.caseId, (out.get(u.caseId) ?? new Set()).add(binding));
        }),
      );
    }),
  );
  return out;
}

describe('faults only some inputs trigger', () => {
  test('there is one of each kind the issue names', () => {
    expect(
      FAULTS.filter((f) => f.triggeredBy !== undefined)
        .map((f) => f.name)
        .sort(),
    ).toEqual(
      [
        'any-user-accepted',
        'bad-int-in-300th-airport',
        'empty-password-accepted',
        'get-rejects-negative-int',
        'get-utf8-as-latin1',
        'missing-element-for-one-language',
        'nil-as-empty-for-boundary',
        'no-credentials-accepted',
        'password-case-insensitive',
        'post-plus-literal',
        'post-rejects-int-max',
        'soap11-late-evening-next-day',
        'soap12-ignores-transfer-id',
        'soap12-truncates-long-strings',
        ...COVERAGE_FAULTS,
        ...ISSUE30_FAULTS,
        ...ISSUE40_FAULTS,
        ...LOGIN_FAULTS,
      ].sort(),
    );
  });

  test.each(TRIGGERED.map((f) => [f.name, f] as const))(
    '%s: identical to the correct mock except for the triggering inputs',
    async (_name, f) => {
      const m = await startMock({ port: 0, faults: [f], stateless: true, ...lookupOptions(f) });
      const ref = looksUp(f) ? await startMock({ port: 0, stateless: true, ...lookupOptions(f) }) : clean;
      const differences0 = differences;
      const differences1 = (url: string, ff: Fault, units: readonly Unit[]) => differences0(url, ff, units, ref);
      try {
        const before = planUnits(plan(m.url, f, false)).filter((u) => !VARIANTS.has(u.caseId));
        expect(before.some((u) => u.caseId === WRONG_CREDENTIALS_CASE)).toBe(true);
        const byHand = new Map(
          (fixtureCases.get(f.operation) ?? [])
            .filter((c) => triggersByHand(f, c))
            .map((c) => [c.id, new Set(faultBindings(f))] as const),
        );
        if (HAND_WRITTEN_TRIGGER[f.name])
          expect(byHand.size, 'the fixture has one hand-written case holding the triggering input').toBe(1);
        expect(await differences1(m.url, f, before), 'hand-written and old negative cases').toEqual(byHand);
        const after = planUnits(plan(m.url, f, true, narrowCasesFor(f))).filter(
          (u) => u.kind === 'generated' || VARIANTS.has(u.caseId),
        );
        const diff = await differences1(m.url, f, after);
        expect(
          diff.size,
          `${f.name} (${f.triggeredBy}) is triggered by a generated case or a credential variant`,
        ).toBeGreaterThan(0);
        for (const bindings of diff.values()) for (const b of bindings) expect(faultBindings(f)).toContain(b);
        if (BY_BROADEST.has(f.name)) expect([...diff.keys()]).toEqual([BROADEST_CASE]);
      } finally {
        await m.close();
        if (ref !== clean) await ref.close();
      }
    },
  );
});

/**
 * Issue 25: a fault behind one language the target lists, one pool value of an optional parameter, a
 * list value with an inner space. The harness's whole run (every check, languages asked of the target
 * as `conformance run` asks them) pinpoints each: failed rows on the fault's operation and bindings
 * only, each of its bindings named; at the default seed and at three others. The examples alone (the
 * budget of 4) do not reach them at the default seed: the coverage cases do.
 */
describe('issue 25: inputs beyond the budget of examples', () => {
  const SEEDS = [DEFAULT_SEED, 1, 4242, 2147483646];
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);
  const fair = (f: Fault, r: ResultRow) => {
    const named = rowBindings(r);
    const mine: readonly string[] = faultBindings(f);
    return (
      r.operation === f.operation
      && (named.every((b) => mine.includes(b))
        || (r.check === EQUIVALENCE_CHECK
          && /no majority/.test(r.message)
          && named.length === 2
          && named.some((b) => mine.includes(b))))
    );
  };

  test.each(COVERAGE_FAULTS)('%s: pinpointed at the default seed and at three others', async (name) => {
    const f = FAULTS.find((x) => x.name === name)!;
    const m = await startMock({ port: 0, faults: [f] });
    try {
      const base = plan(m.url, f, false);
      const langs = await discoverLanguages(base.target, BINDINGS, [findOperation('GetLanguages')!], transport, false);
      expect(langs.from).toMatch(/target's GetLanguages/);
      // The examples alone do not reach the fault: only the coverage cases (gen-<parameter>-<value>) do.
      const g = {
        seed: DEFAULT_SEED,
        examples: DEFAULT_EXAMPLES,
        languages: langs.languages,
        languagesFrom: langs.from,
      };
      const examplesOnly = planUnits({ ...base, generation: g }).filter(
        (u) => u.kind === 'generated' && /^gen-\d+-/.test(u.caseId),
      );
      expect(await differences(m.url, f, examplesOnly), 'the examples of the default seed').toEqual(new Map());
      const outcomes = await Promise.all(
        SEEDS.map(async (seed) => {
          // Every other request is answered as the correct mock answers it (byte for byte, above): the
          // generated units are what is judged (the hand-written ones would only repeat the broadest result).
          const p: RunPlan = { ...base, negative: false, checks: CHECKS, generation: { ...g, seed } };
          const report = await runPlan(
            p,
            { transport, validator },
            planUnits(p).filter((u) => u.kind === 'generated'),
          );
          return { seed, failed: report.results.filter((r) => r.status === 'failed') };
        }),
      );
      for (const { seed, failed } of outcomes) {
        expect(failed.length, `seed ${seed}: detected`).toBeGreaterThan(0);
        expect(
          failed
            .filter((r) => !fair(f, r))
            .map((r) => `${r.operation} [${r.binding}] ${r.case} ${r.check}: ${r.message}`),
          `seed ${seed}: misattributed`,
        ).toEqual([]);
        for (const b of faultBindings(f))
          expect(
            failed.some((r) => rowBindings(r).includes(b)),
            `seed ${seed}: ${b} named`,
          ).toBe(true);
        expect(failed.every((r) => r.case.startsWith('gen-'))).toBe(true);
      }
    } finally {
      await m.close();
    }
  });
});

/**
 * Issue 30: a booking per call kept the generated identifiers from the service, compared
 * state-changing answers by outcome only and sent only the languages the target lists. Each of these
 * faults hides behind one of the three. Every run draws its bookings from a pool of real-looking
 * ids, as a team creates them by hand, and the mock answers every other id "not found", as the real
 * service does; its GetLanguages omits ja and es, which the harness's own list holds. Each fault is
 * pinpointed (failed rows on its operation and bindings only, each of its bindings named) at the
 * default seed and at three others.
 */
describe('issue 30: identifiers, values of state-changing calls and languages the target omits', () => {
  const SEEDS = [DEFAULT_SEED, 1, 4242, 2147483646];
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);
  /** Real-looking bookings: 14 to cancel, 1 to amend, 5 special requests, 14 transfer bookings, two per customer. */
  const POOL: BookingPools = {
    cancel: Array.from({ length: 15 }, (_, i) => String(6981100 + i)),
    amend: ['6981201'],
    specialRequest: Array.from({ length: 5 }, (_, i) => String(6981301 + i)),
    transfers: Array.from({ length: 15 }, (_, i) => ({
      id: `TR-${55100 + i}`,
      email: `guest${Math.floor(i / 2)}@example.org`,
    })),
  };
  const LISTED = ['en', 'de', 'fr', 'el', 'sv', 'tr'];
  const fair = (f: Fault, r: ResultRow) =>
    r.operation === f.operation && rowBindings(r).every((b) => (faultBindings(f) as readonly string[]).includes(b));
  const runAgainst = async (
    url: string,
    operations: readonly string[],
    seed: number,
    bookings: BookingPools = POOL,
  ) => {
    const base = plan(url, FAULTS[0]!, false);
    const target = { ...base.target, embedded: false };
    const langs = await discoverLanguages(target, BINDINGS, [findOperation('GetLanguages')!], transport, false);
    const p: RunPlan = {
      ...base,
      target,
      operations: operations.map((o) => findOperation(o)!),
      bookings,
      allowMutations: true,
      checks: CHECKS,
      negative: true,
      generation: { seed, examples: DEFAULT_EXAMPLES, languages: langs.languages, languagesFrom: langs.from },
    };
    return { report: await runPlan(p, { transport, validator }), langs };
  };

  test.each(ISSUE30_FAULTS)('%s: pinpointed at the default seed and at three others', async (name) => {
    const f = FAULTS.find((x) => x.name === name)!;
    for (const seed of SEEDS) {
      // A fresh service per run: the pool's cancellations are spent by the run before.
      const m = await startMock({ port: 0, faults: [f], bookings: POOL, languages: LISTED, realService: true });
      try {
        const { report, langs } = await runAgainst(m.url, [f.operation], seed);
        expect(langs.languages, 'the target lists its own languages').toEqual(LISTED);
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(failed.length, `seed ${seed}: detected`).toBeGreaterThan(0);
        expect(
          failed
            .filter((r) => !fair(f, r))
            .map((r) => `${r.operation} [${r.binding}] ${r.case} ${r.check}: ${r.message}`),
          `seed ${seed}: misattributed`,
        ).toEqual([]);
        for (const b of faultBindings(f))
          expect(
            failed.some((r) => rowBindings(r).includes(b)),
            `seed ${seed}: ${b} named`,
          ).toBe(true);
      } finally {
        await m.close();
      }
    }
  });

  test('a default run with mutations against the real-service style and a pool of real bookings: at most 40 '
    + 'bookings, no failure; the same against a service where any id exists, and one where every id does, '
    + 'blank included', async () => {
    const everything = OPERATIONS.map((o) => o.name);
    const real = await startMock({ port: 0, bookings: POOL, realService: true });
    const anyId = await startMock({ port: 0, realService: true });
    // Issue 40: a blank id exists too; the id probes spend none of the pools' bookings (the figures below).
    const everyId = await startMock({ port: 0, realService: true, everyId: true });
    try {
      for (const [what, m] of [
        ['only real bookings', real],
        ['any id exists', anyId],
        ['every id exists, blank included', everyId],
      ] as const) {
        const { report } = await runAgainst(m.url, everything, DEFAULT_SEED);
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(
          failed.map((r) => `${r.operation} [${r.binding}] ${r.case} ${r.check}: ${r.message}`),
          what,
        ).toEqual([]);
        const taken = new Map<string, Set<string>>();
        for (const c of report.bookings!.changed) taken.set(c.pool, (taken.get(c.pool) ?? new Set()).add(c.id));
        const perPool = Object.fromEntries([...taken].map(([k, v]) => [k, v.size]));
        expect(perPool, what).toEqual({ cancel: 15, amend: 1, specialRequest: 5, transfers: 15 });
        expect(report.bookings!.short, what).toBeUndefined();
      }
    } finally {
      await real.close();
      await anyId.close();
      await everyId.close();
    }
  }, 300_000); // three full runs: 25 s measured at load 12
});
