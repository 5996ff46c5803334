/** writeReports end to end on a mixed fixture: every file, its format, and agreement with report.summary. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/core/types.js';
import { makeRedactor } from '../../src/core/redact.js';
import {
  formatSummary,
  renderHtml,
  renderJson,
  renderJunit,
  validateReport,
  writeReports,
  type ReportPaths,
} from '../../src/report/index.js';
import { groupCells, groupTests } from '../../src/report/model.js';
import { ATTACHMENT_MAX, MESSAGE_LINES, renderAllure, shareBudget } from '../../src/report/allure.js';
import { FAILED_MESSAGE, fixtureReport, passingReport, REPRODUCE_FAILED } from '../../test/support/report.js';

const tmp: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'conformance-report-'));
  tmp.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(tmp.map((d) => rm(d, { recursive: true, force: true })));
});

let report: RunReport;
let paths: ReportPaths;
beforeAll(async () => {
  report = fixtureReport();
  paths = await writeReports(report, join(await tempDir(), 'nested', 'reports'));
});

const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

describe('writeReports', () => {
  test('writes every report into the (created) directory', async () => {
    for (const p of [paths.json, paths.junit, paths.markdown, paths.html]) expect(existsSync(p), p).toBe(true);
    expect((await readdir(paths.allureResults)).some((f) => f.endsWith('-result.json'))).toBe(true);
  });

  test('refuses a summary that does not count the rows', async () => {
    const bad = { ...fixtureReport(), summary: { passed: 1, failed: 0, skipped: 0, known: 0, total: 1 } };
    await expect(writeReports(bad, await tempDir())).rejects.toThrow(
      /summary disagrees with report.results: passed says 1, rows count \d+/,
    );
  });
});

describe('conformance.json', () => {
  test('is the report, and valid against schemas/conformance-report.schema.json', async () => {
    const json = JSON.parse(await readFile(paths.json, 'utf8')) as unknown;
    expect(json).toEqual(JSON.parse(JSON.stringify(report)));
    expect(validateReport(json)).toEqual([]);
    expect(validateReport(JSON.parse(JSON.stringify(passingReport())))).toEqual([]);
  });

  test('the schema rejects a credential, an unknown status, a missing field and a stray property', () => {
    const base = JSON.parse(JSON.stringify(report)) as Record<string, any>;
    const withPassword = structuredClone(base);
    withPassword.target.password = 'hunter2';
    expect(validateReport(withPassword)).toEqual([
      expect.stringMatching(/^\/target\/password: "hunter2" does not match/),
    ]);
    const badStatus = structuredClone(base);
    badStatus.results[0].status = 'error';
    expect(validateReport(badStatus)).toEqual([
      expect.stringMatching(/^\/results\/0\/status: expected one of "passed", "failed", "skipped", "known"/),
    ]);
    const missing = structuredClone(base);
    delete missing.summary.known;
    expect(validateReport(missing)).toEqual(['/summary: missing required property known']);
    const stray = structuredClone(base);
    stray.target.apiKey = 'x';
    expect(validateReport(stray)).toEqual(['/target/apiKey: property not allowed']);
    const badBinding = structuredClone(base);
    badBinding.results[1].binding = 'soap13';
    expect(validateReport(badBinding)).toHaveLength(1);
  });
});

describe('junit.xml', () => {
  let xml: string;
  let doc: any;
  beforeAll(async () => {
    xml = await readFile(paths.junit, 'utf8');
    doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false }).parse(xml);
  });

  test('is well-formed XML 1.0 with no illegal characters', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml).toContain('bell:\\u0007');
    expect(xml).not.toContain('<script>');
  });

  test('totals on <testsuites> and every <testsuite> agree with report.summary and the testcases', () => {
    const s = report.summary;
    const root = doc.testsuites;
    expect({ tests: +root.tests, failures: +root.failures, skipped: +root.skipped, errors: +root.errors }).toEqual({
      tests: s.total,
      failures: s.failed,
      skipped: s.skipped,
      errors: 0,
    });
    const suites = asArray<any>(root.testsuite);
    expect(suites.map((x) => x.name)).toEqual(['CancelBooking', 'GetMeals', 'GetLanguages', 'SearchTransfers']);
    let tests = 0;
    let failures = 0;
    let skipped = 0;
    for (const suite of suites) {
      const cases = asArray<any>(suite.testcase);
      expect(+suite.tests).toBe(cases.length);
      expect(+suite.failures).toBe(cases.filter((c) => c.failure !== undefined).length);
      expect(+suite.skipped).toBe(cases.filter((c) => c.skipped !== undefined).length);
      tests += +suite.tests;
      failures += +suite.failures;
      skipped += +suite.skipped;
    }
    expect({ tests, failures, skipped }).toEqual({ tests: s.total, failures: s.failed, skipped: s.skipped });
  });

  test(
    'a testcase per row, named "<operation> [<binding or equivalence>] <case> :: <check>" with classname '
      + 'group.operation.column',
    () => {
      const cases = asArray<any>(doc.testsuites.testsuite).flatMap((x) => asArray<any>(x.testcase));
      expect(cases).toHaveLength(report.results.length);
      const failed = cases.find((c) => c.name === 'GetMeals [soap12] default :: xsd_validity');
      expect(failed.classname).toBe('reference.GetMeals.soap12');
      expect(failed.failure.type).toBe('xsd_validity');
      expect(failed.failure.message).toContain(FAILED_MESSAGE);
      expect(failed.failure['#text']).toContain('<script>alert(1)</script> ]]>');
      expect(failed.failure['#text']).toContain('reproduce:');
      const skipped = cases.find((c) => c.name === 'CancelBooking [post] default :: not_run');
      expect(skipped.skipped.message).toBe('mutating operation: pass --allow-mutations');
      const equivalence = cases.find((c) => c.name === 'GetMeals [equivalence] default :: binding_equivalence');
      expect(equivalence.failure).toBeDefined();
      expect(equivalence.classname).toBe('reference.GetMeals.equivalence');
      expect(asArray<any>(equivalence.properties.property)).toContainEqual({
        name: 'conformance.binding',
        value: 'soap11,get',
      });
    },
  );

  test(
    'test identities do not change with the departing binding (issue 15): passing, failing on soap12, '
      + 'failing on post',
    () => {
      const base = fixtureReport().results.filter(
        (r) => r.operation === 'GetMeals' && r.check === 'binding_equivalence',
      )[0]!;
      const variants = [
        { ...base, status: 'passed' as const, binding: 'soap11,soap12,get,post', findings: [] },
        { ...base, binding: 'soap12' },
        { ...base, binding: 'post' },
      ];
      const names = variants.map((r) => {
        const x = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
          renderJunit(fixtureReport([r])),
        );
        const c = asArray<any>(x.testsuites.testsuite)[0].testcase;
        return `${c.classname} ${c.name}`;
      });
      expect(new Set(names)).toEqual(
        new Set(['reference.GetMeals.equivalence GetMeals [equivalence] default :: binding_equivalence']),
      );
      expect(new Set(variants.map((r) => groupTests([r])[0]!.column))).toEqual(new Set(['equivalence']));
    },
  );

  test('a known deviation passes and carries its status as a property and its finding in system-out', () => {
    const cases = asArray<any>(doc.testsuites.testsuite).flatMap((x) => asArray<any>(x.testcase));
    const known = cases.find((c) => c.name === 'GetMeals [get] default :: content_type');
    expect(known.failure).toBeUndefined();
    expect(known.skipped).toBeUndefined();
    const props = asArray<any>(known.properties.property);
    expect(props).toContainEqual({ name: 'conformance.status', value: 'known' });
    expect(props.find((p) => p.name === 'known_deviation').value).toContain('charset=iso-8859-1');
    expect(known['system-out']).toContain('known deviation (accepted, does not fail the run)');
  });
});

describe('conformance.md', () => {
  test('headline, counts, matrix, and each failure with check, path, message and reproduce command', async () => {
    const md = await readFile(paths.markdown, 'utf8');
    expect(md.split('\n')[0]).toBe('## ❌ Conformance FAIL');
    expect(md).toContain('**3 failed** · 14 passed · 5 skipped · 1 known deviation · 23 checks');
    expect(md).toContain('| Operation | SOAP 1.1 | SOAP 1.2 | HTTP GET | HTTP POST | Equivalence |');
    expect(md).toMatch(/\| \*\*GetMeals\*\* \| ✅ 2 \| ❌ 1 ✅ 2 \| ✅ 1 ⚠️ 1 \| ⏭ 1 \| ❌ 1 \|/);
    expect(md).toMatch(/#### GetMeals · SOAP 1\.2 \(\d defects?, 1 failed row\)/);
    expect(md).toMatch(/#### GetMeals · SOAP 1\.1 ↔ HTTP GET \(\d defects?, 1 failed row\)/);
    expect(md).toMatch(/#### SearchTransfers · HTTP POST \(\d defects?, 1 failed row\)/);
    expect(md).toContain('`/Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id`');
    expect(md).toContain(`Reproduce (case \`default\`):\n\n\`\`\`sh\n${REPRODUCE_FAILED}\n\`\`\``);
    // Hostile text is inert outside code spans: no raw tag, no table break.
    const outsideCode = md.replace(/`+[^`]*`+/g, '');
    expect(outsideCode).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test("stays within GitHub's job summary limit when everything fails, saying how many were left out", async () => {
    const rows = fixtureReport().results;
    const failing = rows.find((r) => r.status === 'failed' && r.operation === 'SearchTransfers')!;
    // 500 defects (one path each), each with a long command.
    const many = Array.from({ length: 500 }, (_, i) => ({
      ...failing,
      case: `case-${i}`,
      path: `/p${i}`,
      findings: failing.findings.map((f) => ({ ...f, path: `/p${i}` })),
      reproduce: `${failing.reproduce} # ${'x'.repeat(3000)} ${i}`,
    }));
    const dir = await tempDir();
    const p = await writeReports(fixtureReport(many), dir);
    const md = await readFile(p.markdown, 'utf8');
    expect(Buffer.byteLength(md)).toBeLessThan(1024 * 1024);
    expect(md).toMatch(/… and \d+ more defects: see conformance.html or junit.xml./);
    expect(md.match(/^- \*\*`status_code`\*\*/gm)!.length).toBeLessThanOrEqual(100);
  });

  test('is short when everything passes', async () => {
    const dir = await tempDir();
    const p = await writeReports(passingReport(), dir);
    const md = await readFile(p.markdown, 'utf8');
    expect(md.split('\n')[0]).toBe('## ✅ Conformance PASS');
    expect(md).not.toContain('### Failures');
    expect(md).toContain('<details><summary>Operations × bindings</summary>');
    expect(md.split('\n').length).toBeLessThan(25);
  });
});

