/**
 * Reading a conformance.json a command was given (a file, or a report directory holding one),
 * checked against the report schema and for a summary that counts its rows. Any problem is bad
 * input (UsageError, exit 2) naming the file and what is wrong with it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readJsonFile } from '../core/json-file.js';
import { UsageError } from '../core/errors.js';
import type { RunReport } from '../core/types.js';
import { SHARD_FILE, SHARD_FORMAT, type ShardInfo } from '../engine/shard.js';
import { countRows } from '../report/model.js';
import { validateReport } from '../schema/json.js';

export interface ReportInput {
  /** The JSON file read. */
  readonly source: string;
  readonly report: RunReport;
  /** shard.json next to it, when the report is a shard's. */
  readonly shard?: ShardInfo;
}

function readJson(path: string, what: string): unknown {
  return readJsonFile(path, `${what} ${path}`, (m) => new UsageError(m));
}

/** Read a report: `path` is a conformance.json or a directory holding one. */
export function readReportInput(path: string, what = 'report'): ReportInput {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, 'conformance.json');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const json = readJson(file, what);
  const errors = validateReport(json);
  if (errors.length) {
    throw new UsageError(
      `${what} ${file} is not a conformance report (schemas/conformance-report.schema.json): `
        + `${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`,
    );
  }
  const report = json as RunReport;
  const c = countRows(report.results);
  const bad = (['passed', 'failed', 'skipped', 'known', 'total'] as const).filter((k) => c[k] !== report.summary[k]);
  if (bad.length)
    throw new UsageError(
      `${what} ${file}: summary does not count its results `
        + `(${bad.map((k) => `${k} ${report.summary[k]} vs ${c[k]} rows`).join(', ')})`,
    );

  const shardPath = join(dirname(file), SHARD_FILE);
  if (!existsSync(shardPath)) return { source: file, report };
  const s = readJson(shardPath, 'shard file') as Partial<ShardInfo> | null;
  const int = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 1;
  if (
    typeof s !== 'object'
    || s === null
    || s.format !== SHARD_FORMAT
    || !int(s.index)
    || !int(s.count)
    || s.index! > s.count!
    || typeof s.plan !== 'string'
    || !/^[0-9a-f]{64}$/.test(s.plan)
  ) {
    throw new UsageError(
      `shard file ${shardPath} is not one conformance run --shard wrote (format ${SHARD_FORMAT}, index, count, plan)`,
    );
  }
  return { source: file, report, shard: s as ShardInfo };
}
