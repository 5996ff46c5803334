/**
 * Result rows, and the redaction boundary of a run: every text a row carries (messages, paths,
 * expected and actual values, the reproduce command, the exchange excerpts, an in-band Error) passes
 * the run's redactor exactly once, here, as the row is made. Nothing upstream redacts (checks and
 * the comparison are pure); the reports' write-time guard (report/secrets.ts) is the last line of
 * defence behind this one. Texts are also bounded here: a finding quoting a 30 MB value is cut.
 */
import type { Operation } from '../contract/catalogue.js';
import { boundFindings, type CheckOutcome } from '../checks/types.js';
import type { Redactor } from '../core/redact.js';
import type { Exchange, Finding, ResultRow, RunReport } from '../core/types.js';
import { MEMO_MAX_CHARS, TextMemo } from '../xml/memo.js';

const EXCERPT_BYTES = 4096;
/** Wider first cut: bounds the redaction work on a large body and keeps a secret at the boundary whole. */
const EXCERPT_MARGIN = 4096;

/** Longest row or finding message kept; longer ones are cut (a value quoted in full could be 30 MB). */
export const MAX_MESSAGE_CHARS = 2000;
/** Longest path, expected or actual value of a finding kept. */
export const MAX_VALUE_CHARS = 1000;
/** Longest canonical diff of a finding kept (the diff itself keeps 120 lines of 200 characters at most). */
export const MAX_DIFF_CHARS = 24_000;

/**
 * Text cut to `max` characters with a note of what was left out (never splitting a surrogate pair);
 * `total` is the length of the whole text when `text` is already its start.
 */
export function clip(text: string, max: number, total = text.length): string {
  if (total <= max) return text;
  let end = Math.min(max, text.length);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${(total - end).toLocaleString('en-US')} more characters)`;
}

/**
 * The start of a text, redacted before it is cut so no secret is left half-cut at the boundary.
 * `more` counts what follows the text given (a body is decoded only as far as an excerpt needs).
 */
function excerpt(text: string, redact: Redactor, more = 0, unit = 'characters'): string {
  const head = redact(
    text.length > EXCERPT_BYTES + EXCERPT_MARGIN ? text.slice(0, EXCERPT_BYTES + EXCERPT_MARGIN) : text,
  );
  if (head.length <= EXCERPT_BYTES && more === 0) return head;
  const left =
    more > 0
      ? `${more + Math.max(0, text.length - EXCERPT_BYTES)} more ${unit}`
      : `${text.length - EXCERPT_BYTES} more characters`;
  return `${head.slice(0, EXCERPT_BYTES)}\n… (${left})`;
}

/** The request as text (request line, headers, body), redacted and cut. */
export function requestText(ex: Exchange, redact: Redactor): string {
  const r = ex.request;
  const u = new URL(r.url);
  const head = [
    `${r.method} ${u.pathname}${u.search} HTTP/1.1`,
    `host: ${u.host}`,
    ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return excerpt(`${head.join('\n')}\n\n${r.body ?? ''}`, redact);
}

/** The response as text (status line, headers, body, or the transport error), redacted and cut. */
export function responseText(ex: Exchange, redact: Redactor): string {
  if (!ex.response) return redact(`(no response: ${ex.error?.code}: ${ex.error?.message})`);
  const r = ex.response;
  const head = [`HTTP/1.1 ${r.status}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
  // Only the start of a large body is decoded: an excerpt never needs more.
  const take = EXCERPT_BYTES + EXCERPT_MARGIN;
  const shown = r.body.length > take ? r.body.subarray(0, take) : r.body;
  return excerpt(
    `${head.join('\n')}\n\n${shown.toString('utf8')}`,
    redact,
    r.body.length - shown.length,
    'bytes of the body',
  );
}

/** What a run's memo of redacted texts may hold, in characters (texts and their redactions). */
const REDACTED_MEMO_BUDGET = 4 * 1024 * 1024;
const redactedTexts = new WeakMap<Redactor, TextMemo<string>>();

/**
 * The redactor with its outcomes remembered for the run (one redactor per run): the same reproduce
 * command, answer's excerpt or message met again in another unit (a repeated answer, a list asked by several
 * cases) is redacted once. A redactor is a function of its text alone. Bounded: see TextMemo.
 */
function remembering(redact: Redactor): Redactor {
  let memo = redactedTexts.get(redact);
  if (!memo)
    redactedTexts.set(redact, (memo = new TextMemo<string>(MEMO_MAX_CHARS, REDACTED_MEMO_BUDGET, (out) => out.length)));
  const m = memo;
  return (text) => (text === '' ? text : m.get(text, () => redact(text)));
}

/** What the rows of one exchange share. */
export interface RowBase {
  readonly op: Operation;
  /** The binding field: one binding, or several for a cross-binding row (core/rows.ts bindingField). */
  readonly binding: string;
  readonly caseId: string;
  /** The reproduce command, not yet redacted. */
  readonly reproduce: string;
  /** The exchange behind the rows: failed rows carry its excerpts. */
  readonly exchange?: Exchange;
}

/**
 * About what rows' findings hold in memory, in bytes (their texts in UTF-16, and an object each): what an answer holds
 * besides its body.
 */
export function findingsBytes(rows: readonly ResultRow[]): number {
  let n = 0;
  for (const r of rows) {
    for (const f of r.findings) {
      n +=
        64
        + 2
          * (f.message.length
            + f.path.length
            + (f.expected?.length ?? 0)
            + (f.actual?.length ?? 0)
            + (f.diff?.length ?? 0));
    }
  }
  return n;
}

/**
 * Makes the rows of one unit, redacted. A unit's rows repeat the same texts (each binding's
 * reproduce command on every check row, its excerpts on every failed one): each is redacted once.
 */
