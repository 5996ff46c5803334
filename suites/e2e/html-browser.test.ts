/**
 * conformance.html in a real browser (Debian's chromium through playwright-core, never a
 * downloaded one): the matrix renders, a failing cell expands to its findings, hostile response
 * text stays inert, and the page fetches nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeReports } from '../../src/report/index.js';
import { FAILED_MESSAGE, fixtureReport } from '../../test/support/report.js';
import { launchChromium } from '../../test/support/browser.js';

const SCREENSHOT = '/tmp/conformance-html.png';

let browser: Browser;
let dir: string;
let url: string;

beforeAll(async () => {
  browser = await launchChromium();
  dir = await mkdtemp(join(tmpdir(), 'conformance-html-'));
  const paths = await writeReports(fixtureReport(), dir);
  url = pathToFileURL(paths.html).href;
});

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Open the report, recording every request and dialog the page makes. */
async function open(
  javaScriptEnabled = true,
): Promise<{ page: Page; requests: string[]; dialogs: string[]; errors: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, dialogs, errors };
}

const failingCell = (page: Page) => page.locator('tr[data-operation="GetMeals"] td[data-column="soap12"]');

describe('conformance.html in chromium', () => {
  test('renders the operations × bindings matrix grouped by service group', async () => {
    const { page, errors } = await open();
    const headers = await page.locator('#matrix thead th').allInnerTexts();
    expect(headers).toEqual(['Operation', 'SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST', 'Equivalence']);
    const ops = await page.locator('#matrix tbody tr[data-operation] th[scope=row]').allInnerTexts();
    expect(ops).toEqual(['CancelBooking', 'GetMeals', 'GetLanguages', 'SearchTransfers']);
    expect(await page.locator('#matrix th.grp').allInnerTexts()).toEqual(['BOOKING', 'REFERENCE DATA', 'TRANSFERS']);
    expect(await page.locator('#verdict').innerText()).toBe('FAIL');
    expect(await failingCell(page).getAttribute('data-state')).toBe('failed');
    expect(await failingCell(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(253, 236, 234)');
    expect(
      await page.locator('tr[data-operation="GetMeals"] td[data-column="equivalence"]').getAttribute('data-state'),
    ).toBe('failed');
    expect(await page.locator('tr[data-operation="GetMeals"] td[data-column="get"]').getAttribute('data-state')).toBe(
      'known',
    );
    expect(
      await page.locator('tr[data-operation="CancelBooking"] td[data-column="post"]').getAttribute('data-state'),
    ).toBe('skipped');
    expect(errors).toEqual([]);
  });

  test(
    'clicking a failing cell reveals its findings and reproduce command; nothing hostile runs, nothing is ' + 'fetched',
    async () => {
      const { page, requests, dialogs, errors } = await open();
      const message = page.getByText(FAILED_MESSAGE, { exact: true }).first();
      const detail = page.locator('details.cell-detail[data-operation="GetMeals"][data-column="soap12"]');
      const reproduce = detail.locator('.repro code').first();
      await expect.poll(() => message.isVisible()).toBe(false);
      await expect.poll(() => reproduce.isVisible()).toBe(false);

      await failingCell(page).locator('a').click();
      expect(await detail.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      expect(await message.isVisible()).toBe(true);
      expect(await reproduce.isVisible()).toBe(true);
      expect(await reproduce.innerText()).toContain(
        "curl -sS -i -X POST 'http://127.0.0.1:8080/1/SOAP/NonStaticXMLAPI.asmx'",
      );
      expect(await detail.locator('button[data-action="copy"]').first().isVisible()).toBe(true);
      // The hostile response is shown as text, not parsed as markup.
      expect(await detail.locator('pre').filter({ hasText: '<script>alert("xss")</script>' }).count()).toBeGreaterThan(
        0,
      );
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(await failingCell(page).getAttribute('class')).toContain('selected');

      // A second click folds it away again.
      await failingCell(page).locator('a').click();
      expect(await message.isVisible()).toBe(false);

      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      await failingCell(page).locator('a').click();
      await page.screenshot({ path: SCREENSHOT.replace('.png', '-open.png'), fullPage: false });

      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    },
  );

  test('the copy button copies the reproduce command', async () => {
    const { page } = await open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await failingCell(page).locator('a').click();
    const detail = page.locator('details.cell-detail[data-operation="GetMeals"][data-column="soap12"]');
    await detail.locator('button[data-action="copy"]').first().click();
    await expect.poll(() => detail.locator('button[data-action="copy"]').first().innerText()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('<<EOF\n<Envelope>...</Envelope>\nEOF');
  });

  test('works without JavaScript: the cell link opens its details', async () => {
    const { page, requests, dialogs } = await open(false);
    const detail = page.locator('details.cell-detail[data-operation="GetMeals"][data-column="soap12"]');
    expect(await detail.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await failingCell(page).locator('a').click();
    await expect.poll(() => detail.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await page.getByText(FAILED_MESSAGE, { exact: true }).first().isVisible()).toBe(true);
    // JS-only controls stay hidden.
    expect(await page.locator('.toolbar').isVisible()).toBe(false);
    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
  });
});
