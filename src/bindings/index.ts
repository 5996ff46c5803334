/** The four bindings, by identifier. */
import type { BindingId } from '../contract/catalogue.js';
import { httpGet, httpPost } from './http.js';
import { soap11, soap12 } from './soap.js';
import type { Binding } from './types.js';
import type { XElement } from '../xml/tree.js';

export const BINDING_MODULES: Readonly<Record<BindingId, Binding>> = { soap11, soap12, get: httpGet, post: httpPost };

export function binding(id: BindingId): Binding {
  return BINDING_MODULES[id];
}

/** A binding's label ("SOAP 1.2"), or the text itself when it names no binding. */
export function bindingLabel(id: string): string {
  return (BINDING_MODULES as Record<string, Binding | undefined>)[id]?.label ?? id;
}

/**
 * The binding a response document is of, from the document alone: an Envelope of a binding's
 * envelope namespace is that binding's; anything else is a bare result root, as HTTP GET (and POST,
 * which answers alike) writes it.
 */
export function documentBinding(root: Pick<XElement, 'ns' | 'local'> | undefined): BindingId {
  const enveloped = Object.values(BINDING_MODULES).find(
    (b) => b.envelopeNs !== undefined && root?.local === 'Envelope' && root.ns === b.envelopeNs,
  );
  return enveloped?.id ?? 'get';
}

export type { Binding, Params, Decoded, IncomingRequest, OutgoingResponse, Located } from './types.js';
