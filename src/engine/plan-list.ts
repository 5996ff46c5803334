/**
 * `conformance run --list`: the plan of a run, made from its settings without sending anything and
 * without starting the embedded mock. Every operation × binding × case with its parameters (every
 * spelling of the password masked) and the checks that will judge it. Generated cases take
 * `language` from the fixed list here: asking the target's GetLanguages would send a request.
 */
import type { CaseKind } from '../checks/context.js';
import { checksPlacedOn } from '../checks/registry.js';
import { BINDING_DIFFERENCES } from '../contract/binding-differences.js';
import type { BindingId } from '../contract/catalogue.js';
import { makeRedactor } from '../core/redact.js';
import { EQUIVALENCE_CHECK } from '../core/rows.js';
import { FIXED_LANGUAGES } from './generate.js';
import { pinnedLanguages } from './languages.js';
import { planOf, targetOf } from './settings-plan.js';
import {
  bookingNeeds,
  caseMatcher,
  comparesBindings,
  failedLogins,
  planUnits,
  secretsOf,
  skipReason,
  type RunPlan,
  type Unit,
} from './plan.js';
import { POOL_NAMES } from './bookings.js';
import { UsageError } from '../core/errors.js';
import { checksOf } from './session.js';
import type { RunSettings } from './settings.js';

/**
 * --case must name cases of the plan: one that matches nothing is bad usage, said before anything is
 * sent, with the case ids there are (a re-run command pasted against another config or seed).
 */
export function unmatchedCases(plan: RunPlan): void {
  const all = planUnits({ ...plan, caseFilter: undefined });
  const idle = plan.caseFilter!.filter((p) => !all.some((u) => caseMatcher([p])(u.caseId)));
  if (idle.length === 0) return;
  const ids = [...new Set(all.map((u) => u.caseId))];
  throw new UsageError(
    `--case ${idle.join(', ')} matches no case of this run `
      + `(${plan.operations.map((o) => o.name).join(', ')}, seed ${plan.generation?.seed ?? '-'}, `
      + `${plan.generation?.examples ?? 0} generated per operation); its `
      + `cases: ${ids.slice(0, 40).join(', ')}${ids.length > 40 ? `, … (${ids.length} in all)` : ''}`,
  );
}

/** One unit of the plan as listed. */
export interface ListedUnit {
  readonly operation: string;
  readonly case: string;
  readonly kind: CaseKind;
  readonly description?: string;
  /** The parameters sent (the password, in any spelling, as ***). */
  readonly params: Record<string, string>;
  readonly bindings: readonly BindingId[];
  /** The checks that judge each exchange of the unit (those about the answer's document: when it answers with data). */
  readonly checks: readonly string[];
  /** The cross-binding check, when the unit is compared across its bindings. */
  readonly equivalence: boolean;
  /** Why the unit is not sent (a state-changing operation on a real target without --allow-mutations). */
  readonly skipped?: string;
}

/** A run's plan, as `--list` prints it. */
export interface ListedPlan {
  readonly target: string;
  readonly operations: readonly string[];
  readonly bindings: readonly BindingId[];
  readonly generation?: { readonly seed: number; readonly examples: number; readonly languagesFrom: string };
  readonly caseFilter?: readonly string[];
  /** The selected checks, by the case kinds they judge. */
  readonly checks: Record<string, readonly string[]>;
  readonly units: readonly ListedUnit[];
  /** Requests the run would send (skipped units aside). */
  readonly exchanges: number;
  /**
   * The bookings the run takes from each pool (issue 30: what a person creates for it), and those
   * given; absent when no state-changing call would be sent.
   */
  readonly bookings?: {
    readonly needed: Readonly<Record<string, number>>;
    readonly given?: Readonly<Record<string, number>>;
    readonly embedded?: true;
  };
  /** The second account's user name (never its password); absent: authorization across accounts will not be tested. */
  readonly otherUser?: string;
  /**
   * The failed logins the run sends (a service may lock an account after some): the wrong-password
   * cases (`reference`, sent whatever --max-failed-logins says), the login variants kept (`variants`),
   * of `variantsAll`, and the bound given (--max-failed-logins).
   */
  readonly failedLogins: {
    readonly reference: number;
    readonly variants: number;
    readonly variantsAll: number;
    readonly max?: number;
  };
}

