/**
 * The one send path. A unit's requests (./plan.ts unitRequests) are sent through the transport,
 * under the plan's policies (./plan.ts: a state-changing operation is not sent to a real target
 * without --allow-mutations, and never retried), and each exchange is handed on as it arrives.
 * `run` checks it there, `record` keeps its bytes, `compare` reads its result, the bench times it.
 */
import type { BindingId } from '../contract/catalogue.js';
import type { Exchange } from '../core/types.js';
import { serviceUrlOf } from '../bindings/endpoint.js';
import type { Transport } from '../transport/client.js';
import { retriesFor, skipReason, unitRequests, type RunPlan, type Unit, type UnitRequest } from './plan.js';

/** What sending a unit gave: why it was not sent, or each binding's exchange and what `then` made of it. */
export type UnitOutcome<T> =
  | { readonly skipped: string; readonly requests: readonly UnitRequest[] }
  | { readonly sent: readonly { readonly binding: BindingId; readonly exchange: Exchange; readonly value: T }[] };

/**
 * Send a unit on each of its bindings at once (bounded by the transport) and hand every exchange to
 * `then` as it arrives; or, where the policy says so, send nothing and say why.
 */
export async function exchangeUnit<T>(
  plan: Pick<RunPlan, 'target' | 'bindings' | 'allowMutations'>,
  transport: Transport,
  unit: Unit,
  then: (binding: BindingId, exchange: Exchange) => T | Promise<T>,
): Promise<UnitOutcome<T>> {
  const requests = unitRequests(plan, unit);
  const skipped = skipReason(plan, unit.op);
  if (skipped) return { skipped, requests };
  const retries = retriesFor(unit.op);
  // Giving up on a target that stopped answering is counted per service: another one on the same host may still answer.
  const service = serviceUrlOf(plan.target, unit.op, 'soap11');
  const send = async ({ binding, request }: UnitRequest) => {
    // A call left without a booking of its own is not sent (never with a booking used before).
    const unsent = unit.unsent?.[binding];
    if (unsent) {
      const exchange: Exchange = { request, error: { code: 'not_sent', message: unsent } };
      return { binding, exchange, value: await then(binding, exchange) };
    }
    // The body holds its share of the transport's body budget until `then` is done with it (the
    // run: until it is checked), so bodies read ahead of their checks stay within the budget.
    const exchange = await transport.send(request, retries, service, true);
    try {
      return { binding, exchange, value: await then(binding, exchange) };
    } finally {
      transport.release(exchange);
    }
  };
  // One booking every binding changes: its calls go one after another, never overlapping.
  if (unit.serial) {
    const sent = [];
    for (const r of requests) sent.push(await send(r));
    return { sent };
  }
  return { sent: await Promise.all(requests.map(send)) };
}
