/**
 * What the generators of the mock's data (./generators.ts) share: a PRNG seeded by the request, the
 * language asked for, localised and filled-in texts, dates, money in a currency, an in-band Error.
 */
import { Rng, stableHash } from './rng.js';
import { BOOK, type Currency, type Localized } from './fixture-data.js';
import type { Operation } from '../contract/catalogue.js';
import type { DataObject, Value } from './serialize.js';

const CREDENTIAL_PARAMS = new Set(['userName', 'password']);

/** A PRNG seeded by a label and the request's parameters (credentials excluded, order-independent). */
export function rngFor(label: string, params: RawParams, names?: readonly string[]): Rng {
  const keys = (names ?? Object.keys(params))
    .filter((k) => !CREDENTIAL_PARAMS.has(k) && params[k] !== undefined)
    .sort();
  return new Rng(stableHash([label, ...keys.map((k) => `${k}=${params[k]!}`)].join('\u0000')));
}

type RawParams = Readonly<Record<string, string | undefined>>;

/** The language code a parameter asks for ('de', 'de-CH', 'DE_de' → 'de'); unknown → 'en'. */
export function languageOf(param: string | undefined): string {
  const m = /^\s*([A-Za-z]{2})/.exec(param ?? '');
  return m ? m[1]!.toLowerCase() : 'en';
}

export function loc(text: Localized, language: string): string {
  return text[language] ?? text.en;
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

export const DAY_MS = 86_400_000;
// Generated dates stay within years xs:dateTime writes without surprises.
export const MIN_DAY = Date.UTC(1900, 0, 1);
const MAX_DAY = Date.UTC(9998, 11, 1);

/** The UTC day (ms) of an xs:dateTime / xs:date lexical form, clamped to 1900..9998; undefined if unreadable. */
export function dayOf(v: string | undefined): number | undefined {
  const m = /^\s*(-?\d{4,})-(\d{2})-(\d{2})/.exec(v ?? '');
  if (!m) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Math.min(MAX_DAY, Math.max(MIN_DAY, d.getTime()));
}

/** xs:dateTime without a zone, as ASMX writes DateTime values. */
export function dateTime(ms: number, time = '00:00:00'): string {
  return `${new Date(ms).toISOString().slice(0, 10)}T${time}`;
}

function money(units: number, decimals: number): string {
  const neg = units < 0;
  const s = String(Math.abs(units)).padStart(decimals + 1, '0');
  const out = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
  return neg ? `-${out}` : out;
}

export function currency(code: string): Currency {
  const c = BOOK.currencies.find((x) => x.code === code);
  if (!c) throw new Error(`mock data: unknown currency ${code}`);
  return c;
}

/** A euro-cent amount in a currency, as a decimal lexical form with the currency's decimals. */
export function convert(euroCents: number, code: string): string {
  const c = currency(code);
  return money(Math.round((euroCents * Number(c.perEuro) * 10 ** c.decimals) / 100), c.decimals);
}

export function intParam(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*[+-]?\d+\s*$/.test(v)) return undefined;
  return Number.parseInt(v.trim(), 10);
}

export interface GenContext {
  readonly op: Operation;
  readonly params: RawParams;
  readonly language: string;
}
export type Generator = (ctx: GenContext) => Value;

export function inBandErrorResult(errorType: string, message: string): DataObject {
  return { Error: { ErrorType: errorType, Message: message } };
}
