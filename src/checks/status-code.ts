/** status_code: a valid call answers 200 (section 4, "Response: 200"). */
import { finding, type Check } from './types.js';
import { describeFault, findFault } from './soap-fault.js';
import { quote } from './support.js';

export const STATUS_PATH = 'http:status';

export const statusCode: Check = {
  name: 'status_code',
  description: 'A valid call is answered with HTTP status 200.',
  places: ['valid'],
  severity: 30,
  run(ctx) {
    const r = ctx.response;
    if (!r) {
      const e = ctx.exchange.error;
      return [
        finding(
          this.name,
          'no_response',
          STATUS_PATH,
          `no response: ${e ? `${e.code}: ${e.message}` : 'the exchange holds neither response nor error'}`,
          '200',
          'no response',
        ),
      ];
    }
    if (r.status === 200) return [];
    const fault = findFault(ctx.xml().parsed?.root);
    let seen: string;
    if (fault) seen = describeFault(fault);
    else {
      const text = ctx.decoded().text?.trim();
      seen = text ? `body ${quote(text, 120)}` : 'an empty body';
    }
    return [
      finding(
        this.name,
        'status_not_200',
        STATUS_PATH,
        `status ${r.status} instead of 200, with ${seen}`,
        '200',
        String(r.status),
      ),
    ];
  },
};
