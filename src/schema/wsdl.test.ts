import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import libxml from 'libxmljs2';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACES, SERVICES, DEFAULT_PATHS, operationsOf, type Namespaces } from '../contract/catalogue.js';
import { serviceWsdl, serviceNsKey, WSDL_PORTS } from './wsdl.js';
import { generateXsd } from './xsd.js';
import { sampleInstance } from '../../test/support/checks.js';
import { parseXml, type XElement } from '../xml/tree.js';

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const SOAP = 'http://schemas.xmlsoap.org/wsdl/soap/';
const SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const HTTP = 'http://schemas.xmlsoap.org/wsdl/http/';
const MIME = 'http://schemas.xmlsoap.org/wsdl/mime/';
const XS = 'http://www.w3.org/2001/XMLSchema';

const kids = (el: XElement, ns: string, local: string) => el.children.filter((c) => c.ns === ns && c.local === local);
const attr = (el: XElement, name: string) => el.attrs.find((a) => a.ns === '' && a.local === name)?.value;
const named = (el: XElement, ns: string, local: string, name: string) => {
  const found = kids(el, ns, local).filter((c) => attr(c, 'name') === name);
  expect(found, `${local} ${name}`).toHaveLength(1);
  return found[0]!;
};

/** The inline schema of a WSDL as a standalone schema document (namespace declarations of the definitions copied). */
function inlineSchemaText(wsdl: string): string {
  const start = wsdl.indexOf('<xs:schema');
  const end = wsdl.indexOf('</xs:schema>') + '</xs:schema>'.length;
  return wsdl.slice(start, end);
}

