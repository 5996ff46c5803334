/**
 * The conformance run: for every operation × request case, send the request on every selected
 * binding (concurrently, through the transport's limits), run the checks on each exchange, compare
 * the bindings' results, and turn everything into redacted result rows.
 */
import { binding as bindingModule } from '../bindings/index.js';
import type { Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { CheckContext, type CaseKind, type DocumentValidator } from '../checks/context.js';
import type { Check, CheckOutcome } from '../checks/types.js';
import { runChecks } from '../checks/registry.js';
import { makeRedactor, REDACTED, type Redactor } from '../core/redact.js';
import type { Exchange, Finding, ResultRow, RunReport, Target } from '../core/types.js';
import { compareBindings, EQUIVALENCE_CHECK } from '../equivalence/compare.js';
export { EQUIVALENCE_CHECK };
import { curlCommand } from '../transport/curl.js';
import type { Transport } from '../transport/client.js';
import type { CaseTable, RequestCase } from './cases.js';

/** A password no real account has: the wrong-credentials case sends it. */
export const WRONG_PASSWORD = 'conformance-wrong-password-7f3a';
export const WRONG_CREDENTIALS_CASE = 'wrong-credentials';
/** Row check name for the exchange itself (a response was received at all). */
export const EXCHANGE_CHECK = 'http_exchange';
/** Row check name of a unit that did not run at all (mutation guard). */
export const NOT_RUN_CHECK = 'all';

export interface RunPlan {
  readonly target: Target;
  readonly bindings: readonly BindingId[];
  readonly operations: readonly Operation[];
  readonly cases: CaseTable;
  readonly allowMutations: boolean;
  /** Checks to run on each exchange (already selected by name). */
  readonly checks: readonly Check[];
  /** Send the wrong-credentials case per operation. */
  readonly negative: boolean;
  /** Compare the bindings' results per case. */
  readonly equivalence: boolean;
}

export interface EngineDeps {
  readonly transport: Transport;
  readonly validator: DocumentValidator;
  readonly onProgress?: (done: number, total: number, unit: string) => void;
}

/** One operation × case, sent on every selected binding. */
export interface Unit {
  readonly op: Operation;
  readonly caseId: string;
  readonly kind: CaseKind;
  readonly params: Params;
  readonly description?: string;
}

/** The units of a plan, in catalogue order: the valid cases, then the negative case per operation. */
export function planUnits(plan: RunPlan): Unit[] {
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const cases: readonly RequestCase[] = plan.cases.get(op.name) ?? [];
    for (const c of cases) {
      units.push({ op, caseId: c.id, kind: 'valid', params: { ...c.params, userName: plan.target.user, password: plan.target.password }, description: c.description });
    }
    if (plan.negative && cases[0]) {
      units.push({
        op, caseId: WRONG_CREDENTIALS_CASE, kind: 'wrong-credentials',
        params: { ...cases[0].params, userName: plan.target.user, password: WRONG_PASSWORD },
        description: 'a valid call with a wrong password: no binding may answer with data',
      });
    }
  }
  return units;
}

/** Why a unit is not sent, or undefined when it runs. */
export function skipReason(plan: RunPlan, op: Operation): string | undefined {
  if (op.mutates && !plan.target.embedded && !plan.allowMutations) {
    return `${op.name} changes state on the target: not called without --allow-mutations`;
  }
  return undefined;
}

const EXCERPT_BYTES = 4096;

function excerpt(text: string): string {
  return text.length > EXCERPT_BYTES ? `${text.slice(0, EXCERPT_BYTES)}\n… (${text.length - EXCERPT_BYTES} more characters)` : text;
}

