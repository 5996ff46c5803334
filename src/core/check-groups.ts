/**
 * Groups of checks, switched on and off by the group's name as by a check's (--checks, --skip-checks:
 * src/checks/registry.ts), each with a group of its own in the reports' matrix (src/report/model.ts).
 * Here, below both, so the reports read the groups without importing the checks.
 *
 * `hostile_requests` (docs/checks.md "Hostile requests", issue 42): what an attacker sends and what
 * must never come back. Its checks, and the login variants' and DOCTYPE probes' case ids
 * (src/engine/plan.ts LOGIN_VARIANTS and DOCTYPE_*_CASE, which tests hold to these lists): every row
 * of those cases is the group's.
 */
export const HOSTILE_GROUP = 'hostile_requests';

export const CHECK_GROUPS: Readonly<Record<string, readonly string[]>> = {
  [HOSTILE_GROUP]: ['login_rejected', 'secret_echoed', 'dtd_refused'],
};

/** The case ids of the login variants, in their order. */
export const LOGIN_CASE_IDS: readonly string[] = [
  'login-password-absent',
  'login-user-absent',
  'login-password-nil',
  'login-password-extended',
  'login-password-prefix',
  'login-password-spaced',
  'login-other-user-my-password',
  'login-my-user-other-password',
];

/** The group a check belongs to, or undefined. */
export function groupOfCheck(name: string): string | undefined {
  return Object.entries(CHECK_GROUPS).find(([, names]) => names.includes(name))?.[0];
}

/** Names with every group name replaced by its checks' names. */
export function expandCheckNames(names: readonly string[]): string[] {
  return [...new Set(names.flatMap((n) => CHECK_GROUPS[n] ?? [n]))];
}

/**
 * The case ids of the DOCTYPE probes (src/engine/plan.ts DOCTYPE_INTERNAL_CASE, DOCTYPE_EXTERNAL_CASE, held to this
 * list by a test).
 */
export const DOCTYPE_CASE_IDS: readonly string[] = ['doctype-internal-entity', 'doctype-external-entity'];

const HOSTILE_CASES: ReadonlySet<string> = new Set([...LOGIN_CASE_IDS, ...DOCTYPE_CASE_IDS]);
/**
 * Whether a row of a report belongs to the hostile requests' group: a check of the group, or a login variant's or a
 * DOCTYPE probe's case.
 */
export function isHostileRow(r: { readonly check: string; readonly case: string }): boolean {
  return groupOfCheck(r.check) === HOSTILE_GROUP || HOSTILE_CASES.has(r.case);
}
