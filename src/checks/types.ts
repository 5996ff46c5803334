/**
 * A check is small, named, pure and isolated (Schemathesis' checks are the model): it reads one
 * exchange through its context and returns findings. It never does I/O; validators come in the
 * context. A check that throws becomes a finding of its own and never stops the others.
 */
import type { DefectCode } from '../core/defect-codes.js';
import type { Finding } from '../core/types.js';
import type { CaseKind, CheckContext } from './context.js';
import type { InBandError } from './support.js';

/**
 * What a check says about one exchange: findings (empty: passed), a pass with a note (something
 * worth reporting that the contract does not let us fail, e.g. the form of an error it does not
 * show), or why it could not run.
 */
export type CheckOutcome = Finding[] | { readonly note: string } | Skipped;

/**
 * Why a check could not run. `inBandError` marks the one skip a person must see: a valid call
 * answered with an in-band Error (not a contract violation, but the data path was never reached).
 */
export interface Skipped {
  readonly skipped: string;
  readonly inBandError?: InBandError;
}

/**
 * Where a check applies (./registry.ts derives every list of checks from it: the run's, `--list`'s,
 * `conformance validate`'s): the exchanges of a case kind; every exchange of a run; any exchange
 * of a run whose answer may hold data (its appliesTo says which: a 200 with the result element); a
 * captured document (`conformance validate`, checked as the answer of a valid call). No check
 * applies to a sequence's calls: its family judges them (row `sequence`, src/sequences/).
 */
export type Place = CaseKind | 'every-exchange' | 'answered-with-data' | 'document';

/**
 * How badly a failure of the check breaks a client, the smallest the worst (10: no usable answer at
 * all; then a document a client cannot read or a state that is wrong; then one that departs from the
 * schema or the other bindings; then the details). GitHub's annotations list the defects in this
 * order (src/report/github.ts); the rows that are not checks have theirs in ./registry.ts ROW_SEVERITY.
 */
export type CheckSeverity = number;

/** The severity of a row ranked after every other (and of a row the registry does not know). */
export const LEAST_SEVERE: CheckSeverity = 1000;

export interface Check {
  /** Stable snake_case name, used in reports and to switch checks on and off. */
  readonly name: string;
  /** One line: the property the check asserts. */
  readonly description: string;
  /** Where it applies: the registry asks the check only within these places (then its appliesTo). */
  readonly places: readonly Place[];
  readonly severity: CheckSeverity;
  /** The operations it judges (by name), when not all: the registry asks it on no other. */
  readonly operations?: (operation: string) => boolean;
  /**
   * Whether the check is about this exchange at all, within its places and operations (e.g. a
   * generated case only when answered with data); absent: always.
   */
  appliesTo?(ctx: CheckContext): boolean;
  run(ctx: CheckContext): CheckOutcome;
  /**
   * Work on the tree alone (no libxml2 outcome), done while a validator process reads a large
   * document (CheckContext.prepare, runBeside): kept on the context with CheckContext.beside, and
   * taken by run() if the tree stands. Its time counts as the check's.
   */
  beside?(ctx: CheckContext): void;
}

/** Build a finding of a check: its check, its defect code (stable snake_case), where, and what. */
export function finding(
  check: string,
  code: DefectCode,
  path: string,
  message: string,
  expected?: string,
  actual?: string,
): Finding {
  return {
    check,
    code,
    path,
    message,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
  };
}

/** Findings of one check listed one by one at most; the rest are counted per kind ("and N more like it"). */
export const MAX_FINDINGS_LISTED = 50;
/** Findings of one kind listed at most. */
export const MAX_FINDINGS_PER_KIND = 3;
/**
 * Kinds of finding told apart at most (issue 35): past it, findings of further kinds are only
 * counted, in one summary, so a document whose every element makes a finding of its own kind
 * (a million distinct unknown names) still holds a bounded number of objects.
 */
export const MAX_FINDING_KINDS = 100;

/** A finding's kind: its check, its code, and its message with quoted values and numbers left out. */
function kindOf(f: Pick<Finding, 'check' | 'code' | 'message'>): string {
  return `${f.check}\u0000${f.code}\u0000${f.message.replace(/'[^']*'|"[^"]*"|\d+/g, '#')}`;
}

