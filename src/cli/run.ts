/** `conformance run`: test a target (or the embedded mock) and write the reports. */
import { selectChecks } from '../checks/registry.js';
import type { Target } from '../core/types.js';
import { EnvironmentError, UsageError } from '../core/errors.js';
import { runConformance } from '../engine/run.js';
import { startMock, type RunningMock } from '../mock/index.js';
import { formatFindings, formatSummary } from '../report/console.js';
import { writeReports } from '../report/index.js';
import { Transport } from '../transport/client.js';
import { createDocumentValidator } from '../xml/xsd-validator.js';
import { makeRedactor } from '../core/redact.js';
import { resolveRunSettings, RUN_USAGE, type RunSettings } from './config.js';
import { progressLine } from './progress.js';

export interface CommandIO {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
}

/** Checks named by --checks / --skip-checks, resolved against the registry. */
export function checksOf(s: Pick<RunSettings, 'checks' | 'skipChecks'>) {
  let checks;
  try {
    checks = selectChecks(s.checks);
    const unknown = s.skipChecks.filter((n) => !selectChecks().some((c) => c.name === n));
    if (unknown.length) throw new Error(`unknown check name(s) in --skip-checks: ${unknown.join(', ')}`);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return checks.filter((c) => !s.skipChecks.includes(c.name));
}

/** Run and report; returns the process exit code (0 conforming, 1 not conforming). */
export async function runCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(RUN_USAGE);
    return 0;
  }
  const s = resolveRunSettings(argv, io.env);
  const checks = checksOf(s);
  let mock: RunningMock | undefined;
  if (s.embedded) {
    try {
      mock = await startMock({ port: 0, user: s.user, password: s.password, namespaces: s.namespaces });
    } catch (e) {
      throw new EnvironmentError(`cannot start the embedded mock: ${(e as Error).message}`);
    }
  }
  const target: Target = {
    bookUrl: mock?.url ?? s.bookUrl ?? '',
    searchUrl: mock?.url ?? s.searchUrl ?? '',
    transfersUrl: mock?.url ?? s.transfersUrl ?? s.searchUrl ?? '',
    namespaces: s.namespaces,
    user: s.user,
    password: s.password,
    embedded: s.embedded,
  };
  const redact = makeRedactor([s.password]);
  const transport = new Transport({
    concurrency: s.concurrency, timeoutMs: s.timeoutMs, maxBodyBytes: s.maxBodyBytes, maxRps: s.maxRps,
    deadline: s.deadlineMs ? Date.now() + s.deadlineMs : undefined, insecureTls: s.insecureTls,
  });
  const where = s.embedded ? `embedded mock at ${target.bookUrl}` : redact(`book ${target.bookUrl}, search ${target.searchUrl}, transfers ${target.transfersUrl}`);
  if (!s.quiet) io.err(`conformance: testing ${where} — ${s.operations.length} operations × ${s.bindings.length} bindings`);
  try {
    const report = await runConformance(
      { target, bindings: s.bindings, operations: s.operations, cases: s.cases, allowMutations: s.allowMutations, checks, negative: s.negative, equivalence: s.equivalence },
      {
        transport,
        validator: createDocumentValidator(s.namespaces, { maxBytes: s.maxBodyBytes }),
        onProgress: s.quiet ? undefined : progressLine(io.err, io.isTTY),
      },
    );
    const paths = await writeReports(report, s.reportDir, [s.password]);
    const failed = report.results.filter((r) => r.status === 'failed');
    if (failed.length && !s.quiet) io.out(redact(formatFindings(failed.slice(0, 50))) + (failed.length > 50 ? `\n… and ${failed.length - 50} more failed checks: see the reports` : ''));
    io.out(redact(formatSummary(report, paths)));
    return report.summary.failed > 0 ? 1 : 0;
  } finally {
    await transport.close();
    await mock?.close();
  }
}
