/**
 * The harness's HTTP client (undici): a keep-alive pool, a per-request timeout covering the whole
 * exchange (headers and a trickling body), an overall deadline for the run, a response-size cap
 * enforced while reading (the body is aborted, never buffered past the cap), no redirects, bounded
 * concurrency and request rate, retries only where the caller says it is safe.
 *
 * The per-exchange timeout measures the target, not this process: time the event loop spent
 * blocked (checking a large document) while an exchange was in flight is not counted against it,
 * and a timer that fires gives the poll phase a turn first, so a response that arrived while the
 * loop was busy is read before the exchange is declared timed out. The deadline is wall-clock time.
 */
import { SizeCapError } from '../core/errors.js';
import { request, type Dispatcher } from 'undici';
import type { Exchange, HttpRequest, NetworkOptions, RetriedAnswer } from '../core/types.js';
import { createDispatcher, proxyFailure, tlsFailure, withExtraHeaders } from './network.js';
import { retryDelay, transientOf } from './transient.js';
import { originOf, PROBATION_CONCURRENCY, TargetWatch, type Judgement } from './watch.js';

export interface TransportOptions {
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Milliseconds one exchange may take, first byte sent to last byte read. */
  readonly timeoutMs: number;
  /** Largest response body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** Requests per second at most (undefined: unbounded). */
  readonly maxRps?: number;
  /** Epoch milliseconds after which no request starts and running ones are aborted. */
  readonly deadline?: number;
  /** Accept self-signed or otherwise unverifiable TLS certificates (explicit opt-in). */
  readonly insecureTls?: boolean;
  /** Use this dispatcher instead of the pool (tests: undici MockAgent). */
  readonly dispatcher?: Dispatcher;
  /**
   * Consecutive time-outs or connection failures from one host after which nothing more is sent to
   * it (0: never give up). A target that stops answering would otherwise hold the run for
   * exchanges × timeout ÷ concurrency.
   */
  readonly giveUpAfter?: number;
  /**
   * Bytes of response bodies the exchanges in flight may hold at once, from the first byte read
   * until their consumer is done with them (`release`): a body over LARGE_BODY is read only while
   * the budget allows it, so large answers queue at the transport instead of stacking up in memory
   * while the checks take them one at a time. One body larger than the budget is read when no other
   * holds any. Default: max(2 × maxBodyBytes, 64 MiB).
   */
  readonly bodyBudgetBytes?: number;
  /** Proxies, TLS files and extra headers (./network.ts); `insecureTls` above still turns verification off. */
  readonly network?: NetworkOptions;
  /**
   * Judge the target as the answers come (./watch.ts): a refusal that will not heal (a proxy's 407, a
   * TLS refusal, a name that does not resolve, a gateway's 401 page) or `giveUpAfter` transient
   * answers in a row before any answer of the target's own stop the transport at once (`judgement`
   * says why); until the target has answered once, at most PROBATION_CONCURRENCY exchanges are in
   * flight. What reaches a target for a command (a run, a recording) turns it on; off by default.
   * Given the target's base URLs, a refusal of one of them (a request's part is the longest base its
   * URL starts with) while others are not judged gives up on that one only (`judgements`; one down is
   * left to --max-transient); the transport stops once every one is judged.
   */
  readonly judgeTarget?: boolean | readonly string[];
}

/** Bodies up to this size are read without asking the budget (most answers: no waiting, no bookkeeping). */
export const LARGE_BODY = 256 * 1024;

/** The body budget of a transport's options (see TransportOptions.bodyBudgetBytes). */
export function bodyBudgetOf(opts: Pick<TransportOptions, 'maxBodyBytes' | 'bodyBudgetBytes'>): number {
  return opts.bodyBudgetBytes ?? Math.max(2 * opts.maxBodyBytes, 64 * 1024 * 1024);
}

/**
 * Bytes held by the bodies in flight: granted first come, first served, whole (a body asks once, for
 * its declared length or, when it has none, for the cap), so no two bodies can each hold a part while
 * waiting for the rest of the other's. Bytes charged besides bodies (findings) count toward the
 * budget, but a body larger than what is left is still read when no other body is held: the charges
 * are given back only when their unit is done, which may need that body.
 */
