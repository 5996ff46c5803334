/**
 * libxml2 on a large document, in a process of its own. libxmljs2 cannot be loaded in worker
 * threads, and libxml2's work on a hostile document of a few MiB can take seconds to minutes
 * (quadratic corners, millions of errors) with the event loop blocked all along: exchanges in
 * flight would time out on our CPU, not the target's, and --deadline could not stop it. A child
 * process reads the document instead, one at a time: the event loop stays free, and a read that
 * takes longer than its budget, or outlives the run's deadline, is ended by killing the process
 * (the next document starts a new one). Small documents never come here (their cost is bounded by
 * their size); see createDocumentValidator.
 *
 * The process is started on first use with tsx (the sources are TypeScript), kept while documents
 * come, and never keeps this process alive: it exits when the channel closes or after a minute idle.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Namespaces } from '../contract/catalogue.js';
import type { LibxmlOutcome } from './types.js';

/** What the child needs to build the same validator as this process. */
export interface ValidatorSetup {
  readonly namespaces: Namespaces;
  readonly maxBytes: number;
  readonly cacheDir?: string;
  readonly subsets: boolean;
}

/**
 * What the parent sends: a document to read; `warm`, a validator to build before any document
 * comes (a process started to replace one that retires); `bye`, the parent's answer to `retiring`.
 */
export type ChildRequest =
  | { readonly id: number; readonly setup: ValidatorSetup; readonly xml: string }
  /**
   * The document as the UTF-8 bytes it was decoded from (fatal, a BOM dropped): the child decodes them the same way.
   */
  | { readonly id: number; readonly setup: ValidatorSetup; readonly utf8: Uint8Array }
  | { readonly warm: ValidatorSetup }
  | { readonly bye: true };

/**
 * What the child sends: a document's outcome (or why there is none), or `retiring`: its memory is
 * past its limit after a document, so it takes no more. It still reads every document sent before
 * the parent saw that (the channel keeps their order), and ends when the parent's `bye` comes.
 */
export type ChildResponse =
  | {
      readonly id: number;
      readonly outcome?: LibxmlOutcome;
      readonly error?: string;
      /** The process's peak resident memory so far, in bytes (the benchmark reports it). */
      readonly peakRss?: number;
    }
  | { readonly retiring: true; readonly peakRss?: number }
  /** The last message: the process ends once it is written. */
  | { readonly bye: true; readonly peakRss?: undefined };

/**
 * The child module beside this one: validator-child.ts run through tsx when this module is the
 * TypeScript source (tests, the in-repo `conformance`), validator-child.js when it is compiled (dist/).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const CHILD = fileURLToPath(new URL(FROM_SOURCE ? './validator-child.ts' : './validator-child.js', import.meta.url));
/** The child ends itself after this long without a document. */
export const CHILD_IDLE_MS = 60_000;

/** One validator process and the documents it was given (at most one at a time). */
interface Handle {
  readonly proc: ChildProcess;
  readonly pending: Map<number, (o: LibxmlOutcome) => void>;
  /** The setup of the last document sent (a replacement builds the same validator before its first document). */
  setup?: ValidatorSetup;
}

let current: Handle | undefined;
let nextId = 1;
/** Documents wait here for their turn: one at a time, so the child holds one document's DOM. */
let queue: Promise<unknown> = Promise.resolve();

function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** When a validator process retires (see validator-child.ts). */
export interface Retirement {
  /** Resident bytes past which it retires once idle. */
  readonly rss: number;
  /** Resident bytes per character of the last document past which (and past `rss`) it retires at once. */
  readonly perChar: number;
  /** Milliseconds without a document after which a process past `rss` retires. */
  readonly idleMs: number;
}

export const DEFAULT_RETIREMENT: Retirement = { rss: 192 * 1024 * 1024, perChar: 32, idleMs: 1_000 };

/** Retirement of the processes started from now on, when not the default (tests). */
let retirement: Partial<Retirement> | undefined;
let started = 0;

/**
 * Set when new validator processes retire (tests: `{ rss: 1, perChar: 0 }` makes every document retire its process).
 */
export function setValidatorRetirement(r: Partial<Retirement> | undefined): void {
  retirement = r;
}

/** How many validator processes this process has started. */
export function validatorProcessesStarted(): number {
  return started;
}

