/**
 * Coverage (issue 34, section 2): the kinds of value, the answer paths of the type model, a run
 * against the embedded mock reporting them in every report, a mock that never sends one optional
 * element showing its path as never seen, and --min-coverage at, above and below the figure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation, OPERATIONS, type Operation } from '../contract/catalogue.js';
import { MODEL } from '../contract/model.js';
import { selectChecks } from '../checks/registry.js';
import type { RunReport, Target } from '../core/types.js';
import { EXIT_INCOMPLETE, withVerdict } from '../core/verdict.js';
import { startMock, type RunningMock } from '../mock/index.js';
import type { Fault } from '../mock/fault-types.js';
import { renderHtml, renderJson, renderMarkdown } from '../report/index.js';
import { formatSummary } from '../report/console.js';
import { reportPaths } from '../report/paths.js';
import { validateReport } from '../schema/json.js';
import { Transport } from '../transport/client.js';
import { loadFixtureCases } from './cases.js';
import { answerPaths, CoverageRecorder, enumOfParam } from './coverage.js';
import { CheckContext } from '../checks/context.js';
import { acceptance } from '../equivalence/acceptance.js';
import { FIXED_LANGUAGES, boundaryValuesOf, possibleKinds, valueKind } from './generate.js';
import type { RunPlan } from './plan.js';
import { runPlan } from './run.js';
import { mockBookings } from './bookings.js';

const param = (op: string, name: string) => findOperation(op)!.params.find((p) => p.name === name)!;

describe('the kind of a value sent (one place: generate.ts)', () => {
  test("absent, empty, invalid, boundary, valid, by the parameter's type and name", () => {
    const roomId = param('AmendmentRequest', 'roomId');
    expect(valueKind(roomId, undefined)).toBe('absent');
    expect(valueKind(roomId, '')).toBe('empty');
    expect(valueKind(roomId, 'not-a-number')).toBe('invalid');
    expect(valueKind(roomId, '2147483648')).toBe('invalid');
    expect(valueKind(roomId, '2147483647')).toBe('boundary');
    expect(valueKind(roomId, '5521')).toBe('valid');
    const checkIn = param('AmendmentRequest', 'checkInDate');
    expect(valueKind(checkIn, 'not-a-date')).toBe('invalid');
    expect(valueKind(checkIn, '2028-02-29T23:59:59')).toBe('boundary');
    expect(valueKind(checkIn, '2025-06-01T00:00:00')).toBe('valid');
    const arrival = param('SearchTransfers', 'arrivalDate');
    expect(valueKind(arrival, '2027-02-30')).toBe('invalid');
    expect(valueKind(arrival, 'not-a-date')).toBe('invalid');
    expect(valueKind(arrival, '2028-02-29')).toBe('boundary');
    expect(valueKind(param('SearchTransfers', 'arrivalTime'), '24:00')).toBe('invalid');
    // Every value of every pool is boundary, empty or invalid: never "valid".
    const st = findOperation('SearchTransfers')!;
    for (const p of st.params.filter((x) => !['userName', 'password', 'language'].includes(x.name))) {
      for (const v of boundaryValuesOf(p)) expect(valueKind(p, v), `${p.name} ${v}`).not.toBe('valid');
    }
  });

  test(
    'a parameter named after an enumeration of the model: its values valid, others invalid; no boundary; '
      + 'language has no pool',
    () => {
      const bookingType = param('AmendmentRequest', 'bookingType');
      const values = enumOfParam(bookingType);
      expect(values).toEqual(['FullPeriod', 'ExtraDays', 'NoAmendmentAvailable']);
      expect(valueKind(bookingType, 'ExtraDays', values)).toBe('valid');
      expect(valueKind(bookingType, 'fullperiod', values)).toBe('invalid');
      expect(possibleKinds(bookingType, values)).toEqual(['empty', 'valid', 'invalid']);
      expect(possibleKinds(param('GetMeals', 'language'))).toEqual(['empty', 'valid']);
      expect(possibleKinds(param('SearchTransfers', 'hotelID'))).toEqual([
        'absent',
        'empty',
        'valid',
        'boundary',
        'invalid',
      ]);
      expect(possibleKinds(param('CancelBooking', 'bookingID'))).toEqual(['empty', 'valid', 'boundary']);
    },
  );

  test("each parameter's enumeration, read from the model once, is the one a scan of the model finds", () => {
    const scan = (name: string) =>
      [...MODEL.values()].find((t) => t.kind === 'enum' && t.name.toLowerCase() === name.toLowerCase());
    const names = [...OPERATIONS.flatMap((op) => op.params.map((p) => p.name)), 'BOOKINGTYPE', 'noSuchEnum'];
    let enums = 0;
    for (const name of names) {
      const t = scan(name);
      expect(enumOfParam({ ...param('GetMeals', 'language'), name }), name).toBe(
        t?.kind === 'enum' ? t.values : undefined,
      );
      if (t) enums++;
    }
    expect(enums).toBeGreaterThan(1);
  });
});

describe('the answer paths of an operation: its type model, by name', () => {
  test(
    "GetLanguages: the result, BaseResult's Error, the list and its items' fields, with the forms each " + 'may take',
    () => {
      const paths = answerPaths(findOperation('GetLanguages')!).map((p) => p.path);
      expect(paths).toEqual([
        '/getLanguagesResult',
        '/getLanguagesResult/Error',
        '/getLanguagesResult/Error/ErrorType',
        '/getLanguagesResult/Error/Message',
        '/getLanguagesResult/ErrorAttributes',
        '/getLanguagesResult/languages',
        '/getLanguagesResult/languages/language',
        '/getLanguagesResult/languages/language/isoCode',
        '/getLanguagesResult/languages/language/name',
      ]);
    },
  );
  test(
    'attributes, nillable fields and "not shown" content: SearchTransfers\' rates are items of any name, '
      + 'the result may be nil',
    () => {
      const paths = answerPaths(findOperation('SearchTransfers')!).map((p) => p.path);
      expect(paths).toContain('/searchTransfersResult/airports/airport/transfers/transfer/rates/*');
      expect(paths).toContain('/searchTransfersResult/airports/airport/transfers/transfer/rates/*/@currency');
      const cancel = answerPaths(findOperation('CancelBooking')!).map((p) => p.path);
      expect(cancel).toContain('/result/CancellationPaymentMethod/@id');
      expect(cancel).toContain('/result/CancellationPaymentMethod/cancellation/activecancellationpolicy/deadline');
    },
  );
});

