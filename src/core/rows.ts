/**
 * The kinds of result rows. A row of conformance.json names a check; besides the checks of the
 * registry, three names mark rows of another kind: the exchange itself, a unit or check not run,
 * and the comparison of bindings (whose binding field may list several, comma-separated). This is
 * the one place that reads a row's kind and bindings from those fields.
 */
import type { ResultRow } from './types.js';

/** Row check name for the exchange itself (a response was received at all). */
export const EXCHANGE_CHECK = 'http_exchange';
/** Row check name of a unit or of checks not run (mutation guard, deadline). */
export const NOT_RUN_CHECK = 'all';
/** Row check name of the comparison of bindings. */
export const EQUIVALENCE_CHECK = 'binding_equivalence';

export type RowKind = 'exchange' | 'not-run' | 'equivalence' | 'check';

export function rowKind(row: Pick<ResultRow, 'check'>): RowKind {
  switch (row.check) {
    case EXCHANGE_CHECK: return 'exchange';
    case NOT_RUN_CHECK: return 'not-run';
    case EQUIVALENCE_CHECK: return 'equivalence';
    default: return 'check';
  }
}

/** The bindings a row's binding field names ("soap11", or "soap11,get" for cross-binding rows). */
export function rowBindings(row: Pick<ResultRow, 'binding'>): string[] {
  return row.binding.split(',').map((b) => b.trim()).filter((b) => b.length > 0);
}

/** The binding field of a row about `bindings` (one, or several for a cross-binding row). */
export function bindingField(bindings: readonly string[]): string {
  return bindings.join(',');
}

/** Prefix of the case ids of generated cases (src/engine/generate.ts): the reports group them. */
export const GENERATED_CASE_PREFIX = 'gen-';

/** Whether a row's case is a generated one. */
export function isGeneratedCase(caseId: string): boolean {
  return caseId.startsWith(GENERATED_CASE_PREFIX);
}
