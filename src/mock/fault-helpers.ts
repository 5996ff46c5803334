/**
 * The small builders the entries of the fault catalogue (./faults.ts) share: hooks that edit a result
 * with data, rename or insert elements in the serialised text, let a refused call in, wrap the store
 * of a stateful fault, process a request's DTD as a careless parser does, or build a whole other
 * answer. Each serves the entries; none is a fault by itself.
 */
import { binding as bindingModule } from '../bindings/index.js';
import type { OutgoingResponse } from '../bindings/types.js';
import { findOperation } from '../contract/catalogue.js';
import { resolveOperation, type Credentials } from './data.js';
import type { FaultContext, MockResponse, StateFaultContext } from './fault-types.js';
import { serializeResult, type Value } from './serialize.js';
import type { BookingStore } from './state.js';

type RawParams = Readonly<Record<string, string | undefined>>;

/** The DOCTYPE of a request (its internal subset) after an optional XML declaration. */
const DOCTYPE_AT_START = /^(\uFEFF?\s*(?:<\?xml[^?]*\?>)?\s*)<!DOCTYPE\s+[^[>]*\[([\s\S]*?)\]\s*>/;
/**
 * What a fault's parser puts where an external entity stood (its params hook reads it as the user name the listener
 * served).
 */
export const FETCHED_MARKER = 'mock-external-entity-fetched';

/**
 * A parser that processes a request's DTD, as a careless service's does (issue 42): the DOCTYPE is
 * taken out and each `&name;` its internal subset declares is replaced, once, by its text (an
 * internal entity: its literal, character references read; one in another is not expanded again,
 * nor is any declared beside more than a few). An external entity is left empty, unless `fetch`:
 * then its URL is fetched (a real GET, only http://127.0.0.1 or localhost, 2 s at most, not awaited:
 * the answer cannot wait) and it stands as FETCHED_MARKER. Undefined: no DOCTYPE.
 */
export function processDoctype(body: string, fetch: boolean): string | undefined {
  const m = DOCTYPE_AT_START.exec(body);
  if (!m) return undefined;
  const texts = new Map<string, string>();
  for (const e of m[2]!.matchAll(/<!ENTITY\s+([\w.-]+)\s+(?:"([^"%&]*(?:&#\d+;[^"%&]*)*)"|SYSTEM\s+"([^"]*)")\s*>/g)) {
    if (texts.size >= 4) break;
    if (e[2] !== undefined) {
      texts.set(
        e[1]!,
        e[2].replace(/&#(\d+);/g, (_x, d: string) => String.fromCodePoint(Number(d))),
      );
    } else if (fetch && isLocalHttp(e[3]!)) {
      void globalThis
        .fetch(e[3]!, { signal: AbortSignal.timeout(2000) })
        .then(
          (r) => r.arrayBuffer(),
          () => undefined,
        )
        .catch(() => undefined);
      texts.set(e[1]!, FETCHED_MARKER);
    } else {
      texts.set(e[1]!, '');
    }
  }
  const rest = body.slice(m[0].length);
  return m[1]! + rest.replace(/&([\w.-]+);/g, (all, name: string) => texts.get(name) ?? all);
}

/** http:// at 127.0.0.1 or localhost: the only URLs a fault of the mock ever fetches. */
function isLocalHttp(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost');
  } catch {
    return false;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: fault edits reach into result data freely
type Draft = any;

/** A value hook editing a copy of a result with data (other responses untouched). */
export const edit =
  (fn: (v: Draft, ctx: FaultContext) => void) =>
  (v: Value, ctx: FaultContext): Value => {
    if (ctx.kind !== 'data' || v === null || typeof v !== 'object') return v;
    const copy = structuredClone(v) as Draft;
    fn(copy, ctx);
    return copy as Value;
  };

/** A hook applied only to results with data. */
export const onData =
  <T>(fn: (x: T, ctx: FaultContext) => T) =>
  (x: T, ctx: FaultContext): T =>
    ctx.kind === 'data' ? fn(x, ctx) : x;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rename the outermost element of a serialised element (any prefix kept). */
export function renameRoot(xml: string, from: string, to: string): string {
  return xml
    .replace(new RegExp(`^<((?:[\\w.-]+:)?)${escapeRegExp(from)}(?=[\\s/>])`), `<$1${to}`)
    .replace(new RegExp(`</((?:[\\w.-]+:)?)${escapeRegExp(from)}>$`), `</$1${to}>`);
}

/** Rename every element of that local name. */
export function renameAll(xml: string, from: string, to: string): string {
  return xml.replace(new RegExp(`<(/?)((?:[\\w.-]+:)?)${escapeRegExp(from)}(?=[\\s/>])`, 'g'), `<$1$2${to}`);
}

/** The first complete element of that local name (simple content), or undefined. */
export function firstElement(xml: string, local: string): string | undefined {
  return new RegExp(
    `<((?:[\\w.-]+:)?)${escapeRegExp(local)}(?:\\s[^>]*)?(?:/>|>[^<]*</\\1${escapeRegExp(local)}>)`,
  ).exec(xml)?.[0];
}

/** Insert text just before the closing tag of the outermost element. */
export function beforeClose(xml: string, insert: string): string {
  return xml.replace(/(<\/[^>]+>)$/, `${insert}$1`);
}

export const stripDeclaration = (body: string) => body.replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
export const toMock = (r: OutgoingResponse): MockResponse => ({ status: r.status, headers: r.headers, body: r.body });

/** A params hook turning a call with wrong credentials into one with the mock's credentials. */
export const rightCredentials = (p: RawParams, c: { credentials: Credentials }): RawParams =>
  p.password === c.credentials.password && p.userName === c.credentials.user
    ? p
    : { ...p, userName: c.credentials.user, password: c.credentials.password };

/**
 * A params hook letting the second account act as the first (who owns every booking): a service that
 * checks the credentials, then looks the booking up without asking whose it is.
 */
export const ignoresOwnership = (p: RawParams, c: { credentials: Credentials; other?: Credentials }): RawParams =>
  c.other !== undefined && p.userName === c.other.user && p.password === c.other.password
    ? { ...p, userName: c.credentials.user, password: c.credentials.password }
    : p;

/** A params hook giving an unparsable or missing typed parameter a default, as a lax server would. */
export const defaultParam =
  (name: string, fallback: string, valid: (v: string) => boolean) =>
  (p: RawParams): RawParams =>
    p[name] === undefined || !valid(p[name]!) ? { ...p, [name]: fallback } : p;
export const isInt = (v: string) => /^\s*[+-]?\d+\s*$/.test(v);

/** The complete answer of another operation to a call with the right credentials, as `binding` writes it. */
export function answerOfOther(name: string, c: FaultContext): MockResponse {
  const other = findOperation(name)!;
  const ns = c.namespaces[other.ns];
  const outcome = resolveOperation(
    other,
    { userName: c.credentials.user, password: c.credentials.password, language: c.params.language },
    c.credentials,
  );
  const value = outcome.kind === 'result' ? outcome.value : null;
  const b = bindingModule(c.binding);
  return toMock(
    b.encodeResult(other, serializeResult(other, value, { ns, declareNamespace: b.envelopeNs === undefined }), ns),
  );
}
/** Every parameter value but the credentials, mapped. */
export const mapStrings = (p: RawParams, f: (v: string) => string): RawParams =>
  Object.fromEntries(
    Object.entries(p).map(([k, v]) => [k, v === undefined || k === 'userName' || k === 'password' ? v : f(v)]),
  );

/** A dateTime at 22:00 or later moved to the next day, the time kept (other values as they are). */
export function nextDayIfLate(v: string | undefined): string | undefined {
  const m = v === undefined ? null : /^(\s*)(\d{4}-\d{2}-\d{2})T(2[2-3]):(.*)$/s.exec(v);
  if (!m) return v;
  const next = new Date(Date.parse(`${m[2]}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return `${m[1]}${next}T${m[3]}:${m[4]}`;
}
export const isDateTime = (v: string) => /^\s*\d{4}-\d{2}-\d{2}/.test(v);

/**
 * A store passing every call through to `s` (a class instance's methods are not own properties: spread would lose
 * them).
 */
function through(s: BookingStore): BookingStore {
  return {
    specialRequest: (id) => s.specialRequest(id),
    setSpecialRequest: (id, text) => s.setSpecialRequest(id, text),
    isCancelled: (id) => s.isCancelled(id),
    cancel: (id) => s.cancel(id),
    isTransferCancelled: (id, email) => s.isTransferCancelled(id, email),
    cancelTransfer: (id, email) => s.cancelTransfer(id, email),
    lastSpecialRequest: () => s.lastSpecialRequest(),
    cancelledBookings: () => s.cancelledBookings(),
    cancelledTransfers: () => s.cancelledTransfers(),
    memory: (name) => s.memory(name),
  };
}

/** A state hook: the store with the methods `fn` gives replaced. */
export const store =
  (fn: (s: BookingStore, ctx: StateFaultContext) => Partial<BookingStore>) =>
  (s: BookingStore, ctx: StateFaultContext): BookingStore => ({ ...through(s), ...fn(s, ctx) });

/**
 * The booking id after this one: its last run of digits plus one ("BK-2025-0042" → "BK-2025-0043", "100234" →
 * "100235").
 */
export function nextBookingId(id: string): string {
  const t = id.trim();
  const m = /^(.*?)(\d+)(\D*)$/s.exec(t);
  if (!m) return `${t}1`;
  return `${m[1]}${(BigInt(m[2]!) + 1n).toString().padStart(m[2]!.length, '0')}${m[3]}`;
}
/**
 * How long a race fault's unlocked change stays invisible to other calls: simultaneous calls fall in it, calls in turn
 * on a loaded machine may too (harmless: a second cancellation may go either way).
 */
export const RACE_WINDOW_MS = 1000;
/** Whether `key` was set in `memory` less than RACE_WINDOW_MS ago. */
export const within = (memory: Map<string, unknown>, key: string) => {
  const at = memory.get(key) as number | undefined;
  return at !== undefined && performance.now() - at < RACE_WINDOW_MS;
};
export const sameEmail = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** A nil password element, as any SOAP client writes it (the prefix of the element in $1). */
export const NIL_PASSWORD = /<((?:[\w.-]+:)?)password\b[^>]*\bnil\s*=\s*["'](?:true|1)["'][^>]*\/>/;
/** What the nil-password fault turns a nil password into, so its params hook can tell it from an absent one. */
export const NIL_MARK = 'mock-nil-password';

/** A params hook letting a call in (the mock's own credentials) when `lets` says its login passes. */
export function acceptsLogin(
  lets: (
    password: string | undefined,
    user: string | undefined,
    c: { credentials: Credentials; other?: Credentials },
  ) => boolean,
) {
  return (p: RawParams, c: { credentials: Credentials; other?: Credentials }): RawParams =>
    lets(p.password, p.userName, c) ? rightCredentials(p, c) : p;
}

/**
 * An HTML error page quoting the request's parameters, the password among them, as a careless framework's debug page
 * does.
 */
export function echoPage(c: FaultContext): MockResponse {
  const form = new URLSearchParams(
    Object.entries(c.params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  const escapeRegExp = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    status: 400,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body:
      `<html><head><title>Request rejected</title></head><body><h1>Request `
      + `rejected</h1><p>${escapeRegExp(c.op.name)} could not be `
      + `served.</p><pre>${escapeRegExp(form)}</pre></body></html>`,
  };
}
