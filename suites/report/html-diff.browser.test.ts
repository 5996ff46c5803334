/**
 * conformance.html shows what differs between bindings (issue 26, item 1), in a real browser
 * (Debian's chromium through playwright-core): a run against the mock with `soap12-drops-list-item`,
 * then GetMeals → Equivalence shows the canonical diff naming the missing meal by its content, the
 * SOAP 1.2 cell of the matrix is marked as the binding that departs, and the excerpts are
 * pretty-printed with the raw text one click away.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { cli, mockTarget, readReport, tempDir } from '../../test/support/cli.js';
import { launchChromium } from '../../test/support/browser.js';

let browser: Browser;
let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  mock = await startMock({ port: 0, faults: ['soap12-drops-list-item'] });
  dir = tempDir('html-diff');
  const run = await cli([
    'run',
    ...mockTarget(mock.url),
    '--operations',
    'GetMeals',
    '--examples',
    '0',
    '--no-negative',
    '--report-dir',
    dir,
  ]);
  expect(run.code, run.err).toBe(1);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('conformance.html: what differs between bindings', () => {
  test('the diff names the missing meal, the SOAP 1.2 cell is marked, the excerpts are pretty-printed', async () => {
    // The meal the fault drops, by its content, from the report itself (the mock's data may change).
    const row = readReport(dir).results.find(
      (r) => r.check === 'binding_equivalence' && r.status === 'failed' && r.case === 'default',
    )!;
    expect(row.binding).toBe('soap12');
    const missing = /soap11=<(meal id=\d+ name="[^"]+")>/.exec(row.message)?.[1];
    expect(missing, row.message).toBeDefined();
    const [, id, name] = /id=(\d+) name="([^"]+)"/.exec(missing!)!;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(dir, 'conformance.html')).href, { waitUntil: 'load' });

    // 2. The departing binding's cell is marked in the matrix; the others are not.
    const cell = (col: string) => page.locator(`tr[data-operation="GetMeals"] td[data-column="${col}"]`);
    expect(await cell('soap12').getAttribute('data-departs')).not.toBeNull();
    expect(await cell('soap12').locator('.departs').isVisible()).toBe(true);
    expect(await cell('soap12').locator('.departs').getAttribute('title')).toMatch(/departs from the other bindings/);
    for (const col of ['soap11', 'get', 'post']) expect(await cell(col).getAttribute('data-departs')).toBeNull();

    // 1. GetMeals → Equivalence: a diff of the canonical forms, the missing meal as removed lines.
    await cell('equivalence').locator('a').click();
    const detail = page.locator('details.cell-detail[data-operation="GetMeals"][data-column="equivalence"]');
    const diff = detail.locator('pre.diff').first();
    expect(await diff.isVisible()).toBe(true);
    const removed = await diff.locator('span.del').allInnerTexts();
    expect(removed.map((l) => l.trim())).toEqual(
      expect.arrayContaining(['-    meal'.trim(), `-      id = ${id}`.trim(), `-      name = "${name}"`.trim()]),
    );
    expect(await diff.locator('span.add').count()).toBe(0);
    expect(await diff.locator('span.file').allInnerTexts()).toEqual(['--- soap11, get, post (majority)', '+++ soap12']);
    // The message names the meal by its content, not by <element>.
    expect(await detail.getByText(`soap11=<${missing}>`).first().isVisible()).toBe(true);
    expect(await detail.innerText()).not.toContain('"<element>"');

    // 3. Excerpts pretty-printed (one element a line, indented), the raw bytes one click away.
    expect(await detail.locator('pre.pretty').first().innerText()).toMatch(/\n {2}<soap:Body>\n {4}<GetMeals /);
    const pretty = detail.locator('pre.pretty').filter({ hasText: 'getMealsResult' }).first();
    expect(await pretty.isVisible()).toBe(true);
    const prettyText = await pretty.innerText();
    expect(prettyText).toMatch(/\n {2,}<meal>\n/);
    expect(prettyText.split('\n').length).toBeGreaterThan(20);
    const raw = detail.locator('details.raw').filter({ hasText: 'getMealsResult' }).first();
    expect(await raw.locator('pre.raw').isVisible()).toBe(false);
    await raw.locator('summary').click();
    expect(await raw.locator('pre.raw').isVisible()).toBe(true);
    expect(await raw.locator('pre.raw').innerText()).toMatch(/<meals><meal>/);

    expect(errors).toEqual([]);
    await context.close();
    // The same report's HTML as written: the diff is in the file, not made by the page's script.
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain('class="diff"');
  });
});
