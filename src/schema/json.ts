/**
 * A validator for the subset of JSON Schema (2020-12) that schemas/conformance-report.schema.json
 * uses, so a report can be checked without a schema library: type, enum, const, properties,
 * required, additionalProperties, items, minItems, minimum, minLength, pattern, local $ref.
 * A keyword it does not know is an error, so the schema cannot silently outgrow the validator.
 */
import { readFileSync } from 'node:fs';

export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

const KNOWN = new Set([
  '$schema', '$id', '$defs', '$ref', 'title', 'description', 'format', 'type', 'enum', 'const', 'properties',
  'required', 'additionalProperties', 'items', 'minItems', 'minimum', 'minLength', 'pattern',
]);

/** URL of the report schema in the repository. */
export const REPORT_SCHEMA_URL = new URL('../../schemas/conformance-report.schema.json', import.meta.url);

let cached: Record<string, unknown> | undefined;

/** The conformance.json schema, read once. */
export function reportSchema(): Record<string, unknown> {
  cached ??= JSON.parse(readFileSync(REPORT_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  return cached;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function resolveRef(root: Record<string, unknown>, ref: string): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}: only local references`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
  return node as JsonSchema;
}

/**
 * Validate value against schema; returns error strings "<JSON pointer>: <problem>", empty when valid.
 * Errors from the value are collected; problems with the schema itself throw.
 */
export function validateJson(value: unknown, schema: JsonSchema, root: Record<string, unknown> = schema as Record<string, unknown>): string[] {
  const errors: string[] = [];
  const visit = (v: unknown, s: JsonSchema, at: string): void => {
    if (s === true) return;
    if (s === false) { errors.push(`${at || '/'}: not allowed`); return; }
    for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} is not supported by this validator`);
    if (typeof s.$ref === 'string') visit(v, resolveRef(root, s.$ref), at);
    const where = at || '/';
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => typeMatches(v, t))) {
        errors.push(`${where}: expected ${types.join(' or ')}, got ${typeOf(v)}`);
        return;
      }
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => e === v)) {
      errors.push(`${where}: expected one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${JSON.stringify(v)}`);
    }
    if ('const' in s && s.const !== v) errors.push(`${where}: expected ${JSON.stringify(s.const)}, got ${JSON.stringify(v)}`);
    if (typeof v === 'string') {
      if (typeof s.minLength === 'number' && [...v].length < s.minLength) errors.push(`${where}: shorter than ${s.minLength} characters`);
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) {
        errors.push(`${where}: ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v)} does not match ${s.pattern}`);
      }
    }
    if (typeof v === 'number' && typeof s.minimum === 'number' && v < s.minimum) errors.push(`${where}: ${v} is less than ${s.minimum}`);
    if (Array.isArray(v)) {
      if (typeof s.minItems === 'number' && v.length < s.minItems) errors.push(`${where}: fewer than ${s.minItems} items`);
      if (s.items !== undefined) v.forEach((item, i) => visit(item, s.items as JsonSchema, pointer(at, i)));
    }
    if (typeOf(v) === 'object') {
      const obj = v as Record<string, unknown>;
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      if (Array.isArray(s.required)) {
        for (const k of s.required as string[]) if (!(k in obj)) errors.push(`${where}: missing required property ${k}`);
      }
      for (const [k, child] of Object.entries(obj)) {
        if (k in props) visit(child, props[k]!, pointer(at, k));
        else if (s.additionalProperties === false) errors.push(`${pointer(at, k)}: property not allowed`);
        else if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
          visit(child, s.additionalProperties as JsonSchema, pointer(at, k));
        }
      }
    }
  };
  visit(value, schema, '');
  return errors;
}

/** Validate a parsed conformance.json against the report schema; empty when valid. */
export function validateReport(value: unknown): string[] {
  return validateJson(value, reportSchema());
}

/** Whether a target password value is a redaction marker (the schema's definition). */
export function isRedactionMarker(password: string): boolean {
  const defs = reportSchema().$defs as Record<string, { pattern: string }>;
  return new RegExp(defs.redacted!.pattern, 'u').test(password);
}
