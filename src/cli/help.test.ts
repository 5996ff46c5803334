/**
 * The help and usage texts come from the declarations (src/engine/run-settings-table.ts,
 * ./command-settings.ts): every flag of every command has its help line, and run's usage text names
 * every run flag (before issue 44, 8 were missing from it, --max-transient among them).
 */
import { describe, expect, test } from 'vitest';
import { synopsis, type SettingDeclaration } from '../core/setting.js';
import { RUN_SETTINGS } from '../engine/run-settings-table.js';
import {
  COMPARE_OPTIONS,
  DIFF_OPTIONS,
  DRIFT_OPTIONS,
  MERGE_OPTIONS,
  RECORD_OPTIONS,
  VALIDATE_OPTIONS,
} from './command-settings.js';
import { RUN_OPTIONS, RUN_USAGE } from './config.js';
import { COMPARE_HELP, DIFF_HELP, DRIFT_HELP, MERGE_HELP, RECORD_HELP, RUN_HELP, VALIDATE_HELP } from './help.js';

/** The flags of a table a usage text does not name. */
const unnamed = (usage: string, flags: readonly string[]) =>
  flags.filter((f) => f !== 'help' && !new RegExp(`--${f}\\b`).test(usage));

describe("run's usage text", () => {
  test('names every run flag', () => {
    expect(unnamed(RUN_USAGE, Object.keys(RUN_OPTIONS))).toEqual([]);
  });
  test('a flag missing from it is found', () => {
    const planted = RUN_USAGE.replace(/\[--max-transient [^\]]*\]/, '');
    expect(unnamed(planted, Object.keys(RUN_OPTIONS))).toEqual(['max-transient']);
  });
  test("its synopsis is the declarations': a new one is in it without a second edit", () => {
    const families: SettingDeclaration = {
      type: 'string',
      env: 'CONFORMANCE_FAMILIES',
      key: 'families',
      check: { kind: 'list' },
      value: 'LIST',
      help: 'x',
      rerun: 'basis',
    };
    expect(synopsis('usage: conformance run', { ...RUN_SETTINGS, families })).toContain('[--families LIST]');
  });
});

describe("every command's help", () => {
  const commands: [string, Record<string, unknown>, Record<string, { description: string }>][] = [
    ['run', RUN_OPTIONS, RUN_HELP],
    ['record', RECORD_OPTIONS, RECORD_HELP],
    ['drift', DRIFT_OPTIONS, DRIFT_HELP],
    ['compare', COMPARE_OPTIONS, COMPARE_HELP],
    ['diff', DIFF_OPTIONS, DIFF_HELP],
    ['merge', MERGE_OPTIONS, MERGE_HELP],
    ['validate', VALIDATE_OPTIONS, VALIDATE_HELP],
  ];
  test.for(commands)('%s: a help line for each flag, and none for a flag it does not take', ([, options, help]) => {
    expect(Object.keys(help).sort()).toEqual(Object.keys(options).sort());
    for (const [flag, doc] of Object.entries(help)) expect(doc.description, flag).not.toBe('');
  });
});
