/**
 * The mock's transient-fault mode: what a staging service behind a gateway does now and then,
 * seeded so a run can be repeated. A share of the requests meets, BEFORE any processing, a 503 or
 * 502 HTML page of a gateway, a connection closed without an answer, or a pause (then the normal
 * answer). Apart from that, a share of the state-changing calls is processed and then loses its
 * answer (the connection dropped after the change was applied): the ambiguous write.
 * None of this is a contract fault: a conforming harness must pass such a mock.
 */

/** The transient-fault mode's settings. */
export interface TransientMode {
  /** Share (0..1) of requests met by a transient fault before processing. */
  readonly rate: number;
  /** Seed of the faults' draw (default 1). */
  readonly seed?: number;
  /** Shortest and longest pause, in milliseconds (default 1000 to 3000). */
  readonly pauseMs?: readonly [number, number];
  /** Share (0..1) of state-changing calls processed, then dropped without an answer (default 0). */
  readonly dropWrites?: number;
}

/** What a request meets before processing. */
export type TransientFault = 'gateway_503' | 'gateway_502' | 'drop' | 'pause';

/** The gateway page of a status, as nginx writes it. */
export function gatewayPage(status: 502 | 503): Buffer {
  const title = status === 503 ? '503 Service Temporarily Unavailable' : '502 Bad Gateway';
  return Buffer.from(
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  );
}

/** The operations that change state: the ones whose answer the drop-writes mode loses after applying them. */
const WRITES = /(?:^|[/"<:#\s])(AmendmentRequest|CancelBooking|CancelTransferBooking|UpdateSpecialRequest)\b/;

/** Whether a request calls a state-changing operation: its path (HTTP GET/POST), SOAPAction or body element (SOAP). */
export function isWriteRequest(
  path: string,
  soapAction: string | undefined,
  contentType: string | undefined,
  body: Buffer,
): boolean {
  if (WRITES.test(path) || (soapAction !== undefined && WRITES.test(soapAction))) return true;
  // SOAP 1.2 carries its action in the content type, and the body names the operation either way.
  if (contentType !== undefined && WRITES.test(contentType)) return true;
  return WRITES.test(body.subarray(0, 4096).toString('latin1'));
}

/** A small seeded generator (mulberry32): the same seed, the same draws. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The faults of one mock: drawn per request, counted. */
export class TransientFaults {
  readonly #mode: TransientMode;
  readonly #random: () => number;
  /** Faults committed so far, by kind (and `dropped_write` for writes processed then dropped). */
  readonly counts: Record<TransientFault | 'dropped_write', number> = {
    gateway_503: 0,
    gateway_502: 0,
    drop: 0,
    pause: 0,
    dropped_write: 0,
  };

  constructor(mode: TransientMode) {
    for (const [name, v] of [
      ['rate', mode.rate],
      ['dropWrites', mode.dropWrites ?? 0],
    ] as const) {
      if (!(v >= 0 && v <= 1)) throw new Error(`transient mode: ${name} must be a share from 0 to 1, got ${v}`);
    }
    this.#mode = mode;
    this.#random = seeded(mode.seed ?? 1);
  }

  /** What the next request meets before processing (undefined: nothing), with the pause's length. */
  before(): { fault: TransientFault; pauseMs: number } | undefined {
    if (this.#random() >= this.#mode.rate) return undefined;
    const r = this.#random();
    const fault: TransientFault = r < 0.3 ? 'gateway_503' : r < 0.5 ? 'gateway_502' : r < 0.8 ? 'drop' : 'pause';
    const [lo, hi] = this.#mode.pauseMs ?? [1000, 3000];
    const pauseMs = fault === 'pause' ? Math.round(lo + this.#random() * (hi - lo)) : 0;
    this.counts[fault]++;
    return { fault, pauseMs };
  }

  /** Whether a state-changing call, now processed, loses its answer. */
  dropAfter(): boolean {
    const rate = this.#mode.dropWrites ?? 0;
    if (rate <= 0 || this.#random() >= rate) return false;
    this.counts.dropped_write++;
    return true;
  }

  /** Whether the drop-writes mode is on (the server then has to tell writes apart). */
  get dropsWrites(): boolean {
    return (this.#mode.dropWrites ?? 0) > 0;
  }
}
