/**
 * Whether the target refuses the run as a whole, judged as the answers come (issue 41): a network
 * that will not let us through does not heal by being asked again, and a target down for every
 * request is an outage to say within seconds, not a thousand exchanges retried to their limit.
 *
 * Every attempt the transport makes (retries included) is shown to the watch, which reads it as
 * one of:
 * - a refusal of the whole target: a proxy's 407 (or its refusal to open a tunnel), a TLS handshake
 *   refused or a certificate not trusted, a name that does not resolve, an https connection closed
 *   right after the handshake without a word (a client certificate missing or refused: the server
 *   of the issue does that) or before TLS began (a network that demands its proxy drops direct
 *   connections), a 401/403 page that is not the service's (the contract answers credentials in
 *   band, never with a page: a gateway in front of it). Each has a count of answers in a row after
 *   which it is judged: one where a single answer says it all (a 407, an untrusted certificate), a
 *   few where one could be chance (a closed connection, a 401 page);
 * - a transient answer (./transient.ts: a gateway page, a reset; not a time-out): before the target has given one
 *   answer of its own, `giveUpAfter` of them in a row (the setting that already says how many silent failures end the
 *   run's patience with a host) are an outage; after it has answered, MID_RUN_FACTOR times as many (a target gone down
 *   during the run). Anything less is the noise --max-transient judges at the end of the run: a burst at the start
 *   shorter than that does not stop a run, and a target with a few percent of noise is never stopped here;
 * - an answer of the target's own (any other response), which ends the watch's probation;
 * - anything else (a refused port, a time-out: the preflight and --give-up-after judge those).
 *
 * A refusal is judged per part of the target (`key`: the transport's, one per base URL of the
 * target, book, search and transfers): where the target's services are apart and only one refuses,
 * the transport gives up on that one (as the preflight gives up on a host that does not answer) and
 * the others are tested; the run stops when every part of the target is judged. A part down while
 * others are not judged is left to --max-transient at the end of the run (one broken service of three
 * is a finding of the run, not an outage of the target).
 *
 * While on probation (no answer of the target's own yet), the transport keeps at most
 * PROBATION_CONCURRENCY exchanges in flight, so that a target refusing everything gets a handful of
 * requests before the judgement, not --concurrency more. A WSDL fetch (the preflight's) answered
 * does not end probation: a web server may serve the WSDL while the service behind it is down.
 */
import { createHash } from 'node:crypto';
import type { Exchange, NetworkOptions, ProxySetting } from '../core/types.js';
import type { StopCode } from '../core/verdict.js';
import { bypassesProxy, proxyFor } from './proxy.js';
import { isHtmlPage, transientOf } from './transient.js';

/**
 * Transient answers in a row that judge a part of the target down once it has answered, in
 * multiples of giveUpAfter: 20 by default, which 3% (or even 20%) of independent noise practically
 * never gives, and a target gone down mid-run gives within seconds.
 */
export const MID_RUN_FACTOR = 4;

/** Exchanges in flight at most until the target has answered once. */
export const PROBATION_CONCURRENCY = 2;

/** What the watch concluded: the run stops, and why. */
export interface Judgement {
  /** A refusal that will not heal, or an outage (every first answer transient). */
  readonly kind: 'refused' | 'outage';
  readonly code: StopCode;
  /** The target's origin (scheme, host and port: never a path or query, which may hold the password). */
  readonly origin: string;
  /** What the transport said of the last attempt (its error message), or what the answer was. */
  readonly detail: string;
  /** The proxy the attempt went through, if any. */
  readonly proxy?: ProxySetting;
  /** A proxy is set for the URL's scheme but NO_PROXY let the URL go direct. */
  readonly bypassed?: boolean;
  /** The answer's status, content type and a few words of its page (a gateway's refusal). */
  readonly status?: number;
  readonly contentType?: string;
  readonly page?: string;
  /** Attempts in a row that made the judgement, and attempts seen in all. */
  readonly inRow: number;
  readonly attempts: number;
  /** An outage after the part had answered (it went down during the run). */
  readonly midRun?: boolean;
}

