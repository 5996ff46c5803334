/**
 * The harness proves itself against the mock (issue 5):
 *
 * - no false alarm: the mock in variation mode (src/mock/vary.ts) answers every binding in other
 *   legitimate forms, with optional parts left out, nillable ones nil and undocumented content in
 *   the "not shown" places; the whole run must report ZERO findings;
 * - every fault caught and pinpointed: for each entry of the fault catalogue (src/mock/faults.ts)
 *   a mock commits that one violation, the harness runs the fault's operation (all bindings, all
 *   its cases and negative cases) and must fail with a finding on the fault's operation and on each
 *   of its bindings, and none on another operation or binding;
 * - the command line behaves the same: suites/e2e/self-test-cli.test.ts (processes: npm run test:e2e).
 *
 * Prints `faults pinpointed: P/N, detected: D/N, false alarms: F` and fails below 100% / 0.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../src/checks/registry.js';
import type { Check } from '../src/checks/types.js';
import { groupOfCheck, HOSTILE_GROUP } from '../src/core/check-groups.js';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  OPERATIONS,
  findOperation,
  resolvePaths,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from '../src/contract/catalogue.js';
import type { ResultRow, RunReport } from '../src/core/types.js';
import { loadFixtureCases, type CaseTable, type RequestCase } from '../src/engine/cases.js';
import { EQUIVALENCE_CHECK, EXCHANGE_CHECK, rowBindings } from '../src/core/rows.js';
import { runPlan } from '../src/engine/run.js';
import type { RunPlan } from '../src/engine/plan.js';
import { DEFAULT_EXAMPLES, DEFAULT_SEED, FIXED_LANGUAGES } from '../src/engine/generate.js';
import {
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  type RunningMock,
} from '../src/mock/index.js';
import { startRoutedMock, type RoutedMockOptions } from '../src/mock/server.js';
import { mockBookings } from '../src/engine/bookings.js';
import { ON_A_BOOKING_OF_ITS_OWN } from '../test/support/issue23.js';
import { FAULTS } from '../src/mock/faults.js';
import { faultBindings, faultNamed } from '../src/mock/fault-lookup.js';
import type { BookingMode, Fault } from '../src/mock/fault-types.js';
import { formatFindings } from '../src/report/console.js';
import { Transport } from '../src/transport/client.js';
import type { DocumentValidator } from '../src/checks/context.js';
import { createDocumentValidator } from '../src/schema/xsd-validator.js';
import { CallbackListener, LOCAL_GRACE_MS, newNonce } from '../src/engine/callback.js';

const OTHER_NAMESPACES: Namespaces = {
  book: 'urn:acme:accommodation:book:1/',
  search: 'https://acme.example/xml/search/1/',
};

const validators = new Map<string, DocumentValidator>();
/**
 * Every document of the self-test is validated twice: with schema subsets, as shipped (see
 * SchemaBundle.docFor), and against the whole schemas; the outcomes must be equal (checked below).
 */
const subsetCheck = { compared: 0, distinct: 0, disagreements: [] as string[] };
function validatorFor(ns: Namespaces): DocumentValidator {
  const key = `${ns.book} ${ns.search}`;
  let v = validators.get(key);
  if (!v) {
    const shipped = createDocumentValidator(ns);
    const whole = createDocumentValidator(ns, { subsets: false });
    // The whole schemas' verdict of a document, once per distinct document (it is a function of the
    // bytes; the runs send many equal answers, and validating against the whole schemas is the dear part).
    const wholeVerdicts = new Map<string, string>();
    v = {
      validate(xml) {
        const a = shipped.validate(xml);
        const key = createHash('sha256').update(xml).digest('base64');
        let b = wholeVerdicts.get(key);
        if (b === undefined) {
          wholeVerdicts.set(key, (b = JSON.stringify(whole.validate(xml))));
          subsetCheck.distinct++;
        }
        subsetCheck.compared++;
        if (JSON.stringify(a) !== b)
          subsetCheck.disagreements.push(`${JSON.stringify(a)} ≠ ${b} for ${xml.slice(0, 2000)}`);
        return a;
      },
    };
    validators.set(key, v);
  }
  return v;
}
const transport = new Transport({ concurrency: 48, timeoutMs: 20_000, maxBodyBytes: 32 * 1024 * 1024 });
afterAll(() => transport.close());

const fixtureCases = loadFixtureCases();

/**
 * The listener of the external-entity probes, one for every run (each run its own nonce, so its own paths), as a run's
 * session opens it.
 */
let listener: CallbackListener | undefined;
afterAll(() => listener?.close());

// ---- more request cases for the variation run: more requests, more variants ---------------------

