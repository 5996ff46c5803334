/**
 * The login variants a careless login check lets in (issue 42, section 1): which a plan sends, spread
 * over its operations × bindings within --max-failed-logins, and their units. Moved whole from ./plan.ts.
 */
import { binding as bindingModule } from '../bindings/index.js';
import { NIL_VALUE } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import type { RunPlan, Unit } from './unit.js';

/**
 * The credential variants a careless login check lets in (issue 42, section 1), beyond those of
 * credentialUnits: each sent on every operation × binding (the nil one through the bindings that can
 * send a nil, SOAP; the crossed accounts' only when a second account is given), each refused as the
 * wrong password is or as a malformed request is (src/checks/login-rejected.ts). Their case ids
 * name the variant (`login-*`: `--case 'login-*'` picks them). The password itself never shows:
 * the reports mask it, and the prefix too (core/redact.ts).
 */
export interface LoginVariant {
  readonly id: string;
  readonly description: string;
  /**
   * The credentials it sends (undefined: left out; NIL_VALUE: sent as nil), or undefined when this target has no such
   * variant.
   */
  credentials(
    account: { user: string; password: string },
    other?: { user: string; password: string },
  ): { userName?: string; password?: string } | undefined;
  /** Only the bindings that can send a nil (Binding.sendsNil). */
  readonly nil?: true;
}

export const LOGIN_VARIANTS: readonly LoginVariant[] = [
  {
    id: 'login-password-absent',
    description: 'the right user name, no password parameter at all',
    credentials: (a) => ({ userName: a.user }),
  },
  {
    id: 'login-user-absent',
    description: 'the right password, no userName parameter at all',
    credentials: (a) => ({ password: a.password }),
  },
  {
    id: 'login-password-nil',
    description: 'the right user name, the password sent as xsi:nil="true" (a null string)',
    nil: true,
    credentials: (a) => ({ userName: a.user, password: NIL_VALUE }),
  },
  {
    id: 'login-password-extended',
    description: 'the right password with characters added after it',
    credentials: (a) => ({ userName: a.user, password: `${a.password}x` }),
  },
  {
    id: 'login-password-prefix',
    description: 'a proper prefix of the right password (its last character left out)',
    credentials: (a) =>
      [...a.password].length > 1 ? { userName: a.user, password: [...a.password].slice(0, -1).join('') } : undefined,
  },
  {
    id: 'login-password-spaced',
    description: 'the right password with a space before and after it',
    credentials: (a) => ({ userName: a.user, password: ` ${a.password} ` }),
  },
  {
    id: 'login-other-user-my-password',
    description: "the second account's user name with the first account's password",
    credentials: (a, o) => (o && o.password !== a.password ? { userName: o.user, password: a.password } : undefined),
  },
  {
    id: 'login-my-user-other-password',
    description: "the first account's user name with the second account's password",
    credentials: (a, o) => (o && o.password !== a.password ? { userName: a.user, password: o.password } : undefined),
  },
];

/** One login variant on one operation and binding: a failed login the run sends. */
export interface LoginTry {
  readonly op: Operation;
  readonly variant: LoginVariant;
  readonly binding: BindingId;
}

/** The login variants a plan may send, each operation × variant × binding (before --max-failed-logins). */
export function loginTries(plan: Pick<RunPlan, 'operations' | 'bindings' | 'target'>): LoginTry[] {
  const out: LoginTry[] = [];
  for (const op of plan.operations) {
    for (const variant of LOGIN_VARIANTS) {
      if (!variant.credentials(plan.target, plan.target.other)) continue;
      for (const b of plan.bindings)
        if (!variant.nil || bindingModule(b).sendsNil) out.push({ op, variant, binding: b });
    }
  }
  return out;
}

/**
 * At most `max` of the tries, spread so each variant and each binding is tried as early as can be: the
 * variants take turns, and each walks its operations × bindings along diagonals (its k-th try on
 * operation k with binding k: every binding within as many turns as there are bindings, each on
 * another operation), starting at an operation and a binding of its own (the starts spread evenly
 * over the operations, so each operation gets its share; the first turn of the variants already
 * covers every binding). All of them when `max` is absent or not smaller.
 */
export function spreadLogins(
  tries: readonly LoginTry[],
  max: number | undefined,
  operations: readonly Operation[],
  bindings: readonly BindingId[],
): LoginTry[] {
  if (max === undefined || max >= tries.length) return [...tries];
  const variants = [...new Set(tries.map((t) => t.variant))];
  const queues = variants.map((v, j) => {
    const own = tries.filter((t) => t.variant === v);
    const bs = bindings.filter((b) => own.some((t) => t.binding === b));
    const rank = (t: LoginTry) => {
      // Its own start, the variants' starts spread evenly over the operations (each operation gets its share).
      const start = Math.floor((j * operations.length) / variants.length) % operations.length;
      const o = (operations.indexOf(t.op) + operations.length - start) % operations.length;
      return ((((bs.indexOf(t.binding) - o - j) % bs.length) + bs.length) % bs.length) * operations.length + o;
    };
    return own.sort((a, b) => rank(a) - rank(b));
  });
  const picked = new Set<LoginTry>();
  for (let r = 0; picked.size < max; r++) {
    let any = false;
    for (const q of queues) {
      if (picked.size >= max) break;
      const t = q[r];
      if (!t) continue;
      picked.add(t);
      any = true;
    }
    if (!any) break;
  }
  return tries.filter((t) => picked.has(t));
}

/** Whether the plan sends the login variants at all: negative cases on, and their check selected. */
export function sendsLoginVariants(plan: Pick<RunPlan, 'negative' | 'checks'>): boolean {
  return plan.negative && plan.checks.some((c) => c.name === LOGIN_CHECK);
}
/** The check judging the login variants (src/checks/login-rejected.ts): left out (--skip-checks), they are not sent. */
export const LOGIN_CHECK = 'login_rejected';

/** The login variants' units of a plan: one per operation × variant, on the bindings --max-failed-logins keeps. */
export function loginUnits(plan: RunPlan): Unit[] {
  if (!sendsLoginVariants(plan)) return [];
  const tries = spreadLogins(loginTries(plan), plan.maxFailedLogins, plan.operations, plan.bindings);
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const first = plan.cases.get(op.name)?.[0];
    if (!first) continue;
    for (const variant of LOGIN_VARIANTS) {
      const only = tries.filter((t) => t.op === op && t.variant === variant).map((t) => t.binding);
      if (only.length === 0) continue;
      const params: Record<string, string> = {
        ...first.params,
        ...variant.credentials(plan.target, plan.target.other)!,
      };
      // A read's variants run after the wrong password's answer is in (stage read-backs: the reference they are
      // compared with).
      units.push({
        op,
        caseId: variant.id,
        kind: 'login-variant',
        params,
        only,
        description: `${variant.description}: refused as the wrong password is`,
        stage: 'read-backs',
      });
    }
  }
  return units;
}
