/** `conformance run`: parse the flags, run (src/engine/execute.ts, the library's entry point too), print, and choose the exit code. */
import { EXIT_POOL_EXHAUSTED } from '../engine/bookings.js';
import { nothingAnswered } from '../engine/diagnose.js';
import { EXIT_UNREACHABLE, executeRun } from '../engine/execute.js';
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
}

export { EXIT_UNREACHABLE } from '../engine/execute.js';

/** Run and report; returns the process exit code (0 conforming, 1 not conforming). */
export async function runCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText(RUN_USAGE, RUN_OPTIONS, RUN_HELP));
    return 0;
  }
  const s = resolveRunSettings(argv, io.env);
  const { report, paths, interrupted } = await executeRun(s, { err: io.err, progress: progressLine(io.err, io.isTTY), ...(io.signals ? { signals: true } : {}) });
  // What holds for the target as a whole first: it explains the failures below it.
  const diagnosis = formatDiagnosis(report);
  if (diagnosis) io.out(diagnosis);
  const failed = report.results.filter((r) => r.status === 'failed');
  // One block per defect (its cases and one reproduce command), not one per failed row.
  if (failed.length && !s.quiet) io.out(formatDefects(failed));
  io.out(formatSummary(report, paths!));
  if (interrupted) return interrupted;
  if (nothingAnswered(report.results)) {
    io.err(`conformance: the target did not answer a single request: nothing was tested (exit ${EXIT_UNREACHABLE}); see the diagnosis above`);
    return EXIT_UNREACHABLE;
  }
  if (report.summary.failed > 0) return 1;
  const short = Object.entries(report.bookings?.short ?? {});
  if (short.length) {
    io.err(`conformance: a booking pool ran out: ${short.map(([p, n]) => `${n} call${n > 1 ? 's' : ''} without a booking in \`bookings.${p}\``).join(', ')} `
      + `were not sent (exit ${EXIT_POOL_EXHAUSTED}); add bookings to the pools`);
    return EXIT_POOL_EXHAUSTED;
  }
  return 0;
}
