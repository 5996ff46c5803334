/**
 * Test helpers for the XSD validator and its schemas (src/schema/xsd-validator.ts,
 * src/schema/schema-bundle.ts): an operation's whole response document in each kind (bare result
 * root, SOAP 1.1, SOAP 1.2) as the mock's bindings write it, and what a valid and a rejected
 * outcome must hold.
 */
import { expect } from 'vitest';
import type { Operation } from '../../src/contract/catalogue.js';
import { soap11, soap12 } from '../../src/bindings/soap.js';
import type { LibxmlOutcome } from '../../src/schema/types.js';

export type Kind = 'bare' | 'soap11' | 'soap12';
export const KINDS: Kind[] = ['bare', 'soap11', 'soap12'];

/** The whole response document of an operation whose result element is `resultXml`, as the mock's bindings write it. */
export function documentOf(kind: Kind, o: Operation, resultXml: string, ns: string): string {
  if (kind === 'bare') return `<?xml version="1.0" encoding="utf-8"?>${resultXml}`;
  return (kind === 'soap11' ? soap11 : soap12).encodeResult(o, resultXml, ns).body;
}

export function expectValid(out: LibxmlOutcome, what: string): void {
  expect(out.wellFormedError, what).toBeUndefined();
  expect(
    out.xsdErrors.map((e) => e.message),
    what,
  ).toEqual([]);
}

/** Rejected, with an error naming the element {ns}local. */
export function expectRejected(out: LibxmlOutcome, ns: string, local: string, what: string, pattern?: RegExp): void {
  expect(out.wellFormedError, what).toBeUndefined();
  expect(out.xsdErrors.length, `${what}: expected XSD errors`).toBeGreaterThan(0);
  const name = ns === '' ? local : `{${ns}}${local}`;
  const named = out.xsdErrors.filter((e) => e.message.includes(`Element '${name}'`));
  expect(named.length, `${what}: no error names {${ns}}${local}: ${JSON.stringify(out.xsdErrors)}`).toBeGreaterThan(0);
  if (pattern) expect(named.map((e) => e.message).join('\n'), what).toMatch(pattern);
  for (const e of out.xsdErrors) expect(e.message).toBe(e.message.trim());
}
