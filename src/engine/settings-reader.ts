/**
 * What reads a setting from `--flag`, then its environment variable, then its config key, naming
 * where each value came from, and the plain checks of a value (a URL, a namespace, a report
 * directory, a list of known names), each message naming that place. Apart from ./settings.ts, which
 * resolves the run's settings with them.
 */
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import { reportDirProblem } from '../report/paths.js';
import type { Json } from './config-file.js';
import type { SettingCheck, SettingDeclaration } from '../core/setting.js';
import { RUN_SETTINGS } from './run-settings-table.js';
import { bad, type SettingReader, type Sourced } from './sourced.js';

export { bad };

/** A flag of `run` (./run-settings-table.ts RUN_SETTINGS). */
export type RunFlag = keyof typeof RUN_SETTINGS;

/**
 * The places of a declared setting left out of a reading: its flag (a `--no-x` switch is read apart),
 * its variable, or its config key (read apart where the key holds more than the flag, as `bookings`).
 */
export interface Only {
  readonly flag?: false;
  readonly env?: false;
  readonly key?: false;
}

/** Where a declared setting is given: its flag, variable and config key, as its declaration says. */
function placeOf(flag: RunFlag, only: Only = {}): [string | undefined, string | undefined, string | undefined] {
  const d: SettingDeclaration = RUN_SETTINGS[flag];
  return [
    only.flag === false ? undefined : flag,
    only.env === false ? undefined : d.env,
    only.key === false ? undefined : d.key,
  ];
}

/** Reads settings from flags, then environment variables, then the config file, naming each source. */
export class Settings implements SettingReader {
  constructor(
    private readonly flags: Record<string, unknown>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly file: Json,
    private readonly where: string,
  ) {}

