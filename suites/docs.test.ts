/**
 * The documentation stays true to the command line: every `npx conformance …` example in the README,
 * in docs/ and in examples/ names a command and flags the CLI accepts, every command and run flag is
 * documented, the tables of docs/ are the code's lists, and the example files are valid inputs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CHECK_NAMES, CHECKS, ROW_SEVERITY } from '../src/checks/registry.js';
import { LEAST_SEVERE } from '../src/checks/types.js';
import { DEFECT_CODES } from '../src/core/defect-codes.js';
import { DRIFT_CHECK, EQUIVALENCE_CHECK, EXCHANGE_CHECK, LATENCY_CHECK, NOT_RUN_CHECK } from '../src/core/rows.js';
import { EXPECTATIONS_CHECK } from '../src/engine/expectations.js';
import { DRIFT_OPTIONS } from '../src/cli/drift.js';
import { EXIT_UNREACHABLE } from '../src/cli/run.js';
import { EXIT_POOL_EXHAUSTED } from '../src/engine/bookings.js';
import { EXIT_FAIL, EXIT_INCOMPLETE, EXIT_SIGTERM, EXIT_UNTESTED } from '../src/core/verdict.js';
import { readExpectations } from '../src/engine/expectations.js';
import { COMPARE_OPTIONS } from '../src/cli/compare.js';
import { parseFlags, resolveRunSettings, RUN_OPTIONS } from '../src/cli/config.js';
import { DIFF_OPTIONS } from '../src/cli/diff.js';
import { COMMANDS } from '../src/cli/main.js';
import { MERGE_OPTIONS } from '../src/cli/merge.js';
import { RECORD_OPTIONS } from '../src/cli/record.js';
import { VALIDATE_OPTIONS } from '../src/cli/validate.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const DOCS_DIR = new URL('../docs/', import.meta.url);
/** The pages of docs/, by file name. */
const DOCS: Record<string, string> = Object.fromEntries(
  readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => [f, readFileSync(new URL(f, DOCS_DIR), 'utf8')]),
);
const doc = (name: string): string => {
  const text = DOCS[name];
  if (text === undefined) throw new Error(`docs/${name} is missing`);
  return text;
};
/** The text of a page from one marker up to the next (or the end). */
function between(text: string, from: string, to?: string): string {
  const i = text.indexOf(from);
  expect(i, `marker ${from}`).toBeGreaterThanOrEqual(0);
  const j = to === undefined ? text.length : text.indexOf(to, i);
  expect(j, `marker ${to}`).toBeGreaterThan(i);
  return text.slice(i, j);
}
const WORKFLOW = readFileSync(new URL('../examples/github-actions.yml', import.meta.url), 'utf8');
const GITLAB = readFileSync(new URL('../examples/gitlab-ci.yml', import.meta.url), 'utf8');

const OPTIONS: Record<string, [NonNullable<Parameters<typeof parseFlags>[1]>, boolean]> = {
  run: [RUN_OPTIONS, false],
  diff: [DIFF_OPTIONS, true],
  compare: [COMPARE_OPTIONS, false],
  record: [RECORD_OPTIONS, false],
  validate: [VALIDATE_OPTIONS, true],
  merge: [MERGE_OPTIONS, true],
  drift: [DRIFT_OPTIONS, false],
};

/**
 * The `npx conformance` (or `npx accommodation-conformance`) command lines of a text: continuations joined, comments
 * and env assignments dropped.
 */
