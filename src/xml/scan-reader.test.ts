/**
 * The one-pass reader (large answers) against fast-xml-parser's reader (the first): the same tree,
 * element for element, on every document the test suites and the self-test read: the real
 * service's captured answers, the golden reports' JUnit XML, the mock's answers to a whole run's
 * requests in its default, variation and real-service styles, the hostile documents, and edge
 * cases written for the differences between XML readers. Then the full checks on a large answer
 * read by both give the same findings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { binding } from '../bindings/index.js';
import { requestAt } from '../bindings/endpoint.js';
import { CHECKS, runChecks } from '../checks/registry.js';
import { CheckContext } from '../checks/context.js';
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  findOperation,
  OPERATIONS,
  type BindingId,
} from '../contract/catalogue.js';
import type { Target } from '../core/types.js';
import { loadFixtureCases } from '../engine/cases.js';
import { planUnits } from '../engine/plan.js';
import { canonicalDigest } from '../equivalence/canonical.js';
import { createMockCore, incomingOf, type MockHandlerOptions } from '../mock/core.js';
import { ReplayHit } from '../mock/replay.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, serializeResult, type DataObject } from '../mock/index.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import * as hostile from '../../test/support/hostile-docs.js';
import { collectGarbage } from '../core/memory.js';
import { internalized, MAX_DEPTH } from './scan-reader.js';
import { hasDoctype, parseXml, readTree, setScanReaderMinChars, XmlError, type ParsedXml } from './tree.js';
import { markupLimits, overLimit, scanMarkup, type MarkupLimits } from './limits.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Both readers' outcome: the tree, or that it threw an XmlError. */
function read(xml: string, reader: 'fast-xml-parser' | 'scan'): ParsedXml | 'refused' {
  try {
    return parseXml(xml, reader);
  } catch (e) {
    if (e instanceof XmlError) return 'refused';
    throw e;
  }
}

function expectSame(name: string, xml: string): void {
  const first = read(xml, 'fast-xml-parser');
  const second = read(xml, 'scan');
  expect(second, name).toEqual(first);
}

