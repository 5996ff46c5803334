/**
 * The one verdict of a run (issue 31): PASS, FAIL, UNTESTED, INCOMPLETE or OUTAGE, with its exit
 * code and the reason a headline gives, derived once from the finished report. The exit code, the
 * console headline, the Markdown and HTML headline, JUnit's properties and conformance.json's
 * `verdict` and `exitCode` all come from here, so no two of them can disagree.
 */
import {
  DRIFT_CHECK,
  EXCHANGE_CHECK,
  OTHER_LOGIN_REFUSED,
  OTHER_LOGIN_UNPROVEN,
  rowBindings,
  untestedExtent,
} from './rows.js';
import type { Diagnosis, ResultRow, RunReport, Verdict } from './types.js';

export type { Verdict } from './types.js';

/** Exit code of a run that failed the contract. */
export const EXIT_FAIL = 1;
/** Exit code when not one exchange got a response: the target is down, not broken (CI can tell an outage). */
export const EXIT_UNREACHABLE = 4;
/**
 * Exit code when the target answered but valid calls never reached the data path: nothing was
 * tested (wrong credentials, a wrong URL or path, not this service), or some operation × binding was
 * not and nothing else failed. Not 1 (the contract was not shown broken) and not 4 (the target answers):
 * CI can tell "fix the harness's settings" from an outage and from a broken service.
 */
export const EXIT_UNTESTED = 5;
/**
 * Exit code when nothing failed but calls were left unsent: a booking pool ran out or none was given, or the deadline
 * passed.
 */
export const EXIT_INCOMPLETE = 6;
/** Exit codes of a run stopped by SIGINT and SIGTERM (128 + the signal's number, as shells say). */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

/** A run's verdict, its exit code and the one sentence that says why. */
export interface RunVerdict {
  readonly verdict: Verdict;
  readonly exitCode: number;
  /** Why, in words a headline can carry ("no valid call reached the data path: nothing was tested"). */
  readonly reason: string;
}

/**
 * Diagnosis codes of a run stopped at once because the target refused it as a whole or was down
 * from its first answers (src/transport/watch.ts judges, src/engine/diagnose.ts words it): an
 * OUTAGE (exit 4), whatever rows the few answers before the judgement left.
 */
export const STOP_CODES = [
  'proxy_refused',
  'tls_untrusted',
  'tls_refused',
  'tls_closed',
  'closed_before_tls',
  'unknown_host',
  'gateway_refusal',
  'target_down',
] as const;
export type StopCode = (typeof STOP_CODES)[number];
const STOPPING: ReadonlySet<string> = new Set(STOP_CODES);

/** The diagnosis that stopped the run at once, if one did (an error with a STOP_CODES code). */
export function stoppedBy(report: Pick<RunReport, 'diagnosis'>): Diagnosis | undefined {
  return report.diagnosis?.find((d) => d.level === 'error' && d.code !== undefined && STOPPING.has(d.code));
}

/** The words a skipped row carries when the run's deadline stopped it (src/engine/run.ts). */
const DEADLINE_WORDS = "the run's deadline passed";
/** How a row left unsent for want of a booking says so (src/engine/bookings.ts, sequences.ts). */
const POOL_SHORT = /\b(?:no booking|\d+) left in `bookings\.([A-Za-z]+)`/;

/** True when exchanges were tried and not one got a response: nothing about the target was tested. */
export function nothingAnswered(rows: readonly Pick<ResultRow, 'check' | 'status'>[]): boolean {
  const exchanges = rows.filter((r) => r.check === EXCHANGE_CHECK);
  return exchanges.some((r) => r.status === 'failed') && !exchanges.some((r) => r.status === 'passed');
}

type Judged = Pick<
  RunReport,
  'results' | 'untested' | 'diagnosis' | 'bookings' | 'incomplete' | 'transient' | 'coverage'
>;

/**
 * Whether a row is about one operation × binding cell whose valid calls never reached the data path
 * (`symptoms`: only those whose cause explains their failures: wrong credentials or address).
 */
