/**
 * xml_wellformed: the body is well-formed XML (libxml2 is the authority; the tree reader adds what it
 * refuses: DOCTYPE, undeclared prefixes) and its encoding is what the XML declaration, the BOM and
 * the Content-Type charset say it is (absent declaration: UTF-8).
 */
import { parseContentType } from '../bindings/media-type.js';
import { readDeclaration } from '../xml/tree.js';
import type { Finding } from '../core/types.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { needsSuccess, quote, judgedAsAnswer } from './support.js';

export const DOCUMENT_PATH = '/';

/** WHATWG name of an encoding label (utf8 → utf-8, latin1 → windows-1252), or undefined if unknown. */
export function encodingName(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

const isAsciiLabel = (label: string): boolean => /^(us-?)?ascii$/i.test(label.trim());

/** Byte offset of the first byte that does not start a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    let n: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    }
    if (b >= 0xc2 && b <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

const hasNonAscii = (buf: Buffer): boolean => buf.some((b) => b >= 0x80);

function bomEncoding(buf: Buffer): string | undefined {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  return undefined;
}

export const xmlWellformed: Check = {
  name: 'xml_wellformed',
  description:
    'The body is well-formed XML in the encoding that its XML declaration (absent: UTF-8) and the '
    + 'Content-Type charset name.',
  places: ['valid', 'generated', 'document'],
  severity: 40,
  appliesTo: (ctx) => judgedAsAnswer(ctx),
  run(ctx): CheckOutcome {
    const skip = needsSuccess(ctx);
    if (skip) return skip;
    const name = this.name;
    const body = ctx.response!.body;
    if (body.length === 0)
      return [
        finding(
          name,
          'body_empty',
          DOCUMENT_PATH,
          'empty body: expected an XML document',
          'an XML document',
          '(empty)',
        ),
      ];

    const out: Finding[] = [];
    const d = ctx.decoded();
    if (d.text === undefined) {
      const bad = encodingName(d.charset) === 'utf-8' ? firstInvalidUtf8(body) : -1;
      out.push(
        finding(
          name,
          'not_decodable',
          DOCUMENT_PATH,
          bad >= 0
            ? `invalid ${d.charset} byte sequence at byte offset ${bad} (byte `
                + `0x${body[bad]!.toString(16).padStart(2, '0')})`
            : `body not decodable: ${d.error ?? 'unknown reason'}`,
          `valid ${d.charset}`,
        ),
      );
      return out;
    }

    const bom = bomEncoding(body);
    const head = body.subarray(bom === 'utf-8' ? 3 : 0, 300).toString('latin1');
    const decl = bom && bom !== 'utf-8' ? readDeclaration(d.text) : readDeclaration(head);
    const declared = decl?.encoding;
    const declaredName = declared === undefined ? 'utf-8' : encodingName(declared);
    const headerCharset = parseContentType(ctx.header('content-type'))?.params.charset;
    const headerName = headerCharset === undefined ? undefined : encodingName(headerCharset);
    const shown = declared === undefined ? 'no encoding (UTF-8)' : `encoding ${quote(declared, 40)}`;

    if (declared !== undefined && declaredName === undefined) {
      out.push(
        finding(
          name,
          'encoding_unknown',
          DOCUMENT_PATH,
          `unknown encoding ${quote(declared, 40)} in the XML declaration`,
          'utf-8',
          declared,
        ),
      );
    } else if (bom && declaredName !== bom && !(declared === undefined && bom !== 'utf-8')) {
      out.push(
        finding(
          name,
          'encoding_bom_mismatch',
          DOCUMENT_PATH,
          `byte order mark of ${bom} while the XML declaration says ${shown}`,
          bom,
          declared ?? '(none)',
        ),
      );
    } else if (
      headerName !== undefined
      && declaredName !== headerName
      && !(isAsciiLabel(declared ?? '') && !hasNonAscii(body))
    ) {
      out.push(
        finding(
          name,
          'encoding_contradicts_charset',
          DOCUMENT_PATH,
          `XML declaration with ${shown} contradicting the Content-Type charset ${quote(headerCharset!, 40)}`,
          headerCharset,
          declared ?? '(none: UTF-8)',
        ),
      );
    } else if (
      headerName === undefined
      && declaredName !== 'utf-8'
      && !bom
      && hasNonAscii(body)
      && firstInvalidUtf8(body) < 0
    ) {
      // No charset on the wire: the declaration decides, and a single-byte declaration over bytes that
      // read as multi-byte UTF-8 sequences misstates them.
      out.push(
        finding(
          name,
          'encoding_misstated',
          DOCUMENT_PATH,
          `XML declaration with ${shown} over bytes that are UTF-8 (non-ASCII characters encoded as `
            + `multi-byte UTF-8 sequences)`,
          'utf-8',
          declared,
        ),
      );
    }

    const lx = ctx.libxml();
    if (lx.notParsed !== undefined) {
      out.push(
        finding(
          name,
          'document_not_read',
          DOCUMENT_PATH,
          `document not read: ${lx.notParsed}`,
          'a document within the limits of this harness (see docs/safety.md)',
        ),
      );
    } else if (lx.wellFormedError !== undefined) {
      out.push(
        finding(
          name,
          'not_well_formed',
          DOCUMENT_PATH,
          `body not well-formed XML: ${lx.wellFormedError.trim().slice(0, 200)}`,
          'well-formed XML',
        ),
      );
    } else {
      const x = ctx.xml();
      if (x.error !== undefined)
        out.push(
          finding(
            name,
            'xml_not_acceptable',
            DOCUMENT_PATH,
            `XML not acceptable: ${x.error.slice(0, 200)}`,
            'well-formed, namespace-well-formed XML without DOCTYPE',
          ),
        );
    }
    return out;
  },
};
