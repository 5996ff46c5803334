/**
 * One declaration per setting (issue 44 item 1): what is not derived from the declarations of
 * ./run-settings-table.ts is held to them here, each rule a pure function over the declarations
 * and the thing it checks, and each shown to fail on a planted missing entry: the config schema
 * (schemas/config.schema.json), the library's settings type (src/index.ts ConformanceSettings),
 * the re-run basis (./rerun-basis.ts), the variables, and docs/cli.md's generated table. The parser's
 * options, the variables and the help are derived (src/core/setting.ts); the usage text is held in
 * src/cli/help.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  SETTINGS_TABLE_BEGIN,
  SETTINGS_TABLE_END,
  settingsMarkdown,
  withSection,
  type ConfigKeyDeclaration,
  type SettingCheck,
  type SettingDeclaration,
} from '../core/setting.js';
import { rerunBasis } from './rerun-basis.js';
import { LIBRARY_KEYS } from '../../test/support/library-keys.js';
import { CONFIG_KEY_SETTINGS, RUN_ENV, RUN_SETTINGS } from './run-settings-table.js';
import { resolveRunSettingsFlags, RUN_OPTIONS } from './settings.js';
import { parseFlags } from '../core/flags.js';

type Schema = {
  type?: string;
  anyOf?: Schema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
};
const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as Schema;

/** Every declared config key with what is said of it. */
const DECLARED: readonly {
  readonly key: string;
  readonly check: SettingCheck;
  readonly libraryOnly?: boolean;
  readonly from: string;
}[] = [
  ...Object.entries(RUN_SETTINGS as Record<string, SettingDeclaration>).flatMap(([flag, d]) =>
    d.key ? [{ key: d.key, check: d.check, libraryOnly: d.libraryOnly, from: `--${flag}` }] : [],
  ),
  ...CONFIG_KEY_SETTINGS.map((k: ConfigKeyDeclaration) => ({
    key: k.key,
    check: k.check,
    libraryOnly: k.libraryOnly,
    from: k.key,
  })),
];

/** A key's top-level or target.* property ("latency.maxP95" → "latency"; "target.user" stays). */
const headOf = (key: string) => (key.startsWith('target.') ? key : key.split('.')[0]!);

/** The schema of a config key, by its path. */
function schemaAt(schema: Schema, key: string): Schema | undefined {
  return key.split('.').reduce<Schema | undefined>((s, k) => s?.properties?.[k], schema);
}

/** The schema's properties, top-level and target.*, as config keys. */
function schemaKeys(schema: Schema): string[] {
  const top = Object.keys(schema.properties ?? {}).filter((k) => k !== 'target');
  return [...top, ...Object.keys(schema.properties?.target?.properties ?? {}).map((k) => `target.${k}`)];
}

/** The JSON types a schema admits. */
function typesOf(s: Schema): string[] {
  if (s.anyOf) return s.anyOf.flatMap(typesOf);
  if (s.enum) return [...new Set(s.enum.map((v) => typeof v))];
  return s.type ? [s.type] : [];
}

/** What the schema must say of a key, from its declared check; a list of disagreements. */
function schemaDisagreements(schema: Schema, declared: typeof DECLARED): string[] {
  const wrong: string[] = [];
  for (const d of declared) {
    const s = schemaAt(schema, d.key);
    if (d.libraryOnly) {
      if (s) wrong.push(`${d.key} (${d.from}) is the library's only, but the config schema accepts it`);
      continue;
    }
    if (!s) {
      wrong.push(`${d.key} (${d.from}) is declared but not in schemas/config.schema.json`);
      continue;
    }
    const types = typesOf(s).sort().join(',');
    const want =
      { string: 'string', list: 'array,string', switch: 'boolean', percent: 'number,string', int: 'integer' }[
        d.check.kind as string
      ] ?? (d.check.kind === 'checked' && d.check.schemaType !== 'mixed' ? d.check.schemaType : undefined);
    if (want !== undefined && types !== want)
      wrong.push(`${d.key} (${d.from}): the schema's type is ${types}, the declaration's ${want}`);
    if (d.check.kind === 'int' && (s.minimum !== d.check.min || s.maximum !== d.check.max)) {
      wrong.push(
        `${d.key} (${d.from}): the schema's bounds are ${s.minimum}..${s.maximum}, the `
          + `declaration's ${d.check.min}..${d.check.max}`,
      );
    }
  }
  const heads = new Set(declared.filter((d) => !d.libraryOnly).map((d) => headOf(d.key)));
  for (const k of schemaKeys(schema))
    if (!heads.has(k)) wrong.push(`${k} is in schemas/config.schema.json but no setting declares it`);
  return wrong;
}

