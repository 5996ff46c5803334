/**
 * Issue 31 section 1: a failing run whose rows' re-run commands are pasted back. A mock on a URL
 * with two faults (GetMeals through HTTP GET lacks a required element; UpdateSpecialRequest through
 * HTTP GET stores a garbled text), a config file that defines a case of its own and names the
 * password's variable, the bookings from CONFORMANCE_BOOKINGS_FILE, generated cases: the run fails
 * on a plain case, a generated case, a sequence and the config's case, and the HTML report gives
 * each of those rows the command that re-runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import type { ResultRow, RunReport } from '../../src/core/types.js';
import { cli, readReport, tempDir } from './cli.js';
import { readTree } from './processes.js';

/** The variable the config file names for the password (target.passwordEnv): not CONFORMANCE_PASSWORD. */
export const PASSWORD_VAR = 'H31_MOCK_SECRET';
export const CONFIG_CASE = 'cfg-meals-de';
export const FAULTS = ['missing-required-element', 'get-utf8-as-latin1'];

/** The row kinds a re-run must reproduce, each picked from the run's failed rows. */
export const KINDS = {
  plain: (r: ResultRow) =>
    r.operation === 'GetMeals' && r.case === 'default' && r.binding === 'get' && r.check === 'xsd_valid',
  generated: (r: ResultRow) =>
    r.operation === 'GetMeals' && /^gen-\d+-/.test(r.case) && r.check === 'binding_equivalence',
  sequence: (r: ResultRow) =>
    r.operation === 'UpdateSpecialRequest' && r.case === 'seq-write-read' && r.check === 'sequence',
  config: (r: ResultRow) =>
    r.operation === 'GetMeals' && r.case === CONFIG_CASE && r.binding === 'get' && r.check === 'shape',
} as const;

export interface FailingRun {
  readonly mock: RunningMock;
  /** The run's report directory (the one a re-run must not touch). */
  readonly dir: string;
  readonly report: RunReport;
  /** Per kind: the row and the command its HTML report gives it. */
  readonly picked: Record<keyof typeof KINDS, { row: ResultRow; command: string }>;
  /** Every file of the report directory after the run, relative path → bytes. */
  readonly before: Map<string, string>;
  /** What the run printed on stdout. */
  readonly console: string;
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The re-run commands of conformance.html, in order. */
export function htmlCommands(dir: string): string[] {
  const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
  return [...html.matchAll(/<div class="repro rerun">.*?<code>(.*?)<\/code>/gs)].map((m) => unescapeHtml(m[1]!));
}

/** Every file under dir as relative path → content (base64). */
export function snapshot(dir: string): Map<string, string> {
  return new Map(readTree(dir).map((f) => [relative(dir, f.path), f.bytes.toString('base64')]));
}

/** Start the faulty mock, run it with a config file, and pick a row of each kind with its command. */
export async function failingRun(): Promise<FailingRun> {
  const mock = await startMock({ port: 0, faults: FAULTS });
  const cfgDir = tempDir('rerun-config');
  const config = join(cfgDir, 'target.json');
  writeFileSync(
    config,
    JSON.stringify({
      target: { bookUrl: mock.url, searchUrl: mock.url, user: 'mock-user', passwordEnv: PASSWORD_VAR },
      cases: { GetMeals: [{ id: CONFIG_CASE, params: { language: 'de' } }] },
    }),
  );
  const dir = tempDir('rerun-orig');
  const r = await cli(
    [
      'run',
      '--config',
      config,
      '--allow-mutations',
      '--operations',
      'GetMeals,UpdateSpecialRequest,GetSpecialRequest',
      '--examples',
      '1',
      '--bindings',
      'soap11,get',
      '--max-rps',
      '100000',
      '--concurrency',
      '16',
      '--report-dir',
      dir,
    ],
    { [PASSWORD_VAR]: 'mock-password', CONFORMANCE_BOOKINGS_FILE: 'examples/mock-bookings.json' },
  );
  if (r.code !== 1) throw new Error(`the failing run exited ${r.code}: ${r.err}`);
  const report = readReport(dir);
  const commands = htmlCommands(dir);
  const picked = Object.fromEntries(
    Object.entries(KINDS).map(([kind, pick]) => {
      const row = report.results.find((x) => x.status === 'failed' && pick(x));
      if (!row) throw new Error(`no failed ${kind} row in ${dir}`);
      const bindings =
        row.check === 'binding_equivalence' || row.check === 'sequence' ? report.bindings.join(',') : row.binding;
      const command = commands.find(
        (c) =>
          c.includes(` --operations ${row.operation} `)
          && c.includes(` --case ${row.case} `)
          && c.includes(` --bindings ${bindings} `),
      );
      if (!command)
        throw new Error(
          `conformance.html gives the ${kind} row ${row.operation} ${row.binding} ${row.case} no re-run command`,
        );
      return [kind, { row, command }];
    }),
  ) as FailingRun['picked'];
  return { mock, dir, report, picked, before: snapshot(dir), console: r.out };
}

/** A row's identity and verdict: what a re-run must give back. */
export function identity(r: ResultRow): string {
  return JSON.stringify([
    r.operation,
    r.binding,
    r.case,
    r.check,
    r.status,
    r.findings.map((f) => [f.check, f.code, f.path]),
  ]);
}

/** The --report-dir a command names. */
export function reportDirOf(command: string): string {
  const m = / --report-dir (\S+)$/.exec(command);
  if (!m) throw new Error(`no --report-dir at the end of ${command}`);
  return m[1]!.replace(/^'(.*)'$/, '$1');
}
