/** The four bindings, by identifier. */
import type { BindingId } from '../contract/catalogue.js';
import { httpGet, httpPost } from './http.js';
import { soap11, soap12 } from './soap.js';
import type { Binding } from './types.js';

export const BINDING_MODULES: Readonly<Record<BindingId, Binding>> = { soap11, soap12, get: httpGet, post: httpPost };

export function binding(id: BindingId): Binding {
  return BINDING_MODULES[id];
}

export type { Binding, Params, Decoded, IncomingRequest, OutgoingResponse, Located } from './types.js';
