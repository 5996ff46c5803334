/**
 * Lexical spaces of the model's simple types, as XSD 1.0 defines them (libxml2 implements 1.0, so
 * the shape check and xsd_valid agree). All these types have whiteSpace="collapse": surrounding
 * XML whitespace is allowed, inner whitespace is not (except between intList items).
 */
import type { SimpleType } from '../contract/model.js';

const WS = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/**
 * XSD whitespace collapse for atomic values: strip surrounding XML whitespace (the usual value has none: no regular
 * expression then).
 */
export const collapse = (s: string): string =>
  s.length > 0 && !isWs(s.charCodeAt(0)) && !isWs(s.charCodeAt(s.length - 1)) ? s : s.replace(WS, '');

const INT_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DOUBLE_RE = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/;
const BOOLEAN_RE = /^(true|false|1|0)$/;
const DATETIME_RE = /^(-?)(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))?$/;

const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;

function daysIn(year: number, month: number): number {
  const y = Math.abs(year);
  if (month === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Why a (collapsed) value is not in the lexical space of xs:dateTime, or undefined. */
function dateTimeProblem(v: string): string | undefined {
  const m = DATETIME_RE.exec(v);
  if (!m) return 'not of the form YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]';
  const [, sign, y, mo, d, h, mi, s, frac, tz, tzh, tzm] = m;
  if (y!.length > 4 && y!.startsWith('0')) return 'a year of more than four digits has a leading zero';
  const year = Number(`${sign}${y}`);
  if (year === 0) return 'year 0000 does not exist in XSD 1.0';
  const month = Number(mo);
  if (month < 1 || month > 12) return `month ${mo} out of range 01..12`;
  const day = Number(d);
  // Negative years use the same divisibility rule as libxml2 (-0004 is a leap year, -0001 is not).
  if (day < 1 || day > daysIn(year, month)) return `day ${d} out of range for month ${mo}`;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && (!frac || /^\.0+$/.test(frac));
  if (hour > 23 && !endOfDay) return `hour ${h} out of range 00..23`;
  if (minute > 59) return `minute ${mi} out of range 00..59`;
  if (second > 59) return `second ${s} out of range 00..59`;
  if (tz && tz !== 'Z') {
    const th = Number(tzh);
    const tm = Number(tzm);
    if (tm > 59 || th > 14 || (th === 14 && tm !== 0)) return `time zone ${tz} out of range -14:00..+14:00`;
  }
  return undefined;
}

/**
 * Why a value is not a valid lexical form of the simple type, or undefined when it is. The value is
 * given as found (uncollapsed); '' is reported as empty by the caller before this is asked.
 */
export function lexicalProblem(type: SimpleType, raw: string): string | undefined {
  if (type === 'string') return undefined;
  const v = collapse(raw);
  switch (type) {
    case 'int': {
      if (!INT_RE.test(v)) return 'not an integer (optional sign, digits only)';
      if (v.length - (v.charCodeAt(0) === 0x2b || v.charCodeAt(0) === 0x2d ? 1 : 0) <= 9) return undefined; // at most 999,999,999: in range
      const n = BigInt(v);
      return n < INT_MIN || n > INT_MAX ? 'outside the xs:int range -2147483648..2147483647' : undefined;
    }
    case 'decimal':
      return DECIMAL_RE.test(v)
        ? undefined
        : /[eE]/.test(v) && DOUBLE_RE.test(v)
          ? 'exponent notation is not allowed in xs:decimal'
          : 'not a decimal (optional sign, digits, optional fraction)';
    case 'double':
      return DOUBLE_RE.test(v) ? undefined : 'not an xs:double (decimal, exponent, INF, -INF or NaN)';
    case 'boolean':
      return BOOLEAN_RE.test(v) ? undefined : 'not an xs:boolean (true, false, 1 or 0)';
    case 'dateTime':
      return dateTimeProblem(v);
    case 'intList': {
      if (v === '') return undefined;
      for (const item of v.split(/[ \t\r\n]+/)) {
        const p = lexicalProblem('int', item);
        if (p) return `item "${item.slice(0, 40)}" is ${p}`;
      }
      return undefined;
    }
  }
}

/** The XSD name of a simple type, for messages. */
export const xsdName = (t: SimpleType): string => (t === 'intList' ? 'list of xs:int' : `xs:${t}`);
