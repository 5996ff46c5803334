/**
 * The one command-line parser of every command (`conformance <command>` and the mock), on
 * commander: a command's flags are a table (FlagSpec, name → type), its help a second table
 * (FlagHelp: meaning, default, environment variable), both derived from the command's declarations
 * (./setting.ts). Parsing gives the values keyed by the table's
 * names, exactly what was given (no defaults filled in: a setting's precedence — flag, environment,
 * config file, default — is decided by the settings, src/engine/settings.ts with its reader
 * src/engine/settings-reader.ts), and turns commander's
 * errors (with its "did you mean" for a flag) into UsageError, exit 2. The help text is commander's,
 * built from both tables.
 */
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from './errors.js';

/** A command's flags: `--name` → a string value, a boolean switch, or a repeatable string. */
export type FlagSpec = Record<
  string,
  { readonly type: 'string' | 'boolean'; readonly short?: string; readonly multiple?: boolean }
>;

/** The parsed values of a FlagSpec: present only when given. */
export type FlagValues<T extends FlagSpec> = {
  [K in keyof T]?: T[K]['type'] extends 'string'
    ? T[K]['multiple'] extends true
      ? string[]
      : string
    : T[K]['multiple'] extends true
      ? boolean[]
      : boolean;
};

/** What --help says of one flag. */
export interface FlagDoc {
  /** The value's placeholder (`URL`, `N`); string flags only. */
  readonly value?: string;
  readonly description: string;
  /** Shown as "(default: …)". */
  readonly default?: string;
  /** The environment variable the setting may also come from, shown as "(env: …)". */
  readonly env?: string;
}
export type FlagHelp<T extends FlagSpec> = { readonly [K in keyof T]: FlagDoc };

function commandOf(name: string, spec: FlagSpec, help?: Partial<Record<string, FlagDoc>>): Command {
  const cmd = new Command(name)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined })
    .helpOption(false)
    .allowExcessArguments(true)
    .showSuggestionAfterError(true);
  for (const [flag, s] of Object.entries(spec)) {
    const doc = help?.[flag];
    const short = s.short ? `-${s.short}, ` : '';
    // The default and the variable are words of the help only: a parsing command has no doc, so
    // it never fills in a default or reads the environment itself.
    const described =
      doc
      && [
        doc.description,
        doc.default !== undefined ? `(default: ${doc.default})` : '',
        doc.env ? `(env: ${doc.env})` : '',
      ]
        .filter(Boolean)
        .join(' ');
    const opt = new Option(`${short}--${flag}${s.type === 'string' ? ` <${doc?.value ?? 'value'}>` : ''}`, described);
    if (s.multiple) opt.argParser((v: string, prev: unknown) => [...((prev as string[] | undefined) ?? []), v]);
    cmd.addOption(opt);
  }
  return cmd;
}

/** The attribute commander keeps a flag under (`book-url` → bookUrl; `no-negative` → negative, false when given). */
const attributeOf = (flag: string) => flag.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Parse argv against a FlagSpec. Positionals are refused unless `positionals`. Bad input (an
 * unknown flag, with commander's "did you mean", a missing value) throws a UsageError naming it.
 */
export function parseFlags<T extends FlagSpec>(
  argv: readonly string[],
  spec: T,
  positionals = false,
): { values: FlagValues<T>; positionals: string[] } {
  const cmd = commandOf('command', spec);
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) throw new UsageError(e.message.replace(/^error: /, '').replace(/\n/g, ' '));
    throw e;
  }
  if (!positionals && cmd.args.length)
    throw new UsageError(`unexpected argument "${cmd.args[0]}": this command takes no positional arguments`);
  const opts = cmd.opts();
  const values: Record<string, unknown> = {};
  for (const flag of Object.keys(spec)) {
    const v = opts[attributeOf(flag)];
    if (flag.startsWith('no-')) {
      if (v === false) values[flag] = true;
    } else if (v !== undefined) {
      values[flag] = v;
    }
  }
  return { values: values as FlagValues<T>, positionals: cmd.args };
}

/**
 * The --help text of a command: its usage text as written (synopsis and prose), then "Options:",
 * every flag with its meaning, default and environment variable, laid out by commander.
 */
export function helpText<T extends FlagSpec>(usage: string, spec: T, help: FlagHelp<T>): string {
  const cmd = commandOf('command', spec, help);
  cmd.configureHelp({ helpWidth: 110, sortOptions: false });
  const text = cmd.helpInformation();
  return `${usage}\n\n${text.slice(text.indexOf('Options:')).trimEnd()}`;
}
