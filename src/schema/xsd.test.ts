import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import libxml from 'libxmljs2';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACES, OPERATIONS, type NsKey } from '../contract/catalogue.js';
import { ANY_TYPE_NOTES, allTypes, effective, hasOpenFields, type ComplexType } from '../contract/model.js';
import { SCHEMA_FILES, generateCombinedXsd, generateXsd } from './xsd.js';
import { sampleInstance } from '../../test/support/checks.js';
import { SCHEMAS_DIR } from './schema-bundle.js';

const KEYS: NsKey[] = ['book', 'search'];
const complexTypes = allTypes().filter((t): t is ComplexType => t.kind === 'complex');

function xmllintAvailable(): void {
  const r = spawnSync('xmllint', ['--version']);
  if (r.error) throw new Error('xmllint not found: install it with `apt-get install libxml2-utils`');
}

/** A schema in the group namespace that includes the group schema and declares one element per complex type. */
function typeTestSchema(dir: string, key: NsKey): string {
  const ns = DEFAULT_NAMESPACES[key];
  const text = [
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${ns}" targetNamespace="${ns}" `
      + `elementFormDefault="qualified">`,
    `  <xs:include schemaLocation="${join(SCHEMAS_DIR, SCHEMA_FILES[key])}"/>`,
    ...complexTypes.map((t) => `  <xs:element name="sample.${t.name}" type="tns:${t.name}"/>`),
    '</xs:schema>',
  ].join('\n');
  const path = join(dir, `types-${key}.xsd`);
  writeFileSync(path, text);
  return path;
}

describe('generated schemas', () => {
  it('the committed schemas/*.xsd are exactly what the generator produces now (run `npm run generate`)', () => {
    for (const key of KEYS) {
      const committed = readFileSync(join(SCHEMAS_DIR, SCHEMA_FILES[key]), 'utf8');
      expect(committed, `schemas/${SCHEMA_FILES[key]} is stale: run npm run generate`).toBe(
        generateXsd(key, DEFAULT_NAMESPACES),
      );
    }
  });

  it('is deterministic and says it is generated', () => {
    const a = generateXsd('search', DEFAULT_NAMESPACES);
    expect(generateXsd('search', DEFAULT_NAMESPACES)).toBe(a);
    expect(a).toMatch(/GENERATED FILE: do not edit by hand/);
    expect(a).toMatch(/npm run generate/);
    expect(a).toMatch(/src\/contract\/model\.ts/);
    // 2-space pretty printing, no tabs
    expect(a).not.toMatch(/\t/);
    expect(
      a
        .split('\n')
        .filter((l) => l.trim() !== '')
        .every((l) => /^( {2})*\S/.test(l)),
    ).toBe(true);
  });

  it('both schemas hold every named type of the model, each in its own target namespace', () => {
    for (const key of KEYS) {
      const xsd = generateXsd(key, DEFAULT_NAMESPACES);
      expect(xsd).toContain(`targetNamespace="${DEFAULT_NAMESPACES[key]}"`);
      expect(xsd).toContain('elementFormDefault="qualified"');
      expect(xsd).toContain('attributeFormDefault="unqualified"');
      for (const t of allTypes()) {
        const tag = t.kind === 'enum' ? 'simpleType' : 'complexType';
        expect(xsd, t.name).toContain(`<xs:${tag} name="${t.name}"`);
      }
      expect(xsd).toContain('<xs:simpleType name="IntList">');
    }
  });

  it('declares request, response and result elements of exactly the operations of its namespace', () => {
    for (const key of KEYS) {
      const xsd = generateXsd(key, DEFAULT_NAMESPACES);
      for (const op of OPERATIONS) {
        const here = op.ns === key;
        expect(xsd.includes(`<xs:element name="${op.name}">`), `${op.name} in ${key}`).toBe(here);
        expect(xsd.includes(`<xs:element name="${op.name}Response">`)).toBe(here);
        if (here) {
          expect(xsd).toContain(`<xs:element ref="tns:${op.resultElement}"/>`);
          const nil = op.resultNillable ? ' nillable="true"' : '';
          expect(xsd).toContain(`<xs:element name="${op.resultElement}" type="tns:${op.resultType}"${nil}>`);
        }
      }
    }
    // CancelBooking's result element is named `result`; searchTransfersResult is nillable.
    expect(generateXsd('book', DEFAULT_NAMESPACES)).toContain(
      '<xs:element name="result" type="tns:CancelBookingResult">',
    );
    expect(generateXsd('search', DEFAULT_NAMESPACES)).toContain(
      '<xs:element name="searchTransfersResult" type="tns:SearchTransfersResult" nillable="true">',
    );
  });

  it('request parameters: strings optional, typed ones required', () => {
    const xsd = generateXsd('book', DEFAULT_NAMESPACES);
    expect(xsd).toContain('<xs:element name="checkInDate" type="xs:dateTime" minOccurs="1"/>');
    expect(xsd).toContain('<xs:element name="maxPrice" type="xs:decimal" minOccurs="1"/>');
    expect(xsd).toContain('<xs:element name="roomId" type="xs:int" minOccurs="1"/>');
    expect(xsd).toContain('<xs:element name="bookingID" type="xs:string" minOccurs="0"/>');
  });

  it('quotes the contract sentence on every not-shown place', () => {
    const xsd = generateXsd('search', DEFAULT_NAMESPACES);
    const notes = [
      ...complexTypes.flatMap((t) => [
        t.openContent,
        t.anyAttribute,
        ...t.fields.map((f) => (f.kind === 'open' ? f.note : undefined)),
      ]),
      ...Object.values(ANY_TYPE_NOTES),
    ].filter((n): n is string => n !== undefined);
    expect(notes.length).toBeGreaterThanOrEqual(5);
    for (const n of notes) expect(xsd, n).toContain(n);
    // Types whose effective content has an open field are fully open, the others are not.
    for (const t of complexTypes) {
      const block = xsd.slice(xsd.indexOf(`<xs:complexType name="${t.name}"`));
      const body = block.slice(0, block.indexOf('</xs:complexType>'));
      if (hasOpenFields(t.name))
        expect(body, t.name).toMatch(
          /<xs:any processContents="lax"|<xs:extension base="tns:(NonStaticTransfer|Transfer)"\/>/,
        );
    }
  });

  it('a target with one namespace for both groups gets one combined schema that compiles', () => {
    const xsd = generateCombinedXsd('urn:one/1/');
    for (const op of OPERATIONS) expect(xsd).toContain(`<xs:element name="${op.name}Response">`);
    const doc = libxml.parseXml(xsd, { nonet: true });
    const inst = libxml.parseXml(sampleInstance('GetMeals', 'urn:one/1/', { full: true }), { nonet: true });
    expect(inst.validate(doc), JSON.stringify(inst.validationErrors)).toBe(true);
  });
});

