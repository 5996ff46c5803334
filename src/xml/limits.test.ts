import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { contextFor } from '../../test/support/checks.js';
import { xmlWellformed } from '../checks/xml-wellformed.js';
import { CHECKS } from '../checks/registry.js';
import {
  manyAttributes,
  manyNamespaceDeclarations,
  manySiblings,
  mealsDocument,
} from '../../test/support/hostile-docs.js';
import { markupLimits, MAX_ATTRIBUTES_PER_ELEMENT, MAX_NAMESPACES_IN_SCOPE, overLimit, scanMarkup } from './limits.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';

const limits = markupLimits(32 * 1024 * 1024);
const attrs = (n: number, prefix = 'a') => Array.from({ length: n }, (_, i) => ` ${prefix}${i}="${i}"`).join('');
const decls = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => ` xmlns:${prefix}${i}="urn:${prefix}:${i}"`).join('');

describe("scanMarkup counts what the readers' costs depend on, in one pass", () => {
  test(
    'elements, attributes, the most on one element, declarations in scope; markup in comments, CDATA, PIs '
      + 'and values skipped',
    () => {
      const s = scanMarkup(
        `<?xml version="1.0"?>\n<!-- <x a="1" b="2" c="3"/> --><r xmlns="urn:r" xmlns:a="urn:a">\n<a:c `
          + `v='>' w="<![CDATA["/><![CDATA[<q a="1" b="2" c="3">]]>`
          + `<d xmlns:b="urn:b"><e xmlns:c="urn:c" x="1"/></d><f xmlns:z="urn:z"/></r>`,
      );
      expect(s.elements).toBe(5);
      expect(s.attributes).toBe(8);
      expect(s.mostAttributes).toEqual({ count: 2, element: 'r', line: 2 });
      // r's two, d's one and e's own: declarations of a closed element leave scope (f sees three)
      expect(s.mostNamespaces).toEqual({ count: 4, element: 'e', line: 3 });
    },
  );
  test(
    'only xmlns and xmlns:* are declarations (xmlnsx, xmlns_a and a prefixed xmlns are not); no element, ' + 'no name',
    () => {
      const s = scanMarkup('<r xmlnsx="1" xmlns_a="2" p:xmlns="3" xmlns:q="urn:q"><s xmlns="urn:s" xm="4"/></r>');
      expect(s.mostNamespaces).toEqual({ count: 2, element: 's', line: 1 });
      expect(s.mostAttributes).toEqual({ count: 4, element: 'r', line: 1 });
      expect(scanMarkup('no markup')).toEqual({
        elements: 0,
        attributes: 0,
        mostAttributes: { count: 0, element: '', line: 1 },
        mostNamespaces: { count: 0, element: '', line: 1 },
      });
    },
  );

  test('over each limit, and a conforming document within all of them', () => {
    expect(overLimit(scanMarkup(`<r${attrs(MAX_ATTRIBUTES_PER_ELEMENT)}/>`), limits)).toBeUndefined();
    expect(overLimit(scanMarkup(`<r${attrs(MAX_ATTRIBUTES_PER_ELEMENT + 1)}/>`), limits)).toMatch(
      /^element <r> \(line 1\) has 257 attributes and namespace declarations: more than the 256/,
    );
    const nested = (n: number) =>
      `${Array.from({ length: n }, (_, i) => `<l${decls(1, `p${i}_`)}>`).join('')}${'</l>'.repeat(n)}`;
    expect(overLimit(scanMarkup(nested(MAX_NAMESPACES_IN_SCOPE)), limits)).toBeUndefined();
    expect(overLimit(scanMarkup(nested(MAX_NAMESPACES_IN_SCOPE + 1)), limits)).toMatch(
      /^257 namespace declarations are in scope at element <l> \(line 1\)/,
    );
    // declarations on siblings are not in scope together
    expect(overLimit(scanMarkup(`<r>${`<s${decls(200)}/>`.repeat(10)}</r>`), limits)).toBeUndefined();
    const small = markupLimits(1024 * 1024);
    expect(small.nodes).toBe(65_536);
    expect(overLimit(scanMarkup(manySiblings(undefined, 60_000)), small)).toBeUndefined();
    expect(overLimit(scanMarkup(manySiblings(undefined, 70_000)), small)).toMatch(
      /^the document has 70,0\d\d elements and 2 attributes: more than the 65,536/,
    );
    expect(limits.nodes).toBe(2_097_152);
  });
});

describe('a document over a limit is read by neither reader; xml_wellformed says which limit', () => {
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);
  test.each([
    [
      '100,000 attributes on one element',
      manyAttributes(undefined, 100_000),
      /element <meal> \(line 1\) has 100,000 attributes/,
    ],
    [
      '400,000 namespace declarations',
      manyNamespaceDeclarations(undefined, 400_000),
      /element <meal> \(line 1\) has 400,000 attributes and namespace declarations/,
    ],
  ])('%s', (_what, doc, message) => {
    const out = validator.validate(doc);
    expect(out.notParsed).toMatch(message);
    const ctx = contextFor('GetMeals', 'get', doc, { validator });
    expect(ctx.xml().error).toMatch(message);
    const f = xmlWellformed.run(ctx);
    expect(f).toEqual([
      expect.objectContaining({
        check: 'xml_wellformed',
        path: '/',
        message: expect.stringMatching(/^document not read: element <meal>/),
      }),
    ]);
    for (const c of CHECKS.filter((x) => ['soap_envelope', 'result_element', 'xsd_valid', 'shape'].includes(x.name))) {
      expect(c.run(ctx), c.name).toEqual({ skipped: expect.stringMatching(/reported by xml_wellformed/) });
    }
  });

  test('a conforming answer is read as before', () => {
    const doc = mealsDocument(undefined, '<meals><meal><id>1</id><name>Room only</name></meal></meals>');
    expect(validator.validate(doc)).toEqual({ xsdErrors: [] });
    expect(xmlWellformed.run(contextFor('GetMeals', 'get', doc, { validator }))).toEqual([]);
  });
});
