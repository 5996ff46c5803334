/**
 * A unit's requests (one per binding, at its group's host and service path, its booking put in) and
 * whether its bindings' answers are compared; the secrets a run holds. Moved whole from ./plan.ts.
 */
import { doctypeRequestFor, requestFor } from '../bindings/endpoint.js';
import type { Params } from '../bindings/types.js';
import type { BindingId } from '../contract/catalogue.js';
import type { HttpRequest, Target } from '../core/types.js';
import { networkSecrets } from '../transport/proxy.js';
import { withBooking } from './bookings.js';
import type { RunPlan, Unit } from './unit.js';

// ---- requests -----------------------------------------------------------------------------------

/** One binding's request of a unit. */
export interface UnitRequest {
  readonly binding: BindingId;
  readonly request: HttpRequest;
}

/**
 * Whether the bindings' answers of a unit are compared (binding_equivalence): with --equivalence, on
 * more than one binding, but never a DOCTYPE probe's (each refusal is judged on its own row, and a
 * binding that processed the DTD shows there, not as a comparison of two with no majority), a login
 * variant's (its oracle is the wrong password of its own binding, src/checks/login-rejected.ts), nor
 * a sequence's (its rows are per binding).
 */
export function comparesBindings(
  plan: Pick<RunPlan, 'equivalence' | 'bindings'>,
  unit: Pick<Unit, 'kind' | 'only' | 'sequence' | 'doctype'>,
): boolean {
  return (
    plan.equivalence
    && !unit.doctype
    && !unit.sequence
    && unit.kind !== 'login-variant'
    && plan.bindings.filter((b) => !unit.only || unit.only.includes(b)).length > 1
  );
}

/** The parameters a unit sends through one binding: its own, with that binding's booking or own values put in. */
export function bindingParams(unit: Unit, b: BindingId): Params {
  const booking = unit.bookings?.[b];
  const own = unit.perBinding?.[b];
  const params = own ? { ...unit.params, ...own } : unit.params;
  return booking ? withBooking(unit.op.name, params, booking) : params;
}

/** The requests of a unit: one per binding it is sent on, at its group's host and service path. */
export function unitRequests(plan: Pick<RunPlan, 'target' | 'bindings'>, unit: Unit): UnitRequest[] {
  return plan.bindings
    .filter((b) => !unit.only || unit.only.includes(b))
    .map((b) => {
      const params = bindingParams(unit, b);
      const probe = unit.doctype?.probes[b];
      const req = probe
        ? (doctypeRequestFor(plan.target, unit.op, b, params, probe, unit.doctype!.param)
          ?? requestFor(plan.target, unit.op, b, params))
        : requestFor(plan.target, unit.op, b, params);
      return { binding: b, request: unit.headers ? { ...req, headers: unit.headers } : req };
    });
}

// ---- secrets --------------------------------------------------------------------------------------

/**
 * Every secret a run against `target` holds, gathered once: the password, and the password of any
 * target URL's user-info (never sent, but a report must not show it either). The wrong-credentials
 * case's password is no secret.
 */
export function secretsOf(target: SecretHolder): string[] {
  const fromUrls = [target.bookUrl, target.searchUrl, target.transfersUrl].flatMap((u) => {
    try {
      const p = u ? new URL(u).password : '';
      return p ? [decodeURIComponent(p)] : [];
    } catch {
      return [];
    }
  });
  // The password-case variant's password (its letter case swapped) is one of the password's readings
  // the redactor looks for (core/redact.ts): not a secret of its own, which would double the search.
  // A proxy's password, the PKCS#12 passphrase and headers from variables (transport/network.ts) too.
  // The second account's password (--other-user) is a secret as the first one is.
  return [
    ...new Set(
      [target.password, target.other?.password ?? '', ...fromUrls, ...networkSecrets(target.network)].filter(
        (s) => s !== '',
      ),
    ),
  ];
}

type SecretHolder = Pick<Target, 'password' | 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'network' | 'other'>;

/**
 * The secrets an answer must never hold (src/checks/secret-echoed.ts), each with what it is: the
 * passwords of both accounts, and the network's (a proxy's password, an extra header's value from a
 * variable, the PKCS#12 passphrase). The same secrets secretsOf gives the redactor, named.
 */
export function namedSecretsOf(target: SecretHolder): { what: string; value: string }[] {
  return [
    { what: 'the password', value: target.password },
    ...(target.other?.password ? [{ what: "the second account's password", value: target.other.password }] : []),
    ...networkSecrets(target.network).map((value) => ({
      what: "a network secret (a proxy's password, an extra header's value from a variable)",
      value,
    })),
  ].filter((s) => s.value !== '');
}
