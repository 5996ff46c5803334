/**
 * Host routing, written once: which base URL and which service path a request of an operation goes
 * to on a binding, from the target's configuration (section 4's paths by default).
 */
import {
  DEFAULT_PATHS,
  type BindingId,
  type Namespaces,
  type Operation,
  type ServicePaths,
} from '../contract/catalogue.js';
import type { HttpRequest, Target } from '../core/types.js';
import type { DoctypeProbe, Params } from './types.js';
import { binding } from './index.js';

/** What routing needs of a target. */
export type Routing = Pick<Target, 'bookUrl' | 'searchUrl' | 'transfersUrl' | 'namespaces'> & {
  readonly paths: ServicePaths;
};

/** The base URL of an operation's group (booking: the book URL; transfers: the transfers URL; else the search URL). */
export function baseUrlOf(target: Routing, op: Operation): string {
  return op.group === 'booking' ? target.bookUrl : op.group === 'transfers' ? target.transfersUrl : target.searchUrl;
}

/** The URL of the service an operation is called at on a binding: base URL + the binding's service path. */
export function serviceUrlOf(target: Routing, op: Operation, id: BindingId): string {
  return baseUrlOf(target, op) + binding(id).servicePath(target.paths[op.group]);
}

/** The request of an operation with these parameters on a binding of the target. */
export function requestFor(target: Routing, op: Operation, id: BindingId, params: Params): HttpRequest {
  return binding(id).encodeRequest(op, params, serviceUrlOf(target, op, id), target.namespaces[op.ns]);
}

/**
 * That request with a DOCTYPE declaring `probe`, its entity as `param`'s value (issue 42); undefined on a binding that
 * sends no XML document.
 */
export function doctypeRequestFor(
  target: Routing,
  op: Operation,
  id: BindingId,
  params: Params,
  probe: DoctypeProbe,
  param: string,
): HttpRequest | undefined {
  return binding(id).doctypeRequest?.(op, params, serviceUrlOf(target, op, id), target.namespaces[op.ns], probe, param);
}

/**
 * The request of an operation on a binding of a service whose groups all live at one base URL (section 4's paths unless
 * others are given).
 */
export function requestAt(
  baseUrl: string,
  op: Operation,
  id: BindingId,
  params: Params,
  namespaces: Namespaces,
  paths: ServicePaths = DEFAULT_PATHS,
): HttpRequest {
  return requestFor({ bookUrl: baseUrl, searchUrl: baseUrl, transfersUrl: baseUrl, namespaces, paths }, op, id, params);
}