function inUntestedCell(
  report: Pick<RunReport, 'untested'>,
  symptoms = false,
): (r: Pick<ResultRow, 'operation' | 'binding'>) => boolean {
  const cells = new Set(
    (report.untested ?? [])
      .filter((u) => !symptoms || u.cause === 'credentials' || u.cause === 'address')
      .map((u) => `${u.operation}\u0000${u.binding}`),
  );
  // No untested cell (a run that reached every one): no row is in one, and none need be split into
  // its bindings (tens of thousands of rows, twice per verdict).
  if (cells.size === 0) return () => false;
  return (r) => {
    const bs = rowBindings(r);
    return bs.length > 0 && bs.every((b) => cells.has(`${r.operation}\u0000${b}`));
  };
}

/**
 * The passed rows that are no passes of the contract: those about answers that never reached the
 * data path (every row of a run that tested nothing, or of an operation × binding that was not
 * tested). Headlines count them apart.
 */
export function passedUnreached(report: Pick<RunReport, 'results' | 'untested' | 'diagnosis'>): number {
  const passed = report.results.filter((r) => r.status === 'passed');
  if (untestedExtent(report) === 'all') return passed.length;
  const untested = inUntestedCell(report);
  return passed.filter(untested).length;
}

/**
 * The failed rows that break the contract: not those of an operation × binding whose valid calls
 * never reached the data path for want of the right credentials or address (a 404 there is the
 * symptom of a wrong path, not a finding of the service: the cell is UNTESTED, as the README's exit
 * 5 says). A cell that answers valid calls with an error status keeps its failures: it fails.
 */
export function contractFailures(report: Pick<RunReport, 'results' | 'untested' | 'diagnosis'>): ResultRow[] {
  const failed = report.results.filter((r) => r.status === 'failed');
  if (untestedExtent(report) === 'all') return [];
  const symptom = inUntestedCell(report, true);
  return failed.filter((r) => !symptom(r));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Why the run's coverage is below --min-coverage, naming the figure and the threshold (and where it
 * was set); undefined when no threshold was set or the figure reaches it (docs/coverage.md).
 */
export function coverageShortfall(report: Pick<RunReport, 'coverage'>): string | undefined {
  const c = report.coverage;
  if (!c?.min || c.partial !== undefined || c.percent >= c.min.percent) return undefined;
  const paths = c.answerPaths.total - c.answerPaths.seen;
  const kinds = c.requestKinds.total - c.requestKinds.sent;
  return (
    `coverage ${c.percent}% is below the minimum ${c.min.percent}% `
    + `(${c.min.source}): ${plural(paths, 'answer path')} held by no answer, `
    + `${plural(kinds, 'kind')} of parameter value not sent (see the coverage section of the report)`
  );
}

/**
 * The verdict of a finished run: `signal` is the exit code of a SIGINT/SIGTERM that stopped it.
 * In order: a signal (its exit code, whatever ran), no answer at all (OUTAGE), nothing tested
 * (UNTESTED), a failure (FAIL), the second account's login refused or shown nowhere (UNTESTED: its
 * families were not tested, the diagnosis the reason), a WSDL --fail-on-drift could not compare (UNTESTED,
 * as `conformance drift` exits 5), some operation × binding untested (UNTESTED), calls left unsent for
 * want of a booking or by the deadline, or coverage below --min-coverage (INCOMPLETE), nothing passed
 * (UNTESTED), else PASS.
 */
