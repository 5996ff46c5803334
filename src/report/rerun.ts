/**
 * The command that re-runs one failed row of a report: `npx conformance run` with the target of the
 * report, the row's operation and binding(s), `--case` and `--seed`, and what else the row depends on
 * (RunReport.rerun: the config file, where the bookings came from, the settings that change what is
 * sent or how it is judged), into a report directory of its own, so a person (or CI) can run that
 * one case again without overwriting the reports being read. The password is never in it: it is read
 * from CONFORMANCE_PASSWORD (the second account's from CONFORMANCE_OTHER_PASSWORD), set from the
 * report's own variable when that is another one; booking
 * pools given as JSON in a variable are named by that variable, never by their ids. The network goes
 * along (the target's flags and RunReport.rerun.variables): a proxy with credentials is named by the
 * variable holding its URL (CONFORMANCE_PROXY for one given as --proxy), never dropped nor written.
 * A generated case is re-run with the languages its run used (--languages): its id never depends on
 * them, and the re-run need not ask the target's GetLanguages.
 */
import { DEFAULT_PATHS, findOperation, type Group, type Operation } from '../contract/catalogue.js';
import { EQUIVALENCE_CHECK, isGeneratedCase, NOT_RUN_CHECK, PREFLIGHT_CASE, SEQUENCE_CHECK } from '../core/rows.js';
import type { ResultRow, RunReport } from '../core/types.js';
import { OTHER_PASSWORD_VARIABLE, PASSWORD_VARIABLE, shellQuote } from '../transport/curl.js';
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
  // The second account by its name only: the re-run reads its password from CONFORMANCE_OTHER_PASSWORD again.
  if (t.otherUser) flags.push('--other-user', t.otherUser);
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
  return other
    ? ops
        .filter((o) => o === op || o === other)
        .map((o) => o.name)
        .join(',')
    : op.name;
}

/** A row's sequence over state sends through every binding of the run, and reads back through all of them. */
const isSequenceRow = (row: ResultRow) => row.check === SEQUENCE_CHECK || row.case.startsWith('seq-');

/** A directory name for a row's re-run: its operation, case and bindings, in the characters every file system takes. */
export function rerunSlug(operation: string, caseId: string, bindings: string): string {
  return `rerun-${[operation, caseId, bindings]
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')}`;
}

/** The flags of the run's own settings (RunReport.rerun), before the row's. */
function basisFlags(report: RunReport, op: Operation | undefined): string[] {
  const b = report.rerun;
  // A report of an older version: the one setting it let a state-changing row depend on.
  if (!b) return op?.mutates && !report.target.embedded ? ['--allow-mutations'] : [];
  return [
    ...(b.config ? ['--config', b.config] : []),
    ...(b.bookings && 'file' in b.bookings ? ['--bookings', b.bookings.file] : []),
    ...b.flags,
  ];
}

/**
 * --languages with the languages the run's generated cases took (RunReport.generation.languages):
 * the re-run sends the same `language` values and does not ask the target's GetLanguages, which a
 * re-run may not reach. A case's id never depends on them (src/engine/generate.ts), so a report of
 * an older version, which does not keep them, still finds its case (the values may differ).
 */
function languageFlags(report: RunReport): string[] {
  const languages = report.generation?.languages;
  // A code with a comma or white space cannot travel in the comma list: left to the target's answer, as before.
  if (!languages?.length || languages.some((l) => /[\s,]/.test(l))) return [];
  return ['--languages', languages.join(',')];
}

/**
 * The assignments before the command: the passwords' variables, a booking variable and the network's
 * secrets by name only (never a value); the network's other variables by their values.
 */
function envPrefix(report: RunReport): string {
  const variable = passwordVariableOf(report);
  const out: string[] = [];
  if (!report.target.embedded && variable !== PASSWORD_VARIABLE) out.push(`${PASSWORD_VARIABLE}="$${variable}"`);
  const other = report.otherPasswordVariable;
  if (!report.target.embedded && report.target.otherUser && other && other !== OTHER_PASSWORD_VARIABLE)
    out.push(`${OTHER_PASSWORD_VARIABLE}="$${other}"`);
  const bookings = report.rerun?.bookings;
  // The run read its pools from this variable: the re-run needs it set (sh stops, saying so, when it is not).
  if (bookings && 'variable' in bookings)
    out.push(`${bookings.variable}="\${${bookings.variable}:?the run read its booking pools from this variable}"`);
  // The network: a proxy with credentials (and a passphrase, a header's value) by its variable, which sh
  // requires set, naming it; a proxy without credentials and NO_PROXY by their values.
  for (const v of report.rerun?.variables ?? []) {
    const from = 'value' in v ? v.name : (v.from ?? v.name);
    out.push(
      'value' in v
        ? `${v.name}=${shellQuote(v.value)}`
        : `${v.name}="\${${from}:?set ${from} to ${v.required}, as for the run}"`,
    );
  }
  return out.map((x) => `${x} `).join('');
}

/**
 * The command that re-runs a failed (or known) row, or undefined for a row no case can re-run (the
 * preflight, a case not run, an expectations entry).
 */
export function rerunCommand(report: RunReport, row: ResultRow): string | undefined {
  if (row.status !== 'failed' && row.status !== 'known') return undefined;
  if (row.check === NOT_RUN_CHECK || row.case === PREFLIGHT_CASE || row.case === '*' || row.case === '')
    return undefined;
  const op = findOperation(row.operation);
  if (row.check !== EQUIVALENCE_CHECK && !/^[a-z0-9]+$/.test(row.binding)) return undefined;
  const generated = isGeneratedCase(row.case);
  const allBindings = row.check === EQUIVALENCE_CHECK || isSequenceRow(row);
  const bindings = allBindings ? report.bindings.join(',') : row.binding;
  const flags = [
    ...targetFlags(report),
    ...basisFlags(report, op),
    // The unknown-operation probe is a unit of its service, planned with any of its operations.
    ...(op ? ['--operations', operationsFor(report, row, op)] : []),
    '--bindings',
    bindings,
    '--case',
    row.case,
    '--seed',
    String(report.generation?.seed ?? 16),
    // A hand-written or negative case needs no generation (and no GetLanguages); a generated one its budget.
    '--examples',
    generated ? String(report.generation?.examples ?? 0) : '0',
    ...(generated ? languageFlags(report) : []),
    // A directory of its own beneath the run's (`reports/` for a report that does not say): never over the reports
    // being read.
    '--report-dir',
    `${(report.rerun?.reportDir ?? 'reports').replace(/\/+$/, '') || '.'}/${rerunSlug(row.operation, row.case, allBindings && report.bindings.length > 1 ? 'all' : bindings)}`,
  ];
  return `${envPrefix(report)}npx conformance run ${flags.map(shellQuote).join(' ')}`;
}
