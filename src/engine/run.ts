/**
 * The conformance run: for every operation × request case, send the request on every selected
 * binding (concurrently, through the transport's limits), run the checks on each exchange, compare
 * the bindings' results, and turn everything into redacted result rows.
 *
 * Bounded whatever the target sends: each exchange is checked as it arrives, one at a time in the
 * whole process (one document's tree in memory), with the event loop given a turn between checks
 * and libxml2 on large documents in a process of its own; its tree is dropped once checked, and
 * the comparison of bindings keeps digests (entries are read again only where digests differ). No
 * check starts after the deadline: what was not run is reported as such. Units run a few at a time
 * (about the transport's concurrency in requests), so bodies held wait for their unit's comparison
 * in bounded number.
 */
import { requestFor } from '../bindings/endpoint.js';
import { binding as bindingModule } from '../bindings/index.js';
import type { Params } from '../bindings/types.js';
import type { BindingId, Operation } from '../contract/catalogue.js';
import { CheckContext, type CaseKind, type DocumentValidator } from '../checks/context.js';
import type { Check, CheckOutcome } from '../checks/types.js';
import { runChecksAsync, yieldToLoop } from '../checks/registry.js';
import { makeRedactor, REDACTED, type Redactor } from '../core/redact.js';
import type { Exchange, Finding, ResultRow, RunReport, Target } from '../core/types.js';
import { compareViews, detachedView, EQUIVALENCE_CHECK, type BindingView } from '../equivalence/compare.js';
import { checkBudgetMs } from '../xml/limits.js';
import { collectGarbage } from '../core/memory.js';
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
  /** Only these bindings (e.g. the SOAPAction case is SOAP 1.1's); all selected ones when absent. */
  readonly only?: readonly BindingId[];
  /** Headers replacing the binding's own (the wrong-SOAPAction case). */
  readonly headers?: Record<string, string>;
}

/** Name of the operation the unknown-operation case asks for. */
export const UNKNOWN_OPERATION = 'NoSuchOperation';

/** A stand-in operation the service does not have, on the path and namespace of `like`. */
function unknownOperation(like: Operation): Operation {
  return { ...like, name: UNKNOWN_OPERATION, params: like.params.filter((p) => p.name === 'userName' || p.name === 'password'),
    resultElement: 'noSuchOperationResult', mutates: false, source: 'negative case: an operation the service does not have' };
}

/** Unparsable values per parameter type. */
const UNPARSABLE: Partial<Record<string, string>> = { int: 'not-a-number', dateTime: 'not-a-date', decimal: 'not-a-decimal' };

