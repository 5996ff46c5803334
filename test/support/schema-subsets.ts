/**
 * The proof that the schema subsets each document gets (src/schema/schema-bundle.ts) give the same
 * verdicts and messages as the whole schemas, over a corpus of every operation's documents in every
 * kind and variants reaching into other types and elements. It is CPU-bound (each document validated
 * twice, a few hundred per operation): src/schema/schema-bundle.test.ts proves it with two namespaces
 * in `npm test`, suites/e2e/schema-subsets.test.ts with one namespace for both services (a slow proof).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { soap11, soap12 } from '../../src/bindings/soap.js';
import { OPERATIONS, type Namespaces } from '../../src/contract/catalogue.js';
import { allTypes } from '../../src/contract/model.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { sampleInstance } from './checks.js';
import { documentOf, KINDS } from './validation.js';

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/**
 * The documents compared: every operation's samples in all kinds, and variants reaching into other types and
 * elements.
 */
export function subsetCorpus(ns: Namespaces): { name: string; xml: string }[] {
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

/** The subsets' verdicts and messages against the whole schemas', for one choice of namespaces. */
export function describeSubsetEquality(label: string, ns: Namespaces): void {
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
      docs = subsetCorpus(ns);
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
