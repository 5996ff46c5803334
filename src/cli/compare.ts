/**
 * `conformance compare --config A --config B [--report-dir DIR] [--ignore-values] [--quiet]`: send the
 * same request cases to two targets (mock and real, staging and production) and report, per
 * operation × binding, where their results differ. Results are compared in the canonical form of the
 * binding-equivalence check (src/equivalence/canonical.ts: prefixes resolved, values in their XSD
 * value space, the documented per-binding difference ignored), so only real differences count.
 *
 * Each config file is a run config (docs/cli.md, "Config file"); one without a target URL is the embedded
 * mock. The target comes from the file only: the CONFORMANCE_*_URL and *_NS variables would make both
 * sides one target, so they are ignored here (the user and password variables still apply). The
 * network flags (--proxy, --ca-file, --client-cert, --header, --timeout...; engine/network-settings.ts)
 * apply to both sides, before each file's target keys, as the network variables do. Compared:
 * the operations and bindings both configs select, and the cases both have (by id, with equal
 * parameters). State-changing operations are sent to a real target only if its config allows them.
 * Exit 0 when nothing differs, 1 on any difference (or a case neither target answered), 2 on bad input.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { bindingLabel } from '../bindings/index.js';
import { CheckContext } from '../checks/context.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { makeRedactor, type Redactor } from '../core/redact.js';
import type { Exchange } from '../core/types.js';
import type { RequestCase } from '../engine/cases.js';
import { exchangeUnit } from '../engine/exchange.js';
import { caseUnit, skipReason, withBookings, type RunPlan } from '../engine/plan.js';
import { TOOL } from '../core/version.js';
import { DOCUMENTED, ELEMENT, NIL, type Entry } from '../equivalence/canonical.js';
import { acceptance } from '../equivalence/acceptance.js';
import { canonicalResult } from '../equivalence/binding-view.js';
import { firstDifferingPath, shown, valueIn } from '../equivalence/differences.js';
import { mdCode, mdText } from '../report/md-text.js';
import { consoleText } from '../report/model.js';
import { reportDirProblem } from '../report/paths.js';
import { SecretGuard } from '../report/secrets.js';
import { helpText, parseFlags, type RunSettings } from './config.js';
import { networkFlagValues } from '../engine/network-settings.js';
import { resolveRunSettingsFlags } from '../engine/settings.js';
import { COMPARE_HELP } from './help.js';
import { COMPARE_OPTIONS } from './command-settings.js';
import type { CommandIO } from './run.js';
import { openSession, type Session } from '../engine/session.js';

export const COMPARE_USAGE = `usage: conformance compare --config A --config B [--report-dir DIR] [--ignore-values] [--quiet]
    [--proxy URL] [--ca-file PEM] [--client-cert PEM --client-key PEM | --client-pfx FILE] [--header "N: V"]...

Sends the same request cases to the targets of two run config files (a config without a target URL
is the embedded mock) and reports per operation × binding where their results differ, compared by
value in canonical form (the binding-equivalence rules). --ignore-values compares only which
elements and attributes occur (for a mock against a real service, whose data differ). Writes a
table to stdout and compare.json and compare.md to DIR (default reports/). The network flags, their
variables (HTTPS_PROXY, NO_PROXY, CONFORMANCE_CA_FILE...) reach both targets; each file's target keys
apply where neither is given.
Exit 0 when nothing differs, 1 on a difference, 2 on bad input.`;

export type CompareStatus = 'same' | 'different' | 'skipped' | 'error';

export interface CompareRow {
  readonly operation: string;
  readonly binding: BindingId;
  readonly case: string;
  readonly status: CompareStatus;
  readonly message: string;
  /** First differing place (canonical path) and each side's value there. */
  readonly path?: string;
  readonly a?: string;
  readonly b?: string;
}

export interface CompareReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly ignoreValues: boolean;
  readonly a: Side;
  readonly b: Side;
  readonly operations: readonly string[];
  readonly bindings: readonly BindingId[];
  readonly summary: Record<CompareStatus, number> & { total: number };
  readonly results: readonly CompareRow[];
}

interface Side {
  readonly name: string;
  readonly config: string;
  readonly target: {
    readonly bookUrl: string;
    readonly searchUrl: string;
    readonly transfersUrl: string;
    readonly embedded: boolean;
  };
}

/** Environment variables that name a target: ignored, so each side's target is its file's. */
const TARGET_VARIABLES = [
  'CONFORMANCE_BOOK_URL',
  'CONFORMANCE_SEARCH_URL',
  'CONFORMANCE_TRANSFERS_URL',
  'CONFORMANCE_BOOK_NS',
  'CONFORMANCE_SEARCH_NS',
  ...['BOOK', 'SEARCH', 'TRANSFERS'].flatMap((g) => [`CONFORMANCE_${g}_PATH`, `CONFORMANCE_${g}_HTTP_PATH`]),
];

