/**
 * libxml2's errors as the validator (./xsd-validator.ts) reports them: the work-around for
 * libxml2's whitespace bug (an error it should not have reported is dropped), and the cap on how
 * many of one call's errors are kept as objects (the rest are counted).
 */
import libxml, { type Document } from 'libxmljs2';

export type LibxmlError = {
  message?: string;
  line?: number;
  column?: number;
  level?: number;
  code?: number;
  str1?: string;
  domain?: number;
};

/**
 * Work-around for a libxml2 bug: XSD collapses whitespace around the value of xs:int and
 * xs:dateTime (facet whiteSpace="collapse"), but libxml2 2.9 rejects " 42 " or "\n2024-01-01T00:00:00\n"
 * (it accepts them for xs:decimal, xs:double, xs:boolean). An error about such a value is dropped
 * when the value without its surrounding XML whitespace is valid for the same built-in type, checked
 * with libxml2 itself against a one-element schema per type.
 */
const RECHECKED_TYPES = [
  'int',
  'dateTime',
  'decimal',
  'double',
  'boolean',
  'integer',
  'long',
  'short',
  'date',
  'time',
] as const;
const ATOMIC_ERROR_CODE = 1824; // XML_SCHEMAV_CVC_DATATYPE_VALID_1_2_1
const ATOMIC_TYPE_RE = /is not a valid value of the atomic type 'xs:([A-Za-z]+)'\.$/;
const XML_WS_RE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
let builtinSchema: Document | undefined;
/** Verdicts of validTrimmed by type and value (a document repeats its values). */
const trimmedVerdicts = new Map<string, boolean>();

function validTrimmed(value: string, type: string): boolean {
  if (!(RECHECKED_TYPES as readonly string[]).includes(type)) return false;
  const trimmed = value.replace(XML_WS_RE, '');
  const key = `${type}\u0000${trimmed}`;
  const known = trimmedVerdicts.get(key);
  if (known !== undefined) return known;
  builtinSchema ??= libxml.parseXml(
    `<xs:schema `
      + `xmlns:xs="http://www.w3.org/2001/XMLSchema">${RECHECKED_TYPES.map((t) => `<xs:element name="${t}" type="xs:${t}"/>`).join('')}</xs:schema>`,
    { nonet: true },
  );
  const probe = libxml.parseXml(`<${type}>${trimmed.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${type}>`, {
    nonet: true,
    noent: false,
    huge: false,
  });
  const verdict = probe.validate(builtinSchema);
  if (trimmedVerdicts.size >= 4096) trimmedVerdicts.clear();
  trimmedVerdicts.set(key, verdict);
  return verdict;
}

/** An error libxml2 may have reported only because of its whitespace bug (the value has surrounding XML whitespace). */
function whitespaceCandidate(e: LibxmlError): boolean {
  return e.code === ATOMIC_ERROR_CODE && e.str1 !== undefined && e.str1.replace(XML_WS_RE, '') !== e.str1;
}

/** True for an error that only exists because of the libxml2 whitespace bug. */
export function whitespaceBugOnly(e: LibxmlError): boolean {
  if (!whitespaceCandidate(e)) return false;
  const type = ATOMIC_TYPE_RE.exec((e.message ?? '').trim())?.[1];
  return type !== undefined && validTrimmed(e.str1!, type);
}

/** Errors of one libxml2 call kept as objects; the others are only counted. */
export const MAX_ERRORS_KEPT = 1000;
/** Errors that may be the whitespace bug's, kept to be checked again (the rest are taken to be the bug's too). */
const MAX_CANDIDATES_KEPT = 200;

export interface ErrorTally {
  kept: number;
  candidates: number;
  dropped: number;
  byCode: Map<number, number>;
}

/**
 * Run a libxml2 call that reports its errors into fresh arrays (libxmljs2 builds a JavaScript Error
 * for each one and calls the array's `push`), keeping at most MAX_ERRORS_KEPT of them (and
 * MAX_CANDIDATES_KEPT whitespace-bug candidates) per array and counting the rest: a document with
 * millions of defects would otherwise hold millions of error objects. While the call runs no other
 * JavaScript does (it is synchronous), so `Array.prototype.push` is swapped for a filter and put
 * back at once; only an Error carrying libxml2's `domain` field is filtered, any other push goes
 * through unchanged. Errors are built without stack traces (libxml2's are not JavaScript's).
 */
export function withErrorCap<T>(tallies: Map<unknown[], ErrorTally>, call: () => T): T {
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const push = Array.prototype.push;
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  Array.prototype.push = function cappedPush(this: unknown[], ...items: unknown[]): number {
    const item = items[0];
    if (items.length !== 1 || !(item instanceof Error) || typeof (item as LibxmlError).domain !== 'number')
      return push.apply(this, items);
    const e = item as LibxmlError;
    let t = tallies.get(this);
    if (!t) tallies.set(this, (t = { kept: 0, candidates: 0, dropped: 0, byCode: new Map() }));
    if (whitespaceCandidate(e) ? t.candidates++ < MAX_CANDIDATES_KEPT : t.kept++ < MAX_ERRORS_KEPT)
      return push.call(this, e);
    if (!whitespaceCandidate(e)) {
      t.dropped++;
      t.byCode.set(e.code ?? 0, (t.byCode.get(e.code ?? 0) ?? 0) + 1);
    }
    return this.length;
  };
  try {
    return call();
  } finally {
    Array.prototype.push = push;
    Error.stackTraceLimit = stackLimit;
  }
}
