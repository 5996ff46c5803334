/**
 * The booking rule of a plan's state-changing calls (./bookings.ts): which booking of which pool each
 * call changes, each booking once, handed out over the whole plan; the rejected calls' booking and
 * its read-back; what showed a booking live. Moved whole from ./plan.ts.
 */
import type { BindingId, Operation } from '../contract/catalogue.js';
import { stateRuleOf } from '../contract/state-rules.js';
import type { CaseKind } from '../checks/context.js';
import type { RejectedCall } from '../sequences/index.js';
import {
  BookingLedger,
  consumesBooking,
  EMPTY_POOLS,
  ID_PROBE_VARIANTS,
  idParamOf,
  loginProbeId,
  mockBookings,
  needsBooking,
  noBookingReason,
  poolOf,
  probeVariant,
  poolKey,
  type Booking,
  type BookingPools,
  type PoolName,
} from './bookings.js';
import { skipReason, type RunPlan, type Unit } from './unit.js';

/** The pools a plan draws from: its own, else the embedded mock's, else none. */
export function poolsOf(plan: Pick<RunPlan, 'bookings' | 'target'>): BookingPools {
  return plan.bookings ?? (plan.target.embedded ? mockBookings() : EMPTY_POOLS);
}

/** Rank of a unit's claim on the pools: the hand-written cases first, then the sequences, then the rest. */
const claimRank = (u: Unit) => (u.sequence ? 1 : u.kind === 'valid' ? 0 : u.kind === 'generated' ? 2 : 3);
/** The case kinds whose state-changing call is a rejection (./bookings.ts). */
const REJECTIONS: ReadonlySet<CaseKind> = new Set([
  'wrong-credentials',
  'missing-param',
  'bad-param',
  'wrong-soapaction',
]);

/**
 * The booking rule of every state-changing call (./bookings.ts): real calls get pool bookings (a
 * booking per binding for the first case of an operation that uses them up; one booking for the
 * whole run otherwise), probes an id of their own per binding where a call would use a booking up,
 * rejections the first binding's booking of the first case, read back afterwards. Handed out in a
 * fixed order, over the whole plan, so every shard and every --case hands out the same bookings. A
 * call left without a booking is not sent; calls the policy does not send claim none.
 */
