/**
 * Server-side reading of parameter values, shared by every binding of the mock: presence of
 * required parameters and the lexical forms of the SOAP types (section 4).
 */
import type { Operation, ParamType } from '../contract/catalogue.js';
import type { Binding } from './types.js';

export type ParamError = { readonly param: string; readonly reason: string };

const INT_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
// xs:dateTime, and a bare xs:date: the GET/POST date format is not shown, both are accepted.
const DATETIME_RE = /^-?\d{4,}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether a value is a valid lexical form of a parameter type ('' is never valid for a typed one). */
export function validParamValue(type: ParamType, value: string): boolean {
  const v = value.trim();
  switch (type) {
    case 'string':
      return true;
    case 'int':
      return INT_RE.test(v) && Number(v) >= -2147483648 && Number(v) <= 2147483647;
    case 'decimal':
      return DECIMAL_RE.test(v);
    case 'dateTime': {
      if (!DATETIME_RE.test(v)) return false;
      const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
      const day = new Date(Date.UTC(y, m - 1, d));
      return day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
    }
  }
}

/**
 * Check the parameters of a decoded request: present where the binding needs them (Binding.mayOmit), in their lexical
 * form.
 */
export function checkParams(
  op: Operation,
  binding: Binding,
  params: Record<string, string | undefined>,
): ParamError | undefined {
  for (const p of op.params) {
    const v = params[p.name];
    if (v === undefined) {
      if (!binding.mayOmit(p)) return { param: p.name, reason: `Missing parameter: ${p.name}.` };
      continue;
    }
    if (!validParamValue(p.type, v))
      return { param: p.name, reason: `Invalid value for parameter ${p.name}: "${v}" is not a valid ${p.type}.` };
  }
  return undefined;
}