export function judgeRun(report: Judged, signal?: number): RunVerdict {
  const rows = report.results;
  if (signal !== undefined) {
    return {
      verdict: 'INCOMPLETE',
      exitCode: signal,
      reason: report.incomplete ?? `interrupted by ${signal === EXIT_SIGTERM ? 'SIGTERM' : 'SIGINT'}`,
    };
  }
  // The target refused the run, or was down from its first answers: the run stopped at once (issue 41).
  const stop = stoppedBy(report);
  if (stop) {
    return {
      verdict: 'OUTAGE',
      exitCode: EXIT_UNREACHABLE,
      reason: `the run stopped at once: ${stop.message.split(': ')[0]}`,
    };
  }
  if (nothingAnswered(rows)) {
    return {
      verdict: 'OUTAGE',
      exitCode: EXIT_UNREACHABLE,
      reason: 'the target did not answer a single request: nothing was tested',
    };
  }
  // Too many transient answers (gateway pages, dropped connections, time-outs): an outage, neither a pass nor a broken
  // contract.
  if (report.transient?.unhealthy) {
    return {
      verdict: 'OUTAGE',
      exitCode: EXIT_UNREACHABLE,
      reason:
        `the target is unhealthy: more than --max-transient ${report.transient.maxPercent}% of its `
        + `exchanges were transient`,
    };
  }
  const extent = untestedExtent(report);
  if (extent === 'all')
    return {
      verdict: 'UNTESTED',
      exitCode: EXIT_UNTESTED,
      reason: 'no valid call reached the data path: nothing was tested',
    };
  const failed = contractFailures(report);
  if (failed.length > 0) {
    const all = rows.filter((r) => r.status === 'failed').length;
    return {
      verdict: 'FAIL',
      exitCode: EXIT_FAIL,
      reason:
        `the target broke the contract `
        + `(${plural(failed.length, 'failed check')}${all > failed.length ? `, and ${all - failed.length} more where valid calls never reached the data path` : ''})`,
    };
  }
  // The second account's login refused (or shown on no binding): authorization across accounts was not tested, its
  // cause first.
  const login = report.diagnosis?.find((d) => d.code === OTHER_LOGIN_REFUSED || d.code === OTHER_LOGIN_UNPROVEN);
  if (login) return { verdict: 'UNTESTED', exitCode: EXIT_UNTESTED, reason: login.message };
  // --fail-on-drift with a WSDL that could not be compared: the gate asked for did not hold, as `conformance drift`
  // exits 5.
  const uncompared = rows.filter((r) => r.check === DRIFT_CHECK && r.status === 'skipped');
  if (uncompared.length) {
    const more = uncompared.length > 1 ? ` (and ${plural(uncompared.length - 1, 'more service')} alike)` : '';
    return {
      verdict: 'UNTESTED',
      exitCode: EXIT_UNTESTED,
      reason: `${uncompared[0]!.message.replace(/^not tested: /, '')}${more}`,
    };
  }
  if (extent === 'some') {
    const ops = [...new Set((report.untested ?? []).map((u) => u.operation))];
    return {
      verdict: 'UNTESTED',
      exitCode: EXIT_UNTESTED,
      reason:
        `some operations were not tested (${ops.slice(0, 6).join(', ')}${ops.length > 6 ? ', …' : ''}): `
        + `no valid call of theirs reached the data path`,
    };
  }
  // A run stopped early without a signal of its own (the shards of a merge, each saying why).
  if (report.incomplete) return { verdict: 'INCOMPLETE', exitCode: EXIT_INCOMPLETE, reason: report.incomplete };
  // Calls left unsent for want of bookings, and calls spent on pool bookings found unusable: the pools', said together.
  const pools = [poolShortage(report), unusableSpent(report)].filter((x): x is string => x !== undefined);
  if (pools.length) return { verdict: 'INCOMPLETE', exitCode: EXIT_INCOMPLETE, reason: pools.join('; ') };
  // A sequence short of bookings skips its rows saying so (it sends none of its calls).
  const wanting = rows.filter((r) => r.status === 'skipped' && POOL_SHORT.test(r.message));
  if (wanting.length) {
    const pools = [...new Set(wanting.map((r) => POOL_SHORT.exec(r.message)![1]!))];
    return {
      verdict: 'INCOMPLETE',
      exitCode: EXIT_INCOMPLETE,
      reason:
        `a booking pool ran out: ${plural(wanting.length, 'check')} not run for want of bookings `
        + `in ${pools.map((p) => `\`bookings.${p}\``).join(', ')}`,
    };
  }
  const late = rows.filter((r) => r.status === 'skipped' && r.message.includes(DEADLINE_WORDS)).length;
  if (late > 0)
    return {
      verdict: 'INCOMPLETE',
      exitCode: EXIT_INCOMPLETE,
      reason: `the run's deadline passed: ${plural(late, 'check')} not run`,
    };
  const low = coverageShortfall(report);
  if (low) return { verdict: 'INCOMPLETE', exitCode: EXIT_INCOMPLETE, reason: low };
  const passed = rows.filter((r) => r.status === 'passed' || r.status === 'known').length - passedUnreached(report);
  if (passed <= 0) {
    const skipped = rows.filter((r) => r.status === 'skipped').length;
    return {
      verdict: 'UNTESTED',
      exitCode: EXIT_UNTESTED,
      reason:
        rows.length === 0
          ? 'no checks ran: nothing was tested'
          : `nothing passed (${plural(skipped, 'check')} skipped): nothing was tested`,
    };
  }
  return { verdict: 'PASS', exitCode: 0, reason: 'every check passed' };
}

