/**
 * What a run concludes about the target as a whole, before any single finding: the preflight (each
 * distinct host asked once for its WSDL before the matrix: is it reachable at all, and which
 * namespace does it declare) and the reading of the finished units (did any valid call return its
 * result element; does the target use another namespace; was every operation the user named
 * called). A gate must be green only when something was tested, and red in a way that says why.
 */
import { serviceUrlOf } from '../bindings/endpoint.js';
import type { Operation } from '../contract/catalogue.js';
import { bindingField, EXCHANGE_CHECK, NOT_RUN_CHECK, notCalledReason, PREFLIGHT_CASE } from '../core/rows.js';
import type { Diagnosis, ResultRow } from '../core/types.js';
import { redactUserInfo } from '../core/redact.js';
import { hostOf, type Transport } from '../transport/client.js';
import { curlCommand } from '../transport/curl.js';
import type { RunPlan, Unit } from './plan.js';

/**
 * Transport failures that say nothing answers at that address. A time-out is not one of them: a
 * slow host may still answer the matrix (and one that stops answering is given up on then).
 */
const UNREACHABLE: ReadonlySet<string> = new Set(['connection_refused', 'unknown_host', 'tls_error']);

/** The flag naming the namespace of an operation's group. */
function nsFlag(op: Pick<Operation, 'ns'>): string {
  return op.ns === 'book' ? '--book-ns' : '--search-ns';
}

