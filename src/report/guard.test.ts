/**
 * No report goes unguarded (issue 24): writeReports guards the target's values once and renders
 * every report from them, and still searches every rendered file, because a renderer can join two
 * of those values, or cut or reformat one, into a spelling neither held. The renderers are wrapped
 * here to do exactly that: each puts the first row's message and path side by side (the secret
 * split in two), which only the search of the rendered file can find.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import type { RunReport } from '../core/types.js';
import { fixtureReport } from '../../test/support/report.js';

const SECRET = 'Zq8-joined-Secret';
const HEAD = 'Zq8-joi';
const TAIL = 'ned-Secret';

const joined = vi.hoisted(() => ({ on: false }));
/** The first row's message and path joined: the secret when the row holds its two halves. */
const join2 = (r: RunReport) => `${r.results[0]!.message}${r.results[0]!.path}`;

vi.mock('./html.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./html.js')>();
  return { ...m, renderHtml: (r: RunReport) => m.renderHtml(r) + (joined.on ? `<p>${join2(r)}</p>\n` : '') };
});
vi.mock('./junit.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./junit.js')>();
  return { ...m, renderJunit: (r: RunReport) => m.renderJunit(r) + (joined.on ? `<!-- ${join2(r)} -->\n` : '') };
});
vi.mock('./markdown.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./markdown.js')>();
  return { ...m, renderMarkdown: (r: RunReport) => m.renderMarkdown(r) + (joined.on ? `\n${join2(r)}\n` : '') };
});
vi.mock('./allure.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./allure.js')>();
  return {
    ...m,
    renderAllure: (r: RunReport) => {
      const w = m.renderAllure(r);
      if (joined.on) w.writeAttachment('joined-attachment.txt', Buffer.from(join2(r), 'utf8'));
      return w;
    },
  };
});

const { writeReports } = await import('./index.js');

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The fixture report with the secret's two halves in the first row's message and path. */
function split(): RunReport {
  const f = fixtureReport();
  return { ...f, results: f.results.map((x, i) => (i === 0 ? { ...x, message: `before ${HEAD}`, path: `${TAIL} after` } : x)) };
}

function readAll(dir: string): Array<[string, string]> {
  const files: Array<[string, string]> = ['conformance.json', 'junit.xml', 'conformance.md', 'conformance.html'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
  for (const f of readdirSync(join(dir, 'allure-results'))) files.push([`allure-results/${f}`, readFileSync(join(dir, 'allure-results', f), 'utf8')]);
  return files;
}

describe('every rendered file is searched, not only the values it is rendered from', () => {
  test('a secret that only a renderer spells (two values joined) is redacted in that file, and the warning names it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-'));
    dirs.push(dir);
    const warnings: string[] = [];
    joined.on = true;
    try {
      await writeReports(split(), dir, [SECRET], (m) => warnings.push(m));
    } finally {
      joined.on = false;
    }
    const files = readAll(dir);
    // The join is there, redacted, in every file a renderer joined it in.
    for (const [name, text] of files) expect(text, name).not.toContain(SECRET);
    for (const name of ['junit.xml', 'conformance.md', 'conformance.html', 'allure-results/joined-attachment.txt']) {
      const text = files.find(([n]) => n === name)![1];
      expect(text, name).toMatch(/before Zq8-joi\*\*\*|\*\*\* after|before \*\*\*/);
      expect(warnings.some((w) => w.startsWith(`warning: ${name.startsWith('allure') ? name : join(dir, name)} would have contained secret #1`)), name).toBe(true);
    }
    // Neither half alone is the secret: the values themselves, and so conformance.json, are left as they are.
    const json = JSON.parse(files.find(([n]) => n === 'conformance.json')![1]) as RunReport;
    expect(json.results[0]!.message).toBe(`before ${HEAD}`);
    expect(warnings.some((w) => w.includes('conformance.json'))).toBe(false);
    expect(warnings.join('\n')).not.toContain(SECRET);
  });

  test('a secret in a value is redacted once, in the tree every report is rendered from: no file spells it, one warning says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const f = fixtureReport();
    const leaky: RunReport = { ...f, results: f.results.map((x, i) => (i === 0 ? { ...x, response: `HTTP/1.1 200 OK\n\n<p>${SECRET.replace(/-/g, '&#45;')}</p>` } : x)) };
    await writeReports(leaky, dir, [SECRET], (m) => warnings.push(m));
    for (const [name, text] of readAll(dir)) {
      expect(text, name).not.toContain('Zq8');
      expect(text, name).not.toContain('Secret');
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: .*conformance\.json would have contained secret #1 in 1 place that the run's own redaction did not cover: redacted there as \*\*\* \(in every report/);
  });

  test('without a secret the renderers\' output is written as it is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guard-'));
    dirs.push(dir);
    const warnings: string[] = [];
    await writeReports(split(), dir, ['not-in-this-report'], (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).not.toContain('***');
  });
});
