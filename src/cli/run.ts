/** `conformance run`: parse the flags, run (src/engine/execute.ts, the library's entry point too), print, and choose the exit code. */
import { EXIT_POOL_EXHAUSTED } from '../engine/bookings.js';
import { nothingAnswered } from '../engine/diagnose.js';
import { formatPlan, listPlan } from '../engine/plan-list.js';
import { githubAnnotations, writeStepSummary } from '../report/github.js';
import { EXIT_UNREACHABLE, EXIT_UNTESTED, executeRun } from '../engine/execute.js';
import { untestedExtent } from '../core/rows.js';
import { verdictOf } from '../report/index.js';
import { formatDefects, formatDiagnosis, formatSummary } from '../report/console.js';
import { progressLine } from '../report/progress.js';
import { helpText, resolveRunSettings, RUN_OPTIONS, RUN_USAGE } from './config.js';
import { RUN_HELP } from './help.js';

export interface CommandIO {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
  /** Handle SIGINT and SIGTERM (the process's own command line): stop, write what ran, exit 130 or 143. */
  readonly signals?: boolean;
  /** When the command started (epoch ms; the process's own command line: its start): `--deadline` counts from it. Default: when the run starts. */
  readonly startedAt?: number;
}

export { EXIT_UNREACHABLE, EXIT_UNTESTED } from '../engine/execute.js';

/** Run and report; returns the process exit code (0 conforming, 1 not conforming, 4 unreachable, 5 not tested). */
export async function runCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText(RUN_USAGE, RUN_OPTIONS, RUN_HELP));
    return 0;
  }
  const s = resolveRunSettings(argv, io.env);
  if (s.list) {
    const plan = listPlan(s);
    io.out(s.list === 'json' ? JSON.stringify(plan, null, 2) : formatPlan(plan));
    return 0;
  }
  const { report, paths, interrupted } = await executeRun(s, { err: io.err, progress: progressLine(io.err, io.isTTY), ...(io.signals ? { signals: true } : {}),
    ...(io.startedAt !== undefined ? { startedAt: io.startedAt } : {}) });
  // What holds for the target as a whole first: it explains the failures below it.
  const diagnosis = formatDiagnosis(report);
  if (diagnosis) io.out(diagnosis);
  const failed = report.results.filter((r) => r.status === 'failed');
  // One block per defect (its cases and one reproduce command), not one per failed row.
  if (failed.length && !s.quiet) io.out(formatDefects(failed));
  io.out(formatSummary(report, paths!));
  if (s.github && paths) {
    for (const line of githubAnnotations(report)) io.out(line);
    const warning = await writeStepSummary(paths.markdown, io.env);
    if (warning) io.err(warning);
  }
  if (interrupted) return interrupted;
  if (nothingAnswered(report.results)) {
    io.err(`conformance: the target did not answer a single request: nothing was tested (exit ${EXIT_UNREACHABLE}); see the diagnosis above`);
    return EXIT_UNREACHABLE;
  }
  // Too many transient answers: an outage, neither a pass nor a broken contract.
  if (report.transient?.unhealthy) {
    io.err(`conformance: the target is unhealthy: more than --max-transient ${report.transient.maxPercent}% of its exchanges were transient: no verdict (exit ${EXIT_UNREACHABLE}); see the diagnosis above`);
    return EXIT_UNREACHABLE;
  }
  const verdict = verdictOf(report.summary, report);
  if (verdict === 'UNTESTED') {
    io.err(`conformance: ${untestedExtent(report) === 'all' ? 'no valid call reached the data path: nothing was tested' : 'some operations were not tested'} (exit ${EXIT_UNTESTED}); see the diagnosis above`);
    return EXIT_UNTESTED;
  }
  if (verdict === 'FAIL') return 1;
  const short = Object.entries(report.bookings?.short ?? {});
  if (short.length) {
    io.err(`conformance: a booking pool ran out: ${short.map(([p, n]) => `${n} call${n > 1 ? 's' : ''} without a booking in \`bookings.${p}\``).join(', ')} `
      + `were not sent (exit ${EXIT_POOL_EXHAUSTED}); add bookings to the pools`);
    return EXIT_POOL_EXHAUSTED;
  }
  return 0;
}