describe('valid cases answered with an in-band Error (issue 12)', () => {
  const noData = (): RunReport => {
    const rows = fixtureReport().results.filter((r) => r.status === 'passed');
    const skip = {
      group: 'booking',
      case: 'default',
      check: 'shape',
      status: 'skipped' as const,
      message: 'answered with an in-band Error …',
      path: '',
      reproduce: '',
      findings: [],
      inBandError: {
        type: 'Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException',
        message: 'The booking with ID 6981148 has already been cancelled.',
      },
    };
    return fixtureReport([
      ...rows,
      { ...skip, operation: 'CancelBooking', binding: 'soap11' },
      { ...skip, operation: 'CancelBooking', binding: 'get' },
    ]);
  };

  test(
    'are listed once per case with their bindings and ErrorType in the console, Markdown and HTML; the '
      + 'verdict stays PASS',
    async () => {
      const r = noData();
      const p = await writeReports(r, await tempDir());
      const md = await readFile(p.markdown, 'utf8');
      expect(md.split('\n')[0]).toBe('## ✅ Conformance PASS');
      expect(md).toMatch(/> 1 valid case answered with an in-band Error: not a contract violation/);
      expect(md).toContain(
        '| CancelBooking | `default` | soap11, get | '
          + '`Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException` |',
      );
      const html = await readFile(p.html, 'utf8');
      expect(html).toContain('Cases that did not reach the data path (1)');
      expect(html).toContain('<td>soap11, get</td>');
      const summary = formatSummary(r, p);
      expect(summary).toMatch(/Note: 1 valid case answered with an in-band Error/);
      expect(summary).toContain(
        '  CancelBooking default [soap11,get]: '
          + 'Fitruums.Framework.Booking.Exceptions.BookingAlreadyCancelledException "The booking with ID '
          + '6981148 has already been cancelled."',
      );
      expect(validateReport(JSON.parse(await readFile(p.json, 'utf8')))).toEqual([]);
    },
  );

  test('a report without them says nothing about them', async () => {
    const p = await writeReports(passingReport(), await tempDir());
    expect(await readFile(p.markdown, 'utf8')).not.toContain('in-band');
    expect(formatSummary(passingReport(), p)).not.toContain('in-band');
  });
});