const POOLS: Readonly<Record<string, (i: number) => string>> = {
  language: (i) => ['en', 'de', 'fr', 'el', 'ja', 'sv', 'es'][i % 7]!,
  bookingID: (i) => `BK-${300_100 + i * 7919}`,
  bookingId: (i) => String(100_000 + i * 7919),
  transferBookingID: (i) => `TR-${55_000 + i * 31}`,
  email: (i) => `guest.${i}@example.com`,
  text: (i) => ['Late arrival', 'Cot please & <quiet> room', '', 'Vegan meals — 素食'][i % 4]!,
  roomId: (i) => String(5000 + i * 17),
  maxPrice: (i) => ['100.00', '2500', '99999.99', '0.5'][i % 4]!,
  bookingType: (i) => ['FullPeriod', 'ExtraDays'][i % 2]!,
  currencies: (i) => ['EUR', 'EUR,SEK', 'CHF', 'GBP,EUR,JPY'][i % 4]!,
  resortID: (i) => String(501 + (i % 6)),
  hotelID: (i) => String(12_000 + i * 101),
  transferID: (i) => String(1 + (i % 4)),
};
const day = (i: number, plus = 0) =>
  new Date(Date.UTC(2027, 0, 5) + (i * 13 + plus) * 86_400_000).toISOString().slice(0, 10);

/** `n` more cases per operation, each parameter of its first fixture case drawn from a pool. */
function moreCases(op: Operation, n: number): RequestCase[] {
  const first = fixtureCases.get(op.name)![0]!;
  const names = new Set([
    ...Object.keys(first.params),
    ...(op.name === 'SearchTransfers' ? ['language', 'currencies'] : []),
  ]);
  if (names.size === 0) return [];
  return Array.from({ length: n }, (_, i) => {
    const params: Record<string, string> = {};
    for (const k of names) {
      if (k === 'checkInDate') params[k] = `${day(i)}T00:00:00`;
      else if (k === 'checkOutDate') params[k] = `${day(i, 1 + (i % 9))}T00:00:00`;
      else if (k === 'arrivalDate' || k === 'returnDepartureDate') params[k] = day(i, k === 'arrivalDate' ? 0 : 7);
      else params[k] = POOLS[k]?.(i + 1) ?? first.params[k]!;
    }
    if (op.name === 'SearchTransfers' && i % 3 === 1) params.resortID = POOLS.resortID!(i);
    return { id: `vary-${i + 1}`, params };
  });
}

const variationCases: CaseTable = new Map(
  OPERATIONS.map((op) => [op.name, [...fixtureCases.get(op.name)!, ...moreCases(op, 8)]]),
);

// ---- running the harness ---------------------------------------------------------------------------

/**
 * The checks of a fault's run: all of them for a fault of the logins, of hostile XML or of another
 * account's access (the hostile_requests group judges those), and all but that group for the rest:
 * its requests (the login variants, the DOCTYPE probes) cannot show a fault of a status, a shape or
 * a binding rule, and were a third of the self-test's time. The runs of no false alarm (variation,
 * the real service's style) send every check.
 */
const HOSTILE_CATEGORIES: ReadonlySet<string> = new Set(['credentials', 'hostile-xml', 'authorization']);
const WITHOUT_HOSTILE = CHECKS.filter((c) => groupOfCheck(c.name) !== HOSTILE_GROUP);
const checksFor = (f: Fault) => (HOSTILE_CATEGORIES.has(f.category) ? CHECKS : WITHOUT_HOSTILE);

function planFor(
  url: string,
  namespaces: Namespaces,
  operations: readonly Operation[],
  cases: CaseTable,
  paths: ServicePaths = DEFAULT_PATHS,
  examples = DEFAULT_EXAMPLES,
  checks: readonly Check[] = CHECKS,
): RunPlan {
  return {
    target: {
      bookUrl: url,
      searchUrl: url,
      transfersUrl: url,
      paths,
      namespaces,
      user: DEFAULT_USER,
      password: DEFAULT_PASSWORD,
      embedded: true,
      other: { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD },
    },
    bindings: BINDINGS,
    operations,
    cases,
    allowMutations: true,
    checks,
    negative: true,
    equivalence: true,
    // Generated cases at the default budget and seed, as `conformance run` sends them (none: examples 0).
    ...(examples > 0
      ? {
          generation: {
            seed: DEFAULT_SEED,
            examples,
            languages: FIXED_LANGUAGES,
            languagesFrom: 'the fixed list (self-test)',
          },
        }
      : {}),
    callback: { base: listener!.url, nonce: newNonce(), listener: listener!, graceMs: LOCAL_GRACE_MS },
  };
}

/**
 * One mock server for the whole self-test (src/mock/server.ts startRoutedMock): each run below has
 * a mock of its own (its options, faults and state) under a path prefix of that one server, so
 * every run goes at once instead of one server and one run after another.
 */
const routes: Record<string, RoutedMockOptions> = {};
let routed: RunningMock | undefined;
afterAll(() => routed?.close());

/** A mock of its own for a run, under `name` (registered before the server starts). */
function route(name: string, mock: RoutedMockOptions): { name: string; mock: RoutedMockOptions } {
  if (routes[name]) throw new Error(`route ${name} registered twice`);
  // Stateful, as the real service is: each state-changing call has a booking of its own.
  routes[name] = mock;
  return { name, mock };
}

