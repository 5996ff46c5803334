/**
 * What a run sends, decided before anything is sent: the plan (target, bindings, operations, cases,
 * checks), its units (one operation × request case, each sent on every selected binding: the valid
 * cases, then the negative cases), and the policies every command that sends obeys: a
 * state-changing operation is skipped on a real target without --allow-mutations and never retried,
 * and every request goes to its group's host and path (bindings/endpoint.ts). `run`, `record`,
 * `compare`, the suites and the bench all plan here and send through ./exchange.ts.
 */
import { binding as bindingModule } from '../bindings/index.js';
import type { DoctypeProbe, Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { swapCase } from '../core/redact.js';
import type { Diagnosis, Target } from '../core/types.js';
import type { RequestCase } from './cases.js';
import { broadestCase, coverageCases, generatedCases, idKinds, paramsKey } from './generate.js';
import { OPERATIONS } from '../contract/catalogue.js';
import type { IdProbe, PlanView } from '../sequences/index.js';
import { familiesNamed } from './families.js';
import {
  consumesBooking,
  idParamOf,
  mockBookings,
  POOL_NAMES,
  poolOf,
  probeVariant,
  type PoolName,
} from './bookings.js';
import { probeUrl, unobservableCallback, type Callback } from './callback.js';
import { caseMatcher, skipReason, type RunPlan, type Unit } from './unit.js';
import { loginTries, loginUnits, sendsLoginVariants } from './plan-logins.js';
import { withBookings } from './plan-bookings.js';

// The plan's parts, moved to files of their own, are still found here by those that plan.
export { caseMatcher, READ_RETRIES, retriesFor, skipReason, type RunPlan, type Unit } from './unit.js';
export { LOGIN_VARIANTS, loginTries, spreadLogins, type LoginTry, type LoginVariant } from './plan-logins.js';
export { poolsOf, rejectedText, shownLive, withBookings } from './plan-bookings.js';
export {
  bindingParams,
  comparesBindings,
  namedSecretsOf,
  secretsOf,
  unitRequests,
  type UnitRequest,
} from './requests.js';

/** A password no real account has: the wrong-credentials case sends it. */
export const WRONG_PASSWORD = 'conformance-wrong-password-7f3a';
export const WRONG_CREDENTIALS_CASE = 'wrong-credentials';
/** A user name no real account has: the wrong-user case sends it with the right password. */
export const WRONG_USER = 'conformance-wrong-user-7f3a';

/** Name of the operation the unknown-operation case asks for. */
export const UNKNOWN_OPERATION = 'NoSuchOperation';

/** A stand-in operation the service does not have, on the path and namespace of `like`. */
function unknownOperation(like: Operation): Operation {
  return {
    ...like,
    name: UNKNOWN_OPERATION,
    params: like.params.filter((p) => p.name === 'userName' || p.name === 'password'),
    resultElement: 'noSuchOperationResult',
    mutates: false,
    source: 'negative case: an operation the service does not have',
  };
}

/** Unparsable values per parameter type. */
const UNPARSABLE: Partial<Record<string, string>> = {
  int: 'not-a-number',
  dateTime: 'not-a-date',
  decimal: 'not-a-decimal',
};

/** The valid unit of one request case: its parameters and the target's credentials. */
export function caseUnit(target: Pick<Target, 'user' | 'password'>, op: Operation, c: RequestCase): Unit {
  return {
    op,
    caseId: c.id,
    kind: 'valid',
    params: { ...c.params, userName: target.user, password: target.password },
    description: c.description,
  };
}

/**
 * The credential variants of an operation's first case (section 5): each must get no data on any
 * binding. The wrong password, an empty one, the right password with a wrong user name, the right
 * password in other letter case (left out when it has no letter), both credentials absent.
 */
export function credentialUnits(op: Operation, params: Params, password: string): Unit[] {
  const kind = 'wrong-credentials' as const;
  const absent: Record<string, string> = { ...params };
  delete absent.userName;
  delete absent.password;
  const swapped = swapCase(password);
  return [
    {
      op,
      caseId: WRONG_CREDENTIALS_CASE,
      kind,
      params: { ...params, password: WRONG_PASSWORD },
      description: 'a valid call with a wrong password: no binding may answer with data',
    },
    {
      op,
      caseId: 'empty-password',
      kind,
      params: { ...params, password: '' },
      description: 'a valid call with an empty password: no binding may answer with data',
    },
    {
      op,
      caseId: 'wrong-user',
      kind,
      params: { ...params, userName: WRONG_USER },
      description: 'the right password with a user name no account has: no binding may answer with data',
    },
    ...(swapped !== password
      ? [
          {
            op,
            caseId: 'password-case',
            kind,
            params: { ...params, password: swapped },
            description:
              'the right password in other letter case (masked as the password is): no binding may answer with data',
          },
        ]
      : []),
    {
      op,
      caseId: 'no-credentials',
      kind,
      params: absent,
      description: 'neither userName nor password sent: no binding may answer with data',
    },
  ];
}

/**
 * How many failed logins the plan sends (--dry-run says so: a service may lock an account after
 * some): the wrong-password case and its credential variants (credentialUnits) on every operation ×
 * binding, and the login variants kept by --max-failed-logins.
 */
export function failedLogins(plan: RunPlan): {
  readonly reference: number;
  readonly variants: number;
  readonly variantsAll: number;
} {
  let reference = 0;
  let variants = 0;
  for (const u of planUnits(plan)) {
    if (skipReason(plan, u.op)) continue;
    const n = plan.bindings.filter((b) => !u.only || u.only.includes(b)).length;
    if (u.kind === 'wrong-credentials') reference += n;
    if (u.kind === 'login-variant') variants += n;
  }
  const all = sendsLoginVariants(plan) ? loginTries(plan).filter((t) => !skipReason(plan, t.op)).length : 0;
  return { reference, variants, variantsAll: all };
}

/**
 * The units of a plan, in catalogue order: the valid cases, then the negative case per operation,
 * then the sequences; each state-changing call with its booking (handed out over the whole plan, so a
 * booking's call is the same whatever --case or --shard picks); only those --case names, when given.
 */
export function planUnits(plan: RunPlan): Unit[] {
  const units = withBookings(plan, [...casesUnits(plan), ...loginUnits(plan), ...sequenceUnits(plan)]);
  if (!plan.caseFilter) return units;
  const match = caseMatcher(plan.caseFilter);
  return units.filter((u) => match(u.caseId));
}

/**
 * How many bookings of each pool the plan takes (each booking once, however many calls change it),
 * whatever the pools given hold: what a person must create for the run (--dry-run, --list, and the
 * report of a run given fewer).
 */
export function bookingNeeds(plan: RunPlan): Record<PoolName, number> {
  const taken = new Map<PoolName, Set<string>>(POOL_NAMES.map((p) => [p, new Set<string>()]));
  const plenty = { ...plan, bookings: mockBookings(), caseFilter: undefined };
  for (const u of withBookings(plenty, [...casesUnits(plenty), ...loginUnits(plenty), ...sequenceUnits(plenty)])) {
    for (const b of [...Object.values(u.bookings ?? {}), ...(u.sequence?.bookings ?? [])])
      if (b) taken.get(b.pool)!.add(b.id);
  }
  return Object.fromEntries(POOL_NAMES.map((p) => [p, taken.get(p)!.size])) as Record<PoolName, number>;
}

function planView(plan: RunPlan): PlanView {
  return {
    bindings: plan.bindings,
    has: (name: string) => plan.operations.find((o) => o.name === name),
    maySend: (op: Operation) => !skipReason(plan, op),
    firstParams: (name: string) => plan.cases.get(name)?.[0]?.params,
    otherAccount: plan.target.other !== undefined,
    idProbes: (name: string) => idProbesOf(plan, name),
  };
}

/**
 * The identifiers the id-probe sequences send for an operation that uses its booking up: one of each
 * generated kind (./generate.ts idKinds), as variant 1 of its value (./bookings.ts probeVariant; a
 * witness sequence's, variant 2), the rest of the parameters as the first hand-written case; a
 * transfer's email kinds with an id of their own (variants of the first case's). Variants up to
 * ID_PROBE_VARIANTS are theirs: no other call of the run names them.
 */
function idProbesOf(plan: RunPlan, name: string): { pool: PoolName; probes: IdProbe[] } | undefined {
  const op = plan.operations.find((o) => o.name === name);
  const idParam = idParamOf(name);
  const pool = poolOf(name);
  if (!op || !idParam || !pool || !consumesBooking(name)) return undefined;
  const base = plan.cases.get(name)?.[0]?.params ?? {};
  const baseId = base[idParam] ?? 'ID';
  let own = 0;
  const probes = idKinds(op, idParam).map((k): IdProbe => {
    const value = (n: number) => ({
      ...base,
      [k.param]: probeVariant(k.value, n),
      ...(k.param !== idParam ? { [idParam]: probeVariant(baseId, ++own) } : {}),
    });
    const first = value(1);
    const witness = probeVariant(k.value, 2) !== first[k.param] ? value(2) : undefined;
    return { kind: k.kind, params: first, ...(witness ? { witness } : {}) };
  });
  return { pool, probes };
}

/** The sequences of a plan: each family's (src/sequences/families.ts), in the list's order. */
export function sequenceUnits(plan: RunPlan): Unit[] {
  if (plan.bindings.length === 0) return [];
  const view = planView(plan);
  return familiesNamed(plan.families).flatMap((f) =>
    f.plan(view).map(
      ({ op, spec, description, stage }): Unit => ({
        op,
        caseId: f.caseId,
        kind: 'valid',
        params: {},
        description,
        sequence: spec,
        ...(stage !== undefined ? { stage } : {}),
      }),
    ),
  );
}

/**
 * What the families say they could not plan, and how to enable it (a second account not given): notes of every report,
 * each said once.
 */
export function sequenceNotes(plan: RunPlan): Diagnosis[] {
  if (plan.bindings.length === 0) return [];
  const view = planView(plan);
  const said = [...new Set(familiesNamed(plan.families).flatMap((f) => f.notPlanned?.(view) ?? []))];
  return said.map((message) => ({ level: 'note', code: 'sequence_not_planned', message }));
}

function casesUnits(plan: RunPlan): Unit[] {
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const cases: readonly RequestCase[] = plan.cases.get(op.name) ?? [];
    for (const c of cases) units.push(caseUnit(plan.target, op, c));
    const first = cases[0];
    const g = plan.generation;
    if (g && g.examples > 0 && first) {
      const credentials = { userName: plan.target.user, password: plan.target.password };
      const baseline = { ...first.params, ...credentials };
      const broadest = broadestCase(op, cases);
      const examples = [...(broadest ? [broadest] : []), ...generatedCases(op, g, OPERATIONS.indexOf(op))];
      // An example of a state-changing operation names a probe id, no booking: on a service with only
      // real bookings its other values are never acted on. Where a call does not use its booking up,
      // each of those values is sent again, with the one booking every binding changes.
      const idParam = idParamOf(op.name);
      // Where a call uses its booking up, a blank id is one booking for every binding (no variant of
      // it is another): the id-probe sequence (src/sequences/id-probe.ts) sends it through the four
      // bindings one after another and is its comparison; four calls at once would race for it. Such
      // an example is left out, and its other values go into coverage cases of their own.
      const blankOnce = idParam !== undefined && consumesBooking(op.name);
      const reached =
        idParam === undefined
          ? examples
          : blankOnce
            ? examples.filter((c) => (c.params[idParam] ?? 'x').trim() !== '')
            : examples.filter((c) => cases.some((h) => h.params[idParam] === c.params[idParam]));
      const coverage = coverageCases(
        op,
        g,
        cases,
        [...cases, ...reached].map((c) => c.params),
        blankOnce ? [idParam] : [],
      );
      // Never the same request twice (GetLanguages' examples are all "no parameters", as is its
      // hand-written case): a duplicate would only cost time and repeat its rows.
      const seen = new Set(cases.map((c) => paramsKey(c.params)));
      for (const c of [...(blankOnce ? reached : examples), ...coverage]) {
        const key = paramsKey(c.params);
        if (seen.has(key)) continue;
        seen.add(key);
        // A coverage case shrinks to the hand-written case it changed: one value to put back, not the
        // whole set (the first case may be the broadest result, costly to send again and again).
        units.push({
          op,
          caseId: c.id,
          kind: 'generated',
          params: { ...c.params, ...credentials },
          description: c.description,
          baseline: c.baseline ? { ...c.baseline, ...credentials } : baseline,
        });
      }
    }
    if (!plan.negative || !first) continue;
    const params = { ...first.params, userName: plan.target.user, password: plan.target.password };
    units.push(...credentialUnits(op, params, plan.target.password));
    const typed = op.params.find((p) => p.required && p.type !== 'string');
    if (typed) {
      const rest: Record<string, string> = { ...params };
      delete rest[typed.name];
      units.push({
        op,
        caseId: `missing-${typed.name}`,
        kind: 'missing-param',
        params: rest,
        description: `the required ${typed.type} parameter ${typed.name} left out`,
      });
    }
    const parsed = op.params.find((p) => p.type === 'int' || p.type === 'dateTime');
    if (parsed) {
      units.push({
        op,
        caseId: `unparsable-${parsed.name}`,
        kind: 'bad-param',
        params: { ...params, [parsed.name]: UNPARSABLE[parsed.type]! },
        description: `${parsed.name} (${parsed.type}) sent as "${UNPARSABLE[parsed.type]}"`,
      });
    }
    // A binding that routes on a header (SOAP 1.1's SOAPAction) is probed with one naming another
    // operation. An ASMX service dispatches on it: it must never name an operation that changes
    // state, or the probe could perform it.
    const other = plan.operations.find((o) => o.service === op.service && o !== op && !o.mutates);
    const routedTo = other?.name ?? UNKNOWN_OPERATION;
    for (const b of plan.bindings) {
      const probe = bindingModule(b).misroutedProbe?.(routedTo, plan.target.namespaces[op.ns]);
      if (!probe) continue;
      units.push({
        op,
        caseId: 'wrong-soapaction',
        kind: 'wrong-soapaction',
        params,
        only: [b],
        headers: probe.headers,
        description: probe.description,
      });
    }
    units.push(...doctypeUnits(plan, op, params));
  }
  if (plan.negative) {
    for (const service of [...new Set(plan.operations.map((o) => o.service))]) {
      const like =
        plan.operations.find((o) => o.service === service && !o.mutates)
        ?? plan.operations.find((o) => o.service === service)!;
      units.push({
        op: unknownOperation(like),
        caseId: `unknown-operation-${service}`,
        kind: 'unknown-operation',
        params: { userName: plan.target.user, password: plan.target.password },
        description: `${UNKNOWN_OPERATION} on the ${service} service`,
      });
    }
  }
  return units;
}

