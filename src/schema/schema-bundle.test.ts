/**
 * The schema bundle (./schema-bundle.ts): its cache directory (private, rewritten when removed), the
 * namespaces substituted, and the subsets each document gets, whose verdicts and messages equal the
 * whole schemas'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_NAMESPACES,
  OPERATIONS,
  findOperation,
  type Namespaces,
  type Operation,
} from '../contract/catalogue.js';
import { sampleInstance } from '../../test/support/checks.js';
import { documentOf, expectRejected, expectValid, KINDS } from '../../test/support/validation.js';
import { soap11, soap12 } from '../bindings/soap.js';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { allTypes } from '../contract/model.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDocumentValidator } from './xsd-validator.js';
import { schemaBundle, substituteNamespaces } from './schema-bundle.js';

const NS = DEFAULT_NAMESPACES;
const B = NS.book;
const S = NS.search;
const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

const op = (name: string): Operation => findOperation(name)!;

describe('schema cache', () => {
  it('survives the removal of its directory (libxml2 reads the imported files on every validate)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsd-cache-test-'));
    const v = createDocumentValidator({ book: 'urn:cache:b/1/', search: 'urn:cache:s/1/' }, { cacheDir: dir });
    const doc = '<result xmlns="urn:cache:b/1/"><Code>0</Code></result>';
    expectValid(v.validate(doc), 'before');
    rmSync(dir, { recursive: true, force: true });
    expectValid(v.validate(doc), 'after removal');
    expectRejected(
      v.validate('<result xmlns="urn:cache:b/1/"><Code>x</Code></result>'),
      'urn:cache:b/1/',
      'Code',
      'still validating',
    );
    expect(existsSync(join(schemaBundle({ book: 'urn:cache:b/1/', search: 'urn:cache:s/1/' }, dir).path))).toBe(true);
  });

  it('the default cache directory is private to the user', () => {
    const b = schemaBundle(NS);
    expect(b.dir.startsWith(tmpdir())).toBe(true);
    expect(statSync(dirname(b.dir)).mode & 0o077).toBe(0);
  });
});

describe('namespace substitution', () => {
  it('substitution touches only namespace attribute values', () => {
    const xsd = `<xs:schema xmlns:tns="${B}" targetNamespace="${B}"><!-- ${B} --></xs:schema>`;
    expect(substituteNamespaces(xsd, { book: 'urn:b&"', search: S })).toBe(
      `<xs:schema xmlns:tns="urn:b&amp;&quot;" targetNamespace="urn:b&amp;&quot;"><!-- ${B} --></xs:schema>`,
    );
  });
});

describe(
  'schema subsets (libxmljs2 compiles the schema on every validate: each document gets only what it ' + 'names)',
  () => {
    /**
     * The documents compared: every operation's samples in all kinds, and variants reaching into other types and
     * elements.
     */
    function corpus(ns: Namespaces): { name: string; xml: string }[] {
      const out: { name: string; xml: string }[] = [];
      const typeNames = allTypes().map((t) => t.name);
      for (const o of OPERATIONS) {
        const tns = ns[o.ns];
        for (const optional of [true, false]) {
          const result = sampleInstance(o, tns, { full: optional });
          for (const kind of KINDS)
            out.push({ name: `${o.name} ${kind} optional=${optional}`, xml: documentOf(kind, o, result, tns) });
        }
        const result = sampleInstance(o, tns, { full: true });
        // xsi:type naming each type of the model (also ones the operation never reaches), and unknown ones
        for (const t of [...typeNames, 'NoSuchType']) {
          const typed = result.replace(/^<([\w:]+)/, `<$1 ${XSI} xmlns:q="${tns}" xsi:type="q:${t}"`);
          out.push({ name: `${o.name} xsi:type=${t}`, xml: documentOf('bare', o, typed, tns) });
        }
        // the whole sample of every other operation where a lax or strict wildcard may look it up
        for (const other of OPERATIONS) {
          const foreign = sampleInstance(other, ns[other.ns], { full: true }).replace(
            /<Code>[^<]*<\/Code>/,
            '<Code>not-an-int</Code>',
          );
          out.push({
            name: `${o.name} soap11 + ${other.name}`,
            xml: documentOf('soap11', o, result, tns).replace('</soap:Body>', `${foreign}</soap:Body>`),
          });
          out.push({ name: `${o.name} root ${other.resultElement}`, xml: documentOf('bare', o, foreign, tns) });
        }
        // SOAP faults, broken ones, and the envelope's fault types named only by xsi:type
        for (const [kind, b, env] of [
          ['soap11', soap11, 'http://schemas.xmlsoap.org/soap/envelope/'],
          ['soap12', soap12, 'http://www.w3.org/2003/05/soap-envelope'],
        ] as const) {
          const fault = b.encodeFault(500, 'Server was unable to process request.', 'server').body;
          out.push({ name: `${o.name} ${kind} fault`, xml: fault });
          out.push({
            name: `${o.name} ${kind} fault without reason`,
            xml: fault.replace(/<faultstring>[^<]*<\/faultstring>|<([\w]+:)?Reason>.*<\/([\w]+:)?Reason>/s, ''),
          });
          out.push({
            name: `${o.name} ${kind} fault text without xml:lang`,
            xml: fault.replace(/ xml:lang="[^"]*"/, ''),
          });
          for (const t of [
            'Fault',
            'detail',
            'faultreason',
            'reasontext',
            'faultcode',
            'subcode',
            'faultcodeEnum',
            'Body',
          ]) {
            const typed = result.replace(/^<([\w:]+)/, `<$1 ${XSI} xmlns:e="${env}" xsi:type="e:${t}"`);
            out.push({ name: `${o.name} ${kind} xsi:type=e:${t}`, xml: documentOf(kind, o, typed, tns) });
          }
        }
        // a name spelled with a character reference, and a type name only as part of a longer name
        out.push({
          name: `${o.name} charref`,
          xml: documentOf(
            'bare',
            o,
            result.replace(/^<([\w:]+)/, `<$1 ${XSI} xmlns:q="${tns}" xsi:type="q:&#77;onetaryValue"`),
            tns,
          ),
        });
        // xml:lang on every element: checked against xml.xsd where an attribute wildcard is lax
        // (TransferRate: reached by xsi:type on a rates item, which is itself in lax content)
        for (const lang of ['not a language', 'en-GB']) {
          const typed = result.replace(/<item /g, `<item ${XSI} xmlns:q="${tns}" xsi:type="q:TransferRate" `);
          out.push({
            name: `${o.name} xml:lang=${lang}`,
            xml: documentOf('bare', o, typed.replace(/<([\w:]+)/g, `<$1 xml:lang="${lang}"`), tns),
          });
          out.push({
            name: `${o.name} xml:lang=${lang} on rates`,
            xml: documentOf('bare', o, typed.replace(/<item /g, `<item xml:lang="${lang}" `), tns),
          });
        }
      }
      return out;
    }

    for (const [label, ns] of [
      ['two namespaces', NS],
      ['one namespace', { book: 'urn:one/1/', search: 'urn:one/1/' }],
    ] as const) {
      // A test per operation (each a few hundred documents, against the whole schemas too: CPU-bound),
      // so each is short on a slow or busy machine; the counts over all of them are checked last.
      describe(`verdicts and messages equal the whole schemas' on ${label}`, () => {
        let dir: string;
        let docs: { name: string; xml: string }[];
        let whole: ReturnType<typeof createDocumentValidator>;
        const rejected = { n: 0, compared: 0 };
        beforeAll(() => {
          dir = mkdtempSync(join(tmpdir(), 'xsd-subset-test-'));
          whole = createDocumentValidator(ns, { cacheDir: dir, subsets: false });
          docs = corpus(ns);
        });
        afterAll(() => rmSync(dir, { recursive: true, force: true }));
        // one validator per operation keeps each under the subset cap, so every document is really compared
        it.for(OPERATIONS.map((o) => o.name))('%s', (name) => {
          const sub = createDocumentValidator(ns, { cacheDir: join(dir, name) });
          for (const d of docs.filter((x) => x.name.startsWith(`${name} `))) {
            const a = sub.validate(d.xml);
            const b = whole.validate(d.xml);
            expect(a, d.name).toEqual(b);
            rejected.compared++;
            if (a.wellFormedError !== undefined || a.xsdErrors.length > 0) rejected.n++;
          }
          // the subsets were used: files of a few types, not the whole group schema
          const files = readdirSync(join(dir, name), { recursive: true })
            .map(String)
            .filter((f) => f.includes('.subset-'));
          expect(files.length, name).toBeGreaterThan(0);
        });
        it('every document compared; a third or more of them rejected, not all', () => {
          expect(rejected.compared).toBe(docs.length);
          expect(rejected.n).toBeGreaterThan(docs.length / 3);
          expect(rejected.n).toBeLessThan(docs.length);
        });
      });
    }

    it('a document gets only the operation elements and types it names', () => {
      const o = op('GetLanguages');
      const bundle = schemaBundle(NS);
      const schema = bundle.docFor(documentOf('bare', o, sampleInstance(o, S, { full: true }), S)).toString();
      const file = /schemaLocation="([^"]*search\.subset-[^"]*)"/.exec(schema)?.[1];
      expect(file, schema).toBeDefined();
      const text = readFileSync(file!, 'utf8');
      expect(text).toContain('name="GetLanguagesResult"');
      expect(text).toContain('name="getLanguagesResult"');
      expect(text).not.toContain('name="GetMealsResult"');
      expect(text).not.toContain('name="StaticHotel"');
      expect(schema).not.toContain('soap11-envelope.xsd');
    });

    it('at most 256 subsets are kept; further documents use the whole schemas, with the same verdicts', () => {
      const dir = mkdtempSync(join(tmpdir(), 'xsd-subset-cap-'));
      try {
        const v = createDocumentValidator(NS, { cacheDir: dir });
        const names = allTypes().map((t) => t.name);
        const o = op('GetLanguages');
        const base = sampleInstance(o, S, { full: true });
        let n = 0;
        for (let i = 0; i < names.length && n < 300; i++) {
          for (let j = i + 1; j < names.length && n < 300; j++, n++) {
            // each document names a different pair of types in a comment: a different subset
            expectValid(
              v.validate(documentOf('bare', o, base.replace('>', `><!-- ${names[i]} ${names[j]} -->`), S)),
              `${i},${j}`,
            );
          }
        }
        const files = readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.includes('.subset-'));
        expect(files.length).toBe(256);
        expectRejected(
          v.validate(documentOf('bare', o, base.replace('>', '><!-- Hotel Room --><bogus/>'), S)),
          S,
          'bogus',
          'beyond the cap',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