/** Run the harness in-process against a routed mock. */
async function runAgainst(
  r: { name: string; mock: RoutedMockOptions },
  operations: readonly Operation[],
  cases: CaseTable = fixtureCases,
  examples = DEFAULT_EXAMPLES,
  checks: readonly Check[] = CHECKS,
): Promise<RunReport> {
  const namespaces = { ...DEFAULT_NAMESPACES, ...r.mock.namespaces };
  return runPlan(planFor(`${routed!.url}/${r.name}`, namespaces, operations, cases, r.mock.paths, examples, checks), {
    transport,
    validator: validatorFor(namespaces),
  });
}

const failedRows = (r: RunReport): ResultRow[] => r.results.filter((x) => x.status === 'failed');

/**
 * The faults this self-test pinpoints: all of them but those no honest run can see (each says why
 * in its entry, `undetectable`: test/support/issue23.ts). The stateful ones (issue 23,
 * `stateful: true`) show only in a sequence of calls (a write then a read, a cancellation then
 * another): the engine's sequences (src/sequences/) pinpoint them to the call at fault, a
 * write's to the write; so do the input faults of a write (a text mangled on its way in).
 */
const SELF_TESTED = FAULTS.filter((f) => !ON_A_BOOKING_OF_ITS_OWN.includes(f.name));
const UNDETECTABLE = FAULTS.filter((f) => ON_A_BOOKING_OF_ITS_OWN.includes(f.name));
test("the faults left out are a state-changing operation's value faults, each saying why, and only those", () => {
  expect(UNDETECTABLE.length).toBeLessThan(FAULTS.length / 20);
  for (const f of UNDETECTABLE) {
    expect(findOperation(f.operation)!.mutates, f.name).toBe(true);
    expect(f.category, f.name).toBe('equivalence');
    expect(f.triggeredBy, f.name).toBeUndefined();
    expect(f.undetectable, f.name).toMatch(/cancels once|booking of its own/);
  }
});
interface FaultOutcome {
  readonly fault: Fault;
  readonly report: RunReport;
  /** The run failed. */
  readonly detected: boolean;
  /** Bindings of the fault without a finding on the fault's operation. */
  readonly missed: BindingId[];
  /** Findings on another operation or on a binding the fault does not touch. */
  readonly misattributed: ResultRow[];
}

/**
 * Whether a failed row blames only the fault's operation and bindings. One exception: a comparison
 * of two bindings that differ has no majority and names both (nothing says which is wrong); such a
 * row is fair when it names a binding of the fault.
 */
function fair(fault: Fault, row: ResultRow): boolean {
  const bindings: readonly string[] = faultBindings(fault);
  if (row.operation !== fault.operation) return false;
  const named = rowBindings(row);
  if (named.every((b) => bindings.includes(b))) return true;
  return (
    row.check === EQUIVALENCE_CHECK
    && /no majority/.test(row.message)
    && named.length === 2
    && named.some((b) => bindings.includes(b))
  );
}

function judge(fault: Fault, report: RunReport): FaultOutcome {
  const failed = failedRows(report);
  const onOp = failed.filter((r) => r.operation === fault.operation);
  return {
    fault,
    report,
    detected: report.summary.failed > 0,
    missed: faultBindings(fault).filter((b) => !onOp.some((r) => rowBindings(r).includes(b))),
    misattributed: failed.filter((r) => !fair(fault, r)),
  };
}
const pinpointed = (o: FaultOutcome) => o.detected && o.missed.length === 0 && o.misattributed.length === 0;
/** A race of the run was not tested: its calls did not overlap (src/sequences/race-*.ts). */
const racesSpacedOut = (r: RunReport) =>
  r.results.some((x) => /^seq-race-/.test(x.case) && x.status === 'skipped' && /did not overlap/.test(x.message));

/**
 * The real service's deployments (issue 12, fact 8): HTTP GET and POST under /1/PostGet/, SOAP under
 * /1/SOAP/; and a later version with all 14 operations at one path and in one namespace.
 */
const POSTGET_PATHS = resolvePaths({
  booking: { soap: '/1/SOAP/Booking.asmx', http: '/1/PostGet/Booking.asmx' },
  reference: { soap: '/1/SOAP/NonStaticXMLAPI.asmx', http: '/1/PostGet/NonStaticXMLAPI.asmx' },
});
const V15_PATH = '/15/SOAP/NonStaticXMLAPI.asmx';
const V15_PATHS = resolvePaths({ booking: { soap: V15_PATH }, reference: { soap: V15_PATH } });
const V15_NS = 'http://xml.example.test/15/';

let variation: RunReport[] = [];
/** Runs against the mock answering as the real service does: PostGet paths; one path and namespace (version 15). */
let realStyle: RunReport[] = [];
const outcomes = new Map<string, FaultOutcome>();
let elapsedMs = 0;