function commandLines(text: string): string[][] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  const out: string[][] = [];
  for (const line of joined.split('\n')) {
    const m = /npx (?:accommodation-)?conformance (?=[a-z])/.exec(line);
    if (!m) continue;
    const cmd = line
      .slice(m.index + m[0].length)
      .replace(/\s+#.*$/, '')
      .replace(/`.*$/, '')
      .replace(/\$\{\{[^}]*\}\}/g, '1/2');
    out.push(cmd.trim().split(/\s+/));
  }
  return out;
}

describe('documented command lines', () => {
  const lines = [
    ...commandLines(README),
    ...Object.values(DOCS).flatMap(commandLines),
    ...commandLines(WORKFLOW),
    ...commandLines(GITLAB),
  ];
  test('there are examples of every command but mock and help', () => {
    const used = new Set(lines.map((l) => l[0]));
    for (const c of COMMANDS.filter((x) => x !== 'mock' && x !== 'help')) expect(used, c).toContain(c);
  });
  test.for(lines.map((l) => [l.join(' ')]))('%s', ([line]) => {
    const [cmd, ...argv] = line!.split(' ');
    const spec = OPTIONS[cmd!];
    expect(spec, `unknown command ${cmd}`).toBeDefined();
    expect(() => parseFlags(argv, spec![0], spec![1])).not.toThrow();
  });
});

describe('README and docs/', () => {
  test('the README fits on a few screens and maps every page of docs/', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
    const linked = new Set([...README.matchAll(/\]\(docs\/([a-z-]+\.md)[)#]/g)].map((m) => m[1]));
    expect([...linked].sort()).toEqual(Object.keys(DOCS));
  });
  test('the README starts with the install command, the tests and the main job', () => {
    const first = README.slice(0, README.indexOf('```', README.indexOf('```sh') + 3));
    expect(first).toContain('npm ci');
    expect(first).toContain('npm test');
    expect(first).toContain('npx conformance run');
  });
  test('every relative link of the README and docs/ names a file that exists', () => {
    const pages: [URL, string][] = [
      [new URL('../README.md', import.meta.url), README],
      ...Object.entries(DOCS).map(([f, text]): [URL, string] => [new URL(f, DOCS_DIR), text]),
    ];
    for (const [at, text] of pages) {
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1]!)) continue;
        expect(existsSync(new URL(m[1]!, at)), `${at.pathname}: ${m[1]}`).toBe(true);
      }
    }
  });
  test('documents every run flag in the options table', () => {
    const table = between(doc('cli.md'), '## `conformance run` options', '## Config file');
    for (const flag of Object.keys(RUN_OPTIONS).filter((f) => f !== 'help')) expect(table, flag).toContain(`--${flag}`);
  });
  test('every flag of the options table is one the command line takes', () => {
    const table = between(doc('cli.md'), '## `conformance run` options', '## Config file');
    const flags = [...table.matchAll(/`--([a-z0-9-]+)/g)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThan(30);
    for (const f of flags) expect(Object.keys(RUN_OPTIONS), `--${f}`).toContain(f);
  });
  test('the checks table is the registry, in its order; the other rows are named apart', () => {
    const section = between(doc('checks.md'), '# Checks', 'Places the contract marks');
    const [checks, others] = section.split('Other rows of the reports');
    const names = (t: string) => [...t!.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(names(checks!)).toEqual([...CHECK_NAMES]);
    expect(names(others!)).toEqual([
      EXCHANGE_CHECK,
      EQUIVALENCE_CHECK,
      EXPECTATIONS_CHECK,
      DRIFT_CHECK,
      NOT_RUN_CHECK,
      LATENCY_CHECK,
    ]);
  });
  test('the table of the registry says where each check applies and its severity, as the checks declare them', () => {
    const table = between(doc('checks.md'), '## The registry of checks', '### Adding a check');
    const rows = [...table.matchAll(/^\| `([a-z_]+)` \| (.*) \| (\d+|last) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows.map(([name]) => name)).toEqual([...CHECK_NAMES]);
    for (const [name, places, severity] of rows) {
      const c = CHECKS.find((x) => x.name === name)!;
      expect(places!.replace(/ \(.*\)$/, ''), name).toBe(c.places.map((p) => `\`${p}\``).join(', '));
      expect(/\(/.test(places!), `${name}: operations named`).toBe(c.operations !== undefined);
      expect(severity, name).toBe(c.severity === LEAST_SEVERE ? 'last' : String(c.severity));
    }
    for (const [row, severity] of Object.entries(ROW_SEVERITY)) {
      expect(table, row).toContain(severity === LEAST_SEVERE ? `\`${row}\`, ` : `\`${row}\` ${severity}`);
    }
  });
  test('documents every exit code', () => {
    const para = between(README, '**Exit codes**', '## Commands');
    for (const code of [0, 1, 2, 3, EXIT_UNREACHABLE, EXIT_POOL_EXHAUSTED, 130, 143])
      expect(para, String(code)).toContain(`\`${code}\``);
    // Each verdict beside its exit code (issue 31): the table a CI author reads is the verdict module's.
    const verdicts: [number, string][] = [
      [0, 'PASS'],
      [EXIT_FAIL, 'FAIL'],
      [EXIT_UNREACHABLE, 'OUTAGE'],
      [EXIT_UNTESTED, 'UNTESTED'],
      [EXIT_INCOMPLETE, 'INCOMPLETE'],
      [EXIT_SIGTERM, 'INCOMPLETE'],
    ];
    for (const [code, verdict] of verdicts)
      expect(para, verdict).toMatch(new RegExp(`^\\| [^|]*\`${code}\`[^|]*\\| \`${verdict}\` \\|`, 'm'));
  });
  test('lists every defect code with its meaning, and no other', () => {
    const section = between(doc('checks.md'), '## Defect codes');
    const rows = [...section.matchAll(/^\| `([a-z0-9_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(DEFECT_CODES);
  });
  test('has a section per command', () => {
    for (const c of ['diff', 'compare', 'record', 'validate', 'merge'])
      expect(doc('ci.md')).toMatch(new RegExp(`^## .*\`conformance ${c}\``, 'm'));
  });
});

describe('examples', () => {
  test('the expectations file is valid', () => {
    expect(readExpectations('examples/expectations.json').expectations.length).toBeGreaterThan(0);
  });
  test('the configs resolve; the target config names an existing expectations file', () => {
    const t = resolveRunSettings(['--config', 'examples/target.json'], { STAGING_SERVICE_PASSWORD: 'x' });
    expect(t.embedded).toBe(false);
    expect(existsSync(t.expectations!)).toBe(true);
    expect(() => resolveRunSettings(['--config', 'examples/target.json'], {})).toThrow(/STAGING_SERVICE_PASSWORD/);
    expect(resolveRunSettings(['--config', 'examples/run-embedded.json'], {}).embedded).toBe(true);
  });
  test('the workflow runs the shards as a matrix and merges them into the job summary', () => {
    expect(WORKFLOW).toMatch(/shard: \['1\/2', '2\/2'\]/);
    expect(WORKFLOW).toMatch(/--shard \$\{\{ matrix\.shard \}\}/);
    expect(WORKFLOW).toMatch(/needs: shard/);
    expect(WORKFLOW).toContain('cat reports/conformance.md >> $GITHUB_STEP_SUMMARY');
  });
});
