/**
 * `conformance run --expectations FILE [--update-expectations]` end to end, against a target that
 * breaks GetMeals on HTTP GET (a doctored recording served by the replaying mock): the exit code,
 * the rows, the file written, and JUnit totals that equal conformance.json's after expectations.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXPECTATIONS_CHECK, TODO_REASON, type ExpectationsFile } from '../../src/engine/expectations.js';
import { cli, doctoredTarget, junitAgrees, mockTarget, readReport, tempDir } from '../../test/support/cli.js';

let target: Awaited<ReturnType<typeof doctoredTarget>>;
let flags: string[];
const work = tempDir('expectations');

beforeAll(async () => {
  target = await doctoredTarget();
  // The hand-written cases only: the doctored cell breaks every GetMeals GET answer, generated cases' too.
  flags = ['run', ...mockTarget(target.url), '--operations', 'GetMeals,GetThemes', '--examples', '0'];
});
afterAll(() => target.close());

const run = (name: string, ...extra: string[]) => cli([...flags, '--report-dir', join(work, name), ...extra]);
const readFile = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as ExpectationsFile;

function expectJunitAgrees(dir: string) {
  const { junit, summary } = junitAgrees(dir);
  expect(junit.tests).toBe(summary.total);
  expect(junit.failures).toBe(summary.failed);
  expect(junit.skipped).toBe(summary.skipped);
  expect(junit.testcases).toBe(summary.total);
  expect(junit.failureElements).toBe(summary.failed);
  expect(junit.skippedElements).toBe(summary.skipped);
}

describe('run --expectations', () => {
  test('without expectations the broken cell fails the gate', async () => {
    const r = await run('plain');
    expect(r.code).toBe(1);
    const rep = readReport(join(work, 'plain'));
    const failed = rep.results
      .filter((x) => x.status === 'failed')
      .map((x) => `${x.operation} [${x.binding}] ${x.case} :: ${x.check}`);
    expect(failed).toEqual(
      expect.arrayContaining(['GetMeals [get] default :: xsd_valid', 'GetMeals [get] default :: shape']),
    );
    expect(failed.every((f) => f.startsWith('GetMeals [get] default'))).toBe(true);
    expectJunitAgrees(join(work, 'plain'));
  });

  test(
    '--update-expectations writes one entry per defect with $schema; a TODO entry accepts nothing until '
      + 'it says why (issue 22); JUnit agrees',
    async () => {
      const file = join(work, 'ci', 'new.json');
      const r = await run('update', '--expectations', file, '--update-expectations');
      expect(r.err).toMatch(/wrote .*new\.json: \d+ entries \(\d+ added/);
      const written = readFile(file);
      expect(written.$schema).toMatch(/^(\.\.\/)+.*schemas\/expectations\.schema\.json$/);
      expect(readFileSync(join(file, '..', written.$schema!), 'utf8')).toContain('"title": "Known deviations');
      expect(written.expectations.length).toBeGreaterThanOrEqual(2);
      expect(
        written.expectations.every(
          (e) => e.operation === 'GetMeals' && e.case === undefined && e.code !== undefined && e.reason === TODO_REASON,
        ),
      ).toBe(true);
      // One entry per operation, binding, check and code.
      const keys = written.expectations.map((e) => JSON.stringify([e.binding, e.check, e.code]));
      expect(new Set(keys).size).toBe(keys.length);
      // Written, not yet explained: the failures still fail the run, and the warning says so.
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /warning: .*new\.json \/expectations\/0 \(GetMeals \[get\] \* :: \w+\/\w+\) has no reason yet \("TODO: explain"\): it accepts nothing/,
      );
      const rep = readReport(join(work, 'update'));
      expect(rep.summary.known).toBe(0);
      expect(rep.expectations!.entries.every((e) => e.state === 'unexplained')).toBe(true);
      expectJunitAgrees(join(work, 'update'));
      // Explained: accepted, exit 0.
      writeFileSync(
        file,
        JSON.stringify({
          ...written,
          expectations: written.expectations.map((e) => ({ ...e, reason: 'OPS-7: meal ids' })),
        }),
      );
      const again = await run('update-explained', '--expectations', file);
      expect(again.code, again.err).toBe(0);
      expect(readReport(join(work, 'update-explained')).summary).toMatchObject({ failed: 0 });
    },
  );

  test("an entry can name a generated case id: only that case's rows become known (issue 16)", async () => {
    // A recording whose GetMeals GET answers of the generated examples are broken too.
    const doctored = await doctoredTarget('GetMeals,GetThemes', true);
    try {
      const gen = ['run', ...mockTarget(doctored.url), '--operations', 'GetMeals,GetThemes', '--examples', '4'];
      const first = await cli([...gen, '--report-dir', join(work, 'gen')]);
      expect(first.code).toBe(1);
      const failedGen = readReport(join(work, 'gen')).results.filter(
        (x) => x.status === 'failed' && x.case.startsWith('gen-'),
      );
      expect(failedGen.length).toBeGreaterThan(0);
      const id = failedGen[0]!.case;
      const file = join(work, 'gen.json');
      writeFileSync(
        file,
        JSON.stringify({
          expectations: [
            { operation: 'GetMeals', binding: 'get', check: 'shape', case: id, reason: 'OPS-9: generated case' },
          ],
        }),
      );
      await cli([...gen, '--report-dir', join(work, 'gen-known'), '--expectations', file]);
      const rep = readReport(join(work, 'gen-known'));
      expect(rep.results.filter((x) => x.status === 'known').map((x) => `${x.case} ${x.check}`)).toEqual([
        `${id} shape`,
      ]);
      expect(rep.results.some((x) => x.status === 'failed' && x.case === 'default' && x.check === 'shape')).toBe(true);
    } finally {
      await doctored.close();
    }
  });

  test('a file with explained entries: known rows, exit 0, and a second update keeps the reasons', async () => {
    const file = join(work, 'explained.json');
    writeFileSync(
      file,
      JSON.stringify({
        description: 'doctored recording',
        expectations: [
          { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: 'OPS-7: id of meal 2' },
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'OPS-7', expires: '2999-12-31' },
        ],
      }),
    );
    const r = await run('explained', '--expectations', file);
    const rep = readReport(join(work, 'explained'));
    const stillFailing = rep.results.filter((x) => x.status === 'failed');
    // The equivalence row is not listed: it still fails, so the gate does too.
    expect(stillFailing.map((x) => x.check)).toEqual(['binding_equivalence']);
    expect(r.code).toBe(1);
    expect(rep.results.find((x) => x.status === 'known' && x.check === 'xsd_valid')!.message).toMatch(
      /^known deviation: "OPS-7: id of meal 2"/,
    );

    const u = await run('explained2', '--expectations', file, '--update-expectations');
    // The equivalence failure got a TODO entry: it accepts nothing yet.
    expect(u.code).toBe(1);
    const after = readFile(file);
    expect(after.description).toBe('doctored recording');
    expect(after.expectations.slice(0, 2)).toEqual([
      { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: 'OPS-7: id of meal 2' },
      { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'OPS-7', expires: '2999-12-31' },
    ]);
    expect(after.expectations.slice(2)).toEqual([
      expect.objectContaining({ check: 'binding_equivalence', reason: TODO_REASON }),
    ]);
    expect(after.expectations[2]!.case).toBeUndefined();
    expectJunitAgrees(join(work, 'explained2'));
  });

  test('a stale entry fails the gate with a warning and a row; --update-expectations removes it', async () => {
    const file = join(work, 'stale.json');
    writeFileSync(
      file,
      JSON.stringify({
        expectations: [
          { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: 'real' },
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'real' },
          { operation: 'GetMeals', binding: 'get', check: 'binding_equivalence', case: 'default', reason: 'real' },
          { operation: 'GetThemes', binding: 'soap12', check: 'shape', reason: 'fixed long ago' },
          { operation: 'CancelBooking', binding: 'get', check: 'shape', reason: 'not in this run' },
        ],
      }),
    );
    const r = await run('stale', '--expectations', file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/warning: .*stale\.json \/expectations\/3 \(GetThemes \[soap12\] \* :: shape\) is stale/);
    const rep = readReport(join(work, 'stale'));
    const rows = rep.results.filter((x) => x.check === EXPECTATIONS_CHECK);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operation: 'GetThemes',
      binding: 'soap12',
      case: '*',
      status: 'failed',
      path: '/expectations/3',
    });
    expect(rep.summary.failed).toBe(1);
    expectJunitAgrees(join(work, 'stale'));

    expect((await run('stale2', '--expectations', file, '--update-expectations')).code).toBe(0);
    expect(readFile(file).expectations.map((e) => e.reason)).toEqual(['real', 'real', 'real', 'not in this run']);
  });

  test('an expired entry fails the gate again', async () => {
    const file = join(work, 'expired.json');
    writeFileSync(
      file,
      JSON.stringify({
        expectations: [
          { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: 'r', expires: '2000-01-01' },
          { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'r' },
          { operation: 'GetMeals', binding: 'get', check: 'binding_equivalence', reason: 'r' },
        ],
      }),
    );
    const r = await run('expired', '--expectations', file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/expired on 2000-01-01 and still fails/);
    const rep = readReport(join(work, 'expired'));
    expect(
      rep.results
        .filter((x) => x.status === 'failed')
        .map((x) => x.check)
        .sort(),
    ).toEqual([EXPECTATIONS_CHECK, 'xsd_valid']);
  });

  test(
    'the job summary lists the accepted deviations, flagging a missing reason and an early expiry (issue ' + '15)',
    async () => {
      const file = join(work, 'listed.json');
      const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(
        file,
        JSON.stringify({
          expectations: [
            { operation: 'GetMeals', binding: 'get', check: 'xsd_valid', reason: TODO_REASON },
            { operation: 'GetMeals', binding: 'get', check: 'shape', reason: 'OPS-7: meal ids', expires: soon },
            {
              operation: 'GetMeals',
              binding: 'get',
              check: 'binding_equivalence',
              reason: 'OPS-7',
              expires: '2999-12-31',
            },
          ],
        }),
      );
      const r = await run('listed', '--expectations', file);
      // The TODO entry accepts nothing (issue 22): its xsd_valid row fails the run.
      expect(r.code).toBe(1);
      const md = readFileSync(join(work, 'listed', 'conformance.md'), 'utf8');
      expect(md).toContain('### Accepted deviations (3, 2 need attention)');
      expect(md).toMatch(
        /\| ⚠️ \| GetMeals \| get \| `xsd_valid` \| all \| TODO: explain \| — \| no reason given: accepts nothing, its rows fail \|/,
      );
      expect(md).toMatch(
        new RegExp(
          `\\| ⚠️ \\| GetMeals \\| get \\| \`shape\` \\| all \\| OPS-7: meal ids \\| ${soon} \\| `
            + `expires in 10 days \\|`,
        ),
      );
      expect(md).toMatch(/\| ✔️ \| GetMeals \| get \| `binding_equivalence` \| all \| OPS-7 \| 2999-12-31 \| {2}\|/);
      expect(r.out).toMatch(
        /Accepted deviations: 3 \(.*listed\.json\), 2 need attention:\n {2}GetMeals \[get\] \* :: xsd_valid: no reason given: accepts nothing/,
      );
      expect(readFileSync(join(work, 'listed', 'conformance.html'), 'utf8')).toContain(
        'Accepted deviations (3, 2 need attention)',
      );
      expect(readReport(join(work, 'listed')).expectations?.entries.map((e) => e.state)).toEqual([
        'unexplained',
        'ok',
        'ok',
      ]);
    },
  );

  test('bad expectations input exits 2 naming the problem, before anything is sent', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{ "expectations": [ { "operation": "GetMeals" ');
    let r = await run('bad', '--expectations', bad);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.json is not valid JSON/);
    writeFileSync(
      bad,
      JSON.stringify({ expectations: [{ operation: 'GetMeals', binding: 'get', check: 'xsdvalid', reason: 'r' }] }),
    );
    r = await run('bad', '--expectations', bad);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\/expectations\/0: unknown check "xsdvalid"/);
    r = await run('bad', '--expectations', join(work, 'missing.json'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot read expectations file .*missing\.json: ENOENT/);
    r = await run('bad', '--update-expectations');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--update-expectations needs --expectations FILE/);
  });
});
