/**
 * What a run concludes about the target as a whole from its finished units, before any single
 * finding: did any valid call return its result element; does the target use another namespace; was
 * every operation the user named called. A gate must be green only when something was tested, and
 * red in a way that says why. (Before the matrix, engine/preflight.ts; a run stopped at once,
 * engine/stop-diagnosis.ts.)
 */
import { poolKey, poolOf } from './bookings.js';
import { ALREADY_CANCELLED, NOT_FOUND } from '../equivalence/acceptance.js';
import { serviceUrlOf } from '../bindings/endpoint.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import {
  bindingField,
  EQUIVALENCE_CHECK,
  EXCHANGE_CHECK,
  NOT_RUN_CHECK,
  NOTHING_TESTED,
  notCalledReason,
  rowBindings,
} from '../core/rows.js';
import type { Diagnosis, ResultRow, UntestedCell } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { skipReason, type RunPlan, type Unit } from './plan.js';
import { nsAdvice } from './setting-advice.js';
import { REJECTION_CHECKS } from '../checks/registry.js';

/** The checks that judge a rejection: a pass means the target refused what it had to. */

/** `{ns}local` of a finding's actual value. */
function clarkParts(actual: string | undefined): { ns: string; local: string } | undefined {
  const m = actual ? /^\{([^}]*)\}(.+)$/.exec(actual) : null;
  return m ? { ns: m[1]!, local: m[2]! } : undefined;
}

/**
 * How one valid call ended, as its rows tell: it reached the data path, or why not (a key to count reasons by, and
 * words).
 */
interface Reach {
  readonly reached: boolean;
  /** Counted by: the ErrorType of an in-band rejection, the HTTP status, or the failed check. */
  readonly key: string;
  /** What happened, after "every valid call (n) [was]" ("rejected with …" after "was", "got HTTP 404 …"). */
  readonly words: string;
  /** The result element was not found at all (a 404 page, another API): not this service there. */
  readonly noResult: boolean;
  /** An in-band rejection: its ErrorType and Message. */
  readonly error?: { readonly type: string; readonly message: string };
  /** The HTTP status of the answer. */
  readonly status?: number;
  /**
   * Rejected as wrong credentials (a fault or page saying so, whatever the status): the service is there, the user or
   * password is not right.
   */
  readonly credentials?: boolean;
}

const REACHED: Reach = { reached: true, key: 'reached', words: 'reached the data path', noResult: false };

