/**
 * Parts of conformance.html that show what differs and what came back: the canonical diff of a
 * binding_equivalence finding, the bindings that depart from the others (marked in the matrix), and
 * request/response excerpts pretty-printed (xml-formatter) with the raw text one click away.
 *
 * Everything here is untrusted text from the target: it goes through `esc` only.
 */
import xmlFormatter from 'xml-formatter';
import { EQUIVALENCE_CHECK, rowBindings } from '../core/rows.js';
import type { Finding, RunReport } from '../core/types.js';

type Escape = (s: string) => string;

type FormatXml = (xml: string, options: Record<string, unknown>) => string;
/** xml-formatter is CommonJS: its function is the module itself under Node, `default` where a bundler wraps it. */
const formatXml: FormatXml =
  typeof xmlFormatter === 'function'
    ? (xmlFormatter as unknown as FormatXml)
    : (xmlFormatter as unknown as { default: FormatXml }).default;

/** CSS of these parts (joined to the page's own, whose hash the Content-Security-Policy allows). */
export const EXCHANGE_CSS = `
figure.cdiff{margin:8px 0}
figure.cdiff figcaption{font-size:12px;color:var(--muted);margin-bottom:3px}
pre.diff{background:#f6f8fa;color:var(--fg);border:1px solid var(--line)}
pre.diff span{display:block}
pre.diff .add{background:#e6ffec;color:#116329}pre.diff .del{background:#ffebe9;color:#82071e}
pre.diff .hunk{color:#0550ae}pre.diff .file{color:var(--muted);font-weight:600}
details.raw>summary{cursor:pointer;font-size:12px;color:var(--muted);margin:3px 0}
.cell .departs{font-weight:700;color:var(--fail);border:1px solid var(--fail);border-radius:4px;padding:0 4px;font-size:12px}
.cell.departing{box-shadow:inset 0 0 0 2px var(--fail)}
`;

/** The canonical diff of each finding that has one, as a coloured unified diff ('' when none has). */
export function canonicalDiffHtml(findings: readonly Finding[], esc: Escape): string {
  return findings
    .filter((f) => f.diff)
    .map((f) => {
      const lines = f.diff!.split('\n').map((l) => {
        const cls =
          l.startsWith('---') || l.startsWith('+++')
            ? 'file'
            : l.startsWith('@@')
              ? 'hunk'
              : l.startsWith('+')
                ? 'add'
                : l.startsWith('-')
                  ? 'del'
                  : 'ctx';
        return `<span class="${cls}">${esc(l)}</span>`;
      });
      return (
        '<figure class="cdiff"><figcaption>Canonical forms (values in their XSD value space, namespaces '
        + 'resolved, list indexes left out): '
        + 'the majority (<code>-</code>) against the departing binding (<code>+</code>)</figcaption>'
        + `<pre class="diff"><code>${lines.join('')}</code></pre></figure>`
      );
    })
    .join('');
}

/**
 * The bindings that depart from the others, per operation: the binding field of every failed or
 * known binding_equivalence row (both bindings of a pair with no majority).
 */
export function departingBindings(report: RunReport): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const r of report.results) {
    if (r.check !== EQUIVALENCE_CHECK || (r.status !== 'failed' && r.status !== 'known')) continue;
    const m = out.get(r.operation) ?? new Map<string, number>();
    for (const b of rowBindings(r)) m.set(b, (m.get(b) ?? 0) + 1);
    out.set(r.operation, m);
  }
  return out;
}

/** The mark of a matrix cell whose binding departs from the others in `n` comparisons. */
export function departsMark(n: number, esc: Escape): string {
  const title =
    `departs from the other bindings in ${n} binding_equivalence row${n === 1 ? '' : 's'} (see the `
    + `Equivalence column)`;
  return `<span class="departs" title="${esc(title)}">≠ ${n}</span>`;
}

/**
 * The spaces pretty-printing would add: two per level of depth at each tag (an estimate that
 * ignores comments and CDATA, enough to refuse a document whose indentation would dwarf it).
 */
export function indentationCost(body: string): number {
  let depth = 0;
  let cost = 0;
  for (const m of body.matchAll(/<(\/?)[^<>]*?(\/?)>/g)) {
    if (m[1]) depth = Math.max(0, depth - 1);
    cost += 2 * depth;
    if (!m[1] && !m[2] && m[0][1] !== '?' && m[0][1] !== '!') depth++;
  }
  return cost;
}

/** Characters without whitespace: what pretty-printing must leave unchanged. */
const dense = (s: string): string => s.replace(/\s+/g, '');

/**
 * An excerpt (request or status line, headers, blank line, body) with its XML body pretty-printed,
 * or undefined when there is nothing to pretty-print: not XML, not parsed by the formatter, or
 * changed by it beyond whitespace. A body the engine cut short (its note last) is formatted up to
 * its last complete tag, and the closing tags the formatter adds to finish it are left out again.
 */
export function prettyExcerpt(text: string): string | undefined {
  const split = text.indexOf('\n\n');
  const head = split < 0 ? '' : text.slice(0, split + 2);
  let body = split < 0 ? text : text.slice(split + 2);
  if (!body.trimStart().startsWith('<')) return undefined;
  const cut = /\n… \([\d,]+ more [a-z ]+\)$/.exec(body);
  let note = '';
  if (cut) {
    note = `\n${cut[0].slice(1)}`;
    body = body.slice(0, cut.index);
    const last = body.lastIndexOf('>');
    if (last < 0) return undefined;
    body = body.slice(0, last + 1);
  }
  // Indentation grows with depth: a deeply nested excerpt would become megabytes of spaces, which
  // reads no better than the raw text (shown instead). The indentation is estimated in one scan
  // first: formatting a deep excerpt only to throw it away cost seconds of garbage collection.
  if (indentationCost(body) > 4 * body.length + 4096) return undefined;
  let pretty: string;
  try {
    pretty = formatXml(body, {
      indentation: '  ',
      collapseContent: true,
      lineSeparator: '\n',
      throwOnFailure: true,
      strictMode: !cut,
    });
  } catch {
    return undefined;
  }
  if (pretty.length > 4 * body.length + 4096) return undefined;
  if (cut) {
    // The formatter closes what the cut left open: exactly those closing tags, at the end; they are taken off again.
    const extra = dense(pretty).slice(dense(body).length);
    if (!dense(pretty).startsWith(dense(body)) || !/^(?:<\/[^<>]+>)*$/.test(extra)) return undefined;
    // Each added closing tag holds one '</': cut at the added-th from the end (one scan back, where
    // a regex per tag on a deeply indented text was quadratic: minutes for a cut deep document).
    const added = extra.match(/<\//g)?.length ?? 0;
    let end = pretty.length;
    for (let i = 0; i < added && end > 0; i++) end = pretty.lastIndexOf('</', end - 1);
    if (end < 0) return undefined;
    pretty = pretty.slice(0, end).trimEnd();
  }
  if (dense(pretty) !== dense(body) || pretty === body) return undefined;
  return head + pretty + note;
}
