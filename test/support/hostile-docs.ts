/**
 * Documents a hostile target sends to make a checker do too much work or hold too much memory, each
 * well-formed and shaped as a GetMeals answer (so every check has something to read), sized by the
 * caller: the hostile server serves them (test/support/hostile-server.ts), the heavy suite and the
 * bench build them at the sizes they prove. Each is linear to build.
 */
import { DEFAULT_NAMESPACES } from '../../src/contract/catalogue.js';

const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** How the document is framed: a SOAP 1.1 or 1.2 envelope around GetMealsResponse, or a bare result root (GET/POST). */
export type Frame = '1.1' | '1.2' | undefined;

/** A GetMeals answer whose result element holds `inner` (its attributes `rootAttrs`), framed for the binding. */
export function mealsDocument(frame: Frame, inner: string, rootAttrs = '', ns = DEFAULT_NAMESPACES.search): string {
  const result = `<getMealsResult${rootAttrs}>${inner}</getMealsResult>`;
  if (!frame)
    return (
      `<?xml version="1.0" encoding="utf-8"?><getMealsResult xmlns="${ns}" `
      + `xmlns:xsi="${XSI}"${rootAttrs}>${inner}</getMealsResult>`
    );
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope `
    + `xmlns:soap="${frame === '1.1' ? SOAP11_NS : SOAP12_NS}" xmlns:xsi="${XSI}"><soap:Body>`
    + `<GetMealsResponse xmlns="${ns}">${result}</GetMealsResponse></soap:Body></soap:Envelope>`
  );
}

/** `n` meals whose id is not an int: one XSD error (and one shape finding) per meal. */
export function manyXsdErrors(frame: Frame, n: number): string {
  return mealsDocument(frame, `<meals>${'<meal><id>not-an-int</id><name>Room only</name></meal>'.repeat(n)}</meals>`);
}

/** One meal carrying `n` distinct attributes (libxml2 2.9 checks duplicates in quadratic time). */
export function manyAttributes(frame: Frame, n: number): string {
  const attrs: string[] = [];
  for (let i = 0; i < n; i++) attrs.push(` a${i}="${i}"`);
  return mealsDocument(frame, `<meals><meal${attrs.join('')}><id>1</id><name>Room only</name></meal></meals>`);
}

/**
 * `n` namespace declarations on the result element, then `n` meals that each declare one more
 * prefix (the reader once copied every in-scope prefix for each of them).
 */
export function deepNamespaces(frame: Frame, n: number): string {
  const decls: string[] = [];
  for (let i = 0; i < n; i++) decls.push(` xmlns:p${i}="urn:p:${i}"`);
  const meals: string[] = [];
  for (let i = 0; i < n; i++)
    meals.push(`<meal xmlns:q${i}="urn:q:${i}"><id>${i % 1000}</id><name>p${i}</name></meal>`);
  return mealsDocument(frame, `<meals>${meals.join('')}</meals>`, decls.join(''));
}

/** `n` empty siblings in the meals list (each one missing its required children). */
export function manySiblings(frame: Frame, n: number): string {
  return mealsDocument(frame, `<meals>${'<meal/>'.repeat(n)}</meals>`);
}

/**
 * `n` empty siblings the contract does not know (`<z/>`) in the result element (issue 35): each an
 * unknown element, where `manySiblings` gives known ones. With `firstText`, the first holds that
 * text (issue 43: answers that differ by binding, so the comparison reads them).
 */
export function unknownSiblings(frame: Frame, n: number, firstText?: string): string {
  return mealsDocument(
    frame,
    firstText === undefined ? '<z/>'.repeat(n) : `<z>${firstText}</z>${'<z/>'.repeat(n - 1)}`,
  );
}

/** `n` namespace declarations on one element. */
export function manyNamespaceDeclarations(frame: Frame, n: number): string {
  const decls: string[] = [];
  for (let i = 0; i < n; i++) decls.push(` xmlns:n${i}="urn:n:${i}"`);
  return mealsDocument(frame, `<meals><meal${decls.join('')}><id>1</id><name>Room only</name></meal></meals>`);
}

/**
 * A valid GetMeals answer whose one meal name is `bytes` characters of `fill` (bindings that differ get different
 * fills).
 */
export function longText(frame: Frame, bytes: number, fill: string): string {
  return mealsDocument(
    frame,
    `<meals><meal><id>1</id><name>${fill.repeat(Math.ceil(bytes / fill.length)).slice(0, bytes)}</name></meal></meals>`,
  );
}

/** A SOAP fault (or, bare, a plain text error) whose reason is about `bytes` characters long. */
export function hugeFault(frame: Frame, bytes: number): string {
  const reason = (
    `Server was unable to process request. `
    + `---> ${'stack frame at Service.Method() '.repeat(Math.ceil(bytes / 32))}`
  ).slice(0, bytes);
  if (!frame) return reason;
  const env = frame === '1.1' ? SOAP11_NS : SOAP12_NS;
  const fault =
    frame === '1.1'
      ? `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>${reason}</faultstring><detail/></soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text `
        + `xml:lang="en">${reason}</soap:Text></soap:Reason></soap:Fault>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope `
    + `xmlns:soap="${env}"><soap:Body>${fault}</soap:Body></soap:Envelope>`
  );
}
