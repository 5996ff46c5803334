/**
 * What a run concludes about the target as a whole, before any single finding: the preflight (each
 * distinct host asked once for its WSDL before the matrix: is it reachable at all, and which
 * namespace does it declare) and the reading of the finished units (did any valid call return its
 * result element; does the target use another namespace; was every operation the user named
 * called). A gate must be green only when something was tested, and red in a way that says why.
 */
import { poolKey, poolOf } from './bookings.js';
import { ALREADY_CANCELLED, NOT_FOUND } from '../equivalence/compare.js';
import { baseUrlOf, serviceUrlOf } from '../bindings/endpoint.js';
import type { BindingId, Group, Operation } from '../contract/catalogue.js';
import { bindingField, DRIFT_CHECK, EQUIVALENCE_CHECK, EXCHANGE_CHECK, NOT_RUN_CHECK, NOTHING_TESTED, notCalledReason, PREFLIGHT_CASE, rowBindings } from '../core/rows.js';
import type { Diagnosis, ResultRow, SettingKey, Target, UntestedCell } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { hostOf, type Transport } from '../transport/client.js';
import { proxyPassword } from '../transport/proxy.js';
import { MID_RUN_FACTOR, type Judgement } from '../transport/watch.js';
import { curlCommand } from '../transport/curl.js';
import { skipReason, type RunPlan, type Unit } from './plan.js';
import { driftOfExchange, driftReportOf, driftSources } from './drift.js';
import type { DriftReport, DriftService } from '../core/types.js';

/**
 * Transport failures that say nothing answers at that address. A time-out is not one of them: a
 * slow host may still answer the matrix (and one that stops answering is given up on then).
 */
const UNREACHABLE: ReadonlySet<string> = new Set(['connection_refused', 'unknown_host', 'tls_error']);

/** The flag naming the namespace of an operation's group. */
function nsFlag(op: Pick<Operation, 'ns'>): string {
  return op.ns === 'book' ? '--book-ns' : '--search-ns';
}

/**
 * How to give a setting another value, in the words of the place it came from: the flag, the
 * environment variable, or the config key in its file (the flag when it was not given).
 */
export function setAdvice(target: Pick<Target, 'sources'>, key: SettingKey, flag: string, value: string): string {
  const src = target.sources?.[key];
  if (src === undefined || src.startsWith('--')) return `pass ${flag} ${value}`;
  const env = /^environment variable (\S+)$/.exec(src);
  if (env) return `set ${env[1]} to ${value}`;
  const at = src.lastIndexOf(': ');
  return at > 0 ? `set ${src.slice(at + 2)} to ${value} in ${src.slice(0, at)}` : `set ${src} to ${value}`;
}

/** The setting keys and flags of a group's base URL and service path. */
function groupSettings(group: Group): { url: SettingKey; urlFlag: string; path: SettingKey; pathFlag: string } {
  const g = group === 'booking' ? 'book' : group === 'transfers' ? 'transfers' : 'search';
  return { url: `${g}Url` as SettingKey, urlFlag: `--${g}-url`, path: `${g}Path` as SettingKey, pathFlag: `--${g}-path` };
}

/** Where a setting came from, in words ("--book-url", "environment variable …", "config file …: target.bookUrl"). */
function sourceOf(target: Pick<Target, 'sources'>, key: SettingKey, flag: string): string {
  return target.sources?.[key] ?? flag;
}

/** How to configure namespace `value` for an operation's group, named after where the current one came from. */
function nsAdvice(target: Pick<Target, 'sources'>, op: Pick<Operation, 'ns'>, value: string): string {
  return setAdvice(target, op.ns === 'book' ? 'bookNs' : 'searchNs', nsFlag(op), value);
}

/** A TLS failure that is a plain-HTTP answer to a TLS handshake (OpenSSL: "wrong version number", "http request"). */
function plainHttpPort(message: string): boolean {
  return /wrong.version.number|http.request|packet.length.too.long|unknown.protocol/i.test(message);
}

/**
 * An https target that closed the connection without a word: what a server that verifies client
 * certificates after the handshake does (Node's, for one; others send a TLS alert, which the
 * transport names itself, transport/network.ts), so the likely cause and the flag are said.
 */
function tlsClosedAdvice(host: string, target: Pick<Target, 'network'>): string {
  const net = target.network;
  const given = net?.clientPfx ? `--client-pfx ${net.clientPfx}` : net?.clientCert ? `--client-cert ${net.clientCert}` : undefined;
  return given
    ? `${host} closed the TLS connection without an answer: it may have refused the client certificate in ${given} (signed by a CA it does not trust, or not for client authentication)`
    : `${host} closed the TLS connection without an answer: a target that demands a client certificate does so: pass --client-cert PEM and --client-key PEM (or --client-pfx FILE)`;
}

/** Where a proxy came from, in the words of its source. */
function proxySource(proxy: NonNullable<Judgement['proxy']>): string {
  const url = proxy.variable ? `the environment variable ${proxy.variable}` : '--proxy (or the config file\'s target.proxy)';
  // The URL named the user, its password came from a variable of its own (engine/network-settings.ts).
  return proxy.passwordVariable ? `${url} (the user) and the variable ${proxy.passwordVariable} (the password)` : url;
}