const VARIATION = [route('vary', { vary: true }), route('vary-ns', { vary: true, namespaces: OTHER_NAMESPACES })];
const REAL_STYLE = [
  route('real-postget', { realService: true, paths: POSTGET_PATHS }),
  route('real-v15', { realService: true, paths: V15_PATHS, namespaces: { book: V15_NS, search: V15_NS } }),
];
/**
 * Every fault of the catalogue, each with a mock of its own. A fault that only some inputs trigger
 * (`triggeredBy`) is run with the generated cases at the default budget, as `conformance run` sends
 * them: they are what finds it. Every other fault breaks every answer of its operation and binding,
 * so its proof is the hand-written cases and the negative cases (--examples 0); the generated cases
 * of every operation are still sent, in variation mode and in the real service's style above, where
 * they must raise no false alarm.
 */
const examplesFor = (fault: Fault) => (fault.triggeredBy !== undefined ? DEFAULT_EXAMPLES : 0);
// A fault that shows only where a service looks its bookings up runs against a mock told them (the
// embedded run's pools); one that says in which modes of which bookings exist it shows (issue 40:
// only the pools', every id, blank included) runs against each, its first mode's run below, the others' in MORE_MODES.
const modesOf = (f: Fault): readonly BookingMode[] => f.bookingModes ?? [f.needsKnownBookings ? 'bookings' : 'default'];
const MODE_OPTIONS: Readonly<Record<BookingMode, RoutedMockOptions>> = {
  default: {},
  bookings: { bookings: mockBookings() },
  everyId: { everyId: true },
};
const FAULT_ROUTES = new Map(
  SELF_TESTED.map((f) => [f.name, route(`fault-${f.name}`, { faults: [f.name], ...MODE_OPTIONS[modesOf(f)[0]!] })]),
);
/** The faults' runs in their other modes, each with a mock of its own: `name (mode)`. */
const MORE_MODES = new Map(
  SELF_TESTED.flatMap((f) =>
    modesOf(f)
      .slice(1)
      .map(
        (m) =>
          [
            `${f.name} (${m})`,
            { fault: f, r: route(`fault-${f.name}-${m}`, { faults: [f.name], ...MODE_OPTIONS[m] }) },
          ] as const,
      ),
  ),
);
const moreOutcomes = new Map<string, FaultOutcome>();
/** The race faults (they show only when calls overlap), each with two more mocks of their own for a run sent again. */
const RACE_FAULTS = ['cancel-check-then-set', 'transfer-cancel-check-then-set', 'update-torn-on-overlap'];
const RACE_AGAIN = new Map(
  RACE_FAULTS.map((n) => [n, [1, 2].map((k) => route(`fault-${n}-again-${k}`, { faults: [n] }))]),
);
test('the race faults are in the catalogue, each saying it shows when calls overlap', () => {
  for (const n of RACE_FAULTS) expect(FAULTS.find((f) => f.name === n)?.description, n).toMatch(/simultaneous|overlap/);
});
/** The faults no honest run can see: each runs too, and must raise no finding (a test below). */
const UNDETECTABLE_ROUTES = new Map(
  UNDETECTABLE.map((f) => [f.name, route(`undetectable-${f.name}`, { faults: [f.name] })]),
);
const undetectableRuns = new Map<string, RunReport>();
/** The fault far down a large result, against a case table without the broadest request (a test below). */
const NARROW_300TH = route('narrow-bad-int-in-300th-airport', { faults: ['bad-int-in-300th-airport'] });

