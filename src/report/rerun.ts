/**
 * The command that re-runs one failed row of a report: `npx conformance run` with the target of the
 * report, the row's operation and binding(s), `--case` and `--seed`, so a person (or CI) can run that
 * one case again. The password is never in it: it is read from CONFORMANCE_PASSWORD, set from the
 * report's own variable when that is another one.
 */
import { DEFAULT_PATHS, findOperation, type Group, type Operation } from '../contract/catalogue.js';
import { EQUIVALENCE_CHECK, isGeneratedCase, NOT_RUN_CHECK, PREFLIGHT_CASE } from '../core/rows.js';
import type { ResultRow, RunReport } from '../core/types.js';
import { PASSWORD_VARIABLE, shellQuote } from '../transport/curl.js';
import { passwordVariableOf } from './model.js';

/** The flags of a group's service paths. */
const PATH_FLAGS: Record<Group, string> = { booking: 'book', reference: 'search', transfers: 'transfers' };

/** The target's flags as `conformance run` takes them (none for the embedded mock). */
function targetFlags(report: RunReport): string[] {
  const t = report.target;
  if (t.embedded) return [];
  const flags = ['--book-url', t.bookUrl, '--search-url', t.searchUrl];
  if (t.transfersUrl !== t.searchUrl) flags.push('--transfers-url', t.transfersUrl);
  for (const [group, flag] of Object.entries(PATH_FLAGS) as [Group, string][]) {
    const p = t.paths?.[group];
    if (!p) continue;
    if (p.soap !== DEFAULT_PATHS[group].soap) flags.push(`--${flag}-path`, p.soap);
    if (p.http !== p.soap) flags.push(`--${flag}-http-path`, p.http);
  }
  flags.push('--book-ns', t.namespaces.book, '--search-ns', t.namespaces.search, '--user', t.user);
  // The network the run went through: TLS files, headers (a secret one as env:VAR), a proxy flag.
  flags.push(...(t.network ?? []));
  return flags;
}

/**
 * The operations to name: the row's, and for the wrong-SOAPAction probe also the operation its
 * SOAPAction named in the run (the plan's first other read-only operation of the service), so the
 * probe sends the same header again.
 */
function operationsFor(report: RunReport, row: ResultRow, op: Operation): string {
  if (row.case !== 'wrong-soapaction') return op.name;
  const ops = report.operations.map((n) => findOperation(n)).filter((o): o is Operation => o !== undefined);
  const other = ops.find((o) => o.service === op.service && o !== op && !o.mutates);
  return other ? ops.filter((o) => o === op || o === other).map((o) => o.name).join(',') : op.name;
}

/**
 * The command that re-runs a failed (or known) row, or undefined for a row no case can re-run (the
 * preflight, a case not run, an expectations entry).
 */
export function rerunCommand(report: RunReport, row: ResultRow): string | undefined {
  if (row.status !== 'failed' && row.status !== 'known') return undefined;
  if (row.check === NOT_RUN_CHECK || row.case === PREFLIGHT_CASE || row.case === '*' || row.case === '') return undefined;
  const op = findOperation(row.operation);
  if (row.check !== EQUIVALENCE_CHECK && !/^[a-z0-9]+$/.test(row.binding)) return undefined;
  const variable = passwordVariableOf(report);
  const generated = isGeneratedCase(row.case);
  const flags = [
    ...targetFlags(report),
    ...(op?.mutates && !report.target.embedded ? ['--allow-mutations'] : []),
    // The unknown-operation probe is a unit of its service, planned with any of its operations.
    ...(op ? ['--operations', operationsFor(report, row, op)] : []),
    '--bindings', row.check === EQUIVALENCE_CHECK ? report.bindings.join(',') : row.binding,
    '--case', row.case,
    '--seed', String(report.generation?.seed ?? 16),
    // A hand-written or negative case needs no generation (and no GetLanguages); a generated one its budget.
    '--examples', generated ? String(report.generation?.examples ?? 0) : '0',
  ];
  const env = report.target.embedded || variable === PASSWORD_VARIABLE ? '' : `${PASSWORD_VARIABLE}="$${variable}" `;
  return `${env}npx conformance run ${flags.map(shellQuote).join(' ')}`;
}
