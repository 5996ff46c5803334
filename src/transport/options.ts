/**
 * What a transport is asked to be (the options of transport/client.ts Transport), its defaults, and
 * the codes of the failures it reports: its own file so the parts of the transport read them without
 * importing the client.
 */
import type { Dispatcher } from 'undici';
import type { NetworkOptions } from '../core/types.js';

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

export const DEFAULT_TRANSPORT: TransportOptions = {
  concurrency: 8,
  timeoutMs: 10_000,
  maxBodyBytes: 32 * 1024 * 1024,
  giveUpAfter: 5,
};

/** Stable codes of transport failures, as they appear in findings. */
export type TransportErrorCode =
  | 'connection_refused'
  | 'unknown_host'
  | 'tls_error'
  | 'timeout'
  | 'deadline_exceeded'
  | 'connection_reset'
  | 'response_too_large'
  | 'invalid_response'
  | 'transport_error'
  /** Not sent: the run was stopped (an interrupt), or the host stopped answering earlier in the run. */
  | 'not_sent';