/** Text cut to `max` characters. */
function cut(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * How a valid call ended, from the rows of its exchange (one binding): undefined when it got no
 * response (not sent, refused, timed out: reported as such, and not a reading of the target).
 */
function reachOf(op: Operation, rows: readonly ResultRow[]): Reach | undefined {
  const exchange = rows.find((r) => r.check === EXCHANGE_CHECK);
  if (exchange?.status !== 'passed') return undefined;
  const inBand =
    rows.find((r) => r.inBandError)?.inBandError
    ?? (rows.some((r) => r.check === 'shape') ? undefined : errorInExcerpt(exchange.response));
  if (inBand) {
    return {
      // Credentials refused in-band or by a fault are one reason, whichever binding said it how.
      reached: false,
      key: aboutCredentials(inBand) ? 'credentials' : `in-band\u0000${inBand.type}`,
      noResult: false,
      error: inBand,
      words:
        `rejected `
        + `with ${inBand.type || 'an in-band Error'}${inBand.message ? ` ("${cut(inBand.message, 120)}")` : ''}`,
    };
  }
  const result = rows.find((r) => r.check === 'result_element');
  if (!result || result.status === 'passed' || result.status === 'known') return REACHED;
  // The result element by its name in another namespace: the service is there, configured with another namespace
  // (hinted).
  if (
    result.status === 'failed'
    && result.findings.some((f) => {
      const c = clarkParts(f.actual);
      return c !== undefined && (c.local === op.resultElement || c.local === `${op.name}Response`);
    })
  )
    return REACHED;
  const head = /^HTTP\/[\d.]+ (\d{3})/.exec(exchange.response ?? '');
  const status = head ? Number(head[1]) : undefined;
  const type = /^content-type: *(.*)$/im.exec(exchange.response ?? '')?.[1]?.trim();
  if (status !== undefined && status !== 200) {
    let said = rows
      .find((r) => r.check === 'status_code' && r.status === 'failed')
      ?.message.replace(/^status \d+ instead of 200, with /, '');
    // An HTML error page, in words: its text, not its markup.
    if (said && /html/i.test(type ?? ''))
      said = said
        .replace(/<[^>]*>?/g, ' ')
        .replace(/\s+/g, ' ')
        .replace(/" /, '"');
    // A fault or page saying the credentials are wrong ("Authentication failed"): the service is
    // there and answered, it refused the user or password (every binding alike, one reason).
    if (aboutCredentials({ type: '', message: said ?? '' })) {
      return {
        reached: false,
        key: 'credentials',
        noResult: false,
        credentials: true,
        status,
        words: `refused as wrong credentials (HTTP ${status}${said ? ` with ${cut(said, 160)}` : ''})`,
      };
    }
    return {
      reached: false,
      key: `status\u0000${status}`,
      noResult: true,
      status,
      words: `got HTTP ${status}${type ? ` (${cut(type, 60)})` : ''}${said ? ` with ${cut(said, 160)}` : ''}`,
    };
  }
  const failed = rows.find((r) => r.status === 'failed' && r.check !== EXCHANGE_CHECK);
  return {
    reached: false,
    key: 'no-result',
    noResult: true,
    words: `got no result element${failed ? ` (${failed.check}: ${cut(failed.message, 200)})` : ''}`,
  };
}

/**
 * An in-band Error read from a response excerpt, for runs without the shape check (which records
 * it): the first ErrorType and Message of an Error element, if the answer holds one.
 */
function errorInExcerpt(response: string | undefined): { type: string; message: string } | undefined {
  const error = /<(?:[\w.-]+:)?Error\b[^>]*>([^]*?)<\/(?:[\w.-]+:)?Error>/.exec(response ?? '')?.[1];
  if (error === undefined) return undefined;
  const text = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*>([^<]*)<`).exec(error)?.[1]?.trim() ?? '';
  return { type: text('ErrorType'), message: text('Message') };
}

/** The most frequent reason among calls that did not reach the data path, with its count. */
function commonest(reaches: readonly Reach[]): { top: Reach; count: number } {
  const by = new Map<string, { top: Reach; count: number }>();
  for (const r of reaches) {
    const e = by.get(r.key);
    if (e) e.count++;
    else by.set(r.key, { top: r, count: 1 });
  }
  return [...by.values()].sort((a, b) => b.count - a.count)[0]!;
}

/** "every valid call (3) was rejected with …", saying how many when the reasons differ. */
function everyCall(reaches: readonly Reach[]): string {
  const { top, count } = commonest(reaches);
  return count === reaches.length
    ? `every valid call (${reaches.length}) ${top.error || top.credentials ? 'was ' : ''}${top.words}`
    : `no valid call reached the data path (${reaches.length}; ${count} of `
        + `them ${top.error || top.credentials ? 'were ' : ''}${top.words})`;
}

/** Whether an in-band rejection reads as one of the credentials. */
export function aboutCredentials(e: { readonly type: string; readonly message: string } | undefined): boolean {
  return (
    e !== undefined
    && /authenticat|credential|password|login|log on|unauthori[sz]ed|not authori[sz]ed|access.denied|forbidden|permission/i.test(
      `${e.type} ${e.message}`,
    )
  );
}

/** What an untested cell's commonest answer says (UntestedCell.cause), by the same reading as advice(). */
function causeOf(top: Reach): NonNullable<UntestedCell['cause']> {
  if (top.credentials || aboutCredentials(top.error)) return 'credentials';
  if (top.error) return 'rejected';
  const status = top.status;
  if (status === 401 || status === 403) return 'credentials';
  // Only a status saying "nothing here" is about the address; a 200 without its result, a redirect
  // or a 5xx is the target answering valid calls wrongly: its failures are findings.
  if (status !== undefined && [404, 405, 410, 501].includes(status)) return 'address';
  return 'failing';
}

/** What to do about untested calls, from the commonest reason. */
function advice(top: Reach, one?: Operation): string {
  if (top.credentials || aboutCredentials(top.error))
    return 'check the credentials (the user name, and the password and where it comes from)';
  // A state-changing operation's valid calls name pool bookings (./bookings.ts), not a case's data.
  const pool = one ? poolOf(one.name) : undefined;
  if (top.error && pool) {
    const e = `${top.error.type} ${top.error.message}`;
    if (ALREADY_CANCELLED.test(e)) {
      return (
        `the bookings of \`bookings.${pool}\` are already cancelled (an earlier run used them up, or `
        + `state leaks between bookings: the seq-cancel sequence judges that): `
        + 'create fresh bookings on the target for every run (--dry-run says how many)'
      );
    }
    if (NOT_FOUND.test(e))
      return (
        `the bookings of \`bookings.${pool}\` are not found on the target: give bookings that exist there `
        + `(for this user)`
      );
    return (
      `check the credentials, and that the bookings of \`bookings.${pool}\` exist on the target and can `
      + `still be changed`
    );
  }
  if (top.error) {
    return (
      `check the credentials, and give ${one ? `${one.name} a case` : 'the cases'} with data that exists `
      + `on this target (the config file's "cases")`
    );
  }
  const status = top.status;
  if (status === 401 || status === 403) return 'check the credentials';
  if (
    status === undefined
    || status === 200
    || (status >= 300 && status < 400)
    || [404, 405, 410, 501].includes(status)
  )
    return 'check the base URL and the service path';
  return 'the target fails on valid calls (see the failures)';
}

