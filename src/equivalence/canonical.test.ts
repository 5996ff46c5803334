import { describe, expect, it } from 'vitest';
import { EntryDigest, type Entry } from './canonical.js';

function digestOf(entries: readonly Entry[]): string {
  const d = new EntryDigest();
  for (const e of entries) d.push(e);
  return d.finish();
}

describe('EntryDigest: equal entries, equal digests; any difference, another digest', () => {
  const base: Entry[] = [
    { path: '/r', value: '<element>' },
    { path: '/r/a/text()', value: '12.5' },
    { path: '/r/b/@x', value: 'é日本' },
  ];

  it('is a function of the entries', () => {
    expect(digestOf(base)).toBe(digestOf(base.map((e) => ({ ...e }))));
    expect(digestOf(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart a changed value, a changed path, another order, a missing or an extra entry', () => {
    const variants: Entry[][] = [
      [base[0]!, { ...base[1]!, value: '12.50' }, base[2]!],
      [base[0]!, { ...base[1]!, path: '/r/a[1]/text()' }, base[2]!],
      [base[0]!, base[2]!, base[1]!],
      [base[0]!, base[1]!],
      [...base, { path: '/r/c', value: '' }],
      [],
    ];
    const all = new Set([digestOf(base), ...variants.map(digestOf)]);
    expect(all.size).toBe(variants.length + 1);
  });

  it('cannot be fooled by moving characters between path and value or between entries', () => {
    expect(digestOf([{ path: '/a', value: 'bc' }])).not.toBe(digestOf([{ path: '/ab', value: 'c' }]));
    expect(digestOf([{ path: '/a', value: '1:x' }])).not.toBe(digestOf([{ path: '/a1:', value: 'x' }]));
    expect(digestOf([{ path: '/a', value: 'x' }, { path: '/b', value: 'y' }])).not.toBe(digestOf([{ path: '/a', value: 'x1:/b1:y' }]));
  });

  it('keeps a lone surrogate (fast-xml-parser decodes &#xD800;) apart from U+FFFD', () => {
    expect(digestOf([{ path: '/a', value: '\uD800' }])).not.toBe(digestOf([{ path: '/a', value: '\uFFFD' }]));
  });

  it('is the same however the entries fall into its 64 K chunks', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ path: `/r/item[${i}]/text()`, value: String(i * 7) }));
    const joined: Entry[] = many.map((e) => ({ ...e }));
    expect(digestOf(many)).toBe(digestOf(joined));
    expect(digestOf(many)).not.toBe(digestOf([...many.slice(0, 19_999), { ...many[19_999]!, value: 'x' }]));
  });
});