/** targetNamespace of a WSDL's definitions element, read from its first 64 KB (no DTD, nothing fetched). */
export function wsdlTargetNamespace(text: string): string | undefined {
  const defs = /<(?:[A-Za-z_][\w.-]*:)?definitions\b[^>]*>/.exec(text.slice(0, 65_536))?.[0];
  return defs ? /\btargetNamespace\s*=\s*(["'])([^"']*)\1/.exec(defs)?.[2] : undefined;
}

/** What the preflight found: conclusions, and one failed row per host that does not answer at all (nothing more is sent there). */
export interface Preflight {
  readonly diagnosis: Diagnosis[];
  readonly rows: ResultRow[];
}

/**
 * Ask each distinct service of the plan for its WSDL, once, before the matrix: a host that does not
 * answer at all is reported once (not once per exchange) and given up on; a WSDL whose
 * targetNamespace differs from the configured one gives the flag to pass.
 */
export async function preflight(plan: Pick<RunPlan, 'target' | 'operations' | 'bindings'>, transport: Transport): Promise<Preflight> {
  // What is written here is the harness's own text about the target's addresses: only URL user-info can hold a secret.
  const redact = redactUserInfo;
  const byUrl = new Map<string, Operation>();
  for (const op of plan.operations) {
    const url = serviceUrlOf(plan.target, op, 'soap11');
    if (!byUrl.has(url)) byUrl.set(url, op);
  }
  const diagnosis: Diagnosis[] = [];
  const rows: ResultRow[] = [];
  const down = new Set<string>();
  await Promise.all([...byUrl].map(async ([url, op]) => {
    const ex = await transport.send({ method: 'GET', url: `${url}?WSDL`, headers: { accept: 'text/xml' } }, 0, url);
    const host = hostOf(url);
    if (ex.error && UNREACHABLE.has(ex.error.code)) {
      transport.giveUp(url, redact(`${url} is unreachable at the preflight (${ex.error.code}): ${ex.error.message}`));
      if (down.has(host)) return;
      down.add(host);
      const message = redact(`${host} does not answer: ${ex.error.message}`);
      diagnosis.push({ level: 'error', message: `${message}: nothing can be tested there` });
      rows.push({
        operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: PREFLIGHT_CASE, check: EXCHANGE_CHECK, status: 'failed',
        message, path: '/', reproduce: curlCommand({ method: 'GET', url: `${url}?WSDL`, headers: {} }, ''),
        findings: [{ check: EXCHANGE_CHECK, code: 'host_unreachable', path: '/', message }],
      });
      return;
    }
    if (ex.response?.status !== 200) return;
    const declared = wsdlTargetNamespace(ex.response.body.subarray(0, 65_536).toString('utf8'));
    const configured = plan.target.namespaces[op.ns];
    if (declared !== undefined && declared !== configured) {
      diagnosis.push({ level: 'hint', message: redact(`the WSDL at ${url}?WSDL declares targetNamespace ${declared}, not ${configured}: pass ${nsFlag(op)} ${declared}`) });
    }
  }));
  return { diagnosis, rows };
}

/** The checks that judge a rejection: a pass means the target refused what it had to. */
const REJECTION_CHECKS: ReadonlySet<string> = new Set(['credentials_rejected', 'bad_request_rejected']);

/** `{ns}local` of a finding's actual value. */
function clarkParts(actual: string | undefined): { ns: string; local: string } | undefined {
  const m = actual ? /^\{([^}]*)\}(.+)$/.exec(actual) : null;
  return m ? { ns: m[1]!, local: m[2]! } : undefined;
}

/**
 * Read the finished units: per service, whether any valid call returned its result element (a target
 * that never does is not this service: its rejections prove nothing and are not counted as passed);
 * the namespace the target really uses where results came in another one; and, when the user named
 * the operations, each one that got no exchange at all, as a failed row saying why.
 */
export function diagnoseUnits(plan: Pick<RunPlan, 'target' | 'bindings' | 'operations' | 'operationsNamed'>, units: readonly Unit[], perUnit: ResultRow[][]): { diagnosis: Diagnosis[]; rows: ResultRow[] } {
  const diagnosis: Diagnosis[] = [];
  const rows: ResultRow[] = [];
  const services = new Map<string, { valid: ResultRow[]; negative: number[]; url: string }>();
  units.forEach((u, i) => {
    const key = u.op.service;
    const s = services.get(key) ?? { valid: [], negative: [], url: serviceUrlOf(plan.target, u.op, 'soap11') };
    services.set(key, s);
    if (u.kind === 'valid') s.valid.push(...(perUnit[i] ?? []));
    else s.negative.push(i);
  });
  const hinted = new Set<string>();
  for (const [service, s] of services) {
    const judged = s.valid.filter((r) => r.check === 'result_element' && (r.status === 'passed' || r.status === 'failed' || r.status === 'known'));
    const answered = s.valid.some((r) => r.check === EXCHANGE_CHECK && r.status === 'passed');
    for (const r of judged) {
      for (const f of r.findings) {
        const seen = clarkParts(f.actual);
        const op = plan.operations.find((o) => o.name === r.operation);
        if (!seen || !op || seen.ns === plan.target.namespaces[op.ns] || !/_mismatch$/.test(f.code) || hinted.has(`${op.ns}\u0000${seen.ns}`)) continue;
        hinted.add(`${op.ns}\u0000${seen.ns}`);
        diagnosis.push({ level: 'hint', message: `the target answers ${r.operation} with ${seen.local} in namespace ${seen.ns || '(none)'}, not ${plan.target.namespaces[op.ns]}: pass ${nsFlag(op)} ${seen.ns}` });
      }
    }
    if (!answered || judged.length === 0 || judged.some((r) => r.status !== 'failed')) continue;
    const first = judged[0]!;
    diagnosis.push({
      level: 'error',
      message: `the target at ${s.url} does not answer like this service: no valid call of the ${service} service returned its result element `
        + `(${judged.length} tried; for example ${first.operation} [${first.binding}] ${first.case}: ${first.message.slice(0, 300)})`,
    });
    for (const i of s.negative) {
      perUnit[i] = (perUnit[i] ?? []).map((r) => (r.status !== 'passed' || !REJECTION_CHECKS.has(r.check) ? r : {
        ...r, status: 'skipped', message: 'not judged: the target does not answer like this service (see the diagnosis), so its rejection proves nothing',
      }));
    }
  }
  if (plan.operationsNamed) {
    for (const op of plan.operations) {
      const reason = notCalledReason(op.name, units.flatMap((u, i) => (u.op === op ? perUnit[i] ?? [] : [])));
      if (reason === undefined) continue;
      const message = `${op.name} was named in --operations but never called: ${reason}`;
      diagnosis.push({ level: 'error', message });
      rows.push({
        operation: op.name, group: op.group, binding: bindingField(plan.bindings), case: '*', check: NOT_RUN_CHECK, status: 'failed',
        message, path: '/', reproduce: '', findings: [{ check: NOT_RUN_CHECK, code: 'operation_not_called', path: '/', message }],
      });
    }
  }
  return { diagnosis, rows };
}

/** True when exchanges were tried and not one got a response: nothing about the target was tested. */
export function nothingAnswered(rows: readonly ResultRow[]): boolean {
  const exchanges = rows.filter((r) => r.check === EXCHANGE_CHECK);
  return exchanges.some((r) => r.status === 'failed') && !exchanges.some((r) => r.status === 'passed');
}

