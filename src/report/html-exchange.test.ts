import { describe, expect, test } from 'vitest';
import { fixtureReport } from '../../test/support/report.js';
import { esc } from './html-escape.js';
import { canonicalDiffHtml, departingBindings, indentationCost, prettyExcerpt } from './html-exchange.js';

const HEAD = 'HTTP/1.1 200\ncontent-type: text/xml; charset=utf-8\n\n';

describe('html exchange parts', () => {
  test('an XML body is pretty-printed under its head, nothing but whitespace changed', () => {
    const pretty = prettyExcerpt(`${HEAD}<?xml version="1.0"?><a x="1"><b>Half board</b><c/></a>`)!;
    expect(pretty.startsWith(HEAD)).toBe(true);
    expect(pretty.slice(HEAD.length).split('\n')).toEqual([
      '<?xml version="1.0"?>',
      '<a x="1">',
      '  <b>Half board</b>',
      '  <c/>',
      '</a>',
    ]);
  });

  test('no pretty form for what is not XML, is cut short, does not parse, or is already pretty', () => {
    expect(prettyExcerpt(`${HEAD}Server Error`)).toBeUndefined();
    expect(prettyExcerpt(`${HEAD}<a><b>1</c></a>`)).toBeUndefined();
    expect(prettyExcerpt(`${HEAD}<a>\n  <b>1</b>\n</a>`)).toBeUndefined();
    expect(prettyExcerpt('(no response: timeout: …)')).toBeUndefined();
  });

  test('a body cut short is formatted up to its last complete tag, without the closing tags the cut left out', () => {
    expect(prettyExcerpt(`${HEAD}<a><b>1</b><c><d>x</d><e>y\n… (1,024 more bytes of the body)`)).toBe(
      `${HEAD}<a>\n  <b>1</b>\n  <c>\n    <d>x</d>\n    <e>\n… (1,024 more bytes of the body)`,
    );
    expect(prettyExcerpt(`${HEAD}<a><b>1</b><c attr="x\n… (1,024 more bytes of the body)`)).toBe(
      `${HEAD}<a>\n  <b>1</b>\n… (1,024 more bytes of the body)`,
    );
    expect(prettyExcerpt(`${HEAD}no markup at all\n… (9 more characters)`)).toBeUndefined();
  });

  test('a deeply nested body cut short is shown raw, at once (its indentation would be megabytes)', () => {
    const deep =
      `HTTP/1.1 200 OK\ncontent-type: text/xml\n\n<r>${'<d>'.repeat(100_000)}x${'</d>'.repeat(100_000)}</r>`.slice(
        0,
        4096,
      );
    const t0 = performance.now();
    expect(prettyExcerpt(`${deep}\n… (1,234 more bytes)`)).toBeUndefined();
    // A bound against the quadratic removal of closing tags this once took (minutes); about 0.2 s measured.
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  test('the indentation is estimated before formatting: two spaces per level at each tag', () => {
    expect(indentationCost('<?xml version="1.0"?><a><b>x</b><c/><!-- n --></a>')).toBe(0 + 0 + 2 + 2 + 2 + 2 + 0);
    // 1,300 levels (a 4 KB excerpt of a deep document): about 1.7 million spaces, refused unformatted.
    const deep = `<r>${'<d>'.repeat(1_300)}x${'</d>'.repeat(1_300)}</r>`;
    expect(indentationCost(deep)).toBeGreaterThan(4 * deep.length + 4096);
    expect(prettyExcerpt(`${HEAD}${deep}`)).toBeUndefined();
    // Moderate depth within the budget is still pretty-printed.
    const nested = `<r>${'<d>'.repeat(20)}x${'</d>'.repeat(20)}</r>`;
    expect(indentationCost(nested)).toBeLessThan(4 * nested.length + 4096);
    expect(prettyExcerpt(`${HEAD}${nested}`)).toContain('\n' + ' '.repeat(40) + '<d>x</d>');
  });

  test('texts keep their spaces, and text beside elements is left as sent', () => {
    expect(prettyExcerpt(`${HEAD}<a><b> spaced </b><c/></a>`)).toBe(`${HEAD}<a>\n  <b> spaced </b>\n  <c/>\n</a>`);
    // Re-indenting mixed content would change the value the target sent: the formatter leaves it, so no pretty form.
    expect(prettyExcerpt(`${HEAD}<a>lead <b>x</b> tail</a>`)).toBeUndefined();
  });

  test('the departing bindings are those of failed and known binding_equivalence rows', () => {
    const report = fixtureReport();
    const base = report.results[0]!;
    report.results.push(
      { ...base, operation: 'GetThemes', check: 'binding_equivalence', binding: 'get,post', status: 'failed' },
      { ...base, operation: 'GetThemes', check: 'binding_equivalence', binding: 'get', status: 'known' },
      { ...base, operation: 'GetThemes', check: 'binding_equivalence', binding: 'soap11', status: 'passed' },
    );
    const m = departingBindings(report).get('GetThemes')!;
    expect(Object.fromEntries(m)).toEqual({ get: 2, post: 1 });
  });

  test('a diff is rendered line by line, escaped, classed by kind', () => {
    const html = canonicalDiffHtml(
      [
        {
          check: 'binding_equivalence',
          code: 'value_differs',
          path: '/r',
          message: 'm',
          diff: '--- a\n+++ b\n@@ -1,2 +1,2 @@\n r\n-  x = "<script>"\n+  x = "y"',
        },
      ],
      esc,
    );
    expect(html).toContain('<span class="del">-  x = &quot;&lt;script&gt;&quot;</span>');
    expect(html).toContain('<span class="add">+  x = &quot;y&quot;</span>');
    expect(html).toContain('<span class="hunk">@@ -1,2 +1,2 @@</span>');
    expect(canonicalDiffHtml([{ check: 'shape', code: 'value_differs', path: '/r', message: 'm' }], esc)).toBe('');
  });
});
