/**
 * No report goes unguarded (issue 24): writeReports guards the target's values once and renders
 * every report from them, and still searches every rendered file, because a renderer can fold, cut
 * or join those values into a spelling none of them held. Real renderers, no mocks (the suite shares
 * modules between files): conformance.md folds a message's line breaks into one space and cuts it
 * at 300 characters with "…", which is where such a spelling is made here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/core/types.js';
import { fixtureReport } from '../../test/support/report.js';
import { writeReports } from '../../src/report/index.js';

const SECRET = 'Zq8 joined Secret';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function outDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'guard-'));
  dirs.push(d);
  return d;
}

/**
 * The fixture report with `message` as its first failed row's finding (conformance.md quotes it as its defect's
 * example).
 */
function withMessage(message: string): RunReport {
  const f = fixtureReport();
  const i = f.results.findIndex((r) => r.status === 'failed');
  return {
    ...f,
    results: f.results.map((x, k) =>
      k === i ? { ...x, findings: x.findings.map((y, j) => (j === 0 ? { ...y, message } : y)) } : x,
    ),
  };
}

function readAll(dir: string): Array<[string, string]> {
  const files: Array<[string, string]> = ['conformance.json', 'junit.xml', 'conformance.md', 'conformance.html'].map(
    (f) => [f, readFileSync(join(dir, f), 'utf8')],
  );
  for (const f of readdirSync(join(dir, 'allure-results')))
    files.push([`allure-results/${f}`, readFileSync(join(dir, 'allure-results', f), 'utf8')]);
  return files;
}

describe('every rendered file is searched, not only the values it is rendered from', () => {
  test(
    'a secret a renderer spells by folding a line break (in no value) is redacted in that file, and the '
      + 'warning names it',
    async () => {
      const dir = await outDir();
      const warnings: string[] = [];
      const message = 'echoed Zq8\njoined Secret back';
      await writeReports(withMessage(message), dir, [SECRET], (m) => warnings.push(m));
      const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
      expect(md).toContain('echoed *** back');
      expect(md).not.toContain(SECRET);
      expect(
        warnings.some((w) =>
          w.startsWith(`warning: ${join(dir, 'conformance.md')} would have contained secret #1 in 1 place`),
        ),
      ).toBe(true);
      // The value itself spells no secret: conformance.json keeps it, and no warning names that file.
      expect(
        (JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport).results.some((r) =>
          r.findings.some((y) => y.message === message),
        ),
      ).toBe(true);
      expect(warnings.some((w) => w.includes('conformance.json'))).toBe(false);
      expect(warnings.join('\n')).not.toContain('Zq8');
    },
  );

  test('the start of a secret a renderer leaves before its cut ("…") is redacted in that file', async () => {
    const dir = await outDir();
    const warnings: string[] = [];
    // conformance.md cuts at 300 characters: "Zq8 j" ends up right before the "…".
    await writeReports(withMessage(`${'x'.repeat(295)}Zq8 jXXXXXXXXXX`), dir, [SECRET], (m) => warnings.push(m));
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    expect(md).toContain(`${'x'.repeat(295)}***… (`);
    expect(warnings.some((w) => w.startsWith(`warning: ${join(dir, 'conformance.md')} would have contained`))).toBe(
      true,
    );
  });

  test(
    'a secret in a value is redacted once, in the tree every report is rendered from: no file spells it, '
      + 'one warning says so',
    async () => {
      const dir = await outDir();
      const warnings: string[] = [];
      const f = fixtureReport();
      const leaky: RunReport = {
        ...f,
        results: f.results.map((x, i) =>
          i === 0 ? { ...x, response: `HTTP/1.1 200 OK\n\n<p>${SECRET.replace(/ /g, '&#32;')}</p>` } : x,
        ),
      };
      await writeReports(leaky, dir, [SECRET], (m) => warnings.push(m));
      for (const [name, text] of readAll(dir)) {
        expect(text, name).not.toContain('Zq8');
        expect(text, name).not.toContain('joined');
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^warning: .*conformance\.json would have contained secret #1 in 1 place that the run's own redaction did not cover: redacted there as \*\*\* \(in every report/,
      );
    },
  );

  test('without a secret the reports are written as rendered, with no warning', async () => {
    const dir = await outDir();
    const warnings: string[] = [];
    await writeReports(withMessage('echoed Zq8\njoined Secret back'), dir, ['not-in-this-report'], (m) =>
      warnings.push(m),
    );
    expect(warnings).toEqual([]);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('echoed Zq8 joined Secret back');
  });
});