describe('the forms of a path: nil, empty, absent, where the model allows them', () => {
  const search = DEFAULT_NAMESPACES.search;
  const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
  /** Record GET answers (the result element is the document) of `op` with these bodies. */
  function recorded(opName: string, bodies: string[]) {
    const op = findOperation(opName)!;
    const target = {
      bookUrl: 'http://t',
      searchUrl: 'http://t',
      transfersUrl: 'http://t',
      paths: DEFAULT_PATHS,
      namespaces: DEFAULT_NAMESPACES,
      user: 'u',
      password: 'p',
      embedded: false,
    };
    const rec = new CoverageRecorder({ operations: [op], bindings: ['get'], target });
    for (const body of bodies) {
      const exchange = {
        request: { method: 'GET' as const, url: 'http://t/x', headers: {} },
        response: {
          status: 200,
          headers: { 'content-type': 'text/xml; charset=utf-8' },
          body: Buffer.from(body),
          elapsedMs: 1,
        },
      };
      const ctx = new CheckContext({
        op,
        binding: 'get',
        caseId: 'default',
        caseKind: 'valid',
        namespaces: DEFAULT_NAMESPACES,
        exchange,
        validator: noValidator,
      });
      rec.request(op, 'get', { language: 'en' });
      rec.answer(op, 'get', ctx, acceptance(ctx));
    }
    return rec.report().cells[0]!;
  }
  const path = (c: ReturnType<typeof recorded>, p: string) => c.paths.find((x) => x.path === p);

  test('an empty string, an absent optional element, a list with no item; a required element never "absent"', () => {
    const c = recorded('GetMeals', [
      `<getMealsResult `
        + `xmlns="${search}"><meals><meal><id>1</id><name/><labels/></meal><meal><id>2</id><labels><label>x</label></labels></meal></meals></getMealsResult>`,
    ]);
    expect(path(c, '/getMealsResult/meals/meal/name')).toEqual({
      path: '/getMealsResult/meals/meal/name',
      seen: true,
      forms: { empty: true, absent: true },
    });
    expect(path(c, '/getMealsResult/meals/meal/labels')).toEqual({
      path: '/getMealsResult/meals/meal/labels',
      seen: true,
      forms: { empty: true, absent: false },
    });
    expect(path(c, '/getMealsResult/meals/meal/id')).toEqual({ path: '/getMealsResult/meals/meal/id', seen: true });
    expect(path(c, '/getMealsResult/meals/meal/labels/label')!.seen).toBe(true);
    expect(path(c, '/getMealsResult/Error')).toEqual({
      path: '/getMealsResult/Error',
      seen: false,
      forms: { absent: true },
    });
    expect(c.outcomes).toEqual({ accepted: 1 });
    expect(c.params).toEqual([{ name: 'language', sent: ['valid'], possible: ['empty', 'valid'] }]);
  });
  test('a nil result where the model allows it; an in-band Error: its paths held, the outcome its ErrorType', () => {
    const c = recorded('SearchTransfers', [
      `<searchTransfersResult xmlns="${search}" xmlns:xsi="${XSI}" xsi:nil="true"/>`,
      `<searchTransfersResult `
        + `xmlns="${search}"><Error><ErrorType>InvalidParameter</ErrorType><Message>no</Message></Error></searchTransfersResult>`,
    ]);
    expect(path(c, '/searchTransfersResult')).toEqual({
      path: '/searchTransfersResult',
      seen: true,
      forms: { nil: true },
    });
    expect(path(c, '/searchTransfersResult/Error/ErrorType')!.seen).toBe(true);
    expect(c.outcomes).toMatchObject({ 'rejected: ErrorType InvalidParameter': 1 });
    expect(c.answers).toBe(2);
  });
});

