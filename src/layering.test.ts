/**
 * The house's structural rules, held against the code (docs/architecture.md, "Where things live"): nothing
 * imports upward or sideways into another room of its floor (so nothing below the CLI imports it),
 * the library (src/index.ts) does not import the CLI, no files anywhere in src/ import one another in a
 * circle, a name one file exports means nothing else anywhere in src/, and no file outside src/bindings/
 * branches on a binding id. Each rule is a pure function over sources, shown to fail on a planted violation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Floors, ground first: a room imports only rooms of lower floors (and itself). */
const FLOOR: Record<string, number> = {
  contract: 1,
  core: 2,
  xml: 3,
  transport: 3,
  bindings: 4,
  schema: 5,
  checks: 6,
  mock: 6,
  report: 6,
  equivalence: 7,
  sequences: 7.5,
  engine: 8,
  cli: 9,
};

/** The library's entry point: beside the CLI, on top of the engine; it may import any room but the CLI. */
const LIBRARY = join(SRC, 'index.ts');

interface Source {
  readonly path: string;
  readonly text: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const roomOf = (path: string) => relative(SRC, path).split('/')[0]!;

/** The rooms of src/ a source imports, with the import as written. */
function importsOf(f: Source): { spec: string; room: string }[] {
  const out: { spec: string; room: string }[] = [];
  for (const m of f.text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
    const target = resolve(dirname(f.path), m[1]!);
    if (!target.startsWith(SRC)) continue; // package data (fixtures/, schemas/, package.json)
    out.push({ spec: m[1]!, room: roomOf(target) });
  }
  return out;
}

/** Imports into a room of the same or a higher floor. */
function upwardImports(files: readonly Source[]): string[] {
  const wrong: string[] = [];
  for (const f of files) {
    const from = roomOf(f.path);
    for (const { spec, room: to } of importsOf(f)) {
      if (to === from || to.endsWith('.ts')) continue;
      if (FLOOR[to] === undefined || FLOOR[to]! >= FLOOR[from]!)
        wrong.push(`${relative(SRC, f.path)} imports ${spec} (${from} → ${to})`);
    }
  }
  return wrong;
}

/** Imports of the CLI by the library. */
function libraryCliImports(library: Source): string[] {
  return importsOf(library)
    .filter((i) => i.room === 'cli')
    .map((i) => `index.ts imports ${i.spec} (library → cli)`);
}

const BRANCHING = /(?:===|!==|case)\s*'(?:soap11|soap12|get|post)'|'(?:soap11|soap12|get|post)'\s*(?:===|!==)/;
function bindingBranches(files: readonly Source[]): string[] {
  return files.filter((f) => roomOf(f.path) !== 'bindings' && BRANCHING.test(f.text)).map((f) => relative(SRC, f.path));
}

/**
 * Circles of imports among the files of src/ (type imports and re-exports included: a circle of types
 * is still two files that cannot be read apart), each as the files in it, shortest first. Found by
 * depth-first search over the imports (Tarjan's strongly connected components), so a circle of any
 * length is found, inside a room or across rooms.
 */
function importCircles(files: readonly Source[]): string[][] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const edges = new Map(
    files.map((f) => [
      f.path,
      [...f.text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)]
        .map((m) => resolve(dirname(f.path), m[1]!).replace(/\.js$/, '.ts'))
        .filter((t) => byPath.has(t)),
    ]),
  );
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const scc: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      scc.push(relative(SRC, w));
      if (w === v) break;
    }
    if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(scc.sort());
  };
  for (const f of files) if (!order.has(f.path)) visit(f.path);
  return out.sort((x, y) => x.length - y.length || x[0]!.localeCompare(y[0]!));
}

/** The circles, each as one line saying why it is wrong. */
function circleMessages(files: readonly Source[]): string[] {
  return importCircles(files).map(
    (c) =>
      `${c.join(' ↔ ')}: these files import one another, so none can be read, tested or moved without `
      + `the others; move what they share into a file they both import`,
  );
}

/** A top-level declaration: a function, class, type, interface, enum or const (re-exports are not one). */
const DECLARATION =
  /^(export\s+)?(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|type|interface|enum|const|let)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * Names that mean two things: a name one source file exports that another source file of src/
 * declares too (exported or not). A reader who meets the name cannot tell which one it is; two files
 * each keeping a private helper of the same name, neither offering it, are each read alone.
 */
