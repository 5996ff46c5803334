/**
 * login_rejected (issue 42, section 1; group hostile_requests): a credential variant a careless login
 * check lets in (src/engine/plan.ts LOGIN_VARIANTS: the password absent, nil, with characters added,
 * a proper prefix of it, with spaces around it, the user name absent, the two accounts' names and
 * passwords crossed) is refused as the plain wrong password of the same operation and binding is,
 * or as a malformed request is. A variant that reaches the data path is `login_bypassed`:
 *
 * - an answer with data (judged as every rejection is: ./rejection.ts);
 * - a data-path answer: no data, but not a refusal of the login. State-changing operations get these
 *   variants with probe identifiers (src/engine/bookings.ts), so a bypass there answers "booking
 *   not found" where the wrong password got "authentication failed". The answer's words (an in-band
 *   Error's type and message, a fault's code and reason, an error page's text; numbers and quoted
 *   values left out) are compared with the run's refusals of this operation and binding (the wrong
 *   password, the bad requests: CheckContext.refusals). The same words: refused as they were.
 *   Words about the credentials (a password, a login, "unauthorized") or status 401/403: a refusal
 *   of the login in other words. Otherwise an in-band Error (the service answered in its result, as
 *   it does past the login), or any answer saying a booking is not found or already cancelled, is a
 *   data-path answer. A fault or an HTTP error saying something else is a refusal of the request as
 *   malformed (the contract does not show error forms, section 7.5): passed, its form noted.
 *
 * The variation the contract allows is never judged: the form of a refusal (in-band or thrown, its
 * status), since only its words are compared, and those of the mock's variation mode and of the
 * real service's style name the credentials.
 */
import { findFault, describeFault } from './soap-fault.js';
import { inBandError } from './support.js';
import { ABOUT_CREDENTIALS } from './credentials-rejected.js';
import { dataFindings } from './rejection.js';
import type { CheckContext } from './context.js';
import { finding, LEAST_SEVERE, type Check, type CheckOutcome } from './types.js';

/** Words of an answer on the data path: the booking or id looked up and not found, or its state. */
const DATA_PATH =
  /not ?found|does not exist|doesn't exist|no such (?:booking|transfer|reservation)|no (?:transfer )?(?:booking|reservation) (?:with|of|for)|unknown booking|already cancel|invalid booking/i;

/** Words naming the account: "user not found", "account locked" refuse the login, though they say "not found". */
const ACCOUNT = /\buser\b|\baccount\b/i;

/**
 * The words of a refusal, comparable across requests: numbers and quoted values left out, blanks folded, at most 300
 * characters.
 */
export function refusalWords(ctx: CheckContext): string {
  const r = ctx.response;
  if (!r) return '';
  const root = ctx.xml().parsed?.root;
  const fault = root ? findFault(root) : undefined;
  let said: string;
  if (fault) said = `${fault.code ?? ''} ${fault.reason ?? ''}`;
  else {
    const result = root ? ctx.located().result : undefined;
    const e = result ? inBandError(result, ctx.op.resultType, ctx.ns) : undefined;
    said = e ? `${e.type} ${e.message}` : (ctx.decoded().text ?? '').slice(0, 4096).replace(/<[^>]*>/g, ' ');
  }
  return said
    .replace(/'[^']*'|"[^"]*"|\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .slice(0, 300);
}

/** How an answer refuses, in words for a note or a finding. */
function formOf(ctx: CheckContext): { form: 'in-band' | 'thrown' | 'answer'; text: string } {
  const r = ctx.response!;
  const root = ctx.xml().parsed?.root;
  const fault = root ? findFault(root) : undefined;
  if (fault)
    return { form: 'thrown', text: `HTTP ${r.status} and a SOAP fault: ${describeFault(fault).slice(0, 160)}` };
  const result = root ? ctx.located().result : undefined;
  const e = result ? inBandError(result, ctx.op.resultType, ctx.ns) : undefined;
  if (e)
    return {
      form: 'in-band',
      text: `HTTP ${r.status} and an in-band Error${e.type ? ` ${e.type}` : ''}: "${e.message.slice(0, 160)}"`,
    };
  if (r.status >= 400)
    return { form: 'thrown', text: `HTTP ${r.status} (${r.headers['content-type'] ?? 'no Content-Type'})` };
  return { form: 'answer', text: `HTTP ${r.status} without an Error` };
}

export const loginRejected: Check = {
  name: 'login_rejected',
  description:
    'A credential variant (password absent, nil, with characters added, a prefix of it, spaced, user '
    + 'name absent, accounts crossed) is refused as the wrong password is, or as a malformed request is: '
    + 'no data, no data-path answer.',
  places: ['login-variant'],
  severity: LEAST_SEVERE,
  run(ctx): CheckOutcome {
    if (!ctx.response)
      return { skipped: `no response (${ctx.exchange.error?.code ?? 'no exchange'}): reported by http_exchange` };
    const variant = `the login variant ${ctx.caseId}`;
    const data = dataFindings(ctx, this.name, variant);
    if (data) {
      const first = data[0]!;
      return [
        finding(
          this.name,
          'login_bypassed',
          first.path,
          `${first.message}: the login check let ${variant} in`,
          'a refusal, as the wrong password of this operation and binding gets',
          first.actual,
        ),
      ];
    }
    const how = formOf(ctx);
    const words = refusalWords(ctx);
    const refs = ctx.refusals ?? [];
    const status = ctx.response.status;
    // Words of a login refusal first: the same note whether the reference was sent in this run or not (a shard,
    // --case).
    if (status === 401 || status === 403 || ABOUT_CREDENTIALS.test(words) || ACCOUNT.test(words))
      return { note: `refused as a login: ${how.text}` };
    if (refs.includes(words))
      return { note: `refused as the wrong password or a bad request of this operation and binding is: ${how.text}` };
    const reference = refs.length ? ` where the wrong password got another answer` : '';
    if (DATA_PATH.test(words) || (how.form !== 'thrown' && refs.length > 0)) {
      return [
        finding(
          this.name,
          'login_bypassed',
          status >= 400 ? 'http:status' : `/${ctx.op.resultElement}`,
          `${variant} reached the data path: ${how.text}${reference}, and nothing in it refuses the login`,
          'a refusal of the login, as the wrong password of this operation and binding gets',
          how.text,
        ),
      ];
    }
    return {
      note: refs.length
        ? `refused as a malformed request (the contract does not show error forms): ${how.text}`
        : `refused (${how.text}); not compared with the wrong password's answer, which this run did not `
          + `send (--case, a shard)`,
    };
  },
};
