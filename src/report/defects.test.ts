/**
 * Failures grouped by defect (issue 22): one entry per operation, binding, check, code and path, with its cases and one
 * command.
 */
import { describe, expect, test } from 'vitest';
import type { ResultRow, RunReport } from '../core/types.js';
import { formatDefects } from './console.js';
import { defectPath, groupDefects } from './defects.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { minimalReport } from '../../test/support/report.js';

const finding = (path: string, code: 'missing_required_element' | 'unknown_element' = 'missing_required_element') => ({
  check: 'shape',
  code,
  path,
  message: `${path}: required element missing`,
  expected: 'an element',
  actual: 'none',
});
const failed = (caseId: string, paths: string[], extra: Partial<ResultRow> = {}): ResultRow => ({
  operation: 'CancelBooking',
  group: 'booking',
  binding: 'get',
  case: caseId,
  check: 'shape',
  status: 'failed',
  message: 'shape broken',
  path: paths[0]!,
  reproduce: `curl http://t/CancelBooking?case=${caseId}`,
  findings: paths.map((p) => finding(p)),
  ...extra,
});
/** One defect hit by six cases (positions differing), as issue 22 saw it, and one other. */
const rows = (): ResultRow[] => [
  failed('gen-1-e5c569', ['/result/m[1]/c[1]/policy', '/result/m[1]/c[2]/policy']),
  failed('default', ['/result/m/c/policy']),
  failed('other-language', ['/result/m/c[1]/policy', '/result/m/c[2]/policy']),
  failed('gen-2-57b845', ['/result/m/c/policy']),
  failed('gen-3-3ffb40', ['/result/m[2]/c/policy']),
  failed('gen-4-5b7072', ['/result/m/c/policy']),
  failed('default', ['/result/other'], { binding: 'post', findings: [finding('/result/other', 'unknown_element')] }),
  { ...failed('default', ['/x']), status: 'passed' },
];

const report = (results: ResultRow[]): RunReport =>
  minimalReport(results, { bindings: ['get', 'post'], operations: ['CancelBooking'] });

describe('groupDefects', () => {
  test(
    'one defect per operation, binding, check, code and path (positions left out), hand-written cases '
      + 'first, one command',
    () => {
      const ds = groupDefects(rows());
      expect(ds).toHaveLength(2);
      const [d, other] = ds;
      expect(d).toMatchObject({
        operation: 'CancelBooking',
        binding: 'get',
        check: 'shape',
        code: 'missing_required_element',
        path: '/result/m/c/policy',
      });
      expect(d!.cases).toEqual([
        'default',
        'other-language',
        'gen-1-e5c569',
        'gen-2-57b845',
        'gen-3-3ffb40',
        'gen-4-5b7072',
      ]);
      expect(d!.occurrences).toBe(8);
      expect(d!.reproduceCase).toBe('default');
      expect(d!.reproduce).toBe('curl http://t/CancelBooking?case=default');
      expect(d!.example).toMatchObject({ path: '/result/m/c/policy', expected: 'an element', actual: 'none' });
      expect(other).toMatchObject({ binding: 'post', code: 'unknown_element', cases: ['default'] });
    },
  );
  test(
    'a row with two kinds of defect is in both; a row without findings is a defect of its own path and ' + 'message',
    () => {
      const two = failed('default', ['/a']);
      const both = { ...two, findings: [finding('/a'), finding('/b', 'unknown_element')] };
      expect(groupDefects([both]).map((d) => `${d.code} ${d.path}`)).toEqual([
        'missing_required_element /a',
        'unknown_element /b',
      ]);
      const bare = { ...two, check: 'http_exchange', findings: [], path: 'http', message: 'connection reset' };
      expect(groupDefects([bare])).toEqual([
        expect.objectContaining({
          check: 'http_exchange',
          code: '',
          path: 'http',
          example: { path: 'http', message: 'connection reset' },
        }),
      ]);
    },
  );
  test("only generated cases: the first one's command", () => {
    expect(groupDefects(rows().filter((r) => r.case.startsWith('gen-')))[0]!.reproduceCase).toBe('gen-1-e5c569');
  });
  test('another account reaching a booking comes first in every report, whatever came before it (issue 33)', async () => {
    const foreign = (code: 'foreign_booking_read' | 'foreign_booking_changed', binding: string): ResultRow =>
      failed('seq-foreign-account', ['/r'], {
        binding,
        check: 'sequence',
        findings: [{ check: 'sequence', code, path: '/r', message: `${code} through ${binding}` }],
      });
    const all = [...rows(), foreign('foreign_booking_read', 'post'), foreign('foreign_booking_changed', 'get')];
    expect(
      groupDefects(all)
        .map((d) => d.code)
        .slice(0, 3),
    ).toEqual(['foreign_booking_changed', 'foreign_booking_read', 'missing_required_element']);
    expect(formatDefects(all).split('\n')[0]).toBe('✗ CancelBooking [get] :: sequence/foreign_booking_changed at /r');
    const md = renderMarkdown(report(all));
    expect(md.indexOf('foreign_booking_changed')).toBeLessThan(md.indexOf('missing_required_element'));
    const html = renderHtml(report(all));
    expect(html.indexOf('foreign_booking_changed')).toBeLessThan(html.indexOf('missing_required_element'));
    const { githubAnnotations } = await import('./github.js');
    const { severityOf } = await import('../checks/registry.js');
    expect(
      githubAnnotations(report(all), severityOf)
        .filter((l) => l.startsWith('::error'))
        .slice(0, 2)
        .map((l) => /\/(\w+)::/.exec(l)?.[1]),
    ).toEqual(['foreign_booking_changed', 'foreign_booking_read']);
  });
  test('defectPath', () => {
    expect(defectPath('/a/meal[2]/id[1]')).toBe('/a/meal/id');
    expect(defectPath('http:status')).toBe('http:status');
  });
});

