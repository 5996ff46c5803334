/**
 * The one registry of checks: the list, in run order, switchable by name (and by group:
 * core/check-groups.ts), and the isolating runner. Each check declares in its own file where it
 * applies (Check.places, Check.operations) and its severity; everything else is derived here:
 *
 * - which checks the run asks on an exchange (appliesHere: its places, then its operations, then
 *   its appliesTo), and which `conformance run --list` names for a case kind (checksPlacedOn);
 * - which checks `conformance validate` runs on a captured document (DOCUMENT_CHECKS);
 * - the order of GitHub's annotations (severityOf: each check's severity, and ROW_SEVERITY for the
 *   rows that are not checks);
 * - no check applies to a sequence's calls: its family judges them, in a `sequence` row.
 *
 * A new check is one file, one line in CHECKS and its test (docs/checks.md "Adding a check"); a
 * test fails when a file of this folder declares a check not listed here.
 */
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { CheckContext } from './context.js';
import {
  compactFindings,
  finding,
  LEAST_SEVERE,
  type Check,
  type CheckOutcome,
  type Place,
  type CheckSeverity,
} from './types.js';
import { statusCode } from './status-code.js';
import { contentType } from './content-type.js';
import { xmlWellformed } from './xml-wellformed.js';
import { soapEnvelope } from './soap-envelope.js';
import { resultElement } from './result-element.js';
import { xsdValid } from './xsd-valid.js';
import { shape } from './shape.js';
import { bindingRules } from './binding-rules.js';
import { credentialsRejected } from './credentials-rejected.js';
import { badRequestRejected } from './bad-request-rejected.js';
import { dtdRefused } from './dtd-refused.js';
import { loginRejected } from './login-rejected.js';
import { secretEchoed } from './secret-echoed.js';
import { CHECK_GROUPS, expandCheckNames, groupOfCheck, HOSTILE_GROUP } from '../core/check-groups.js';
import { DRIFT_CHECK, EQUIVALENCE_CHECK, EXCHANGE_CHECK, NOT_RUN_CHECK, SEQUENCE_CHECK } from '../core/rows.js';

export { HOSTILE_GROUP };

/** Every check, in run order. */
export const CHECKS: readonly Check[] = [
  statusCode,
  contentType,
  xmlWellformed,
  soapEnvelope,
  resultElement,
  xsdValid,
  shape,
  bindingRules,
  credentialsRejected,
  badRequestRejected,
  dtdRefused,
  loginRejected,
  secretEchoed,
];

export const CHECK_NAMES: readonly string[] = CHECKS.map((c) => c.name);

/**
 * Whether the run asks `check` on this exchange: the exchange's case kind is one of its places (or
 * it applies to every exchange, or to any answered with data), the operation is one it judges, and
 * its appliesTo says yes.
 */
export function appliesHere(check: Check, ctx: CheckContext): boolean {
  const placed =
    check.places.includes(ctx.caseKind)
    || check.places.includes('every-exchange')
    || check.places.includes('answered-with-data');
  return placed && (check.operations?.(ctx.op.name) ?? true) && (check.appliesTo?.(ctx) ?? true);
}

/**
 * The checks placed on the exchanges of a case kind (every exchange's included), or on a captured
 * document, in run order; those judging only some operations are left out when `operation` is not
 * one of them. What `--list` says judges a case (checks placed 'answered-with-data' only run when a
 * rejection answers with data, and are not listed).
 */
export function checksPlacedOn(
  place: Exclude<Place, 'every-exchange' | 'answered-with-data'>,
  operation?: string,
  checks: readonly Check[] = CHECKS,
): Check[] {
  return checks.filter(
    (c) =>
      (c.places.includes(place) || (place !== 'document' && c.places.includes('every-exchange')))
      && (operation === undefined || (c.operations?.(operation) ?? true)),
  );
}

/**
 * The checks of rejected calls: those placed only on case kinds a valid call is not (a wrong login,
 * a bad request, a DOCTYPE). A case with such a row is not a valid call, so its results do not show
 * the data path (engine/diagnose.ts, cli/lost-coverage.ts).
 */
export const REJECTION_CHECKS: ReadonlySet<string> = new Set(
  CHECKS.filter(
    (c) =>
      c.places.length > 0
      && c.places.every(
        (p) =>
          p !== 'valid'
          && p !== 'generated'
          && p !== 'document'
          && p !== 'every-exchange'
          && p !== 'answered-with-data',
      ),
  ).map((c) => c.name),
);

/**
 * The checks of a captured document (`conformance validate`): status and media type need an HTTP response, so not
 * theirs.
 */
export const DOCUMENT_CHECKS: readonly Check[] = checksPlacedOn('document');

/**
 * The severity of the rows that are not checks (core/rows.ts), on the checks' scale (Check.severity):
 * a case not run and no usable answer are the worst; a sequence's wrong state comes among the
 * unreadable answers and the refusals; the bindings answering apart among the departures.
 */
export const ROW_SEVERITY: Readonly<Record<string, CheckSeverity>> = {
  [NOT_RUN_CHECK]: 10,
  [EXCHANGE_CHECK]: 20,
  [SEQUENCE_CHECK]: 70,
  [EQUIVALENCE_CHECK]: 130,
  [DRIFT_CHECK]: LEAST_SEVERE,
};

