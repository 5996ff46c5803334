/** `conformance run`: test a target (or the embedded mock) and write the reports. */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  applyExpectations, describeEntry, readExpectations, renderExpectations, TODO_REASON, updateExpectations, type ExpectationsFile,
} from '../engine/expectations.js';
import { nothingAnswered } from '../engine/diagnose.js';
import { runConformance } from '../engine/run.js';
import { runShard, SHARD_FILE, shardJudge, shardPlan } from '../engine/shard.js';
import { formatDiagnosis, formatFindings, formatSummary } from '../report/console.js';
import { verdictOf, writeReports, type ReportPaths } from '../report/index.js';
import { untestedExtent } from '../core/rows.js';
import type { RunReport } from '../core/types.js';
import { weakPasswordWarning } from '../core/weak-password.js';
import { helpText, resolveRunSettings, RUN_OPTIONS, RUN_USAGE, type RunSettings } from './config.js';
import { RUN_HELP } from './help.js';
import { progressLine } from './progress.js';
import { openSession } from './session.js';

export interface CommandIO {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
  /** Handle SIGINT and SIGTERM (the process's own command line): stop, write what ran, exit 130 or 143. */
  readonly signals?: boolean;
}

/** Exit code when not one exchange got a response: the target is down, not broken (CI can tell an outage). */
export const EXIT_UNREACHABLE = 4;
/**
 * Exit code when the target answered but valid calls never reached the data path: nothing was
 * tested (wrong credentials, a wrong URL or path, not this service), or some operation × binding was
 * not and nothing failed. Not 1 (the contract was not shown broken) and not 4 (the target answers):
 * CI can tell "fix the harness's settings" from an outage and from a broken service.
 */
export const EXIT_UNTESTED = 5;

/**
 * On SIGINT or SIGTERM (a CI time-out): stop sending, abort what is in flight, and let the run end
 * so its partial reports are written, marked incomplete; a second signal leaves at once.
 */
function watchSignals(io: RunIO) {
  const state: { why?: string; code?: number } = {};
  let transport: { stop(why: string): void } | undefined;
  const on = (sig: NodeJS.Signals) => {
    const code = sig === 'SIGINT' ? 130 : 143;
    if (state.why) process.exit(state.code ?? code);
    state.why = `interrupted by ${sig}`;
    state.code = code;
    io.err(`conformance: ${sig}: stopping and writing the reports of what ran (${sig} again to leave at once)`);
    transport?.stop(state.why);
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    state,
    /** The transport to stop (it may be stopped at once: the signal came while it was being made). */
    attach(t: { stop(why: string): void }) {
      transport = t;
      if (state.why) t.stop(state.why);
    },
    dispose: () => { process.off('SIGINT', on); process.off('SIGTERM', on); },
  };
}

/** Run and report; returns the process exit code (0 conforming, 1 not conforming, 4 unreachable, 5 not tested). */
export async function runCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText(RUN_USAGE, RUN_OPTIONS, RUN_HELP));
    return 0;
  }
  const s = resolveRunSettings(argv, io.env);
  const { report, paths, interrupted } = await executeRun(s, io);
  // What holds for the target as a whole first: it explains the failures below it.
  const diagnosis = formatDiagnosis(report);
  if (diagnosis) io.out(diagnosis);
  const failed = report.results.filter((r) => r.status === 'failed');
  if (failed.length && !s.quiet) io.out(formatFindings(failed.slice(0, 50)) + (failed.length > 50 ? `\n… and ${failed.length - 50} more failed checks: see the reports` : ''));
  io.out(formatSummary(report, paths!));
  if (interrupted) return interrupted;
  if (nothingAnswered(report.results)) {
    io.err(`conformance: the target did not answer a single request: nothing was tested (exit ${EXIT_UNREACHABLE}); see the diagnosis above`);
    return EXIT_UNREACHABLE;
  }
  const verdict = verdictOf(report.summary, report);
  if (verdict === 'UNTESTED') {
    io.err(`conformance: ${untestedExtent(report) === 'all' ? 'no valid call reached the data path: nothing was tested' : 'some operations were not tested'} (exit ${EXIT_UNTESTED}); see the diagnosis above`);
    return EXIT_UNTESTED;
  }
  return verdict === 'FAIL' ? 1 : 0;
}

