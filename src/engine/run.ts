/**
 * The conformance run: every unit of the plan (./plan.ts) is sent on its bindings through the one
 * send path (./exchange.ts), each exchange is checked as it arrives, the bindings' results are
 * compared, and everything becomes redacted result rows (./rows.ts) and a report.
 *
 * Bounded whatever the target sends: each exchange is checked as it arrives, one at a time in the
 * whole process (one document's tree in memory), with the event loop given a turn between checks
 * and libxml2 on large documents in a process of its own; its tree is dropped once checked, and
 * the comparison of bindings keeps digests (entries are read again only where digests differ). No
 * check starts after the deadline: what was not run is reported as such. The units run as the one
 * scheduler lets them (./schedule.ts: stages, and what may be under way at once); this file halts
 * the run (--max-failures, an interrupt, a target that refused it), sends the flaky failures again
 * (./flaky.ts) and builds the report. One exchange checked: ./check-exchange.ts; a unit's rows:
 * ./unit-rows.ts; shrinking: ./shrink.ts; the external entities fetched: ./fetches.ts; the rejected
 * calls read back by a real call and the bookings found unusable: ./rejected-before.ts.
 */
import type { BindingId } from '../contract/catalogue.js';
import { REDACTED, redactUserInfo } from '../core/redact.js';
import { NOTHING_TESTED } from '../core/rows.js';
import type { BookingUse, Diagnosis, ResultRow, RunReport } from '../core/types.js';
import { TOOL } from '../core/version.js';
import { hasLatencyLimit, latencyGateRows } from './latency-gate.js';
import { networkFlags } from '../transport/curl.js';
import { withNetworkPath } from './network-path.js';
import type { Transport } from '../transport/client.js';
import { diagnoseUnits, type UnitsDiagnosis } from './diagnose.js';
import { preflight, settleWsdlHints } from './preflight.js';
import { stopDiagnosis } from './stop-diagnosis.js';
import { OtherLoginProof } from './other-login.js';
import { poolOf, POOL_NAMES } from './bookings.js';
import type { EngineDeps } from './deps.js';
import { bookingNeeds, planUnits, sequenceNotes, type RunPlan, type Unit } from './plan.js';
import { poolKey, unusableDiagnosis, type UnusableBooking } from './pool-check.js';
import { RowMaker, summarise } from './rows.js';
import { schedule } from './schedule.js';

/**
 * What units whose answers are all in, waiting to be checked, may weigh: this many times what may be on the wire
 * (runPlan).
 */
const HELD_PER_CAPACITY = 4;
export { summarise };
import { redactorOf } from './check-exchange.js';
import { notRunRows, resendUnit, runUnit } from './unit-rows.js';
import { shrinkUnit } from './shrink.js';
import { judgeFetches } from './fetches.js';
import { spentUnusable } from './rejected-before.js';
import { resendFailures } from './flaky.js';
import { DEFAULT_MAX_TRANSIENT, TransientTally } from './transient.js';
import { startCoverage } from './coverage.js';

export type { EngineDeps } from './deps.js';
// The run's parts, moved to files of their own, are still found here by those that run units.
export { answerPrint, resendUnit, runUnit } from './unit-rows.js';
export { shrinkUnit } from './shrink.js';

/**
 * The report's bookings: each one a call was sent with (bindings in plan order), and the calls no pool had a booking
 * for.
 */
