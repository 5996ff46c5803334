/** One exchange with the target as the harness records it: the request sent, the response received, the retries. */

/** One HTTP request as the harness sends it. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** One HTTP response as received (body kept as bytes: the encoding check needs them). */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** Milliseconds from sending to the last body byte. */
  readonly elapsedMs: number;
}

/** A request and what came back, or the transport error that stopped it. */
export interface Exchange {
  readonly request: HttpRequest;
  readonly response?: HttpResponse;
  /** Set when no complete response was received (refused, timeout, size cap, reset...). */
  readonly error?: { readonly code: string; readonly message: string };
  /** Transient answers (src/transport/transient.ts) this one replaced, in the order they came: a read retried. */
  readonly retried?: readonly RetriedAnswer[];
}

/** One transient answer a read was retried after. */
export interface RetriedAnswer {
  /** What it was: a gateway page (gateway_503, ...), connection_reset, timeout, connection_refused. */
  readonly kind: string;
  /** Its HTTP status, when it was an answer. */
  readonly status?: number;
  /** Milliseconds waited before the retry (backoff or Retry-After). */
  readonly waitedMs: number;
}
