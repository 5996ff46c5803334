/**
 * bad_request_rejected: a bad request (a missing or unparsable typed parameter, an unknown operation,
 * a wrong SOAPAction) gets no data, judged as every rejection is (./rejection.ts); the form of the
 * rejection is noted, never failed (the contract does not show error formats, section 7.5).
 */
import type { Check, CheckOutcome } from './types.js';
import { BAD_REQUEST_KINDS, type CheckContext } from './context.js';
import { dataFindings, rejectionForm } from './rejection.js';

/** The bad request of a case, in words: from its kind and id (missing-<param>, unparsable-<param>). */
export function badRequestWhat(ctx: CheckContext): string {
  const param = ctx.caseId.replace(/^(missing|unparsable)-/, '');
  switch (ctx.caseKind) {
    case 'missing-param':
      return `a request without its required parameter ${param}`;
    case 'bad-param':
      return (
        `a request whose ${param} does not parse `
        + `as ${ctx.op.params.find((p) => p.name === param)?.type ?? 'its type'}`
      );
    case 'unknown-operation':
      return `a request for an operation the service does not have (${ctx.op.name})`;
    case 'wrong-soapaction':
      return 'a SOAP 1.1 request whose SOAPAction names another operation';
    default:
      return 'a bad request';
  }
}

export const badRequestRejected: Check = {
  name: 'bad_request_rejected',
  description:
    'A bad request (missing or unparsable typed parameter, unknown operation, wrong SOAPAction) is '
    + 'rejected without data; the error form is reported, not judged (section 7.5).',
  places: BAD_REQUEST_KINDS,
  severity: 120,
  run(ctx): CheckOutcome {
    if (!ctx.response)
      return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): reported by http_exchange` };
    return dataFindings(ctx, this.name, badRequestWhat(ctx)) ?? { note: rejectionForm(ctx) };
  },
};
