/**
 * secret_echoed (issue 42, section 3): no answer holds a secret of the run (a password of either
 * account, a proxy's password, an extra header's value read from a variable), in any wire spelling,
 * in its body or a header, whatever its status: an error page that quotes the request with its
 * password passes every other check ("rejected with HTTP 500") and hands the password to whoever
 * reads the logs of the proxies on the way. Which secrets are looked for, and why a short or common
 * one is not: src/core/secret-watch.ts. The finding names the secret and the place, never the value;
 * the reports mask the secret as they mask it everywhere (src/core/redact.ts).
 */
import { finding, LEAST_SEVERE, type Check, type CheckOutcome } from './types.js';

export const secretEchoed: Check = {
  name: 'secret_echoed',
  description:
    "No answer holds a secret of the run (a password, the proxy's password, an extra header's value), "
    + 'as sent, URL-encoded, XML-escaped or in base64, in its body or a header, whatever its status.',
  places: ['every-exchange'],
  severity: LEAST_SEVERE,
  appliesTo: (ctx) => ctx.response !== undefined && ctx.secrets?.watching === true,
  run(ctx): CheckOutcome {
    const r = ctx.response!;
    const echoes = ctx.secrets!.find(r.headers, r.body);
    return echoes.map((e) =>
      finding(
        this.name,
        'secret_echoed',
        e.where === 'the body' ? '/' : `http:${e.where.replace(/^the | header$/g, '')}`,
        `the answer (HTTP ${r.status}) holds ${e.what} (${e.spelling}) in ${e.where}: a secret must `
          + `never come back, whatever the status`,
        'no secret of the run in the answer',
        `${e.what} in ${e.where}`,
      ),
    );
  },
};