function bookingsOf(
  plan: RunPlan,
  units: readonly Unit[],
  used: readonly BookingUse[][],
  unusable: readonly UnusableBooking[],
): Pick<RunReport, 'bookings'> {
  if (!units.some((u) => u.bookings !== undefined) && unusable.length === 0) return {};
  const order = (b: string) => plan.bindings.indexOf(b as BindingId);
  // A case's bookings in binding order; a sequence's in the order of its steps.
  const changed = used.flatMap((us) =>
    [...us].sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || order(a.binding) - order(b.binding)),
  );
  const short: Record<string, number> = {};
  for (const u of units) {
    for (const [b, why] of Object.entries(u.unsent ?? {})) {
      if (why === undefined || u.bookings?.[b as BindingId]) continue;
      const pool = poolOf(u.op.name) ?? 'unknown';
      short[pool] = (short[pool] ?? 0) + 1;
    }
  }
  const needed = bookingNeeds(plan);
  // The pools as given (the pool check put their live bookings first, the dead ones out).
  const given =
    plan.poolCheck?.given
    ?? (plan.bookings ? Object.fromEntries(POOL_NAMES.map((p) => [p, plan.bookings![p].length])) : undefined);
  return {
    bookings: {
      changed,
      ...(Object.keys(short).length ? { short } : {}),
      needed,
      ...(given ? { given } : {}),
      ...(unusable.length ? { unusable } : {}),
    },
  };
}

/** What the preflight says of a host that the watch's judgement says better (and first). */
const PREFLIGHT_TOLD: ReadonlySet<string> = new Set([
  'host_unreachable',
  'plain_http_port',
  'tls_closed',
  'wsdl_not_found',
]);

/** Why nothing more is sent, when the transport's watch stopped the run at once (src/transport/watch.ts). */
function stoppedAtOnce(transport: Transport): string | undefined {
  const j = transport.judgement;
  if (!j) return undefined;
  return j.kind === 'refused'
    ? `the target refused the run (${j.code}: see the diagnosis)`
    : `the target is down (${j.code}: see the diagnosis)`;
}

/**
 * Run a whole plan and build the (redacted) report; `units` narrows it to some of the plan's units
 * (a shard), the report keeping the plan's bindings and operations.
 */
