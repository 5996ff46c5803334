/** The external-entity probes judged on what the harness's listener received (moved whole from ./run.ts). */
import { EXCHANGE_CHECK } from '../core/rows.js';
import type { Diagnosis, ResultRow } from '../core/types.js';
import { callbackOf, DOCTYPE_CHECK, type RunPlan, type Unit } from './plan.js';
import { probePath } from './callback.js';
import type { RowMaker } from './rows.js';

/**
 * The external-entity probes judged on what the harness's listener received (./callback.ts), once
 * every probe was answered and `graceMs` after the last one: a request for a probe's path fails that
 * probe's dtd_refused row (operation, binding) with external_entity_fetched, beside what its answer
 * showed. Without a listener the target reaches, the run says once that a fetch was not observable
 * (a note): the probes were still judged on their refusal.
 */
export async function judgeFetches(
  plan: RunPlan,
  units: readonly Unit[],
  perUnit: ResultRow[][],
  rows: RowMaker,
  lastProbe: number,
): Promise<Diagnosis[]> {
  const probes = [...units.entries()].filter(([, u]) => u.doctype?.entity === 'external');
  if (probes.length === 0) return [];
  const cb = callbackOf(plan);
  const listener = cb.listener;
  if (!listener) {
    return [
      {
        level: 'note',
        code: 'external_fetch_not_observable',
        message:
          `the external-entity probes (${probes.length}) were judged on their refusal only; whether the `
          + `target fetched their entity was not observable: ${cb.unobservable ?? 'no listener'}. `
          + 'Give --callback-url URL (CONFORMANCE_CALLBACK_URL, config callbackUrl), a URL at which the '
          + 'target reaches this machine, to see a fetch.',
      },
    ];
  }
  const wait = lastProbe + cb.graceMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  for (const [i, u] of probes) {
    const got = perUnit[i];
    if (got) markFetches(plan, u, got, rows);
  }
  return [];
}

/**
 * A unit's rows with every fetch of its external entity the listener has had so far on the probe's
 * dtd_refused row of that binding (once: a row that has it keeps it), in place. The fetch a parser
 * makes while reading the request is there as soon as the answer is; the run looks again at its end.
 */
export function markFetches(plan: RunPlan, u: Unit, got: ResultRow[], rows: RowMaker): void {
  const cb = plan.callback;
  if (u.doctype?.entity !== 'external' || !cb?.listener) return;
  for (const b of u.only ?? plan.bindings) {
    const probe = u.doctype.probes[b];
    if (probe?.entity !== 'external') continue;
    const path = probePath(cb, u.op.name, b);
    const hits = cb.listener.hitsOf(path);
    const k = got.findIndex((r) => r.check === DOCTYPE_CHECK && r.binding === b);
    const old = k >= 0 ? got[k] : undefined;
    if (hits.length === 0 || old?.findings.some((f) => f.code === 'external_entity_fetched')) continue;
    const h = hits[0]!;
    const fetched = {
      check: DOCTYPE_CHECK,
      code: 'external_entity_fetched' as const,
      path: `DOCTYPE/ENTITY ${probe.url}`,
      message:
        `the target fetched the external entity of this request's DOCTYPE: the harness's listener `
        + `got ${hits.length} request${hits.length > 1 ? 's' : ''} for ${path} `
        + `(${h.method} from ${h.from}${h.userAgent ? `, User-Agent ${h.userAgent}` : ''}); a SOAP `
        + `endpoint must refuse a DOCTYPE, never resolve its entities (an attacker's URL reaches any host `
        + `the target can)`,
      expected: 'no request to the listener',
      actual: `${h.method} ${path}`,
    };
    const exchangeRow = got.find((r) => r.check === EXCHANGE_CHECK && r.binding === b);
    const row = rows.row(
      { op: u.op, binding: b, caseId: u.caseId, reproduce: old?.reproduce ?? exchangeRow?.reproduce ?? '' },
      DOCTYPE_CHECK,
      [...(old?.status === 'failed' ? old.findings : []), fetched],
      old?.durationMs,
    );
    const shown = {
      ...row,
      ...(exchangeRow?.request ? { request: exchangeRow.request } : {}),
      ...(exchangeRow?.response ? { response: exchangeRow.response } : {}),
    };
    if (k >= 0) got[k] = shown;
    else got.push(shown);
  }
}