describe('conformance.html', () => {
  let html: string;
  beforeAll(async () => {
    html = await readFile(paths.html, 'utf8');
  });

  test('escapes all report text: no hostile markup survives', () => {
    expect(html).not.toMatch(/<script>alert/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('onerror=alert(2)>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    // eslint-disable-next-line no-control-regex
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  test('is self-contained: no external resource, a CSP that forbids fetching', () => {
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:|\/\/)/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/,
    );
  });

  test('checks of one exchange that fail together show its reproduce command once', () => {
    const rows = fixtureReport().results;
    const failing = rows.find((r) => r.status === 'failed' && r.operation === 'SearchTransfers')!;
    const two = [failing, { ...failing, check: 'content_type', message: 'wrong media type' }];
    const page = renderHtml(fixtureReport(two));
    // In the cell (the defects list above it gives one command per defect).
    expect(page.slice(page.indexOf('<section id="details"')).match(/<div class="repro">/g)).toHaveLength(1);
    expect(page).toContain('Reproduce (2 checks above)');
  });

  test('truncates long excerpts with a note', () => {
    expect(html).toMatch(
      /Truncated: showing the first 4,352 of 13,63\d characters. The reports keep only the start of each exchange/,
    );
  });

  test('has the header: verdict, counts, target URLs, duration, date', () => {
    expect(html).toContain('<div class="verdict fail" id="verdict">FAIL</div>');
    expect(html).toContain('<code>http://127.0.0.1:8081</code>');
    expect(html).toContain('12.3 s');
    expect(html).toContain('2026-11-21 06:00:00 UTC');
    expect(html).toContain('<li class="failed"><b>3</b> failed</li>');
  });
});

describe('allure-results', () => {
  let results: any[];
  let files: string[];
  beforeAll(async () => {
    files = await readdir(paths.allureResults);
    results = await Promise.all(
      files
        .filter((f) => f.endsWith('-result.json'))
        .map(async (f) => JSON.parse(await readFile(join(paths.allureResults, f), 'utf8'))),
    );
  });
  const label = (r: any, name: string) => r.labels.filter((l: any) => l.name === name).map((l: any) => l.value);
  const find = (name: string) => results.find((r) => r.name === name);
  const allSteps = (steps: any[]): any[] => steps.flatMap((s) => [s, ...allSteps(s.steps)]);

  test('one result per operation × column cell, one step per case, one sub-step per check', () => {
    const cells = groupCells(report.results);
    expect(results).toHaveLength(cells.length);
    expect(new Set(results.map((r) => r.fullName)).size).toBe(cells.length);
    for (const c of cells) {
      const r = find(`${c.operation} [${c.column}]`);
      expect(r, `${c.operation} ${c.column}`).toBeDefined();
      expect(r.fullName).toBe(`${c.group}.${c.operation}.${c.column}`);
      expect(r.steps.map((s: any) => s.name)).toEqual(c.cases.map((t) => t.case));
      for (const [i, t] of c.cases.entries())
        expect(r.steps[i].steps.map((s: any) => s.name)).toEqual(t.rows.map((x) => x.check));
      expect(r.stage).toBe('finished');
    }
  });

  test(
    'not one result per case: a cell with two cases is one result (fails if the writer regresses to a '
      + 'result per case)',
    () => {
      // The fixture's GetLanguages has two cases in each binding: a result per case would write more files than cells.
      const cells = groupCells(report.results);
      expect(cells.length).toBeLessThan(groupTests(report.results).length);
      expect(files.filter((f) => f.endsWith('-result.json'))).toHaveLength(cells.length);
      const r = find('GetLanguages [soap11]');
      expect(r.steps.map((s: any) => [s.name, s.status])).toEqual([
        ['default', 'passed'],
        ['second', 'passed'],
      ]);
      expect(results.some((x) => /\] (default|second)$/.test(x.name))).toBe(false);
    },
  );

  test('labels: epic = group, feature = binding label, story = operation, suites', () => {
    const r = find('GetMeals [soap12]');
    expect(label(r, 'epic')).toEqual(['reference']);
    expect(label(r, 'feature')).toEqual(['SOAP 1.2']);
    expect(label(r, 'story')).toEqual(['GetMeals']);
    expect(label(r, 'parentSuite')).toEqual(['Reference data']);
    expect(label(r, 'suite')).toEqual(['GetMeals']);
    expect(label(r, 'subSuite')).toEqual(['SOAP 1.2']);
    expect(label(r, 'framework')).toEqual(['accommodation-conformance']);
    expect(r.parameters).toEqual([{ name: 'binding', value: 'soap12' }]);
    expect(label(find('CancelBooking [get]'), 'epic')).toEqual(['booking']);
    expect(label(find('SearchTransfers [post]'), 'feature')).toEqual(['HTTP POST']);
    const eq = find('GetMeals [equivalence]');
    expect(label(eq, 'feature')).toEqual(['Equivalence']);
    expect(eq.fullName).toBe('reference.GetMeals.equivalence');
    expect(eq.parameters).toContainEqual({ name: 'bindings', value: 'soap11,get', excluded: true });
    expect(eq.steps[0].steps[0].parameters).toContainEqual({ name: 'bindings', value: 'soap11,get' });
  });

  test(
    'statuses: a failed row is a failed sub-step of its case step; skipped; known deviations pass with a '
      + 'skipped sub-step',
    () => {
      const failed = find('GetMeals [soap12]');
      expect(failed.status).toBe('failed');
      expect(failed.steps.map((s: any) => [s.name, s.status])).toEqual([['default', 'failed']]);
      const checks = failed.steps[0].steps;
      expect(checks.map((s: any) => s.status)).toEqual(['passed', 'failed', 'passed']);
      expect(checks[1].statusDetails.message).toContain(FAILED_MESSAGE);
      expect(checks[1].statusDetails).toMatchObject({ expected: 'xs:int', actual: 'abc' });
      expect(checks[1].statusDetails.trace).toContain(REPRODUCE_FAILED.split('\n')[0]);
      expect(failed.steps[0].statusDetails.message).toContain(`xsd_validity: /Envelope/Body/GetMealsResponse`);
      expect(failed.statusDetails.message).toBe(
        `default: xsd_validity: /Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id: ${FAILED_MESSAGE}`,
      );
      expect(failed.statusDetails.trace).toContain(REPRODUCE_FAILED.split('\n')[0]);
      const skipped = find('CancelBooking [soap11]');
      expect(skipped.status).toBe('skipped');
      expect(skipped.steps[0].status).toBe('skipped');
      expect(skipped.statusDetails.message).toBe('default: not_run: mutating operation: pass --allow-mutations');
      const known = find('GetMeals [get]');
      expect(known.status).toBe('passed');
      expect(known.steps[0].status).toBe('passed');
      expect(known.steps[0].steps[0].status).toBe('skipped');
      expect(known.steps[0].steps[0].statusDetails.message).toMatch(/^known deviation: /);
      expect(known.statusDetails.message).toMatch(/^default: content_type: known deviation: /);
      expect(label(known, 'tag')).toEqual(['known-deviation']);
      expect(label(failed, 'tag')).toEqual([]);
      // categories.json files a known deviation by the test's message.
      const categories = JSON.parse(readFileSync(join(paths.allureResults, 'categories.json'), 'utf8')) as any[];
      const byKnown = categories.find((c) => c.name === 'Known deviations');
      expect(new RegExp(byKnown.messageRegex).test(known.statusDetails.message)).toBe(true);
    },
  );

  test(
    "a failing case's request and response are attached to its step; the clean cases' exchanges are one "
      + 'attachment',
    async () => {
      const failed = find('GetMeals [soap12]');
      expect(failed.steps[0].attachments.map((a: any) => [a.name, a.type])).toEqual([
        ['Request (default)', 'text/plain'],
        ['Response (default)', 'text/plain'],
      ]);
      expect(failed.attachments).toEqual([]);
      const response = await readFile(join(paths.allureResults, failed.steps[0].attachments[1].source), 'utf8');
      expect(response).toContain('<script>alert("xss")</script>');
      expect(response).toContain('\\u0000');
      const known = find('GetMeals [get]');
      // A further distinct exchange of the case names its row.
      expect(known.steps[0].attachments.map((a: any) => a.name)).toEqual([
        'Request (default)',
        'Response (default)',
        'Request (default, get, xsd_validity)',
        'Response (default, get, xsd_validity)',
      ]);
      const big = await readFile(
        join(paths.allureResults, find('SearchTransfers [post]').steps[0].attachments[1].source),
        'utf8',
      );
      expect(big).toBe(
        report.results.find((r) => r.operation === 'SearchTransfers' && r.status === 'failed')!.response,
      );
      const clean = find('GetLanguages [soap11]');
      expect(clean.steps.flatMap((s: any) => s.attachments)).toEqual([]);
      expect(clean.attachments.map((a: any) => [a.name, a.type])).toEqual([['Exchanges (2 cases)', 'text/plain']]);
      const text = await readFile(join(paths.allureResults, clean.attachments[0].source), 'utf8');
      expect(text).toMatch(/^GetLanguages on SOAP 1\.1: the exchanges of the 2 cases with no failed check/);
      expect(text).toContain(
        '\n=== case default\n--- Request\nsoap11 request\n--- Response\nsoap11 response\n\n=== case '
          + 'second\n--- Request\nsoap11 request\n',
      );
      // Every attachment named is written, and every attachment written is named.
      const named = results
        .flatMap((r) => [...r.attachments, ...allSteps(r.steps).flatMap((s) => s.attachments)])
        .map((a: any) => a.source);
      expect(new Set(named).size).toBe(named.length);
      expect([...named].sort()).toEqual(files.filter((f) => f.endsWith('-attachment.txt')).sort());
    },
  );

  test("laid end to end in time from startedAt: tests, case steps and check steps by the rows' durations", () => {
    const sorted = [...results].sort((a, b) => a.start - b.start);
    expect(sorted[0].start).toBe(Date.parse(report.startedAt));
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].start).toBe(sorted[i - 1].stop);
    expect(sorted.at(-1).stop - sorted[0].start).toBe(report.results.reduce((n, r) => n + (r.durationMs ?? 0), 0));
    for (const r of results) {
      for (const c of r.steps) {
        expect(c.stop - c.start).toBe(c.steps.length * 3);
        expect(c.steps[0].start).toBe(c.start);
      }
    }
  });

  test('the same report gives the same results, but for the uuids Allure names files by', async () => {
    const { renderAllure } = await import('../../src/report/index.js');
    const normal = (w: ReturnType<typeof renderAllure>) => {
      const bytes = new Map(w.pending.map((p) => [p.name, p.bytes.toString('utf8')]));
      return w.pending
        .filter((p) => p.name.endsWith('-result.json'))
        .map((p) => {
          const r = JSON.parse(p.bytes.toString('utf8'));
          delete r.uuid;
          return JSON.stringify(r, (k, v) => (k === 'source' ? bytes.get(v) : v));
        })
        .sort();
    };
    expect(normal(renderAllure(report))).toEqual(normal(renderAllure(report)));
  });

  test('categories and environment are written', async () => {
    expect(files).toContain('categories.json');
    expect(await readFile(join(paths.allureResults, 'environment.properties'), 'utf8')).toContain(
      'target.transfersUrl',
    );
  });

  test('a clean run writes a result and at most one attachment per cell, plus categories and environment', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'allure-results'), { recursive: true });
    await writeFile(join(dir, 'allure-results', 'stale-result.json'), '{}');
    const p = await writeReports(passingReport(), dir);
    const after = await readdir(p.allureResults);
    // A rerun replaces the previous results instead of mixing them in.
    expect(after).not.toContain('stale-result.json');
    const cells = groupCells(passingReport().results).length;
    expect(after.filter((f) => f.endsWith('-result.json'))).toHaveLength(cells);
    expect(after.length).toBeLessThanOrEqual(2 * cells + 2);
  });
});