type Reading =
  | { readonly as: 'answer' }
  | { readonly as: 'neutral' }
  | { readonly as: 'transient'; readonly what: string }
  | {
      readonly as: 'refusal';
      readonly code: StopCode;
      readonly after: number;
      readonly always: boolean;
      readonly print: string;
      readonly extra?: Partial<Judgement>;
    };

/** A request for a service's WSDL (the preflight's, drift's). */
function isWsdlFetch(url: string): boolean {
  return /\?wsdl$/i.test(url);
}

/** The origin of a URL (scheme, host, port), or the URL itself when it is none. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A few words of a page: its title, else its text, without markup. */
export function pageWords(body: Buffer): string {
  const text = body.subarray(0, 4096).toString('utf8');
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const words = (title ?? text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > 80 ? `${words.slice(0, 77)}...` : words;
}

function looksXml(body: Buffer): boolean {
  return (
    body
      .subarray(0, 256)
      .toString('latin1')
      .replace(/^\xEF\xBB\xBF/, '')
      .trimStart()
      .startsWith('<') && !isHtmlPage(undefined, body)
  );
}

/** Counts attempts and judges the target (see the module's comment). */
export class TargetWatch {
  #onProbation = true;
  #attempts = 0;
  /** Per part of the target (`key`), the refusal being counted (its print) and how many in a row. */
  readonly #refusal = new Map<string, { print: string; n: number }>();
  /** Per part, transient answers in a row; the parts that gave an answer of their own. */
  readonly #transientInRow = new Map<string, number>();
  readonly #answered = new Set<string>();
  /** What the latest refusal or transient answer would be judged, had it come as often as its rule asks (`pending`). */
  #pending: Judgement | undefined;

  constructor(
    readonly net: NetworkOptions | undefined,
    readonly giveUpAfter: number,
  ) {}

  /**
   * The judgement the latest refusal or transient answer points to while no part of the target has
   * answered for itself, though it came fewer times than its rule asks: for a command that sends a
   * few requests only (`drift`: a WSDL per service), every one of which was refused alike, it names
   * the cause as `run` would after more of them. Undefined once the target has answered.
   */
  get pending(): Judgement | undefined {
    return this.#answered.size === 0 ? this.#pending : undefined;
  }

  /** No answer of the target's own yet (from any of its origins). */
  get onProbation(): boolean {
    return this.#onProbation;
  }

  /**
   * Read one attempt; the judgement when it makes one. `afterHeaders`: the attempt failed after its
   * response's headers arrived (a reset mid-answer, not a connection closed before any answer).
   */
  attempt(
    url: string,
    ex: Pick<Exchange, 'response' | 'error'>,
    afterHeaders: boolean,
    key = originOf(url),
  ): Judgement | undefined {
    this.#attempts++;
    const r = this.#read(url, ex, afterHeaders, key);
    if (r.as === 'neutral') return undefined;
    const origin = originOf(url);
    if (r.as === 'answer') {
      if (!isWsdlFetch(url)) {
        this.#onProbation = false;
        this.#answered.add(key);
      }
      this.#refusal.delete(key);
      this.#transientInRow.delete(key);
      return undefined;
    }
    const fresh = !this.#answered.has(key);
    const base = {
      origin,
      detail: ex.error?.message ?? `HTTP ${ex.response?.status}`,
      attempts: this.#attempts,
      ...this.#route(url),
    };
    if (r.as === 'transient') {
      this.#refusal.delete(key);
      const n = (this.#transientInRow.get(key) ?? 0) + 1;
      this.#transientInRow.set(key, n);
      // After answers of its own, a part that goes down mid-run takes MID_RUN_FACTOR times as many in a row (noise
      // never does that).
      const limit = this.giveUpAfter * (fresh ? 1 : MID_RUN_FACTOR);
      const down: Judgement = {
        kind: 'outage',
        code: 'target_down',
        ...base,
        detail: r.what,
        inRow: n,
        midRun: !fresh,
      };
      if (this.giveUpAfter > 0 && n >= limit) return down;
      if (fresh) this.#pending = down;
      return undefined;
    }
    if (!r.always && !fresh) return undefined;
    this.#transientInRow.delete(key);
    const last = this.#refusal.get(key);
    const n = last?.print === r.print ? last.n + 1 : 1;
    this.#refusal.set(key, { print: r.print, n });
    const refused: Judgement = { kind: 'refused', code: r.code, ...base, ...r.extra, inRow: n };
    if (n >= r.after) return refused;
    if (fresh) this.#pending = refused;
    return undefined;
  }

  /** The proxy a URL goes through, and whether NO_PROXY let it bypass one. */
  #route(url: string): Pick<Judgement, 'proxy' | 'bypassed'> {
    const proxy = proxyFor(url, this.net);
    if (proxy) return { proxy };
    const set = url.startsWith('https:') ? this.net?.httpsProxy : this.net?.httpProxy;
    return set && bypassesProxy(url, this.net?.noProxy) ? { bypassed: true } : {};
  }

  #read(url: string, ex: Pick<Exchange, 'response' | 'error'>, afterHeaders: boolean, key: string): Reading {
    const res = ex.response;
    if (res) {
      if (res.status === 407)
        return { as: 'refusal', code: 'proxy_refused', after: 1, always: true, print: '407', extra: { status: 407 } };
      // The contract answers wrong credentials in band: a 401/403 that is not XML is a page of something in front of
      // the service.
      if ((res.status === 401 || res.status === 403) && !looksXml(res.body)) {
        const print = `${res.status} ${createHash('sha1').update(res.body).digest('base64')}`;
        return {
          as: 'refusal',
          code: 'gateway_refusal',
          after: 3,
          always: false,
          print,
          extra: {
            status: res.status,
            page: pageWords(res.body),
            ...(res.headers['content-type'] ? { contentType: res.headers['content-type'] } : {}),
          },
        };
      }
      const kind = transientOf(ex);
      if (kind)
        return {
          as: 'transient',
          what: `HTTP ${res.status}${isHtmlPage(res.headers['content-type'], res.body) ? ' HTML page' : ''}`,
        };
      return { as: 'answer' };
    }
    const err = ex.error;
    if (!err) return { as: 'neutral' };
    const https = url.startsWith('https:');
    // Reset while connecting or during the handshake (ECONNRESET; Node's words for a close before TLS), not closed
    // after it ("other side closed").
    const before = !afterHeaders && /before secure TLS connection|ECONNRESET/i.test(err.message);
    if (err.code === 'transport_error' && /^the proxy /.test(err.message)) {
      return {
        as: 'refusal',
        code: 'proxy_refused',
        after: 1,
        always: /\b407\b/.test(err.message),
        print: err.message,
      };
    }
    if (before && (https || this.#route(url).bypassed))
      return { as: 'refusal', code: 'closed_before_tls', after: 2, always: false, print: 'before' };
    if (err.code === 'tls_error') {
      return {
        as: 'refusal',
        code: /not signed by a CA|signed neither by/.test(err.message) ? 'tls_untrusted' : 'tls_refused',
        after: 1,
        always: true,
        print: err.message,
      };
    }
    if (err.code === 'unknown_host')
      return {
        as: 'refusal',
        code: 'unknown_host',
        after: /ENOTFOUND/.test(err.message) ? 1 : 2,
        always: true,
        print: 'dns',
      };
    // An https connection closed with no answer at all, the handshake done: the server would not have us.
    if (err.code === 'connection_reset' && https && !afterHeaders && !before) {
      return this.#answered.has(key)
        ? { as: 'transient', what: 'connection closed' }
        : { as: 'refusal', code: 'tls_closed', after: 2, always: false, print: 'closed' };
    }
    // A time-out is --give-up-after's: the transport gives up on a host that stops answering (client.ts #note).
    if (err.code === 'timeout') return { as: 'neutral' };
    if (transientOf(ex))
      return {
        as: 'transient',
        what: afterHeaders ? 'connection reset half-way through the answer' : 'connection reset',
      };
    return { as: 'neutral' };
  }
}