/** What --list says when no second account is given, and how to give one. */
export const NO_OTHER_ACCOUNT =
  'none: authorization across accounts will not be tested (name one with --other-user NAME, its '
  + 'password in CONFORMANCE_OTHER_PASSWORD; docs/real-service.md)';

/**
 * The names of the selected checks that judge an exchange of this kind of case on this operation (their places:
 * checks/registry.ts).
 */
function checksFor(kind: CaseKind, operation: string, selected: ReadonlySet<string>): string[] {
  return checksPlacedOn(kind, operation)
    .map((c) => c.name)
    .filter((n) => selected.has(n));
}

/** The plan of a run with these settings, made without sending anything. */
export function listPlan(s: RunSettings): ListedPlan {
  const target = targetOf(s);

  const checks = checksOf(s);
  // Languages given with --languages are the run's as well: the plan lists the values it will send.
  const langs = s.languages
    ? pinnedLanguages(s.languages.values, s.languages.source)
    : {
        languages: FIXED_LANGUAGES,
        from: 'the fixed list (--list asks the target nothing; a run may take them from its GetLanguages)',
      };
  const plan = planOf(s, target, { checks, ...(s.examples > 0 ? { languages: langs } : {}) });

  // As a run would: --case naming no case of the plan is bad usage (exit 2), not "0 cases".
  if (plan.caseFilter) unmatchedCases(plan);
  const redact = makeRedactor(secretsOf(target));
  const selected = new Set(checks.map((c) => c.name));
  const units = planUnits(plan).map((u: Unit): ListedUnit => {
    const bindings = s.bindings.filter((b) => !u.only || u.only.includes(b));
    const skipped = skipReason(plan, u.op);
    return {
      operation: u.op.name,
      case: u.caseId,
      kind: u.kind,
      ...(u.description ? { description: redact(u.description) } : {}),
      params: Object.fromEntries(Object.entries(u.params).map(([k, v]) => [k, redact(v)])),
      bindings,
      checks: checksFor(u.kind, u.op.name, selected),
      equivalence: comparesBindings(plan, u),
      ...(skipped ? { skipped } : {}),
    };
  });
  const kinds: Record<string, CaseKind[]> = {
    'valid cases': ['valid'],
    'generated cases (when answered with data)': ['generated'],
    'wrong credentials': ['wrong-credentials'],
    'bad requests': ['missing-param'],
    'login variants (hostile requests)': ['login-variant'],
  };
  // binding_rules judges only the operations with a documented binding difference (each unit lists its own checks).
  return {
    target: s.embedded
      ? 'the embedded mock'
      : `book ${s.bookUrl ?? '-'}, search ${s.searchUrl ?? '-'}, transfers ${s.transfersUrl ?? s.searchUrl ?? '-'}`,
    operations: s.operations.map((o) => o.name),
    bindings: s.bindings,
    ...(plan.generation ? { generation: { seed: s.seed, examples: s.examples, languagesFrom: langs.from } } : {}),
    ...(s.caseFilter ? { caseFilter: s.caseFilter } : {}),
    checks: {
      ...Object.fromEntries(
        Object.entries(kinds).map(([k, [kind]]) => [
          k,
          checksFor(kind!, BINDING_DIFFERENCES[0]?.operation ?? '', selected),
        ]),
      ),
      ...(s.equivalence ? { 'across bindings, per case': [EQUIVALENCE_CHECK] } : {}),
    },
    units,
    exchanges: units.filter((u) => !u.skipped).reduce((n, u) => n + u.bindings.length, 0),
    ...bookingsListed(plan),
    ...(s.other ? { otherUser: s.other.user } : {}),
    failedLogins: {
      ...failedLogins(plan),
      ...(plan.maxFailedLogins !== undefined ? { max: plan.maxFailedLogins } : {}),
    },
  };
}