class BodyBudget {
  #used = 0;
  #peak = 0;
  /** Bodies holding a share now. */
  #bodies = 0;
  readonly #queue: { need: number; grant: () => void }[] = [];
  constructor(readonly capacity: number) {}

  /** Wait until `need` bytes fit (or nothing else is held), then hold them. */
  acquire(need: number, signal: AbortSignal): Promise<void> {
    if (this.#queue.length === 0 && this.#fits(need)) {
      this.#take(need);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = { need, grant: () => { signal.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = () => {
        const i = this.#queue.indexOf(entry);
        if (i >= 0) this.#queue.splice(i, 1);
        this.#pump();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(entry);
    });
  }

  /** Hold `n` bytes already in memory (no wait: they are there), so that bodies asked for after them wait. */
  charge(n: number): void {
    if (n > 0) this.#add(n);
  }

  /** Give back `n` bytes: a body's share (`body`), or a charge. */
  release(n: number, body: boolean): void {
    if (body) this.#bodies = Math.max(0, this.#bodies - 1);
    if (n > 0) this.#used = Math.max(0, this.#used - n);
    this.#pump();
  }

  /** The most bytes held at once so far. */
  get peak(): number {
    return this.#peak;
  }

  #fits(need: number): boolean {
    return this.#bodies === 0 || this.#used + need <= this.capacity;
  }

  #take(need: number): void {
    this.#bodies++;
    this.#add(need);
  }

  #add(n: number): void {
    this.#used += n;
    this.#peak = Math.max(this.#peak, this.#used);
  }

  #pump(): void {
    while (this.#queue.length > 0 && this.#fits(this.#queue[0]!.need)) {
      const next = this.#queue.shift()!;
      this.#take(next.need);
      next.grant();
    }
  }
}

export const DEFAULT_TRANSPORT: TransportOptions = { concurrency: 8, timeoutMs: 10_000, maxBodyBytes: 32 * 1024 * 1024, giveUpAfter: 5 };

/** Stable codes of transport failures, as they appear in findings. */
export type TransportErrorCode =
  | 'connection_refused' | 'unknown_host' | 'tls_error' | 'timeout' | 'deadline_exceeded'
  | 'connection_reset' | 'response_too_large' | 'invalid_response' | 'transport_error'
  /** Not sent: the run was stopped (an interrupt), or the host stopped answering earlier in the run. */
  | 'not_sent';

/**
 * Failures that say the host does not answer at all (a response of any kind says it does). Not a
 * reset: the host took the connection, and a gateway's noise (issue 32) must not look like a host
 * gone; a reset costs no time-out either.
 */
const SILENT: ReadonlySet<string> = new Set(['connection_refused', 'unknown_host', 'tls_error', 'timeout']);

/** Why the transport aborted an exchange (the abort signal's reason). */
class Stop extends Error {
  constructor(readonly why: 'timeout' | 'deadline' | 'stopped', readonly detail = '') {
    super(why);
  }
}

/**
 * How long the event loop has been blocked, summed: a timer every 25 ms notes how late it fires.
 * Runs only while exchanges are in flight, and never keeps the process alive.
 */
class LoopLag {
  static readonly INTERVAL = 25;
  /** Lateness below this is timer jitter, not a blocked loop. */
  static readonly SLACK = 15;
  #blocked = 0;
  #last = 0;
  #timer: NodeJS.Timeout | undefined;
  #users = 0;

