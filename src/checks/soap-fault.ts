/** Reading a SOAP fault out of a response tree, for messages (SOAP 1.1 faultcode/faultstring, SOAP 1.2 Code/Reason). */
import { SOAP11_ENV_NS, SOAP12_ENV_NS, type XElement } from '../xml/tree.js';
import { quote } from './quote.js';

/** Whether `ns` is the envelope namespace of either SOAP version. */
export const isSoapEnvNs = (ns: string): boolean => ns === SOAP11_ENV_NS || ns === SOAP12_ENV_NS;

export interface SoapFault {
  readonly element: XElement;
  readonly version: '1.1' | '1.2';
  readonly code?: string;
  readonly reason?: string;
}

/** The Body of an Envelope of either SOAP version (the Body in the envelope's own namespace). */
export function soapBody(root: XElement): XElement | undefined {
  if (root.local !== 'Envelope' || !isSoapEnvNs(root.ns)) return undefined;
  return root.children.find((c) => c.local === 'Body' && c.ns === root.ns);
}

const text = (el: XElement | undefined): string | undefined => (el ? el.text.trim() : undefined);

/** The Fault in the Body of a SOAP envelope, with its code and reason, or undefined. */
export function findFault(root: XElement | undefined): SoapFault | undefined {
  if (!root) return undefined;
  const body = soapBody(root);
  const fault = body?.children.find((c) => c.local === 'Fault' && c.ns === root.ns);
  if (!fault) return undefined;
  if (root.ns === SOAP11_ENV_NS) {
    // SOAP 1.1: faultcode and faultstring are unqualified; tolerate qualified ones for the message.
    const child = (n: string) => fault.children.find((c) => c.local === n);
    return { element: fault, version: '1.1', code: text(child('faultcode')), reason: text(child('faultstring')) };
  }
  const env = SOAP12_ENV_NS;
  const codeEl = fault.children.find((c) => c.local === 'Code' && c.ns === env);
  const codes: string[] = [];
  for (let c = codeEl; c; c = c.children.find((k) => k.local === 'Subcode' && k.ns === env)) {
    const v = text(c.children.find((k) => k.local === 'Value' && k.ns === env));
    if (v) codes.push(v);
  }
  const reasonEl = fault.children.find((c) => c.local === 'Reason' && c.ns === env);
  const texts = reasonEl?.children.filter((c) => c.local === 'Text' && c.ns === env) ?? [];
  const reason = texts.find((t) => t.attrs.some((a) => a.local === 'lang' && /^en/i.test(a.value))) ?? texts[0];
  return { element: fault, version: '1.2', code: codes.length ? codes.join(' / ') : undefined, reason: text(reason) };
}

/** "SOAP 1.1 fault soap:Client: \"Missing parameter\"", quoted briefly. */
export function describeFault(f: SoapFault): string {
  const [codeName, reasonName] = f.version === '1.1' ? ['faultcode', 'faultstring'] : ['Code', 'Reason'];
  return (
    `SOAP ${f.version} fault `
    + `(${codeName} ${f.code ? quote(f.code, 60) : '(none)'}, ${reasonName} ${f.reason ? quote(f.reason, 120) : '(none)'})`
  );
}