/** The units of a plan, in catalogue order: the valid cases, then the negative case per operation. */
export function planUnits(plan: RunPlan): Unit[] {
  const units: Unit[] = [];
  for (const op of plan.operations) {
    const cases: readonly RequestCase[] = plan.cases.get(op.name) ?? [];
    for (const c of cases) {
      units.push({ op, caseId: c.id, kind: 'valid', params: { ...c.params, userName: plan.target.user, password: plan.target.password }, description: c.description });
    }
    const first = cases[0];
    if (!plan.negative || !first) continue;
    const params = { ...first.params, userName: plan.target.user, password: plan.target.password };
    units.push({
      op, caseId: WRONG_CREDENTIALS_CASE, kind: 'wrong-credentials',
      params: { ...params, password: WRONG_PASSWORD },
      description: 'a valid call with a wrong password: no binding may answer with data',
    });
    const typed = op.params.find((p) => p.required && p.type !== 'string');
    if (typed) {
      const rest: Record<string, string> = { ...params };
      delete rest[typed.name];
      units.push({ op, caseId: `missing-${typed.name}`, kind: 'missing-param', params: rest, description: `the required ${typed.type} parameter ${typed.name} left out` });
    }
    const parsed = op.params.find((p) => p.type === 'int' || p.type === 'dateTime');
    if (parsed) {
      units.push({ op, caseId: `unparsable-${parsed.name}`, kind: 'bad-param', params: { ...params, [parsed.name]: UNPARSABLE[parsed.type]! },
        description: `${parsed.name} (${parsed.type}) sent as "${UNPARSABLE[parsed.type]}"` });
    }
    // A binding that routes on a header (SOAP 1.1's SOAPAction) is probed with one naming another
    // operation. An ASMX service dispatches on it: it must never name an operation that changes
    // state, or the probe could perform it.
    const other = plan.operations.find((o) => o.service === op.service && o !== op && !o.mutates);
    const routedTo = other?.name ?? UNKNOWN_OPERATION;
    for (const b of plan.bindings) {
      const probe = bindingModule(b).misroutedProbe?.(routedTo, plan.target.namespaces[op.ns]);
      if (!probe) continue;
      units.push({
        op, caseId: 'wrong-soapaction', kind: 'wrong-soapaction', params, only: [b],
        headers: probe.headers, description: probe.description,
      });
    }
  }
  if (plan.negative) {
    for (const service of [...new Set(plan.operations.map((o) => o.service))]) {
      const like = plan.operations.find((o) => o.service === service && !o.mutates) ?? plan.operations.find((o) => o.service === service)!;
      units.push({
        op: unknownOperation(like), caseId: `unknown-operation-${service}`, kind: 'unknown-operation',
        params: { userName: plan.target.user, password: plan.target.password }, description: `${UNKNOWN_OPERATION} on the ${service} service`,
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
/** Wider first cut: bounds the redaction work on a large body and keeps a secret at the boundary whole. */
const EXCERPT_MARGIN = 4096;

/**
 * The start of a text, redacted before it is cut so no secret is left half-cut at the boundary.
 * `more` counts what follows the text given (a body is decoded only as far as an excerpt needs).
 */
function excerpt(text: string, redact: Redactor, more = 0, unit = 'characters'): string {
  const head = redact(text.length > EXCERPT_BYTES + EXCERPT_MARGIN ? text.slice(0, EXCERPT_BYTES + EXCERPT_MARGIN) : text);
  if (head.length <= EXCERPT_BYTES && more === 0) return head;
  const left = more > 0 ? `${more + Math.max(0, text.length - EXCERPT_BYTES)} more ${unit}` : `${text.length - EXCERPT_BYTES} more characters`;
  return `${head.slice(0, EXCERPT_BYTES)}\n… (${left})`;
}

/** The request as text: request line, headers, body. */
export function requestText(ex: Exchange, redact: Redactor): string {
  const r = ex.request;
  const u = new URL(r.url);
  const head = [`${r.method} ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
  return excerpt(`${head.join('\n')}\n\n${r.body ?? ''}`, redact);
}

/** The response as text: status line, headers, body (or the transport error). */
export function responseText(ex: Exchange, redact: Redactor): string {
  if (!ex.response) return `(no response: ${ex.error?.code}: ${ex.error?.message})`;
  const r = ex.response;
  const head = [`HTTP/1.1 ${r.status}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
  // Only the start of a large body is decoded: an excerpt never needs more.
  const take = EXCERPT_BYTES + EXCERPT_MARGIN;
  const shown = r.body.length > take ? r.body.subarray(0, take) : r.body;
  return excerpt(`${head.join('\n')}\n\n${shown.toString('utf8')}`, redact, r.body.length - shown.length, 'bytes of the body');
}

interface RowBase {
  readonly op: Operation;
  readonly binding: string;
  readonly caseId: string;
  readonly reproduce: string;
  /** The exchange's request and response excerpts, redacted (failed rows carry them). */
  readonly excerpts?: { readonly request: string; readonly response: string };
}

/** Longest row or finding message kept; longer ones are cut (a value quoted in full could be 30 MB). */
export const MAX_MESSAGE_CHARS = 2000;
/** Longest path, expected or actual value of a finding kept. */
export const MAX_VALUE_CHARS = 1000;

/** Text cut to `max` characters with a note of what was left out (never splitting a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString('en-US')} more characters)`;
}

function clipFinding(f: Finding): Finding {
  return {
    ...f, path: clip(f.path, MAX_VALUE_CHARS), message: clip(f.message, MAX_MESSAGE_CHARS),
    ...(f.expected !== undefined ? { expected: clip(f.expected, MAX_VALUE_CHARS) } : {}),
    ...(f.actual !== undefined ? { actual: clip(f.actual, MAX_VALUE_CHARS) } : {}),
  };
}

function rowFrom(base: RowBase, check: string, outcome: CheckOutcome, durationMs?: number): ResultRow {
  const common = {
    operation: base.op.name, group: base.op.group, binding: base.binding, case: base.caseId, check,
    reproduce: base.reproduce, ...(durationMs !== undefined ? { durationMs } : {}),
  };
  if ('note' in outcome) return { ...common, status: 'passed', message: clip(outcome.note, MAX_MESSAGE_CHARS), path: '', findings: [] };
  if (!Array.isArray(outcome)) {
    return {
      ...common, status: 'skipped', message: clip(outcome.skipped, MAX_MESSAGE_CHARS), path: '', findings: [],
      ...(outcome.inBandError ? { inBandError: { type: clip(outcome.inBandError.type, MAX_MESSAGE_CHARS), message: clip(outcome.inBandError.message, MAX_MESSAGE_CHARS) } } : {}),
    };
  }
  if (outcome.length === 0) return { ...common, status: 'passed', message: '', path: '', findings: [] };
  const findings = outcome.map(clipFinding);
  const first = findings[0]!;
  return {
    ...common,
    status: 'failed',
    message: findings.length > 1 ? `${first.message} (+${findings.length - 1} more)` : first.message,
    path: first.path,
    findings,
    ...(base.excerpts ?? {}),
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
    reproduce: redact(row.reproduce),
    findings: row.findings.map(f),
    ...(row.inBandError !== undefined ? { inBandError: { type: redact(row.inBandError.type), message: redact(row.inBandError.message) } } : {}),
    ...(row.request !== undefined ? { request: redact(row.request) } : {}),
    ...(row.response !== undefined ? { response: redact(row.response) } : {}),
  };
}

let cachedRedactor: { password: string; redact: Redactor } | undefined;
/** The redactor of a password, built once per run. */
function redactorFor(password: string): Redactor {
  if (cachedRedactor?.password !== password) cachedRedactor = { password, redact: makeRedactor([password]) };
  return cachedRedactor.redact;
}

/** Exchanges are checked one at a time in the whole process: one document's tree in memory at once. */
let checking: Promise<unknown> = Promise.resolve();
function inTurn<T>(f: () => Promise<T>): Promise<T> {
  const turn = checking.then(f);
  checking = turn.catch(() => undefined);
  return turn;
}

const deadlineSignals = new Map<number, AbortSignal>();
/** A signal that aborts at the deadline (one per deadline; its timer never keeps the process alive). */
function signalAt(deadline: number): AbortSignal {
  let s = deadlineSignals.get(deadline);
  if (!s) {
    const c = new AbortController();
    setTimeout(() => c.abort(new Error('the run\'s deadline passed')), Math.max(0, deadline - Date.now())).unref();
    if (deadlineSignals.size > 16) deadlineSignals.clear();
    deadlineSignals.set(deadline, (s = c.signal));
  }
  return s;
}

const DEADLINE_PASSED = 'the run\'s deadline passed';

/** What checking one exchange leaves: its rows, and what the comparison of bindings needs (no tree). */
interface Checked {
  readonly rows: ResultRow[];
  readonly view?: BindingView;
  /** Why the exchange has no view though it has a response (the deadline). */
  readonly unviewed?: string;
}

/** Check one exchange: its rows, and a view for the comparison when `compare` is set. */
async function checkExchange(plan: RunPlan, deps: EngineDeps, unit: Unit, b: BindingId, ex: Exchange, reproduce: string, compare: boolean): Promise<Checked> {
  const { op } = unit;
  const redact = redactorFor(plan.target.password);
  if (ex.error || !ex.response) {
    const base: RowBase = { op, binding: b, caseId: unit.caseId, reproduce, excerpts: { request: requestText(ex, redact), response: responseText(ex, redact) } };
    return { rows: [rowFrom(base, EXCHANGE_CHECK, [{ check: EXCHANGE_CHECK, path: '/', message: `no response: ${ex.error?.code}: ${ex.error?.message}` }])] };
  }
  const excerpts = { request: requestText(ex, redact), response: responseText(ex, redact) };
  const base: RowBase = { op, binding: b, caseId: unit.caseId, reproduce, excerpts };
  // Every exchange is recorded once, on its http_exchange row (redacted with the rest of the row).
  const rows: ResultRow[] = [{ ...rowFrom(base, EXCHANGE_CHECK, [], ex.response.elapsedMs), ...excerpts }];
  const deadline = deps.transport.options.deadline;
  const passed = () => deadline !== undefined && Date.now() >= deadline;
  if (passed()) {
    rows.push(rowFrom(base, NOT_RUN_CHECK, { skipped: `not checked: ${DEADLINE_PASSED} before this exchange's turn` }));
    return { rows, unviewed: DEADLINE_PASSED };
  }
  const init = { op, binding: b, caseId: unit.caseId, caseKind: unit.kind, namespaces: plan.target.namespaces, exchange: ex, validator: deps.validator };
  const bytes = ex.response.body.length;
  const budgetMs = checkBudgetMs(bytes);
  // In turn: one document at a time, its libxml2 reading (in the validator process when large,
  // the event loop free meanwhile) and then its checks. Reading the next document while this one is
  // checked was tried: the two processes' garbage collectors then slowed each other down by half.
  return inTurn(async () => {
    let ctx: CheckContext | undefined = new CheckContext(init);
    await ctx.prepare({ budgetMs, ...(deadline !== undefined ? { signal: signalAt(deadline) } : {}) });
    const { runs, notRun } = await runChecksAsync(ctx!, plan.checks, { ...(deadline !== undefined ? { deadline } : {}), budgetMs });
    for (const r of runs) rows.push(rowFrom(base, r.check.name, r.outcome));
    if (notRun.length > 0) rows.push(rowFrom(base, NOT_RUN_CHECK, { skipped: `not run: ${DEADLINE_PASSED} before ${notRun.join(', ')}` }));
    // Acceptance and digests now, while the tree lives; entries later only if digests differ.
    const view = compare && !passed() ? detachedView(op, ctx!, () => new CheckContext(init)) : undefined;
    ctx = undefined;
    // The tree of a large document is garbage now: collect it before the next one is built, so
    // what the process holds stays one document's worth (V8 would let garbage pile up first).
    if (bytes > LARGE_DOCUMENT) collectGarbage();
    await yieldToLoop();
    if (!compare) return { rows };
    return view ? { rows, view } : { rows, unviewed: DEADLINE_PASSED };
  });
}

/** Bytes from which a document's tree is collected as soon as it is checked. */
const LARGE_DOCUMENT = 1024 * 1024;

/** Execute one unit on every selected binding and produce its rows (excerpts redacted; the rest by runUnitRedacted). */
export async function runUnit(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  const { op } = unit;
  const redact = redactorFor(plan.target.password);
  const requests = plan.bindings.filter((b) => !unit.only || unit.only.includes(b)).map((b) => {
    const req = requestFor(plan.target, op, b, unit.params);
    return { b, req: unit.headers ? { ...req, headers: unit.headers } : req };
  });
  const reproduce = (req: Parameters<typeof curlCommand>[0]) => curlCommand(req, unit.kind === 'wrong-credentials' ? '' : plan.target.password);

  const skip = skipReason(plan, op);
  if (skip) {
    return requests.map(({ b, req }) => rowFrom({ op, binding: b, caseId: unit.caseId, reproduce: reproduce(req) }, NOT_RUN_CHECK, { skipped: skip }));
  }

  const retries = op.mutates ? 0 : 2;
  const sent = requests.map((r) => r.b);
  const compare = plan.equivalence && sent.length > 1;
  // Each exchange is checked as soon as it arrives (in turn with every other exchange of the process).
  const checked = await Promise.all(requests.map(async ({ b, req }) => {
    const ex = await deps.transport.send(req, retries);
    const command = reproduce(ex.request);
    const result = await checkExchange(plan, deps, unit, b, ex, command, compare);
    return { b, ex, command, ...result };
  }));
  const rows = checked.flatMap((c) => c.rows);
  if (compare) {
    const views = new Map(checked.flatMap((c) => (c.view ? [[c.b, c.view] as const] : [])));
    const late = checked.filter((c) => c.unviewed !== undefined);
    const outcomes = late.length > 0
      ? [{ binding: undefined, outcome: { skipped: `not compared: ${DEADLINE_PASSED} before ${late.map((c) => c.b).join(', ')} ${late.length > 1 ? 'were' : 'was'} checked` } }]
      : await inTurn(async () => compareViews(op, unit.kind, sent, views));
    for (const eq of outcomes) {
      const c = checked.find((x) => x.b === eq.binding);
      const excerpts = c?.ex ? { request: requestText(c.ex, redact), response: responseText(c.ex, redact) } : undefined;
      rows.push(rowFrom({ op, binding: eq.binding ?? sent.join(','), caseId: unit.caseId, reproduce: c?.command ?? '', ...(excerpts ? { excerpts } : {}) },
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
  // A unit's rows repeat the same texts (each binding's reproduce command on every check row): redact each once.
  const memo = new Map<string, string>();
  const once: Redactor = (text) => {
    let out = memo.get(text);
    if (out === undefined) memo.set(text, (out = redact(text)));
    return out;
  };
  return (await runUnit(plan, deps, unit)).map((r) => redactRow(r, once));
}

/**
 * Run a whole plan and build the (redacted) report; `units` narrows it to some of the plan's units
 * (a shard), the report keeping the plan's bindings and operations.
 */
export async function runConformance(plan: RunPlan, deps: EngineDeps, version = '0.1.0', units: readonly Unit[] = planUnits(plan)): Promise<RunReport> {
  const started = Date.now();
  const redact = redactorFor(plan.target.password);
  let done = 0;
  // A few units at a time: about the transport's concurrency in requests, plus one unit so the
  // connections stay busy while a unit waits for its comparison. Bodies are held until their unit is
  // compared, so this bounds them: (units at once) × (bindings) × --max-body-bytes.
  const perBinding = Math.max(1, plan.bindings.length);
  const atOnce = Math.max(1, Math.ceil(deps.transport.options.concurrency / perBinding) + 1);
  const perUnit: ResultRow[][] = new Array(units.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(atOnce, units.length) }, async () => {
    while (next < units.length) {
      const i = next++;
      const u = units[i]!;
      perUnit[i] = await runUnitRedacted(plan, deps, u, redact);
      deps.onProgress?.(++done, units.length, `${u.op.name} ${u.caseId}`);
    }
  }));
  const results = perUnit.flat();
  const t = plan.target;
  return {
    tool: { name: 'accommodation-conformance', version },
    target: {
      bookUrl: redact(t.bookUrl), searchUrl: redact(t.searchUrl), transfersUrl: redact(t.transfersUrl), paths: t.paths, namespaces: t.namespaces,
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
