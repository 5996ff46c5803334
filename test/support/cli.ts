/**
 * Helpers of the command tests: run `conformance <argv>` in-process with captured output, read the
 * reports it wrote, and the JUnit totals, to hold them against conformance.json.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../src/core/types.js';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Run the command line in-process; `env` replaces the environment (default: none of the CONFORMANCE_* variables). */
export async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, isTTY: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `conformance-${label}-`));
}

export function readReport(dir: string): RunReport {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport;
}

export interface JunitCounts {
  readonly tests: number;
  readonly failures: number;
  readonly skipped: number;
  /** Counted elements, not the attributes. */
  readonly testcases: number;
  readonly failureElements: number;
  readonly skippedElements: number;
}

/** The totals junit.xml states, and what its elements count. */
export function junitCounts(dir: string): JunitCounts {
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  const top = /<testsuites\b[^>]*>/.exec(xml)![0];
  const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(top)![1]);
  return {
    tests: attr('tests'),
    failures: attr('failures'),
    skipped: attr('skipped'),
    testcases: (xml.match(/<testcase\b/g) ?? []).length,
    failureElements: (xml.match(/<failure\b/g) ?? []).length,
    skippedElements: (xml.match(/<skipped\b/g) ?? []).length,
  };
}

/** The JUnit totals must be conformance.json's summary: a pipeline reading either sees the same verdict. */
export function junitAgrees(dir: string): { junit: JunitCounts; summary: RunReport['summary'] } {
  return { junit: junitCounts(dir), summary: readReport(dir).summary };
}

/** Flags that point a run at a mock URL with its default credentials, fast. */
export function mockTarget(url: string): string[] {
  return [
    '--book-url',
    url,
    '--search-url',
    url,
    '--user',
    'mock-user',
    '--password',
    'mock-password',
    '--allow-mutations',
    '--bookings',
    'examples/mock-bookings.json',
    '--max-rps',
    '100000',
    '--concurrency',
    '16',
    '--quiet',
  ];
}

/** A row's identity and verdict, without timing, URLs or excerpts. */
export function rowKey(r: RunReport['results'][number]): string {
  return JSON.stringify([
    r.operation,
    r.binding,
    r.case,
    r.check,
    r.status,
    r.path,
    r.findings.map((f) => [f.check, f.path]),
  ]);
}

/** The GetMeals answer that the doctored recording breaks: meal 2's id becomes "two" (not an xs:int). */
export const DOCTORED_FILE = 'GetMeals/default.get.xml';

/**
 * Record the embedded mock's answers for `operations` into a fresh directory, break one recorded
 * answer (HTTP GET, GetMeals, case default), and serve the recording with a replaying mock: a target
 * that fails exactly there. `generated`: the HTTP GET answers of GetMeals' generated examples are
 * broken too (a generated case never repeats the hand-written one's request, so it has answers of its own).
 */
export async function doctoredTarget(
  operations = 'GetMeals,GetThemes',
  generated = false,
): Promise<{ dir: string; url: string; close: () => Promise<void> }> {
  const dir = tempDir('recording');
  const rec = await cli(['record', '--operations', operations, '--out', dir, '--quiet']);
  if (rec.code !== 0) throw new Error(`record failed: ${rec.err}`);
  const more = generated
    ? readdirSync(join(dir, 'GetMeals'))
        .filter((f) => /^gen-\d+-\w+\.get\.xml$/.test(f))
        .map((f) => `GetMeals/${f}`)
    : [];
  if (generated && more.length === 0) throw new Error(`${dir}: no generated example of GetMeals recorded`);
  for (const file of [DOCTORED_FILE, ...more]) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes('<id>2</id>')) throw new Error(`${path} has no <id>2</id> to break`);
    writeFileSync(path, text.replace('<id>2</id>', '<id>two</id>'));
  }
  const { startMock } = await import('../../src/mock/index.js');
  const mock = await startMock({ replay: dir });
  return { dir, url: mock.url, close: () => mock.close() };
}
