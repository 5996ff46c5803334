/**
 * One declaration per setting (issue 44): a setting of a command says once its flag, environment
 * variable, config key, type and check, default, help line, whether a re-run must carry it and whether
 * it is secret. The parser's options (FlagSpec), the variables and the help (FlagHelp) are derived
 * here from a table of declarations; the config schema, the usage text, docs/cli.md, the library's
 * settings type and the re-run basis are held to the same table by tests
 * (src/engine/run-settings-table.test.ts). docs/architecture.md, "Adding a setting", says how to add one.
 */
import type { FlagDoc } from './flags.js';

/**
 * How a value is checked, each message naming where it came from (flag, variable or config key):
 * the reader of src/engine/settings-reader.ts for the plain kinds, a named check of the resolution
 * for the rest (`by`). The config schema's type (and an integer's bounds) is held to it.
 */
export type SettingCheck =
  | { readonly kind: 'string' }
  | { readonly kind: 'list' }
  | { readonly kind: 'switch' }
  | { readonly kind: 'percent' }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  /** Checked by a function of the resolution, named here for the reader (url, namespace, the proxy...). */
  | {
      readonly kind: 'checked';
      readonly by: string;
      readonly schemaType: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'mixed';
    };

/**
 * Whether a row's re-run command must carry the setting, and how:
 * - `basis`: as its flag, from the run's re-run basis (src/engine/rerun-basis.ts; a test holds both ways);
 * - `report`: from what the report keeps of the run (its target, network, generation; src/report/rerun.ts);
 * - `own`: the re-run command sets its own (the row's operation, binding, case, report directory);
 * - `no`: it changes neither what a row sends nor how it is judged, or is about one invocation only.
 */
export type RerunCarry = 'basis' | 'report' | 'own' | 'no';

/** One setting: everything said of it, once. */
export interface SettingDeclaration {
  /** A flag's value: a string (`--seed N`) or a switch (`--quiet`). */
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Repeatable (`--header`, `--case`). */
  readonly multiple?: boolean;
  /** The environment variable (flags > environment > config file); a switch's takes true or false. */
  readonly env?: string;
  /** What --help names as the variable, when not `env` (`env` of a switch is shown as `VAR=true`). */
  readonly helpEnv?: string;
  /**
   * The config key (`seed`, `target.bookUrl`, `latency.maxP95`): also the library's (src/index.ts ConformanceSettings).
   */
  readonly key?: string;
  readonly check: SettingCheck;
  /** The value's placeholder in --help and the usage text (`URL`, `N`). */
  readonly value?: string;
  /** The help line. */
  readonly help: string;
  /** The default, in the help's words. */
  readonly default?: string;
  readonly rerun: RerunCarry;
  /** A value given at run time a re-run command must reproduce: an example (the re-run basis test gives it). */
  readonly example?: string;
  /** A secret: never printed, never in a report or a re-run command (a variable's name stands for it). */
  readonly secret?: boolean;
  /** Its config key is the library's only: a config file refuses it (a password: files get committed). */
  readonly libraryOnly?: boolean;
}

/** A setting without a flag: a config key (and the library's) only, such as target.passwordEnv. */
export interface ConfigKeyDeclaration {
  readonly key: string;
  readonly check: SettingCheck;
  readonly help: string;
  readonly rerun: RerunCarry;
  readonly secret?: boolean;
  /** The library accepts it; a config file refuses it (a password: files get committed). */
  readonly libraryOnly?: boolean;
}

export type SettingTable = Readonly<Record<string, SettingDeclaration>>;

/** The parser's options of a table: each flag's type, short alias and repeatability. */
export type OptionsOf<T extends SettingTable> = {
  readonly [K in keyof T]: {
    readonly type: T[K]['type'];
    readonly short?: string;
    readonly multiple: T[K] extends { multiple: true } ? true : false;
  };
};

/** The environment variable of each flag of a table that has one. */
export type EnvOf<T extends SettingTable> = {
  readonly [K in keyof T as T[K] extends { env: string } ? K : never]: T[K] extends { env: infer E } ? E : never;
};

export function optionsOf<T extends SettingTable>(table: T): OptionsOf<T> {
  return Object.fromEntries(
    Object.entries(table).map(([flag, d]) => [
      flag,
      {
        type: d.type,
        ...(d.short ? { short: d.short } : {}),
        ...(d.multiple ? { multiple: true } : {}),
      },
    ]),
  ) as unknown as OptionsOf<T>;
}

