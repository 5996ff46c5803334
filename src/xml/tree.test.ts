import { describe, expect, test } from 'vitest';
import { attr, hasDoctype, isNil, LONG_TEXT, parseXml, XmlError, XSI_NS } from './tree.js';

describe('namespace-resolved tree', () => {
  test('prefixes resolve to URIs; default namespace applies to elements, not attributes', () => {
    const { root } = parseXml('<a:r xmlns:a="urn:A" xmlns="urn:D" x="1" a:y="2"><c><a:d/></c></a:r>');
    expect([root.ns, root.local, root.prefix]).toEqual(['urn:A', 'r', 'a']);
    expect(root.attrs).toEqual([
      { ns: '', local: 'x', prefix: '', value: '1' },
      { ns: 'urn:A', local: 'y', prefix: 'a', value: '2' },
    ]);
    expect(root.children[0]!.ns).toBe('urn:D');
    expect(root.children[0]!.children[0]!.ns).toBe('urn:A');
  });
  test('a redeclared prefix is scoped to its element', () => {
    const { root } = parseXml('<p:r xmlns:p="urn:1"><p:c xmlns:p="urn:2"/><p:d/></p:r>');
    expect(root.children.map((c) => c.ns)).toEqual(['urn:2', 'urn:1']);
  });
  test('character references, entities and CDATA decode; text stays untrimmed', () => {
    const { root } = parseXml('<r a="&#233;&#x41;&amp;&quot;"> caf&#233; &lt;&gt; <![CDATA[<x>]]>&#13;</r>');
    expect(attr(root, 'a')).toBe('éA&"');
    expect(root.text).toBe(' café <> <x>\r');
  });
  test('xsi:nil true and 1 are nil, under any prefix', () => {
    expect(isNil(parseXml(`<r xmlns:i="${XSI_NS}" i:nil="1"/>`).root)).toBe(true);
    expect(isNil(parseXml(`<r xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`).root)).toBe(true);
    expect(isNil(parseXml(`<r xmlns:xsi="${XSI_NS}" xsi:nil="false"/>`).root)).toBe(false);
    expect(isNil(parseXml('<r nil="true"/>').root)).toBe(false);
  });
  test('the XML declaration is read with either quote', () => {
    expect(parseXml("<?xml version='1.0' encoding='UTF-8'?><r/>").declaration?.encoding).toBe('UTF-8');
    expect(parseXml('<r/>').declaration).toBeUndefined();
  });
  test.each([
    [
      'a DOCTYPE (no entity is ever expanded)',
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
      /DOCTYPE/,
    ],
    ['an undeclared element prefix', '<p:r/>', /undeclared namespace prefix "p" on element \/p:r/],
    [
      'an undeclared attribute prefix',
      '<r><c q:a="1"/></r>',
      /undeclared namespace prefix "q" on attribute q:a of \/r\/c/,
    ],
    ['two roots', '<a/><b/>', /2 root elements/],
    ['no root', '   ', /no root element/],
    ['nesting beyond the limit', `${'<a>'.repeat(600)}${'</a>'.repeat(600)}`, /not well-formed/],
  ])('refuses %s', (_what, xml, message) => {
    expect(() => parseXml(xml)).toThrow(XmlError);
    expect(() => parseXml(xml)).toThrow(message);
  });
  test(
    'names that are also JavaScript property names (__proto__, constructor, toString...) are kept as they ' + 'are',
    () => {
      const names = [
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'hasOwnProperty',
        'valueOf',
        '__defineGetter__',
      ];
      const body = names
        .map((n) => `<${n} ${n}="${n}-a"><p:${n} xmlns:p="urn:p" p:${n}="1">${n}</p:${n}></${n}>`)
        .join('');
      const { root } = parseXml(`<r>${body}<__proto__/></r>`);
      expect(root.children.map((c) => c.local)).toEqual([...names, '__proto__']);
      for (const [i, n] of names.entries()) {
        const c = root.children[i]!;
        expect(c.attrs).toEqual([{ ns: '', local: n, prefix: '', value: `${n}-a` }]);
        expect(c.children[0]).toMatchObject({
          ns: 'urn:p',
          local: n,
          prefix: 'p',
          text: n,
          attrs: [{ ns: 'urn:p', local: n, prefix: 'p', value: '1' }],
        });
      }
      expect(Object.getPrototypeOf(root)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
  test(
    'a declaration is undone when its element ends: prefixes and the default namespace, nested and ' + 'redeclared',
    () => {
      const { root } = parseXml(
        '<r xmlns="urn:d" xmlns:p="urn:1"><a xmlns="" xmlns:p="urn:2"><p:b '
          + 'xmlns:p="urn:3"/><p:c/><e/></a><p:f/><g/></r>',
      );
      const [a, f, g] = root.children;
      expect(a!.children.map((c) => c.ns)).toEqual(['urn:3', 'urn:2', '']);
      expect([root.ns, a!.ns, f!.ns, g!.ns]).toEqual(['urn:d', '', 'urn:1', 'urn:d']);
    },
  );
  test(
    '20,000 declarations in scope and 20,000 elements declaring one more: read in one pass (copying the '
      + 'scope took a minute)',
    () => {
      const decls = Array.from({ length: 20_000 }, (_, i) => ` xmlns:p${i}="urn:p:${i}"`).join('');
      const kids = Array.from({ length: 20_000 }, (_, i) => `<p0:k xmlns:q${i}="urn:q:${i}" q${i}:a="${i}"/>`).join('');
      const t0 = performance.now();
      const { root } = parseXml(`<p19999:r${decls}>${kids}</p19999:r>`);
      const ms = performance.now() - t0;
      expect(root.ns).toBe('urn:p:19999');
      expect(root.children).toHaveLength(20_000);
      expect(root.children[12_345]!.attrs).toEqual([
        { ns: 'urn:q:12345', local: 'a', prefix: 'q12345', value: '12345' },
      ]);
      expect(root.children.every((c) => c.ns === 'urn:p:0')).toBe(true);
      expect(ms).toBeLessThan(10_000); // a bound against a hang, not a speed goal: it takes well under a second
    },
  );
  test(
    'long character data (kept away from the parser) reads the same: references decoded, line ends '
      + 'normalised, markup around it intact',
    () => {
      const long = (c: string) => c.repeat(LONG_TEXT + 10);
      const doc =
        `<?xml version="1.0"?><!-- a "quote' and <b> in a comment --><r a="x>y" `
        + `b='<'>${long('a')}&lt;&#233;&#x41;&amp;\r\n${long('b')}`
        + `<![CDATA[<kept &amp;>]]>${long('c')}<?pi ${long('d')} ?><c x=">">${long('e')}\r</c>short</r>`;
      const { root } = parseXml(doc);
      expect(root.attrs.map((a) => a.value)).toEqual(['x>y', '<']);
      expect(root.text).toBe(`${long('a')}<éA&\n${long('b')}<kept &amp;>${long('c')}short`);
      expect(root.children).toHaveLength(1);
      expect(root.children[0]!.text).toBe(`${long('e')}\n`);
    },
  );
  test('a 10 MB text is read without building it a character at a time, inside the root or outside any markup', () => {
    const t0 = performance.now();
    const { root } = parseXml(`<r><t>${'x'.repeat(10 * 1024 * 1024)}</t></r>`);
    expect(root.children[0]!.text.length).toBe(10 * 1024 * 1024);
    expect(() => parseXml(`System.InvalidOperationException ${'at X.Y() '.repeat(1024 * 1024)}`)).toThrow(
      /no root element/,
    );
    expect(parseXml(`${' '.repeat(LONG_TEXT * 2)}<r>x</r>`).root.text).toBe('x');
    expect(performance.now() - t0).toBeLessThan(5_000); // a bound (each took 2 s and 350 MB), not a speed goal
  });
  test('a DOCTYPE-like string inside content is not mistaken for one', () => {
    expect(parseXml('<r><![CDATA[<!DOCTYPE x>]]></r>').root.text).toBe('<!DOCTYPE x>');
  });
  test(
    'a DOCTYPE is found behind many processing instructions, comments and other declarations, and not ' + 'inside them',
    () => {
      const many = `${'<?p x?><a/>'.repeat(2000)}${'<!-- <!DOCTYPE c> --><b/>'.repeat(2000)}`;
      expect(hasDoctype(`<r>${many}<!ELEMENT e><!DOCTYPE r></r>`)).toBe(true);
      expect(hasDoctype(`<r>${many}<?p <!DOCTYPE r> ?><![CDATA[<!DOCTYPE r>]]></r>`)).toBe(false);
      expect(hasDoctype(`<r>${many}<!-- unterminated <!DOCTYPE r>`)).toBe(true);
      expect(hasDoctype('<r><!-- a --><?p?><!doctype r></r>')).toBe(true);
    },
  );
});