  acquire(): void {
    if (this.#users++ > 0) return;
    this.#last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const late = now - this.#last - LoopLag.INTERVAL;
      if (late > LoopLag.SLACK) this.#blocked += late;
      this.#last = now;
    }, LoopLag.INTERVAL);
    this.#timer.unref();
  }

  release(): void {
    if (--this.#users > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Milliseconds blocked so far, a block still going on (this very call runs late) included. */
  blocked(): number {
    const late = performance.now() - this.#last - LoopLag.INTERVAL;
    return this.#blocked + (late > LoopLag.SLACK ? late : 0);
  }
}

const lag = new LoopLag();

/**
 * Abort `controller` after `budget` ms of the exchange's own time (time the event loop was blocked
 * not counted), and at the deadline (wall clock). Returns the function that disarms both.
 */
function armTimers(controller: AbortController, budget: number, deadline: number | undefined, excused: () => number = () => 0): () => void {
  const started = performance.now();
  lag.acquire();
  const blocked0 = lag.blocked();
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const arm = (ms: number) => { timer = setTimeout(fire, Math.max(1, Math.ceil(ms))); };
  // Fire after the poll phase of this loop turn: what arrived while the loop was busy is read first.
  const fire = () => {
    immediate = setImmediate(() => {
      const spent = performance.now() - started - (lag.blocked() - blocked0) - excused();
      if (spent >= budget) controller.abort(new Stop('timeout'));
      else arm(budget - spent);
    });
  };
  arm(budget);
  const wall = deadline === undefined ? undefined : setTimeout(() => controller.abort(new Stop('deadline')), Math.max(1, deadline - Date.now()));
  let done = false;
  return () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(wall);
    if (immediate) clearImmediate(immediate);
    lag.release();
  };
}

export class Transport {
  readonly #opts: TransportOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  /** When the last request was let go (performance.now()), and the queue of requests waiting for their turn. */
  #lastStart = -Infinity;
  #pacing: Promise<void> = Promise.resolve();
  /** Requests still to go together (burst): past the rate bound's turns, and one connection past the concurrency bound. */
  #burst = 0;
  /** Why nothing more is sent (stop()), and the exchanges in flight, to abort then. */
  #stopped: string | undefined;
  readonly #inFlight = new Set<AbortController>();
  /** Per service (or host): consecutive silent failures, and why the transport gave up on it. */
  readonly #silent = new Map<string, number>();
  readonly #gaveUp = new Map<string, string>();
  readonly #budget: BodyBudget;
  /** Bytes of the budget each exchange handed out still holds (until `release`). */
  readonly #held = new WeakMap<Exchange, number>();
  /** When each exchange answered was sent and its answer read whole, by this process's clock (`timing`). */
  readonly #times = new WeakMap<Exchange, { readonly sentAt: number; readonly doneAt: number }>();
  /** Headers added to every request (--header), beneath the binding's own (the settings refuse those names). */
  readonly #extraHeaders: Record<string, string> | undefined;
  /** The target's judge (judgeTarget), what it concluded, and the failed exchanges whose response headers had come. */
  readonly #watch: TargetWatch | undefined;
  #judgement: Judgement | undefined;
  /** Per part of the target judged (#partOf), its judgement; and the target's base URLs, longest first (judgeTarget's URLs). */
  readonly #judged = new Map<string, Judgement>();
  readonly #bases: readonly string[] | undefined;
  readonly #afterHeaders = new WeakSet<Exchange>();

  constructor(opts: Partial<TransportOptions> = {}) {
    this.#opts = { ...DEFAULT_TRANSPORT, ...opts };
    this.#budget = new BodyBudget(bodyBudgetOf(this.#opts));
    this.#ownsDispatcher = !opts.dispatcher;
    this.#dispatcher = opts.dispatcher ?? createDispatcher({ ...this.#opts.network, ...(this.#opts.insecureTls ? { insecureTls: true } : {}) }, {
      // One connection more than --concurrency, for a burst's last call (a race: ./client.ts burst).
      connections: this.#opts.concurrency + 1,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      // Name lookup, TCP and TLS handshake are bounded by the exchange's own timer (armTimers); this
      // is only a backstop, long enough that a blocked event loop cannot make it fire first.
      connect: { timeout: this.#opts.timeoutMs + 60_000 },
    });
    const extra = this.#opts.network?.headers ?? [];
    this.#extraHeaders = extra.length ? Object.fromEntries(extra.map((h) => [h.name, h.value])) : undefined;
    this.#watch = this.#opts.judgeTarget ? new TargetWatch(this.#opts.network, this.#opts.giveUpAfter ?? 0) : undefined;
    const urls = Array.isArray(this.#opts.judgeTarget) ? this.#opts.judgeTarget as readonly string[] : [];
    this.#bases = urls.length ? [...new Set(urls.map((u) => u.replace(/\/+$/, '')))].sort((a, b) => b.length - a.length) : undefined;
  }