function namesWithTwoMeanings(files: readonly Source[]): Map<string, string[]> {
  const declared = new Map<string, { file: string; exported: boolean }[]>();
  for (const f of files) {
    for (const m of f.text.matchAll(DECLARATION)) {
      const list = declared.get(m[2]!) ?? [];
      if (!list.some((d) => d.file === relative(SRC, f.path)))
        list.push({ file: relative(SRC, f.path), exported: m[1] !== undefined });
      declared.set(m[2]!, list);
    }
  }
  return new Map(
    [...declared]
      .filter(([, ds]) => ds.length > 1 && ds.some((d) => d.exported))
      .map(([n, ds]) => [n, ds.map((d) => d.file).sort()]),
  );
}

/** Each name with two meanings, as one line saying where and why it is wrong. */
function nameMessages(files: readonly Source[]): string[] {
  return [...namesWithTwoMeanings(files)]
    .map(
      ([n, where]) =>
        `${n} is declared in ${where.join(' and ')}: one name, one meaning: rename one, or import the one there is`,
    )
    .sort();
}

/** The longest a source file of src/ may be (issue 44: a file longer than this does several jobs). */
const MAX_LINES = 500;

/**
 * The files allowed longer: tables of data, each a list of like entries read by code elsewhere, where
 * a split would only scatter one table (the reason beside each).
 */
const DATA_TABLES: Readonly<Record<string, string>> = {
  'engine/run-settings-table.ts':
    'one declaration per setting of `run` and the network (issue 44 item 1): the table help, usage, '
    + 'schema and docs derive from',
  'mock/faults.ts': "the catalogue of the mock's faults, one entry each (docs/mock.md): the self-test runs every entry",
};

const lineCount = (f: Source) => f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0);

/** The source files over MAX_LINES that are not a named data table, each as one line saying why that is wrong. */
function oversized(files: readonly Source[], tables: Readonly<Record<string, string>>): string[] {
  return files
    .filter((f) => lineCount(f) > MAX_LINES && !(relative(SRC, f.path) in tables))
    .map(
      (f) =>
        `${relative(SRC, f.path)} has ${lineCount(f)} lines (at most ${MAX_LINES}): split it along its `
        + `jobs, one file each`,
    )
    .sort();
}

/** The named data tables that no longer need naming: gone, or within MAX_LINES. */
function staleTables(files: readonly Source[], tables: Readonly<Record<string, string>>): string[] {
  return Object.keys(tables).filter((t) => {
    const f = files.find((x) => relative(SRC, x.path) === t);
    return f === undefined || lineCount(f) <= MAX_LINES;
  });
}

const read = (path: string): Source => ({ path, text: readFileSync(path, 'utf8') });