/** The mock never sends Language's name (optional: no contract violation), on every binding. */
const NO_LANGUAGE_NAME: Fault = {
  name: 'test-never-sends-language-name',
  description: "GetLanguages leaves out every language's (optional) name",
  category: 'structure',
  operation: 'GetLanguages',
  bindings: 'all',
  apply: {
    value: (v, c) =>
      c.kind === 'data' && v !== null && typeof v === 'object' && !Array.isArray(v)
        ? {
            ...v,
            languages: (v as { languages: Record<string, unknown>[] }).languages.map((l) => ({
              ...l,
              name: undefined,
            })),
          }
        : v,
  },
};

const NAME_PATH = '/getLanguagesResult/languages/language/name';
const noValidator = { validate: () => ({ xsdErrors: [] }) };

let plain: RunningMock;
let without: RunningMock;
let transport: Transport;
beforeAll(async () => {
  [plain, without] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, faults: [NO_LANGUAGE_NAME] })]);
  transport = new Transport({ concurrency: 8, timeoutMs: 10_000, maxBodyBytes: 1 << 25 });
});
afterAll(async () => {
  await transport?.close();
  await Promise.all([plain?.close(), without?.close()]);
});

function planAt(m: RunningMock, operations: readonly Operation[], o: Partial<RunPlan> = {}): RunPlan {
  const target: Target = {
    bookUrl: m.url,
    searchUrl: m.url,
    transfersUrl: m.url,
    paths: DEFAULT_PATHS,
    namespaces: DEFAULT_NAMESPACES,
    user: 'mock-user',
    password: 'mock-password',
    embedded: true,
  };
  return {
    target,
    bindings: ['soap11', 'soap12', 'get', 'post'],
    operations,
    cases: loadFixtureCases(),
    allowMutations: false,
    checks: selectChecks(),
    negative: true,
    equivalence: true,
    generation: { seed: 16, examples: 2, languages: FIXED_LANGUAGES, languagesFrom: 'test' },
    ...o,
  };
}