describe('allure-results: large cells', () => {
  const many = (n: number, status: 'passed' | 'failed', body: number) =>
    fixtureReport(
      Array.from({ length: n }, (_, i) => ({
        operation: 'GetMeals',
        group: 'reference',
        binding: 'soap11',
        case: `gen-${i}`,
        check: 'xsd_validity',
        status,
        message: status === 'failed' ? `bad ${i}` : '',
        path: status === 'failed' ? '/x' : '',
        reproduce: 'curl x',
        findings: [],
        durationMs: 1,
        request: `REQUEST ${i} ${'q'.repeat(body)}`,
        response: `RESPONSE ${i} ${'r'.repeat(body)}`,
      })),
    );
  const resultsOf = (r: RunReport) => {
    const w = renderAllure(r);
    const bytes = new Map(w.pending.map((p) => [p.name, p.bytes.toString('utf8')]));
    return {
      results: w.pending
        .filter((p) => p.name.endsWith('-result.json'))
        .map((p) => JSON.parse(p.bytes.toString('utf8'))),
      bytes,
    };
  };

  test(
    "the clean cases' exchanges share ATTACHMENT_MAX characters: each cut alike and saying so, every case "
      + 'heading kept',
    () => {
      const { results, bytes } = resultsOf(many(60, 'passed', 5_000));
      expect(results).toHaveLength(1);
      expect(results[0].attachments.map((a: any) => a.name)).toEqual(['Exchanges (60 cases)']);
      const text = bytes.get(results[0].attachments[0].source)!;
      for (let i = 0; i < 60; i++) expect(text).toContain(`\n=== case gen-${i}\n--- Request\nREQUEST ${i} q`);
      expect(text.match(/\[truncated: first \d+ of \d+ characters\]/g)).toHaveLength(120);
      const shown = text
        .split('\n')
        .filter((l) => /^(REQUEST|RESPONSE) /.test(l))
        .reduce((n, l) => n + l.length, 0);
      expect(shown).toBeLessThanOrEqual(ATTACHMENT_MAX);
      expect(shown).toBeGreaterThan(ATTACHMENT_MAX - 200);
      expect(text.length).toBeLessThan(ATTACHMENT_MAX + 60 * 150);
    },
  );

  test('short exchanges are whole; the budget goes to the long ones', () => {
    expect(shareBudget([10, 100, 1000, 5], 300)).toEqual([10, 100, 185, 5]);
    expect(shareBudget([50, 50], 300)).toEqual([50, 50]);
    expect(shareBudget([500, 500, 500], 300)).toEqual([100, 100, 100]);
    expect(shareBudget([], 300)).toEqual([]);
  });

  test(
    `a test's message lists its failed checks as "case: check: message", the first ${MESSAGE_LINES} then `
      + `how many more`,
    () => {
      const { results, bytes } = resultsOf(many(60, 'failed', 10));
      const r = results[0];
      expect(r.status).toBe('failed');
      const lines = r.statusDetails.message.split('\n');
      expect(lines).toHaveLength(MESSAGE_LINES + 1);
      expect(lines[0]).toBe('gen-0: xsd_validity: /x: bad 0');
      expect(lines.at(-1)).toBe('… and 10 more failed checks');
      expect(r.statusDetails.trace).toMatch(/… and 10 more failed checks \(see the case steps\)$/);
      // Every failed case keeps its own request and response, on its own step.
      expect(r.steps.every((s: any) => s.status === 'failed' && s.attachments.length === 2)).toBe(true);
      expect(bytes.get(r.steps[59].attachments[1].source)).toBe(`RESPONSE 59 ${'r'.repeat(10)}`);
      expect(r.attachments).toEqual([]);
    },
  );

  test("a failed case's exchange over ATTACHMENT_MAX is cut, and says so", () => {
    const { results, bytes } = resultsOf(many(1, 'failed', ATTACHMENT_MAX + 100));
    const text = bytes.get(results[0].steps[0].attachments[1].source)!;
    expect(text).toBe(
      `RESPONSE 0 ${'r'.repeat(ATTACHMENT_MAX - 11)}\n\n[truncated: first ${ATTACHMENT_MAX} `
        + `of ${ATTACHMENT_MAX + 111} characters]`,
    );
  });
});

