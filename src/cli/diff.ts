/**
 * `conformance diff OLD NEW [--format text|markdown|json]`: what changed between two runs, keyed by operation, binding,
 * case and check (binding_equivalence rows: operation, case and check): new failures, fixed ones, those still failing,
 * and failures that are no longer reported at all (the row is gone: not fixed, not tested), and the coverage lost
 * (tested in OLD, not in NEW). Exit 1 on any new failure or lost coverage (unless --allow-lost-coverage), 0 otherwise,
 * 2 on bad input (unreadable file, invalid JSON, not a conformance report).
 */
import { UsageError } from '../core/errors.js';
import type { RunReport } from '../core/types.js';
import { helpText, parseFlags } from './config.js';
import { DIFF_HELP } from './help.js';
import { DIFF_OPTIONS } from './command-settings.js';
import { readReportInput } from './report-input.js';
import type { CommandIO } from './run.js';
import type { ReportDiff } from './diff-types.js';
import { diffReports } from './diff-rows.js';
import { coverageLost, lostCoverage } from './lost-coverage.js';
import { runContext } from './run-context.js';
import { diffMarkdown, diffText } from './diff-text.js';

export const DIFF_USAGE = `usage: conformance diff OLD NEW [--format text|markdown|json]

OLD and NEW are conformance.json files (or report directories). Lists new failures, fixed ones,
those still failing and failures no longer reported, keyed by operation, binding, case and check,
and the coverage lost: rows, operation × binding cells, operations and bindings tested in OLD and not
in NEW (skipped, not called, or not reaching the data path), the answer paths and kinds of parameter
value of the coverage report OLD had and NEW lost (docs/coverage.md), and another target or seed.
Known deviations are not failures. Exit 1 on any new failure or lost coverage (unless
--allow-lost-coverage), 0 otherwise, 2 on bad input.`;

/** The diff of two reports: rows, lost coverage and context. */
export function diffRuns(oldReport: RunReport, newReport: RunReport): ReportDiff {
  return {
    ...diffReports(oldReport.results, newReport.results),
    lostCoverage: lostCoverage(oldReport, newReport),
    context: runContext(oldReport, newReport),
  };
}

export { DIFF_OPTIONS };

export async function diffCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, DIFF_OPTIONS, true);
  if (f.help) {
    io.out(helpText(DIFF_USAGE, DIFF_OPTIONS, DIFF_HELP));
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`diff needs two reports, OLD and NEW (got ${positionals.length})`);
  const format = f.format ?? 'text';
  if (!['text', 'markdown', 'json'].includes(format))
    throw new UsageError(`--format must be text, markdown or json (got ${JSON.stringify(format)})`);
  const [oldPath, newPath] = positionals as [string, string];
  const oldIn = readReportInput(oldPath, 'OLD report');
  const newIn = readReportInput(newPath, 'NEW report');
  const d = diffRuns(oldIn.report, newIn.report);
  io.out(
    format === 'json'
      ? JSON.stringify({ old: oldIn.source, new: newIn.source, ...d }, null, 2)
      : format === 'markdown'
        ? diffMarkdown(d, oldPath, newPath)
        : diffText(d, oldPath, newPath),
  );
  const lost = coverageLost(d);
  if (lost && !f['allow-lost-coverage'])
    io.err(
      'conformance: coverage was lost (tested before, not now): exit 1; pass --allow-lost-coverage if that is intended',
    );
  return d.newFailures.length > 0 || (lost && !f['allow-lost-coverage']) ? 1 : 0;
}