/** The URL settings (and where each came from) whose host is `origin`'s. */
function urlSettingsOf(target: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'sources'>, origin: string): string {
  const named = (['booking', 'reference', 'transfers'] as const).flatMap((g) => {
    const { url: key, urlFlag } = groupSettings(g);
    const url = target[key as 'bookUrl' | 'searchUrl' | 'transfersUrl'];
    return url && hostOf(url) === hostOf(origin) ? [sourceOf(target, key, urlFlag)] : [];
  });
  return [...new Set(named)].join(', ') || '--book-url, --search-url, --transfers-url';
}

/**
 * The diagnosis of a run the transport stopped at once (transport/watch.ts: a refusal of the whole
 * target, or an outage from its first answers): the cause first, then the setting that fixes it and
 * where that setting came from. Its code is the judgement's (core/verdict.ts STOP_CODES: an OUTAGE,
 * exit 4); the first words, up to ": ", are the verdict's reason. Nothing here blames a client
 * certificate for a connection closed before the TLS handshake was done.
 */
export function stopDiagnosis(j: Judgement, target: Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'sources' | 'network'>): Diagnosis {
  const net = target.network;
  const host = hostOf(j.origin);
  const hostname = (() => { try { return new URL(j.origin).hostname; } catch { return host; } })();
  const times = j.inRow > 1 ? ` (${j.inRow} times in a row)` : '';
  const proxyUrl = j.proxy ? redactUserInfo(j.proxy.url) : undefined;
  const bypass = net?.noProxy !== undefined
    ? `it went direct, not through the proxy, because NO_PROXY (${net.noProxy}; the variable NO_PROXY or no_proxy, or the config's target.noProxy) names ${hostname}`
    : 'it went direct';
  const message = ((): string => {
    switch (j.code) {
      case 'proxy_refused': {
        if (j.status !== 407 && !/\b407\b/.test(j.detail)) {
          return `the proxy ${proxyUrl ?? ''} refused to open a tunnel to ${j.origin} (${j.detail}): ask for ${host} to be let through it, or list ${hostname} in NO_PROXY if it is reached directly`;
        }
        if (!j.proxy) return `something in front of ${j.origin} demands proxy credentials (HTTP 407 Proxy Authentication Required): set the proxy with them (--proxy http://user:password@host:port, or HTTPS_PROXY / HTTP_PROXY)`;
        return proxyPassword(j.proxy.url) !== undefined || /\/\/[^/@]+@/.test(j.proxy.url)
          ? `the proxy ${proxyUrl} refused the credentials given (HTTP 407 Proxy Authentication Required): check the user name and password in ${proxySource(j.proxy)}, where they were given; `
            + 'the run stopped at its first refusal so as not to lock the account with more attempts'
          : `the proxy ${proxyUrl} demands credentials (HTTP 407 Proxy Authentication Required): give them in ${proxySource(j.proxy)} as http://user:password@host:port`;
      }
      case 'tls_untrusted':
        return `the certificate of ${j.origin} is not trusted: ${j.detail.replace(/^TLS failure: /, '')}`;
      case 'tls_refused':
        return plainHttpPort(j.detail)
          ? `${host} does not answer TLS: the port answers plain HTTP: use http:// (${j.origin.replace(/^https:/, 'http:')}) in ${urlSettingsOf(target, j.origin)}`
          : `${j.origin} refused the TLS handshake: ${j.detail.replace(/^TLS failure: /, '')}`;
      case 'tls_closed':
        return `${tlsClosedAdvice(host, target).replace(' closed the TLS connection without an answer', ` closed the TLS connection right after the handshake, without an answer${times}`)}`;
      case 'closed_before_tls': {
        const what = j.origin.startsWith('https:') ? 'closed the connection before the TLS handshake was done' : 'closed the connection as soon as it was opened';
        if (j.bypassed) {
          return `${j.origin} ${what}${times}: ${bypass}: a network that demands its proxy drops direct connections: take ${hostname} out of NO_PROXY `
            + `(the proxy is ${redactUserInfo((j.origin.startsWith('https:') ? net?.httpsProxy : net?.httpProxy)?.url ?? '')})`;
        }
        if (proxyUrl) return `the connection to ${j.origin} through the proxy ${proxyUrl} was closed before the TLS handshake was done${times}: the proxy or the target drops it (${j.detail})`;
        return `${j.origin} ${what}${times} (${j.detail}): something on the way drops direct connections: if this network demands a proxy, set it (--proxy, or HTTPS_PROXY)`;
      }
      case 'unknown_host':
        return j.bypassed
          ? `the name ${hostname} does not resolve (${j.detail}): ${bypass}: a name only the proxy resolves must go through it: take ${hostname} out of NO_PROXY`
          : `the name ${hostname} does not resolve (${j.detail}): check the host in ${urlSettingsOf(target, j.origin)}${j.proxy ? '' : ', or set the proxy (--proxy, or HTTPS_PROXY) where only the proxy resolves it'}`;
      case 'gateway_refusal': {
        const headers = net?.headers ?? [];
        const page = `HTTP ${j.status} page${j.page ? ` ("${j.page}"${j.contentType ? `, ${j.contentType.split(';')[0]}` : ''})` : ''}`;
        const fix = headers.length
          ? `it does not accept the headers given (${headers.map((h) => (h.variable ? `${h.name} from the variable ${h.variable}` : h.name)).join(', ')}; --header or the config's target.headers): check their names and values`
          : 'it likely demands a header (an API key, a token): pass --header \'Name: value\' (--header \'Name: env:VARIABLE\' for a secret; or the config\'s target.headers)';
        return `every request got the same ${page} from ${j.origin}, not an answer of the service${times}: the service answers wrong credentials in band, `
          + `never with a page, so something in front of it refuses the requests: ${fix}`;
      }
      case 'target_down':
        if (j.midRun) {
          return `the target ${j.origin} went down during the run: ${j.inRow} answers in a row were transient (the last: ${j.detail}): no verdict on the contract (an outage, exit 4): `
            + `try again when it is up (once it has answered, the run stops after ${MID_RUN_FACTOR} × --give-up-after ${j.inRow / MID_RUN_FACTOR} transient answers in a row)`;
        }
        return `the target ${j.origin} is down: ${j.inRow === 1 ? 'its first answer was transient' : `its first ${j.inRow} answers were all transient`} (the last: ${j.detail}), and none was its own: `
          + `no verdict on the contract (an outage, exit 4): try again when it is up (a run stops after --give-up-after transient answers in a row at its start; ${j.inRow} came)`;
    }
  })();
  return { level: 'error', code: j.code, message: redactUserInfo(message) };
}