/** The cases both tables have (A's order); the same id with other parameters is a config error. */
function commonCases(op: string, a: readonly RequestCase[], b: readonly RequestCase[], where: string): RequestCase[] {
  const out: RequestCase[] = [];
  for (const c of a) {
    const other = b.find((x) => x.id === c.id);
    if (!other) continue;
    if (JSON.stringify(Object.entries(c.params).sort()) !== JSON.stringify(Object.entries(other.params).sort())) {
      throw new ConfigError(
        `${where}: case "${c.id}" of ${op} has other parameters in each config; give one of them another id`,
      );
    }
    out.push(c);
  }
  return out;
}

const INDEX_RE = /\[\d+\]/g;

/** Which places occur (no values, no counts): element, nil, text, attribute, documented difference. */
export function structureOf(entries: readonly Entry[]): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const e of entries) {
    const path = e.path.replace(INDEX_RE, '');
    const kind =
      e.value === ELEMENT || e.value === NIL || e.value === DOCUMENTED
        ? e.value
        : path.endsWith('/text()')
          ? '<text>'
          : '<attribute>';
    const key = `${path}\u0000${kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, value: kind });
  }
  return out;
}

type Answer =
  | { kind: 'none'; why: string }
  | { kind: 'rejected'; how: string }
  | { kind: 'unknown'; why: string }
  | { kind: 'accepted'; entries: Entry[] };

function answerOf(op: Operation, b: BindingId, ex: Exchange, s: Session, ignoreValues: boolean): Answer {
  if (!ex.response) return { kind: 'none', why: `no response: ${ex.error?.code}: ${ex.error?.message}` };
  const ctx = new CheckContext({
    op,
    binding: b,
    caseId: 'compare',
    caseKind: 'valid',
    namespaces: s.target.namespaces,
    exchange: ex,
    validator: s.validator,
  });
  const acc = acceptance(ctx);
  if (acc.kind === 'rejected') return { kind: 'rejected', how: acc.how };
  if (acc.kind === 'unknown') return { kind: 'unknown', why: `HTTP ${ex.response.status}, ${acc.why}` };
  const entries = canonicalResult(op, ctx) ?? [];
  return { kind: 'accepted', entries: ignoreValues ? structureOf(entries) : entries };
}

const describe = (x: Answer) =>
  x.kind === 'accepted' ? 'answered with data' : x.kind === 'rejected' ? `rejected (${x.how})` : x.why;

function judge(
  a: Answer,
  b: Answer,
  names: [string, string],
): Pick<CompareRow, 'status' | 'message' | 'path' | 'a' | 'b'> {
  const [na, nb] = names;
  if (a.kind === 'none' && b.kind === 'none')
    return { status: 'error', message: `neither target answered (${na}: ${a.why}; ${nb}: ${b.why})` };
  if (a.kind === 'accepted' && b.kind === 'accepted') {
    const path = firstDifferingPath(a.entries, b.entries);
    if (path === undefined) return { status: 'same', message: '' };
    const va = shown(valueIn(a.entries, path));
    const vb = shown(valueIn(b.entries, path));
    return {
      status: 'different',
      path,
      a: va,
      b: vb,
      message: `first difference at ${path}: ${na} ${JSON.stringify(va)}, ${nb} ${JSON.stringify(vb)}`,
    };
  }
  if (a.kind === b.kind && (a.kind === 'rejected' || (a.kind === 'unknown' && a.why === (b as typeof a).why))) {
    return {
      status: 'same',
      message:
        a.kind === 'rejected' ? `both rejected (${na}: ${a.how}; ${nb}: ${(b as typeof a).how})` : `both: ${a.why}`,
    };
  }
  return {
    status: 'different',
    a: describe(a),
    b: describe(b),
    message: `${na}: ${describe(a)}; ${nb}: ${describe(b)}`,
  };
}

function sideName(config: string, other: string): string {
  const n = basename(config).replace(/\.json$/i, '');
  return n === basename(other).replace(/\.json$/i, '') ? config : n;
}

const ICON: Record<CompareStatus, string> = { same: 'same', different: 'DIFFERS', skipped: 'skipped', error: 'ERROR' };

function cellStatus(rows: readonly CompareRow[]): string {
  if (rows.length === 0) return '—';
  const diff = rows.filter((r) => r.status === 'different' || r.status === 'error').length;
  if (diff) return `${ICON[rows.some((r) => r.status === 'different') ? 'different' : 'error']} ${diff}/${rows.length}`;
  return rows.every((r) => r.status === 'skipped') ? 'skipped' : 'same';
}

function table(report: CompareReport): string {
  const head = ['operation', ...report.bindings.map(bindingLabel)];
  const body = report.operations.map((op) => [
    op,
    ...report.bindings.map((b) => cellStatus(report.results.filter((r) => r.operation === op && r.binding === b))),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function markdown(report: CompareReport): string {
  const s = report.summary;
  const verdict = s.different + s.error > 0 ? 'DIFFERENT' : 'SAME';
  const lines = [
    `## Target comparison: ${verdict}`,
    '',
    `${mdCode(report.a.name)} (${mdText(report.a.target.embedded ? 'embedded mock' : report.a.target.bookUrl)}) ↔ `
      + `${mdCode(report.b.name)} (${mdText(report.b.target.embedded ? 'embedded mock' : report.b.target.bookUrl)})`
      + `${report.ignoreValues ? ', structure only (--ignore-values)' : ''}: ${s.same} `
      + `same, ${s.different} different, ${s.error} unanswered, ${s.skipped} skipped`,
    '',
    `| operation | ${report.bindings.map(bindingLabel).join(' | ')} |`,
    `|---|${report.bindings.map(() => '---').join('|')}|`,
  ];
  for (const op of report.operations) {
    lines.push(
      `| ${mdText(op)} `
        + `| ${report.bindings.map((b) => mdText(cellStatus(report.results.filter((r) => r.operation === op && r.binding === b)))).join(' | ')} `
        + `|`,
    );
  }
  const diffs = report.results.filter((r) => r.status === 'different' || r.status === 'error');
  if (diffs.length) {
    lines.push('', '### Differences', '', '| operation | binding | case | where | message |', '|---|---|---|---|---|');
    for (const r of diffs.slice(0, 500))
      lines.push(
        `| ${mdText(r.operation)} | ${r.binding} | ${mdText(r.case)} | ${mdText(r.path ?? '')} `
          + `| ${mdText(r.message.slice(0, 300))} |`,
      );
    if (diffs.length > 500) lines.push('', `… and ${diffs.length - 500} more: see compare.json`);
  }
  return `${lines.join('\n')}\n`;
}