  /** The first given of `--flag`, the environment variable and the config key (`target.x` or a top-level key). */
  get(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced | undefined {
    const fv = flag === undefined ? undefined : this.flags[flag];
    if (fv !== undefined) return { value: fv, source: `--${flag}`, fromFile: false };
    const ev = envName === undefined ? undefined : this.env[envName];
    if (ev !== undefined && ev !== '') return { value: ev, source: `environment variable ${envName}`, fromFile: false };
    if (key === undefined) return undefined;
    const [head, tail] = key.startsWith('target.') ? ['target', key.slice(7)] : [key, undefined];
    const container = tail === undefined ? this.file : ((this.file.target ?? {}) as Json);
    const cv = container[tail ?? head];
    return cv === undefined ? undefined : { value: cv, source: `${this.where}: ${key}`, fromFile: true };
  }

  string(flag: string | undefined, envName: string | undefined, key: string | undefined): Sourced<string> | undefined {
    const s = this.get(flag, envName, key);
    if (s === undefined) return undefined;
    if (typeof s.value !== 'string' || s.value === '')
      bad(s, `must be a non-empty string (got ${JSON.stringify(s.value)})`);
    return s as Sourced<string>;
  }

  /**
   * A declared setting (./run-settings-table.ts) as given: its flag, variable and config key, unless left out by
   * `only`.
   */
  given(flag: RunFlag, only?: Only): Sourced | undefined {
    return this.get(...placeOf(flag, only));
  }

  /** A declared setting that is a non-empty string. */
  text(flag: RunFlag, only?: Only): Sourced<string> | undefined {
    return this.string(...placeOf(flag, only));
  }

  /** A declared list: a comma-separated string (a flag, a variable) or an array of strings (a config key). */
  list(flag: RunFlag): Sourced<string[]> | undefined {
    const s = this.given(flag);
    if (s === undefined) return undefined;
    if (typeof s.value === 'string')
      return {
        ...s,
        value: s.value
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      };
    if (Array.isArray(s.value) && s.value.every((x) => typeof x === 'string')) return s as Sourced<string[]>;
    return bad(s, 'must be a comma-separated string or an array of strings');
  }

  /** A declared whole number, within the bounds its declaration's check gives. */
  int(flag: RunFlag): number | undefined {
    const check: SettingCheck = RUN_SETTINGS[flag].check;
    if (check.kind !== 'int') throw new Error(`--${flag} is not declared a whole number`);
    const { min, max } = check;
    const s = this.given(flag);
    if (s === undefined) return undefined;
    const v = s.value;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      bad(s, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)})`);
    return n;
  }

  /** A declared percentage, 0 to 100 ("20", "20%", "2.5"), from a flag, an environment variable or a config key. */
  percent(flag: RunFlag): number | undefined {
    const s = this.given(flag);
    if (s === undefined) return undefined;
    const v = s.value;
    const n = percentIn(v);
    if (!(n >= 0 && n <= 100)) bad(s, `must be a percentage from 0 to 100, as 20 or 20% (got ${JSON.stringify(v)})`);
    return n;
  }

  /** A declared switch: the flag (true when given), its variable (true/false, 1/0, yes/no), or the config key. */
  bool(flag: RunFlag, only?: Only): boolean | undefined {
    const s = this.given(flag, only);
    if (s === undefined) return undefined;
    if (typeof s.value === 'string' && !s.fromFile) {
      const v = s.value.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return true;
      if (['false', '0', 'no', 'off'].includes(v)) return false;
      bad(s, `must be true or false (got ${JSON.stringify(s.value)})`);
    }
    if (typeof s.value !== 'boolean') bad(s, 'must be true or false');
    return s.value as boolean;
  }
}

/**
 * A URL with its user-info hidden: everything up to the last "@" may be it (a password can hold "/", ":", "@" or
 * spaces).
 */
function hideUserInfo(v: string): string {
  return v.replace(/\/\/.*@/s, '//***@');
}

export function url(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  // "localhost:8942" parses as a URL of scheme "localhost:", and "example.com" not at all: a host without "http://".
  if (/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d+)?(\/\S*)?$/.test(s.value) && /[.:]/.test(s.value)) {
    return bad(
      s,
      `has no scheme: ${JSON.stringify(hideUserInfo(s.value))} needs http:// or https:// in front (e.g. `
        + `http://${hideUserInfo(s.value).replace(/^\/+/, '')})`,
    );
  }
  let u: URL;
  try {
    u = new URL(s.value);
  } catch {
    return bad(s, `is not a valid URL: ${JSON.stringify(hideUserInfo(s.value))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') bad(s, `must be an http or https URL (got ${u.protocol})`);
  if (u.search || u.hash) bad(s, 'must be a base URL without query or fragment');
  return s.value.replace(/\/+$/, '');
}

export function namespace(s: Sourced<string> | undefined): string | undefined {
  if (s === undefined) return undefined;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(s.value))
    bad(s, `must be an absolute URI (got ${JSON.stringify(s.value)})`);
  return s.value;
}

/** The report directory, checked before anything is sent (a run must never be lost to a bad path). */
export function reportDir(s: Sourced<string> | undefined): string {
  const dir = s?.value ?? 'reports';
  const problem = reportDirProblem(dir);
  if (problem && s) bad(s, `cannot hold the reports: ${problem}`);
  if (problem)
    throw new UsageError(`the default report directory cannot hold the reports: ${problem}; pass --report-dir DIR`);
  return dir;
}

/** The number a percentage is written as ("20", "20%", " 2.5 ", or a number), NaN for anything else. */
export function percentIn(v: unknown): number {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^\s*\d+(\.\d+)?\s*%?\s*$/.test(v) ? Number(v.replace('%', '').trim()) : NaN;
}

/** Names from a list setting, each a known one, none twice; a near miss gets a "did you mean". */
export function knownNames<T>(
  s: Sourced<string[]>,
  what: string,
  known: readonly string[],
  find: (n: string) => T | undefined,
): T[] {
  const seen = new Set<string>();
  const out = s.value.map((n) => {
    const hit = find(n);
    if (hit === undefined)
      bad(s, `names an unknown ${what} "${n}"${didYouMean(n, known)} (${what}s: ${known.join(', ')})`);
    if (seen.has(n)) bad(s, `names the ${what} ${n} twice`);
    seen.add(n);
    return hit;
  });
  if (out.length === 0) bad(s, `names no ${what}`);
  return out;
}