/** What a run needs to say things (warnings, progress) while it runs, and whether it handles signals. */
export type RunIO = Pick<CommandIO, 'err' | 'isTTY' | 'signals'>;

/**
 * One run from resolved settings, as `conformance run` makes it: the expectations file read (bad
 * input refused before anything is sent), the session opened, the plan (or its shard) run, the
 * expectations updated and applied, and the reports written unless `write` is false. Shared by the
 * command and the library's runConformance.
 */
export async function executeRun(s: RunSettings, io: RunIO, write = true): Promise<{ report: RunReport; paths?: ReportPaths; interrupted?: number }> {
  // A bad expectations file is bad input: refused before anything is sent.
  let expectations: ExpectationsFile | undefined;
  if (s.expectations && !(s.updateExpectations && !existsSync(s.expectations))) expectations = readExpectations(s.expectations);
  // Signals are watched from before the session opens (it may ask the target for its languages
  // first), and before anything is printed: a supervisor may signal as soon as it reads a line.
  const signals = io.signals ? watchSignals(io) : undefined;
  const weak = weakPasswordWarning(s.password);
  if (weak) io.err(`warning: ${weak}`);
  let session;
  try {
    session = await openSession(s, {}, (t) => signals?.attach(t));
  } catch (e) {
    signals?.dispose();
    throw e;
  }
  const { plan, secrets } = session;
  try {
    const deps = { ...session.deps(s.quiet ? undefined : progressLine(io.err, io.isTTY)), stopped: () => signals?.state.why };
    const sp = s.shard ? shardPlan(plan, s.shard) : undefined;
    if (!s.quiet) {
      io.err(`conformance: testing ${session.where} — ${s.operations.length} operations × ${s.bindings.length} bindings`
        + (sp ? `, shard ${sp.info.index}/${sp.info.count}: ${sp.info.units} of ${sp.info.unitsTotal} cases` : ''));
    }
    let report = sp ? await runShard(plan, deps, sp) : await runConformance(plan, deps);
    const judged = sp ? shardJudge(sp) : undefined;

    if (s.updateExpectations && s.expectations && report.incomplete) {
      io.err(`warning: ${s.expectations} not updated: the run is incomplete (${report.incomplete})`);
    } else if (s.updateExpectations && s.expectations) {
      const up = updateExpectations(report, expectations, { judged });
      await mkdir(dirname(s.expectations), { recursive: true });
      await writeFile(s.expectations, renderExpectations(up.file), 'utf8');
      expectations = up.file;
      io.err(`conformance: wrote ${s.expectations}: ${up.file.expectations.length} entries (${up.added} added with reason "${TODO_REASON}", `
        + `${up.removed.length} stale removed, ${up.kept} kept)`);
    }
    if (expectations && s.expectations) {
      const applied = applyExpectations(report, expectations, { judged, source: s.expectations });
      report = applied.report;
      for (const v of applied.verdicts) {
        if (v.state === 'stale' || v.state === 'expired') {
          io.err(`warning: ${s.expectations} /expectations/${v.index} (${describeEntry(v.entry)}) is ${v.state === 'stale'
            ? 'stale: it no longer fails; remove it or run --update-expectations' : `expired on ${v.entry.expires} and still fails`}`);
        }
      }
      const unexercised = applied.verdicts.filter((v) => v.state === 'unexercised').length;
      if (unexercised && !s.quiet) io.err(`conformance: ${unexercised} expectation${unexercised > 1 ? 's' : ''} not judged by this run (operation, binding, check or case not run${sp ? ' completely in this shard' : ''})`);
    }
    const interrupted = signals?.state.code;
    if (!write) return { report, ...(interrupted ? { interrupted } : {}) };

    const paths = await writeReports(report, s.reportDir, secrets);
    const shardFile = join(paths.dir, SHARD_FILE);
    if (sp) await writeFile(shardFile, `${JSON.stringify(sp.info, null, 2)}\n`, 'utf8');
    else await rm(shardFile, { force: true });
    return { report, paths, ...(interrupted ? { interrupted } : {}) };
  } finally {
    signals?.dispose();
    await session.close();
  }
}
