import { describe, expect, test } from 'vitest';
import { DOCUMENTED, ELEMENT, NIL, type Entry } from './canonical.js';
import { canonicalDiff, describeItem, pathSteps, renderCanonical } from './canonical-diff.js';

const R = '/getMealsResult';
/** The entries of a meals result with these (id, name) items. */
function meals(items: [string, string][]): Entry[] {
  return [
    { path: R, value: ELEMENT },
    { path: `${R}/meals`, value: ELEMENT },
    ...items.flatMap(([id, name], i): Entry[] => [
      { path: `${R}/meals/meal[${i + 1}]`, value: ELEMENT },
      { path: `${R}/meals/meal[${i + 1}]/id`, value: ELEMENT },
      { path: `${R}/meals/meal[${i + 1}]/id/text()`, value: id },
      { path: `${R}/meals/meal[${i + 1}]/name`, value: ELEMENT },
      { path: `${R}/meals/meal[${i + 1}]/name/text()`, value: name },
    ]),
  ];
}

describe('canonical diff', () => {
  test('path steps keep a namespace with slashes whole', () => {
    expect(pathSteps('/a/{http://x.test/ns/1/}b[2]/@c')).toEqual(['a', '{http://x.test/ns/1/}b[2]', '@c']);
  });

  test('an outline: one line per element, attribute or text, no list indexes', () => {
    const entries: Entry[] = [
      { path: '/r', value: ELEMENT },
      { path: '/r/@currency', value: 'EUR' },
      { path: '/r/x[1]', value: NIL },
      { path: '/r/policy', value: DOCUMENTED },
      { path: '/r/mixed', value: ELEMENT },
      { path: '/r/mixed/text()', value: 'a\nb' },
      { path: '/r/mixed/y', value: ELEMENT },
      { path: '/r/mixed/y/text()', value: '12.5' },
    ];
    expect(renderCanonical(entries)).toEqual([
      'r',
      '  @currency="EUR"',
      '  x (nil)',
      '  policy (differs by binding, as documented)',
      '  mixed',
      '    "a\\nb"',
      '    y = 12.5',
    ]);
  });

  test('an item is described by its attributes and simple children', () => {
    const entries = meals([
      ['1', 'Breakfast'],
      ['3', 'Half board'],
    ]);
    expect(describeItem(entries, `${R}/meals/meal[2]`)).toBe('meal id=3 name="Half board"');
    expect(describeItem(entries, `${R}/meals/meal[3]`)).toBeUndefined();
    expect(describeItem(entries, `${R}/meals/meal[2]/id/text()`)).toBeUndefined();
    const themed: Entry[] = [
      { path: '/t', value: ELEMENT },
      { path: '/t/theme', value: ELEMENT },
      { path: '/t/theme/@id', value: '2' },
      { path: '/t/theme/@name', value: 'Ski' },
      { path: '/t/theme/deep', value: ELEMENT },
      { path: '/t/theme/deep/x', value: ELEMENT },
      { path: '/t/theme/deep/x/text()', value: 'not named' },
    ];
    expect(describeItem(themed, '/t/theme')).toBe('theme id=2 name="Ski"');
  });

  test('an item missing from the middle of a list is one removed block, not a renumbering', () => {
    const all = meals([
      ['1', 'A'],
      ['2', 'B'],
      ['3', 'C'],
      ['4', 'D'],
      ['5', 'E'],
      ['6', 'F'],
    ]);
    const dropped = meals([
      ['1', 'A'],
      ['2', 'B'],
      ['4', 'D'],
      ['5', 'E'],
      ['6', 'F'],
    ]);
    const diff = canonicalDiff('soap11 (majority)', all, 'soap12', dropped)!;
    const lines = diff.split('\n');
    expect(lines.slice(0, 2)).toEqual(['--- soap11 (majority)', '+++ soap12']);
    expect(lines.filter((l) => l.startsWith('-') && !l.startsWith('---'))).toEqual([
      '-    meal',
      '-      id = 3',
      '-      name = "C"',
    ]);
    expect(lines.filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toEqual([]);
    expect(lines[2]).toBe('@@ -6,9 +6,6 @@'); // three lines of context from meal 2 on
  });

  test('a changed value is one line out, one line in; equal forms give no diff', () => {
    const diff = canonicalDiff('a', meals([['1', 'A']]), 'b', meals([['1', 'Z']]))!;
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-      name = "A"', '+      name = "Z"']);
    expect(canonicalDiff('a', meals([['1', 'A']]), 'b', meals([['1', 'A']]))).toBeUndefined();
  });

  test('bounded on large answers that differ everywhere', () => {
    const many = (k: string) =>
      meals(Array.from({ length: 20_000 }, (_, i) => [String(i), `${k}${i}`] as [string, string]));
    const started = performance.now();
    const diff = canonicalDiff('a', many('x'), 'b', many('y'))!;
    const took = performance.now() - started;
    const lines = diff.split('\n');
    expect(lines.length).toBeLessThanOrEqual(124);
    expect(diff).toMatch(/more lines of diff/);
    expect(diff).toMatch(/the answers differ beyond this point too/);
    expect(took).toBeLessThan(10_000);
  });
});
