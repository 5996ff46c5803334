/**
 * Drift: the WSDLs a target serves against the contract's. Each distinct SOAP service URL of the
 * target (the operations' base URL + service path, as the run routes them) is asked for its WSDL
 * the ASMX way (`<service URL>?WSDL`, or a URL given per service), and compared by meaning with the
 * WSDL the contract gives for the operations served there (src/schema/wsdl.ts, the one the mock
 * serves). Used by `conformance drift` and by a run's preflight, which has fetched the WSDLs already.
 */
import { OPERATIONS, type Operation } from '../contract/catalogue.js';
import { serviceUrlOf, type Routing } from '../bindings/endpoint.js';
import { redactUserInfo } from '../core/redact.js';
import type { DriftReport, DriftService, Exchange } from '../core/types.js';
import { compareWsdl, driftCounts } from '../schema/wsdl-compare.js';
import { readWsdl } from '../schema/wsdl-read.js';
import { markupLimits, overLimit, scanMarkup } from '../xml/limits.js';
import { wsdlAtPath, wsdlServiceName } from '../schema/wsdl.js';
import type { Transport } from '../transport/client.js';

/** One service of the target whose WSDL drift compares: where it is, and the contract's WSDL for it. */
export interface DriftSource {
  /** The contract's name of the service (Booking, NonStaticXMLAPI, or the path's where groups share one). */
  readonly service: string;
  /** The SOAP service URL. */
  readonly url: string;
  /** Where its WSDL is fetched: `<url>?WSDL` unless given. */
  readonly wsdlUrl: string;
  /** The contract's WSDL of the operations served there; undefined where they mix namespaces. */
  readonly contract: string | undefined;
}

/** Routing with base URLs that may be missing (a group no URL was given for). */
export type DriftTarget = Omit<Routing, 'bookUrl' | 'searchUrl' | 'transfersUrl'> & {
  readonly bookUrl?: string;
  readonly searchUrl?: string;
  readonly transfersUrl?: string;
};

/** The target's SOAP service URL of an operation, or undefined where its group has no base URL. */
function soapUrl(target: DriftTarget, op: Operation): string | undefined {
  return target[op.group === 'booking' ? 'bookUrl' : op.group === 'transfers' ? 'transfersUrl' : 'searchUrl']
    ? serviceUrlOf(target as Routing, op, 'soap11')
    : undefined;
}

/**
 * The services drift compares: one per distinct SOAP service URL of `ops` (the run's operations),
 * each with the contract's WSDL of every catalogue operation served at that URL (a WSDL describes
 * its whole service, not only the operations a run names). `wsdlUrls` overrides where a service's
 * WSDL is fetched, by service name.
 */
export function driftSources(
  target: DriftTarget,
  ops: readonly Operation[],
  wsdlUrls: ReadonlyMap<string, string> = new Map(),
): DriftSource[] {
  const urls = [...new Set(ops.map((op) => soapUrl(target, op)).filter((u): u is string => u !== undefined))];
  return urls.map((url) => {
    const served = OPERATIONS.filter((op) => soapUrl(target, op) === url);
    const { origin, pathname } = new URL(url);
    const contract = wsdlAtPath(served, pathname, origin, target.namespaces, target.paths);
    const service = wsdlServiceName(served, pathname);
    return { service, url, wsdlUrl: wsdlUrls.get(service) ?? `${url}?WSDL`, contract };
  });
}

/** The largest WSDL text compared (characters). */
export const MAX_WSDL_CHARS = 8 * 1024 * 1024;

