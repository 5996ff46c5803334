/**
 * The preflight: each distinct service of the plan asked once for its WSDL before the matrix: is its
 * host reachable at all, does its URL already hold the service path, which namespace does it declare,
 * and does its WSDL match the contract's (drift, a failed row only with --fail-on-drift).
 */
import { baseUrlOf, serviceUrlOf } from '../bindings/endpoint.js';
import type { Operation } from '../contract/catalogue.js';
import { bindingField, DRIFT_CHECK, EXCHANGE_CHECK, PREFLIGHT_CASE } from '../core/rows.js';
import type { Diagnosis, DriftReport, DriftService, ResultRow } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { hostOf, type Transport } from '../transport/client.js';
import { curlCommand } from '../transport/curl.js';
import type { RunPlan } from './plan.js';
import { driftOfExchange, driftReportOf, driftSources } from './drift.js';
import { groupSettings, nsAdvice, plainHttpPort, setAdvice, sourceOf, tlsClosedAdvice } from './setting-advice.js';

/**
 * Transport failures that say nothing answers at that address. A time-out is not one of them: a
 * slow host may still answer the matrix (and one that stops answering is given up on then).
 */
const UNREACHABLE: ReadonlySet<string> = new Set(['connection_refused', 'unknown_host', 'tls_error']);

