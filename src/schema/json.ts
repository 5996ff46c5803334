/**
 * JSON Schema (2020-12) validation with ajv, for conformance.json, the expectations file, the
 * recording index and the config file (schemas/*.schema.json). ajv runs in strict mode: a keyword
 * it does not know is an error, so a schema cannot silently say more than is checked. Errors are
 * turned into "<JSON pointer>: <problem>" lines, the form the harness's messages always had.
 * `format` is an annotation here (as before ajv): the one format used, a report's `date-time`, is
 * written by the harness itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

let ajvInstance: Ajv2020 | undefined;
/**
 * ajv, loaded at its first use: most commands (a run without a config file, the embedded mock's
 * worker) validate no JSON, and loading it cost every start about 30 ms.
 */
function ajv(): Ajv2020 {
  if (!ajvInstance) {
    const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    ajvInstance = new Ajv({ allErrors: true, strict: true, verbose: true, validateFormats: false });
  }
  return ajvInstance;
}
/**
 * Compiled validators by schema text: a schema file read again is not compiled again (ajv refuses a second schema of
 * one $id).
 */
const compiled = new Map<string, ValidateFunction>();

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

const show = (v: unknown): string => JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…` : v);

/** One ajv error as "<JSON pointer>: <problem>". */
function describe(e: ErrorObject): string {
  const at = e.instancePath || '/';
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required property ${String(p.missingProperty)}`;
    case 'additionalProperties':
      return (
        `${e.instancePath}/${String(p.additionalProperty).replace(/~/g, '~0').replace(/\//g, '~1')}: `
        + `property not allowed`
      );
    case 'type':
      return `${at}: expected ${String(p.type).split(',').join(' or ')}, got ${typeOf(e.data)}`;
    case 'enum':
      return (
        `${at}: expected one `
        + `of ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}, `
        + `got ${JSON.stringify(e.data)}`
      );
    case 'const':
      return `${at}: expected ${JSON.stringify(p.allowedValue)}, got ${JSON.stringify(e.data)}`;
    case 'pattern':
      return `${at}: ${show(e.data)} does not match ${String(p.pattern)}`;
    case 'minLength':
      return `${at}: shorter than ${String(p.limit)} characters`;
    case 'minimum':
      return `${at}: ${String(e.data)} is less than ${String(p.limit)}`;
    case 'minItems':
      return `${at}: fewer than ${String(p.limit)} items`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}

/**
 * Validate value against schema; returns error strings "<JSON pointer>: <problem>", empty when valid.
 * Errors from the value are collected; problems with the schema itself (an unknown keyword) throw.
 */
export function validateJson(value: unknown, schema: JsonSchema): string[] {
  if (typeof schema === 'boolean') return schema ? [] : ['/: not allowed'];
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv().compile(schema);
    compiled.set(key, validate);
  }
  if (validate(value)) return [];
  // ajv reports the failed branch of an if/anyOf too; the branch's own errors say what is wrong.
  // Sorted by path (stable), so the messages come in the order of the document's places.
  const lines = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'anyOf').map(describe);
  const pathOf = (line: string) => line.slice(0, line.indexOf(': '));
  return lines.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
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
