/** content_type: the binding's response media type with charset utf-8 (section 4, Endpoints table). */
import { parseContentType } from '../bindings/media-type.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { needsSuccess, quote, judgedAsAnswer } from './support.js';

export const CONTENT_TYPE_PATH = 'http:content-type';

export const contentType: Check = {
  name: 'content_type',
  description:
    "The response Content-Type is the binding's media type with charset=utf-8 (parameter order, "
    + 'spacing, quoting and case of utf-8 free).',
  places: ['valid', 'generated'],
  severity: 150,
  appliesTo: (ctx) => judgedAsAnswer(ctx),
  run(ctx): CheckOutcome {
    const skip = needsSuccess(ctx);
    if (skip) return skip;
    const expectedMt = ctx.binding.responseMediaType;
    const expected = `${expectedMt}; charset=utf-8`;
    const raw = ctx.header('content-type');
    if (raw === undefined)
      return [
        finding(
          this.name,
          'content_type_missing',
          CONTENT_TYPE_PATH,
          `missing Content-Type header: expected ${expected}`,
          expected,
          '(absent)',
        ),
      ];
    const ct = parseContentType(raw);
    if (!ct)
      return [
        finding(
          this.name,
          'content_type_malformed',
          CONTENT_TYPE_PATH,
          `malformed Content-Type ${quote(raw, 100)}: expected ${expected}`,
          expected,
          raw,
        ),
      ];
    const out = [];
    if (ct.mediaType !== expectedMt) {
      out.push(
        finding(
          this.name,
          'media_type_mismatch',
          CONTENT_TYPE_PATH,
          `media type ${ct.mediaType} instead of ${expectedMt} for the ${ctx.binding.label} binding`,
          expectedMt,
          ct.mediaType,
        ),
      );
    }
    const charset = ct.params.charset;
    if (charset === undefined) {
      out.push(
        finding(
          this.name,
          'charset_missing',
          CONTENT_TYPE_PATH,
          `missing charset parameter in Content-Type ${quote(raw, 100)}: expected charset=utf-8`,
          'charset=utf-8',
          raw,
        ),
      );
    } else if (charset.toLowerCase() !== 'utf-8') {
      out.push(
        finding(
          this.name,
          'charset_not_utf8',
          CONTENT_TYPE_PATH,
          `charset ${quote(charset, 40)} instead of utf-8`,
          'utf-8',
          charset,
        ),
      );
    }
    return out;
  },
};
