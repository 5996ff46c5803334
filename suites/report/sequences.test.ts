/** Sequence rows and booking pools in every report: numbered steps, the whole script, what the run consumed. */
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ResultRow, RunReport } from '../../src/core/types.js';
import { renderHtml, renderJunit, renderMarkdown, validateReport, writeReports } from '../../src/report/index.js';
import { fixtureReport } from '../../test/support/report.js';
import { formatDefects } from '../../src/report/console.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const STEPS = [
  {
    n: 1,
    operation: 'UpdateSpecialRequest',
    binding: 'post',
    booking: '300011',
    text: 'Crib & <pillows> "now" 😀',
    outcome: 'accepted',
  },
  { n: 2, operation: 'GetSpecialRequest', binding: 'soap11', booking: '300011', outcome: 'read "Late arrival"' },
  { n: 3, operation: 'GetSpecialRequest', binding: 'get', booking: '300011', outcome: 'read "Late arrival"' },
];
const SCRIPT =
  '# 1. UpdateSpecialRequest post (booking 300011)\ncurl -sS -i -X POST '
  + 'http://mock.test/1/SOAP/Booking.asmx/UpdateSpecialRequest\n# 2. GetSpecialRequest soap11 (booking '
  + '300011)\ncurl -sS -i http://mock.test/a\n# 3. GetSpecialRequest get (booking 300011)\ncurl -sS -i '
  + 'http://mock.test/b';

function withSequence(): RunReport {
  const base = fixtureReport();
  const row: ResultRow = {
    operation: 'UpdateSpecialRequest',
    group: 'booking',
    binding: 'post',
    case: 'seq-write-read',
    check: 'sequence',
    status: 'failed',
    message:
      'UpdateSpecialRequest post → GetSpecialRequest soap11, get: booking 300011 (first write) does not '
      + 'read back the text written',
    path: '/getSpecialRequestResult/text',
    reproduce: SCRIPT,
    steps: STEPS,
    findings: [
      {
        check: 'sequence',
        code: 'write_not_read_back',
        path: '/getSpecialRequestResult/text',
        message: 'UpdateSpecialRequest post → GetSpecialRequest soap11, get: not read back',
        expected: 'Crib',
        actual: 'Late arrival',
      },
    ],
  };
  const results = [...base.results, row];
  return {
    ...base,
    results,
    summary: { ...base.summary, failed: base.summary.failed + 1, total: base.summary.total + 1 },
    bookings: {
      changed: [
        {
          pool: 'specialRequest',
          id: '300011',
          operation: 'UpdateSpecialRequest',
          binding: 'post',
          case: 'seq-write-read',
          step: 1,
          outcome: 'accepted',
        },
        {
          pool: 'cancel',
          id: 'BK-1',
          operation: 'CancelBooking',
          binding: 'soap11',
          case: 'default',
          outcome: 'rejected (in-band Error X.BookingAlreadyCancelledException)',
        },
      ],
      short: { transfers: 3 },
    },
  };
}

describe('a failed sequence row and the bookings, in every report', () => {
  const report = withSequence();
  test('conformance.json holds the steps and the bookings, valid against the schema', () => {
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });
  test('JUnit: the steps, numbered, then the script', () => {
    const xml = renderJunit(report);
    expect(xml).toContain(
      'steps:\n  1. UpdateSpecialRequest post · booking 300011 · wrote "Crib &amp; &lt;pillows&gt; '
        + '\\"now\\" 😀" → accepted',
    );
    expect(xml).toContain('  3. GetSpecialRequest get · booking 300011 → read "Late arrival"');
    expect(xml).toContain('reproduce:\n# 1. UpdateSpecialRequest post (booking 300011)');
  });
  test('Markdown: numbered steps, the bookings changed and the calls a pool could not serve', () => {
    const md = renderMarkdown(report);
    expect(md).toMatch(
      /\n {2}1\. UpdateSpecialRequest post · booking 300011 · wrote .*→ accepted\n {2}2\. GetSpecialRequest soap11/,
    );
    expect(md).toContain(
      'Bookings changed: specialRequest 1 (1 calls accepted), cancel 1 (0 calls accepted, 1 not); calls '
        + 'not sent for want of a booking: transfers 3',
    );
    expect(md).toContain('# 3. GetSpecialRequest get (booking 300011)');
  });
  test('console: the defect block lists the numbered steps before the script', () => {
    const text = formatDefects(report.results);
    expect(text).toMatch(
      /steps:\n {4}1\. UpdateSpecialRequest post · booking 300011 · wrote "Crib & <pillows> \\"now\\" 😀" → accepted\n {4}2\. GetSpecialRequest soap11 · booking 300011 → read "Late arrival"\n {4}3\. GetSpecialRequest get/,
    );
    const block = text.split('\n\n').find((b) => b.includes('steps:'))!;
    expect(block).toMatch(/^✗ UpdateSpecialRequest \[post\] :: sequence/);
    expect(block.indexOf('steps:')).toBeLessThan(block.indexOf('reproduce'));
    // A row without steps prints none.
    expect(formatDefects(report.results.filter((r) => r.check !== 'sequence'))).not.toContain('steps:');
  });
  test('HTML: the sequence as numbered steps, the whole script, the bookings table', () => {
    const html = renderHtml(report);
    expect(html).toMatch(
      /<ol class="steps"><li value="1">UpdateSpecialRequest post · booking 300011 · wrote &quot;Crib &amp; &lt;pillows&gt;.*?<\/li><li value="2">GetSpecialRequest soap11/,
    );
    expect(html).toContain('Reproduce the whole sequence');
    expect(html).toContain('<td><code>BK-1</code></td><td>CancelBooking</td>');
  });
  test('Allure: the calls are numbered sub-steps of the sequence check, under its case step', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seq-reports-'));
    dirs.push(dir);
    const paths = await writeReports(report, dir);
    const files = (await readdir(paths.allureResults)).filter((f) => f.endsWith('-result.json'));
    type Step = { name: string; status?: string; steps: Step[]; attachments: { name: string }[] };
    const results = await Promise.all(
      files.map(
        async (f) =>
          JSON.parse(await readFile(join(paths.allureResults, f), 'utf8')) as {
            name: string;
            status: string;
            steps: Step[];
          },
      ),
    );
    const cell = results.find((r) => r.name === 'UpdateSpecialRequest [post]')!;
    expect(cell.status).toBe('failed');
    const caseStep = cell.steps.find((s) => s.name === 'seq-write-read')!;
    expect(caseStep.status).toBe('failed');
    const check = caseStep.steps.find((s) => s.name === 'sequence')!;
    expect(check.status).toBe('failed');
    expect(check.steps.map((s) => s.name)).toEqual([
      '1. UpdateSpecialRequest post · booking 300011 · wrote "Crib & <pillows> \\"now\\" 😀" → accepted',
      '2. GetSpecialRequest soap11 · booking 300011 → read "Late arrival"',
      '3. GetSpecialRequest get · booking 300011 → read "Late arrival"',
    ]);
  });
});