/** targetNamespace of a WSDL's definitions element, read from its first 64 KB (no DTD, nothing fetched). */
export function wsdlTargetNamespace(text: string): string | undefined {
  const defs = /<(?:[A-Za-z_][\w.-]*:)?definitions\b[^>]*>/.exec(text.slice(0, 65_536))?.[0];
  return defs ? /\btargetNamespace\s*=\s*(["'])([^"']*)\1/.exec(defs)?.[2] : undefined;
}

/**
 * What the preflight found: conclusions, and one failed row per host that does not answer at all (nothing more is sent
 * there).
 */
export interface Preflight {
  readonly diagnosis: Diagnosis[];
  readonly rows: ResultRow[];
  /**
   * The services whose WSDL was not there (their `wsdl_not_found` hint), settled by settleWsdlHints once the operations
   * have answered.
   */
  readonly missingWsdl?: ReadonlyMap<string, Diagnosis>;
  /** The WSDLs fetched, compared with the contract's (./drift.ts); absent when no service was asked. */
  readonly drift?: DriftReport;
}

/**
 * Ask each distinct service of the plan for its WSDL, once, before the matrix: a host that does not
 * answer at all is reported once (not once per exchange) and given up on; a WSDL whose
 * targetNamespace differs from the configured one gives the flag to pass.
 */
export async function preflight(
  plan: Pick<RunPlan, 'target' | 'operations' | 'bindings' | 'failOnDrift'>,
  transport: Transport,
): Promise<Preflight> {
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
    try {
      pathname = new URL(base).pathname.replace(/\/+$/, '');
    } catch {
      continue;
    }
    const held = [paths.soap, paths.http]
      .map((p) => p.replace(/\/+$/, ''))
      .find((p) => p !== '' && pathname.toLowerCase().endsWith(p.toLowerCase()));
    if (held === undefined || doubled.has(base)) continue;
    doubled.add(base);
    const { url: key, urlFlag } = groupSettings(op.group);
    const host = redact(base.slice(0, base.length - held.length) || base);
    diagnosis.push({
      level: 'hint',
      code: 'url_holds_service_path',
      message: redact(
        `the URL already ends in the service path: pass the host only `
          + `(${sourceOf(plan.target, key, urlFlag)} is ${base}, so ${op.name} is sent `
          + `to ${serviceUrlOf(plan.target, op, 'soap11')}): ${setAdvice(plan.target, key, urlFlag, host)}`,
      ),
    });
  }
  // The same fetch tells whether the WSDL matches the contract (drift): never a failure by itself.
  const sources = new Map(driftSources(plan.target, plan.operations).map((src) => [src.url, src]));
  const drifts = new Map<string, DriftService>();
  await Promise.all(
    [...byUrl].map(async ([url, op]) => {
      const ex = await transport.send({ method: 'GET', url: `${url}?WSDL`, headers: { accept: 'text/xml' } }, 0, url);
      // The target refused the run, or is down (transport/watch.ts): stopDiagnosis says it once, and no row is made
      // against an operation.
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
        const message = redact(
          plain
            ? `${host} does not answer TLS: the port answers plain HTTP: use http:// `
                + `(${url.replace(/^https:/, 'http:')})`
            : `${host} does not answer: ${ex.error.message.replace(/\s+/g, ' ').trim()}`,
        );
        diagnosis.push({
          level: 'error',
          message: `${message}: nothing can be tested there`,
          code: plain ? 'plain_http_port' : 'host_unreachable',
        });
        rows.push({
          operation: op.name,
          group: op.group,
          binding: bindingField(plan.bindings),
          case: PREFLIGHT_CASE,
          check: EXCHANGE_CHECK,
          status: 'failed',
          message,
          path: '/',
          reproduce: curlCommand(
            { method: 'GET', url: `${url}?WSDL`, headers: {} },
            '',
            undefined,
            plan.target.network,
          ),
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
          level: 'hint',
          code: 'wsdl_not_found',
          message: redact(
            `the WSDL at ${url}?WSDL is not there (HTTP ${ex.response.status}): check the host and the `
              + `service path (${sourceOf(plan.target, key, pathFlag)}: ${plan.target.paths[op.group].soap})`,
          ),
        };
        diagnosis.push(hint);
        missingWsdl.set(op.service, hint);
        return;
      }
      if (ex.response?.status !== 200) return;
      const declared = wsdlTargetNamespace(ex.response.body.subarray(0, 65_536).toString('utf8'));
      const configured = plan.target.namespaces[op.ns];
      if (declared !== undefined && declared !== configured) {
        diagnosis.push({
          level: 'hint',
          code: 'other_namespace',
          message: redact(
            `the WSDL at ${url}?WSDL declares targetNamespace ${declared}, `
              + `not ${configured}: ${nsAdvice(plan.target, op, declared)}`,
          ),
        });
      }
    }),
  );
  const services = [...byUrl.keys()].flatMap((u) => (drifts.has(u) ? [drifts.get(u)!] : []));
  // --fail-on-drift: a failed row per service whose WSDL breaks the contract, so the one verdict says so;
  // a skipped row per service whose WSDL could not be compared, so the run is UNTESTED (exit 5), as
  // `conformance drift` says of it: the gate asked for cannot have held (before, it exited 0).
  if (plan.failOnDrift) {
    for (const [url, op] of byUrl) {
      const d = drifts.get(url);
      if (d && d.status !== 'compared') {
        const message =
          `not tested: the WSDL at ${redact(url)}?WSDL could not be compared with the contract's `
          + `(${d.reason ?? d.status}), so --fail-on-drift `
          + `(or CONFORMANCE_FAIL_ON_DRIFT, config failOnDrift) could not hold: serve the WSDL there, `
          + `compare it where it is served (conformance drift --wsdl-url ${d.service}=URL), or run without `
          + `--fail-on-drift`;
        rows.push({
          operation: op.name,
          group: op.group,
          binding: bindingField(plan.bindings),
          case: PREFLIGHT_CASE,
          check: DRIFT_CHECK,
          status: 'skipped',
          message,
          path: '/',
          reproduce: curlCommand(
            { method: 'GET', url: `${url}?WSDL`, headers: {} },
            '',
            undefined,
            plan.target.network,
          ),
          findings: [],
        });
        continue;
      }
      if (!d || d.breaking === 0) continue;
      const breaking = d.differences.filter((x) => x.severity === 'breaking');
      const message =
        `the WSDL at ${redact(url)}?WSDL differs from the contract's: ${d.breaking} breaking `
        + `(--fail-on-drift; see drift.md)`;
      rows.push({
        operation: op.name,
        group: op.group,
        binding: bindingField(plan.bindings),
        case: PREFLIGHT_CASE,
        check: DRIFT_CHECK,
        status: 'failed',
        message,
        path: '/',
        reproduce: `conformance drift --wsdl-url ${d.service}=${redact(url)}?WSDL`,
        findings: breaking.map((x) => ({
          check: DRIFT_CHECK,
          code: 'wsdl_breaking_drift',
          path: x.where,
          message: `${x.message} [${x.rule}]`,
          ...(x.contract !== undefined ? { expected: x.contract } : {}),
          ...(x.target !== undefined ? { actual: x.target } : {}),
        })),
      });
    }
  }
  return {
    diagnosis,
    rows,
    ...(missingWsdl.size ? { missingWsdl } : {}),
    ...(services.length > 0 ? { drift: driftReportOf(services) } : {}),
  };
}

/**
 * The preflight's hints, once the operations have answered: a WSDL missing at a service path whose
 * valid calls reached the data path is a note (the service does not serve its WSDL there), not a
 * hint that the host or the path is wrong.
 */
export function settleWsdlHints(before: Preflight, reachedServices: ReadonlySet<string>): Diagnosis[] {
  const settled = new Map(
    [...(before.missingWsdl ?? [])]
      .filter(([service]) => reachedServices.has(service))
      .map(([service, d]) => [d, service]),
  );
  return before.diagnosis.map((d) => {
    const service = settled.get(d);
    if (service === undefined) return d;
    const url = /the WSDL at (\S+) is not there \(HTTP (\d+)\)/.exec(d.message);
    return {
      level: 'note',
      code: 'wsdl_not_served',
      message:
        `the WSDL${url ? ` at ${url[1]}` : ''} is not there${url ? ` (HTTP ${url[2]})` : ''}, but `
        + `the ${service} service answers at that path: it does not serve its WSDL there (nothing to change `
        + `in the settings)`,
    };
  });
}
