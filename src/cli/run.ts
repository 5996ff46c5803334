/**
 * `conformance run`: parse the flags, run (src/engine/execute.ts, the library's entry point too), print, and choose the
 * exit code.
 */
import { formatPlan, listPlan } from '../engine/plan-list.js';
import { githubAnnotations, writeStepSummary } from '../report/github.js';
import { severityOf } from '../checks/registry.js';
import { executeRun } from '../engine/execute.js';
import { verdictOfReport } from '../core/verdict.js';
import { formatDefects, formatDiagnosis, formatSummary } from '../report/console.js';
import { progressLine } from '../report/progress.js';
import { rerunCommand } from '../report/rerun.js';
import { driftLine } from '../report/drift.js';
import { helpText, resolveRunSettings, RUN_OPTIONS, RUN_USAGE } from './config.js';
import { RUN_HELP } from './help.js';

export interface CommandIO {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
  /** Handle SIGINT and SIGTERM (the process's own command line): stop, write what ran, exit 130 or 143. */
  readonly signals?: boolean;
  /**
   * When the command started (epoch ms; the process's own command line: its start): `--deadline` counts from it.
   * Default: when the run starts.
   */
  readonly startedAt?: number;
}

export { EXIT_UNREACHABLE, EXIT_UNTESTED } from '../engine/execute.js';

/** Run and report; returns the process exit code, the run's verdict's (README, "Exit codes"). */
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
  const { report, paths, interrupted } = await executeRun(s, {
    err: io.err,
    progress: progressLine(io.err, io.isTTY),
    ...(io.signals ? { signals: true } : {}),
    ...(io.startedAt !== undefined ? { startedAt: io.startedAt } : {}),
  });
  // What holds for the target as a whole first: it explains the failures below it.
  const diagnosis = formatDiagnosis(report);
  if (diagnosis) io.out(diagnosis);
  // The preflight's comparison of the target's WSDLs with the contract's, in one line (drift.md beside
  // the reports); a target that answered nothing is the diagnosis's to say.
  if (report.drift && report.drift.verdict !== 'unreachable') io.out(`conformance: ${driftLine(report.drift)}`);
  const failed = report.results.filter((r) => r.status === 'failed');
  // One block per defect (its cases and one reproduce command), not one per failed row.
  if (failed.length && !s.quiet) io.out(formatDefects(failed, 50, (r) => rerunCommand(report, r)));
  io.out(formatSummary(report, paths!));
  if (s.github && paths) {
    for (const line of githubAnnotations(report, severityOf)) io.out(line);
    const warning = await writeStepSummary(paths.markdown, io.env);
    if (warning) io.err(warning);
  }
  // The one verdict, judged when the run ended (src/core/verdict.ts), gives the exit code.
  const v = verdictOfReport(report);
  if (interrupted === undefined && v.exitCode !== 0 && v.verdict !== 'FAIL') {
    // The pools' reason says what to do itself.
    io.err(
      `conformance: ${v.reason} `
        + `(exit ${v.exitCode})${v.verdict === 'INCOMPLETE' && report.bookings?.short ? '' : '; see the diagnosis above'}`,
    );
  }
  return interrupted ?? v.exitCode;
}
