/**
 * allure-results/ of real runs (in-process, against a mock that breaks GetMeals on HTTP GET): one
 * result per operation × column cell whatever the cases, identities that stay the same when the
 * seed changes the generated cases, a failed check as a failed sub-step of its case step with the
 * exchange attached, the same defect accepted as a known deviation, and a clean cell's exchanges
 * in one attachment.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../core/types.js';
import { startMock, type RunningMock } from '../mock/index.js';
import { groupCells, groupTests } from './model.js';
import { cli, mockTarget, readReport, tempDir } from '../../test/support/cli.js';

interface Step {
  name: string;
  status?: string;
  statusDetails: { message?: string };
  steps: Step[];
  attachments: { name: string; source: string }[];
}
interface Result extends Step {
  fullName: string;
  historyId: string;
  testCaseId: string;
  labels: { name: string; value: string }[];
}
interface Run {
  dir: string;
  code: number;
  report: RunReport;
  files: string[];
  results: Result[];
}

let mock: RunningMock;
const work = tempDir('allure');
let failing: Run;
let accepted: Run;

async function run(name: string, seed: string, ...extra: string[]): Promise<Run> {
  const dir = join(work, name);
  const { code, err } = await cli([
    'run',
    ...mockTarget(mock.url),
    '--operations',
    'GetMeals,GetSpecialRequest',
    '--bindings',
    'soap12,get',
    '--seed',
    seed,
    '--examples',
    '2',
    '--report-dir',
    dir,
    ...extra,
  ]);
  if (code !== 0 && code !== 1) throw new Error(`run ${name} exited ${code}: ${err}`);
  const files = readdirSync(join(dir, 'allure-results'));
  const results = files
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')) as Result);
  return { dir, code, report: readReport(dir), files, results };
}
const find = (r: Run, name: string): Result => {
  const hit = r.results.find((x) => x.name === name);
  if (!hit) throw new Error(`no Allure result named ${name} in ${r.dir}`);
  return hit;
};
const attachment = (r: Run, source: string) => readFileSync(join(r.dir, 'allure-results', source), 'utf8');

beforeAll(async () => {
  mock = await startMock({ faults: ['missing-required-element'] });
  const expectations = join(work, 'expectations.json');
  failing = await run('failing', '1', '--expectations', expectations, '--update-expectations');
  // The same defects, accepted: their rows become known deviations.
  const file = JSON.parse(readFileSync(expectations, 'utf8')) as { expectations: { reason: string }[] };
  for (const e of file.expectations) e.reason = 'the mock leaves out a meal id on purpose (test)';
  writeFileSync(expectations, JSON.stringify(file));
  accepted = await run('accepted', '2', '--expectations', expectations);
});
afterAll(async () => {
  await mock.close();
  rmSync(work, { recursive: true, force: true });
});

describe('allure-results of a run', () => {
  test(
    'one result per operation × column cell, not one per case: files bounded by the cells and the failing '
      + 'exchanges',
    () => {
      for (const r of [failing, accepted]) {
        const cells = groupCells(r.report.results);
        const cases = groupTests(r.report.results);
        // Generated cases make several cases per cell: a result per case would be many more files.
        expect(cases.length).toBeGreaterThan(2 * cells.length);
        expect(r.results).toHaveLength(cells.length);
        const failingCases = cases.filter((t) => t.rows.some((x) => x.status === 'failed' || x.status === 'known'));
        const failingExchanges = failingCases.reduce(
          (n, t) => n + new Set(t.rows.flatMap((x) => [x.request, x.response]).filter(Boolean)).size,
          0,
        );
        expect(r.files.length).toBeLessThanOrEqual(2 * cells.length + 2 + failingExchanges);
        expect(r.files).toEqual(expect.arrayContaining(['categories.json', 'environment.properties']));
        for (const c of cells) {
          const res = find(r, `${c.operation} [${c.column}]`);
          expect(res.steps.map((s) => s.name)).toEqual(c.cases.map((t) => t.case));
        }
      }
    },
  );

  test(
    'identities (fullName, historyId, testCaseId) are the same for another seed, whose generated cases ' + 'differ',
    () => {
      const ids = (r: Run) => r.results.map((x) => JSON.stringify([x.fullName, x.historyId, x.testCaseId])).sort();
      expect(ids(accepted)).toEqual(ids(failing));
      expect(new Set(failing.results.map((x) => x.historyId)).size).toBe(failing.results.length);
      // GetSpecialRequest's generated cases depend on the seed (GetMeals' language pool does not).
      const generated = (r: Run) =>
        [...new Set(r.report.results.filter((x) => x.case.startsWith('gen-')).map((x) => x.case))].sort();
      expect(generated(failing).length).toBeGreaterThan(0);
      expect(generated(accepted)).not.toEqual(generated(failing));
      expect(find(failing, 'GetMeals [get]').fullName).toBe('reference.GetMeals.get');
    },
  );

  test(
    'a failed check is a failed sub-step of its failed case step, and the case has its request and '
      + 'response attached',
    () => {
      expect(failing.code).toBe(1);
      const cell = find(failing, 'GetMeals [get]');
      expect(cell.status).toBe('failed');
      const step = cell.steps.find((s) => s.name === 'default')!;
      expect(step.status).toBe('failed');
      const failed = step.steps.filter((s) => s.status === 'failed');
      expect(failed.map((s) => s.name)).toEqual(expect.arrayContaining(['xsd_valid']));
      expect(failed.every((s) => (s.statusDetails.message ?? '').length > 0)).toBe(true);
      expect(step.attachments.map((a) => a.name)).toEqual(['Request (default)', 'Response (default)']);
      expect(attachment(failing, step.attachments[0]!.source)).toMatch(/^GET \/\S+\/GetMeals\?/);
      const response = attachment(failing, step.attachments[1]!.source);
      expect(response).toMatch(/^HTTP\/1\.1 200/);
      expect(response).toContain('<meal><name>');
      // The test's message lists the failed rows as "case: check: message".
      expect(cell.statusDetails.message).toMatch(/^default: xsd_valid: /m);
      // Other cells of the run pass, their exchanges in one attachment.
      expect(find(failing, 'GetMeals [soap12]').status).toBe('passed');
    },
  );

  test(
    'the same defects accepted: known deviations, skipped sub-steps, the tag known-deviation, the '
      + 'exchange still attached',
    () => {
      expect(accepted.code).toBe(0);
      const cell = find(accepted, 'GetMeals [get]');
      expect(cell.status).toBe('passed');
      expect(cell.labels).toContainEqual({ name: 'tag', value: 'known-deviation' });
      const step = cell.steps.find((s) => s.name === 'default')!;
      const known = step.steps.filter((s) => s.statusDetails.message?.startsWith('known deviation:'));
      expect(known.length).toBeGreaterThan(0);
      expect(known.every((s) => s.status === 'skipped')).toBe(true);
      expect(step.attachments.map((a) => a.name)).toEqual(['Request (default)', 'Response (default)']);
      expect(cell.statusDetails.message).toMatch(/^default: \w+: known deviation: /);
      expect(find(accepted, 'GetMeals [soap12]').labels.some((l) => l.name === 'tag')).toBe(false);
    },
  );

  test("a clean cell: no attachment per case, its cases' exchanges in one 'Exchanges (N cases)' attachment", () => {
    const cell = find(failing, 'GetMeals [soap12]');
    const cases = cell.steps.map((s) => s.name);
    expect(cell.steps.every((s) => s.attachments.length === 0)).toBe(true);
    expect(cell.attachments.map((a) => a.name)).toEqual([`Exchanges (${cases.length} cases)`]);
    const text = attachment(failing, cell.attachments[0]!.source);
    for (const c of cases) expect(text).toContain(`\n=== case ${c}\n--- Request\nPOST `);
    expect(text).toContain('--- Response\nHTTP/1.1 200');
  });
});
