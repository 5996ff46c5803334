/**
 * Request cases: valid parameter sets per operation, from fixtures/cases/<Operation>.json, which a
 * config file can extend or replace for a real target. Credentials are never part of a case: they
 * come from the target configuration.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from '../core/json-file.js';
import { findOperation, OPERATIONS, type Operation } from '../contract/catalogue.js';
import { ConfigError } from '../core/errors.js';

export interface RequestCase {
  readonly id: string;
  readonly description?: string;
  readonly params: Readonly<Record<string, string>>;
}

export type CaseTable = ReadonlyMap<string, readonly RequestCase[]>;

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const CASES_DIR = join(FIXTURES_DIR, 'cases');

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Check one operation's case list; `where` names the source in error messages. */
export function parseCases(op: Operation, raw: unknown, where: string): RequestCase[] {
  if (!Array.isArray(raw)) throw new ConfigError(`${where}: "cases" of ${op.name} must be an array`);
  const seen = new Set<string>();
  return raw.map((c, i) => {
    const at = `${where}: ${op.name} case #${i + 1}`;
    if (typeof c !== 'object' || c === null) throw new ConfigError(`${at} must be an object with "id" and "params"`);
    const { id, description, params } = c as Record<string, unknown>;
    if (typeof id !== 'string' || !ID_RE.test(id))
      throw new ConfigError(`${at}: "id" must match ${ID_RE} (got ${JSON.stringify(id)})`);
    if (seen.has(id)) throw new ConfigError(`${at}: duplicate case id "${id}"`);
    seen.add(id);
    if (description !== undefined && typeof description !== 'string')
      throw new ConfigError(`${at} (${id}): "description" must be a string`);
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw new ConfigError(`${at} (${id}): "params" must be an object`);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      if (k === 'userName' || k === 'password')
        throw new ConfigError(
          `${at} (${id}): "${k}" must not be in a case: credentials come from the target configuration`,
        );
      if (!op.params.some((p) => p.name === k)) {
        throw new ConfigError(
          `${at} (${id}): ${op.name} has no parameter "${k}" (parameters: ${op.params.map((p) => p.name).join(', ')})`,
        );
      }
      if (typeof v !== 'string')
        throw new ConfigError(
          `${at} (${id}): parameter "${k}" must be a string (got ${JSON.stringify(v)}); every value is `
            + `sent in its lexical form`,
        );
      out[k] = v;
    }
    return { id, ...(description ? { description } : {}), params: out };
  });
}

/** The shipped cases, one file per operation; every operation must have at least one case. */
export function loadFixtureCases(dir = CASES_DIR): Map<string, RequestCase[]> {
  const table = new Map<string, RequestCase[]>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const name = file.slice(0, -5);
    const op = findOperation(name);
    if (!op) throw new ConfigError(`${join(dir, file)}: no operation named "${name}" in the catalogue`);
    const json = readJsonFile(join(dir, file), join(dir, file), (m) => new ConfigError(m));
    table.set(name, parseCases(op, (json as { cases?: unknown }).cases, join(dir, file)));
  }
  for (const op of OPERATIONS) {
    if (!table.get(op.name)?.length) throw new ConfigError(`${dir}: no request case for ${op.name}`);
  }
  return table;
}

/**
 * Merge config-file cases into the shipped ones: 'extend' adds cases (a case with an existing id
 * replaces it), 'replace' uses only the config's cases for the operations it names.
 */
export function mergeCases(
  base: CaseTable,
  extra: Record<string, unknown>,
  mode: 'extend' | 'replace',
  where: string,
): Map<string, RequestCase[]> {
  const out = new Map<string, RequestCase[]>([...base].map(([k, v]) => [k, [...v]]));
  for (const [name, raw] of Object.entries(extra)) {
    const op = findOperation(name);
    if (!op) throw new ConfigError(`${where}: cases for unknown operation "${name}" (operations are case-sensitive)`);
    const cases = parseCases(op, raw, where);
    if (mode === 'replace') {
      if (cases.length === 0) throw new ConfigError(`${where}: cases of ${name} would be empty`);
      out.set(name, cases);
    } else {
      const list = out.get(name) ?? [];
      for (const c of cases) {
        const i = list.findIndex((x) => x.id === c.id);
        if (i >= 0) list[i] = c;
        else list.push(c);
      }
      out.set(name, list);
    }
  }
  return out;
}
