/**
 * A setting as given, and what reads one: apart from ./settings.ts so the readers of one kind of
 * setting (./network-settings.ts) need nothing of the file that imports them.
 */
import { ConfigError, UsageError } from '../core/errors.js';
import type { RUN_SETTINGS } from './run-settings-table.js';

/**
 * One setting as given: its value and where it came from (a flag, an environment variable, or a
 * config key with its file), so that a message about a bad value names the place to fix it.
 */
export interface Sourced<T = unknown> {
  readonly value: T;
  readonly source: string;
  readonly fromFile: boolean;
}

/**
 * What reads a setting from `--flag`, then its environment variable, then its config key (./settings-reader.ts
 * Settings).
 */
export interface SettingReader {
  get(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced | undefined;
  string(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced<string> | undefined;
  /**
   * A declared setting (./run-settings-table.ts) that is a non-empty string, from its flag, variable and config key.
   */
  text(flag: keyof typeof RUN_SETTINGS): Sourced<string> | undefined;
}

/**
 * A bad value: a ConfigError for a config key (the file is wrong), else a UsageError; the message starts with where it
 * came from.
 */
export function bad(s: Pick<Sourced, 'source' | 'fromFile'>, message: string): never {
  throw new (s.fromFile ? ConfigError : UsageError)(`${s.source} ${message}`);
}

/** An environment variable's name, as a config key naming one must be. */
export const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