export class RowMaker {
  readonly #excerpts = new Map<Exchange, { readonly request: string; readonly response: string }>();
  readonly #redact: Redactor;
  /** The run's redactor itself, not remembering: for the texts a run meets once. */
  readonly #once: Redactor;
  #lastReproduce = '';
  #lastRedacted = '';

  constructor(redact: Redactor) {
    this.#redact = remembering(redact);
    this.#once = redact;
  }

  /** A text redacted (each distinct text once per run, up to the memo's bounds). */
  redact(text: string): string {
    return this.#redact(text);
  }

  /**
   * The request and response excerpts of an exchange, redacted (once per exchange). A request's text is met once in a
   * run (every request differs from the others: of the embedded run's 1454, 1454 are distinct), so it is redacted
   * without the run's memo, where it would cost its lookup and push out the answers, which repeat (499 distinct).
   */
  excerpts(ex: Exchange): { readonly request: string; readonly response: string } {
    let e = this.#excerpts.get(ex);
    if (!e)
      this.#excerpts.set(ex, (e = { request: requestText(ex, this.#once), response: responseText(ex, this.#redact) }));
    return e;
  }

  /**
   * A text redacted and cut; a long one is redacted only as far as it is kept (and a margin, so no secret is half-cut).
   */
  #text(text: string, max: number): string {
    if (text.length <= max) return this.redact(text);
    return clip(this.redact(text.slice(0, max + EXCERPT_MARGIN)), max, text.length);
  }

  #finding(f: Finding): Finding {
    return {
      ...f,
      path: this.#text(f.path, MAX_VALUE_CHARS),
      message: this.#text(f.message, MAX_MESSAGE_CHARS),
      ...(f.expected !== undefined ? { expected: this.#text(f.expected, MAX_VALUE_CHARS) } : {}),
      ...(f.actual !== undefined ? { actual: this.#text(f.actual, MAX_VALUE_CHARS) } : {}),
      ...(f.diff !== undefined ? { diff: this.#text(f.diff, MAX_DIFF_CHARS) } : {}),
    };
  }

  /**
   * The reproduce command redacted: the rows of one exchange (an exchange row, then one per check) carry the same
   * command, redacted once for all of them rather than looked up in the run's memo on each.
   */
  #reproduce(raw: string): string {
    if (raw !== this.#lastReproduce) {
      this.#lastReproduce = raw;
      this.#lastRedacted = this.redact(raw);
    }
    return this.#lastRedacted;
  }

  /** The row of one check's outcome (or of the exchange, a not-run unit, the comparison). */
  row(base: RowBase, check: string, outcome: CheckOutcome, durationMs?: number): ResultRow {
    return this.#row(base, check, outcome, durationMs);
  }

  /**
   * The row, built field by field in the order the report writes them (no object spread into each of a run's thousands
   * of rows): what the rows share first, then the outcome's fields.
   */
  #row(base: RowBase, check: string, outcome: CheckOutcome, durationMs: number | undefined): Mutable<ResultRow> {
    const r = {
      operation: base.op.name,
      group: base.op.group,
      binding: base.binding,
      case: base.caseId,
      check,
      reproduce: this.#reproduce(base.reproduce),
    } as Mutable<ResultRow>;
    if (durationMs !== undefined) r.durationMs = durationMs;
    if ('note' in outcome) {
      r.status = 'passed';
      r.message = this.#text(outcome.note, MAX_MESSAGE_CHARS);
      r.path = '';
      r.findings = [];
      return r;
    }
    if (!Array.isArray(outcome)) {
      r.status = 'skipped';
      r.message = this.#text(outcome.skipped, MAX_MESSAGE_CHARS);
      r.path = '';
      r.findings = [];
      if (outcome.inBandError)
        r.inBandError = {
          type: this.#text(outcome.inBandError.type, MAX_MESSAGE_CHARS),
          message: this.#text(outcome.inBandError.message, MAX_MESSAGE_CHARS),
        };
      return r;
    }
    if (outcome.length === 0) {
      r.status = 'passed';
      r.message = '';
      r.path = '';
      r.findings = [];
      return r;
    }
    // Every row's findings pass here (checks, comparison, sequences): a million of them are counted, not kept.
    const findings = boundFindings(outcome).map((f) => this.#finding(f));
    const first = findings[0]!;
    r.status = 'failed';
    r.message = findings.length > 1 ? `${first.message} (+${findings.length - 1} more)` : first.message;
    r.path = first.path;
    r.findings = findings;
    if (base.exchange) this.#withExcerpts(r, base.exchange);
    return r;
  }

  /** The excerpts set on a row (a failed row has them already: the same texts, where they stand). */
  #withExcerpts(r: Mutable<ResultRow>, ex: Exchange): Mutable<ResultRow> {
    const e = this.excerpts(ex);
    r.request = e.request;
    r.response = e.response;
    return r;
  }

  /** The row recording an exchange (it carries the excerpts whatever its status). */
  exchangeRow(
    base: RowBase & { readonly exchange: Exchange },
    check: string,
    outcome: CheckOutcome,
    durationMs?: number,
  ): ResultRow {
    return this.#withExcerpts(this.#row(base, check, outcome, durationMs), base.exchange);
  }
}

/** A row as it is filled in. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Summary counts of rows. */
export function summarise(rows: readonly ResultRow[]): RunReport['summary'] {
  const s = { passed: 0, failed: 0, skipped: 0, known: 0, total: rows.length };
  let flaky = 0;
  for (const r of rows) {
    s[r.status]++;
    if (r.flaky) flaky++;
  }
  return flaky ? { ...s, flaky } : s;
}
