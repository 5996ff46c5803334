/**
 * The run: the one entry point that `conformance run` and the library's runPlan both call.
 * From resolved settings it reads the expectations file (bad input refused before anything is sent),
 * opens the session, runs the plan (or its shard), updates and applies the expectations, writes the
 * reports, and turns SIGINT/SIGTERM into a stopped run whose partial reports are written. The CLI
 * above it parses flags and prints; nothing here prints but the run's own warnings and progress.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunReport } from '../core/types.js';
import { weakPasswordWarning } from '../core/weak-password.js';
import { withVerdict } from '../core/verdict.js';
import { writeReports, type ReportPaths } from '../report/index.js';
import { startGuardWorkerEarly, stopGuardWorkerEarly } from '../report/guard-search.js';
import {
  applyExpectations,
  expectationsSchemaRef,
  readExpectations,
  renderExpectations,
  TODO_REASON,
  updateExpectations,
  verdictWarning,
  type ExpectationsFile,
} from './expectations.js';
import { runPlan, type EngineDeps } from './run.js';
import { openSession } from './session.js';
import { checkPools, poolCheckLine } from './pool-check.js';
import { rerunBasis } from './rerun-basis.js';
import { unmatchedCases } from './plan-list.js';
import type { RunSettings } from './settings.js';
import { runShard, SHARD_FILE, shardJudge, shardPlan } from './shard.js';

export { EXIT_UNREACHABLE, EXIT_UNTESTED } from '../core/verdict.js';

/** What a run needs to say things while it runs, and whether it handles signals. */
export interface RunIO {
  /** Warnings and the run's own lines. */
  readonly err: (s: string) => void;
  /** Progress of the run (none when absent or the settings are quiet). */
  readonly progress?: EngineDeps['onProgress'];
  /** Handle SIGINT and SIGTERM (the process's own command line): stop, write what ran, exit 130 or 143. */
  readonly signals?: boolean;
  /** When the command started (epoch ms): the deadline counts from it. Default: when the session opens. */
  readonly startedAt?: number;
}

/**
 * The outcome of one run: its report, where the reports went (when written), and the exit code of a signal that stopped
 * it.
 */
export interface ExecutedRun {
  readonly report: RunReport;
  readonly paths?: ReportPaths;
  readonly interrupted?: number;
}

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
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

/**
 * One run from resolved settings: the expectations file read (bad input refused before anything is
 * sent), the session opened, the plan (or its shard) run, the expectations updated and applied, and
 * the reports written unless `write` is false.
 */
export async function executeRun(s: RunSettings, io: RunIO, write = true): Promise<ExecutedRun> {
  // A bad expectations file is bad input: refused before anything is sent.
  let expectations: ExpectationsFile | undefined;
  if (s.expectations && !(s.updateExpectations && !existsSync(s.expectations)))
    expectations = readExpectations(s.expectations);
  // Signals are watched from before the session opens (it may ask the target for its languages
  // first), and before anything is printed: a supervisor may signal as soon as it reads a line.
  const signals = io.signals ? watchSignals(io) : undefined;
  // The reports' secret search loads its worker on the other core while the run goes on.
  if (write) startGuardWorkerEarly();
  for (const w of s.warnings ?? []) io.err(`warning: ${w}`);
  const weak = weakPasswordWarning(s.password);
  if (weak) io.err(`warning: ${weak}`);
  let session;
  try {
    session = await openSession(s, {}, (t) => signals?.attach(t), io.startedAt);
  } catch (e) {
    signals?.dispose();
    stopGuardWorkerEarly();
    throw e;
  }
  const { secrets } = session;
  let { plan } = session;
  try {
    if (plan.caseFilter) unmatchedCases(plan);
    const deps = { ...session.deps(s.quiet ? undefined : io.progress), stopped: () => signals?.state.why };
    // The pool bookings the plan would take, read before it hands them out (issue 40): a used one is the pool's.
    const pooled = await checkPools(plan, deps, s.shard === undefined);
    plan = pooled.plan;
    if (pooled.check && !s.quiet) io.err(poolCheckLine(pooled.check));
    const sp = s.shard ? shardPlan(plan, s.shard) : undefined;
    if (!s.quiet) {
      io.err(
        `conformance: testing ${session.where} — ${s.operations.length} operations × ${s.bindings.length} bindings`
          + (sp ? `, shard ${sp.info.index}/${sp.info.count}: ${sp.info.units} of ${sp.info.unitsTotal} cases` : ''),
      );
    }
    let report: RunReport = {
      ...(sp ? await runShard(plan, deps, sp) : await runPlan(plan, deps)),
      rerun: rerunBasis(s),
    };
    // A shard's coverage is of its cases only: its --min-coverage is judged when the shards are merged.
    if (sp && report.coverage)
      report = {
        ...report,
        coverage: {
          ...report.coverage,
          partial:
            `shard ${sp.info.index}/${sp.info.count}: its cases only; conformance merge joins the shards' `
            + `coverage`,
        },
      };
    const judged = sp ? shardJudge(sp) : undefined;

    if (s.updateExpectations && s.expectations && report.incomplete) {
      io.err(`warning: ${s.expectations} not updated: the run is incomplete (${report.incomplete})`);
    } else if (s.updateExpectations && s.expectations) {
      const up = updateExpectations(report, expectations, { judged, schema: expectationsSchemaRef(s.expectations) });
      await mkdir(dirname(s.expectations), { recursive: true });
      await writeFile(s.expectations, renderExpectations(up.file), 'utf8');
      expectations = up.file;
      io.err(
        `conformance: wrote ${s.expectations}: ${up.file.expectations.length} entries (${up.added} `
          + `added with reason "${TODO_REASON}", `
          + `${up.removed.length} stale removed, ${up.kept} `
          + `kept)${up.added ? `; an entry accepts its failures once its reason says why (${TODO_REASON} accepts nothing)` : ''}`,
      );
    }
    if (expectations && s.expectations) {
      const applied = applyExpectations(report, expectations, { judged, source: s.expectations });
      report = applied.report;
      for (const v of applied.verdicts) {
        const w = verdictWarning(v, s.expectations);
        if (w) io.err(`warning: ${w}`);
      }
      const unexercised = applied.verdicts.filter((v) => v.state === 'unexercised').length;
      if (unexercised && !s.quiet)
        io.err(
          `conformance: ${unexercised} expectation${unexercised > 1 ? 's' : ''} not judged by this run `
            + `(operation, binding, check or case not run${sp ? ' completely in this shard' : ''})`,
        );
    }
    const interrupted = signals?.state.code;
    // The verdict is judged once, here, when nothing more changes the rows: every output reads it.
    report = withVerdict(report, interrupted);
    if (!write) return { report, ...(interrupted ? { interrupted } : {}) };

    const paths = await writeReports(report, s.reportDir, secrets);
    const shardFile = join(paths.dir, SHARD_FILE);
    if (sp) await writeFile(shardFile, `${JSON.stringify(sp.info, null, 2)}\n`, 'utf8');
    else await rm(shardFile, { force: true });
    return { report, paths, ...(interrupted ? { interrupted } : {}) };
  } finally {
    signals?.dispose();
    // Taken by writeReports; else (no reports, or a throw before them) not left idle in this process.
    stopGuardWorkerEarly();
    await session.close();
  }
}
