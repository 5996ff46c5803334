/**
 * Join the reports of several runs (the shards of one plan, or runs of disjoint parts of the matrix)
 * into one RunReport, which writeReports turns into one set of reports. Inputs must be of one tool,
 * one target (the embedded mock's port may differ) and one set of bindings, and must not overlap
 * (one operation × case in two inputs). Shards must all be of one plan and all be there.
 */
import { mergeCoverage } from './coverage.js';
import { mergeTransient } from './transient.js';
import { LATENCY_CHECK, NOTHING_TESTED, PREFLIGHT_CASE, untestedExtent } from '../core/rows.js';
import { OPERATIONS } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import type { ResultRow, RunReport } from '../core/types.js';
import { countRows } from './model.js';

/** shard.json as `run --shard` writes it (src/engine/shard.ts). */
export interface MergeShardInfo {
  readonly index: number;
  readonly count: number;
  readonly plan: string;
}

export interface MergeInput {
  /** Where it came from, for messages. */
  readonly source: string;
  readonly report: RunReport;
  readonly shard?: MergeShardInfo;
}

/** Rows about the expectations file itself are not tied to a unit. */
const FILE_ROW_CHECK = 'expectations';

function sameTarget(a: RunReport['target'], b: RunReport['target']): string | undefined {
  if (a.embedded !== b.embedded) return 'one tested the embedded mock, the other a remote target';
  if (a.namespaces.book !== b.namespaces.book || a.namespaces.search !== b.namespaces.search)
    return 'the namespaces differ';
  if (a.user !== b.user) return 'the user names differ';
  if (JSON.stringify(a.paths ?? null) !== JSON.stringify(b.paths ?? null)) return 'the service paths differ';
  if (a.embedded) return undefined; // every embedded mock listens on its own port
  for (const k of ['bookUrl', 'searchUrl', 'transfersUrl'] as const)
    if (a[k] !== b[k]) return `${k} differs (${a[k]} vs ${b[k]})`;
  return undefined;
}

function checkShards(inputs: readonly MergeInput[]): void {
  const sharded = inputs.filter((i) => i.shard);
  if (sharded.length === 0) return;
  if (sharded.length !== inputs.length) {
    const plain = inputs.find((i) => !i.shard)!;
    throw new UsageError(`cannot merge shards with a report that is not a shard (${plain.source} has no shard.json)`);
  }
  const first = sharded[0]!;
  const count = first.shard!.count;
  for (const i of sharded) {
    if (i.shard!.count !== count)
      throw new UsageError(
        `${i.source} is shard ${i.shard!.index}/${i.shard!.count}, ${first.source} is of ${count} shards`,
      );
    if (i.shard!.plan !== first.shard!.plan) {
      throw new UsageError(
        `${i.source} and ${first.source} are shards of different plans (other operations, bindings or `
          + `cases): run every shard with the same flags and config`,
      );
    }
  }
  const byIndex = new Map<number, string>();
  for (const i of sharded) {
    const other = byIndex.get(i.shard!.index);
    if (other) throw new UsageError(`shard ${i.shard!.index}/${count} is given twice (${other} and ${i.source})`);
    byIndex.set(i.shard!.index, i.source);
  }
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  if (missing.length)
    throw new UsageError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${count}`).join(', ')} missing: `
        + `a merged report without ${missing.length > 1 ? 'them' : 'it'} would pass checks it never ran`,
    );
}

