/**
 * One entry of a result's canonical form (./canonical.ts): a place and its value. Its own file so the
 * form and its digest (./entry-digest.ts) both read it without importing each other.
 */

export interface Entry {
  /** Path from the result element, e.g. /getMealsResult/meals/meal[2]/id or .../@currency */
  readonly path: string;
  readonly value: string;
}

/** A step as paths spell it: `name[index]`, or the name alone for index 0. */
export const stepOf = (name: string, index: number): string => (index === 0 ? name : `${name}[${index}]`);
