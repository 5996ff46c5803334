import { describe, expect, test } from 'vitest';
import type { ResultRow, RunReport } from '../core/types.js';
import { githubAnnotations } from './github.js';
import { severityOf } from '../checks/registry.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { transientLines } from './transient.js';
import { validateReport } from '../schema/json.js';
import { summarise } from '../engine/run.js';

const base: ResultRow = {
  operation: 'GetMeals',
  group: 'reference',
  binding: 'soap11',
  case: 'default',
  check: 'http_exchange',
  status: 'passed',
  message: '',
  path: '',
  reproduce: 'curl x',
  findings: [],
};
const flaky: ResultRow = {
  ...base,
  status: 'skipped',
  message: 'FLAKY: failed, then passed when sent again (attempt 2 of 2): x',
  flaky: {
    attempts: [
      { attempt: 1, status: 'failed', message: 'soap11 http_exchange: a transient answer' },
      { attempt: 2, status: 'passed', message: 'no check failed' },
    ],
  },
};
const results = [base, flaky];
const report: RunReport = {
  tool: { name: 'accommodation-conformance', version: '0.1.0' },
  target: {
    bookUrl: 'http://127.0.0.1:1',
    searchUrl: 'http://127.0.0.1:1',
    transfersUrl: 'http://127.0.0.1:1',
    namespaces: { book: 'http://b/', search: 'http://s/' },
    user: 'u',
    password: '',
    embedded: false,
  },
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  bindings: ['soap11'],
  operations: ['GetMeals'],
  summary: summarise(results),
  results,
  transient: {
    exchanges: 40,
    answers: 3,
    retries: 2,
    ambiguous: 1,
    maxPercent: 20,
    unhealthy: false,
    cells: [{ operation: 'GetMeals', binding: 'soap11', exchanges: 40, answers: 3, retries: 2, ambiguous: 1 }],
  },
};

describe('transient answers and FLAKY rows in the reports', () => {
  test('conformance.json: valid against the schema, summary.flaky counted apart', () => {
    expect(report.summary).toMatchObject({ flaky: 1, skipped: 1, failed: 0 });
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  test('the console: totals, per operation × binding, the flaky rows with their attempts', () => {
    expect(transientLines(report)).toEqual([
      'Transient: 3 transient answers (7.5% of 40 exchanges; unhealthy above 20%), 2 retries, 1 write '
        + 'ambiguous (not re-sent)',
      '  GetMeals [soap11]: 3 transient answers of 40 exchanges, 2 retries, 1 write ambiguous',
      'Flaky: 1 failure did not reproduce when the case was sent again (warnings: they do not fail the run):',
      '  GetMeals [soap11] default :: http_exchange: attempt 1 failed, attempt 2 passed',
    ]);
    expect(transientLines({ results: [base] })).toEqual([]);
  });

  test("GitHub: a ::warning per flaky row, no ::error (after the verdict's notice)", () => {
    const lines = githubAnnotations(report, severityOf);
    expect(lines.filter((l) => l.startsWith('::error'))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('::warning'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      /^::warning title=FLAKY GetMeals \[soap11\] http_exchange::case default: attempt 1 failed, attempt 2 passed \(does not fail the run\)/,
    );
  });

  test('the HTML: the cell detail and a section say it', () => {
    const html = renderHtml(report);
    expect(html).toContain(
      '<p class="note transient">Transient: 3 transient answers of 40 exchanges, 2 retries, 1 write ambiguous</p>',
    );
    expect(html).toContain(
      '<p class="note flaky">FLAKY: default :: http_exchange: attempt 1 failed, attempt 2 passed</p>',
    );
    expect(html).toMatch(/<section class="transient" id="transient">[\s\S]*Transient: 3 transient answers/);
  });

  test('the Markdown summary: the totals and the flaky rows', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(
      'Transient: 3 transient answers (7.5% of 40 exchanges; unhealthy above 20%), 2 retries, 1 write '
        + 'ambiguous (not re-sent)',
    );
    expect(md).toContain('- GetMeals \\[soap11\\] default :: http\\_exchange: attempt 1 failed, attempt 2 passed');
  });
});