describe('the config schema', () => {
  test("says of every declared key what its declaration says (type, an integer's bounds), and has no other", () => {
    expect(schemaDisagreements(SCHEMA, DECLARED)).toEqual([]);
  });
  test('a declaration the schema misses, or bounds that differ, are found', () => {
    const planted: typeof DECLARED = [
      ...DECLARED,
      { key: 'plantedThings', check: { kind: 'list' }, from: '--planted-things' },
    ];
    expect(schemaDisagreements(SCHEMA, planted)).toContain(
      'plantedThings (--planted-things) is declared but not in schemas/config.schema.json',
    );
    const bounds = DECLARED.map((d) =>
      d.key === 'concurrency' ? { ...d, check: { kind: 'int', min: 1, max: 64 } as const } : d,
    );
    expect(schemaDisagreements(SCHEMA, bounds)).toEqual([
      "concurrency (--concurrency): the schema's bounds are 1..256, the declaration's 1..64",
    ]);
    expect(
      schemaDisagreements(
        SCHEMA,
        DECLARED.filter((d) => d.key !== 'seed'),
      ),
    ).toEqual(['seed is in schemas/config.schema.json but no setting declares it']);
  });
});

/**
 * Declared keys the library's type lacks, and library keys no declaration has ($schema is an editor's key, not the
 * library's).
 */
function libraryDisagreements(library: readonly string[], declared: typeof DECLARED): string[] {
  const heads = new Set(declared.map((d) => headOf(d.key)).filter((k) => k !== '$schema'));
  return [
    ...[...heads]
      .filter((k) => !library.includes(k))
      .map((k) => `${k} is declared but src/index.ts ConformanceSettings lacks it`),
    ...library.filter((k) => !heads.has(k)).map((k) => `ConformanceSettings has ${k}, which no setting declares`),
  ];
}

describe("the library's settings type", () => {
  test('has every declared key, and no other', () => {
    expect(libraryDisagreements(LIBRARY_KEYS, DECLARED)).toEqual([]);
  });
  test('a declared key it lacks is found', () => {
    expect(
      libraryDisagreements(LIBRARY_KEYS, [
        ...DECLARED,
        { key: 'plantedThings', check: { kind: 'list' }, from: '--planted-things' },
      ]),
    ).toEqual(['plantedThings is declared but src/index.ts ConformanceSettings lacks it']);
  });
});

/** A run's settings from flags alone (the embedded mock: no target to name). */
const settingsOf = (argv: string[]) => resolveRunSettingsFlags(parseFlags(argv, RUN_OPTIONS).values, {});
/** Switches that cannot be given alone (each needs another flag), and --help. */
const NOT_ALONE = ['update-expectations', 'list-format', 'help'];

/**
 * The flags whose re-run carrying disagrees with their declaration: given alone (a switch, or its
 * declared example), a setting declared `basis` must change the re-run basis, and any other must not.
 */
function rerunDisagreements(table: Record<string, SettingDeclaration>): string[] {
  const base = JSON.stringify(rerunBasis(settingsOf([])));
  const wrong: string[] = [];
  for (const [flag, d] of Object.entries(table)) {
    if (NOT_ALONE.includes(flag) || (d.type === 'string' && d.example === undefined)) continue;
    const changed =
      JSON.stringify(rerunBasis(settingsOf(d.type === 'boolean' ? [`--${flag}`] : [`--${flag}`, d.example!]))) !== base;
    if (changed && d.rerun !== 'basis')
      wrong.push(`--${flag} changes the re-run basis but is declared rerun: '${d.rerun}'`);
    if (!changed && d.rerun === 'basis')
      wrong.push(
        `--${flag} is declared rerun: 'basis' but the re-run basis (src/engine/rerun-basis.ts) does not carry it`,
      );
  }
  return wrong;
}

