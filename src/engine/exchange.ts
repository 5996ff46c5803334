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
  onAnswered?: () => void,
): Promise<UnitOutcome<T>> {
  const requests = unitRequests(plan, unit);
  const skipped = skipReason(plan, unit.op);
  if (skipped) return { skipped, requests };
  // Told when the last request's answer is in (before `then` is done with it): nothing more is sent.
  let unanswered = requests.length;
  const answered = () => {
    if (--unanswered === 0) onAnswered?.();
  };
  const retries = retriesFor(unit.op);
  // Giving up on a target that stopped answering is counted per service: another one on the same host may still answer.
  const service = serviceUrlOf(plan.target, unit.op, 'soap11');
  // The exchange, once answered; then what `then` makes of it (awaited apart: see below).
  const exchangeOf = async ({ binding, request }: UnitRequest): Promise<Exchange> => {
    // A call left without a booking of its own is not sent (never with a booking used before).
    const unsent = unit.unsent?.[binding];
    const exchange: Exchange = unsent
      ? { request, error: { code: 'not_sent', message: unsent } }
      : await transport.send(request, retries, service, true);
    answered();
    return exchange;
  };
  const handOn = async (binding: BindingId, exchange: Exchange) => {
    // The body holds its share of the transport's body budget until `then` is done with it (the
    // run: until it is checked), so bodies read ahead of their checks stay within the budget.
    try {
      return { binding, exchange, value: await then(binding, exchange) };
    } finally {
      transport.release(exchange);
    }
  };
  // One booking every binding changes: its calls go one after another, never overlapping. The next
  // call waits for the answer before it, not for its checks (they wait their turn in the process).
  if (unit.serial) {
    const checked = [];
    for (const r of requests) {
      const value = handOn(r.binding, await exchangeOf(r));
      value.catch(() => undefined); // awaited below, with the others: not unhandled while the next call is sent
      checked.push(value);
    }
    return { sent: await Promise.all(checked) };
  }
  return { sent: await Promise.all(requests.map(async (r) => handOn(r.binding, await exchangeOf(r)))) };
}
