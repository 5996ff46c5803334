/**
 * Replay of recorded responses (`conformance record --out DIR`, format in schemas/recording.schema.json):
 * the mock answers a request whose operation, binding and parameters (userName and password aside)
 * match a recorded entry with the recorded status, headers and body bytes. The mock still checks
 * the credentials first, and answers anything that was not recorded as it always does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplayError } from '../core/errors.js';
import { POOL_CHECK_CASE } from '../core/rows.js';
import { readJsonFile } from '../core/json-file.js';
import type { Binding, IncomingRequest } from '../bindings/types.js';
import type { BindingId, Namespaces, Operation, ServicePaths } from '../contract/catalogue.js';
import { validateJson } from '../schema/json.js';
import type { MockResponse } from './fault-types.js';
import { isPlainHeaderName, isPlainHeaderValue } from './wire.js';

export const RECORDING_FORMAT = 'accommodation-conformance-recording/1';
export const RECORDING_INDEX = 'index.json';
export const RECORDING_SCHEMA_URL = new URL('../../schemas/recording.schema.json', import.meta.url);

export interface RecordingEntry {
  readonly operation: string;
  readonly binding: BindingId;
  readonly case: string;
  /** Parameters as sent, without userName and password. */
  readonly params: Readonly<Record<string, string>>;
  readonly status: number;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Body file, relative to the recording directory. */
  readonly file: string;
}

export interface RecordingIndex {
  readonly format: typeof RECORDING_FORMAT;
  readonly recordedAt: string;
  readonly target: {
    readonly bookUrl: string;
    readonly searchUrl: string;
    readonly transfersUrl: string;
    readonly paths?: ServicePaths;
    readonly namespaces: Namespaces;
    readonly embedded: boolean;
  };
  readonly entries: readonly RecordingEntry[];
}

export { ReplayError };

/** Answers a decoded request from the recording, or undefined when nothing was recorded for it. */
export type ReplayLookup = (
  operation: string,
  binding: BindingId,
  params: Readonly<Record<string, string | undefined>>,
) => ReplayHit | undefined;

/** A recorded answer, served as a Fetch Response (msw) or, when that would carry it unchanged, as plain data. */
export class ReplayHit {
  /** `volatile`: one of several answers recorded for the request, served in order (never memoised). */
  constructor(
    private readonly entry: RecordingEntry,
    private readonly bytes: Buffer,
    readonly volatile = false,
  ) {}

  /**
   * The recorded status, headers (without the connection's own) and body bytes, for a Fetch Response
   * (./fetch-response.ts).
   */
  responseParts(): { status: number; headers: Headers; body: Uint8Array | null } {
    const headers = new Headers();
    for (const [k, v] of Object.entries(this.entry.headers)) if (!NOT_REPLAYED.has(k.toLowerCase())) headers.set(k, v);
    if (this.entry.contentType) headers.set('content-type', this.entry.contentType);
    else headers.delete('content-type');
    const empty = [204, 205, 304].includes(this.entry.status);
    return { status: this.entry.status, headers, body: empty ? null : Uint8Array.from(this.bytes) };
  }

  /**
   * The same answer as plain data, or undefined when Headers would change or refuse a header, or
   * the status carries no body (then use responseParts()).
   */
  plain(): MockResponse | undefined {
    if ([204, 205, 304].includes(this.entry.status)) return undefined;
    const headers: Record<string, string> = {};
    const set = (k: string, v: string): boolean => {
      if (!isPlainHeaderName(k) || !isPlainHeaderValue(v)) return false;
      headers[k.toLowerCase()] = v;
      return true;
    };
    for (const [k, v] of Object.entries(this.entry.headers))
      if (!NOT_REPLAYED.has(k.toLowerCase()) && !set(k, v)) return undefined;
    if (this.entry.contentType) {
      if (!set('content-type', this.entry.contentType)) return undefined;
    } else {
      delete headers['content-type'];
    }
    return { status: this.entry.status, headers, body: this.bytes };
  }
}

export interface ReplayStore {
  readonly dir: string;
  /** Entries that can be served. */
  readonly size: number;
  /** The recorded target's namespaces and service paths (the replaying mock uses them unless told otherwise). */
  readonly namespaces: Namespaces;
  readonly paths?: ServicePaths;
  readonly lookup: ReplayLookup;
}

/** Every sequence's case id starts so (src/sequences/families.ts holds to it). */
export const SEQUENCE_PREFIX = 'seq-';