/**
 * The verdict a report carries (written by the run), or the one judged from its rows (a report of an older version).
 */
export function verdictOfReport(
  report: Judged & Pick<RunReport, 'verdict' | 'exitCode' | 'verdictReason'>,
): RunVerdict {
  if (report.verdict !== undefined && report.exitCode !== undefined)
    return { verdict: report.verdict, exitCode: report.exitCode, reason: report.verdictReason ?? '' };
  return judgeRun(report);
}

/** The report with its verdict set (once, when the run is over) and the passes on unreached answers counted apart. */
export function withVerdict<R extends RunReport>(report: R, signal?: number): R {
  const v = judgeRun(report, signal);
  return {
    ...report,
    verdict: v.verdict,
    exitCode: v.exitCode,
    verdictReason: v.reason,
    summary: { ...report.summary, passedUnreached: passedUnreached(report) },
  };
}

/**
 * Why state-changing calls were left unsent for want of bookings, in words a person acts on: that
 * no pool was given and what the run needs, or which pools hold fewer than it needs and how many
 * more; undefined when none was left unsent.
 */
export function poolShortage(report: Pick<RunReport, 'bookings'>): string | undefined {
  const b = report.bookings;
  const calls = Object.values(b?.short ?? {}).reduce((n, k) => n + k, 0);
  if (!b || calls === 0) return undefined;
  const needed = Object.entries(b.needed ?? {}).filter(([, n]) => n > 0);
  const unsent = `${calls} state-changing call${calls === 1 ? ' was' : 's were'} not sent`;
  if (!b.given) {
    return (
      `no booking pool was given, so ${unsent}: this run `
      + `needs ${needed.map(([p, n]) => `${n} in bookings.${p}`).join(', ')}; `
      + 'create them by hand on the target and name them with --bookings FILE (or '
      + 'CONFORMANCE_BOOKINGS_FILE, CONFORMANCE_BOOKINGS, or the config key "bookings"; '
      + 'docs/real-service.md)'
    );
  }
  // Bookings the pool check found unusable (engine/pool-check.ts) were given but are no bookings to take.
  const dead = (p: string) => (b.unusable ?? []).filter((u) => u.pool === p && !u.spent);
  const usable = (p: string) => (b.given![p] ?? 0) - dead(p).length;
  const fewer = needed.filter(([p, n]) => usable(p) < n);
  const of = (p: string) =>
    dead(p).length ? ` (${dead(p).length} of the ${b.given![p] ?? 0} given unusable: ${ids(dead(p))})` : '';
  return (
    `the booking pools hold fewer ${fewer.some(([p]) => dead(p).length) ? 'usable ' : ''}bookings than `
    + `this run needs, so ${unsent}: `
    + `${fewer.map(([p, n]) => `bookings.${p} has ${usable(p)} of ${n}${of(p)} (${n - usable(p)} more)`).join(', ')}`
  );
}

/** Some ids, the first five named. */
function ids(us: readonly { readonly id: string }[]): string {
  return `${us
    .slice(0, 5)
    .map((u) => u.id)
    .join(', ')}${us.length > 5 ? `, … (${us.length - 5} more)` : ''}`;
}

/**
 * Why calls went to pool bookings that turned out unusable on their first cancellation (a transfer
 * booking: no read exists, issue 40), naming each pool and how many fresh bookings it needs; undefined
 * when none did. The pool's fault, not the target's: INCOMPLETE, never FAIL.
 */
export function unusableSpent(report: Pick<RunReport, 'bookings'>): string | undefined {
  const spent = (report.bookings?.unusable ?? []).filter((u) => u.spent);
  if (spent.length === 0) return undefined;
  const pools = [...new Set(spent.map((u) => u.pool))];
  return (
    `pool bookings were already cancelled or not on the target when the run first cancelled them, so `
    + `their calls were not tested (the pool's, not the target's): `
    + pools
      .map((p) => {
        const us = spent.filter((u) => u.pool === p);
        return (
          `bookings.${p}: ${us.length} unusable (${ids(us)}): ${us.length} more `
          + `fresh ${us.length === 1 ? 'booking' : 'bookings'} needed`
        );
      })
      .join('; ')
  );
}
