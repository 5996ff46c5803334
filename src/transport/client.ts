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
 * Its parts, each in a file: the options and failure codes (options.ts), the body budget
 * (body-budget.ts), the timers and the abort (abort.ts), what a failure was (failure.ts).
 */
import { SizeCapError } from '../core/errors.js';
import { request, type Dispatcher } from './undici.js';
import type { Exchange, HttpRequest, RetriedAnswer } from '../core/types.js';
import { createDispatcher, withExtraHeaders } from './network.js';
import { retryDelay, transientOf } from './transient.js';
import { originOf, PROBATION_CONCURRENCY, TargetWatch, type Judgement } from './watch.js';
import { bodyBudgetOf, DEFAULT_TRANSPORT, LARGE_BODY, type TransportOptions } from './options.js';
import { BodyBudget } from './body-budget.js';
import { abortable, armTimers, Stop } from './abort.js';
import { classify } from './failure.js';

export { DEFAULT_TRANSPORT, type TransportErrorCode, type TransportOptions } from './options.js';

/**
 * Failures that say the host does not answer at all (a response of any kind says it does). Not a
 * reset: the host took the connection, and a gateway's noise (issue 32) must not look like a host
 * gone; a reset costs no time-out either.
 */
const SILENT: ReadonlySet<string> = new Set(['connection_refused', 'unknown_host', 'tls_error', 'timeout']);

export class Transport {
  readonly #opts: TransportOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  /** When the last request was let go (performance.now()), and the queue of requests waiting for their turn. */
  #lastStart = -Infinity;
  #pacing: Promise<void> = Promise.resolve();
  /**
   * Requests still to go together (burst): past the rate bound's turns, and one connection past the concurrency bound.
   */
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
  /**
   * Per part of the target judged (#partOf), its judgement; and the target's base URLs, longest first (judgeTarget's
   * URLs).
   */
  readonly #judged = new Map<string, Judgement>();
  readonly #bases: readonly string[] | undefined;
  readonly #afterHeaders = new WeakSet<Exchange>();

  constructor(opts: Partial<TransportOptions> = {}) {
    this.#opts = { ...DEFAULT_TRANSPORT, ...opts };
    this.#budget = new BodyBudget(bodyBudgetOf(this.#opts));
    this.#ownsDispatcher = !opts.dispatcher;
    this.#dispatcher =
      opts.dispatcher
      ?? createDispatcher(
        { ...this.#opts.network, ...(this.#opts.insecureTls ? { insecureTls: true } : {}) },
        {
          // One connection more than --concurrency, for a burst's last call (a race: ./client.ts burst).
          connections: this.#opts.concurrency + 1,
          pipelining: 1,
          keepAliveTimeout: 10_000,
          // Name lookup, TCP and TLS handshake are bounded by the exchange's own timer (armTimers); this
          // is only a backstop, long enough that a blocked event loop cannot make it fire first.
          connect: { timeout: this.#opts.timeoutMs + 60_000 },
        },
      );
    const extra = this.#opts.network?.headers ?? [];
    this.#extraHeaders = extra.length ? Object.fromEntries(extra.map((h) => [h.name, h.value])) : undefined;
    this.#watch = this.#opts.judgeTarget ? new TargetWatch(this.#opts.network, this.#opts.giveUpAfter ?? 0) : undefined;
    const urls = Array.isArray(this.#opts.judgeTarget) ? (this.#opts.judgeTarget as readonly string[]) : [];
    this.#bases = urls.length
      ? [...new Set(urls.map((u) => u.replace(/\/+$/, '')))].sort((a, b) => b.length - a.length)
      : undefined;
  }

  /**
   * The part of the target a URL is sent to: the longest of its base URLs the URL starts with, else the URL's origin.
   */
  #partOf(url: string): string {
    return this.#bases?.find((b) => url === b || url.startsWith(`${b}/`) || url.startsWith(`${b}?`)) ?? originOf(url);
  }

  /** Every origin the watch judged (given up on, or the transport stopped), in the order judged. */
  get judgements(): readonly Judgement[] {
    return [...this.#judged.values()];
  }

  /** Why the watch stopped the transport (judgeTarget), if it did: a refusal of the whole target, or an outage. */
  /**
   * What the latest refusal points to before it came as often as its rule asks (TargetWatch.pending): for commands that
   * send a few requests only.
   */
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
    if (!this.#watch || this.#judgement || ex.error?.code === 'not_sent' || ex.error?.code === 'deadline_exceeded')
      return;
    const wasOnProbation = this.#watch.onProbation;
    const part = this.#partOf(req.url);
    const j = this.#watch.attempt(req.url, ex, this.#afterHeaders.has(ex), part);
    if (j && !this.#judged.has(part)) this.#judged.set(part, j);
    // A part judged while others of the target are not: a refused one is given up on (#notSent); one
    // down is left to the retries and --max-transient (one broken service of three is the run's finding).
    if (j && this.#bases?.some((b) => !this.#judged.has(b))) return;
    if (j) {
      this.#judgement = j;
      this.stop(
        j.kind === 'refused'
          ? `the target refused the run (${j.code})`
          : `the target is down (${j.inRow} transient answers in a row before any answer of its own)`,
      );
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
    if (limit > 0 && n >= limit)
      this.giveUp(
        host,
        `${host} stopped answering after ${n} time-outs or connection failures in a row (last: ${ex.error.code})`,
      );
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
      return () => {
        this.#lastStart = Math.max(this.#lastStart + gap, performance.now());
      };
    }
    // Woken, a request may find its slot taken again (one came meanwhile): it waits again, first in the queue.
    for (let first = true; this.#active >= this.#limit(); first = false)
      await new Promise<void>((r) => (first ? this.#waiting.push(r) : this.#waiting.unshift(r)));
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
    const gone = new Promise<void>((r) => {
      went = r;
    });
    const turn = this.#pacing.then(async () => {
      for (
        let wait = this.#lastStart + gap - performance.now();
        wait > 0;
        wait = this.#lastStart + gap - performance.now()
      ) {
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
      const wait =
        kind && attempt < retries && this.#stopped === undefined
          ? retryDelay(ex, attempt, this.#opts.deadline)
          : undefined;
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
      // retries × them. A reset does not: a gateway's noise must not look like a host gone (the exchange's outcome
      // counts).
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
    return (
      this.#stopped
      ?? this.#gaveUp.get(host)
      ?? (refused ? `${refused.origin} refused the run (${refused.code})` : undefined)
    );
  }

  async #exchange(req: HttpRequest, host: string): Promise<Exchange> {
    const deadline = this.#opts.deadline;
    if (deadline !== undefined && Date.now() >= deadline) {
      return {
        request: req,
        error: { code: 'deadline_exceeded', message: "the run's overall deadline passed before this request was sent" },
      };
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
    const disarm = armTimers(
      controller,
      budget,
      deadline,
      () => budgetWait + (waitingSince === undefined ? 0 : performance.now() - waitingSince),
    );
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
      const res = await abortable(
        request(req.url, {
          method: req.method,
          headers: this.#extraHeaders ? withExtraHeaders(this.#extraHeaders, req.headers) : req.headers,
          body: req.body,
          dispatcher: this.#dispatcher,
          signal,
          // undici's own timers would fire after a blocked event loop without counting it: the
          // exchange's timer (armTimers) covers headers and body instead.
          headersTimeout: 0,
          bodyTimeout: 0,
        }),
        signal,
      );
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
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
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
      if (stop?.why === 'stopped')
        return { request: req, error: { code: 'not_sent', message: `not completed: ${stop.detail}` } };
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

/** The host (and port) a request goes to: what giving up is counted by. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