describe('secrets', () => {
  test(
    'redacts, and says so on stderr naming the file, a secret that reached any output (raw or encoded): '
      + 'the run is kept',
    async () => {
      const leaky = fixtureReport();
      leaky.results[0] = { ...leaky.results[0]!, response: 'HTTP/1.1 200 OK\n\n<password>s3cr&t pa$$</password>' };
      const secret = 's3cr&t pa$$';
      const dir = join(await tempDir(), 'out');
      const warnings: string[] = [];
      await writeReports(leaky, dir, [secret], (m) => warnings.push(m));
      for (const f of ['conformance.json', 'junit.xml', 'conformance.md', 'conformance.html']) {
        const text = readFileSync(join(dir, f), 'utf8');
        expect(text, f).not.toContain('s3cr&');
        expect(text, f).not.toContain('s3cr&amp;t');
      }
      expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toContain('<password>***</password>');
      expect(
        warnings.some((w) =>
          /^warning: .*conformance\.json would have contained secret #1 in 1 place that the run's own redaction did not cover: redacted there as \*\*\*/.test(
            w,
          ),
        ),
      ).toBe(true);
      expect(warnings.join('\n')).not.toContain(secret);
    },
  );

  test(
    "Allure: a secret in a clean case's exchange (the cell's Exchanges attachment) and in a failed case's "
      + "(its step's attachment) is redacted",
    async () => {
      const leaky = fixtureReport();
      const secret = 's3cr&t pa$$';
      // results[0]: GetMeals soap11, a clean case; results[3]: GetMeals soap12, the failed one.
      leaky.results[0] = { ...leaky.results[0]!, response: `HTTP/1.1 200 OK\n\n<password>${secret}</password>` };
      leaky.results[3] = {
        ...leaky.results[3]!,
        response: `HTTP/1.1 200 OK\n\n<pw>${encodeURIComponent(secret)}</pw>`,
      };
      const dir = join(await tempDir(), 'out');
      const warnings: string[] = [];
      const p = await writeReports(leaky, dir, [secret], (m) => warnings.push(m));
      const files = await readdir(p.allureResults);
      const texts = await Promise.all(files.map((f) => readFile(join(p.allureResults, f), 'utf8')));
      for (const [i, t] of texts.entries()) {
        expect(t, files[i]).not.toContain('s3cr&');
        expect(t, files[i]).not.toContain('s3cr%26');
      }
      expect(
        texts.some(
          (t) => t.startsWith('GetMeals on SOAP 1.1: the exchanges of') && t.includes('<password>***</password>'),
        ),
      ).toBe(true);
      expect(texts.some((t) => t.includes('<pw>***</pw>'))).toBe(true);
      // Both are redacted once, in the values every report (Allure's included) is rendered from: one
      // warning says so; the attachments are still searched whole (suites/report/guard.test.ts).
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /conformance\.json would have contained secret #1 in 2 places that the run's own redaction did not cover: redacted there as \*\*\* \(in every report/,
      );
    },
  );

  test(
    'finds a secret that only appears escaped (HTML/XML entity, percent-encoded in any case, JSON, ' + 'UTF-16)',
    async () => {
      for (const message of [
        'p%3Cw%3E',
        'p%3cw%3e',
        '&#112;&#x3C;w&GT;',
        '\\u0070\\u003cw>',
        'p\u0000<\u0000w\u0000>\u0000',
        '\u0000p\u0000<\u0000w\u0000>',
      ]) {
        const leaky = fixtureReport();
        leaky.results[0] = { ...leaky.results[0]!, message };
        const dir = join(await tempDir(), 'x');
        const warnings: string[] = [];
        await writeReports(leaky, dir, ['p<w>'], (m) => warnings.push(m));
        expect(warnings.length, message).toBeGreaterThan(0);
        expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).results[0].message, message).toBe('***');
      }
    },
  );

  test('treats an unredacted target password as a secret', async () => {
    const r = fixtureReport();
    const leaky = { ...r, target: { ...r.target, password: 'hunter2' } };
    const warnings: string[] = [];
    const dir = join(await tempDir(), 'x');
    await writeReports(leaky, dir, [], (m) => warnings.push(m));
    expect(warnings.join('\n')).toMatch(/conformance\.json would have contained secret #1/);
    expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).not.toContain('hunter2');
  });

  test(
    "a short password spelled in the harness's own text (a check name, a case id) leaves the reports as " + 'they are',
    async () => {
      const warnings: string[] = [];
      const dir = join(await tempDir(), 'x');
      // As the engine hands it over: what was sent and what came back already redacted.
      const redact = makeRedactor(['en', 'status', 'default']);
      const f = fixtureReport();
      const r: RunReport = {
        ...f,
        results: f.results.map((x) => ({
          ...x,
          message: redact(x.message),
          path: redact(x.path),
          reproduce: redact(x.reproduce),
          findings: x.findings.map((y) => ({
            ...y,
            message: redact(y.message),
            path: redact(y.path),
            ...(y.expected !== undefined ? { expected: redact(y.expected) } : {}),
            ...(y.actual !== undefined ? { actual: redact(y.actual) } : {}),
          })),
          ...(x.request !== undefined ? { request: redact(x.request) } : {}),
          ...(x.response !== undefined ? { response: redact(x.response) } : {}),
        })),
      };
      await writeReports(r, dir, ['en', 'status', 'default'], (m) => warnings.push(m));
      expect(warnings).toEqual([]);
      expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toBe(renderJson(r));
    },
  );

  test(
    "a secret that slipped through is redacted in values only: keys, URLs and the harness's words stay, "
      + 'the JSON stays valid',
    async () => {
      const warnings: string[] = [];
      const dir = join(await tempDir(), 'p');
      const f = fixtureReport();
      // "p" is in "password", "path", "http": only the response that leaks it may change.
      const r: RunReport = {
        ...f,
        results: f.results.map((x, i) => (i === 0 ? { ...x, response: 'leaked p here' } : x)),
      };
      await writeReports(r, dir, ['p'], (m) => warnings.push(m));
      const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport;
      expect(validateReport(json)).toEqual([]);
      expect(json.target.bookUrl).toBe(f.target.bookUrl);
      expect(json.results[0]!.response).toBe('leaked *** here');
      const own = (x: RunReport['results'][number]) => [
        Object.keys(x),
        x.operation,
        x.check,
        x.case,
        x.status,
        x.binding,
      ];
      expect(json.results.map(own)).toEqual(r.results.map(own));
      expect(warnings.some((w) => w.includes('conformance.json'))).toBe(true);
    },
  );

  test('passes when the secret is absent (redacted)', async () => {
    await expect(writeReports(fixtureReport(), await tempDir(), ['s3cr&t pa$$', ''])).resolves.toBeDefined();
  });
});