beforeAll(async () => {
  const started = Date.now();
  routed = await startRoutedMock(routes);
  listener = await CallbackListener.start();
  // Every run at once against the one server (one transport and one validator for all): the
  // checking is done in turn in this process anyway, so the runs only fill each other's waits.
  const runs = Promise.all([
    runAgainst(VARIATION[0]!, OPERATIONS, variationCases),
    // The other namespace set is what this run is about: its hand-written and negative cases (the
    // generated ones are sent in the run above).
    runAgainst(VARIATION[1]!, OPERATIONS, fixtureCases, 0),
  ]);
  const real = Promise.all([
    runAgainst(REAL_STYLE[0]!, OPERATIONS, variationCases),
    runAgainst(REAL_STYLE[1]!, OPERATIONS, fixtureCases, 0), // the one path and namespace are the point
  ]);
  const faults = Promise.all(
    SELF_TESTED.map(async (fault) => {
      const ops = [fault.operation, ...(fault.alsoRun ?? [])].map((n) => findOperation(n)!);
      let report = await runAgainst(
        FAULT_ROUTES.get(fault.name)!,
        ops,
        fixtureCases,
        examplesFor(fault),
        checksFor(fault),
      );
      // A race's calls spaced out by a loaded machine leave it not tested (never passed, never failed):
      // that fault's run alone is sent again, up to three in all, on a mock of its own state.
      for (
        let k = 0;
        k < 2 && !pinpointed(judge(fault, report)) && racesSpacedOut(report) && RACE_AGAIN.has(fault.name);
        k++
      ) {
        report = await runAgainst(
          RACE_AGAIN.get(fault.name)![k]!,
          ops,
          fixtureCases,
          examplesFor(fault),
          checksFor(fault),
        );
      }
      outcomes.set(fault.name, judge(fault, report));
    }),
  );
  const more = Promise.all(
    [...MORE_MODES].map(async ([key, { fault, r }]) => {
      const ops = [fault.operation, ...(fault.alsoRun ?? [])].map((n) => findOperation(n)!);
      moreOutcomes.set(key, judge(fault, await runAgainst(r, ops, fixtureCases, examplesFor(fault), checksFor(fault))));
    }),
  );
  const blind = Promise.all(
    UNDETECTABLE.map(async (fault) => {
      undetectableRuns.set(
        fault.name,
        await runAgainst(
          UNDETECTABLE_ROUTES.get(fault.name)!,
          [findOperation(fault.operation)!],
          fixtureCases,
          DEFAULT_EXAMPLES,
        ),
      );
    }),
  );
  [variation, realStyle] = await Promise.all([runs, real, faults, blind, more]);
  elapsedMs = Date.now() - started;
  const all = [...outcomes.values()];
  const falseAlarms =
    [...variation, ...realStyle].reduce((n, r) => n + failedRows(r).length, 0)
    + all.reduce((n, o) => n + o.misattributed.length, 0);
  console.log(
    `faults pinpointed: ${all.filter(pinpointed).length}/${SELF_TESTED.length}, `
      + `detected: ${all.filter((o) => o.detected).length}/${SELF_TESTED.length}, `
      + `false alarms: ${falseAlarms} (${variation.reduce((n, r) => n + r.summary.total, 0)} checks in `
      + `variation mode; self-test ${(elapsedMs / 1000).toFixed(1)} s)`,
  );
}, 1_200_000); // CPU-bound, about 25 s of CPU: 140 s measured at load 13 alone (the modes of issue 40 included), 209 s within npm test at load 13, up to 300 s at load 19 with another file beside it; with the login variants of issue 42, 118 s alone at load 9 and 218 s within npm test

