/**
 * Which families of sequences a run plans (src/sequences/families.ts), by name, as checks are
 * switched (--checks, --skip-checks): --families keeps only those named, --skip-families leaves
 * those named out (also CONFORMANCE_FAMILIES, CONFORMANCE_SKIP_FAMILIES, config keys `families`,
 * `skipFamilies`). A name no family has is refused, naming where it came from, with a "did you mean".
 * The settings (./settings.ts) only call it.
 */
import { didYouMean } from '../core/suggest.js';
import { ConfigError } from '../core/errors.js';
import { FAMILIES, type SequenceFamily } from '../sequences/index.js';
import type { Sourced } from './sourced.js';

/** The names of every family, in the list's order. */
export const FAMILY_NAMES: readonly string[] = FAMILIES.map((f) => f.name);

/** The families' names a run keeps: undefined when neither list is given (every family). */
export function selectFamilies(
  only: Sourced<string[]> | undefined,
  skip: Sourced<string[]> | undefined,
): string[] | undefined {
  if (!only && !skip) return undefined;
  for (const given of [only, skip]) {
    const unknown = given?.value.filter((n) => !FAMILY_NAMES.includes(n)) ?? [];
    if (unknown.length) {
      throw new ConfigError(
        `unknown sequence famil${unknown.length > 1 ? 'ies' : 'y'} `
          + `in ${given!.source}: ${unknown.map((n) => `${n}${didYouMean(n, FAMILY_NAMES)}`).join(', ')} `
          + `(known families: ${FAMILY_NAMES.join(', ')})`,
      );
    }
  }
  // A family named brings in the one it follows (it uses that family's bookings again); a family
  // left out takes out those that follow it (they could not run).
  const named = new Set(only?.value ?? FAMILY_NAMES);
  for (const f of [...FAMILIES].reverse()) if (named.has(f.name) && f.follows) named.add(f.follows.name);
  const kept = new Set([...named].filter((n) => !skip?.value.includes(n)));
  for (const f of FAMILIES) if (f.follows && !kept.has(f.follows.name)) kept.delete(f.name);
  return FAMILY_NAMES.filter((n) => kept.has(n));
}

/** The families a plan runs: those named (the list's order kept), or every one. */
export function familiesNamed(names: readonly string[] | undefined): readonly SequenceFamily[] {
  return names === undefined ? FAMILIES : FAMILIES.filter((f) => names.includes(f.name));
}
