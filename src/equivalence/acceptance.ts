/**
 * A binding's acceptance of one request: answered with data, rejected (a SOAP fault, an HTTP error,
 * an in-band Error), or neither; and the two rejections that say the booking named was not usable
 * (already cancelled, not found), which the comparison, the sequences and the diagnosis read alike.
 */
import { findFault } from '../checks/soap-fault.js';
import { inBandError } from '../checks/support.js';
import type { CheckContext } from '../checks/context.js';

export type Acceptance =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected'; readonly how: string; readonly errorType?: string; readonly errorMessage?: string }
  | { readonly kind: 'unknown'; readonly why: string };

/** Whether a binding answered with data, rejected the request (fault, HTTP error, in-band Error), or neither. */
export function acceptance(ctx: CheckContext): Acceptance {
  const res = ctx.response;
  if (!res) return { kind: 'unknown', why: 'no response' };
  if (findFault(ctx.xml().parsed?.root)) return { kind: 'rejected', how: `SOAP fault (HTTP ${res.status})` };
  if (res.status < 200 || res.status >= 300) return { kind: 'rejected', how: `HTTP ${res.status}` };
  const result = ctx.located().result;
  if (!result) return { kind: 'unknown', why: 'no result element' };
  const error = inBandError(result, ctx.op.resultType, ctx.ns);
  if (error)
    return {
      kind: 'rejected',
      how: `in-band Error${error.type ? ` ${error.type}` : ''}`,
      errorType: error.type,
      errorMessage: error.message,
    };
  return { kind: 'accepted' };
}

/** An ErrorType or message saying the booking was cancelled before (BookingAlreadyCancelledException, Code -2). */
export const ALREADY_CANCELLED = /already\s*(been\s*)?cancel/i;
/** An ErrorType or message saying the booking named does not exist (BookingNotFoundException). */
export const NOT_FOUND = /not\s*found|no\s+(transfer\s+)?booking/i;

/**
 * An in-band Error saying the booking was cancelled before (the live service: BookingAlreadyCancelledException, Code
 * -2).
 */
export function alreadyCancelled(a: Acceptance): boolean {
  return a.kind === 'rejected' && ALREADY_CANCELLED.test(`${a.errorType ?? ''} ${a.errorMessage ?? ''}`);
}

/** An in-band Error saying the booking named does not exist (the live service: BookingNotFoundException). */
export function notFound(a: Acceptance): boolean {
  return a.kind === 'rejected' && NOT_FOUND.test(`${a.errorType ?? ''} ${a.errorMessage ?? ''}`);
}
