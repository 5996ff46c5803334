/**
 * `conformance record [run flags] [--out DIR]`: send every valid request case on every selected
 * binding to the target and keep what came back in DIR (default fixtures/recorded/): one body file
 * per operation × binding × case and an index.json (schemas/recording.schema.json) with the
 * parameters sent (without userName and password), the status, the content type and the headers.
 * The password is redacted from everything written, in every form it can take in the bytes.
 * `npm run mock -- --replay DIR` serves the recording again.
 *
 * State-changing operations are recorded on a real target only with --allow-mutations. Exit 0 when
 * every exchange was recorded, 1 when the target did not answer some of them, 2 on bad usage.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BindingId } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import { REDACTED, secretForms } from '../core/redact.js';
import type { Exchange } from '../core/types.js';
import { exchangeUnit } from '../engine/exchange.js';
import { bindingParams, planUnits, type Unit } from '../engine/plan.js';
import { sequenceUnitRows } from '../engine/sequence-unit.js';
import { checkPools, poolCheckLine, POOL_CHECK_CASE } from '../engine/pool-check.js';
import {
  parseRecordingIndex,
  RECORDING_FORMAT,
  RECORDING_INDEX,
  type RecordingEntry,
  type RecordingIndex,
} from '../mock/replay.js';
import { SecretGuard } from '../report/secrets.js';
import { helpText, parseFlags, resolveRunSettings, RUN_OPTIONS } from './config.js';
import { RECORD_HELP } from './help.js';
import { RECORD_OPTIONS } from './command-settings.js';
import type { CommandIO } from './run.js';
import { openSession } from '../engine/session.js';

export const DEFAULT_RECORDING_DIR = join('fixtures', 'recorded');
/** The record command's flags: the run flags and --out. */
export { RECORD_OPTIONS };

export const RECORD_USAGE = `usage: conformance record [run flags] [--out DIR]

Sends every request case (the valid ones; the negative cases are the mock's own) on every selected
binding to the target given by the run flags (the embedded mock when no URL is given) and writes
the responses to DIR (default ${DEFAULT_RECORDING_DIR}/): Operation/case.binding.xml and index.json.
The password is never written: it is dropped from the recorded parameters and redacted from every
response. Replay with: npm run mock -- --replay DIR.
Exit 0 when every exchange was recorded, 1 when some got no response, 2 on bad usage.`;

/** Response headers not recorded: connection-level, one-moment, or session-bearing. */
const NOT_RECORDED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
  'set-cookie',
  'upgrade',
  'trailer',
  'proxy-connection',
]);

/** Replace every form of every secret in the bytes (as UTF-8, UTF-16 and Latin-1), keeping the rest byte for byte. */
export function redactBytes(body: Buffer, secrets: readonly string[]): Buffer {
  let out = body;
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      for (const enc of ['utf8', 'utf16le', 'latin1'] as const) {
        const needle = Buffer.from(form, enc);
        if (needle.length === 0 || (enc === 'latin1' && /[^\u0000-\u00ff]/.test(form))) continue;
        const mark = Buffer.from(REDACTED, enc);
        const parts: Buffer[] = [];
        let from = 0;
        for (let at = out.indexOf(needle, from); at >= 0; at = out.indexOf(needle, from)) {
          parts.push(out.subarray(from, at), mark);
          from = at + needle.length;
        }
        if (parts.length) out = Buffer.concat([...parts, out.subarray(from)]);
      }
    }
  }
  return out;
}

