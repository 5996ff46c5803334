/**
 * xsd_valid: the whole response document is valid against the schemas (libxml2, schemas/ with the target's namespaces).
 */
import type { DefectCode } from '../core/defect-codes.js';
import type { Finding } from '../core/types.js';
import type { XElement } from '../xml/tree.js';
import type { XsdError } from './context.js';
import { finding, type Check, type CheckOutcome } from './types.js';
import { isSkip, needsDocument } from './support.js';
import { collapse, lexicalProblem } from './lexical.js';
import type { SimpleType } from '../contract/model.js';

const MAX_MESSAGE = 200;
const ATOMIC_ERROR =
  /^Element '[^']*'(?:, attribute '[^']*')?: '([^']*)' is not a valid value of the atomic type 'xs:(int|decimal|double|boolean|dateTime)'\.$/;

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

/** Errors listed one by one; beyond, errors of a kind already listed are counted ("and N more like it"). */
const MAX_LISTED = 50;
/** Errors of one kind (libxml2's code on one element or attribute name) listed at most. */
const MAX_PER_KIND = 3;
/** Elements on one line that the mapping tells apart by namespace at most; beyond, a descendant path. */
const MAX_ON_LINE = 64;

interface Subject {
  readonly ns: string;
  readonly local: string;
  readonly attribute?: string;
}

function subjectOf(message: string): Subject | undefined {
  const m = LIBXML_SUBJECT.exec(message);
  return m ? { ns: m[1] ?? '', local: m[2]!, ...(m[3] !== undefined ? { attribute: m[3] } : {}) } : undefined;
}

