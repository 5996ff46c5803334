/**
 * The extra headers of the network settings (./network-settings.ts): `--header 'Name: value'`
 * (repeatable), CONFORMANCE_HEADERS (one per line) and `target.headers`; `Name: env:VAR` and
 * `{ "env": "VAR" }` take the value from the variable VAR, a secret. Each checked and named by its source.
 */
import type { ExtraHeader } from '../core/types.js';
import { NETWORK_ENV } from './run-settings-table.js';
import { bad, VARIABLE, type SettingReader as Settings, type Sourced } from './sourced.js';

/**
 * Headers the binding or the transport sets: a request must keep its own Content-Type and SOAPAction
 * (the contract's rows test exactly those), and framing and proxy headers are the transport's.
 */
const OWN_HEADERS = new Set([
  'content-type',
  'soapaction',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'upgrade',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** A header's name, checked: an HTTP token, not one the binding or the transport sets. */
function headerName(s: Pick<Sourced, 'source' | 'fromFile'>, name: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    bad(s, `names an invalid header ${JSON.stringify(name)} (letters, digits and !#$%&'*+.^_\`|~-)`);
  if (OWN_HEADERS.has(name.toLowerCase())) {
    bad(
      s,
      `sets ${name}, which the harness sets itself (each binding's Content-Type and SOAPAction are what `
        + `the contract tests; framing and proxy headers are the transport's)`,
    );
  }
  return name;
}

/** A header's value from the variable it names: unset is bad usage (an empty key would be sent). */
function fromVariable(
  s: Pick<Sourced, 'source' | 'fromFile'>,
  name: string,
  variable: string,
  env: NodeJS.ProcessEnv,
): ExtraHeader {
  if (!VARIABLE.test(variable))
    bad(
      s,
      `names ${JSON.stringify(variable)} for ${name}, which is not an environment variable's name (letters, digits, _)`,
    );
  const value = env[variable];
  if (value === undefined || value === '')
    bad(s, `takes ${name} from the environment variable ${variable}, which is not set`);
  return { name, value: checkValue(s, name, value, variable), variable };
}

function checkValue(s: Pick<Sourced, 'source' | 'fromFile'>, name: string, value: string, variable?: string): string {
  if (/[\r\n\u0000]/.test(value))
    bad(
      s,
      `gives ${name} a value with a line break or NUL${variable ? ` (from ${variable})` : ''}: not a `
        + `valid header value`,
    );
  return value.trim();
}

/** The extra headers: the config's, then each --header (a flag replaces a config header of the same name). */
export function headersOf(in_: Settings, given: readonly string[] | undefined, env: NodeJS.ProcessEnv): ExtraHeader[] {
  const out = new Map<string, ExtraHeader>();
  const config = in_.get(undefined, undefined, 'target.headers');
  if (config) {
    if (typeof config.value !== 'object' || config.value === null || Array.isArray(config.value))
      bad(config, 'must be an object of header names to values');
    for (const [n, v] of Object.entries(config.value as Record<string, unknown>)) {
      const at = { source: `${config.source}.${n}`, fromFile: config.fromFile };
      const name = headerName(at, n);
      if (typeof v === 'string') {
        if (/^env:/.test(v))
          bad(
            at,
            `is the string ${JSON.stringify(v)}: in a config file a header from a variable is written { `
              + `"env": "${v.slice(4)}" } (a string is sent as it is)`,
          );
        out.set(name.toLowerCase(), { name, value: checkValue(at, name, v) });
      } else if (
        typeof v === 'object'
        && v !== null
        && !Array.isArray(v)
        && typeof (v as { env?: unknown }).env === 'string'
        && Object.keys(v).length === 1
      ) {
        out.set(name.toLowerCase(), fromVariable(at, name, (v as { env: string }).env, env));
      } else {
        bad(at, 'must be a string (the value) or { "env": "VARIABLE" } (the value from that environment variable)');
      }
    }
  }
  const seen = new Set<string>();
  // The flags, else the variable's lines (flags beat the environment, as for every setting).
  const variable = NETWORK_ENV.header;
  const lines = given?.length
    ? given.map((h) => ({ h, from: '--header' }))
    : (env[variable] ?? '')
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '')
        .map((h) => ({ h, from: `environment variable ${variable}:` }));
  for (const { h, from } of lines) {
    const at = { source: `${from} ${JSON.stringify(h.replace(/:\s*(?!env:)[\s\S]*$/, ': …'))}`, fromFile: false };
    const m = /^([^:]*):([\s\S]*)$/.exec(h);
    if (!m) bad(at, 'must be "Name: value" (or "Name: env:VARIABLE" for a value from an environment variable)');
    const name = headerName(at, m[1]!.trim());
    if (seen.has(name.toLowerCase())) bad(at, `gives ${name} a second time`);
    seen.add(name.toLowerCase());
    const value = m[2]!.trim();
    const variable = /^env:(.*)$/.exec(value)?.[1];
    out.set(
      name.toLowerCase(),
      variable !== undefined ? fromVariable(at, name, variable, env) : { name, value: checkValue(at, name, value) },
    );
  }
  return [...out.values()];
}
