/**
 * The differences between bindings that the contract documents, as data, each with the sentence
 * it comes from. Nothing else may differ between bindings: the equivalence comparison ignores
 * exactly these places, and the binding_rules check enforces each side of them.
 */
import type { BindingId } from './catalogue.js';

/**
 * What a binding must put at the place: the nil marker, or content (present, not nil, holding text
 * or child elements: "contains child text (string)" reads both ways, and both are accepted).
 */
export type PlaceForm = 'nil' | 'content';

export interface BindingDifference {
  readonly operation: string;
  /** Local names from the result element down, without indexes. */
  readonly path: string;
  readonly expect: Readonly<Record<BindingId, PlaceForm>>;
  /** The contract's words. */
  readonly source: string;
}

export const BINDING_DIFFERENCES: readonly BindingDifference[] = [
  {
    operation: 'CancelBooking',
    path: 'result/CancellationPaymentMethod/cancellation/activecancellationpolicy',
    expect: { soap11: 'nil', soap12: 'nil', get: 'content', post: 'content' },
    source:
      'Section 2.5, CancelBooking result: "activecancellationpolicy | in the HTTP GET and HTTP POST '
      + 'bindings contains child text (string); in the SOAP bindings it is shown nil"',
  },
];

/** The documented differences of one operation. */
export function differencesOf(operation: string): readonly BindingDifference[] {
  return BINDING_DIFFERENCES.filter((d) => d.operation === operation);
}

/** The documented difference at a place of an operation's result, if any. */
export function documentedDifference(operation: string, namePath: string): BindingDifference | undefined {
  return BINDING_DIFFERENCES.find((d) => d.operation === operation && d.path === namePath);
}