/** Start tags in the text: an optional prefix and the local name (names as the tree reader splits them). */
const START_TAG = /<(?:[^\s/>:!?<'"=]+:)?([^\s/>:!?<'"=]+)(?=[\s/>])/g;

/**
 * Best-effort paths of the elements (and attributes) libxml2's messages name, for all of them in
 * one pass over the text and one walk of the tree, whatever their number (mapping each message by
 * walking the whole tree took 77 s for 2,000 errors). A message names a local name and namespace,
 * and a line: the element is the only one of that name and namespace, or the only one among those
 * whose start tags stand on that line (counted in the text, which must list as many start tags of
 * the name as the tree holds elements, else the line cannot be trusted). Otherwise the path is
 * "//name".
 */
export function pathsOfMessages(
  items: readonly { readonly message: string; readonly line?: number }[],
  root: XElement,
  text: string,
): string[] {
  const subjects = items.map((it) => subjectOf(it.message));
  const needed = new Set(subjects.flatMap((x) => (x ? [x.local] : [])));
  if (needed.size === 0) return items.map(() => '/');

  // Lines of the start tags of each needed local name, in document order.
  const lines = new Map<string, number[]>([...needed].map((l) => [l, []]));
  let line = 1;
  let nl = text.indexOf('\n'); // the next line break not yet counted (-1: none left)
  for (const m of text.matchAll(START_TAG)) {
    const list = lines.get(m[1]!);
    if (!list) continue;
    while (nl >= 0 && nl < m.index!) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    list.push(line);
  }

  // Occurrences (index among elements of that local name) standing on a line some message names.
  const wantedLines = new Map<string, Set<number>>();
  subjects.forEach((x, k) => {
    const l = items[k]!.line;
    if (x && l !== undefined) {
      let set = wantedLines.get(x.local);
      if (!set) wantedLines.set(x.local, (set = new Set()));
      set.add(l);
    }
  });
  const onLine = new Map<string, Map<number, number[]>>(); // local → line → occurrence indexes
  for (const [local, set] of wantedLines) {
    const byLine = new Map<number, number[]>();
    lines.get(local)!.forEach((l, k) => {
      if (!set.has(l)) return;
      const list = byLine.get(l) ?? [];
      if (list.length <= MAX_ON_LINE) list.push(k);
      byLine.set(l, list);
    });
    onLine.set(local, byLine);
  }
  const wanted = new Map<string, Set<number>>();
  for (const [local, byLine] of onLine)
    wanted.set(local, new Set([...byLine.values()].flatMap((ks) => (ks.length > MAX_ON_LINE ? [] : ks))));

  // One walk: elements per local name, per local name and namespace (count, first path), and the
  // namespace and path of the wanted occurrences.
  const seen = new Map<string, number>();
  const byNs = new Map<string, { count: number; path: string }>();
  const found = new Map<string, Map<number, { ns: string; path: string }>>();
  const visit = (el: XElement, path: string): void => {
    if (needed.has(el.local)) {
      const k = seen.get(el.local) ?? 0;
      seen.set(el.local, k + 1);
      const key = `${el.ns}\u0000${el.local}`;
      const n = byNs.get(key);
      if (n) n.count++;
      else byNs.set(key, { count: 1, path });
      if (wanted.get(el.local)?.has(k)) {
        let f = found.get(el.local);
        if (!f) found.set(el.local, (f = new Map()));
        f.set(k, { ns: el.ns, path });
      }
    }
    if (el.children.length === 0) return;
    const total = new Map<string, number>();
    for (const c of el.children) total.set(c.local, (total.get(c.local) ?? 0) + 1);
    const at = new Map<string, number>();
    for (const c of el.children) {
      const i = (at.get(c.local) ?? 0) + 1;
      at.set(c.local, i);
      visit(c, total.get(c.local)! > 1 ? `${path}/${c.local}[${i}]` : `${path}/${c.local}`);
    }
  };
  visit(root, `/${root.local}`);

  return subjects.map((x, k) => {
    if (!x) return '/';
    let hit: string | undefined;
    const same = byNs.get(`${x.ns}\u0000${x.local}`);
    if (same?.count === 1) hit = same.path;
    else if (
      same
      && same.count > 1
      && items[k]!.line !== undefined
      && lines.get(x.local)!.length === (seen.get(x.local) ?? 0)
    ) {
      const ks = onLine.get(x.local)?.get(items[k]!.line!) ?? [];
      const here =
        ks.length > MAX_ON_LINE ? [] : ks.map((i) => found.get(x.local)?.get(i)).filter((f) => f?.ns === x.ns);
      if (here.length === 1) hit = here[0]!.path;
    }
    const base = hit ?? `//${x.local}`;
    return x.attribute !== undefined ? `${base}/@${x.attribute}` : base;
  });
}

/** Best-effort path of the element (and attribute) a libxml2 message names (see pathsOfMessages). */
export function pathOfMessage(message: string, line: number | undefined, root: XElement, text: string): string {
  return pathsOfMessages([{ message, ...(line !== undefined ? { line } : {}) }], root, text)[0]!;
}

/** Errors alike: libxml2's code (or, without one, the message's shape) on one element or attribute name. */
function kindOf(e: XsdError): string {
  const x = subjectOf(e.message);
  const what = e.code !== undefined ? String(e.code) : e.message.replace(/'[^']*'/g, "''");
  return `${what}\u0000${x ? `${x.ns}\u0000${x.local}\u0000${x.attribute ?? ''}` : ''}`;
}

/** The defect code of a libxml2 validity error, from its message (the same codes the shape walk uses). */
const XSD_CODES: readonly (readonly [RegExp, DefectCode])[] = [
  [/No matching global (element )?declaration/, 'unknown_root_element'],
  [/Missing child element/, 'missing_required_element'],
  [/This element is not expected/, 'unexpected_element'],
  [/is not an element of the set/, 'value_outside_enumeration'],
  [/The attribute '[^']*' is required but missing/, 'missing_required_attribute'],
  [/The attribute '[^']*' is not allowed/, 'unknown_attribute'],
  [/because the element was 'nilled'/, 'nil_with_content'],
  [/not 'nillable'|not nillable/, 'nil_not_allowed'],
  [/Element content is not allowed, because the content type is a simple type/, 'unexpected_child_element'],
  [/Character content( other than whitespace)? is not allowed/, 'unexpected_text'],
  [/is not a valid value of/, 'invalid_lexical_value'],
];

export function xsdDefectCode(message: string): DefectCode {
  return XSD_CODES.find(([re]) => re.test(message))?.[1] ?? 'xsd_invalid';
}

function shortMessage(e: XsdError): string {
  const msg = e.message.trim().replace(/\s+/g, ' ');
  const short = msg.length > MAX_MESSAGE ? `${msg.slice(0, MAX_MESSAGE - 1)}…` : msg;
  const at = e.line !== undefined ? ` (line ${e.line}${e.column ? `:${e.column}` : ''})` : '';
  return `${short}${at}`;
}

export const xsdValid: Check = {
  name: 'xsd_valid',
  description:
    'The response document is valid against the schemas (SOAP envelope schemas and the group schemas '
    + 'generated from the type model).',
  // On a rejected call there is nothing to walk: the error format is not shown (section 7.5).
  places: ['valid', 'generated', 'answered-with-data', 'document'],
  severity: 100,
  appliesTo: (ctx) => ctx.caseKind === 'valid' || (ctx.response?.status === 200 && ctx.located().result !== undefined),
  run(ctx): CheckOutcome {
    const doc = needsDocument(ctx);
    if (isSkip(doc)) return doc;
    const text = ctx.decoded().text!;
    const lx = ctx.libxml();
    // A document with thousands of defects gets a few of each kind, then how many more there are.
    const kinds = new Map<string, { listed: XsdError[]; count: number }>();
    let listed = 0;
    for (const e of lx.xsdErrors) {
      if (isLibxmlWhitespaceDefect(e.message)) continue;
      const key = kindOf(e);
      let kind = kinds.get(key);
      if (!kind) kinds.set(key, (kind = { listed: [], count: 0 }));
      kind.count++;
      if (kind.listed.length < MAX_PER_KIND && listed < MAX_LISTED) {
        kind.listed.push(e);
        listed++;
      }
    }
    // Errors the validator only counted: those of a code that one listed kind has are more of it.
    let unplaced = lx.moreXsdErrors ?? 0;
    for (const { code, count } of lx.moreXsdErrorsByCode ?? []) {
      const same = [...kinds.values()].filter((k) => k.listed[0]?.code === code);
      if (same.length !== 1) continue;
      same[0]!.count += count;
      unplaced -= count;
    }
    const shown = [...kinds.values()].flatMap((k) => k.listed);
    const paths = pathsOfMessages(
      shown.map((e) => ({
        message: e.message.trim().replace(/\s+/g, ' '),
        ...(e.line !== undefined ? { line: e.line } : {}),
      })),
      doc.root,
      text,
    );
    const out: Finding[] = shown.map((e, i) =>
      finding(this.name, xsdDefectCode(e.message), paths[i]!, shortMessage(e)),
    );
    for (const k of kinds.values()) {
      const more = k.count - k.listed.length;
      if (more === 0) continue;
      const like = k.listed[0];
      const subject = like ? subjectOf(like.message) : undefined;
      const path = subject
        ? `//${subject.local}${subject.attribute !== undefined ? `/@${subject.attribute}` : ''}`
        : '/';
      out.push(
        finding(
          this.name,
          like ? xsdDefectCode(like.message) : 'xsd_invalid',
          path,
          `and ${more.toLocaleString('en-US')} more like `
            + `it${like ? `: ${shortMessage({ message: like.message })}` : ''}`,
        ),
      );
    }
    if (unplaced > 0) {
      const total = lx.xsdErrors.length + (lx.moreXsdErrors ?? 0);
      out.push(
        finding(
          this.name,
          'xsd_invalid',
          '/',
          `and ${unplaced.toLocaleString('en-US')} more XSD errors of other kinds: libxml2 `
            + `reported ${total.toLocaleString('en-US')} in all`,
        ),
      );
    }
    return out;
  },
};