export function withBookings(plan: RunPlan, units: readonly Unit[]): Unit[] {
  const ledger = new BookingLedger(poolsOf(plan));
  const out = [...units];
  const order = units.map((u, i) => ({ u, i })).sort((a, b) => claimRank(a.u) - claimRank(b.u) || a.i - b.i);
  // The one booking of an operation that does not use it up, and the first case's bookings of one that does.
  const shared = new Map<PoolName, Booking | undefined>();
  const sharedOf = (pool: PoolName) => {
    if (!shared.has(pool)) shared.set(pool, ledger.take(pool));
    return shared.get(pool);
  };
  const firstCase = new Map<string, Partial<Record<BindingId, Booking>>>();
  /** Probe units of each operation that uses bookings up, so far. */
  const probes = new Map<string, number>();
  const rejected = new Map<string, { booking: Booking; calls: RejectedCall[] }>();
  const handWrittenIds = (op: Operation) =>
    new Set((plan.cases.get(op.name) ?? []).map((c) => c.params[idParamOf(op.name)!]));
  for (const { u, i } of order) {
    if (u.sequence) {
      // A read-back of rejected calls is given their booking once they have theirs (below).
      if (skipReason(plan, u.op) || u.sequence.readsBack) continue;
      // A sequence that uses another's bookings again, once that one has ended (run.ts waits): none of its own.
      const after = u.sequence.after;
      if (after !== undefined) {
        const of = out.find((x) => x.sequence?.family === after.name);
        const got = of && !of.unsent ? (of.sequence?.bookings ?? []) : [];
        out[i] = {
          ...u,
          sequence: { ...u.sequence, bookings: got },
          ...(got.length
            ? {}
            : {
                unsent: Object.fromEntries(
                  plan.bindings.map((b) => [
                    b,
                    `${u.op.name} ${u.caseId}: the ${after.name} sequence whose bookings it uses again has none`,
                  ]),
                ),
              }),
        };
        continue;
      }
      // All the bookings it needs, or none (a part of a sequence proves nothing).
      const got: Booking[] = [];
      const enough = ledger.left(u.sequence.pool) >= u.sequence.needs;
      for (let k = 0; enough && k < u.sequence.needs; k++) got.push(ledger.take(u.sequence.pool)!);
      const short =
        got.length < u.sequence.needs
          ? {
              unsent: Object.fromEntries(
                plan.bindings.map((b) => [
                  b,
                  `${u.op.name} ${u.caseId}: needs ${u.sequence!.needs} `
                    + `bookings, ${ledger.left(u.sequence!.pool)} left in \`bookings.${u.sequence!.pool}\``,
                ]),
              ),
            }
          : {};
      out[i] = { ...u, sequence: { ...u.sequence, bookings: got }, ...short };
      continue;
    }
    const pool = poolOf(u.op.name);
    if (!pool || skipReason(plan, u.op) || !needsBooking(u.op.name, u.caseId, u.params)) continue;
    const idParam = idParamOf(u.op.name)!;
    const consumes = consumesBooking(u.op.name);
    const bindings = plan.bindings.filter((x) => !u.only || u.only.includes(x));
    if (u.kind === 'login-variant') {
      // Never a pool booking: an id no booking has (loginProbeId), so a login let in
      // answers "not found" (or with data on a service where any id exists) and changes nothing.
      const type = u.op.params.find((p) => p.name === idParam)?.type ?? 'string';
      // Where a call would use a booking up, each binding its own (as other probes: ./bookings.ts).
      const params = { ...u.params, [idParam]: loginProbeId(type, u.caseId) };
      const perBinding = consumes
        ? Object.fromEntries(plan.bindings.map((b) => [b, { [idParam]: loginProbeId(type, `${u.caseId}-${b}`) }]))
        : undefined;
      out[i] = { ...u, params, calls: 'probe', ...(perBinding ? { perBinding } : {}), stage: 'writes' };
      continue;
    }
    const isFirst = u.kind === 'valid' && plan.cases.get(u.op.name)?.[0]?.id === u.caseId;
    const real =
      isFirst
      || (!consumes && (u.kind === 'valid' || u.kind === 'generated') && handWrittenIds(u.op).has(u.params[idParam]));
    if (REJECTIONS.has(u.kind)) {
      const booking = consumes ? undefined : sharedOf(pool);
      out[i] = {
        ...u,
        calls: 'rejection',
        ...(booking ? { bookings: Object.fromEntries(bindings.map((b) => [b, booking])) } : {}),
      };
      continue;
    }
    if (!real) {
      // A probe: the id as generated; where a call would use a booking up, each binding its own
      // variant, and each probe unit its own (coverage cases keep one id: a cancellation of one
      // unit's ids must not decide another's answers).
      const nth = consumes ? (probes.get(u.op.name) ?? 0) : 0;
      if (consumes) probes.set(u.op.name, nth + 1);
      const perBinding = consumes
        ? Object.fromEntries(
            bindings.map((b) => [
              b,
              {
                [idParam]: probeVariant(
                  u.params[idParam] ?? '',
                  ID_PROBE_VARIANTS + nth * plan.bindings.length + plan.bindings.indexOf(b) + 1,
                ),
              },
            ]),
          )
        : undefined;
      out[i] = { ...u, calls: 'probe', ...(perBinding ? { perBinding } : {}), stage: 'writes' };
      continue;
    }
    const bookings: Partial<Record<BindingId, Booking>> = {};
    const unsent: Partial<Record<BindingId, string>> = {};
    for (const b of bindings) {
      const got = consumes ? ledger.take(pool) : sharedOf(pool);
      if (got) bookings[b] = got;
      else unsent[b] = noBookingReason(u.op.name, b, u.caseId, pool);
    }
    if (isFirst && consumes) firstCase.set(u.op.name, bookings);
    out[i] = {
      ...u,
      calls: 'real',
      bookings,
      ...(Object.keys(unsent).length ? { unsent } : {}),
      ...(consumes ? {} : { serial: true }),
      stage: 'writes',
    };
  }
  // Rejections of an operation that uses bookings up go against the first binding's booking of its
  // first case (sent later, in stage `writes`: its acceptance then shows the booking unchanged too).
  for (const [i, u] of out.entries()) {
    if (u.calls !== 'rejection') continue;
    const pool = poolOf(u.op.name)!;
    const bindings = plan.bindings.filter((x) => !u.only || u.only.includes(x));
    const booking = u.bookings?.[bindings[0]!] ?? firstCase.get(u.op.name)?.[plan.bindings[0]!];
    if (!booking) {
      out[i] = {
        ...u,
        unsent: Object.fromEntries(
          bindings.map((b) => [
            b,
            `${u.op.name} ${b} ${u.caseId}: a rejected call is sent only against a live booking of `
              + `\`bookings.${pool}\`, and none was left`,
          ]),
        ),
      };
      continue;
    }
    // A rejected write carries a text of its own per binding: read back, it names the call that stored it.
    const writes = stateRuleOf(u.op.name)?.writes;
    const texts =
      writes === undefined
        ? undefined
        : Object.fromEntries(bindings.map((b) => [b, { [writes]: rejectedText(u.caseId, b) }]));
    const entry = rejected.get(u.op.name) ?? { booking, calls: [] };
    for (const b of bindings)
      entry.calls.push({ caseId: u.caseId, binding: b, ...(texts ? { text: texts[b]![writes!]! } : {}) });
    rejected.set(u.op.name, entry);
    out[i] = {
      ...u,
      bookings: Object.fromEntries(bindings.map((b) => [b, booking])),
      ...(texts ? { perBinding: texts } : {}),
    };
  }
  // The read-backs of rejected calls (SequenceSpec.readsBack): each given the booking they were sent
  // against and their names, placed after every other unit in the order of the operations' first
  // rejected call; one whose operation sent none is not planned. An operation no family reads back
  // (no read exists: a transfer booking) is read back by its first case's real call on that booking
  // (./rejected-before.ts judges it).
  const readBacks = out.filter((u) => u.sequence?.readsBack);
  const planned = out.filter((u) => !u.sequence?.readsBack);
  for (const [opName, r] of rejected) {
    const back = readBacks.find((u) => u.op.name === opName);
    if (!back) {
      const k = planned.findIndex(
        (x) => x.op.name === opName && x.calls === 'real' && firstCase.get(opName) === x.bookings,
      );
      if (k >= 0) planned[k] = { ...planned[k]!, rejectedBefore: r.calls };
      continue;
    }
    const shown = shownLive(plan, r.booking);
    planned.push({
      ...back,
      sequence: {
        ...back.sequence!,
        pool: r.booking.pool,
        bookings: [r.booking],
        rejected: r.calls,
        ...(shown ? { shownLive: shown } : {}),
      },
    });
  }
  return planned;
}

/**
 * The text a rejected UpdateSpecialRequest sends through a binding: found in the booking afterwards, it names that
 * call.
 */
export function rejectedText(caseId: string, binding: BindingId): string {
  return `conformance: rejected call ${caseId} through ${binding} must not be stored`;
}

/**
 * What showed a pool booking live before any call of the run (the evidence a read-back of rejected
 * calls needs before it may blame them, issue 40), or undefined: the pool check's read of it
 * (./pool-check.ts), or the embedded mock, which this run started with no booking used.
 */
export function shownLive(
  plan: Pick<RunPlan, 'target' | 'poolCheck' | 'bindings'>,
  booking: Booking,
): string | undefined {
  if (plan.target.embedded) return 'the embedded mock, started by this run with no booking used';
  if (plan.poolCheck?.shown.has(poolKey(booking)))
    return `read live before the run (the pool check, through ${plan.bindings[0]})`;
  return undefined;
}

/** What the families of sequences see of a plan. */