/** The request as text: request line, headers, body. */
export function requestText(ex: Exchange): string {
  const r = ex.request;
  const u = new URL(r.url);
  const head = [`${r.method} ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
  return excerpt(`${head.join('\n')}\n\n${r.body ?? ''}`);
}

/** The response as text: status line, headers, body (or the transport error). */
export function responseText(ex: Exchange): string {
  if (!ex.response) return `(no response: ${ex.error?.code}: ${ex.error?.message})`;
  const r = ex.response;
  const head = [`HTTP/1.1 ${r.status}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
  return excerpt(`${head.join('\n')}\n\n${r.body.toString('utf8')}`);
}

interface RowBase {
  readonly op: Operation;
  readonly binding: string;
  readonly caseId: string;
  readonly reproduce: string;
  readonly exchange?: Exchange;
}

function rowFrom(base: RowBase, check: string, outcome: CheckOutcome, durationMs?: number): ResultRow {
  const common = {
    operation: base.op.name, group: base.op.group, binding: base.binding, case: base.caseId, check,
    reproduce: base.reproduce, ...(durationMs !== undefined ? { durationMs } : {}),
  };
  if (!Array.isArray(outcome)) return { ...common, status: 'skipped', message: outcome.skipped, path: '', findings: [] };
  if (outcome.length === 0) return { ...common, status: 'passed', message: '', path: '', findings: [] };
  const first = outcome[0]!;
  return {
    ...common,
    status: 'failed',
    message: outcome.length > 1 ? `${first.message} (+${outcome.length - 1} more)` : first.message,
    path: first.path,
    findings: outcome,
    ...(base.exchange ? { request: requestText(base.exchange), response: responseText(base.exchange) } : {}),
  };
}

function redactRow(row: ResultRow, redact: Redactor): ResultRow {
  const f = (x: Finding): Finding => ({
    ...x, message: redact(x.message), path: redact(x.path),
    ...(x.expected !== undefined ? { expected: redact(x.expected) } : {}),
    ...(x.actual !== undefined ? { actual: redact(x.actual) } : {}),
  });
  return {
    ...row,
    message: redact(row.message),
    path: redact(row.path),
    findings: row.findings.map(f),
    ...(row.request !== undefined ? { request: redact(row.request) } : {}),
    ...(row.response !== undefined ? { response: redact(row.response) } : {}),
  };
}

/** Execute one unit on every selected binding and produce its rows (unredacted). */
export async function runUnit(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  const { op } = unit;
  const ns = plan.target.namespaces[op.ns];
  const baseUrl = op.group === 'booking' ? plan.target.bookUrl : op.group === 'transfers' ? plan.target.transfersUrl : plan.target.searchUrl;
  const requests = plan.bindings.map((b) => ({ b, req: bindingModule(b).encodeRequest(op, unit.params, baseUrl, ns) }));
  const reproduce = (req: Parameters<typeof curlCommand>[0]) => curlCommand(req, unit.kind === 'valid' ? plan.target.password : '');

  const skip = skipReason(plan, op);
  if (skip) {
    return requests.map(({ b, req }) => rowFrom({ op, binding: b, caseId: unit.caseId, reproduce: reproduce(req) }, NOT_RUN_CHECK, { skipped: skip }));
  }

  const retries = op.mutates ? 0 : 2;
  const exchanges = await Promise.all(requests.map(async ({ b, req }) => ({ b, ex: await deps.transport.send(req, retries) })));
  const rows: ResultRow[] = [];
  const contexts = new Map<BindingId, CheckContext>();
  for (const { b, ex } of exchanges) {
    const base: RowBase = { op, binding: b, caseId: unit.caseId, reproduce: reproduce(ex.request), exchange: ex };
    if (ex.error || !ex.response) {
      rows.push(rowFrom(base, EXCHANGE_CHECK, [{ check: EXCHANGE_CHECK, path: '/', message: `no response: ${ex.error?.code}: ${ex.error?.message}` }]));
      continue;
    }
    rows.push(rowFrom(base, EXCHANGE_CHECK, [], ex.response.elapsedMs));
    const ctx = new CheckContext({ op, binding: b, caseId: unit.caseId, caseKind: unit.kind, namespaces: plan.target.namespaces, exchange: ex, validator: deps.validator });
    contexts.set(b, ctx);
    for (const r of runChecks(ctx, plan.checks)) rows.push(rowFrom(base, r.check.name, r.outcome));
  }
  if (plan.equivalence && plan.bindings.length > 1) {
    for (const eq of compareBindings(op, unit.kind, plan.bindings, contexts)) {
      const ex = exchanges.find((e) => e.b === eq.binding)?.ex;
      rows.push(rowFrom({ op, binding: eq.binding ?? plan.bindings.join(','), caseId: unit.caseId, reproduce: ex ? reproduce(ex.request) : '', exchange: ex },
        EQUIVALENCE_CHECK, eq.outcome));
    }
  }
  return rows;
}

/** Summary counts of rows. */
export function summarise(rows: readonly ResultRow[]): RunReport['summary'] {
  const s = { passed: 0, failed: 0, skipped: 0, known: 0, total: rows.length };
  for (const r of rows) s[r.status]++;
  return s;
}

/** Run one unit and redact its rows (the form suites and reports use). */
export async function runUnitRedacted(plan: RunPlan, deps: EngineDeps, unit: Unit, redact: Redactor): Promise<ResultRow[]> {
  return (await runUnit(plan, deps, unit)).map((r) => redactRow(r, redact));
}

/** Run a whole plan and build the (redacted) report. */
export async function runConformance(plan: RunPlan, deps: EngineDeps, version = '0.1.0'): Promise<RunReport> {
  const started = Date.now();
  const units = planUnits(plan);
  const redact = makeRedactor([plan.target.password]);
  let done = 0;
  const perUnit = await Promise.all(units.map(async (u) => {
    const rows = await runUnitRedacted(plan, deps, u, redact);
    deps.onProgress?.(++done, units.length, `${u.op.name} ${u.caseId}`);
    return rows;
  }));
  const results = perUnit.flat();
  const t = plan.target;
  return {
    tool: { name: 'accommodation-conformance', version },
    target: {
      bookUrl: redact(t.bookUrl), searchUrl: redact(t.searchUrl), transfersUrl: redact(t.transfersUrl), namespaces: t.namespaces,
      user: t.user, password: t.password ? REDACTED : '', embedded: t.embedded,
    },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    bindings: plan.bindings,
    operations: plan.operations.map((o) => o.name),
    summary: summarise(results),
    results,
  };
}