const run = (p: RunPlan) => runPlan(p, { transport, validator: noValidator });
const ops = (...names: string[]) => names.map((n) => findOperation(n)!);

describe('a run against the embedded mock', () => {
  let report: RunReport;
  beforeAll(async () => {
    report = withVerdict(await run(planAt(plain, ops('GetLanguages', 'GetMeals'))));
  });

  test(
    "reports coverage per operation × binding: paths held, kinds sent, outcomes; the figure is the cells' "
      + 'counts summed',
    () => {
      const c = report.coverage!;
      expect(c.cells.map((x) => `${x.operation} ${x.binding}`)).toEqual(
        ['GetLanguages', 'GetMeals'].flatMap((o) => ['soap11', 'soap12', 'get', 'post'].map((b) => `${o} ${b}`)),
      );
      const lang = c.cells.find((x) => x.operation === 'GetLanguages' && x.binding === 'get')!;
      expect(lang.paths.find((p) => p.path === NAME_PATH)).toMatchObject({
        seen: true,
        forms: { empty: false, absent: false },
      });
      expect(lang.neverSeen).not.toContain(NAME_PATH);
      // The wrong-credentials cases are answered with a fault by the default mock, the valid ones with data.
      expect(lang.outcomes.accepted).toBeGreaterThan(0);
      expect(Object.keys(lang.outcomes).some((k) => k.startsWith('rejected: '))).toBe(true);
      const meals = c.cells.find((x) => x.operation === 'GetMeals' && x.binding === 'soap11')!;
      expect(meals.params).toEqual([{ name: 'language', sent: ['valid'], possible: ['empty', 'valid'] }]);
      expect(meals.requestKinds).toEqual({ sent: 1, total: 2 });
      const sum = (f: (x: (typeof c.cells)[number]) => number) => c.cells.reduce((n, x) => n + f(x), 0);
      expect(c.answerPaths).toEqual({ seen: sum((x) => x.answerPaths.seen), total: sum((x) => x.answerPaths.total) });
      expect(c.percent).toBe(
        Math.floor((1000 * (c.answerPaths.seen + c.requestKinds.sent)) / (c.answerPaths.total + c.requestKinds.total))
          / 10,
      );
      for (const x of c.cells) expect(x.neverSeen).toEqual(x.paths.filter((p) => !p.seen).map((p) => p.path));
    },
  );

  test('in every report: conformance.json (valid against its schema), Markdown, HTML and the console', () => {
    const json = JSON.parse(renderJson(report)) as RunReport;
    expect(json.coverage).toEqual(JSON.parse(JSON.stringify(report.coverage)));
    expect(validateReport(json)).toEqual([]);
    const figure = `coverage ${report.coverage!.percent}%`;
    expect(renderMarkdown(report)).toContain(`C${figure.slice(1)}`);
    expect(renderMarkdown(report)).toMatch(
      /\| GetMeals \| [\d.]+% \| [\d.]+% \| [\d.]+% \| [\d.]+% \| `Error`, `Error\/ErrorType`/,
    );
    const html = renderHtml(report);
    expect(html).toContain('id="coverage"');
    expect(html).toContain('data-operation="GetLanguages" data-binding="post"');
    expect(formatSummary(report, reportPaths('/tmp/x'))).toContain(`C${figure.slice(1)}`);
  });
});

