/**
 * The config file (and the library's settings object): read, and checked against
 * schemas/config.schema.json; unknown keys with a "did you mean", and the passwords a file must not
 * hold. Apart from ./settings.ts, which resolves what the file gives with the flags and variables.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { readJsonFile } from '../core/json-file.js';
import { didYouMean } from '../core/suggest.js';
import { validateJson } from '../schema/json.js';
import { OTHER_PASSWORD_VARIABLE } from '../transport/curl.js';
import { PROXY_PASSWORD_VARIABLE } from '../transport/proxy.js';

export type Json = Record<string, unknown>;

export function readConfigFile(path: string, where = `config file ${path}`): { file: Json; problems: string[] } {
  const json = readJsonFile(path, where, (m) => new ConfigError(m));
  return { file: json as Json, problems: checkConfigObject(json, where) };
}

/** The config file's JSON Schema, published for editors and used here. */
export const CONFIG_SCHEMA_URL = new URL('../../schemas/config.schema.json', import.meta.url);
let configSchema: Record<string, unknown> | undefined;

/** "/target/bookUrl" → "target.bookUrl", "/cases/GetMeals/0/id" → "cases.GetMeals[0].id". */
const keyOf = (pointer: string) =>
  pointer
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((a, k) => (/^\d+$/.test(k) ? `${a}[${k}]` : a ? `${a}.${k}` : k), '');

/**
 * Check a config file (or runConformance's settings) against schemas/config.schema.json. Its
 * shape is checked here: the top level, unknown keys (with a "did you mean"), a password in the
 * file. A bad value is returned, not thrown: the settings checks name it first in the words they
 * use for a flag or a variable too (resolveSettings), and the schema's message stands for what
 * they do not check.
 */
export function checkConfigObject(json: unknown, where: string, allowPassword = false): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError(`${where}: the top level must be an object`);
  configSchema ??= JSON.parse(readFileSync(CONFIG_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  const props = configSchema.properties as Record<string, { properties?: Record<string, unknown> }>;
  const target = (json as Json).target;
  const rest =
    allowPassword && typeof target === 'object' && target !== null
      ? { ...json, target: { ...target, password: undefined, otherPassword: undefined, proxyPassword: undefined } }
      : json;
  if (!allowPassword && typeof target === 'object' && target !== null && 'password' in target) {
    throw new ConfigError(
      `${where}: target.password is not accepted in a file (files get committed); use --password, `
        + `CONFORMANCE_PASSWORD or target.passwordEnv`,
    );
  }
  if (!allowPassword && typeof target === 'object' && target !== null && 'otherPassword' in target)
    throw new ConfigError(OTHER_PASSWORD_IN_FILE(where));
  if (!allowPassword && typeof target === 'object' && target !== null && 'proxyPassword' in target)
    throw new ConfigError(PROXY_PASSWORD_IN_FILE(where));
  const problems: string[] = [];
  for (const line of validateJson(JSON.parse(JSON.stringify(rest)), configSchema)) {
    const at = line.slice(0, line.indexOf(': '));
    const problem = line.slice(line.indexOf(': ') + 2);
    if (problem === 'property not allowed') {
      const key = keyOf(at);
      const parent = key.includes('.') ? props[key.slice(0, key.lastIndexOf('.'))]?.properties : props;
      const known = Object.keys(parent ?? {}).filter((k) => k !== '$schema');
      const name = key.slice(key.lastIndexOf('.') + 1);
      throw new ConfigError(
        `${where}: unknown key `
          + `"${key}"${didYouMean(name, known)}${known.length ? ` (known: ${known.join(', ')})` : ''}`,
      );
    }
    problems.push(`${where}: ${at === '/' ? 'the file' : keyOf(at)}: ${problem}`);
  }
  return problems;
}

/** The message refusing the second account's password in a file, as the first's is refused. */
export const OTHER_PASSWORD_IN_FILE = (where: string) =>
  `${where}: target.otherPassword is not accepted in a file (files get committed); `
  + `use ${OTHER_PASSWORD_VARIABLE} or name another variable with target.otherPasswordEnv`;

/** The message refusing the proxy's password in a file: the user in target.proxy, the password in a variable. */
export const PROXY_PASSWORD_IN_FILE = (where: string) =>
  `${where}: target.proxyPassword is not accepted in a file (files get committed); name the user in `
  + `target.proxy (http://user@host:port) and put the password in ${PROXY_PASSWORD_VARIABLE}, or name `
  + `another variable with target.proxyPasswordEnv`;