describe('the re-run basis', () => {
  test('carries every setting declared `basis`, and no other', () => {
    expect(rerunDisagreements(RUN_SETTINGS)).toEqual([]);
  });
  test('every string setting a re-run must carry has an example to prove it with', () => {
    const missing = Object.entries(RUN_SETTINGS as Record<string, SettingDeclaration>).filter(
      ([, d]) => d.rerun === 'basis' && d.type === 'string' && d.example === undefined,
    );
    expect(missing.map(([f]) => f)).toEqual([]);
  });
  test(
    'a setting declared `basis` that rerun-basis.ts does not carry is found, and one it carries declared '
      + 'otherwise',
    () => {
      const table = RUN_SETTINGS as Record<string, SettingDeclaration>;
      expect(rerunDisagreements({ seed: { ...table.seed!, rerun: 'basis' } })).toEqual([
        "--seed is declared rerun: 'basis' but the re-run basis (src/engine/rerun-basis.ts) does not carry it",
      ]);
      expect(rerunDisagreements({ 'max-rps': { ...table['max-rps']!, rerun: 'no' } })).toEqual([
        "--max-rps changes the re-run basis but is declared rerun: 'no'",
      ]);
    },
  );
});

/**
 * The numbers a declaration's default names that the resolution does not give, for the embedded mock
 * (the run given nothing): a default of `N` or `N mock, M remote` must be what a run gets, and `none`
 * must leave the setting unset. The declaration's default is help text; this holds it to the value.
 */
function defaultDisagreements(table: Record<string, SettingDeclaration>): string[] {
  const resolved = settingsOf([]) as unknown as Record<string, unknown>;
  const wrong: string[] = [];
  for (const [flag, d] of Object.entries(table)) {
    if ((d.check.kind !== 'int' && d.check.kind !== 'percent') || d.key === undefined || d.key.includes('.')) continue;
    const said =
      /^(\d+)(?: mock, .*)?$/.exec(d.default ?? '')?.[1] ?? (d.default?.startsWith('none') ? 'none' : undefined);
    if (said === undefined) continue;
    const got = resolved[d.key];
    if ((said === 'none' && got !== undefined) || (said !== 'none' && got !== Number(said)))
      wrong.push(`--${flag} says its default is ${d.default}, but a run given nothing gets ${String(got)}`);
  }
  return wrong;
}

describe('the defaults', () => {
  test('a number a declaration names as its default is the value a run given nothing gets', () => {
    expect(defaultDisagreements(RUN_SETTINGS)).toEqual([]);
    // Enough of them are held to be worth the name (the switches and texts are help only).
    const held = Object.values(RUN_SETTINGS as Record<string, SettingDeclaration>).filter(
      (d) => d.check.kind === 'int' && /^\d/.test(d.default ?? ''),
    );
    expect(held.length).toBeGreaterThanOrEqual(5);
  });
  test('a default that disagrees is found', () => {
    const table = RUN_SETTINGS as Record<string, SettingDeclaration>;
    expect(defaultDisagreements({ 'give-up-after': { ...table['give-up-after']!, default: '7' } })).toEqual([
      '--give-up-after says its default is 7, but a run given nothing gets 5',
    ]);
    expect(defaultDisagreements({ concurrency: { ...table.concurrency!, default: 'none' } })).toEqual([
      '--concurrency says its default is none, but a run given nothing gets 16',
    ]);
  });
});

describe('the variables', () => {
  test('no two settings share one', () => {
    const seen = Object.values(RUN_ENV as Record<string, string>);
    expect(seen.filter((v, i) => seen.indexOf(v) !== i)).toEqual([]);
  });
  test('every secret has a variable, never only a flag or a key of a file', () => {
    for (const [flag, d] of Object.entries(RUN_SETTINGS as Record<string, SettingDeclaration>))
      if (d.secret) expect(d.env, `--${flag}`).toBeDefined();
  });
});

describe('docs/cli.md', () => {
  const text = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const generated = settingsMarkdown(RUN_SETTINGS, CONFIG_KEY_SETTINGS);
  test("its settings table is the declarations' (npm run generate writes it)", () => {
    expect(text).toContain(SETTINGS_TABLE_BEGIN);
    expect(text).toContain(SETTINGS_TABLE_END);
    expect(
      withSection(text, SETTINGS_TABLE_BEGIN, SETTINGS_TABLE_END, generated),
      "docs/cli.md's settings table is stale: run npm run generate",
    ).toBe(text);
  });
  test('a declaration added without regenerating makes it stale', () => {
    const planted = settingsMarkdown(
      {
        ...RUN_SETTINGS,
        'planted-things': {
          type: 'string',
          env: 'CONFORMANCE_PLANTED_THINGS',
          key: 'plantedThings',
          check: { kind: 'list' },
          help: 'x',
          rerun: 'no',
        },
      },
      CONFIG_KEY_SETTINGS,
    );
    expect(withSection(text, SETTINGS_TABLE_BEGIN, SETTINGS_TABLE_END, planted)).not.toBe(text);
  });
});
