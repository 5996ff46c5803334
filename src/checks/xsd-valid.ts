/** xsd_valid: the whole response document is valid against the schemas (libxml2, schemas/ with the target's namespaces). */
import type { Finding } from '../core/types.js';
import type { XElement } from '../xml/tree.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { isSkip, needsDocument, step } from './support.js';
import { collapse, lexicalProblem } from './lexical.js';
import type { SimpleType } from '../contract/model.js';

const MAX_MESSAGE = 200;
const ATOMIC_ERROR = /^Element '[^']*'(?:, attribute '[^']*')?: '([^']*)' is not a valid value of the atomic type 'xs:(int|decimal|double|boolean|dateTime)'\.$/;

/**
 * libxml2 2.9.9 (bundled by libxmljs2) does not apply whiteSpace="collapse" to xs:int and
 * xs:dateTime: ' 7 ' and '\n2024-05-01T12:00:00\n' are refused though XSD allows them. Such an
 * error is libxml2's, not the target's: dropped when the collapsed value is valid.
 */
export function isLibxmlWhitespaceDefect(message: string): boolean {
  const m = ATOMIC_ERROR.exec(message.trim());
  if (!m) return false;
  const [, value, type] = m;
  return collapse(value!) !== value && lexicalProblem(type as SimpleType, value!) === undefined;
}
const LIBXML_SUBJECT = /^Element '(?:\{([^}]*)\})?([^']+)'(?:, attribute '(?:\{[^}]*\})?([^']+)')?/;

interface Placed { readonly el: XElement; readonly path: string }

function placed(root: XElement): Placed[] {
  const out: Placed[] = [];
  const walk = (el: XElement, path: string) => {
    out.push({ el, path });
    for (const c of el.children) walk(c, `${path}/${step(el, c)}`);
  };
  walk(root, `/${root.local}`);
  return out;
}

/** Line numbers (1-based) of the start tags of elements with that local name, in document order. */
function startTagLines(text: string, local: string): number[] {
  const esc = local.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`<(?:[A-Za-z_][\\w.\\-]*:)?${esc}(?=[\\s/>])`, 'g');
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const m of text.matchAll(re)) {
    for (let i = from; i < m.index!; i++) if (text.charCodeAt(i) === 10) line++;
    from = m.index!;
    lines.push(line);
  }
  return lines;
}

/** Best-effort path of the element (and attribute) a libxml2 message names. */
export function pathOfMessage(message: string, line: number | undefined, root: XElement, text: string): string {
  const m = LIBXML_SUBJECT.exec(message);
  if (!m) return '/';
  const [, ns = '', local = '', attribute] = m;
  const all = placed(root);
  const sameLocal = all.filter((p) => p.el.local === local);
  const candidates = sameLocal.filter((p) => p.el.ns === ns);
  let hit: Placed | undefined = candidates.length === 1 ? candidates[0] : undefined;
  if (!hit && candidates.length > 1 && line !== undefined) {
    const lines = startTagLines(text, local);
    if (lines.length === sameLocal.length) {
      const onLine = sameLocal.filter((_, i) => lines[i] === line && candidates.includes(sameLocal[i]!));
      if (onLine.length === 1) hit = onLine[0];
    }
  }
  const base = hit ? hit.path : `//${local}`;
  return attribute ? `${base}/@${attribute}` : base;
}

export const xsdValid: Check = {
  name: 'xsd_valid',
  description: 'The response document is valid against the schemas (SOAP envelope schemas and the group schemas generated from the type model).',
  // On a rejected call there is nothing to walk: the error format is not shown (section 7.5).
  appliesTo: (ctx) => ctx.caseKind === 'valid' || (ctx.response?.status === 200 && ctx.located().result !== undefined),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const text = ctx.decoded().text!;
    const out: Finding[] = [];
    for (const e of ctx.libxml().xsdErrors) {
      if (isLibxmlWhitespaceDefect(e.message)) continue;
      const msg = e.message.trim().replace(/\s+/g, ' ');
      const short = msg.length > MAX_MESSAGE ? `${msg.slice(0, MAX_MESSAGE - 1)}…` : msg;
      const at = e.line !== undefined ? ` (line ${e.line}${e.column ? `:${e.column}` : ''})` : '';
      out.push(finding(this.name, pathOfMessage(msg, e.line, doc.root, text), `${short}${at}`));
    }
    return out;
  },
};