describe('generated WSDL', () => {
  const base = 'http://127.0.0.1:8080/';
  for (const service of SERVICES) {
    describe(service, () => {
      const text = serviceWsdl(service, base, DEFAULT_NAMESPACES);
      const root = parseXml(text).root;
      const ops = operationsOf(service);
      const tns = DEFAULT_NAMESPACES[serviceNsKey(service)];

      it('is well-formed (libxml2 and xmllint) and targets the group namespace', () => {
        expect(() => libxml.parseXml(text, { nonet: true })).not.toThrow();
        const dir = mkdtempSync(join(tmpdir(), 'wsdl-'));
        writeFileSync(join(dir, 'x.wsdl'), text);
        const r = spawnSync('xmllint', ['--noout', '--nonet', join(dir, 'x.wsdl')], { encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(root.ns).toBe(WSDL);
        expect(root.local).toBe('definitions');
        expect(attr(root, 'targetNamespace')).toBe(tns);
        expect(service === 'NonStaticXMLAPI' ? tns : DEFAULT_NAMESPACES.book).toBe(tns);
      });

      it('carries the group schema inline, unchanged', () => {
        const types = kids(root, WSDL, 'types');
        expect(types).toHaveLength(1);
        expect(kids(types[0]!, XS, 'schema')).toHaveLength(1);
        const xsd = generateXsd(serviceNsKey(service), DEFAULT_NAMESPACES);
        expect(
          inlineSchemaText(text)
            .split('\n')
            .map((l) => l.trim())
            .join('\n'),
        ).toBe(
          xsd
            .slice(xsd.indexOf('<xs:schema'))
            .trim()
            .split('\n')
            .map((l) => l.trim())
            .join('\n'),
        );
      });

      it('the inline schema validates sample results of every operation of the service', () => {
        const schema = libxml.parseXml(inlineSchemaText(text), { nonet: true });
        for (const op of ops) {
          for (const optional of [true, false]) {
            const doc = libxml.parseXml(sampleInstance(op, tns, { full: optional }), { nonet: true });
            expect(doc.validate(schema), `${op.name}: ${doc.validationErrors.map((e) => e.message).join('')}`).toBe(
              true,
            );
          }
          const response = libxml.parseXml(
            `<${op.name}Response xmlns="${tns}">${sampleInstance(op, tns, { full: true })}</${op.name}Response>`,
            { nonet: true },
          );
          expect(response.validate(schema)).toBe(true);
        }
        const broken = libxml.parseXml(
          `<${ops[0]!.resultElement} xmlns="${tns}"><unknown/></${ops[0]!.resultElement}>`,
          { nonet: true },
        );
        expect(broken.validate(schema)).toBe(false);
      });

      it('has the messages of every operation', () => {
        for (const op of ops) {
          const soapIn = kids(named(root, WSDL, 'message', `${op.name}SoapIn`), WSDL, 'part');
          expect(soapIn.map((p) => [attr(p, 'name'), attr(p, 'element')])).toEqual([['parameters', `tns:${op.name}`]]);
          const soapOut = kids(named(root, WSDL, 'message', `${op.name}SoapOut`), WSDL, 'part');
          expect(soapOut.map((p) => [attr(p, 'name'), attr(p, 'element')])).toEqual([
            ['parameters', `tns:${op.name}Response`],
          ]);
          for (const http of ['HttpGet', 'HttpPost']) {
            const parts = kids(named(root, WSDL, 'message', `${op.name}${http}In`), WSDL, 'part');
            expect(parts.map((p) => [attr(p, 'name'), attr(p, 'type')])).toEqual(
              op.params.map((p) => [p.name, 's:string']),
            );
            const out = kids(named(root, WSDL, 'message', `${op.name}${http}Out`), WSDL, 'part');
            expect(out.map((p) => [attr(p, 'name'), attr(p, 'element')])).toEqual([
              ['Body', `tns:${op.resultElement}`],
            ]);
          }
        }
        expect(kids(root, WSDL, 'message')).toHaveLength(ops.length * 6);
      });

      it('has three portTypes naming every operation', () => {
        expect(kids(root, WSDL, 'portType').map((p) => attr(p, 'name'))).toEqual([
          `${service}Soap`,
          `${service}HttpGet`,
          `${service}HttpPost`,
        ]);
        for (const kind of ['Soap', 'HttpGet', 'HttpPost']) {
          const pt = named(root, WSDL, 'portType', `${service}${kind}`);
          expect(kids(pt, WSDL, 'operation').map((o) => attr(o, 'name'))).toEqual(ops.map((o) => o.name));
          for (const o of kids(pt, WSDL, 'operation')) {
            expect(attr(kids(o, WSDL, 'input')[0]!, 'message')).toBe(`tns:${attr(o, 'name')}${kind}In`);
            expect(attr(kids(o, WSDL, 'output')[0]!, 'message')).toBe(`tns:${attr(o, 'name')}${kind}Out`);
          }
        }
      });

      it('names every operation on all four bindings, with the binding details of each', () => {
        expect(kids(root, WSDL, 'binding')).toHaveLength(4);
        for (const [port, proto] of [
          ['Soap', SOAP],
          ['Soap12', SOAP12],
        ] as const) {
          const b = named(root, WSDL, 'binding', `${service}${port}`);
          expect(attr(b, 'type')).toBe(`tns:${service}Soap`);
          expect(attr(kids(b, proto, 'binding')[0]!, 'transport')).toBe('http://schemas.xmlsoap.org/soap/http');
          expect(kids(b, WSDL, 'operation').map((o) => attr(o, 'name'))).toEqual(ops.map((o) => o.name));
          for (const o of kids(b, WSDL, 'operation')) {
            const so = kids(o, proto, 'operation')[0]!;
            expect(attr(so, 'soapAction')).toBe(`${tns}${attr(o, 'name')}`);
            expect(attr(so, 'style')).toBe('document');
            for (const io of ['input', 'output'])
              expect(attr(kids(kids(o, WSDL, io)[0]!, proto, 'body')[0]!, 'use')).toBe('literal');
          }
        }
        for (const [port, verb] of [
          ['HttpGet', 'GET'],
          ['HttpPost', 'POST'],
        ] as const) {
          const b = named(root, WSDL, 'binding', `${service}${port}`);
          expect(attr(b, 'type')).toBe(`tns:${service}${port}`);
          expect(attr(kids(b, HTTP, 'binding')[0]!, 'verb')).toBe(verb);
          expect(kids(b, WSDL, 'operation').map((o) => attr(o, 'name'))).toEqual(ops.map((o) => o.name));
          for (const o of kids(b, WSDL, 'operation')) {
            expect(attr(kids(o, HTTP, 'operation')[0]!, 'location')).toBe(`/${attr(o, 'name')}`);
            const input = kids(o, WSDL, 'input')[0]!;
            if (verb === 'GET') expect(kids(input, HTTP, 'urlEncoded')).toHaveLength(1);
            else expect(attr(kids(input, MIME, 'content')[0]!, 'type')).toBe('application/x-www-form-urlencoded');
            expect(attr(kids(kids(o, WSDL, 'output')[0]!, MIME, 'mimeXml')[0]!, 'part')).toBe('Body');
          }
        }
      });

      it('has a service with four ports at baseUrl + service path', () => {
        const svc = named(root, WSDL, 'service', service);
        const ports = kids(svc, WSDL, 'port');
        expect(ports.map((p) => attr(p, 'name'))).toEqual(WSDL_PORTS.map((p) => `${service}${p.port}`));
        const address = `http://127.0.0.1:8080${DEFAULT_PATHS[service === 'Booking' ? 'booking' : 'reference'].soap}`;
        const protos = [SOAP, SOAP12, HTTP, HTTP];
        ports.forEach((p, i) => {
          expect(attr(p, 'binding')).toBe(`tns:${attr(p, 'name')}`);
          expect(attr(kids(p, protos[i]!, 'address')[0]!, 'location')).toBe(address);
        });
      });
    });
  }

  it('uses the configured namespaces and escapes them', () => {
    const ns: Namespaces = { book: 'urn:b/1/?a=1&b="2"', search: 'urn:s/1/' };
    const text = serviceWsdl('Booking', 'https://h.example', ns);
    const root = parseXml(text).root;
    expect(attr(root, 'targetNamespace')).toBe(ns.book);
    expect(text).toContain('location="https://h.example/1/SOAP/Booking.asmx"');
    expect(text).not.toContain(DEFAULT_NAMESPACES.book);
    expect(serviceWsdl('NonStaticXMLAPI', 'https://h.example', ns)).toContain('targetNamespace="urn:s/1/"');
  });

  it('SearchTransfers is on NonStaticXMLAPI with the search namespace', () => {
    const text = serviceWsdl('NonStaticXMLAPI', 'http://x', DEFAULT_NAMESPACES);
    expect(text).toContain('<wsdl:operation name="SearchTransfers">');
    expect(text).toContain(`soapAction="${DEFAULT_NAMESPACES.search}SearchTransfers"`);
    expect(serviceWsdl('Booking', 'http://x', DEFAULT_NAMESPACES)).not.toMatch(
      /"SearchTransfers"|SearchTransfersSoapIn|tns:SearchTransfers"/,
    );
  });
});