/** Merge reports into one (summary recomputed); throws UsageError naming the inputs that do not fit. */
export function mergeReports(inputs: readonly MergeInput[]): RunReport {
  if (inputs.length === 0) throw new UsageError('merge needs at least one report');
  checkShards(inputs);
  const first = inputs[0]!;
  for (const i of inputs.slice(1)) {
    if (i.report.tool.name !== first.report.tool.name)
      throw new UsageError(
        `${i.source} was written by ${i.report.tool.name}, ${first.source} by ${first.report.tool.name}`,
      );
    const why = sameTarget(first.report.target, i.report.target);
    if (why) throw new UsageError(`${i.source} and ${first.source} tested different targets: ${why}`);
    const a = [...first.report.bindings].sort().join(',');
    const b = [...i.report.bindings].sort().join(',');
    if (a !== b) throw new UsageError(`${i.source} tested bindings ${b}, ${first.source} tested ${a}`);
    // Generated cases of another seed or budget are other cases: the reports would not add up to one run.
    const gen = (r: RunReport) =>
      r.generation ? `seed ${r.generation.seed}, ${r.generation.examples} examples` : 'no generated cases';
    if (gen(i.report) !== gen(first.report))
      throw new UsageError(`${i.source} was run with ${gen(i.report)}, ${first.source} with ${gen(first.report)}`);
  }
  // One operation × case belongs to one input: otherwise its rows would be counted twice.
  const owner = new Map<string, string>();
  for (const i of inputs) {
    const units = new Set(
      i.report.results
        .filter((r) => r.check !== FILE_ROW_CHECK && r.check !== LATENCY_CHECK && r.case !== PREFLIGHT_CASE)
        .map((r) => `${r.operation} case ${r.case}`),
    );
    for (const u of units) {
      const other = owner.get(u);
      if (other !== undefined) throw new UsageError(`the reports overlap: ${u} is in ${other} and in ${i.source}`);
      owner.set(u, i.source);
    }
  }
  // Catalogue order, then operations the catalogue does not know in the order they appear.
  const seen: string[] = [];
  for (const i of inputs) for (const op of i.report.operations) if (!seen.includes(op)) seen.push(op);
  const order = (op: string) => {
    const at = OPERATIONS.findIndex((o) => o.name === op);
    return at >= 0 ? at : OPERATIONS.length + seen.indexOf(op);
  };
  const operations = [...seen].sort((a, b) => order(a) - order(b));
  const rank = (op: string) => {
    const at = operations.indexOf(op);
    return at >= 0 ? at : operations.length;
  };
  // Every shard asks the same hosts before its matrix: a host found down is one row, not one per shard.
  const preflights = new Set<string>();
  // Each shard's latency gate judged its own answers: the merged report is judged again on all of them
  // (src/cli/merge.ts, with the limits carried in latencyGate).
  const results: ResultRow[] = inputs
    .flatMap((i) => i.report.results)
    .filter((r) => r.check !== LATENCY_CHECK)
    .filter((r) => {
      if (r.case !== PREFLIGHT_CASE) return true;
      const key = `${r.operation}\u0000${r.check}\u0000${r.message}`;
      return !preflights.has(key) && !!preflights.add(key);
    })
    .map((r, n) => ({ r, n }))
    .sort((x, y) => rank(x.r.operation) - rank(y.r.operation) || x.n - y.n)
    .map(({ r }) => r);
  const start = Math.min(...inputs.map((i) => Date.parse(i.report.startedAt)));
  const end = Math.max(...inputs.map((i) => Date.parse(i.report.startedAt) + i.report.durationMs));
  const c = countRows(results);
  // Nothing was tested only if no shard tested anything (said once); a cell untested in a shard is
  // listed once (another shard may hold a case of it that reached the data path: said in the reason).
  const nothing = inputs.every((i) => untestedExtent(i.report) === 'all');
  const diagnosis = [
    ...new Map(
      inputs
        .flatMap((i) => i.report.diagnosis ?? [])
        .filter((d) => d.code !== NOTHING_TESTED || nothing)
        .map((d) => [d.code === NOTHING_TESTED ? NOTHING_TESTED : `${d.level}\u0000${d.message}`, d]),
    ).values(),
  ];
  const untested = [
    ...new Map(
      inputs
        .flatMap((i) =>
          (i.report.untested ?? []).map((u) => ({
            ...u,
            reason: inputs.length > 1 ? `${u.reason} (in ${i.source})` : u.reason,
          })),
        )
        .map((u) => [`${u.operation}\u0000${u.binding}`, u]),
    ).values(),
  ];
  const incomplete = inputs.flatMap((i) => (i.report.incomplete ? [`${i.source}: ${i.report.incomplete}`] : []));
  // Each shard consumed bookings of its own (the plan hands them out the same way in every shard): all of them, and
  // every shortfall.
  const withBookings = inputs.filter((i) => i.report.bookings);
  const short: Record<string, number> = {};
  for (const i of withBookings)
    for (const [k, n] of Object.entries(i.report.bookings!.short ?? {})) short[k] = (short[k] ?? 0) + n;
  const bookings =
    withBookings.length === 0
      ? undefined
      : {
          changed: withBookings.flatMap((i) => i.report.bookings!.changed),
          ...(Object.keys(short).length ? { short } : {}),
        };
  const coverage = mergeCoverage(inputs.map((i) => i.report.coverage));
  const transient = mergeTransient(inputs.map((i) => i.report.transient));
  return {
    tool: first.report.tool,
    target: first.report.target,
    startedAt: new Date(start).toISOString(),
    durationMs: Math.max(0, end - start),
    bindings: first.report.bindings,
    operations,
    summary: { passed: c.passed, failed: c.failed, skipped: c.skipped, known: c.known, total: c.total },
    results,
    ...(diagnosis.length > 0 ? { diagnosis } : {}),
    ...(untested.length > 0 ? { untested } : {}),
    ...(incomplete.length > 0 ? { incomplete: incomplete.join('; ') } : {}),
    ...(first.report.passwordVariable ? { passwordVariable: first.report.passwordVariable } : {}),
    ...(first.report.otherPasswordVariable ? { otherPasswordVariable: first.report.otherPasswordVariable } : {}),
    ...(first.report.generation ? { generation: first.report.generation } : {}),
    ...(bookings ? { bookings } : {}),
    // The shards ran with the same settings: the first's say how to re-run a row.
    ...(first.report.rerun ? { rerun: first.report.rerun } : {}),
    ...(first.report.latencyGate ? { latencyGate: first.report.latencyGate } : {}),
    // Every shard's preflight compared the same WSDLs with the contract: the first says it for all.
    ...(first.report.drift ? { drift: first.report.drift } : {}),
    // Each shard saw its cases' answers: the run's coverage is all of theirs joined.
    ...(coverage ? { coverage } : {}),
    // A shard's gateway pages and dropped connections, and an outage seen by one, are the run's.
    ...(transient ? { transient } : {}),
  };
}