/**
 * The check that judges the DOCTYPE probes: without it (--skip-checks dtd_refused, or its group hostile_requests) they
 * are not sent.
 */
export const DOCTYPE_CHECK = 'dtd_refused';
/** The parameter whose value the probe's entity stands as: expanded, the call logs in and answers with data. */
const DOCTYPE_PARAM = 'userName';
export const DOCTYPE_INTERNAL_CASE = 'doctype-internal-entity';
export const DOCTYPE_EXTERNAL_CASE = 'doctype-external-entity';

/** The plan's callback: its own, or one without a listener (a fetch not observable). */
const callbacks = new WeakMap<object, Callback>();
export function callbackOf(plan: Pick<RunPlan, 'callback' | 'target'>): Callback {
  if (plan.callback) return plan.callback;
  let cb = callbacks.get(plan.target);
  if (!cb)
    callbacks.set(plan.target, (cb = unobservableCallback("the run was planned without the harness's listener")));
  return cb;
}

/**
 * XML a SOAP endpoint must refuse (issue 42, section 2; SOAP 1.1 section 3 and SOAP 1.2 part 1
 * section 5 forbid a document type declaration): on every binding that sends an XML document, the
 * first case's call with a DOCTYPE, once declaring an internal entity whose text is the user name,
 * once an external one at the harness's listener (a path of its own per operation and binding); the
 * entity stands as the user name. Processed, the first logs in and answers with data; the second
 * fetches the listener (which answers the user name). Nothing else is ever named: no entity in
 * another, no `file:` URL, no other host. A state-changing operation sends a probe id (./bookings.ts).
 */