/** The mock's answer to every request a run sends (valid cases, negatives, probes) in one style. */
function mockAnswers(options: MockHandlerOptions): { name: string; xml: string }[] {
  const core = createMockCore({ ...options, stateless: true } as MockHandlerOptions);
  const target: Target = {
    bookUrl: 'http://mock',
    searchUrl: 'http://mock',
    transfersUrl: 'http://mock',
    paths: DEFAULT_PATHS,
    namespaces: DEFAULT_NAMESPACES,
    user: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
    embedded: true,
  };
  const plan = {
    target,
    bindings: BINDINGS,
    operations: OPERATIONS,
    cases: loadFixtureCases(),
    allowMutations: false,
    checks: CHECKS,
    negative: true,
    equivalence: true,
  };
  const out: { name: string; xml: string }[] = [];
  for (const unit of planUnits(plan)) {
    const ns = DEFAULT_NAMESPACES[unit.op.ns];
    for (const b of BINDINGS.filter((x: BindingId) => !unit.only || unit.only.includes(x))) {
      const req = requestAt('http://mock', unit.op, b, unit.params, { book: ns, search: ns });
      const headers = Object.fromEntries(
        Object.entries(unit.headers ?? req.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      const url = new URL(req.url);
      const incoming = incomingOf(req.method, url, headers);
      const route = core.route({ method: req.method, url, incoming });
      if (route?.kind !== 'binding' || !incoming) continue;
      const answer = core.serveBinding(
        route,
        incoming,
        req.method === 'GET' ? new Uint8Array() : Buffer.from(req.body ?? '', 'utf8'),
      );
      if (answer instanceof ReplayHit) continue;
      const xml = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8');
      if (xml.includes('<')) out.push({ name: `${unit.caseId} ${b}`, xml });
    }
  }
  return out;
}

/** Hand-written documents: edge cases of markup, namespaces, references and broken structure. */
const EDGE_CASES: [string, string][] = [
  ['CDATA, with markup, CR LF and an entity left as written', '<r>a<![CDATA[<b>&amp;\r\n]]>c<![CDATA[]]></r>'],
  [
    'comments and processing instructions everywhere',
    '<?xml version="1.0"?><!-- c --><?pi a?><r><!-- <x/> -->t<?p q?>u</r><!-- end --><?z?>',
  ],
  [
    'predefined entities and character references',
    '<r a="&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#xe9;">&lt;x&gt; &amp;amp; &#38;lt; &#x1F600; &#13;</r>',
  ],
  ['an undefined entity is left as written', '<r>&foo; &#xZZ; & ;</r>'],
  ['attributes with both quotes', `<r a='x"y' b="p'q" c = "1" d= '2'/>`],
  ['whitespace, tabs and line ends in attribute values', '<r a="1\t2\n3\r\n4\r5"/>'],
  [
    'namespace redeclarations and prefixes bound deeper',
    '<p:r xmlns:p="urn:1"><p:a xmlns:p="urn:2"><p:b/></p:a><p:c/><q:d xmlns:q="urn:q" q:x="1"/></p:r>',
  ],
  ['the default namespace undeclared with xmlns=""', '<r xmlns="urn:d"><a xmlns=""><b/></a><c/></r>'],
  ['a prefixed attribute and the xml prefix', '<r xmlns:x="urn:x" x:a="1" xml:lang="en" b="2"/>'],
  ['whitespace-only text', '<r>\n  <a>   </a>\t<b/>\r\n</r>'],
  ['mixed content', '<r>one<a>two</a>three<b/>four<c>five<d/>six</c>seven</r>'],
  ['text outside the root is dropped', 'before<r>in</r>after'],
  [
    'an XML declaration with single quotes and a BOM',
    "\uFEFF<?xml version='1.0' encoding='UTF-8' standalone='yes'?><r/>",
  ],
  ['names with dots, dashes and digits', '<a.b-c_1 x.y-z="1"><_q/></a.b-c_1>'],
  ['whitespace inside tags', '<r\n  a="1"\n  b="2"  ><c\t/></r\n>'],
  ['non-ASCII names and text', '<größe xmlns:ü="urn:ü" ü:ä="ö">日本語 „x“</größe>'],
  ['a long text between tags (the lifted path)', `<r><a>${'x&amp;y\r\n'.repeat(2000)}</a>${'z'.repeat(5000)}<b/></r>`],
  ['an element named like an Object property', '<constructor><__proto__ toString="1"/><hasOwnProperty/></constructor>'],
  ['nesting at the limit', `${'<a>'.repeat(MAX_DEPTH)}${'</a>'.repeat(MAX_DEPTH)}`],
  ['nesting beyond the limit', `${'<a>'.repeat(MAX_DEPTH + 1)}${'</a>'.repeat(MAX_DEPTH + 1)}`],
  ['a DOCTYPE', '<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'],
  ['an undeclared element prefix', '<p:r/>'],
  ['an undeclared attribute prefix', '<r><c q:a="1"/></r>'],
  [
    'sibling names that start with the name before them or with the one that followed it (compared in place)',
    '<r><ab/><abc>1</abc><ab>2</ab><a>3</a><ab x="1"/><ab\n/><abc>4</abc><ab\t>5</ab><abc/><ab/></r>',
  ],
  ['end tags with white space before ">"', '<r><a>1</a ><a>2</a\n><p:b xmlns:p="urn:p"></p:b\t></r>'],
  ['a start tag whose name ends the text', '<r><a/></r><a'],
  ['an end tag whose name ends the text', '<r><a></a'],
  [
    'one-character texts and attribute values: digits, "&", CR, beyond Latin-1',
    '<r a="1" b="\r" c="é"><a>1</a><b>&amp;</b><c>\r</c><d>é</d><e>日</e><f>&#65;</f><g> '
      + '</g><h>\n</h><i>0</i><j>ÿ</j><k>Ā</k></r>',
  ],
  ['two roots', '<a/><b/>'],
  ['no root', '  <!-- -->  '],
];

/** Generated content of a root element: names, prefixes, attributes, quotes, text, CDATA, comments, references. */
function generatedNode(): (n: number) => fc.Arbitrary<string> {
  const text = fc.string({
    unit: fc.constantFrom(
      'a',
      ' ',
      '\n',
      '\r\n',
      '\t',
      'é',
      '日',
      '&amp;',
      '&lt;',
      '&#65;',
      '&#x1F600;',
      '>',
      '"',
      "'",
    ),
    maxLength: 12,
  });
  const node: fc.Memo<string> = fc.memo((n) =>
    fc.oneof(
      { depthSize: 'small' },
      text,
      text.map((t) => `<![CDATA[${t.replace(/&[^;]*;/g, '&')}]]>`),
      fc.constant('<!-- c -->'),
      fc.constant('<?p x?>'),
      fc
        .tuple(
          fc.constantFrom('a', 'b', 'p:a', 'q:b', 'p:c'),
          fc.constantFrom('', ' xmlns:p="urn:p2"', ' xmlns="urn:d2"', ' xmlns=""', ' xmlns:q="urn:q"'),
          fc.array(fc.tuple(fc.constantFrom('x', 'y', 'p:z', 'xml:lang'), text, fc.boolean()), { maxLength: 3 }),
          n > 1 ? fc.array(node(n - 1), { maxLength: 4 }) : fc.constant([]),
        )
        .map(([tag, decl, attrs, kids]) => {
          const seen = new Set<string>();
          const a = attrs
            .filter(([k]) => !seen.has(k) && seen.add(k))
            .map(([k, v, single]) =>
              single ? ` ${k}='${v.replace(/'/g, '&apos;')}'` : ` ${k}="${v.replace(/"/g, '&quot;')}"`,
            )
            .join('');
          const body = kids.join('');
          return body === '' ? `<${tag}${decl}${a}/>` : `<${tag}${decl}${a}>${body}</${tag}>`;
        }),
    ),
  );
  return node;
}

describe("the one-pass reader builds the same tree as fast-xml-parser's", () => {
  test("on the real service's captured answers", () => {
    const dir = join(ROOT, 'fixtures', 'real-service');
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) expectSame(f, readFileSync(join(dir, f), 'utf8'));
  });

  test("on the golden reports' JUnit XML", () => {
    const dir = join(ROOT, 'test', 'golden');
    for (const d of readdirSync(dir))
      expectSame(d, gunzipSync(readFileSync(join(dir, d, 'junit.xml.gz'))).toString('utf8'));
  });

  test.each([
    ['default', {}],
    ['variation', { vary: true }],
    ['real-service', { realService: true }],
  ] as const)("on the mock's answers to a whole run, %s style", (_style, options) => {
    const docs = mockAnswers(options);
    expect(docs.length).toBeGreaterThan(100);
    for (const d of docs) expectSame(d.name, d.xml);
  });

  test('on the hostile documents, every frame', () => {
    for (const frame of ['1.1', '1.2', undefined] as const) {
      const docs: [string, string][] = [
        ['manyXsdErrors', hostile.manyXsdErrors(frame, 200)],
        ['manyAttributes', hostile.manyAttributes(frame, 300)],
        ['deepNamespaces', hostile.deepNamespaces(frame, 300)],
        ['manySiblings', hostile.manySiblings(frame, 2000)],
        ['manyNamespaceDeclarations', hostile.manyNamespaceDeclarations(frame, 300)],
        ['longText', hostile.longText(frame, 100_000, 'ab&amp;c\r\n')],
        ['hugeFault', hostile.hugeFault(frame, 50_000)],
      ];
      for (const [name, xml] of docs) expectSame(`${name} ${frame}`, xml);
    }
    // Past the markup limits (callers without them, such as the mock reading requests): still one pass.
    expectSame('100,000 attributes on one element', hostile.manyAttributes(undefined, 100_000));
  });

  test.each(EDGE_CASES)('on %s', (name, xml) => {
    expectSame(name, xml);
  });

  test('on generated trees: names, prefixes, attributes, quotes, text, CDATA, comments, references', () => {
    const node = generatedNode();
    fc.assert(
      fc.property(node(4), (inner) => {
        expectSame(inner, `<p:r xmlns:p="urn:p" xmlns:q="urn:q">${inner}</p:r>`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('where the readers differ on purpose', () => {
  test(
    'HTML named entities: fast-xml-parser decodes them, the one-pass reader does not (no entity beyond '
      + 'the five predefined)',
    () => {
      const xml = '<r>&nbsp;&copy;</r>';
      expect(parseXml(xml, 'fast-xml-parser').root.text).toBe('\u00a0©');
      expect(parseXml(xml, 'scan').root.text).toBe('&nbsp;&copy;');
    },
  );
  test.each([
    ['an end tag that does not match', '<a><b></a>', /does not match <b>/],
    ['an element never closed', '<a><b/>', /<a> is not closed/],
    ['an attribute given twice', '<a x="1" x="2"/>', /attribute x given twice/],
    [
      'an attribute given twice among many',
      `<a ${Array.from({ length: 40 }, (_, i) => `a${i}="1"`).join(' ')} a7="2"/>`,
      /attribute a7 given twice/,
    ],
    ['an attribute without a value', '<a x/>', /attribute x of <a> has no value/],
    ['an unquoted attribute value', '<a x=1/>', /not quoted/],
    [
      'nesting beyond the limit, in a message of bounded length',
      `${`<${'n'.repeat(1000)}>`.repeat(MAX_DEPTH + 1)}`,
      /^not well-formed XML: more than 513 nested elements at \/n{59}…\/n{59}…\/n{59}…\/… 506 more …\/.{0,400}\(line 1, column \d+\)$/,
    ],
  ])(
    'the one-pass reader refuses, with a clear message, %s (fast-xml-parser guesses at all but the last)',
    (_what, xml, message) => {
      expect(() => parseXml(xml, 'scan')).toThrow(XmlError);
      expect(() => parseXml(xml, 'scan')).toThrow(message);
    },
  );
});

describe('end tags the one-pass reader refuses (fast-xml-parser guesses; libxml2 refuses them too)', () => {
  test.each([
    ['a name its start tag begins with', '<r><ab></a></ab></r>', 'end tag </a> does not match <ab> (line 1, column 8)'],
    ['a longer name than its start tag', '<r><a></ab></r>', 'end tag </ab> does not match <a> (line 1, column 7)'],
    ['the same name, then more characters', '<r><a></a b></r>', 'end tag </a b> does not match <a> (line 1, column 7)'],
    ['no start tag', '<r/></r>', 'end tag </r> without a start tag (line 1, column 5)'],
    ['no ">"', '<r><a></a', 'unterminated end tag (line 1, column 7)'],
  ])('%s', (_name, xml, message) => {
    expect(() => parseXml(xml, 'scan')).toThrow(new XmlError(`not well-formed XML: ${message}`));
  });
});

describe('what the one-pass reader keeps after a document', () => {
  test(
    'a long element name it interns does not keep the document (a slice of 13 characters or more is a '
      + 'view of its whole text)',
    () => {
      const read = () => {
        const name = `aVeryLongElementName${Date.now()}${Math.random().toString(36).slice(2)}`;
        const xml = `<r><${name}>${'y'.repeat(20_000_000)}</${name}></r>`;
        return parseXml(xml, 'scan').root.children[0]!.local.length;
      };
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      expect(read()).toBeGreaterThan(20);
      /x/.exec('x'); // V8 keeps the last subject a regular expression ran on
      collectGarbage();
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000); // the text is 19 MB
    },
  );
});

describe('internalized', () => {
  test.each(['urn:x/y', '', '__proto__', '123', '0123', 'constructor', 'é日\uD800'])('gives the same text: %j', (s) => {
    expect(internalized(`${s}`)).toBe(s);
  });
});

describe('which reader reads a document', () => {
  test('by size: the one-pass reader from the threshold on, fast-xml-parser below it', () => {
    const html = (n: number) => `<r>${' '.repeat(n)}&nbsp;</r>`;
    const before = setScanReaderMinChars(1000);
    try {
      expect(parseXml(html(10)).root.text.endsWith('\u00a0')).toBe(true);
      expect(parseXml(html(2000)).root.text.endsWith('&nbsp;')).toBe(true);
    } finally {
      setScanReaderMinChars(before);
    }
  });
});

describe('the full checks give the same findings through either reader', () => {
  const op = findOperation('SearchTransfers')!;
  const ns = DEFAULT_NAMESPACES[op.ns];
  const soap11 = binding('soap11');
  /** A SearchTransfers answer of about 1 MB, its airports' transfers holding a few defects when `broken`. */
  function answer(broken: boolean): string {
    const result: DataObject = {
      airports: Array.from({ length: 100 }, (_, a) => ({
        airportId: 1000 + a,
        resortId: 5000 + a,
        airportName: `Málaga–Costa del Sol ${a} & <co>`,
        iataCode: 'AGP',
        timeZone: 'Europe/Madrid',
        transfers: Array.from({ length: 20 }, (_, t) => ({
          rates: ['EUR', 'SEK', 'GBP'].map((c, i) => ({ currency: c, $text: (10 + t + i).toFixed(2) })),
          transferTypeId: 1 + (t % 4),
          minimumPassengers: 1,
          maximumPassengers: 4 + (t % 12),
          estimatedTimeInHours: t % 3,
          estimatedTimeInMinutes: 25,
          ...(t % 3 ? { transferTypeName: 'Private taxi' } : {}),
        })),
      })),
    };
    const xml = soap11.encodeResult(op, serializeResult(op, result, { ns, declareNamespace: false }), ns).body;
    if (!broken) return xml;
    return xml
      .replace('<transferTypeId>2</transferTypeId>', '<transferTypeId>two</transferTypeId>')
      .replace('<timeZone>', '<unknownThing xmlns="urn:other">x</unknownThing><timeZone>')
      .replace(/<minimumPassengers>1<\/minimumPassengers>/g, (m, at: number) => (at % 7 === 0 ? '' : m));
  }
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);

  function findings(xml: string, minChars: number) {
    const before = setScanReaderMinChars(minChars);
    try {
      const request = soap11.encodeRequest(
        op,
        { userName: DEFAULT_USER, password: DEFAULT_PASSWORD },
        'http://127.0.0.1:1/x',
        ns,
      );
      // A fresh validator per reader: the tree memo is per validator, so each reader really reads.
      const ctx = new CheckContext({
        op,
        binding: 'soap11',
        caseId: 'large',
        caseKind: 'valid',
        namespaces: DEFAULT_NAMESPACES,
        validator: { ...validator },
        exchange: {
          request,
          response: {
            status: 200,
            headers: { 'content-type': 'text/xml; charset=utf-8' },
            body: Buffer.from(xml),
            elapsedMs: 0,
          },
        },
      });
      const runs = runChecks(ctx, CHECKS).map((r) => ({ check: r.check.name, outcome: r.outcome }));
      const result = ctx.located().result;
      return { runs, digest: result ? canonicalDigest(result, op.resultType, ns) : undefined };
    } finally {
      setScanReaderMinChars(before);
    }
  }

  test.each([
    ['a conforming', false],
    ['a broken', true],
  ] as const)('%s 1 MB answer', (_what, broken) => {
    const xml = answer(broken);
    expect(xml.length).toBeGreaterThan(700_000);
    const viaFirst = findings(xml, Infinity);
    const viaScan = findings(xml, 0);
    expect(viaScan).toEqual(viaFirst);
    const failed = viaFirst.runs.filter((r) => Array.isArray(r.outcome) && r.outcome.length > 0).map((r) => r.check);
    if (broken) expect(failed).toEqual(expect.arrayContaining(['xsd_valid', 'shape']));
    else expect(failed).toEqual([]);
  });
});

describe('readTree: the markup limits counted while reading give what the scan before reading gave', () => {
  /** As the checks' context read a tree before readTree: the limits' scan, the DOCTYPE scan, then the reader. */
  function scanFirst(xml: string, limits: MarkupLimits): { parsed?: ParsedXml; error?: string } {
    const notParsed = overLimit(scanMarkup(xml), limits);
    if (notParsed !== undefined) return { error: notParsed };
    if (hasDoctype(xml))
      return {
        error:
          'document type declaration (<!DOCTYPE) present: not allowed in these messages, entities are never expanded',
      };
    try {
      return { parsed: parseXml(xml) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  /** Limits small enough for the documents below to cross each of them, and the validator's own. */
  const LIMITS: MarkupLimits[] = [
    markupLimits(32 * 1024 * 1024),
    { attributesPerElement: 2, namespacesInScope: 256, nodes: 1_000_000 },
    { attributesPerElement: 256, namespacesInScope: 2, nodes: 1_000_000 },
    { attributesPerElement: 256, namespacesInScope: 256, nodes: 12 },
    { attributesPerElement: 3, namespacesInScope: 3, nodes: 40 },
  ];

  function expectSameVerdict(name: string, xml: string): void {
    const before = setScanReaderMinChars(0); // the one-pass reader, which counts (the other reader scans first, as before)
    try {
      for (const limits of LIMITS)
        expect(readTree(xml, limits), `${name} ${JSON.stringify(limits)}`).toEqual(scanFirst(xml, limits));
    } finally {
      setScanReaderMinChars(before);
    }
  }

  test("on the hand-written documents, the hostile ones and the real service's answers", () => {
    for (const [name, xml] of EDGE_CASES) expectSameVerdict(name, xml);
    for (const frame of ['1.1', '1.2', undefined] as const) {
      expectSameVerdict('manyAttributes', hostile.manyAttributes(frame, 300));
      expectSameVerdict('deepNamespaces', hostile.deepNamespaces(frame, 300));
      expectSameVerdict('manyNamespaceDeclarations', hostile.manyNamespaceDeclarations(frame, 300));
      expectSameVerdict('manySiblings', hostile.manySiblings(frame, 2000));
      expectSameVerdict('unknownSiblings', hostile.unknownSiblings(frame, 2000));
    }
    const dir = join(ROOT, 'fixtures', 'real-service');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.xml')))
      expectSameVerdict(f, readFileSync(join(dir, f), 'utf8'));
  });

  test.each([
    ['a DOCTYPE after an element over a limit', '<r a="1" b="2" c="3" d="4"/><!DOCTYPE r>'],
    ['a DOCTYPE inside the root', '<r><!DOCTYPE r><a/></r>'],
    ['a DOCTYPE behind an unterminated comment', '<r><!-- <!DOCTYPE r></r>'],
    ['an element over a limit after broken markup', '<r><a b=1/><c x="1" y="2" z="3" w="4"/></r>'],
    [
      'namespace declarations in scope, redeclared',
      '<r xmlns:a="u:1"><s xmlns:a="u:2" xmlns:b="u:3"><t xmlns:c="u:4"/></s><s2 xmlns:d="u:5"/></r>',
    ],
    [
      'declarations on empty elements do not stay in scope',
      '<r xmlns:a="u:1"><s xmlns:b="u:2" xmlns:c="u:3"/><t xmlns:d="u:4"/></r>',
    ],
    ['nodes exactly at a limit and one past it', `<r>${'<a/>'.repeat(11)}</r>|<r>${'<a/>'.repeat(12)}</r>`],
  ])('on %s', (name, xml) => {
    for (const doc of xml.split('|')) expectSameVerdict(name, doc);
  });

  test('on generated documents', () => {
    const node = generatedNode();
    fc.assert(
      fc.property(node(4), (inner) => {
        expectSameVerdict(inner, `<p:r xmlns:p="urn:p" xmlns:q="urn:q">${inner}</p:r>`);
      }),
      { numRuns: 300 },
    );
  });
});