export { COMPARE_OPTIONS };

export async function compareCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values: f, positionals } = parseFlags(argv, COMPARE_OPTIONS, true);
  if (f.help) {
    io.out(helpText(COMPARE_USAGE, COMPARE_OPTIONS, COMPARE_HELP));
    return 0;
  }
  if (positionals.length)
    throw new UsageError(
      `compare takes no positional arguments (got ${positionals.join(' ')}): name the two targets with `
        + `--config A --config B`,
    );
  const configs = f.config ?? [];
  if (configs.length !== 2)
    throw new UsageError(`compare needs exactly two --config files, one per target (got ${configs.length})`);
  const dirProblem = reportDirProblem(f['report-dir'] ?? 'reports');
  if (dirProblem)
    throw new UsageError(
      `${f['report-dir'] === undefined ? 'the default report directory' : '--report-dir'} cannot hold `
        + `the reports: ${dirProblem}`,
    );
  const env: NodeJS.ProcessEnv = { ...io.env };
  for (const k of TARGET_VARIABLES) delete env[k];
  const net = networkFlagValues(f);
  const settings = configs.map((c) => resolveRunSettingsFlags({ ...net, config: c }, env)) as [
    RunSettings,
    RunSettings,
  ];
  for (const w of settings.flatMap((x) => x.warnings ?? [])) io.err(`warning: ${w}`);
  const names: [string, string] = [sideName(configs[0]!, configs[1]!), sideName(configs[1]!, configs[0]!)];
  const [sa, sb] = settings;
  const operations = sa.operations.filter((o) => sb.operations.some((x) => x.name === o.name));
  const bindings = sa.bindings.filter((b) => sb.bindings.includes(b));
  if (operations.length === 0) throw new UsageError('the two configs select no operation in common');
  if (bindings.length === 0) throw new UsageError('the two configs select no binding in common');
  const cases = new Map(
    operations.map((o) => [
      o.name,
      commonCases(o.name, sa.cases.get(o.name) ?? [], sb.cases.get(o.name) ?? [], `${configs[0]} and ${configs[1]}`),
    ]),
  );
  const ignoreValues = f['ignore-values'] ?? false;

  const started = Date.now();
  const sessions: Session[] = [];
  let results: CompareRow[];
  let secrets: string[] = [];
  let redact: Redactor = (t) => t;
  try {
    // compare sends the hand-written cases both configs have: no generation, no GetLanguages request.
    for (const s of settings) sessions.push(await openSession({ ...s, examples: 0 }));
    const [A, B] = sessions as [Session, Session];
    secrets = [...new Set([...A.secrets, ...B.secrets])];
    redact = makeRedactor(secrets);
    if (!f.quiet) io.err(redact(`conformance: comparing ${names[0]} (${A.where}) with ${names[1]} (${B.where})`));
    const plans = sessions.map((x): RunPlan => ({ ...x.plan, bindings, operations, cases }));
    const jobs = operations.flatMap((op) =>
      (cases.get(op.name) ?? []).flatMap((c) => bindings.map((b) => ({ op, c, b }))),
    );
    // Each side's state-changing calls get bookings of their own, from that side's pools (engine/bookings.ts).
    const allocated = plans.map((p) =>
      withBookings(
        p,
        operations.flatMap((op) => (cases.get(op.name) ?? []).map((c) => caseUnit(p.target, op, c))),
      ),
    );
    const unitOf = (i: number, op: (typeof operations)[number], id: string) =>
      allocated[i]!.find((u) => u.op === op && u.caseId === id)!;
    results = await Promise.all(
      jobs.map(async ({ op, c, b }): Promise<CompareRow> => {
        // Neither side is sent a case one side's policy skips.
        const skip = plans.map((p) => skipReason(p, op)).find((x) => x !== undefined);
        if (skip) return { operation: op.name, binding: b, case: c.id, status: 'skipped', message: skip };
        const short = [0, 1].map((i) => unitOf(i, op, c.id).unsent?.[b]).find((x) => x !== undefined);
        if (short) return { operation: op.name, binding: b, case: c.id, status: 'skipped', message: short };
        const [ea, eb] = await Promise.all(
          sessions.map(async (x, i) => {
            const sent = await exchangeUnit(
              plans[i]!,
              x.transport,
              { ...unitOf(i, op, c.id), only: [b] },
              (_b, ex) => ex,
            );
            return 'sent' in sent ? sent.sent[0]!.exchange : undefined;
          }),
        );
        // A state-changing call changed a booking of each side's own: their values are the bookings', not compared.
        const values = ignoreValues || op.mutates;
        const j = judge(answerOf(op, b, ea!, A, values), answerOf(op, b, eb!, B, values), names);
        return {
          operation: op.name,
          binding: b,
          case: c.id,
          status: j.status,
          message: redact(j.message),
          ...(j.path !== undefined ? { path: redact(j.path) } : {}),
          ...(j.a !== undefined ? { a: redact(j.a) } : {}),
          ...(j.b !== undefined ? { b: redact(j.b) } : {}),
        };
      }),
    );
  } finally {
    for (const s of sessions) await s.close();
  }

  const summary = { same: 0, different: 0, skipped: 0, error: 0, total: results.length };
  for (const r of results) summary[r.status]++;
  const side = (i: 0 | 1): Side => {
    const t = sessions[i]!.target;
    return {
      name: names[i],
      config: configs[i]!,
      target: {
        bookUrl: redact(t.bookUrl),
        searchUrl: redact(t.searchUrl),
        transfersUrl: redact(t.transfersUrl),
        embedded: t.embedded,
      },
    };
  };
  const report: CompareReport = {
    tool: { ...TOOL },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ignoreValues,
    a: side(0),
    b: side(1),
    operations: operations.map((o) => o.name),
    bindings,
    summary,
    results,
  };
  const dir = resolve(f['report-dir'] ?? 'reports');
  const guard = new SecretGuard(secrets, io.err);
  const json = guard.protect('compare.json', `${JSON.stringify(report, null, 2)}\n`);
  const md = guard.protect('compare.md', markdown(report));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'compare.json'), json, 'utf8');
  await writeFile(join(dir, 'compare.md'), md, 'utf8');

  io.out(consoleText(table(report)));
  const diffs = results.filter((r) => r.status === 'different' || r.status === 'error');
  if (diffs.length) {
    io.out('');
    for (const r of diffs.slice(0, 50)) io.out(consoleText(`✗ ${r.operation} [${r.binding}] ${r.case}: ${r.message}`));
    if (diffs.length > 50) io.out(`… and ${diffs.length - 50} more: see compare.json`);
  }
  io.out(
    `\nCompare ${diffs.length ? 'DIFFERENT' : 'SAME'}: ${summary.same} same, ${summary.different} `
      + `different, ${summary.error} unanswered, `
      + `${summary.skipped} skipped (${summary.total} cases × bindings)${ignoreValues ? ', structure only' : ''}`,
  );
  io.out(`Reports:\n  JSON      ${join(dir, 'compare.json')}\n  Markdown  ${join(dir, 'compare.md')}`);
  return diffs.length ? 1 : 0;
}