/** "//name" from a path: its last step without an index (where the rest of a kind are). */
function anywhere(path: string): string {
  const last = path.split('/').filter(Boolean).pop();
  return last ? `//${last.replace(/\[\d+\]$/, '')}` : '/';
}

/**
 * Findings collected with a bound: the first MAX_FINDINGS_PER_KIND of each kind are kept, at most
 * MAX_FINDINGS_LISTED in all, and the others are counted by kind. A document with a million
 * defects gives a report a person can read, and never holds a million finding objects.
 */
export class FindingList {
  readonly #kinds = new Map<string, { first: Finding; listed: number; more: number }>();
  readonly #listed: Finding[] = [];
  /** Kinds of messages already seen (a million findings often share a handful of messages). */
  readonly #kindOfMessage = new Map<string, string>();
  /** Findings of kinds past MAX_FINDING_KINDS: the first of them, and how many. */
  #other: { first: Finding; count: number } | undefined;

  push(f: Finding): void {
    this.add(f.check, f.code, f.path, f.message, f.expected, f.actual);
  }

  /** push(finding(...)), without building the finding when it is only counted. */
  add(check: string, code: DefectCode, path: string, message: string, expected?: string, actual?: string): void {
    const cacheKey = `${check}\u0000${code}\u0000${message}`;
    let key = this.#kindOfMessage.get(cacheKey);
    if (key === undefined) {
      key = kindOf({ check, code, message });
      if (this.#kindOfMessage.size < 4096) this.#kindOfMessage.set(cacheKey, key);
    }
    let k = this.#kinds.get(key);
    if (k && (k.listed >= MAX_FINDINGS_PER_KIND || this.#listed.length >= MAX_FINDINGS_LISTED)) {
      k.more++;
      return;
    }
    if (!k && this.#kinds.size >= MAX_FINDING_KINDS) {
      if (this.#other) this.#other.count++;
      else this.#other = { first: finding(check, code, path, message, expected, actual), count: 1 };
      return;
    }
    const f = finding(check, code, path, message, expected, actual);
    if (!k) this.#kinds.set(key, (k = { first: f, listed: 0, more: 0 }));
    if (k.listed < MAX_FINDINGS_PER_KIND && this.#listed.length < MAX_FINDINGS_LISTED) {
      k.listed++;
      this.#listed.push(f);
    } else {
      k.more++;
    }
  }

  get length(): number {
    return this.#listed.length;
  }

  /** The findings kept, then one per kind with findings left out: "and N more like it: <the first one's message>". */
  list(): Finding[] {
    const out = [...this.#listed];
    for (const k of this.#kinds.values()) {
      if (k.more === 0) continue;
      out.push(
        finding(
          k.first.check,
          k.first.code,
          anywhere(k.first.path),
          `and ${k.more.toLocaleString('en-US')} more like it: ${k.first.message}`,
        ),
      );
    }
    const o = this.#other;
    if (o) {
      out.push(
        finding(
          o.first.check,
          o.first.code,
          o.first.path,
          `and ${o.count.toLocaleString('en-US')} more of ${o.count === 1 ? 'another kind' : 'other kinds'} `
            + `(more than ${MAX_FINDING_KINDS} kinds), the first: ${o.first.message}`,
        ),
      );
    }
    return out;
  }
}

/**
 * The most findings a FindingList gives: those listed, a summary per kind told apart, and the summary of the other
 * kinds.
 */
export const MAX_FINDINGS_KEPT = MAX_FINDINGS_LISTED + MAX_FINDING_KINDS + 1;

/**
 * Findings of any source bounded (issue 35): a list longer than a FindingList gives never came out
 * of one, so it is compacted; a shorter one is kept as it is (compacting a compacted list again
 * would count its summaries as findings).
 */
export function boundFindings(findings: readonly Finding[]): readonly Finding[] {
  return findings.length > MAX_FINDINGS_KEPT ? compactFindings(findings) : findings;
}

/** The findings bounded as FindingList bounds them (unchanged when there are few). */
export function compactFindings(findings: readonly Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_LISTED) return [...findings];
  const list = new FindingList();
  for (const f of findings) list.push(f);
  return list.list();
}