describe('a state-changing operation', () => {
  test(
    'the answers to its probes count as answers, said so; the calls of its sequence over state count too '
      + '(they have no http_exchange row)',
    async () => {
      const report = await run(planAt(plain, ops('CancelBooking'), { negative: false, bookings: mockBookings() }));
      expect(report.results.some((r) => r.case === 'seq-cancel' && r.status === 'passed')).toBe(true);
      for (const c of report.coverage!.cells) {
        expect(c.probeAnswers, c.binding).toBeGreaterThan(0);
        expect(c.probeAnswers!).toBeLessThan(c.answers);
        expect(Object.values(c.outcomes).reduce((n, k) => n + k, 0)).toBe(c.answers);
        const exchanged = report.results.filter(
          (r) => r.operation === 'CancelBooking' && r.binding === c.binding && r.check === 'http_exchange',
        ).length;
        expect(c.requests, c.binding).toBeGreaterThan(exchanged);
      }
    },
  );
});

describe('a mock that never sends one optional element', () => {
  test("shows that element's path as never seen, in every binding's cell, and nothing fails", async () => {
    const report = withVerdict(await run(planAt(without, ops('GetLanguages'), { negative: false })));
    expect(report.verdict).toBe('PASS');
    for (const cell of report.coverage!.cells) {
      expect(cell.neverSeen, cell.binding).toContain(NAME_PATH);
      expect(cell.paths.find((p) => p.path === NAME_PATH)).toEqual({
        path: NAME_PATH,
        seen: false,
        forms: { empty: false, absent: true },
      });
      expect(cell.neverSeen).not.toContain('/getLanguagesResult/languages/language/isoCode');
    }
    expect(renderHtml(report)).toMatch(
      /Never held by any answer \(\d+\): [^<]*(<code>[^<]*<\/code>, )*<code>languages\/language\/name<\/code>/,
    );
  });
});

describe('--min-coverage: the run is INCOMPLETE below it (exit 6), with the figure and the threshold', () => {
  let report: RunReport;
  beforeAll(async () => {
    report = await run(planAt(plain, ops('GetThemes'), { minCoverage: { percent: 0, source: '--min-coverage' } }));
  });
  const judged = (min: number) =>
    withVerdict({ ...report, coverage: { ...report.coverage!, min: { percent: min, source: '--min-coverage' } } });

  test('at the figure: passes', () => {
    const figure = report.coverage!.percent;
    expect(figure).toBeGreaterThan(0);
    expect(figure).toBeLessThan(100);
    expect(judged(figure)).toMatchObject({ verdict: 'PASS', exitCode: 0 });
  });
  test('below the figure: passes', () => {
    expect(judged(report.coverage!.percent - 0.1)).toMatchObject({ verdict: 'PASS', exitCode: 0 });
  });
  test('above the figure: INCOMPLETE, exit 6, the reason naming the figure, the threshold and its source', () => {
    const figure = report.coverage!.percent;
    const v = judged(figure + 0.1);
    expect(v).toMatchObject({ verdict: 'INCOMPLETE', exitCode: EXIT_INCOMPLETE });
    expect(v.verdictReason).toMatch(
      new RegExp(
        `^coverage ${figure}% is below the minimum ${figure + 0.1}% \\(--min-coverage\\): \\d+ answer `
          + `paths? held by no answer`,
      ),
    );
  });
  test("the plan's threshold reaches the report; a failure still judges FAIL first", async () => {
    expect(report.coverage!.min).toEqual({ percent: 0, source: '--min-coverage' });
    const failing = judged(100);
    const withFailure = withVerdict({
      ...failing,
      results: [...failing.results, { ...failing.results[0]!, status: 'failed' as const }],
    });
    expect(withFailure.verdict).toBe('FAIL');
  });
});