export async function runPlan(
  plan: RunPlan,
  given: EngineDeps,
  units: readonly Unit[] = planUnits(plan),
): Promise<RunReport> {
  const started = Date.now();
  const tally = given.tally ?? new TransientTally();
  const failedAnswers = new Map<Unit, ReadonlyMap<string, string>>();
  // The second account's login: proven before the first family that uses it asks for it, once (./other-login.ts).
  const otherLogin = new OtherLoginProof(plan, { ...given, tally });
  const deps: EngineDeps = {
    ...given,
    tally,
    otherLogin,
    onFailedAnswers: (u, prints) => {
      failedAnswers.set(u, prints);
    },
  };
  const redact = redactorOf(plan, deps);
  const coverage = startCoverage(plan, redact);
  const before = await preflight(plan, deps.transport);
  let done = 0;
  // What runs at once is bounded by what it sends at once (./schedule.ts): a case its bindings (a
  // serial one, its bindings one after another, one), a sequence one call at a time. Twice the
  // transport's concurrency in requests, plus one case's, on the wire; and four times that again in
  // units whose answers are all in and wait for their turn to be checked (one at a time in the
  // process), so that the connections stay busy while the checks catch up (issue 43). What the
  // answers held weigh is the transport's body budget's to bound (large bodies wait for it:
  // transport/client.ts); the small ones number at most 5 × (2 × concurrency + bindings).
  const perBinding = Math.max(1, plan.bindings.length);
  const capacity = 2 * deps.transport.options.concurrency + perBinding;
  const weight = (u: Unit) =>
    u.sequence || u.serial ? 1 : plan.bindings.filter((b) => !u.only || u.only.includes(b)).length;
  // The FLAKY pass's units at once (./flaky.ts): the same bound in cases.
  const atOnce = Math.max(1, Math.ceil(deps.transport.options.concurrency / perBinding) + 1);
  const perUnit: ResultRow[][] = new Array(units.length);
  const used: BookingUse[][] = units.map(() => []);
  // Why the run stopped early (--max-failures, an interrupt): the units after it are not sent.
  let halted: string | undefined;
  const maxFailuresReached = `--max-failures ${plan.maxFailures} reached`;
  let failed = 0;
  let sent = 0;
  // When the last external-entity probe was answered: a fetch is awaited a little after it (./callback.ts).
  let lastExternalProbe = 0;
  await Promise.all(
    schedule(
      units,
      async (u, i, answered) => {
        halted ??= deps.stopped?.() ?? stoppedAtOnce(deps.transport);
        if (halted) {
          perUnit[i] = notRunRows(plan, new RowMaker(redact), u, `not run: ${halted}`);
          return;
        }
        const rows = await runUnit(
          plan,
          {
            ...deps,
            onBooking: (x) => {
              used[i]!.push(x);
              deps.onBooking?.(x);
            },
            onAnswered: answered,
          },
          u,
        );
        if (u.doctype?.entity === 'external') lastExternalProbe = Date.now();
        perUnit[i] =
          u.baseline && rows.some((r) => r.status === 'failed') ? await shrinkUnit(plan, deps, u, rows) : rows;
        sent++;
        // A read left transient is no failure yet: it is sent again after the main pass.
        failed += perUnit[i]!.filter(
          (r) => r.status === 'failed' && !r.findings.every((f) => f.code === 'transient_answer'),
        ).length;
        if (plan.maxFailures !== undefined && failed >= plan.maxFailures) halted ??= maxFailuresReached;
        deps.onProgress?.(++done, units.length, `${u.op.name} ${u.caseId}`, failed);
      },
      // A run bounded by --max-failures stops sending as soon as the failures it counts reach the bound, and they are
      // counted once checked: no unit starts while earlier ones wait for their checks (the bound's overshoot stays the
      // cases on the wire, as it says).
      { capacity, held: plan.maxFailures === undefined ? HELD_PER_CAPACITY * capacity : 0, weight },
    ),
  );
  halted ??= deps.stopped?.() ?? stoppedAtOnce(deps.transport);
  // FLAKY: the failed read cases sent again, once the main pass is over (./flaky.ts).
  if (!halted) {
    const again = await resendFailures(
      units,
      perUnit,
      (u) => resendUnit(plan, { ...deps, onFailedAnswers: undefined }, u, failedAnswers.get(u)),
      {
        ...(deps.transport.options.deadline !== undefined ? { deadline: deps.transport.options.deadline } : {}),
        atOnce,
        stopped: () => deps.stopped?.(),
      },
    );
    perUnit.splice(0, perUnit.length, ...again.rows);
  }
  // The target refused the run or was down (transport/watch.ts): that is the whole diagnosis, first;
  // what the units would conclude (credentials, paths) is not said. No row fails against an operation
  // for it: before any answer of the target's own, every failure is of answers that are not the
  // service's (a gateway's page); after (a target gone down mid-run), those of the exchanges it left
  // without an answer of its own, the service's findings kept.
  const judged = deps.transport.judgement;
  if (judged) {
    const why = `not judged: ${stoppedAtOnce(deps.transport)}`;
    const answered = deps.transport.answered;
    const notService = (r: ResultRow) =>
      !answered
      || (r.findings.length > 0 && r.findings.every((f) => f.code === 'transient_answer' || f.code === 'no_response'));
    for (const [i, rs] of perUnit.entries()) {
      if (rs)
        perUnit[i] = rs.map((r) =>
          r.status === 'failed' && notService(r)
            ? { ...r, status: 'skipped', message: `${why} (${r.message})`, findings: [] }
            : r,
        );
    }
  }
  // The external entities fetched from the harness's listener, judged now, on their probes' rows.
  const fetches = await judgeFetches(plan, units, perUnit, new RowMaker(redact), lastExternalProbe);
  // Pool bookings the run's calls found unusable (a transfer booking has no read): the pool's, not the target's.
  const spent = spentUnusable(plan, units, used);
  const unusable = [...(plan.poolCheck?.unusable ?? []), ...spent];
  const after: UnitsDiagnosis = judged
    ? { diagnosis: [], rows: [], untested: [], reachedServices: new Set() }
    : diagnoseUnits(plan, units, perUnit, new Set(spent.map(poolKey)));
  const login = await otherLogin.report(new RowMaker(redact));
  const ran = [...(judged ? [] : before.rows), ...login.rows, ...perUnit.flat(), ...after.rows];
  // The latency gate judges what was answered, last: its rows are about every case of a cell.
  const gated = hasLatencyLimit(plan.latency)
    ? latencyGateRows(
        { results: ran, bindings: plan.bindings, operations: plan.operations.map((o) => o.name) },
        plan.latency,
      )
    : [];
  const results = gated.length > 0 ? [...ran, ...gated] : ran;
  const health = tally.summary(plan.maxTransient ?? DEFAULT_MAX_TRANSIENT);
  // That nothing was tested is said first: it explains everything below it; an unhealthy target before the rest.
  const first = (d: Diagnosis) => d.code === NOTHING_TESTED;
  // Its words may quote the gateway's page: redacted as every row is.
  const stop = judged ? [stopDiagnosis(judged, plan.target)].map((d) => ({ ...d, message: redact(d.message) })) : [];
  const preflightSaid = judged
    ? before.diagnosis.filter((d) => !PREFLIGHT_TOLD.has(d.code ?? ''))
    : settleWsdlHints(before, after.reachedServices);
  // A refused login of the second account next: it explains the skipped rows of its families and the verdict
  // (core/verdict.ts).
  const diagnosis = [
    ...stop,
    ...after.diagnosis.filter(first),
    ...login.diagnosis,
    ...(health.diagnosis && !judged ? [health.diagnosis] : []),
    ...preflightSaid,
    ...after.diagnosis.filter((d) => !first(d)),
    // What no sequence could test, and how to enable it (authorization across accounts without a second account).
    ...sequenceNotes(plan),
    // Each pool booking found unusable, named with its pool (./pool-check.ts).
    ...unusableDiagnosis(unusable),
    // A fetch of the external entity that could not be observed (no listener the target reaches).
    ...fetches,
  ];
  const t = plan.target;
  const summary = summarise(results);
  // The failed rows counted when the bound was reached differ from the summary's: the cases under way
  // finish, and the preflight and the diagnosis add rows. Say the summary's number, and what it counts.
  if (halted === maxFailuresReached) {
    halted =
      `${maxFailuresReached} (${summary.failed} failed row${summary.failed === 1 ? '' : 's'} in all, the `
      + `cases under way when it was reached included)`;
  }
  return {
    tool: { ...TOOL },
    target: {
      bookUrl: redactUserInfo(t.bookUrl),
      searchUrl: redactUserInfo(t.searchUrl),
      transfersUrl: redactUserInfo(t.transfersUrl),
      paths: t.paths,
      namespaces: t.namespaces,
      user: t.user,
      password: t.password ? REDACTED : '',
      embedded: t.embedded,
      // The second account's user name only: its password is a secret of the run (never written), read again from its
      // variable.
      ...(t.other ? { otherUser: t.other.user } : {}),
      ...(networkFlags(t.network).length ? { network: networkFlags(t.network) } : {}),
      ...withNetworkPath(t),
    },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    bindings: plan.bindings,
    operations: plan.operations.map((o) => o.name),
    summary,
    results,
    ...(t.passwordVariable ? { passwordVariable: t.passwordVariable } : {}),
    ...(t.other?.passwordVariable ? { otherPasswordVariable: t.other.passwordVariable } : {}),
    ...(diagnosis.length > 0 ? { diagnosis } : {}),
    ...bookingsOf(plan, units, used, unusable),
    ...(after.untested.length > 0 ? { untested: after.untested } : {}),
    ...(health.transient ? { transient: health.transient } : {}),
    ...(halted ? { incomplete: `${halted}: ${sent} of ${units.length} cases run` } : {}),
    ...(plan.generation && plan.generation.examples > 0
      ? // The languages too: a re-run command pins them (--languages), so it sends the same values without asking the target.
        {
          generation: {
            seed: plan.generation.seed,
            examples: plan.generation.examples,
            languagesFrom: plan.generation.languagesFrom,
            languages: plan.generation.languages,
          },
        }
      : {}),
    ...(hasLatencyLimit(plan.latency) ? { latencyGate: plan.latency } : {}),
    ...(before.drift ? { drift: before.drift } : {}),
    coverage: coverage.report(plan.minCoverage),
  };
}