/** What diagnoseUnits concludes. */
export interface UnitsDiagnosis {
  readonly diagnosis: Diagnosis[];
  readonly rows: ResultRow[];
  /** The operation × binding cells whose valid calls never reached the data path (empty: all reached it). */
  readonly untested: UntestedCell[];
  /** The services one valid call of which at least reached the data path. */
  readonly reachedServices: ReadonlySet<string>;
}

/**
 * Read the finished units. Per operation × binding: did any valid call reach the data path (its
 * result element, without an in-band Error)? A cell none of whose valid calls did was not tested:
 * it is listed in `untested` with why, and the rows whose pass would mean nothing there (the
 * rejections of its negative cases, and the comparison of bindings that only compared rejections)
 * are skipped instead of passed. When no cell of the run reached the data path, nothing was tested
 * (wrong credentials, a wrong path, not this service): the diagnosis says so first, naming the
 * commonest answer. Also: a service none of whose valid calls returned its result element "does not
 * answer like this service"; the namespace the target really uses where results came in another
 * one; and, when the user named the operations, each one that got no exchange at all, as a failed
 * row saying why. A valid case rejected because its data does not exist stays a note (the shape
 * check's skip) as long as another case of its cell reached the data path. A call on a pool booking
 * found unusable (`unusable`: keys of engine/pool-check.ts poolKey) says nothing of the data path
 * either: the pool's, said apart (issue 40).
 */