/** targetNamespace of a WSDL's definitions element, read from its first 64 KB (no DTD, nothing fetched). */
export function wsdlTargetNamespace(text: string): string | undefined {
  const defs = /<(?:[A-Za-z_][\w.-]*:)?definitions\b[^>]*>/.exec(text.slice(0, 65_536))?.[0];
  return defs ? /\btargetNamespace\s*=\s*(["'])([^"']*)\1/.exec(defs)?.[2] : undefined;
}

/** The check name of the rows --fail-on-drift adds: the target's WSDL against the contract's (core/rows.ts, where the verdict reads it). */
export { DRIFT_CHECK };

/** What the preflight found: conclusions, and one failed row per host that does not answer at all (nothing more is sent there). */
export interface Preflight {
  readonly diagnosis: Diagnosis[];
  readonly rows: ResultRow[];
  /** The services whose WSDL was not there (their `wsdl_not_found` hint), settled by settleWsdlHints once the operations have answered. */
  readonly missingWsdl?: ReadonlyMap<string, Diagnosis>;
  /** The WSDLs fetched, compared with the contract's (./drift.ts); absent when no service was asked. */
  readonly drift?: DriftReport;
}

/**
 * Ask each distinct service of the plan for its WSDL, once, before the matrix: a host that does not
 * answer at all is reported once (not once per exchange) and given up on; a WSDL whose
 * targetNamespace differs from the configured one gives the flag to pass.
 */
export async function preflight(plan: Pick<RunPlan, 'target' | 'operations' | 'bindings' | 'failOnDrift'>, transport: Transport): Promise<Preflight> {
  // What is written here is the harness's own text about the target's addresses: only URL user-info can hold a secret.
  const redact = redactUserInfo;
  const byUrl = new Map<string, Operation>();
  for (const op of plan.operations) {
    const url = serviceUrlOf(plan.target, op, 'soap11');
    if (!byUrl.has(url)) byUrl.set(url, op);
  }
  const diagnosis: Diagnosis[] = [];
  const rows: ResultRow[] = [];
  const missingWsdl = new Map<string, Diagnosis>();
  const down = new Set<string>();
  // A base URL that already ends in its service path doubles the path in every request.
  const doubled = new Set<string>();
  for (const op of plan.operations) {
    const base = baseUrlOf(plan.target, op);
    const paths = plan.target.paths[op.group];
    let pathname: string;
    try { pathname = new URL(base).pathname.replace(/\/+$/, ''); } catch { continue; }
    const held = [paths.soap, paths.http].map((p) => p.replace(/\/+$/, '')).find((p) => p !== '' && pathname.toLowerCase().endsWith(p.toLowerCase()));
    if (held === undefined || doubled.has(base)) continue;
    doubled.add(base);
    const { url: key, urlFlag } = groupSettings(op.group);
    const host = redact(base.slice(0, base.length - held.length) || base);
    diagnosis.push({
      level: 'hint', code: 'url_holds_service_path',
      message: redact(`the URL already ends in the service path: pass the host only (${sourceOf(plan.target, key, urlFlag)} is ${base}, so ${op.name} is sent to ${serviceUrlOf(plan.target, op, 'soap11')}): ${setAdvice(plan.target, key, urlFlag, host)}`),
    });
  }
  // The same fetch tells whether the WSDL matches the contract (drift): never a failure by itself.
  const sources = new Map(driftSources(plan.target, plan.operations).map((src) => [src.url, src]));
  const drifts = new Map<string, DriftService>();
  await Promise.all([...byUrl].map(async ([url, op]) => {
    const ex = await transport.send({ method: 'GET', url: `${url}?WSDL`, headers: { accept: 'text/xml' } }, 0, url);
    // The target refused the run, or is down (transport/watch.ts): stopDiagnosis says it once, and no row is made against an operation.
    if (transport.judgement) return;
    const src = sources.get(url);
    if (src) drifts.set(url, driftOfExchange({ ...src, wsdlUrl: `${url}?WSDL` }, ex));
    const host = hostOf(url);
    if (ex.error && UNREACHABLE.has(ex.error.code)) {
      transport.giveUp(url, redact(`${url} is unreachable at the preflight (${ex.error.code}): ${ex.error.message}`));
      if (down.has(host)) return;
      down.add(host);
      const plain = ex.error.code === 'tls_error' && url.startsWith('https:') && plainHttpPort(ex.error.message);
      // An https:// URL to a port that speaks plain HTTP: OpenSSL's words say nothing a user can act on.
      const message = redact(plain
        ? `${host} does not answer TLS: the port answers plain HTTP: use http:// (${url.replace(/^https:/, 'http:')})`
        : `${host} does not answer: ${ex.error.message.replace(/\s+/g, ' ').trim()}`);
      diagnosis.push({ level: 'error', message: `${message}: nothing can be tested there`, code: plain ? 'plain_http_port' : 'host_unreachable' });
      rows.push({
        operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: PREFLIGHT_CASE, check: EXCHANGE_CHECK, status: 'failed',
        message, path: '/', reproduce: curlCommand({ method: 'GET', url: `${url}?WSDL`, headers: {} }, '', undefined, plan.target.network),
        findings: [{ check: EXCHANGE_CHECK, code: 'host_unreachable', path: '/', message }],
      });
      return;
    }
    if (ex.error?.code === 'connection_reset' && url.startsWith('https:') && !down.has(host)) {
      down.add(host);
      diagnosis.push({ level: 'hint', code: 'tls_closed', message: redact(tlsClosedAdvice(host, plan.target)) });
      return;
    }
    if (ex.response?.status === 404 || ex.response?.status === 410) {
      const { path: key, pathFlag } = groupSettings(op.group);
      const hint: Diagnosis = {
        level: 'hint', code: 'wsdl_not_found',
        message: redact(`the WSDL at ${url}?WSDL is not there (HTTP ${ex.response.status}): check the host and the service path (${sourceOf(plan.target, key, pathFlag)}: ${plan.target.paths[op.group].soap})`),
      };
      diagnosis.push(hint);
      missingWsdl.set(op.service, hint);
      return;
    }
    if (ex.response?.status !== 200) return;
    const declared = wsdlTargetNamespace(ex.response.body.subarray(0, 65_536).toString('utf8'));
    const configured = plan.target.namespaces[op.ns];
    if (declared !== undefined && declared !== configured) {
      diagnosis.push({ level: 'hint', code: 'other_namespace', message: redact(`the WSDL at ${url}?WSDL declares targetNamespace ${declared}, not ${configured}: ${nsAdvice(plan.target, op, declared)}`) });
    }
  }));
  const services = [...byUrl.keys()].flatMap((u) => (drifts.has(u) ? [drifts.get(u)!] : []));
  // --fail-on-drift: a failed row per service whose WSDL breaks the contract, so the one verdict says so;
  // a skipped row per service whose WSDL could not be compared, so the run is UNTESTED (exit 5), as
  // `conformance drift` says of it: the gate asked for cannot have held (before, it exited 0).
  if (plan.failOnDrift) {
    for (const [url, op] of byUrl) {
      const d = drifts.get(url);
      if (d && d.status !== 'compared') {
        const message = `not tested: the WSDL at ${redact(url)}?WSDL could not be compared with the contract's (${d.reason ?? d.status}), so --fail-on-drift `
          + `(or CONFORMANCE_FAIL_ON_DRIFT, config failOnDrift) could not hold: serve the WSDL there, compare it where it is served (conformance drift --wsdl-url ${d.service}=URL), or run without --fail-on-drift`;
        rows.push({
          operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: PREFLIGHT_CASE, check: DRIFT_CHECK, status: 'skipped',
          message, path: '/', reproduce: curlCommand({ method: 'GET', url: `${url}?WSDL`, headers: {} }, '', undefined, plan.target.network), findings: [],
        });
        continue;
      }
      if (!d || d.breaking === 0) continue;
      const breaking = d.differences.filter((x) => x.severity === 'breaking');
      const message = `the WSDL at ${redact(url)}?WSDL differs from the contract's: ${d.breaking} breaking (--fail-on-drift; see drift.md)`;
      rows.push({
        operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: PREFLIGHT_CASE, check: DRIFT_CHECK, status: 'failed',
        message, path: '/', reproduce: `conformance drift --wsdl-url ${d.service}=${redact(url)}?WSDL`,
        findings: breaking.map((x) => ({ check: DRIFT_CHECK, code: 'wsdl_breaking_drift', path: x.where, message: `${x.message} [${x.rule}]`,
          ...(x.contract !== undefined ? { expected: x.contract } : {}), ...(x.target !== undefined ? { actual: x.target } : {}) })),
      });
    }
  }
  return { diagnosis, rows, ...(missingWsdl.size ? { missingWsdl } : {}), ...(services.length > 0 ? { drift: driftReportOf(services) } : {}) };
}

/**
 * The preflight's hints, once the operations have answered: a WSDL missing at a service path whose
 * valid calls reached the data path is a note (the service does not serve its WSDL there), not a
 * hint that the host or the path is wrong.
 */
export function settleWsdlHints(before: Preflight, reachedServices: ReadonlySet<string>): Diagnosis[] {
  const settled = new Map([...before.missingWsdl ?? []].filter(([service]) => reachedServices.has(service)).map(([service, d]) => [d, service]));
  return before.diagnosis.map((d) => {
    const service = settled.get(d);
    if (service === undefined) return d;
    const url = /the WSDL at (\S+) is not there \(HTTP (\d+)\)/.exec(d.message);
    return {
      level: 'note', code: 'wsdl_not_served',
      message: `the WSDL${url ? ` at ${url[1]}` : ''} is not there${url ? ` (HTTP ${url[2]})` : ''}, but the ${service} service answers at that path: it does not serve its WSDL there (nothing to change in the settings)`,
    };
  });
}

/** The checks that judge a rejection: a pass means the target refused what it had to. */
const REJECTION_CHECKS: ReadonlySet<string> = new Set(['credentials_rejected', 'bad_request_rejected', 'dtd_refused', 'login_rejected']);

/** `{ns}local` of a finding's actual value. */
function clarkParts(actual: string | undefined): { ns: string; local: string } | undefined {
  const m = actual ? /^\{([^}]*)\}(.+)$/.exec(actual) : null;
  return m ? { ns: m[1]!, local: m[2]! } : undefined;
}

/** How one valid call ended, as its rows tell: it reached the data path, or why not (a key to count reasons by, and words). */
interface Reach {
  readonly reached: boolean;
  /** Counted by: the ErrorType of an in-band rejection, the HTTP status, or the failed check. */
  readonly key: string;
  /** What happened, after "every valid call (n) [was]" ("rejected with …" after "was", "got HTTP 404 …"). */
  readonly words: string;
  /** The result element was not found at all (a 404 page, another API): not this service there. */
  readonly noResult: boolean;
  /** An in-band rejection: its ErrorType and Message. */
  readonly error?: { readonly type: string; readonly message: string };
  /** The HTTP status of the answer. */
  readonly status?: number;
  /** Rejected as wrong credentials (a fault or page saying so, whatever the status): the service is there, the user or password is not right. */
  readonly credentials?: boolean;
}

const REACHED: Reach = { reached: true, key: 'reached', words: 'reached the data path', noResult: false };

/** Text cut to `max` characters. */
function cut(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * How a valid call ended, from the rows of its exchange (one binding): undefined when it got no
 * response (not sent, refused, timed out: reported as such, and not a reading of the target).
 */
function reachOf(op: Operation, rows: readonly ResultRow[]): Reach | undefined {
  const exchange = rows.find((r) => r.check === EXCHANGE_CHECK);
  if (!exchange || exchange.status !== 'passed') return undefined;
  const inBand = rows.find((r) => r.inBandError)?.inBandError ?? (rows.some((r) => r.check === 'shape') ? undefined : errorInExcerpt(exchange.response));
  if (inBand) {
    return {
      // Credentials refused in-band or by a fault are one reason, whichever binding said it how.
      reached: false, key: aboutCredentials(inBand) ? 'credentials' : `in-band\u0000${inBand.type}`, noResult: false, error: inBand,
      words: `rejected with ${inBand.type || 'an in-band Error'}${inBand.message ? ` ("${cut(inBand.message, 120)}")` : ''}`,
    };
  }
  const result = rows.find((r) => r.check === 'result_element');
  if (!result || result.status === 'passed' || result.status === 'known') return REACHED;
  // The result element by its name in another namespace: the service is there, configured with another namespace (hinted).
  if (result.status === 'failed' && result.findings.some((f) => {
    const c = clarkParts(f.actual);
    return c !== undefined && (c.local === op.resultElement || c.local === `${op.name}Response`);
  })) return REACHED;
  const head = /^HTTP\/[\d.]+ (\d{3})/.exec(exchange.response ?? '');
  const status = head ? Number(head[1]) : undefined;
  const type = /^content-type: *(.*)$/im.exec(exchange.response ?? '')?.[1]?.trim();
  if (status !== undefined && status !== 200) {
    let said = rows.find((r) => r.check === 'status_code' && r.status === 'failed')?.message.replace(/^status \d+ instead of 200, with /, '');
    // An HTML error page, in words: its text, not its markup.
    if (said && /html/i.test(type ?? '')) said = said.replace(/<[^>]*>?/g, ' ').replace(/\s+/g, ' ').replace(/" /, '"');
    // A fault or page saying the credentials are wrong ("Authentication failed"): the service is
    // there and answered, it refused the user or password (every binding alike, one reason).
    if (aboutCredentials({ type: '', message: said ?? '' })) {
      return { reached: false, key: 'credentials', noResult: false, credentials: true, status, words: `refused as wrong credentials (HTTP ${status}${said ? ` with ${cut(said, 160)}` : ''})` };
    }
    return { reached: false, key: `status\u0000${status}`, noResult: true, status, words: `got HTTP ${status}${type ? ` (${cut(type, 60)})` : ''}${said ? ` with ${cut(said, 160)}` : ''}` };
  }
  const failed = rows.find((r) => r.status === 'failed' && r.check !== EXCHANGE_CHECK);
  return { reached: false, key: 'no-result', noResult: true, words: `got no result element${failed ? ` (${failed.check}: ${cut(failed.message, 200)})` : ''}` };
}

/**
 * An in-band Error read from a response excerpt, for runs without the shape check (which records
 * it): the first ErrorType and Message of an Error element, if the answer holds one.
 */
function errorInExcerpt(response: string | undefined): { type: string; message: string } | undefined {
  const error = /<(?:[\w.-]+:)?Error\b[^>]*>([^]*?)<\/(?:[\w.-]+:)?Error>/.exec(response ?? '')?.[1];
  if (error === undefined) return undefined;
  const text = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*>([^<]*)<`).exec(error)?.[1]?.trim() ?? '';
  return { type: text('ErrorType'), message: text('Message') };
}

/** The most frequent reason among calls that did not reach the data path, with its count. */
function commonest(reaches: readonly Reach[]): { top: Reach; count: number } {
  const by = new Map<string, { top: Reach; count: number }>();
  for (const r of reaches) {
    const e = by.get(r.key);
    if (e) e.count++; else by.set(r.key, { top: r, count: 1 });
  }
  return [...by.values()].sort((a, b) => b.count - a.count)[0]!;
}

/** "every valid call (3) was rejected with …", saying how many when the reasons differ. */
function everyCall(reaches: readonly Reach[]): string {
  const { top, count } = commonest(reaches);
  return count === reaches.length
    ? `every valid call (${reaches.length}) ${top.error || top.credentials ? 'was ' : ''}${top.words}`
    : `no valid call reached the data path (${reaches.length}; ${count} of them ${top.error || top.credentials ? 'were ' : ''}${top.words})`;
}

/** Whether an in-band rejection reads as one of the credentials. */
export function aboutCredentials(e: { readonly type: string; readonly message: string } | undefined): boolean {
  return e !== undefined && /authenticat|credential|password|login|log on|unauthori[sz]ed|not authori[sz]ed|access.denied|forbidden|permission/i.test(`${e.type} ${e.message}`);
}

/** What an untested cell's commonest answer says (UntestedCell.cause), by the same reading as advice(). */
function causeOf(top: Reach): NonNullable<UntestedCell['cause']> {
  if (top.credentials || aboutCredentials(top.error)) return 'credentials';
  if (top.error) return 'rejected';
  const status = top.status;
  if (status === 401 || status === 403) return 'credentials';
  // Only a status saying "nothing here" is about the address; a 200 without its result, a redirect
  // or a 5xx is the target answering valid calls wrongly: its failures are findings.
  if (status !== undefined && [404, 405, 410, 501].includes(status)) return 'address';
  return 'failing';
}

/** What to do about untested calls, from the commonest reason. */
function advice(top: Reach, one?: Operation): string {
  if (top.credentials || aboutCredentials(top.error)) return 'check the credentials (the user name, and the password and where it comes from)';
  // A state-changing operation's valid calls name pool bookings (./bookings.ts), not a case's data.
  const pool = one ? poolOf(one.name) : undefined;
  if (top.error && pool) {
    const e = `${top.error.type} ${top.error.message}`;
    if (ALREADY_CANCELLED.test(e)) {
      return `the bookings of \`bookings.${pool}\` are already cancelled (an earlier run used them up, or state leaks between bookings: the seq-cancel sequence judges that): `
        + 'create fresh bookings on the target for every run (--dry-run says how many)';
    }
    if (NOT_FOUND.test(e)) return `the bookings of \`bookings.${pool}\` are not found on the target: give bookings that exist there (for this user)`;
    return `check the credentials, and that the bookings of \`bookings.${pool}\` exist on the target and can still be changed`;
  }
  if (top.error) {
    return `check the credentials, and give ${one ? `${one.name} a case` : 'the cases'} with data that exists on this target (the config file's "cases")`;
  }
  const status = top.status;
  if (status === 401 || status === 403) return 'check the credentials';
  if (status === undefined || status === 200 || (status >= 300 && status < 400) || [404, 405, 410, 501].includes(status)) return 'check the base URL and the service path';
  return 'the target fails on valid calls (see the failures)';
}


/** What diagnoseUnits concludes. */
export interface UnitsDiagnosis {
  readonly diagnosis: Diagnosis[];
  readonly rows: ResultRow[];
  /** The operation × binding cells whose valid calls never reached the data path (empty: all reached it). */
  readonly untested: UntestedCell[];
  /** The services one valid call of which at least reached the data path. */
  readonly reachedServices: ReadonlySet<string>;
}

/**
 * Read the finished units. Per operation × binding: did any valid call reach the data path (its
 * result element, without an in-band Error)? A cell none of whose valid calls did was not tested:
 * it is listed in `untested` with why, and the rows whose pass would mean nothing there (the
 * rejections of its negative cases, and the comparison of bindings that only compared rejections)
 * are skipped instead of passed. When no cell of the run reached the data path, nothing was tested
 * (wrong credentials, a wrong path, not this service): the diagnosis says so first, naming the
 * commonest answer. Also: a service none of whose valid calls returned its result element "does not
 * answer like this service"; the namespace the target really uses where results came in another
 * one; and, when the user named the operations, each one that got no exchange at all, as a failed
 * row saying why. A valid case rejected because its data does not exist stays a note (the shape
 * check's skip) as long as another case of its cell reached the data path. A call on a pool booking
 * found unusable (`unusable`: keys of engine/pool-check.ts poolKey) says nothing of the data path
 * either: the pool's, said apart (issue 40).
 */
export function diagnoseUnits(plan: Pick<RunPlan, 'target' | 'bindings' | 'operations' | 'operationsNamed' | 'allowMutations'>, units: readonly Unit[], perUnit: ResultRow[][],
  unusable: ReadonlySet<string> = new Set()): UnitsDiagnosis {
  const diagnosis: Diagnosis[] = [];
  const rows: ResultRow[] = [];
  const cellKey = (op: string, b: string) => `${op}\u0000${b}`;
  const cells = new Map<string, { op: Operation; binding: BindingId; reaches: Reach[] }>();
  // Per valid unit and binding: whether that call reached the data path (for its comparison row).
  const unitReach = new Map<number, Map<string, Reach>>();
  units.forEach((u, i) => {
    // A probe names no booking (src/engine/bookings.ts): a service with only real bookings answers it
    // "not found", one where any id exists with data; neither says whether the data path is reached.
    if (u.kind !== 'valid' || u.calls === 'probe') return;
    const byBinding = new Map<string, ResultRow[]>();
    for (const r of perUnit[i] ?? []) {
      if (r.check === EQUIVALENCE_CHECK) continue;
      const list = byBinding.get(r.binding) ?? [];
      list.push(r);
      byBinding.set(r.binding, list);
    }
    const mine = new Map<string, Reach>();
    unitReach.set(i, mine);
    for (const b of plan.bindings) {
      const booking = u.bookings?.[b];
      if (booking && unusable.has(poolKey(booking))) continue;
      const reach = reachOf(u.op, byBinding.get(b) ?? []);
      if (!reach) continue;
      mine.set(b, reach);
      const k = cellKey(u.op.name, b);
      const cell = cells.get(k) ?? { op: u.op, binding: b, reaches: [] };
      cells.set(k, cell);
      cell.reaches.push(reach);
    }
  });
  const untestedCells = [...cells.values()].filter((c) => !c.reaches.some((r) => r.reached));
  const untested: UntestedCell[] = untestedCells.map((c) => ({ operation: c.op.name, binding: c.binding, reason: everyCall(c.reaches), cause: causeOf(commonest(c.reaches).top) }));
  const isUntested = new Set(untestedCells.map((c) => cellKey(c.op.name, c.binding)));
  const nothingTested = untestedCells.length > 0 && untestedCells.length === cells.size;

  if (nothingTested) {
    const all = untestedCells.flatMap((c) => c.reaches);
    const { top } = commonest(all);
    diagnosis.push({
      level: 'error', code: NOTHING_TESTED,
      message: `nothing was tested: ${everyCall(all)}, on every operation and binding called: ${advice(top, untestedCells.find((c) => c.reaches.includes(top))?.op)}; `
        + 'the passes of this run prove nothing (its rejections and comparisons are skipped)',
    });
  }

  // Per service: no valid call returned its result element at all (whatever the status): not this service there.
  const services = new Map<string, { reaches: { unit: Unit; binding: string; reach: Reach }[]; url: string }>();
  units.forEach((u, i) => {
    const s = services.get(u.op.service) ?? { reaches: [], url: redactUserInfo(serviceUrlOf(plan.target, u.op, 'soap11')) };
    services.set(u.op.service, s);
    for (const [binding, reach] of unitReach.get(i) ?? []) s.reaches.push({ unit: u, binding, reach });
  });
  const notThisService = new Set<string>();
  for (const [service, s] of services) {
    if (s.reaches.length === 0 || !s.reaches.every((x) => x.reach.noResult)) continue;
    notThisService.add(service);
    const first = s.reaches[0]!;
    diagnosis.push({
      level: 'error', code: 'not_this_service',
      message: `the target at ${s.url} does not answer like this service: no valid call of the ${service} service returned its result element `
        + `(${s.reaches.length} tried; for example ${first.unit.op.name} [${first.binding}] ${first.unit.caseId} ${first.reach.words.slice(0, 300)}): ${advice(first.reach)}`,
    });
  }

  // Per operation, when the run as a whole was tested: the operations (× bindings) that were not.
  if (!nothingTested) {
    const byOp = new Map<string, typeof untestedCells>();
    for (const c of untestedCells) {
      if (notThisService.has(c.op.service)) continue;
      const list = byOp.get(c.op.name) ?? [];
      list.push(c);
      byOp.set(c.op.name, list);
    }
    for (const list of byOp.values()) {
      const op = list[0]!.op;
      const all = list.flatMap((c) => c.reaches);
      const { top } = commonest(all);
      const on = list.length === plan.bindings.length ? 'on any binding' : `on ${list.map((c) => c.binding).join(', ')}`;
      diagnosis.push({
        level: 'error', code: 'untested_operation',
        message: `${op.name} was not tested ${on}: ${everyCall(all)}: ${advice(top, op)}`,
      });
    }
  }

  const hinted = new Set<string>();
  units.forEach((u, i) => {
    if (u.kind !== 'valid') return;
    for (const r of perUnit[i] ?? []) {
      if (r.check !== 'result_element' || r.status !== 'failed') continue;
      for (const f of r.findings) {
        const seen = clarkParts(f.actual);
        const op = u.op;
        if (!seen || seen.ns === plan.target.namespaces[op.ns] || !/_mismatch$/.test(f.code) || hinted.has(`${op.ns}\u0000${seen.ns}`)) continue;
        hinted.add(`${op.ns}\u0000${seen.ns}`);
        diagnosis.push({ level: 'hint', code: 'other_namespace', message: `the target answers ${r.operation} with ${seen.local} in namespace ${seen.ns || '(none)'}, not ${plan.target.namespaces[op.ns]}: ${nsAdvice(plan.target, op, seen.ns)}` });
      }
    }
  });

  // The passes that mean nothing where the valid calls never reached the data path.
  const serviceUntested = (service: string, b: string) => {
    const mine = [...cells.values()].filter((c) => c.op.service === service && c.binding === b);
    return mine.length > 0 && mine.every((c) => isUntested.has(cellKey(c.op.name, c.binding)));
  };
  const cellUntested = (u: Unit, b: string) => (cells.has(cellKey(u.op.name, b)) ? isUntested.has(cellKey(u.op.name, b)) : serviceUntested(u.op.service, b));
  const why = (u: Unit, b: string) => {
    const cell = cells.get(cellKey(u.op.name, b));
    return notThisService.has(u.op.service)
      ? 'the target does not answer like this service (see the diagnosis)'
      : `no valid call of ${u.op.name} [${b}] reached the data path${cell ? ` (${everyCall(cell.reaches)})` : ''}`;
  };
  units.forEach((u, i) => {
    const rs = perUnit[i];
    if (!rs) return;
    perUnit[i] = rs.map((r) => {
      if (r.status !== 'passed') return r;
      if (u.kind !== 'valid' && REJECTION_CHECKS.has(r.check) && cellUntested(u, r.binding)) {
        return { ...r, status: 'skipped', message: `not judged: ${why(u, r.binding)}, so this rejection proves nothing` };
      }
      if (r.check !== EQUIVALENCE_CHECK) return r;
      const bs = rowBindings(r);
      // A valid case of an untested cell: the bindings agreed, but only on a rejection. (Where the
      // cell was tested by another case, bindings agreeing on a case's in-band Error stays a pass.)
      const compared = u.kind === 'valid'
        ? bs.some((b) => cellUntested(u, b)) && bs.every((b) => unitReach.get(i)?.get(b)?.reached !== true)
        : bs.some((b) => cellUntested(u, b));
      if (!compared) return r;
      return { ...r, status: 'skipped', message: `not judged: ${why(u, bs.find((b) => cellUntested(u, b)) ?? bs[0]!)}, so the bindings only agreed on a rejection` };
    });
  });

  if (plan.operationsNamed) {
    for (const op of plan.operations) {
      const reason = notCalledReason(op.name, units.flatMap((u, i) => (u.op === op ? perUnit[i] ?? [] : [])));
      if (reason === undefined) continue;
      // Forbidden by the user's own settings (a state-changing operation without --allow-mutations):
      // not the target's failure. The settings refuse it up front (./settings.ts); a plan built by
      // hand (the library) gets a hint, never a failed row.
      if (skipReason(plan, op)) {
        diagnosis.push({ level: 'hint', message: `${op.name} was named in the operations but not called: ${reason}: allow mutations to call it, or leave it out` });
        continue;
      }
      const message = `${op.name} was named in --operations but never called: ${reason}`;
      diagnosis.push({ level: 'error', code: 'operation_not_called', message });
      rows.push({
        operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: '*', check: NOT_RUN_CHECK, status: 'failed',
        message, path: '/', reproduce: '', findings: [{ check: NOT_RUN_CHECK, code: 'operation_not_called', path: '/', message }],
      });
    }
  }
  const reachedServices = new Set([...cells.values()].filter((c) => c.reaches.some((r) => r.reached)).map((c) => c.op.service));
  return { diagnosis, rows, untested, reachedServices };
}

export { nothingAnswered } from '../core/verdict.js';

