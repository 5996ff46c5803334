/**
 * credentials_rejected: a call with a wrong password gets no data (section 5; section 7), judged as
 * every rejection is (./rejection.ts); a 5xx that reads as the server's own failure is no rejection.
 */
import type { Finding } from '../core/types.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { describeFault, findFault } from './soap-fault.js';
import type { CheckContext } from './context.js';
import { dataFindings, EXPECTED_REJECTION } from './rejection.js';

/** Words of a server that failed, not of one that refused: its own error, a crash, a runtime's exception page. */
const SERVER_FAILURE =
  /internal (?:server |mock )?error|required element missing|NullReferenceException|Object reference not set to an instance|NullPointerException|Traceback \(most recent call last\)|Server Error in '[^']*' Application|unhandled exception/i;
/** Words of a rejection of the credentials. */
export const ABOUT_CREDENTIALS =
  /authenticat|credential|password|user ?name|login|log on|unauthori[sz]ed|not authori[sz]ed|access.denied|forbidden|permission/i;

/**
 * A 5xx answer to wrong credentials that reads as the server's own failure and says nothing of the
 * credentials (an "internal error", a serializer's complaint, a runtime's exception page): no data
 * came back, but only because the server broke, so it proves nothing about the credentials. A 5xx
 * SOAP fault or error text about the credentials stays a clean rejection (an ASMX service writes a
 * fault with status 500), as does every 4xx.
 */
function serverFailure(ctx: CheckContext, check: string): Finding[] | undefined {
  const r = ctx.response!;
  if (r.status < 500) return undefined;
  const fault = findFault(ctx.xml().parsed?.root);
  const said = (
    fault
      ? `${fault.code ?? ''} ${fault.reason ?? ''}`
      : (ctx.decoded().text ?? '').slice(0, 4096).replace(/<[^>]*>/g, ' ')
  )
    .replace(/\s+/g, ' ')
    .trim();
  if (!SERVER_FAILURE.test(said) || ABOUT_CREDENTIALS.test(said)) return undefined;
  const what = fault ? describeFault(fault) : `"${said.slice(0, 160)}${said.length > 160 ? '…' : ''}"`;
  return [
    finding(
      check,
      'rejected_by_server_error',
      'http:status',
      `wrong credentials answered with HTTP ${r.status} and a server failure, not a rejection of the `
        + `credentials: ${what}`,
      EXPECTED_REJECTION,
      `HTTP ${r.status}: ${said.slice(0, 120)}`,
    ),
  ];
}

export const credentialsRejected: Check = {
  name: 'credentials_rejected',
  description:
    'A call with a wrong password is answered without data: an error status, a SOAP fault, or a result '
    + 'with an in-band Error and no data; not a server failure (a crash).',
  places: ['wrong-credentials'],
  severity: 80,
  run(ctx): CheckOutcome {
    if (!ctx.response)
      return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): nothing to judge` };
    return serverFailure(ctx, this.name) ?? dataFindings(ctx, this.name, 'wrong credentials') ?? [];
  },
};
