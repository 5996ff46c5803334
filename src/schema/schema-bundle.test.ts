/**
 * The schema bundle (./schema-bundle.ts): its cache directory (private, rewritten when removed), the
 * namespaces substituted, and the subsets each document gets, whose verdicts and messages equal the
 * whole schemas'.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation, type Operation } from '../contract/catalogue.js';
import { sampleInstance } from '../../test/support/checks.js';
import { documentOf, expectRejected, expectValid } from '../../test/support/validation.js';
import { describeSubsetEquality } from '../../test/support/schema-subsets.js';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { allTypes } from '../contract/model.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDocumentValidator } from './xsd-validator.js';
import { schemaBundle, substituteNamespaces } from './schema-bundle.js';

const NS = DEFAULT_NAMESPACES;
const B = NS.book;
const S = NS.search;
const _XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

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
    // The same with one namespace for both services: suites/e2e/schema-subsets.test.ts (a slow proof).
    describeSubsetEquality('two namespaces', NS);

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