export function envOf<T extends SettingTable>(table: T): EnvOf<T> {
  return Object.fromEntries(Object.entries(table).flatMap(([flag, d]) => (d.env ? [[flag, d.env]] : []))) as EnvOf<T>;
}

/**
 * What --help shows of a flag's variable: `helpEnv`, else the variable (a switch's as `VAR=true`, `--no-x`'s as
 * `VAR=false`).
 */
function helpEnvOf(flag: string, d: SettingDeclaration): string | undefined {
  if (d.helpEnv !== undefined) return d.helpEnv;
  if (d.env === undefined) return undefined;
  return d.type === 'boolean' ? `${d.env}=${flag.startsWith('no-') ? 'false' : 'true'}` : d.env;
}

export function docOf(flag: string, d: SettingDeclaration): FlagDoc {
  const env = helpEnvOf(flag, d);
  return {
    ...(d.value !== undefined ? { value: d.value } : {}),
    description: d.help,
    ...(d.default !== undefined ? { default: d.default } : {}),
    ...(env ? { env } : {}),
  };
}

export function helpOf<T extends SettingTable>(table: T): { readonly [K in keyof T]: FlagDoc } {
  return Object.fromEntries(Object.entries(table).map(([flag, d]) => [flag, docOf(flag, d)])) as {
    readonly [K in keyof T]: FlagDoc;
  };
}

/** The synopsis of a usage text: `[--flag VALUE]` for each flag, wrapped at `width` after `head`. */
export function synopsis(head: string, table: SettingTable, width = 100): string {
  const lines: string[] = [];
  let line = head;
  for (const [flag, d] of Object.entries(table)) {
    if (flag === 'help') continue;
    const item = `[${d.short ? `-${d.short}|` : ''}--${flag}${d.type === 'string' ? ` ${d.value ?? 'VALUE'}` : ''}]${d.multiple ? '...' : ''}`;
    if (line.length + 1 + item.length > width && line.trim() !== '') {
      lines.push(line);
      line = '   ';
    }
    line += ` ${item}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The words of docs/cli.md's settings table for each way a re-run carries a setting. */
const RERUN_WORDS: Record<RerunCarry, string> = {
  basis: 'as its flag',
  report: 'from the report',
  own: 'its own',
  no: '',
};

const cell = (s: string) => s.replace(/\|/g, '\\|');

/**
 * The generated table of docs/cli.md (between SETTINGS_TABLE_BEGIN and SETTINGS_TABLE_END): every
 * setting of a table with its variable, config key, default, whether a re-run carries it and whether
 * it is secret, then the config keys that have no flag.
 */
export function settingsMarkdown(table: SettingTable, keys: readonly ConfigKeyDeclaration[]): string {
  const rows = Object.entries(table)
    .filter(([flag]) => flag !== 'help')
    .map(([flag, d]) => {
      const env = d.type === 'boolean' && d.env ? `${d.env}=${flag.startsWith('no-') ? 'false' : 'true'}` : d.env;
      return (
        `| `
        + `\`--${flag}${d.type === 'string' ? ` ${cell(d.value ?? 'VALUE')}` : ''}\`${d.multiple ? ' (repeatable)' : ''} `
        + `| ${env ? `\`${env}\`` : ''} `
        + `| ${d.key ? `\`${d.key}\`${d.libraryOnly ? ' (library only)' : ''}` : ''} `
        + `| ${cell(d.default ?? '')} | ${RERUN_WORDS[d.rerun]} | ${d.secret ? 'secret' : ''} |`
      );
    });
  const keyRows = keys.map(
    (k) =>
      `| | | \`${k.key}\`${k.libraryOnly ? ' (library only)' : ''} | ${cell(k.help)} `
      + `| ${RERUN_WORDS[k.rerun]} | ${k.secret ? 'secret' : ''} |`,
  );
  return [
    '| flag | variable | config key | default (or meaning) | a re-run carries it | |',
    '|---|---|---|---|---|---|',
    ...rows,
    ...keyRows,
  ].join('\n');
}

export const SETTINGS_TABLE_BEGIN =
  '<!-- settings table: generated from src/engine/run-settings-table.ts by `npm run generate`; a test '
  + 'fails when it is stale -->';
export const SETTINGS_TABLE_END = '<!-- end of the settings table -->';

/**
 * A text with the part between the two markers replaced (the markers kept); the text as it is when a marker is missing.
 */
export function withSection(text: string, begin: string, end: string, body: string): string {
  const i = text.indexOf(begin);
  const j = text.indexOf(end, i);
  if (i < 0 || j < 0) return text;
  return `${text.slice(0, i + begin.length)}\n${body}\n${text.slice(j)}`;
}