describe('the reports list each defect once, with its cases and one reproduce command (issue 22)', () => {
  test('console', () => {
    const text = formatDefects(rows());
    expect(text.match(/^✗ /gm)).toHaveLength(2);
    expect(text).toContain(
      '✗ CancelBooking [get] :: shape/missing_required_element at /result/m/c/policy\n'
        + '  6 cases: default, other-language, gen-1-e5c569, gen-2-57b845, gen-3-3ffb40, gen-4-5b7072 (8 findings)',
    );
    expect(text.match(/reproduce \(case default\):/g)).toHaveLength(2);
    expect(text.match(/curl /g)).toHaveLength(2);
  });
  test('conformance.md: one block and one command per defect', () => {
    const md = renderMarkdown(report(rows()));
    expect(md).toContain('### Failures: 2 defects (7 failed rows)');
    expect(md).toContain('#### CancelBooking · HTTP GET (1 defect, 6 failed rows)');
    // Per defect: the reproduce command and the re-run command (issue 26 item 2).
    expect(md.match(/```sh/g)).toHaveLength(4);
    expect(md.match(/Re-run just this \(case `[^`]+`\):/g)).toHaveLength(2);
    expect(md).toMatch(
      /6 cases: `default`, `other-language`, `gen-1-e5c569`, `gen-2-57b845`, `gen-3-3ffb40`, `gen-4-5b7072` \(8 findings\)/,
    );
    expect(md).toContain('Reproduce (case `default`):');
  });
  test('conformance.html: a defects section before the cells, one command per defect', () => {
    const page = renderHtml(report(rows()));
    const section = page.slice(
      page.indexOf('<section id="defects"'),
      page.indexOf('</section>', page.indexOf('<section id="defects"')),
    );
    expect(section).toContain('Defects (2, in 7 failed rows)');
    expect(section.match(/<article class="row failed defect">/g)).toHaveLength(2);
    expect(section.match(/<div class="repro">/g)).toHaveLength(2);
    expect(section).toContain('Reproduce (case default)');
    expect(page.indexOf('id="defects"')).toBeLessThan(page.indexOf('id="details"'));
  });
});
