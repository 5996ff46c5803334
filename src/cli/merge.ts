/**
 * `conformance merge DIR... [--report-dir OUT] [--expectations FILE]`: join the conformance.json of several runs (the
 * shards of `run --shard i/n`) into one set of reports. Exit 0 when the merged report passes, 1 when it fails, 5 when
 * it is UNTESTED (as `run`), 2 on bad input (unreadable or invalid reports, shards of different plans, a shard missing
 * or given twice, overlapping reports).
 */
import { UsageError } from '../core/errors.js';
import { applyExpectations, readExpectations, verdictWarning } from '../engine/expectations.js';
import { formatSummary } from '../report/console.js';
import { writeReports } from '../report/index.js';
import { verdictOfReport, withVerdict } from '../core/verdict.js';
import { reportDirProblem } from '../report/paths.js';
import { mergeReports } from '../report/merge.js';
import { judgeLatency } from '../engine/latency-gate.js';
import { helpText, parseFlags } from './config.js';
import { MERGE_HELP } from './help.js';
import { MERGE_OPTIONS } from './command-settings.js';
import { readReportInput } from './report-input.js';
import type { CommandIO } from './run.js';

export const MERGE_USAGE = `usage: conformance merge DIR... [--report-dir OUT] [--expectations FILE] [--quiet]

Joins the conformance.json of each DIR (a report directory, or a conformance.json file) into one set
of reports in OUT (default reports/): JSON, JUnit, Markdown, HTML, Allure. Shards written by
conformance run --shard i/n must all be there, of one plan. --expectations FILE applies the known
deviations again to the merged rows (stale entries are then judged over all shards).
Exit 0 when the merged report passes, 1 when a check failed, 2 on bad input, 5 when it tested
nothing (or left an operation untested and nothing failed).`;

export { MERGE_OPTIONS };

export async function mergeCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, MERGE_OPTIONS, true);
  if (f.help) {
    io.out(helpText(MERGE_USAGE, MERGE_OPTIONS, MERGE_HELP));
    return 0;
  }
  if (positionals.length === 0)
    throw new UsageError('merge: name at least one report directory (or conformance.json) to merge');
  const out = f['report-dir'] ?? 'reports';
  const problem = reportDirProblem(out);
  if (problem)
    throw new UsageError(
      `${f['report-dir'] === undefined ? 'the default report directory' : '--report-dir'} cannot hold `
        + `the reports: ${problem}`,
    );
  const expectations = f.expectations ? readExpectations(f.expectations) : undefined;
  const inputs = positionals.map((p) => readReportInput(p));
  let report = judgeLatency(mergeReports(inputs));
  // A row's re-run writes beneath the merged reports, where the reader is.
  if (report.rerun) report = { ...report, rerun: { ...report.rerun, reportDir: out } };
  if (expectations) {
    const applied = applyExpectations(report, expectations, { source: f.expectations });
    report = applied.report;
    for (const v of applied.verdicts) {
      const w = verdictWarning(v, f.expectations!);
      if (w) io.err(`warning: ${w}`);
    }
  }
  // The merged run's one verdict, judged from all its shards' rows (a shard's alone says nothing of the whole).
  report = withVerdict(report);
  const paths = await writeReports(report, out);
  if (!f.quiet)
    io.err(
      `conformance: merged ${inputs.length} `
        + `report${inputs.length > 1 ? 's' : ''}${inputs[0]!.shard ? ` (${inputs[0]!.shard.count} shards)` : ''}`,
    );
  io.out(formatSummary(report, paths));
  return verdictOfReport(report).exitCode;
}