describe('structure', () => {
  const files = sources(SRC)
    .filter((f) => roomOf(f) in FLOOR)
    .map(read);

  test('every room of src/ has a floor', () => {
    const rooms = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(rooms.sort()).toEqual(Object.keys(FLOOR).sort());
  });

  test('nothing imports upward, or sideways into another room of its floor: nothing below the CLI imports it', () => {
    expect(upwardImports(files)).toEqual([]);
    // A planted violation fails: the engine reaching up into the CLI.
    const planted = { path: join(SRC, 'engine', 'planted.ts'), text: "import { runCommand } from '../cli/run.js';" };
    expect(upwardImports([...files, planted])).toEqual(['engine/planted.ts imports ../cli/run.js (engine → cli)']);
  });

  test('the library (src/index.ts) imports nothing from src/cli/', () => {
    const library = read(LIBRARY);
    expect(importsOf(library).some((i) => i.room === 'engine')).toBe(true); // it reaches the run through the engine
    expect(libraryCliImports(library)).toEqual([]);
    // A planted violation fails, by a static import and by a dynamic one.
    const planted = {
      path: LIBRARY,
      text: `${library.text}\nimport { executeRun } from './cli/run.js';\nconst v = await import('./cli/validate.js');`,
    };
    expect(libraryCliImports(planted)).toEqual([
      'index.ts imports ./cli/run.js (library → cli)',
      'index.ts imports ./cli/validate.js (library → cli)',
    ]);
  });

  test(
    'no circle of imports anywhere in src/ (issue 33: engine/sequences.ts and run.ts imported each other; '
      + 'issue 44: report/, xml/)',
    () => {
      const all = [...files, read(LIBRARY)];
      expect(circleMessages(all)).toEqual([]);
      // A planted circle of any length fails, with its reason: deps.ts importing a type of run.ts, which
      // imports deps.ts through two other files.
      const deps = all.find((f) => f.path.endsWith('engine/deps.ts'))!;
      const planted = [
        ...all.filter((f) => f !== deps),
        { ...deps, text: `${deps.text}\nimport type { RunPlan } from './run.js';` },
      ];
      expect(circleMessages(planted)).toEqual([
        'engine/check-exchange.ts ↔ engine/deps.ts ↔ engine/other-login.ts ↔ engine/rejected-before.ts ↔ '
          + 'engine/run.ts ↔ engine/sequence-unit.ts ↔ engine/shrink.ts ↔ engine/unit-rows.ts: these files '
          + 'import one another, so none can be read, tested or moved without the others; move what they share '
          + 'into a file they both import',
      ]);
      // And across rooms: the ground floor's model importing a report (the floors forbid it too; this rule alone still
      // sees the circle).
      const model = all.find((f) => f.path.endsWith('contract/model.ts'))!;
      const across = [
        ...all.filter((f) => f !== model),
        { ...model, text: `${model.text}\nimport { coverageMarkdown } from '../report/coverage.js';` },
      ];
      expect(importCircles(across).filter((c) => c.includes('contract/model.ts'))).toEqual([
        ['contract/model.ts', 'report/coverage.ts'],
      ]);
    },
  );

  test(
    'one meaning per name: a name a file of src/ exports is declared by no other file (issue 44: '
      + 'findFault, bindingLabel, Verdict meant two things each)',
    () => {
      const all = [...files, read(LIBRARY)];
      expect(nameMessages(all)).toEqual([]);
      // A planted second meaning fails, exported or not, with its reason; a re-export is not a declaration.
      const planted = [
        ...all,
        {
          path: join(SRC, 'engine', 'planted.ts'),
          text: "export function faultNamed(): void {}\nexport { bindingLabel } from '../bindings/index.js';",
        },
        { path: join(SRC, 'report', 'planted.ts'), text: 'type EffectiveType = string;\nconst shown = 1;' },
      ];
      expect(nameMessages(planted)).toEqual([
        'EffectiveType is declared in contract/model-shapes.ts and report/planted.ts: one name, one meaning: '
          + 'rename one, or import the one there is',
        'faultNamed is declared in engine/planted.ts and mock/fault-lookup.ts: one name, one meaning: rename '
          + 'one, or import the one there is',
        'shown is declared in equivalence/differences.ts and report/planted.ts: one name, one meaning: rename '
          + 'one, or import the one there is',
      ]);
    },
  );

  test('one job per file: no source file of src/ over 500 lines, but the data tables named here (issue 44)', () => {
    const all = [...files, read(LIBRARY)];
    expect(oversized(all, DATA_TABLES)).toEqual([]);
    // Each named table still is one (over the limit, and there): the list only names what needs it.
    expect(staleTables(all, DATA_TABLES)).toEqual([]);
    // A planted long file fails, with its reason; a data table does not.
    const long = { path: join(SRC, 'engine', 'planted.ts'), text: 'x;\n'.repeat(MAX_LINES + 1) };
    expect(oversized([long], {})).toEqual([
      `engine/planted.ts has ${MAX_LINES + 1} lines (at most ${MAX_LINES}): split it along its jobs, one file each`,
    ]);
    expect(oversized([long], { 'engine/planted.ts': 'a table' })).toEqual([]);
    expect(staleTables([], { 'engine/planted.ts': 'a table' })).toEqual(['engine/planted.ts']);
  });

  test('no file outside src/bindings/ branches on a binding id', () => {
    expect(bindingBranches(files)).toEqual([]);
    expect(bindingBranches([{ path: join(SRC, 'engine', 'planted.ts'), text: "if (b === 'soap12') x();" }])).toEqual([
      'engine/planted.ts',
    ]);
  });
});