export function diagnoseUnits(
  plan: Pick<RunPlan, 'target' | 'bindings' | 'operations' | 'operationsNamed' | 'allowMutations'>,
  units: readonly Unit[],
  perUnit: ResultRow[][],
  unusable: ReadonlySet<string> = new Set(),
): UnitsDiagnosis {
  const diagnosis: Diagnosis[] = [];
  const rows: ResultRow[] = [];
  const cellKey = (op: string, b: string) => `${op}\u0000${b}`;
  const cells = new Map<string, { op: Operation; binding: BindingId; reaches: Reach[] }>();
  // Per valid unit and binding: whether that call reached the data path (for its comparison row).
  const unitReach = new Map<number, Map<string, Reach>>();
  units.forEach((u, i) => {
    // A probe names no booking (src/engine/bookings.ts): a service with only real bookings answers it
    // "not found", one where any id exists with data; neither says whether the data path is reached.
    if (u.kind !== 'valid' || u.calls === 'probe') return;
    const byBinding = new Map<string, ResultRow[]>();
    for (const r of perUnit[i] ?? []) {
      if (r.check === EQUIVALENCE_CHECK) continue;
      const list = byBinding.get(r.binding) ?? [];
      list.push(r);
      byBinding.set(r.binding, list);
    }
    const mine = new Map<string, Reach>();
    unitReach.set(i, mine);
    for (const b of plan.bindings) {
      const booking = u.bookings?.[b];
      if (booking && unusable.has(poolKey(booking))) continue;
      const reach = reachOf(u.op, byBinding.get(b) ?? []);
      if (!reach) continue;
      mine.set(b, reach);
      const k = cellKey(u.op.name, b);
      const cell = cells.get(k) ?? { op: u.op, binding: b, reaches: [] };
      cells.set(k, cell);
      cell.reaches.push(reach);
    }
  });
  const untestedCells = [...cells.values()].filter((c) => !c.reaches.some((r) => r.reached));
  const untested: UntestedCell[] = untestedCells.map((c) => ({
    operation: c.op.name,
    binding: c.binding,
    reason: everyCall(c.reaches),
    cause: causeOf(commonest(c.reaches).top),
  }));
  const isUntested = new Set(untestedCells.map((c) => cellKey(c.op.name, c.binding)));
  const nothingTested = untestedCells.length > 0 && untestedCells.length === cells.size;

  if (nothingTested) {
    const all = untestedCells.flatMap((c) => c.reaches);
    const { top } = commonest(all);
    diagnosis.push({
      level: 'error',
      code: NOTHING_TESTED,
      message:
        `nothing was tested: ${everyCall(all)}, on every operation and binding `
        + `called: ${advice(top, untestedCells.find((c) => c.reaches.includes(top))?.op)}; `
        + 'the passes of this run prove nothing (its rejections and comparisons are skipped)',
    });
  }

  // Per service: no valid call returned its result element at all (whatever the status): not this service there.
  const services = new Map<string, { reaches: { unit: Unit; binding: string; reach: Reach }[]; url: string }>();
  units.forEach((u, i) => {
    const s = services.get(u.op.service) ?? {
      reaches: [],
      url: redactUserInfo(serviceUrlOf(plan.target, u.op, 'soap11')),
    };
    services.set(u.op.service, s);
    for (const [binding, reach] of unitReach.get(i) ?? []) s.reaches.push({ unit: u, binding, reach });
  });
  const notThisService = new Set<string>();
  for (const [service, s] of services) {
    if (s.reaches.length === 0 || !s.reaches.every((x) => x.reach.noResult)) continue;
    notThisService.add(service);
    const first = s.reaches[0]!;
    diagnosis.push({
      level: 'error',
      code: 'not_this_service',
      message:
        `the target at ${s.url} does not answer like this service: no valid call of the ${service} `
        + `service returned its result element `
        + `(${s.reaches.length} tried; for example ${first.unit.op.name} `
        + `[${first.binding}] ${first.unit.caseId} ${first.reach.words.slice(0, 300)}): ${advice(first.reach)}`,
    });
  }

  // Per operation, when the run as a whole was tested: the operations (× bindings) that were not.
  if (!nothingTested) {
    const byOp = new Map<string, typeof untestedCells>();
    for (const c of untestedCells) {
      if (notThisService.has(c.op.service)) continue;
      const list = byOp.get(c.op.name) ?? [];
      list.push(c);
      byOp.set(c.op.name, list);
    }
    for (const list of byOp.values()) {
      const op = list[0]!.op;
      const all = list.flatMap((c) => c.reaches);
      const { top } = commonest(all);
      const on =
        list.length === plan.bindings.length ? 'on any binding' : `on ${list.map((c) => c.binding).join(', ')}`;
      diagnosis.push({
        level: 'error',
        code: 'untested_operation',
        message: `${op.name} was not tested ${on}: ${everyCall(all)}: ${advice(top, op)}`,
      });
    }
  }

  const hinted = new Set<string>();
  units.forEach((u, i) => {
    if (u.kind !== 'valid') return;
    for (const r of perUnit[i] ?? []) {
      if (r.check !== 'result_element' || r.status !== 'failed') continue;
      for (const f of r.findings) {
        const seen = clarkParts(f.actual);
        const op = u.op;
        if (
          !seen
          || seen.ns === plan.target.namespaces[op.ns]
          || !/_mismatch$/.test(f.code)
          || hinted.has(`${op.ns}\u0000${seen.ns}`)
        )
          continue;
        hinted.add(`${op.ns}\u0000${seen.ns}`);
        diagnosis.push({
          level: 'hint',
          code: 'other_namespace',
          message:
            `the target answers ${r.operation} with ${seen.local} in namespace ${seen.ns || '(none)'}, `
            + `not ${plan.target.namespaces[op.ns]}: ${nsAdvice(plan.target, op, seen.ns)}`,
        });
      }
    }
  });

  // The passes that mean nothing where the valid calls never reached the data path.
  const serviceUntested = (service: string, b: string) => {
    const mine = [...cells.values()].filter((c) => c.op.service === service && c.binding === b);
    return mine.length > 0 && mine.every((c) => isUntested.has(cellKey(c.op.name, c.binding)));
  };
  const cellUntested = (u: Unit, b: string) =>
    cells.has(cellKey(u.op.name, b)) ? isUntested.has(cellKey(u.op.name, b)) : serviceUntested(u.op.service, b);
  const why = (u: Unit, b: string) => {
    const cell = cells.get(cellKey(u.op.name, b));
    return notThisService.has(u.op.service)
      ? 'the target does not answer like this service (see the diagnosis)'
      : `no valid call of ${u.op.name} [${b}] reached the data path${cell ? ` (${everyCall(cell.reaches)})` : ''}`;
  };
  units.forEach((u, i) => {
    const rs = perUnit[i];
    if (!rs) return;
    perUnit[i] = rs.map((r) => {
      if (r.status !== 'passed') return r;
      if (u.kind !== 'valid' && REJECTION_CHECKS.has(r.check) && cellUntested(u, r.binding)) {
        return {
          ...r,
          status: 'skipped',
          message: `not judged: ${why(u, r.binding)}, so this rejection proves nothing`,
        };
      }
      if (r.check !== EQUIVALENCE_CHECK) return r;
      const bs = rowBindings(r);
      // A valid case of an untested cell: the bindings agreed, but only on a rejection. (Where the
      // cell was tested by another case, bindings agreeing on a case's in-band Error stays a pass.)
      const compared =
        u.kind === 'valid'
          ? bs.some((b) => cellUntested(u, b)) && bs.every((b) => unitReach.get(i)?.get(b)?.reached !== true)
          : bs.some((b) => cellUntested(u, b));
      if (!compared) return r;
      return {
        ...r,
        status: 'skipped',
        message:
          `not judged: ${why(u, bs.find((b) => cellUntested(u, b)) ?? bs[0]!)}, so the bindings only `
          + `agreed on a rejection`,
      };
    });
  });

  if (plan.operationsNamed) {
    for (const op of plan.operations) {
      const reason = notCalledReason(
        op.name,
        units.flatMap((u, i) => (u.op === op ? (perUnit[i] ?? []) : [])),
      );
      if (reason === undefined) continue;
      // Forbidden by the user's own settings (a state-changing operation without --allow-mutations):
      // not the target's failure. The settings refuse it up front (./settings.ts); a plan built by
      // hand (the library) gets a hint, never a failed row.
      if (skipReason(plan, op)) {
        diagnosis.push({
          level: 'hint',
          message:
            `${op.name} was named in the operations but not called: ${reason}: allow mutations to call `
            + `it, or leave it out`,
        });
        continue;
      }
      const message = `${op.name} was named in --operations but never called: ${reason}`;
      diagnosis.push({ level: 'error', code: 'operation_not_called', message });
      rows.push({
        operation: op.name,
        group: op.group,
        binding: bindingField(plan.bindings),
        case: '*',
        check: NOT_RUN_CHECK,
        status: 'failed',
        message,
        path: '/',
        reproduce: '',
        findings: [{ check: NOT_RUN_CHECK, code: 'operation_not_called', path: '/', message }],
      });
    }
  }
  const reachedServices = new Set(
    [...cells.values()].filter((c) => c.reaches.some((r) => r.reached)).map((c) => c.op.service),
  );
  return { diagnosis, rows, untested, reachedServices };
}
