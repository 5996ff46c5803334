/**
 * Values in their XSD value space, as canonical strings: two lexical forms of one value (12.50 and
 * 12.5, +1 and 1, 1 and true, equal dateTimes in other time zones) give the same string. A value
 * that is not a valid lexical form of its type is returned as written, marked, so it never equals a
 * valid one by accident.
 */
import type { SimpleType } from '../contract/model.js';

const INVALID = '\u0000invalid:';
const INT_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const DOUBLE_RE = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/;
const DATETIME_RE = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

/** The length of the run of ASCII digits in `v` from `from`. */
function digitsAt(v: string, from: number): number {
  let i = from;
  while (i < v.length) {
    const c = v.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i - from;
}

/**
 * The length of the canonical form of `v` when that is a prefix of it, or -1: a decimal (an integer,
 * `fraction` false) with no sign but a minus on a value other than zero and no leading zero, whose
 * fraction, if any, loses only its trailing zeros (12.50 -> 12.5, 12.00 -> 12). The usual value of
 * a large answer is such, and is then read without a regular expression.
 */
function canonicalPrefix(v: string, fraction: boolean): number {
  const neg = v.charCodeAt(0) === 0x2d;
  const from = neg ? 1 : 0;
  const int = digitsAt(v, from);
  if (int === 0 || (int > 1 && v.charCodeAt(from) === 0x30)) return -1;
  const end = from + int;
  if (end === v.length) return neg && int === 1 && v.charCodeAt(from) === 0x30 ? -1 : end; // -0 is 0
  if (!fraction || v.charCodeAt(end) !== 0x2e) return -1;
  const frac = digitsAt(v, end + 1);
  if (frac === 0 || end + 1 + frac !== v.length) return -1;
  let last = v.length;
  while (v.charCodeAt(last - 1) === 0x30) last--;
  if (last === end + 1) {
    // No fraction left: -0.00 is 0 (read the long way).
    if (neg && int === 1 && v.charCodeAt(from) === 0x30) return -1;
    return end;
  }
  return last;
}

function canonInt(v: string): string | undefined {
  if (canonicalPrefix(v, false) === v.length) return v;
  if (!INT_RE.test(v)) return undefined;
  // Up to 15 characters a Number holds the value exactly (no BigInt for the usual id or count).
  return v.length <= 15 ? String(Number(v)) : BigInt(v).toString();
}

function canonDecimal(v: string): string | undefined {
  const end = canonicalPrefix(v, true);
  if (end >= 0) return end === v.length ? v : v.slice(0, end);
  const m = DECIMAL_RE.exec(v);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const int = m[2]!.replace(/^0+/, '') || '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const abs = frac ? `${int}.${frac}` : int;
  return m[1] === '-' && abs !== '0' ? `-${abs}` : abs;
}

function canonDouble(v: string): string | undefined {
  if (!DOUBLE_RE.test(v)) return undefined;
  if (v === 'INF' || v === '+INF') return 'INF';
  if (v === '-INF') return '-INF';
  if (v === 'NaN') return 'NaN';
  return String(Number(v));
}

function canonDateTime(v: string): string | undefined {
  const m = DATETIME_RE.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const fraction = (frac ?? '').replace(/0+$/, '');
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return undefined;
  if (
    Number(h) > 24
    || Number(mi) > 59
    || Number(s) > 59
    || (Number(h) === 24 && (Number(mi) > 0 || Number(s) > 0 || fraction))
  )
    return undefined;
  if (tz && tz !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    t -= sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6))) * 60_000;
  }
  const iso = new Date(t).toISOString().slice(0, 19);
  return `${iso}${fraction ? `.${fraction}` : ''}${tz ? 'Z' : ''}`;
}

/** The canonical form of a value of a simple type (surrounding whitespace collapsed, as XSD does). */
export function canonicalValue(type: SimpleType | 'enum', raw: string): string {
  if (type === 'string') return raw;
  const v = raw.trim();
  let out: string | undefined;
  switch (type) {
    case 'enum':
      out = v;
      break;
    case 'int':
      out = canonInt(v);
      break;
    case 'decimal':
      out = canonDecimal(v);
      break;
    case 'double':
      out = canonDouble(v);
      break;
    case 'boolean':
      out = v === 'true' || v === '1' ? 'true' : v === 'false' || v === '0' ? 'false' : undefined;
      break;
    case 'dateTime':
      out = canonDateTime(v);
      break;
    case 'intList': {
      const items = v.split(/\s+/).filter(Boolean).map(canonInt);
      out = items.every((x) => x !== undefined) ? items.join(' ') : undefined;
      break;
    }
  }
  return out ?? `${INVALID}${raw}`;
}

/** Text of content whose type is not shown: trimmed, and numbers compared as decimals. */
export function canonicalUntyped(raw: string): string {
  const v = raw.trim();
  return canonDecimal(v) ?? v;
}

/** For display: the canonical marker removed. */
export function displayValue(canonical: string): string {
  return canonical.startsWith(INVALID) ? canonical.slice(INVALID.length) : canonical;
}
