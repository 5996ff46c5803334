/** The console texts: findings (vitest failure message) and the CLI's closing summary. */
import { describe, expect, test } from 'vitest';
import { formatFindings, formatSummary } from './console.js';
import { reportPaths } from './paths.js';
import { FAILED_MESSAGE, fixtureReport, passingReport, REPRODUCE_FAILED } from '../../test/support/report.js';

describe('formatFindings', () => {
  const rows = fixtureReport().results;
  const text = formatFindings(rows);

  test('one block per failed row: title, path, message, findings with expected/actual, reproduce', () => {
    const blocks = text.split('\n\n');
    expect(blocks).toHaveLength(3);
    const first = blocks[0]!.split('\n');
    expect(first[0]).toBe('✗ GetMeals [soap12] default :: xsd_validity');
    expect(first[1]).toBe('  path:      /Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id');
    expect(first[2]).toBe(`  message:   ${FAILED_MESSAGE}`);
    expect(blocks[0]).toContain('       expected: xs:int\n       actual:   abc');
    expect(blocks[0]).toContain(`  reproduce:\n    ${REPRODUCE_FAILED.split('\n').join('\n    ')}`);
    expect(blocks[1]!.split('\n')[0]).toBe('✗ GetMeals [soap11,get] default :: binding_equivalence');
  });

  test('leaves out rows that did not fail', () => {
    expect(text).not.toContain('content_type');
    expect(text).not.toContain('not_run');
    expect(formatFindings(passingReport().results)).toBe('no failed checks');
  });

  test('makes target-supplied control characters visible instead of sending them to the terminal', () => {
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(text).toContain('esc:\\u001B[2J');
    expect(text).toContain('bell:\\u0007');
  });

  test('cuts very long values', () => {
    const [row] = fixtureReport().results.filter((r) => r.status === 'failed');
    const long = {
      ...row!,
      findings: [{ check: 'x', code: 'value_differs' as const, path: '/a', message: 'm', actual: 'y'.repeat(5000) }],
    };
    const out = formatFindings([long]);
    expect(out).toContain('… (4400 more characters)');
    expect(out.length).toBeLessThan(2000);
  });
});

describe('formatSummary', () => {
  test('verdict, counts, failing cells, and the report paths last', () => {
    const report = fixtureReport();
    const out = formatSummary(report, reportPaths('reports'));
    const lines = out.split('\n');
    expect(lines[0]).toBe('Conformance FAIL: 3 failed, 14 passed, 5 skipped, 1 known deviation (23 checks) in 12.3 s');
    expect(lines[1]).toBe('Failed: GetMeals [soap12] ×1, GetMeals [soap11,get] ×1, SearchTransfers [post] ×1');
    expect(lines[2]).toBe('Defects: 4 in 3 failed rows (a defect: operation, binding, check, code and path)');
    expect(lines.slice(3)).toEqual([
      'Reports:',
      '  HTML      reports/conformance.html',
      '  Markdown  reports/conformance.md',
      '  JSON      reports/conformance.json',
      '  JUnit     reports/junit.xml',
      '  Allure    reports/allure-results/',
    ]);
  });

  test('PASS when nothing failed (known deviations do not fail); warns when nothing ran', () => {
    const ok = passingReport();
    expect(formatSummary(ok, reportPaths('/tmp/x')).split('\n')[0]).toMatch(/^Conformance PASS: 0 failed, 14 passed/);
    const known = fixtureReport(fixtureReport().results.filter((r) => r.status !== 'failed'));
    expect(formatSummary(known, reportPaths('/tmp/x')).split('\n')[0]).toMatch(
      /^Conformance PASS: .* 1 known deviation/,
    );
    const empty = fixtureReport([]);
    expect(formatSummary(empty, reportPaths('/tmp/x'))).toContain('Warning: no checks ran.');
    expect(formatSummary(empty, reportPaths('/tmp/x'))).toContain('  Allure    /tmp/x/allure-results/');
  });
});

describe('characters that reorder or break lines, from the target', () => {
  const SPOOF = 'price\u202Etxt.exe\u2028::error::fake CI line\u2029\u200F\u2066x\u2069\u0085';
  const report = fixtureReport();
  const i = report.results.findIndex((r) => r.status === 'failed');
  report.results[i] = {
    ...report.results[i]!,
    message: SPOOF,
    findings: [{ ...report.results[i]!.findings[0]!, message: SPOOF, actual: SPOOF }],
    response: SPOOF,
  };
  const RAW = /[\u202E\u2028\u2029\u200F\u2066\u2069\u0085]/;

  test('are shown as \\uXXXX escapes on the console and in HTML, Markdown and JUnit', async () => {
    const { renderHtml, renderMarkdown, renderJunit } = await import('./index.js');
    for (const [name, text] of [
      ['console', formatFindings(report.results)],
      ['html', renderHtml(report)],
      ['markdown', renderMarkdown(report)],
      ['junit', renderJunit(report)],
    ] as const) {
      expect(RAW.test(text), name).toBe(false);
      expect(text, name).toContain('price\\u202Etxt.exe\\u2028::error::fake CI line');
    }
  });

  test('are JSON escapes in conformance.json and the Allure files: the values parse back the same', async () => {
    const { renderJson, renderAllure } = await import('./index.js');
    const json = renderJson(report);
    expect(RAW.test(json)).toBe(false);
    expect(JSON.parse(json).results[i].message).toBe(SPOOF);
    for (const p of renderAllure(report).pending) expect(RAW.test(p.bytes.toString('utf8')), p.name).toBe(false);
  });
});