  /** The part of the target a URL is sent to: the longest of its base URLs the URL starts with, else the URL's origin. */
  #partOf(url: string): string {
    return this.#bases?.find((b) => url === b || url.startsWith(`${b}/`) || url.startsWith(`${b}?`)) ?? originOf(url);
  }

  /** Every origin the watch judged (given up on, or the transport stopped), in the order judged. */
  get judgements(): readonly Judgement[] {
    return [...this.#judged.values()];
  }

  /** Why the watch stopped the transport (judgeTarget), if it did: a refusal of the whole target, or an outage. */
  /** What the latest refusal points to before it came as often as its rule asks (TargetWatch.pending): for commands that send a few requests only. */
  get pendingJudgement(): Judgement | undefined {
    return this.#watch?.pending;
  }

  get judgement(): Judgement | undefined {
    return this.#judgement;
  }

  /** Whether the target gave an answer of its own (judgeTarget: the watch's probation is over). */
  get answered(): boolean {
    return this.#watch !== undefined && !this.#watch.onProbation;
  }

  /** Show the watch one attempt; a judgement stops everything at once (in flight: aborted, `not_sent`). */
  #judge(req: HttpRequest, ex: Exchange): void {
    if (!this.#watch || this.#judgement || ex.error?.code === 'not_sent' || ex.error?.code === 'deadline_exceeded') return;
    const wasOnProbation = this.#watch.onProbation;
    const part = this.#partOf(req.url);
    const j = this.#watch.attempt(req.url, ex, this.#afterHeaders.has(ex), part);
    if (j && !this.#judged.has(part)) this.#judged.set(part, j);
    // A part judged while others of the target are not: a refused one is given up on (#notSent); one
    // down is left to the retries and --max-transient (one broken service of three is the run's finding).
    if (j && this.#bases && this.#bases.some((b) => !this.#judged.has(b))) return;
    if (j) {
      this.#judgement = j;
      this.stop(j.kind === 'refused' ? `the target refused the run (${j.code})` : `the target is down (${j.inRow} transient answers in a row before any answer of its own)`);
    } else if (wasOnProbation && !this.#watch.onProbation) {
      // Probation is over: the requests waiting for a slot may have one now.
      for (const w of this.#waiting.splice(0)) w();
    }
  }

  get options(): TransportOptions {
    return this.#opts;
  }

  /** Send nothing more, and abort what is in flight (an interrupt): those exchanges come back `not_sent`. */
  stop(why: string): void {
    this.#stopped ??= why;
    for (const c of this.#inFlight) c.abort(new Stop('stopped', why));
  }

  /** Give up on a service (or host) from the start (a preflight found it unreachable). */
  giveUp(host: string, why: string): void {
    if (!this.#gaveUp.has(host)) this.#gaveUp.set(host, why);
  }

  /**
   * Give back the body budget an exchange holds (sent with `hold`): its consumer is done with the
   * body. Idempotent; nothing for an exchange that holds none. Returns the bytes given back.
   */
  release(ex: Exchange): number {
    const n = this.#held.get(ex);
    if (n === undefined) return 0;
    this.#held.delete(ex);
    this.#budget.release(n, true);
    return n;
  }

  /**
   * Count `bytes` a consumer holds besides a body (an answer's findings, issue 35) in the body budget
   * until the function returned is called (idempotent): large bodies asked for meanwhile wait for them.
   */
  charge(bytes: number): () => void {
    if (bytes <= 0) return () => {};
    this.#budget.charge(bytes);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#budget.release(bytes, false);
    };
  }

  /**
   * When an answered exchange was sent (handed to the connection) and its answer read whole
   * (`performance.now()`), as seen here, before any caller's work on it: whether calls overlapped
   * is judged on these (a race, src/sequences), not on when each caller got to its answer, which the
   * work on the answers before it delays.
   */
  timing(ex: Exchange): { readonly sentAt: number; readonly doneAt: number } | undefined {
    return this.#times.get(ex);
  }

  /** The body budget's capacity and the most it held at once (the bench prints them). */
  get bodyBudget(): { readonly capacity: number; readonly peak: number } {
    return { capacity: this.#budget.capacity, peak: this.#budget.peak };
  }

  /**
   * Let the next `n` requests go together (a race of src/sequences/: calls that must be in flight at
   * once): without waiting for the rate bound's turns (the turns they take are counted after them, so
   * the average stays within --max-rps) and past the concurrency bound, on at most one connection
   * more than --concurrency (the dispatcher's). The caller sends them in the same tick.
   */
  burst(n: number): void {
    this.#burst = Math.min(n, this.#opts.concurrency + 1);
  }

  /** The hosts given up on, with why. */
  get hostsGivenUp(): ReadonlyMap<string, string> {
    return this.#gaveUp;
  }

  /** Count a host's silent failures in a row; a response of any kind resets them. */
  #note(host: string, ex: Exchange): void {
    const limit = this.#opts.giveUpAfter ?? 0;
    if (!ex.error || !SILENT.has(ex.error.code)) {
      if (ex.error?.code !== 'not_sent' && ex.error?.code !== 'deadline_exceeded') this.#silent.delete(host);
      return;
    }
    const n = (this.#silent.get(host) ?? 0) + 1;
    this.#silent.set(host, n);
    if (limit > 0 && n >= limit) this.giveUp(host, `${host} stopped answering after ${n} time-outs or connection failures in a row (last: ${ex.error.code})`);
  }

  /**
   * A slot among the requests in flight and, with a rate bound, this request's turn. Returns the
   * function to call right before the request goes: its time is the one the next turn counts from.
   */
  async #acquire(): Promise<() => void> {
    if (this.#burst > 0) {
      this.#burst--;
      this.#active++;
      // It goes now; the turn it took is counted after it, so the average stays within --max-rps.
      const gap = this.#opts.maxRps ? 1000 / this.#opts.maxRps : 0;
      return () => { this.#lastStart = Math.max(this.#lastStart + gap, performance.now()); };
    }
    // Woken, a request may find its slot taken again (one came meanwhile): it waits again, first in the queue.
    for (let first = true; this.#active >= this.#limit(); first = false) await new Promise<void>((r) => (first ? this.#waiting.push(r) : this.#waiting.unshift(r)));
    this.#active++;
    return this.#opts.maxRps ? this.#pace(1000 / this.#opts.maxRps) : () => {};
  }

  /**
   * Let requests go one at a time, each at least `gap` ms after the previous one actually went.
   * Times are taken when a request goes (the returned function), not planned ahead, and the next
   * turn starts only then: timers that fire late (the event loop busy with checks) must not release
   * a burst of requests at once.
   */
  #pace(gap: number): Promise<() => void> {
    let went!: () => void;
    const gone = new Promise<void>((r) => { went = r; });
    const turn = this.#pacing.then(async () => {
      for (let wait = this.#lastStart + gap - performance.now(); wait > 0; wait = this.#lastStart + gap - performance.now()) {
        await new Promise((r) => setTimeout(r, Math.ceil(wait)));
      }
    });
    this.#pacing = turn.then(() => gone);
    return turn.then(() => () => {
      this.#lastStart = performance.now();
      went();
    });
  }

  /** Requests in flight at most now: --concurrency, or fewer while the watch has the target on probation. */
  #limit(): number {
    return this.#watch?.onProbation ? Math.min(PROBATION_CONCURRENCY, this.#opts.concurrency) : this.#opts.concurrency;
  }

  #release(): void {
    this.#active--;
    this.#waiting.shift()?.();
  }

  /**
   * Send one request and record the exchange. Never throws for target failures: they come back as
   * `exchange.error`. `retries` (read-only operations only: a write is never re-sent) repeats on a
   * transient answer (./transient.ts: a gateway page, a reset, a timeout) or a refused connection,
   * after a jittered exponential backoff or what Retry-After asks (capped), never past the deadline;
   * the answer returned lists the transient ones it replaced (`retried`). `service` is what giving
   * up is counted by (the host, unless the caller names the service: two services on one host may fail apart).
   */
  async send(req: HttpRequest, retries = 0, service: string = hostOf(req.url), hold = false): Promise<Exchange> {
    const host = service;
    let last: Exchange | undefined;
    const retried: RetriedAnswer[] = [];
    const withRetried = (ex: Exchange): Exchange => (retried.length ? { ...ex, retried: [...retried] } : ex);
    for (let attempt = 0; ; attempt++) {
      const ex = await this.#exchange(req, host);
      this.#judge(req, ex);
      // A retry that is not sent (the service was given up on meanwhile) leaves the failure it retried.
      if (last && ex.error?.code === 'not_sent') {
        if (!hold) this.release(ex);
        retried.pop();
        return withRetried(last);
      }
      const kind = transientOf(ex) ?? (ex.error?.code === 'connection_refused' ? 'connection_refused' : undefined);
      // Not once the transport is stopped (an interrupt, the watch's judgement): the retry would not be sent.
      const wait = kind && attempt < retries && this.#stopped === undefined ? retryDelay(ex, attempt, this.#opts.deadline) : undefined;
      if (wait === undefined) {
        // The body's share of the budget stays with the exchange only when the caller releases it.
        const out = withRetried(ex);
        this.#passOn(ex, out);
        if (!hold) this.release(out);
        // One exchange, however many attempts: what giving up on a host counts.
        this.#note(host, out);
        return out;
      }
      this.release(ex);
      // Each timed-out attempt counts toward giving up: a host that stopped answering costs a few time-outs, not
      // retries × them. A reset does not: a gateway's noise must not look like a host gone (the exchange's outcome counts).
      if (ex.error?.code === 'timeout') this.#note(host, ex);
      retried.push({ kind: kind!, ...(ex.response ? { status: ex.response.status } : {}), waitedMs: wait });
      last = ex;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** What is kept of an exchange passes on to the copy of it returned: its times and its share of the body budget. */
  #passOn(from: Exchange, to: Exchange): void {
    if (from === to) return;
    const times = this.#times.get(from);
    if (times) this.#times.set(to, times);
    const n = this.#held.get(from);
    if (n === undefined) return;
    this.#held.delete(from);
    this.#held.set(to, n);
  }

  /** Why a request to `host` (for `url`) is not sent now, if it is not. */
  #notSent(host: string, url: string): string | undefined {
    const judged = this.#judged.size ? this.#judged.get(this.#partOf(url)) : undefined;
    const refused = judged?.kind === 'refused' ? judged : undefined;
    return this.#stopped ?? this.#gaveUp.get(host) ?? (refused ? `${refused.origin} refused the run (${refused.code})` : undefined);
  }

  async #exchange(req: HttpRequest, host: string): Promise<Exchange> {
    const deadline = this.#opts.deadline;
    if (deadline !== undefined && Date.now() >= deadline) {
      return { request: req, error: { code: 'deadline_exceeded', message: 'the run\'s overall deadline passed before this request was sent' } };
    }
    const before = this.#notSent(host, req.url);
    if (before) return { request: req, error: { code: 'not_sent', message: `not sent: ${before}` } };
    const go = await this.#acquire();
    const waited = this.#notSent(host, req.url);
    if (waited) {
      // Its turn passes on (a rate bound's queue waits for it), and its slot too.
      go();
      this.#release();
      return { request: req, error: { code: 'not_sent', message: `not sent: ${waited}` } };
    }
    const started = performance.now();
    const budget = this.#opts.timeoutMs;
    const controller = new AbortController();
    const { signal } = controller;
    this.#inFlight.add(controller);
    // Time spent waiting for the body budget is this process's, not the target's: not counted.
    let budgetWait = 0;
    let waitingSince: number | undefined;
    const disarm = armTimers(controller, budget, deadline, () => budgetWait + (waitingSince === undefined ? 0 : performance.now() - waitingSince));
    let held = 0;
    const hold = async (need: number) => {
      waitingSince = performance.now();
      try {
        await this.#budget.acquire(need, signal);
      } finally {
        budgetWait += performance.now() - waitingSince;
        waitingSince = undefined;
      }
      held = need;
    };
    let answered = false;
    try {
      go();
      const res = await abortable(request(req.url, {
        method: req.method,
        headers: this.#extraHeaders ? withExtraHeaders(this.#extraHeaders, req.headers) : req.headers,
        body: req.body,
        dispatcher: this.#dispatcher,
        signal,
        // undici's own timers would fire after a blocked event loop without counting it: the
        // exchange's timer (armTimers) covers headers and body instead.
        headersTimeout: 0,
        bodyTimeout: 0,
      }), signal);
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        // A declared length over the cap: refused before reading a byte.
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > this.#opts.maxBodyBytes) throw new SizeCapError();
        // A large body is read only within the budget: its declared length, else (once it grows
        // past LARGE_BODY) the cap, given back down to its size once read.
        if (declared > LARGE_BODY) await hold(declared);
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > this.#opts.maxBodyBytes) throw new SizeCapError();
          if (size > LARGE_BODY && held < size) {
            if (held > 0) this.#budget.release(held, true);
            held = 0;
            await hold(Math.max(size, this.#opts.maxBodyBytes));
          }
          chunks.push(chunk as Buffer);
        }
        if (held > size) {
          this.#budget.release(held - size, false);
          held = size;
        }
      } catch (e) {
        res.body.destroy();
        throw e;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      chunks.length = 0;
      const ex: Exchange = {
        request: req,
        response: { status: res.statusCode, headers, body, elapsedMs: performance.now() - started - budgetWait },
      };
      if (held > 0) this.#held.set(ex, held);
      held = 0;
      this.#times.set(ex, { sentAt: started, doneAt: performance.now() });
      return ex;
    } catch (e) {
      if (held > 0) this.#budget.release(held, true);
      held = 0;
      const stop = signal.aborted && signal.reason instanceof Stop ? signal.reason : undefined;
      if (stop?.why === 'stopped') return { request: req, error: { code: 'not_sent', message: `not completed: ${stop.detail}` } };
      const failed: Exchange = { request: req, error: classify(e, this.#opts, stop?.why, performance.now() - started) };
      if (answered) this.#afterHeaders.add(failed);
      return failed;
    } finally {
      this.#inFlight.delete(controller);
      disarm();
      this.#release();
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

/**
 * undici applies an abort signal only once the request has a connection: a name lookup or connect
 * that hangs would outlive the exchange's budget. Give up when the signal fires; a response that
 * still arrives later is discarded.
 */
function abortable(p: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  const discard = () => { p.then((r) => r.body.destroy(), () => {}); };
  if (signal.aborted) {
    discard();
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => { discard(); reject(signal.reason); };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (r) => { signal.removeEventListener('abort', onAbort); resolve(r); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

/** The host (and port) a request goes to: what giving up is counted by. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function classify(e: unknown, opts: TransportOptions, stop: 'timeout' | 'deadline' | undefined, elapsed: number): { code: TransportErrorCode; message: string } {
  if (e instanceof SizeCapError) {
    return { code: 'response_too_large', message: `response body larger than ${opts.maxBodyBytes} bytes: reading aborted` };
  }
  if (stop === 'deadline') return { code: 'deadline_exceeded', message: `the run's overall deadline passed after ${Math.round(elapsed)} ms of this exchange` };
  if (stop === 'timeout') return { code: 'timeout', message: `no complete response within ${opts.timeoutMs} ms` };
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  const msg = err.message ?? String(e);
  // undici's refusal by a proxy is a RequestAbortedError (an AbortError): not a time-out.
  const proxy = proxyFailure(msg);
  if (proxy) return { code: 'transport_error', message: proxy };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_ABORTED'
    || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code: 'timeout', message: `no complete response within ${opts.timeoutMs} ms` };
  }
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message: `connection refused: ${msg}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'unknown_host', message: `unknown host: ${msg}` };
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code) || /certificate|ssl|tls/i.test(msg)) {
    return { code: 'tls_error', message: `TLS failure: ${tlsFailure(code, msg, opts.network) ?? msg}` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return { code: 'connection_reset', message: `connection closed before the response was complete: ${msg}` };
  }
  // undici asserts on a status below 100 (its parser lets "099" through): say what the target sent, not undici's internals.
  if (code === 'ERR_ASSERTION' && /statusCode >= 100/.test(msg)) {
    return { code: 'invalid_response', message: 'invalid HTTP status line: a status code below 100 (HTTP/1.1 status codes are 100 to 599)' };
  }
  if (code.startsWith('HPE_') || err.name === 'HTTPParserError') {
    const detail = /\(([^)]*)\)\s*$/.exec(msg)?.[1];
    return { code: 'invalid_response', message: `the response is not valid HTTP/1.1${detail ? `: ${detail.toLowerCase()}` : ''}` };
  }
  return { code: 'transport_error', message: `${code ? code + ': ' : ''}${msg.split('\n')[0]!.slice(0, 300)}` };
}