/** The match key: operation, binding and the parameters without credentials (order and absent values ignored). */
export function replayKey(
  operation: string,
  binding: string,
  params: Readonly<Record<string, string | undefined>>,
): string {
  const kept = Object.entries(params)
    .filter(([k, v]) => v !== undefined && k !== 'userName' && k !== 'password')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([operation, binding, kept]);
}

/** Check a parsed index.json; throws ReplayError naming the first problems. */
export function parseRecordingIndex(json: unknown, where: string): RecordingIndex {
  const schema = JSON.parse(readFileSync(RECORDING_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  const errors = validateJson(json, schema);
  if (errors.length)
    throw new ReplayError(
      `${where} is not a recording index (schemas/recording.schema.json): ${errors.slice(0, 5).join('; ')}`,
    );
  const index = json as RecordingIndex;
  index.entries.forEach((e, i) => {
    for (const k of Object.keys(e.params)) {
      if (k === 'userName' || k === 'password')
        throw new ReplayError(`${where}: /entries/${i}/params holds "${k}": credentials are never recorded`);
    }
  });
  return index;
}

// Headers that describe one connection or one moment, not the answer.
const NOT_REPLAYED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
  'set-cookie',
  'upgrade',
  'trailer',
]);

/** Load a recording directory (index.json and every body file it names). */
export function loadReplay(dir: string): ReplayStore {
  const indexPath = join(dir, RECORDING_INDEX);
  const json = readJsonFile(
    indexPath,
    indexPath,
    (m) => new ReplayError(m),
    ` (record one with: conformance record --out ${dir})`,
  );
  const index = parseRecordingIndex(json, indexPath);
  // Every answer recorded for a request, in the order recorded: a sequence over state asks the same
  // question more than once (a read before and after a write) and is answered in that order; the
  // last answer stands once they are used up.
  const answers = new Map<string, { entry: RecordingEntry; body: Buffer }[]>();
  const served = new Map<string, number>();
  index.entries.forEach((entry, i) => {
    let body: Buffer;
    try {
      body = readFileSync(join(dir, entry.file));
    } catch (e) {
      throw new ReplayError(
        `${indexPath}: /entries/${i} names ${entry.file}, which cannot be `
          + `read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    if (entry.status < 200 || entry.status > 599)
      throw new ReplayError(
        `${indexPath}: /entries/${i} has status ${entry.status}: only final statuses 200-599 can be served`,
      );
    const key = replayKey(entry.operation, entry.binding, entry.params);
    answers.set(key, [...(answers.get(key) ?? []), { entry, body }]);
  });
  return {
    dir,
    size: answers.size,
    namespaces: index.target.namespaces,
    ...(index.target.paths ? { paths: index.target.paths } : {}),
    lookup(operation, binding, params) {
      const key = replayKey(operation, binding, params);
      const all = answers.get(key);
      if (!all) return undefined;
      // One case asked it more than once (a sequence), or only sequences did (one sequence uses
      // another's bookings again once that one has ended, src/sequences/): its answers in order.
      // Several cases that sent the same request (a generated case like a hand-written one): the
      // first recorded, always.
      // The run's pool check (engine/pool-check.ts) reads a booking before the sequence that uses it: in order too.
      const stateful = (c: string) => c.startsWith(SEQUENCE_PREFIX) || c === POOL_CHECK_CASE;
      const ordered =
        all.length > 1
        && (all.every((a) => a.entry.case === all[0]!.entry.case) || all.every((a) => stateful(a.entry.case)));
      if (!ordered) return new ReplayHit(all[0]!.entry, all[0]!.body);
      const n = served.get(key) ?? 0;
      served.set(key, n + 1);
      const hit = all[Math.min(n, all.length - 1)]!;
      return new ReplayHit(hit.entry, hit.body, true);
    },
  };
}

/**
 * The hook of the mock's handlers: the recorded answer to a request a binding claimed, when its
 * credentials are the mock's and its operation, binding and parameters were recorded; otherwise
 * undefined (the mock answers as usual: wrong credentials get the usual rejection).
 */
export function replayAnswer(
  lookup: ReplayLookup,
  credentials: { readonly user: string; readonly password: string },
  b: Binding,
  req: IncomingRequest,
  servicePath: string,
  ops: readonly Operation[],
  namespaces: Namespaces,
): ReplayHit | undefined {
  const decoded = b.decode(req, servicePath, ops, namespaces);
  if (!decoded.ok) return undefined;
  if (decoded.params.userName !== credentials.user || decoded.params.password !== credentials.password)
    return undefined;
  return lookup(decoded.op.name, b.id, decoded.params);
}