/** The failed-logins line of a plan (a service may lock an account after some): how many, and what bounds them. */
function failedLoginsLine(f: ListedPlan['failedLogins']): string {
  const bound =
    f.max !== undefined
      ? `at most ${f.max} by --max-failed-logins (of ${f.variantsAll})`
      : 'all of them (--max-failed-logins N bounds them)';
  return (
    `Failed logins sent: ${f.reference + f.variants} (the wrong password and its `
    + `variants: ${f.reference}; login variants: ${f.variants}, ${bound})`
  );
}

/** What --list says of the pools: the bookings each would give (none when nothing state-changing is sent). */
function bookingsListed(plan: RunPlan): Pick<ListedPlan, 'bookings'> {
  const sends = plan.operations.some((o) => o.mutates && !skipReason(plan, o));
  if (!sends) return {};
  const needed = bookingNeeds(plan);
  const given = plan.bookings ? Object.fromEntries(POOL_NAMES.map((p) => [p, plan.bookings![p].length])) : undefined;
  return {
    bookings: {
      needed,
      ...(given ? { given } : {}),
      ...(!given && plan.target.embedded ? { embedded: true as const } : {}),
    },
  };
}

/** The bookings line of a plan: per pool, what the run takes, against what was given. */
function bookingsLine(b: NonNullable<ListedPlan['bookings']>): string {
  const entries = Object.entries(b.needed).filter(([, n]) => n > 0);
  const total = entries.reduce((n, [, k]) => n + k, 0);
  const each = entries
    .map(
      ([p, n]) =>
        `${p} ${n}${b.given ? ` (${b.given[p] ?? 0} given${(b.given[p] ?? 0) < n ? `, ${n - (b.given[p] ?? 0)} more needed` : ''})` : ''}`,
    )
    .join(', ');
  const note = b.given
    ? ''
    : b.embedded
      ? "; the embedded mock's own pools"
      : '; no pool given: with none, state-changing calls that need one are not sent (--bookings FILE)';
  return `Bookings taken from the pools: ${total} (${each})${note}`;
}

/** The plan as text: a header, the checks by case kind, then one line per unit under its operation. */
export function formatPlan(p: ListedPlan): string {
  const lines = [
    `Plan (nothing sent): ${p.target}; ${p.operations.length} `
      + `operation${p.operations.length === 1 ? '' : 's'} × ${p.bindings.length} `
      + `binding${p.bindings.length === 1 ? '' : 's'} (${p.bindings.join(', ')}), `
      + `${p.units.length} case${p.units.length === 1 ? '' : 's'}, ${p.exchanges} `
      + `exchange${p.exchanges === 1 ? '' : 's'}`
      + (p.caseFilter ? `; only --case ${p.caseFilter.join(', ')}` : ''),
    ...(p.generation
      ? [
          `Generated cases: seed ${p.generation.seed}, ${p.generation.examples} per operation; language `
            + `from ${p.generation.languagesFrom}`,
        ]
      : []),
    ...(p.bookings ? [bookingsLine(p.bookings)] : []),
    failedLoginsLine(p.failedLogins),
    `Second `
      + `account: ${p.otherUser ? `${p.otherUser} (the authorization sequences call the first account's bookings with it)` : NO_OTHER_ACCOUNT}`,
    'Checks:',
    ...Object.entries(p.checks).map(([k, v]) => `  ${k}: ${v.join(', ') || '(none selected)'}`),
  ];
  let op = '';
  const width = Math.min(28, Math.max(8, ...p.units.map((u) => u.case.length)));
  for (const u of p.units) {
    if (u.operation !== op) {
      op = u.operation;
      lines.push('', op);
    }
    const params = Object.entries(u.params)
      .map(
        ([k, v]) => `${k}=${JSON.stringify(v).length > 60 ? `${JSON.stringify(v).slice(0, 57)}…"` : JSON.stringify(v)}`,
      )
      .join(' ');
    lines.push(
      ` `
        + ` ${u.case.padEnd(width)} ${u.kind.padEnd(17)} ${u.bindings.join(',').padEnd(22)} ${params}${u.skipped ? `  [not sent: ${u.skipped}]` : ''}`,
    );
  }
  if (p.units.length === 0) lines.push('', 'No case matches.');
  return lines.join('\n');
}