/** A service's WSDL text compared with the contract's: its differences, or why it could not be read. */
export function compareService(
  service: string,
  wsdl: string,
  against: string,
  contract: string | undefined,
  text: string,
): DriftService {
  const base = { service, wsdl: redactUserInfo(wsdl), against };
  if (contract === undefined)
    return {
      ...base,
      status: 'no_wsdl',
      reason: 'the contract gives no WSDL for operations of two namespaces at one path',
      breaking: 0,
      compatible: 0,
      differences: [],
    };
  // A WSDL of this contract is some 100 KB; a hostile target's 32 MB one is not worth its tree.
  if (text.length > MAX_WSDL_CHARS)
    return {
      ...base,
      status: 'no_wsdl',
      reason: `${text.length} characters: more than ${MAX_WSDL_CHARS} is not read as a WSDL`,
      breaking: 0,
      compatible: 0,
      differences: [],
    };
  // The very text of the contract's WSDL (the embedded mock serves it) means the same: not read again (a run's
  // preflight pays nothing).
  if (text === contract) return { ...base, status: 'compared', breaking: 0, compatible: 0, differences: [] };
  // The limits of every other reading of a target's XML, before the reader sees it (src/xml/limits.ts):
  // a hostile "WSDL" of 100,000 attributes or a million elements is no WSDL, and not worth its tree.
  const over = overLimit(scanMarkup(text), markupLimits(MAX_WSDL_CHARS));
  if (over)
    return {
      ...base,
      status: 'no_wsdl',
      reason: `beyond the harness's limits: ${over.slice(0, 300)}`,
      breaking: 0,
      compatible: 0,
      differences: [],
    };
  let model;
  try {
    model = readWsdl(text);
  } catch (e) {
    return {
      ...base,
      status: 'no_wsdl',
      reason: `not a WSDL: ${(e as Error).message.slice(0, 300)}`,
      breaking: 0,
      compatible: 0,
      differences: [],
    };
  }
  const differences = compareWsdl(contract, model);
  return { ...base, status: 'compared', ...driftCounts(differences), differences };
}

/** A service's WSDL as fetched: compared, or why it was not. */
export function driftOfExchange(src: DriftSource, ex: Exchange): DriftService {
  const base = {
    service: src.service,
    wsdl: redactUserInfo(src.wsdlUrl),
    against: 'the contract',
    breaking: 0,
    compatible: 0,
    differences: [],
  };
  if (ex.error || !ex.response)
    return {
      ...base,
      status: 'unreachable',
      reason: redactUserInfo(`${ex.error?.code ?? 'no response'}: ${ex.error?.message ?? ''}`.trim()),
    };
  if (ex.response.status !== 200) return { ...base, status: 'no_wsdl', reason: `HTTP ${ex.response.status}` };
  return compareService(src.service, src.wsdlUrl, 'the contract', src.contract, ex.response.body.toString('utf8'));
}

/** Fetch each source's WSDL (GET, once each) and compare it. */
export async function fetchDrift(sources: readonly DriftSource[], transport: Transport): Promise<DriftReport> {
  const services = await Promise.all(
    sources.map(async (src) => {
      const ex = await transport.send({ method: 'GET', url: src.wsdlUrl, headers: { accept: 'text/xml' } }, 0, src.url);
      return driftOfExchange(src, ex);
    }),
  );
  return driftReportOf(services);
}

/** The report of the services compared, its verdict from them. */
export function driftReportOf(services: readonly DriftService[]): DriftReport {
  const breaking = services.reduce((n, s) => n + s.breaking, 0);
  const compatible = services.reduce((n, s) => n + s.compatible, 0);
  const compared = services.filter((s) => s.status === 'compared').length;
  const verdict: DriftReport['verdict'] =
    compared === 0
      ? services.length > 0 && services.every((s) => s.status === 'unreachable')
        ? 'unreachable'
        : 'not_fetched'
      : breaking > 0
        ? 'breaking'
        : compared < services.length
          ? 'not_fetched'
          : compatible > 0
            ? 'compatible'
            : 'match';
  return { verdict, breaking, compatible, services };
}

/**
 * Exit codes of `conformance drift`: 0 match or compatible, 1 breaking, 4 unreachable, 5 a WSDL not had from an
 * answering target.
 */
export function driftExitCode(r: DriftReport): number {
  return r.verdict === 'breaking' ? 1 : r.verdict === 'unreachable' ? 4 : r.verdict === 'not_fetched' ? 5 : 0;
}