function start(): Handle {
  started++;
  const proc = fork(CHILD, [String(CHILD_IDLE_MS), ...(retirement ? [JSON.stringify(retirement)] : [])], {
    execArgv: FROM_SOURCE ? ['--import', tsxLoader()] : [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const h: Handle = { proc, pending: new Map() };
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-2000);
  });
  proc.on('message', (m: ChildResponse) => {
    if (m.peakRss !== undefined) peakRss = Math.max(peakRss, m.peakRss);
    if ('retiring' in m) {
      retire(h);
      return;
    }
    if ('bye' in m) return;
    const done = h.pending.get(m.id);
    if (!done) return;
    h.pending.delete(m.id);
    done(
      m.outcome ?? {
        notParsed: `the validator process failed on this document: ${m.error ?? 'no outcome'}`,
        xsdErrors: [],
      },
    );
    idle(h);
  });
  proc.on('exit', (code, signal) => {
    if (current === h) current = undefined;
    const last = stderr.trim().split('\n').pop();
    for (const done of h.pending.values()) {
      done({
        notParsed:
          `the validator process ended (${signal ?? `exit code ${code}`}) while reading this `
          + `document${last ? `: ${last}` : ''}`,
        xsdErrors: [],
      });
    }
    h.pending.clear();
  });
  proc.on('error', () => {
    /* reported through 'exit' */
  });
  idle(h);
  return h;
}

/**
 * `h` takes no more documents: it is told so (it ends once it has read those already sent), and a
 * new process is started now and builds its validator while this one finishes, so that the next
 * large document does not wait for a process to start (about 130 ms on 2 cores, most of a 10 MB
 * document's libxml2 time). The new one is a process like any: unreferenced, and gone after a
 * minute without documents.
 */
function retire(h: Handle): void {
  if (h.proc.connected) h.proc.send({ bye: true } satisfies ChildRequest, () => undefined);
  if (current !== h) return;
  current = start();
  if (h.setup) current.proc.send({ warm: h.setup } satisfies ChildRequest, () => undefined);
}

/** The child keeps this process alive only while a document is being read. */
function idle(h: Handle): void {
  const stderr = h.proc.stderr as (NodeJS.ReadableStream & { ref?: () => void; unref?: () => void }) | null;
  if (h.pending.size > 0) {
    h.proc.ref();
    h.proc.channel?.ref();
    stderr?.ref?.();
  } else {
    h.proc.unref();
    h.proc.channel?.unref();
    stderr?.unref?.();
  }
}

function kill(h: Handle): void {
  if (current === h) current = undefined;
  h.proc.kill('SIGKILL');
}

/**
 * libxml2's outcome for one document, read in the validator process; when it takes longer than
 * `budgetMs` or `signal` aborts first, the process is killed and the outcome says why (notParsed).
 */
export function validateInProcessOfItsOwn(
  setup: ValidatorSetup,
  xml: string,
  opts: { budgetMs: number; signal?: AbortSignal; handedOver?: () => void; utf8?: Uint8Array },
): Promise<LibxmlOutcome> {
  const turn = queue.then(() => once(setup, xml, opts));
  queue = turn.catch(() => undefined);
  return turn;
}

const seconds = (ms: number) => (ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`);

function once(
  setup: ValidatorSetup,
  xml: string,
  opts: { budgetMs: number; signal?: AbortSignal; handedOver?: () => void; utf8?: Uint8Array },
): Promise<LibxmlOutcome> {
  if (opts.signal?.aborted) return Promise.resolve({ notParsed: stopped(opts.signal), xsdErrors: [] });
  return new Promise((resolve) => {
    const h = (current ??= start());
    h.setup = setup;
    const id = nextId++;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const finish = (o: LibxmlOutcome) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(o);
    };
    const giveUp = (why: string) => {
      if (!h.pending.delete(id)) return;
      kill(h);
      finish({ notParsed: why, xsdErrors: [] });
    };
    const onAbort = () => giveUp(stopped(opts.signal!));
    h.pending.set(id, finish);
    idle(h);
    // The size in bytes is counted only for this message (a pass over the whole text otherwise).
    timer = setTimeout(
      () =>
        giveUp(
          `libxml2 took longer than ${seconds(opts.budgetMs)} on a document `
            + `of ${Buffer.byteLength(xml).toLocaleString('en-US')} bytes: `
            + `stopped after ${seconds(performance.now() - started)}; the document was not checked`,
        ),
      opts.budgetMs,
    );
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // The callback runs once the message is written whole to the channel: the child has all it needs.
    const doc = opts.utf8 ? { utf8: opts.utf8 } : { xml };
    h.proc.send({ id, setup, ...doc } satisfies ChildRequest, (err) => {
      if (!err) opts.handedOver?.();
    });
  });
}

function stopped(signal: AbortSignal): string {
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
  return `libxml2 was stopped before it finished reading the document: ${why}`;
}

let peakRss = 0;

/** The highest peak resident memory a validator process reported, in bytes (the benchmark's figure). */
export function validatorPeakRss(): number {
  return peakRss;
}

/** End the validator process now (tests; a session that is done). */
export function stopValidatorProcess(): void {
  if (current) kill(current);
}