/** Take `--NAME VALUE` / `--NAME=VALUE` out of argv (the rest are run flags). */
function takeFlag(argv: string[], name: string): { value?: string; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}`) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`option '--${name} <value>' argument missing`);
      value = v;
      i++;
    } else if (a.startsWith(`--${name}=`)) {
      value = a.slice(name.length + 3);
    } else {
      rest.push(a);
    }
  }
  return { value, rest };
}

const extensionOf = (contentType: string, body: Buffer) =>
  /xml/i.test(contentType) || /^\s*(\uFEFF)?</.test(body.subarray(0, 64).toString('latin1')) ? 'xml' : 'txt';

/** The files a previous recording in `dir` wrote (to be replaced; nothing else in the directory is touched). */
function previousFiles(dir: string): string[] {
  const p = join(dir, RECORDING_INDEX);
  if (!existsSync(p)) return [];
  try {
    return parseRecordingIndex(JSON.parse(readFileSync(p, 'utf8')), p).entries.map((e) => e.file);
  } catch (e) {
    throw new UsageError(
      `${p} exists and is not a recording index, so ${dir} is not overwritten: ${(e as Error).message}`,
    );
  }
}

export async function recordCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText(RECORD_USAGE, RECORD_OPTIONS, RECORD_HELP));
    return 0;
  }
  const { value: outFlag, rest } = takeFlag(argv, 'out');
  parseFlags(rest, RUN_OPTIONS); // every other flag must be a run flag
  if (outFlag === '') throw new UsageError('--out must name a directory');
  const out = outFlag ?? DEFAULT_RECORDING_DIR;
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${out} is not a directory`);
  const old = previousFiles(out);
  const s = resolveRunSettings(rest, io.env);
  if (s.list) throw new UsageError('--list (or --dry-run) is a flag of conformance run: record always sends');
  for (const w of s.warnings ?? []) io.err(`warning: ${w}`);
  const session = await openSession(s);
  const { target, redact, secrets } = session;
  if (!s.quiet) io.err(`conformance: recording ${session.where} into ${out}`);
  // A sequence's calls are recorded one by one, in the order sent (n): replay answers them in that order.
  type Got = {
    unit: Unit;
    b: BindingId;
    ex?: Exchange;
    skipped?: string;
    params?: Readonly<Record<string, string>>;
    n?: number;
  };
  let got: Got[];
  try {
    // The pool bookings read first, as `run` reads them (engine/pool-check.ts): recorded in the order
    // sent, so a run replayed against this recording asks them again and is answered alike.
    const reads: Got[] = [];
    const pooled = await checkPools(session.plan, {
      ...session.deps(),
      onRead: (r) =>
        reads.push({
          unit: { op: r.op, caseId: POOL_CHECK_CASE, kind: 'valid', params: r.params },
          b: r.binding,
          ex: r.exchange,
          params: r.params,
          n: reads.length + 1,
        }),
    });
    if (pooled.check && !s.quiet) io.err(poolCheckLine(pooled.check));
    // The valid cases only: a recording replays what a conforming service answers.
    const plan = { ...pooled.plan, negative: false };
    // A sequence using another's bookings again starts once that one has ended.
    const ends = new Map<string, Promise<unknown>>();
    got = (
      await Promise.all(
        planUnits(plan).map(async (unit): Promise<Got[]> => {
          if (unit.sequence) {
            const after = unit.sequence.after;
            if (after !== undefined) await ends.get(after.name);
            const steps: Got[] = [];
            const running = sequenceUnitRows(
              plan,
              {
                ...session.deps(),
                onStep: (s) =>
                  steps.push({ unit: { ...unit, op: s.op }, b: s.binding, ex: s.exchange, params: s.params, n: s.n }),
              },
              unit,
            );
            ends.set(
              unit.sequence.family,
              running.catch(() => undefined),
            );
            const rows = await running;
            return steps.length ? steps : [{ unit, b: plan.bindings[0]!, skipped: rows[0]?.message ?? 'not run' }];
          }
          const sent = await exchangeUnit(plan, session.transport, unit, (_b, ex) => ex);
          if ('skipped' in sent) return sent.requests.map((r) => ({ unit, b: r.binding, skipped: sent.skipped }));
          return sent.sent.map((x) => ({ unit, b: x.binding, ex: x.exchange, params: bindingParams(unit, x.binding) }));
        }),
      )
    ).flat();
    got = [...reads, ...got];
  } finally {
    await session.close();
  }

  const guard = new SecretGuard(secrets, io.err);
  const files: Array<[string, Buffer]> = [];
  const entries: RecordingEntry[] = [];
  const missing: string[] = [];
  for (const g of got) {
    const what = `${g.unit.op.name} [${g.b}] ${g.unit.caseId}`;
    if (g.skipped) continue;
    const res = g.ex?.response;
    if (!res) {
      missing.push(`${what}: no response: ${redact(`${g.ex?.error?.code}: ${g.ex?.error?.message}`)}`);
      continue;
    }
    const stem = `${g.unit.op.name}/${g.unit.caseId}${g.n !== undefined ? `-${g.n}` : ''}.${g.b}`;
    const file0 = stem;
    const body = guard.protectBytes(file0, redactBytes(res.body, secrets));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (!NOT_RECORDED.has(k.toLowerCase())) headers[k.toLowerCase()] = redact(v);
    const contentType = headers['content-type'] ?? '';
    const file = `${stem}.${extensionOf(contentType, body)}`;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(g.params ?? g.unit.params))
      if (k !== 'userName' && k !== 'password') params[k] = redact(v);
    files.push([file, body]);
    entries.push({
      operation: g.unit.op.name,
      binding: g.b,
      case: g.unit.caseId,
      params,
      status: res.status,
      contentType,
      headers,
      file,
    });
  }
  const index: RecordingIndex = {
    format: RECORDING_FORMAT,
    recordedAt: new Date().toISOString(),
    target: {
      bookUrl: redact(target.bookUrl),
      searchUrl: redact(target.searchUrl),
      transfersUrl: redact(target.transfersUrl),
      paths: target.paths,
      namespaces: target.namespaces,
      embedded: target.embedded,
    },
    entries,
  };
  const indexText = guard.protect(RECORDING_INDEX, `${JSON.stringify(index, null, 2)}\n`);

  // Everything is checked: now replace the previous recording's files with this one's.
  await mkdir(out, { recursive: true });
  await Promise.all(old.map((f) => rm(join(out, f), { force: true })));
  for (const [file, body] of files) {
    await mkdir(dirname(join(out, file)), { recursive: true });
    await writeFile(join(out, file), body);
  }
  await writeFile(join(out, RECORDING_INDEX), indexText, 'utf8');

  const skipped = got.filter((g) => g.skipped);
  const skippedOps = [...new Set(skipped.map((g) => g.unit.op.name))];
  io.out(
    `recorded ${entries.length} responses into ${resolve(out)} `
      + `(${new Set(entries.map((e) => e.operation)).size} operations × `
      + `${new Set(entries.map((e) => e.binding)).size} bindings)`
      + (skipped.length ? `; not recorded (state-changing, no --allow-mutations): ${skippedOps.join(', ')}` : ''),
  );
  if (missing.length) {
    io.err(
      `conformance: ${missing.length} exchange${missing.length > 1 ? 's' : ''} got no response `
        + `and ${missing.length > 1 ? 'were' : 'was'} not recorded:`,
    );
    for (const m of missing.slice(0, 20)) io.err(`  ${m}`);
    if (missing.length > 20) io.err(`  … and ${missing.length - 20} more`);
    return 1;
  }
  return 0;
}