/**
 * The severity of a row's check (a check's, or a row's of another kind); LEAST_SEVERE for a name the registry does not
 * know.
 */
export function severityOf(check: string): CheckSeverity {
  return CHECKS.find((c) => c.name === check)?.severity ?? ROW_SEVERITY[check] ?? LEAST_SEVERE;
}

export { CHECK_GROUPS, expandCheckNames, groupOfCheck };

/**
 * The named checks (or groups) in run order (all when `names` is absent or empty); an unknown name is a UsageError
 * naming it.
 */
export function selectChecks(given?: readonly string[]): readonly Check[] {
  if (!given || given.length === 0) return CHECKS;
  const names = expandCheckNames(given);
  const unknown = names.filter((n) => !CHECK_NAMES.includes(n));
  if (unknown.length > 0) {
    const known = [...CHECK_NAMES, ...Object.keys(CHECK_GROUPS)];
    throw new UsageError(
      `unknown check `
        + `name${unknown.length > 1 ? 's' : ''}: ${unknown.map((n) => `${n}${didYouMean(n, known)}`).join(', ')} `
        + `(known `
        + `checks: ${CHECK_NAMES.join(', ')}; groups: ${Object.keys(CHECK_GROUPS).join(', ')})`,
    );
  }
  return CHECKS.filter((c) => names.includes(c.name));
}

export interface CheckRun {
  readonly check: Check;
  readonly outcome: CheckOutcome;
  /** Milliseconds the check took (its JUnit time). */
  readonly ms?: number;
}

/** One check on one exchange: its outcome, or undefined when it does not apply. A throw becomes a finding. */
function runOne(ctx: CheckContext, check: Check, budgetMs?: number): CheckRun | undefined {
  const t0 = performance.now();
  let outcome: CheckOutcome;
  try {
    if (!appliesHere(check, ctx)) return undefined;
    outcome = check.run(ctx);
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    outcome = [finding(check.name, 'check_crashed', '/', `check crashed: ${why.slice(0, 200)}`)];
  }
  // Its work done beside libxml2 (Check.beside) is part of its time and of its budget.
  const ms = performance.now() - t0 + (check.beside ? ctx.besideMs(check.name) : 0);
  if (budgetMs !== undefined && ms > budgetMs) {
    // Over its budget: a finding of its own (the check could not be stopped, but is reported).
    const over = finding(
      check.name,
      'check_over_budget',
      '/',
      `check took longer than ${Math.round(budgetMs / 1000)} s on a document `
        + `of ${ctx.bodyBytes.toLocaleString('en-US')} bytes `
        + `(${(ms / 1000).toFixed(1)} s)`,
    );
    outcome = Array.isArray(outcome) ? [...outcome, over] : [over];
  }
  return {
    check,
    outcome: Array.isArray(outcome) ? compactFindings(outcome) : outcome,
    ms: Math.round(ms * 1000) / 1000,
  };
}

/**
 * Run the checks that apply to the exchange, in order. A check that throws becomes a finding of its
 * own ("check crashed") and the others still run; findings are kept a few per kind
 * (compactFindings). Checks that do not apply are left out. Outcomes are not redacted: a run's rows
 * are, where they are made (engine/rows.ts).
 */
export function runChecks(ctx: CheckContext, checks: readonly Check[] = CHECKS, budgetMs?: number): CheckRun[] {
  const runs: CheckRun[] = [];
  for (const check of checks) {
    const r = runOne(ctx, check, budgetMs);
    if (r) runs.push(r);
  }
  return runs;
}

/**
 * The checks' work on the tree alone (Check.beside), while a validator process reads the document:
 * kept on the context for their run. A check that throws here throws again in its run, which
 * reports it.
 */
export function runBeside(ctx: CheckContext, checks: readonly Check[] = CHECKS): void {
  for (const check of checks) {
    if (!check.beside) continue;
    try {
      if (appliesHere(check, ctx)) check.beside(ctx);
    } catch {
      /* reported by its run */
    }
  }
}

export interface AsyncCheckOptions {
  /** Epoch milliseconds after which no further check starts. */
  readonly deadline?: number;
  /** A check taking longer than this gets a finding saying so. */
  readonly budgetMs?: number;
}

/** Give timers and I/O a turn (exchanges in flight are read while checks run). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * runChecks for the engine: the event loop gets a turn after every check (exchanges in flight are
 * read meanwhile), no check starts after `deadline` (the names of those not run are returned), and
 * a check that takes longer than `budgetMs` gets a finding saying so.
 */
export async function runChecksAsync(
  ctx: CheckContext,
  checks: readonly Check[],
  opts: AsyncCheckOptions = {},
): Promise<{ runs: CheckRun[]; notRun: string[] }> {
  const runs: CheckRun[] = [];
  for (const [i, check] of checks.entries()) {
    if (opts.deadline !== undefined && Date.now() >= opts.deadline)
      return { runs, notRun: checks.slice(i).map((c) => c.name) };
    const r = runOne(ctx, check, opts.budgetMs);
    if (r) runs.push(r);
    await yieldToLoop();
  }
  return { runs, notRun: [] };
}
