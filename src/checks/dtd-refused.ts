/**
 * dtd_refused (issue 42, section 2; group hostile_requests): a SOAP request carrying a document type
 * declaration is refused. SOAP 1.1 (section 3) and SOAP 1.2 (part 1, section 5) forbid one in a
 * message, and the real service, an ASMX service, refuses it ("For security reasons DTD is
 * prohibited"). The probe's entity stands as the user name (src/engine/plan.ts doctypeUnits): a
 * target that expands it logs in, and answers with data (`dtd_processed`); on a state-changing
 * operation, whose probe names an id no booking has, it answers as a call past the login does
 * ("booking not found", "already cancelled"), which is `dtd_processed` too. Any refusal passes: an
 * HTTP 4xx/5xx, a SOAP fault, an in-band Error of the login. The form of the refusal is noted.
 *
 * A fetch of the external entity is not in the answer: the run judges it at its end, from the
 * harness's listener (src/engine/callback.ts), as `external_entity_fetched` on this row.
 */
import { effective } from '../contract/model.js';
import type { Finding } from '../core/types.js';
import { isNil, type XElement } from '../xml/tree.js';
import type { CheckContext } from './context.js';
import { dataFindings, rejectionForm } from './rejection.js';
import { findFault } from './soap-fault.js';
import { finding, type Check, type CheckOutcome } from './types.js';

export const DTD_CHECK = 'dtd_refused';

const EXPECTED = 'a refusal of the DOCTYPE: an HTTP 4xx/5xx, a SOAP fault, or an in-band Error of the login';

/** In-band words of a call that got past the login: the booking it named looked up (a probe id no booking has). */
const PAST_LOGIN = /not\s*found|no\s+(transfer\s+)?booking|already\s*(been\s*)?cancel/i;

const textOf = (el: XElement): string => [el.text, ...el.children.map(textOf)].join(' ');

/**
 * A 200 result of a state-changing operation whose in-band Error reads as a call past the login: its path and words.
 */
function pastLogin(ctx: CheckContext): { path: string; said: string } | undefined {
  if (!ctx.op.mutates || ctx.response!.status !== 200) return undefined;
  const root = ctx.xml().parsed?.root;
  if (!root || findFault(root)) return undefined;
  const { result, path } = ctx.located();
  const rejection = effective(ctx.op.resultType).rejection;
  if (!result || isNil(result) || rejection === undefined) return undefined;
  const error = result.children.find((c) => c.local === rejection);
  const said = error ? textOf(error).replace(/\s+/g, ' ').trim() : '';
  return PAST_LOGIN.test(said) ? { path: `${path}/${rejection}`, said: said.slice(0, 200) } : undefined;
}

/** The request of the case, in words. */
const what = (ctx: CheckContext) =>
  ctx.caseId.includes('external')
    ? "a request whose DOCTYPE declares an external entity (the user name at the harness's listener)"
    : 'a request whose DOCTYPE declares an internal entity (the user name)';

export const dtdRefused: Check = {
  name: DTD_CHECK,
  description:
    "A SOAP request with a DOCTYPE (an internal entity; an external one at the harness's listener) is "
    + 'refused, never processed: answered with data (or, on a state-changing operation, as a call past the '
    + 'login) it is dtd_processed; a request to the listener is external_entity_fetched (judged at the '
    + "run's end).",
  places: ['doctype'],
  severity: 90,
  run(ctx): CheckOutcome {
    if (!ctx.response)
      return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): reported by http_exchange` };
    const data = dataFindings(ctx, this.name, what(ctx));
    const why =
      'SOAP forbids a document type declaration in a message (SOAP 1.1 section 3, SOAP 1.2 part 1 '
      + 'section 5): the target processed it';
    if (data) {
      const first = data[0]!;
      return [
        finding(
          this.name,
          'dtd_processed',
          first.path,
          `${first.message}; ${why}, its entity expanded as the user name`,
          EXPECTED,
          first.actual,
        ),
      ] satisfies Finding[];
    }
    const past = pastLogin(ctx);
    if (past) {
      return [
        finding(
          this.name,
          'dtd_processed',
          past.path,
          `${what(ctx)} answered as a call past the login ("${past.said}": the probe id looked `
            + `up); ${why}, its entity expanded as the user name`,
          EXPECTED,
          past.said,
        ),
      ];
    }
    return { note: rejectionForm(ctx) };
  },
};
