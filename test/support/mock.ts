/**
 * Shared pieces of the mock's tests: valid parameters per operation, sending a request built by a
 * binding's client half, and finding the result element in a response.
 */
import { request } from 'undici';
import {
  DEFAULT_PATHS,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from '../../src/contract/catalogue.js';
import { requestAt } from '../../src/bindings/endpoint.js';
import { binding } from '../../src/bindings/index.js';
import type { HttpRequest } from '../../src/core/types.js';
import { parseXml, type XElement } from '../../src/xml/tree.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/handlers.js';

/** A sample value per parameter name; SearchTransfers uses all of its own. */
const SAMPLE: Readonly<Record<string, string>> = {
  bookingID: 'BK-2025-0042',
  checkInDate: '2025-06-01T00:00:00',
  checkOutDate: '2025-06-05T00:00:00',
  language: 'de',
  roomId: '5521',
  maxPrice: '2500.00',
  bookingType: 'FullPeriod',
  email: 'gäst@example.com',
  transferBookingID: 'TR-55012',
  bookingId: '100234',
  text: 'Bébé cot & <extra> pillows — 日本語',
  currencies: 'EUR,SEK',
  hotelID: '12345',
  roomID: '5521',
  arrivalDate: '2025-07-14',
  arrivalTime: '14:30',
  returnDepartureDate: '2025-07-21',
  returnDepartureTime: '10:00',
};

/** Valid parameters of an operation (with the mock's default credentials unless given). */
export function validParams(op: Operation, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params) {
    const v = p.name === 'userName' ? DEFAULT_USER : p.name === 'password' ? DEFAULT_PASSWORD : SAMPLE[p.name];
    if (v !== undefined) out[p.name] = v;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

export interface Sent {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Send an HttpRequest and read the whole answer. */
export async function sendRequest(r: HttpRequest): Promise<Sent> {
  const res = await request(r.url, { method: r.method, headers: r.headers, body: r.body });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers, body: await res.body.text() };
}

/** Call an operation through a binding's client half (section 4's paths unless others are given). */
export function call(
  baseUrl: string,
  namespaces: Namespaces,
  op: Operation,
  id: BindingId,
  params: Record<string, string>,
  paths: ServicePaths = DEFAULT_PATHS,
): Promise<Sent> {
  return sendRequest(requestAt(baseUrl, op, id, params, namespaces, paths));
}

/** The result element of a response document, where its binding puts it (in the namespace the document gives it). */
export function resultElement(op: Operation, id: BindingId, body: string): XElement {
  const root = parseXml(body).root;
  const b = binding(id);
  const ns = b.wrapperIn(root)?.ns ?? root.ns;
  const { result } = b.locate(root, op, ns);
  if (!result) throw new Error(`no ${op.resultElement} where ${b.label} puts it in ${body.slice(0, 300)}`);
  return result;
}

/** The SOAP fault text (faultstring or Reason/Text) of a fault document. */
export function faultReason(body: string): string {
  const root = parseXml(body).root;
  const fault = root.children.find((c) => c.local === 'Body')?.children.find((c) => c.local === 'Fault');
  if (!fault) throw new Error(`not a SOAP fault: ${body.slice(0, 300)}`);
  const fs = fault.children.find((c) => c.local === 'faultstring');
  if (fs) return fs.text;
  return fault.children.find((c) => c.local === 'Reason')?.children.find((c) => c.local === 'Text')?.text ?? '';
}

/** The SOAP fault code (SOAP 1.1 faultcode, SOAP 1.2 Code/Value), as written. */
export function faultCode(body: string): string {
  const fault = parseXml(body)
    .root.children.find((c) => c.local === 'Body')
    ?.children.find((c) => c.local === 'Fault');
  const c11 = fault?.children.find((c) => c.local === 'faultcode');
  if (c11) return c11.text;
  return fault?.children.find((c) => c.local === 'Code')?.children.find((c) => c.local === 'Value')?.text ?? '';
}

/** A plain, comparable form of an element tree: names in Clark notation, attributes sorted. */
export interface CanonElement {
  name: string;
  attrs: string[];
  text: string;
  children: CanonElement[];
}

export function canon(el: XElement): CanonElement {
  return {
    name: `{${el.ns}}${el.local}`,
    attrs: el.attrs.map((a) => `{${a.ns}}${a.local}=${a.value}`).sort(),
    text: el.children.length ? el.text.trim() : el.text,
    children: el.children.map(canon),
  };
}

/** Every element of a tree, depth first. */
export function* walk(el: CanonElement): Generator<CanonElement> {
  yield el;
  for (const c of el.children) yield* walk(c);
}