describe('schemas compile', () => {
  it('xmllint parses and compiles every schema file', () => {
    xmllintAvailable();
    const dir = mkdtempSync(join(tmpdir(), 'xsd-compile-'));
    const files = ['booking.xsd', 'search.xsd', 'soap11-envelope.xsd', 'soap12-envelope.xsd', 'xml.xsd'];
    for (const f of files) execFileSync('xmllint', ['--noout', join(SCHEMAS_DIR, f)]);
    // Compile each with a valid instance: exit 0 means compiled and valid.
    const cases: [string, string][] = [
      ['booking.xsd', sampleInstance('GetSpecialRequest', DEFAULT_NAMESPACES.book, { full: true })],
      ['search.xsd', sampleInstance('GetMeals', DEFAULT_NAMESPACES.search, { full: true })],
      [
        'soap11-envelope.xsd',
        '<s:Envelope '
          + 'xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>x</faultstring></s:Fault></s:Body></s:Envelope>',
      ],
      [
        'soap12-envelope.xsd',
        '<s:Envelope '
          + 'xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code><s:Reason><s:Text '
          + 'xml:lang="en">x</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>',
      ],
    ];
    for (const [schema, instance] of cases) {
      const path = join(dir, `${schema}.xml`);
      writeFileSync(path, instance);
      const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(SCHEMAS_DIR, schema), path], {
        encoding: 'utf8',
      });
      expect(r.status, `${schema}: ${r.stderr}`).toBe(0);
    }
  });

  it('libxml2 of libxmljs2 compiles both group schemas', () => {
    for (const key of KEYS) {
      const xsd = libxml.parseXml(readFileSync(join(SCHEMAS_DIR, SCHEMA_FILES[key]), 'utf8'), { nonet: true });
      const doc = libxml.parseXml('<nothing/>', { nonet: true });
      expect(doc.validate(xsd)).toBe(false); // compiled (no throw), and the instance has no declaration
      expect(doc.validationErrors[0]?.message).toMatch(/No matching global declaration/);
    }
  });
});

describe('a valid instance of every complex type of the model validates', () => {
  for (const key of KEYS) {
    it(`in the ${key} namespace (libxmljs2 and xmllint agree), all parts and required parts only`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'xsd-types-'));
      const schemaPath = typeTestSchema(dir, key);
      const schema = libxml.parseXml(readFileSync(schemaPath, 'utf8'), { nonet: true, baseUrl: schemaPath });
      const files: string[] = [];
      for (const t of complexTypes) {
        for (const optional of [true, false]) {
          const xml = sampleInstance({ type: t.name, element: `sample.${t.name}` }, DEFAULT_NAMESPACES[key], {
            full: optional,
          });
          const doc = libxml.parseXml(xml, { nonet: true });
          expect(
            doc.validate(schema),
            `${t.name} (optional: ${optional}): ${xml}\n${doc.validationErrors.map((e) => e.message).join('')}`,
          ).toBe(true);
          const path = join(dir, `${t.name}-${optional}.xml`);
          writeFileSync(path, xml);
          files.push(path);
        }
      }
      xmllintAvailable();
      const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath, ...files], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    });
  }

  it('sample instances really exercise the types (every required field and attribute present)', () => {
    const xml = sampleInstance({ type: 'StaticHotel', element: 'h' }, 'urn:x');
    for (const f of effective('StaticHotel').fields) {
      if (f.kind === 'element' && f.min === 1) expect(xml).toMatch(new RegExp(`<${f.name}[ >/]`));
    }
    expect(sampleInstance({ type: 'MonetaryValueWithPaymentMethods', element: 'p' }, 'urn:x', { full: true })).toMatch(
      /paymentMethods="1 2"/,
    );
  });
});