describe('no false alarm: the mock in variation mode conforms', () => {
  test('zero findings over every operation, binding, case and negative case (two namespace sets)', () => {
    for (const r of variation) {
      expect(r.summary.total).toBeGreaterThan(1000);
      expect(failedRows(r), formatFindings(failedRows(r).slice(0, 20))).toEqual([]);
    }
  });

  test('the variation run really varied the presentation across bindings and requests', () => {
    const responses = variation[0]!.results
      .filter((r) => r.check === EXCHANGE_CHECK && r.response)
      .map((r) => r.response!);
    const seen = (re: RegExp) => responses.filter((t) => re.test(t)).length;
    for (const prefix of ['soap', 's', 'SOAP-ENV', 'env'])
      expect(seen(new RegExp(`<${prefix}:Envelope `)), prefix).toBeGreaterThan(0);
    expect(seen(/\r\n/)).toBeGreaterThan(0);
    expect(seen(/<\?xml version='1\.0'/)).toBeGreaterThan(0);
    expect(seen(/\n\n<(?!\?xml)[\w:]+/)).toBeGreaterThan(0); // no XML declaration: the body starts with an element
    expect(seen(/content-type: [^\n]*charset="utf-8"/i)).toBeGreaterThan(0);
    expect(seen(/content-type: [^\n]*charset=UTF-8/)).toBeGreaterThan(0);
    expect(seen(/<(r|ns1):\w+Result xmlns:\1=/)).toBeGreaterThan(0);
    expect(seen(/xmlns:(i|inst)="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance"/)).toBeGreaterThan(0);
    expect(seen(/>\+\d+</)).toBeGreaterThan(0); // +7
    expect(seen(/>00\d+</)).toBeGreaterThan(0); // 007
    expect(seen(/[+-]\d\d:\d\d</)).toBeGreaterThan(0); // a dateTime in another zone
    expect(seen(/<(\w+:)?(vehicleClass|luggage|supplierCode)[ >]/)).toBeGreaterThan(0); // open region of a transfer
    expect(seen(/(rateCode|priceType)="/)).toBeGreaterThan(0); // extra TransferRate attributes
    expect(seen(/nil="true"/)).toBeGreaterThan(0);
    expect(seen(/<!\[CDATA\[/)).toBeGreaterThan(0);
    expect(seen(/&#x[0-9A-F]+;/)).toBeGreaterThan(0);
    expect(seen(/<!-- /)).toBeGreaterThan(0);
    expect(seen(/ \w+='[^']*'/)).toBeGreaterThan(0); // single-quoted attribute values
    expect(seen(/:type="/)).toBeGreaterThan(0); // xsi:type naming the declared type
    expect(seen(/<t:Trace /)).toBeGreaterThan(0); // a SOAP header block
    expect(seen(/standalone="yes"/)).toBeGreaterThan(0);
    expect(seen(/<(r|ns1):\w+Result xmlns:\1="[^"]*" xmlns="/)).toBeGreaterThan(0); // prefix on the result element only
  });
});

describe("no false alarm on the real service's style (issue 12)", () => {
  const responses = (r: RunReport) =>
    r.results.filter((x) => x.check === EXCHANGE_CHECK && x.response).map((x) => x.response!);

  test(
    'zero findings: wrong credentials answered 200 with Error everywhere, null strings left out, element '
      + 'policies and rates, nil fees, feature ids',
    () => {
      for (const r of realStyle) {
        expect(r.summary.total).toBeGreaterThan(1000);
        expect(failedRows(r), formatFindings(failedRows(r).slice(0, 20))).toEqual([]);
      }
      const all = realStyle.flatMap(responses);
      const seen = (re: RegExp) => all.filter((t) => re.test(t)).length;
      expect(seen(/<(\w+:)?direction>Arrival</)).toBeGreaterThan(0);
      expect(seen(/<(\w+:)?transferId>/)).toBeGreaterThan(0);
      expect(
        seen(/<(\w+:)?activecancellationpolicy><(\w+:)?deadline xsi:nil="true"\/><(\w+:)?percentage>0</),
      ).toBeGreaterThan(0);
      expect(seen(/<(\w+:)?fee xsi:nil="true"\/>/)).toBeGreaterThan(0);
      expect(seen(/<(\w+:)?feature id="\d+" name="/)).toBeGreaterThan(0);
      expect(seen(/<(\w+:)?ErrorAttributes>/)).toBeGreaterThan(0);
      expect(seen(/<(\w+:)?getSpecialRequestResult\/>/)).toBeGreaterThan(0);
    },
  );

  test(
    'requests went to the configured paths: GET/POST under /1/PostGet/, everything at the one version-15 ' + 'path',
    () => {
      const urls = (r: RunReport) =>
        r.results.filter((x) => x.check === EXCHANGE_CHECK && x.request).map((x) => x.request!.split('\n')[0]!);
      expect(
        urls(realStyle[0]!)
          .filter((l) => l.startsWith('GET '))
          .every((l) => l.includes('/1/PostGet/')),
      ).toBe(true);
      // The routed mock's prefix (REAL_STYLE[0].name) comes first: the target's base URL has it.
      expect(urls(realStyle[0]!).some((l) => l.startsWith(`POST /${REAL_STYLE[0]!.name}/1/SOAP/`))).toBe(true);
      expect(urls(realStyle[1]!).every((l) => l.includes(V15_PATH))).toBe(true);
    },
  );

  test('every negative case is a clean rejection by an in-band Error on every binding and operation', () => {
    for (const r of realStyle) {
      const rows = r.results.filter((x) => x.check === 'credentials_rejected');
      expect(new Set(rows.map((x) => x.operation)).size).toBe(OPERATIONS.length);
      expect(rows.every((x) => x.status === 'passed')).toBe(true);
    }
  });

  test(
    'a valid case answered with an in-band Error is a visible outcome, not a pass and not a failure; the '
      + 'bindings agree on it',
    () => {
      // With state (issue 23), the real service's "already cancelled" comes from the state, not from a
      // pick on the booking id: every call has a booking of its own, and the cancellation sequence's
      // second cancellation of a booking is answered so, listed with the bookings and failing nothing.
      const noData = realStyle[0]!.results.filter((x) => x.inBandError);
      for (const x of noData) {
        expect(x.status).toBe('skipped');
        expect(x.check).toBe('shape');
        expect(x.message).toMatch(/^answered with an in-band Error .*never reached the data path/);
      }
      const second = realStyle[0]!.bookings!.changed.filter((c) => c.case === 'seq-cancel').at(-1)!;
      expect(second.outcome).toBe(
        'rejected (in-band Error Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException)',
      );
      expect(realStyle[0]!.results.filter((x) => x.operation === 'CancelBooking' && x.status === 'failed')).toEqual([]);
    },
  );

  test("the variation run covers the real service's style too", () => {
    const all = variation.flatMap(responses);
    const seen = (re: RegExp) => all.filter((t) => re.test(t)).length;
    expect(seen(/<(\w+:)?direction>/)).toBeGreaterThan(0);
    expect(seen(/activecancellationpolicy[^>]*><(\w+:)?deadline/)).toBeGreaterThan(0);
    expect(seen(/<(\w+:)?fee [^>]*nil="true"/)).toBeGreaterThan(0);
    expect(seen(/<(\w+:)?feature [^>]*\bid="/)).toBeGreaterThan(0);
    expect(seen(/<(\w+:)?ErrorAttributes>/)).toBeGreaterThan(0);
    expect(variation[0]!.bookings!.changed.some((c) => /BookingAlreadyCancelledException/.test(c.outcome))).toBe(true);
    // Wrong credentials rejected in-band on operations section 7.1 does not name, and with a fault on others.
    const cred = variation
      .flatMap((r) => r.results)
      .filter(
        (x) =>
          x.check === EXCHANGE_CHECK
          && x.case === 'wrong-credentials'
          && !['GetRoomTypes', 'SearchTransfers'].includes(x.operation),
      );
    expect(cred.some((x) => /<(\w+:)?Error>/.test(x.response ?? ''))).toBe(true);
    expect(cred.some((x) => /Fault>/.test(x.response ?? ''))).toBe(true);
  });
});

describe('every fault is caught and pinpointed', () => {
  test('the catalogue holds at least 40 faults', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
  });

  test.for(SELF_TESTED.map((f) => [f.name, f.operation, f.bindings === 'all' ? 'all' : f.bindings.join(',')] as const))(
    '%s (%s on %s)',
    ([name]) => {
      const o = outcomes.get(name)!;
      expect(o.detected, `${name}: the run passed`).toBe(true);
      expect(o.missed, `${name}: no finding on ${o.fault.operation} for these bindings`).toEqual([]);
      expect(
        o.misattributed.map((r) => `${r.operation} ${r.binding} ${r.case} ${r.check}: ${r.message}`),
        `${name}: findings elsewhere`,
      ).toEqual([]);
    },
  );

  // Issue 40: a fault of how one binding reads an identifier, pinpointed in every mode of which bookings exist it
  // names.
  test.for([...MORE_MODES.keys()])('%s', (key) => {
    const o = moreOutcomes.get(key)!;
    expect(o.detected, `${key}: the run passed`).toBe(true);
    expect(o.missed, `${key}: no finding on ${o.fault.operation} for these bindings`).toEqual([]);
    expect(
      o.misattributed.map((r) => `${r.operation} ${r.binding} ${r.case} ${r.check}: ${r.message}`),
      `${key}: findings elsewhere`,
    ).toEqual([]);
  });

  test.for(['get-cuts-booking-id-at-32', 'post-transfer-email-as-latin1'])(
    '%s: found by the id-probe sequence in both modes, the binding named',
    (name) => {
      for (const o of [outcomes.get(name)!, moreOutcomes.get(`${name} (everyId)`)!]) {
        const rows = failedRows(o.report).filter((r) => r.case === 'seq-id-probe');
        expect(
          rows.map((r) => r.binding),
          name,
        ).toEqual(faultBindings(o.fault));
      }
      const everyId = failedRows(moreOutcomes.get(`${name} (everyId)`)!.report).filter(
        (r) => r.case === 'seq-id-probe',
      );
      expect(everyId[0]!.findings.map((f) => f.code)).toContain('id_read_otherwise');
    },
  );

  test(
    'the fault far down a large result: at airport[300], and found by gen-broadest when no hand-written '
      + 'case asks for the broadest result',
    async () => {
      const fault = faultNamed('bad-int-in-300th-airport')!;
      const withDefault = outcomes.get(fault.name)!.report;
      // The shape walk and the comparison name the item; libxml2 names the element (its errors carry no path).
      const paths = new Map(failedRows(withDefault).map((x) => [x.check, x.findings.map((f) => f.path)]));
      expect(paths.get('shape')).toEqual([
        '/Envelope/Body/SearchTransfersResponse/searchTransfersResult/airports/airport[300]/resortId',
      ]);
      expect(paths.get(EQUIVALENCE_CHECK)).toEqual(['/searchTransfersResult/airports/airport[300]/resortId/text()']);
      expect(paths.get('xsd_valid')).toEqual(['//resortId']);
      expect(new Set(failedRows(withDefault).map((x) => x.case))).toEqual(new Set(['default']));
      // A case table without the broadest request (as a user's may be): the generated case must find it.
      const narrow: CaseTable = new Map(
        [...fixtureCases].map(([op, cs]) => [op, cs.filter((c) => !(op === fault.operation && c.id === 'default'))]),
      );
      const report = await runAgainst(NARROW_300TH, [findOperation(fault.operation)!], narrow);
      const o = judge(fault, report);
      expect(pinpointed(o), formatFindings(failedRows(report).slice(0, 5))).toBe(true);
      expect(new Set(failedRows(report).map((x) => x.case))).toEqual(new Set(['gen-broadest']));
      // And the variation run checked that large answer whole, with no false alarm.
      const large = variation[0]!.results.filter(
        (x) => x.operation === 'SearchTransfers' && x.case === 'default' && x.check === EXCHANGE_CHECK,
      );
      expect(large.length).toBe(4);
      for (const x of large)
        expect(Number(/^content-length: (\d+)$/im.exec(x.response!)?.[1]), x.response!.slice(0, 300)).toBeGreaterThan(
          150_000,
        );
    },
  );

  test.for(UNDETECTABLE.map((f) => f.name))(
    '%s: undetectable, and the run against it raises no finding (nothing is compared across bookings)',
    (name) => {
      const r = undetectableRuns.get(name)!;
      const f = faultNamed(name)!;
      expect(failedRows(r), formatFindings(failedRows(r).slice(0, 5))).toEqual([]);
      // The fault was committed: its operation answered with data on its bindings (not a run that reached nothing).
      // (A shape row passes on data only: an answer with an in-band Error skips it.)
      const answered = r.results.filter(
        (x) => x.operation === f.operation && x.check === 'shape' && x.status === 'passed',
      );
      for (const b of faultBindings(f))
        expect(
          answered.some((x) => x.binding === b),
          b,
        ).toBe(true);
    },
  );

  // Input faults of a write: the text is mangled on its way in. Reading it back shows it; so does the
  // answer of the one booking every binding writes, compared by value (its message counts the
  // characters stored: issue 30).
  test.for(['get-utf8-as-latin1', 'soap12-truncates-long-strings'])(
    "%s: found by the write→read sequence and by the write's answer, the write named",
    (name) => {
      const rows = failedRows(outcomes.get(name)!.report);
      const f = faultNamed(name)!;
      expect(rows.length).toBeGreaterThan(0);
      expect(
        rows.some((r) => r.case === 'seq-write-read' && r.findings.some((x) => x.code === 'write_not_read_back')),
        'the sequence',
      ).toBe(true);
      for (const r of rows) {
        expect(r.operation, r.message).toBe('UpdateSpecialRequest');
        expect(
          r.findings.map((x) => x.code).every((c) => c === 'write_not_read_back' || c === 'value_differs'),
          r.message,
        ).toBe(true);
        expect(faultBindings(f)).toContain(r.binding);
      }
    },
  );

  test('100% pinpointed, 0 false alarms', () => {
    const all = [...outcomes.values()];
    expect(all).toHaveLength(SELF_TESTED.length);
    expect(all.filter((o) => !pinpointed(o)).map((o) => o.fault.name)).toEqual([]);
    expect([...variation, ...realStyle].flatMap(failedRows)).toEqual([]);
  });

  test('schema subsets gave the same XSD verdicts and messages as the whole schemas on every document', () => {
    expect(subsetCheck.compared).toBeGreaterThan(1000);
    expect(subsetCheck.distinct).toBeGreaterThan(500);
    expect(subsetCheck.disagreements.slice(0, 3)).toEqual([]);
  });

  // Issue 42: a SOAP request's DTD processed, and its external entity fetched from the harness's listener.
  test(
    'dtd_processed on the SOAP 1.1 internal entity expanded; external_entity_fetched (and dtd_processed) '
      + "on the SOAP 1.2 fetch, through the probe's path",
    () => {
      const codes = (name: string) =>
        failedRows(outcomes.get(name)!.report).flatMap((r) =>
          r.findings.map((f) => `${r.operation} ${r.binding} ${r.case} ${r.check} ${f.code}`),
        );
      expect(new Set(codes('doctype-internal-entity-expanded'))).toEqual(
        new Set(['GetRoomTypes soap11 doctype-internal-entity dtd_refused dtd_processed']),
      );
      expect(new Set(codes('doctype-external-entity-fetched'))).toEqual(
        new Set([
          'GetThemes soap12 doctype-internal-entity dtd_refused dtd_processed',
          'GetThemes soap12 doctype-external-entity dtd_refused dtd_processed',
          'GetThemes soap12 doctype-external-entity dtd_refused external_entity_fetched',
        ]),
      );
      const fetched = failedRows(outcomes.get('doctype-external-entity-fetched')!.report)
        .flatMap((r) => r.findings)
        .find((f) => f.code === 'external_entity_fetched')!;
      expect(fetched.message).toMatch(/\/conformance-probe\/[0-9a-f]{16}\/GetThemes\/soap12 /);
    },
  );

  test(
    'the mock refuses every DOCTYPE as the real service does, in every style: the probes pass on every '
      + 'SOAP operation and binding',
    () => {
      for (const r of [...variation, ...realStyle]) {
        const rows = r.results.filter((x) => x.check === 'dtd_refused');
        expect(rows).toHaveLength(OPERATIONS.length * 2 * 2);
        for (const x of rows)
          expect(x.message, `${x.operation} ${x.binding} ${x.case}`).toMatch(
            /^rejected with HTTP 500 and a SOAP fault .*For security reasons DTD is p/,
          );
      }
    },
  );

  // Issue 4: the comparison catches a binding that drops a list item or changes an attribute, and says where.
  test('binding_equivalence names soap12 and the meal it dropped', () => {
    const rows = failedRows(outcomes.get('soap12-drops-list-item')!.report).filter(
      (r) => r.check === EQUIVALENCE_CHECK,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.binding).toBe('soap12');
      expect(r.path).toMatch(/^\/getMealsResult\/meals\/meal\[\d+\]$/);
      expect(r.message).toMatch(/soap12=".*\(absent\)/);
    }
  });

  test('binding_equivalence names post and the attribute it changed', () => {
    const rows = failedRows(outcomes.get('post-changes-attribute-value')!.report).filter(
      (r) => r.check === EQUIVALENCE_CHECK,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.binding).toBe('post');
      expect(r.path).toBe('/getHotelNoteTypesResult/noteTypes/noteType[2]/@id');
      expect(r.findings[0]!.expected).toMatch(/^soap11, soap12, get: \d+$/);
      expect(r.findings[0]!.actual).toMatch(/^post: \d+$/);
    }
  });
});