function doctypeUnits(plan: RunPlan, op: Operation, params: Params): Unit[] {
  if (!plan.checks.some((c) => c.name === DOCTYPE_CHECK)) return [];
  const soap = plan.bindings.filter((b) => bindingModule(b).doctypeRequest !== undefined);
  if (soap.length === 0) return [];
  const cb = callbackOf(plan);
  // One unit per probe, on every such binding (a case is one unit: shards and --case keep it whole).
  const unit = (
    entity: DoctypeProbe['entity'],
    probe: (b: BindingId) => DoctypeProbe,
    caseId: string,
    description: string,
  ): Unit => ({
    op,
    caseId,
    kind: 'doctype',
    params,
    only: soap,
    doctype: { entity, probes: Object.fromEntries(soap.map((b) => [b, probe(b)])), param: DOCTYPE_PARAM },
    description,
  });
  return [
    unit(
      'internal',
      () => ({ entity: 'internal', value: plan.target.user }),
      DOCTYPE_INTERNAL_CASE,
      'a call with a DOCTYPE whose internal entity is the user name: a SOAP endpoint must refuse it, not expand it',
    ),
    unit(
      'external',
      (b) => ({ entity: 'external', url: probeUrl(cb, op.name, b) }),
      DOCTYPE_EXTERNAL_CASE,
      `a call with a DOCTYPE whose external entity is the harness's listener `
        + `(${probeUrl(cb, op.name, 'BINDING')}): a SOAP endpoint must refuse it, never fetch it`,
    ),
  ];
}