describe('generated cases in the reports (issue 16)', () => {
  const row = (c: string, status: 'passed' | 'failed', check = 'shape') => ({
    operation: 'GetMeals',
    group: 'reference',
    binding: 'post',
    case: c,
    check,
    status,
    message: status === 'failed' ? `broken in ${c}` : '',
    path: '/getMealsResult',
    reproduce: `curl ${c}`,
    findings: [],
  });
  const report = () => ({
    ...fixtureReport([
      row('default', 'passed'),
      row('gen-1-aaaaaa', 'passed'),
      row('gen-2-bbbbbb', 'failed'),
      row('gen-3-cccccc', 'passed'),
      row('gen-4-dddddd', 'failed'),
    ]),
    generation: { seed: 42, examples: 4, languagesFrom: "the target's GetLanguages (8 isoCodes)" },
  });
  test(
    'the HTML groups them per operation after the hand-written cases, failing ones first, open when one ' + 'fails',
    () => {
      const html = renderHtml(report());
      const group = html.slice(html.indexOf('<details class="generated" open>'));
      expect(group).toMatch(
        /^<details class="generated" open><summary><h3 class="sub">4 generated cases, 2 failing first<\/h3>/,
      );
      const order = ['gen-2-bbbbbb', 'gen-4-dddddd', 'gen-1-aaaaaa', 'gen-3-cccccc'].map((c) =>
        group.indexOf(`case <code>${c}</code>`),
      );
      expect(order.every((i) => i > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(html.indexOf('case <code>default</code>')).toBeLessThan(html.indexOf('<details class="generated"'));
      expect(html).toContain('seed <code>42</code>');
      const passing = renderHtml({
        ...report(),
        results: report().results.map((r) => ({ ...r, status: 'passed' as const })),
        summary: { passed: 5, failed: 0, skipped: 0, known: 0, total: 5 },
      });
      expect(passing).toContain('<details class="generated"><summary>');
    },
  );
  test('the seed is in the console summary, conformance.md and conformance.json (valid against its schema)', async () => {
    const dir = await tempDir();
    const paths = await writeReports(report(), dir);
    expect(formatSummary(report(), paths)).toContain(
      'Generated cases: seed 42 (repeat with --seed 42), 4 per operation',
    );
    expect(await readFile(paths.markdown, 'utf8')).toContain('Generated cases: seed 42 (repeat with `--seed 42`)');
    const json = JSON.parse(await readFile(paths.json, 'utf8')) as RunReport;
    expect(json.generation).toEqual({ seed: 42, examples: 4, languagesFrom: "the target's GetLanguages (8 isoCodes)" });
    expect(validateReport(json)).toEqual([]);
    expect(
      validateReport({ ...json, generation: { seed: -1, examples: 4, languagesFrom: 'x' } }).length,
    ).toBeGreaterThan(0);
  });
});
