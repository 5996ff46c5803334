/**
 * The one list of checks, in run order, switchable by name, and the isolating runner.
 *
 * Which checks apply to which case kind:
 * - 'valid' (a valid call): status_code, content_type, xml_wellformed, soap_envelope (every
 *   binding: SOAP framing on SOAP, no envelope on GET/POST), result_element, xsd_valid, shape, and
 *   binding_rules (operations with a per-binding rule). The document checks skip (with a reason)
 *   when the status is not 200: status_code reports that once.
 * - 'wrong-credentials' (a valid call with a wrong password): credentials_rejected, plus shape and
 *   xsd_valid when a 200 answer holds the result element (the one documented error form, an Error
 *   element in a BaseResult result, must still conform). Status, media type, framing and
 *   well-formedness of a rejection are not checked: the contract does not show the error format
 *   (section 7.5, 7.6).
 * - bad requests ('missing-param', 'bad-param', 'unknown-operation', 'wrong-soapaction'):
 *   bad_request_rejected only, judged on "rejected, no data" alone; the form of the rejection is
 *   reported as a note, never failed (the contract does not show error formats).
 * - 'login-variant' (a credential variant a careless login check lets in): login_rejected only.
 * - every exchange with a response: secret_echoed (no secret of the run in the answer).
 */
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { CheckContext } from './context.js';
import { compactFindings, finding, type Check, type CheckOutcome } from './types.js';
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

export { HOSTILE_GROUP };

/** Every check, in run order. */
export const CHECKS: readonly Check[] = [
  statusCode, contentType, xmlWellformed, soapEnvelope, resultElement, xsdValid, shape, bindingRules, credentialsRejected, badRequestRejected,
  dtdRefused,
  loginRejected, secretEchoed,
];

export const CHECK_NAMES: readonly string[] = CHECKS.map((c) => c.name);

export { CHECK_GROUPS, expandCheckNames, groupOfCheck };

/** The named checks (or groups) in run order (all when `names` is absent or empty); an unknown name is a UsageError naming it. */
export function selectChecks(given?: readonly string[]): readonly Check[] {
  if (!given || given.length === 0) return CHECKS;
  const names = expandCheckNames(given);
  const unknown = names.filter((n) => !CHECK_NAMES.includes(n));
  if (unknown.length > 0) {
    const known = [...CHECK_NAMES, ...Object.keys(CHECK_GROUPS)];
    throw new UsageError(`unknown check name${unknown.length > 1 ? 's' : ''}: ${unknown.map((n) => `${n}${didYouMean(n, known)}`).join(', ')} (known checks: ${CHECK_NAMES.join(', ')}; groups: ${Object.keys(CHECK_GROUPS).join(', ')})`);
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
    if (!check.appliesTo(ctx)) return undefined;
    outcome = check.run(ctx);
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    outcome = [finding(check.name, 'check_crashed', '/', `check crashed: ${why.slice(0, 200)}`)];
  }
  // Its work done beside libxml2 (Check.beside) is part of its time and of its budget.
  const ms = performance.now() - t0 + (check.beside ? ctx.besideMs(check.name) : 0);
  if (budgetMs !== undefined && ms > budgetMs) {
    // Over its budget: a finding of its own (the check could not be stopped, but is reported).
    const over = finding(check.name, 'check_over_budget', '/', `check took longer than ${Math.round(budgetMs / 1000)} s on a document of ${ctx.bodyBytes.toLocaleString('en-US')} bytes `
      + `(${(ms / 1000).toFixed(1)} s)`);
    outcome = Array.isArray(outcome) ? [...outcome, over] : [over];
  }
  return { check, outcome: Array.isArray(outcome) ? compactFindings(outcome) : outcome, ms: Math.round(ms * 1000) / 1000 };
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
      if (check.appliesTo(ctx)) check.beside(ctx);
    } catch { /* reported by its run */ }
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
export async function runChecksAsync(ctx: CheckContext, checks: readonly Check[], opts: AsyncCheckOptions = {}): Promise<{ runs: CheckRun[]; notRun: string[] }> {
  const runs: CheckRun[] = [];
  for (const [i, check] of checks.entries()) {
    if (opts.deadline !== undefined && Date.now() >= opts.deadline) return { runs, notRun: checks.slice(i).map((c) => c.name) };
    const r = runOne(ctx, check, opts.budgetMs);
    if (r) runs.push(r);
    await yieldToLoop();
  }
  return { runs, notRun: [] };
}
