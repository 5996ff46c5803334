import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation, OPERATIONS } from '../contract/catalogue.js';
import { serializeResult, type DataObject } from '../mock/index.js';
import { parseXml, XSI_NS, type XElement } from '../xml/tree.js';
import { canonicalDigest, canonicalEntries, type Entry } from './canonical.js';
import { ENTRY_BLOCK, EntryDigest } from './entry-digest.js';
import { canonicalEntries as entriesBefore } from '../../test/support/canonical-before-35.js';

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

  it('is the digest it was with a buffer of 32 768 characters from the start (its buffer now grows)', () => {
    // Entries of every size up to past the largest buffer, whole and stepped; the digest pinned
    // is the one this input had before the buffer grew (commit afda42f).
    const d = new EntryDigest();
    for (let i = 0; i < 300; i++) {
      d.pushAt(1 + (i % 3), `n${i % 7}`, i % 4, 'v'.repeat((i * 37) % 1500) + String(i));
      if (i % 50 === 0) d.pushAt(1, 'big', 0, 'x'.repeat(40_000 + i));
      if (i % 60 === 0) d.push({ path: `/a/b${i}/c`, value: 'y'.repeat(33_000) });
    }
    expect(d.finish()).toBe('775577af4005bec70eeab978b626f61354da36e971373a228be56e44de713daf');
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
    expect(
      digestOf([
        { path: '/a', value: 'x' },
        { path: '/b', value: 'y' },
      ]),
    ).not.toBe(digestOf([{ path: '/a', value: 'x1:/b1:y' }]));
  });

  it('keeps a lone surrogate (fast-xml-parser decodes &#xD800;) apart from U+FFFD', () => {
    expect(digestOf([{ path: '/a', value: '\uD800' }])).not.toBe(digestOf([{ path: '/a', value: '\uFFFD' }]));
  });

  it('is the same however the entries fall into its chunks, a value longer than a chunk included', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ path: `/r/item[${i}]/text()`, value: String(i * 7) }));
    const joined: Entry[] = many.map((e) => ({ ...e }));
    expect(digestOf(many)).toBe(digestOf(joined));
    expect(digestOf(many)).not.toBe(digestOf([...many.slice(0, 19_999), { ...many[19_999]!, value: 'x' }]));
    const long = 'ab'.repeat(50_000);
    expect(digestOf([...many, { path: '/r/long', value: long }])).toBe(
      digestOf([...joined, { path: '/r/long', value: long.slice(0, 50_000) + long.slice(50_000) }]),
    );
    expect(digestOf([{ path: '/r/long', value: long }])).not.toBe(
      digestOf([{ path: '/r/long', value: `${long.slice(0, -1)}c` }]),
    );
  });
});

describe('EntryDigest blocks (issue 43): the first differing block is where the first difference is', () => {
  const many = (n: number, at?: number) =>
    Array.from({ length: n }, (_, i) => ({ path: `/r/z[${i + 1}]`, value: i === at ? 'x' : '' }));
  const blocksOf = (entries: readonly Entry[]) => {
    const d = new EntryDigest();
    for (const e of entries) d.push(e);
    const whole = d.finish();
    return { whole, blocks: d.blocks() };
  };

  test('a short list is one block, its digest the whole one (as before issue 43)', () => {
    const b = blocksOf(many(10));
    expect(b.blocks).toEqual([b.whole]);
  });

  test(
    'a long list: a block per ENTRY_BLOCK entries; a difference changes its own block and the whole, not '
      + 'the blocks before',
    () => {
      const n = 5 * ENTRY_BLOCK + 7;
      const base = blocksOf(many(n));
      expect(base.blocks).toHaveLength(6);
      for (const at of [0, ENTRY_BLOCK - 1, ENTRY_BLOCK, 3 * ENTRY_BLOCK + 11, n - 1]) {
        const other = blocksOf(many(n, at));
        const first = other.blocks.findIndex((d, i) => d !== base.blocks[i]);
        expect(first, String(at)).toBe(Math.floor(at / ENTRY_BLOCK));
        expect(other.whole).not.toBe(base.whole);
      }
      expect(blocksOf(many(n)).whole).toBe(base.whole);
      expect(blocksOf(many(n + 1)).whole).not.toBe(base.whole);
    },
  );

  test('canonicalEntries with a window keeps only its entries', () => {
    const el = parseXml(`<r xmlns="urn:x">${'<z/>'.repeat(100)}</r>`).root;
    const all = canonicalEntries(el, 'anyType', 'urn:x');
    expect(canonicalEntries(el, 'anyType', 'urn:x', undefined, { from: 10, to: 30 })).toEqual(all.slice(10, 30));
    expect(canonicalEntries(el, 'anyType', 'urn:x', undefined, { path: (p) => p.endsWith('[7]'), limit: 5 })).toEqual(
      all.filter((e) => e.path.endsWith('[7]')),
    );
  });
});

describe(
  "canonicalDigest: the digest EntryDigest gives for canonicalEntries' list, built without paths; the "
    + 'entries as before issue 35',
  () => {
    const ROOT = join(import.meta.dirname, '..', '..');
    const elements = (el: XElement): XElement[] => [el, ...el.children.flatMap(elements)];
    const same = (el: XElement, type: string, ns: string, ignore?: (p: string) => boolean) => {
      expect(canonicalDigest(el, type, ns, ignore)).toBe(digestOf(canonicalEntries(el, type, ns, ignore)));
    };

    test("on the real service's captured answers, documented differences ignored or not", () => {
      const dir = join(ROOT, 'fixtures', 'real-service');
      let results = 0;
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.xml'))) {
        const all = elements(parseXml(readFileSync(join(dir, f), 'utf8')).root);
        for (const op of OPERATIONS) {
          for (const el of all.filter((e) => e.local === op.resultElement)) {
            results++;
            const ns = DEFAULT_NAMESPACES[op.ns];
            const aside = (p: string) => p.split('/').length === 2; // every child of the result set aside
            same(el, op.resultType, ns);
            same(el, op.resultType, ns, aside);
            same(el, 'anyType', ns);
            expect(canonicalEntries(el, op.resultType, ns)).toEqual(entriesBefore(el, op.resultType, ns));
            expect(canonicalEntries(el, op.resultType, ns, aside)).toEqual(entriesBefore(el, op.resultType, ns, aside));
          }
        }
      }
      expect(results).toBeGreaterThan(20);
    });

    test('on a large typed answer (lists, attributes, typed texts, an unknown element, a nil)', () => {
      const op = findOperation('SearchTransfers')!;
      const ns = DEFAULT_NAMESPACES[op.ns];
      const result: DataObject = {
        airports: Array.from({ length: 30 }, (_, a) => ({
          airportId: 1000 + a,
          resortId: 5000 + a,
          airportName: `Málaga ${a}`,
          iataCode: 'AGP',
          timeZone: 'Europe/Madrid',
          transfers: Array.from({ length: 5 }, (_, t) => ({
            rates: ['EUR', 'SEK'].map((c, i) => ({ currency: c, $text: (10 + t + i).toFixed(2) })),
            transferTypeId: 1 + (t % 4),
            minimumPassengers: 1,
            maximumPassengers: 4,
            estimatedTimeInHours: t % 3,
            estimatedTimeInMinutes: 25,
            ...(t % 3 ? { transferTypeName: 'Private taxi' } : {}),
          })),
        })),
      };
      const xml = serializeResult(op, result, { ns, declareNamespace: true }).replace(
        '<timeZone>',
        `<unknownThing xmlns="urn:other/x">x<y/><y/></unknownThing><iataCode xmlns:xsi="${XSI_NS}" `
          + `xsi:nil="true"/><timeZone>`,
      );
      const el = parseXml(xml).root;
      same(el, op.resultType, ns);
      expect(canonicalEntries(el, op.resultType, ns)).toEqual(entriesBefore(el, op.resultType, ns));
      expect(canonicalEntries(el, op.resultType, ns).length).toBeGreaterThan(1000);
    });

    test(
      "on generated trees, namespaces holding '/', '{' and '}' included (a path string then splits more "
        + 'than one way, two names can read alike)',
      () => {
        const nsArb = fc.constantFrom('urn:g', '', 'urn:a/b', 'http://x.example/p/q', 'a}x/{b', 'a', 'a}b', 'b', '}/{');
        const leaf = fc.record({
          ns: nsArb,
          local: fc.constantFrom('x', 'y', 'b}c', 'meal'),
          text: fc.constantFrom('', ' ', '1.50', 'é\uD800', '+2'),
        });
        const attr = fc.record({
          ns: fc.constantFrom('', 'urn:a/b', XSI_NS),
          local: fc.constantFrom('k', 'nil', 'type', 'z/w'),
          prefix: fc.constant(''),
          value: fc.constantFrom('1', 'true', 'p:Other', ''),
        });
        const tree: fc.Memo<XElement> = fc.memo((n) =>
          fc.record({
            ns: nsArb,
            local: fc.constantFrom('x', 'y', 'meal', 'b}c', 'c'),
            prefix: fc.constant(''),
            attrs: fc.uniqueArray(attr, { maxLength: 2, selector: (a) => `${a.ns} ${a.local}` }),
            children:
              n > 1
                ? fc.array(tree(n - 1), { maxLength: 4 })
                : fc.array(
                    leaf.map((l) => ({ ...l, prefix: '', attrs: [], children: [] })),
                    { maxLength: 3 },
                  ),
            text: fc.constantFrom('', '\n ', '7', 'x/y'),
          }),
        );
        fc.assert(
          fc.property(
            tree(4),
            fc.constantFrom('anyType', 'GetMealsResult', 'SearchTransfersResult'),
            fc.boolean(),
            (el, type, ignoring) => {
              const ignore = ignoring ? (p: string) => p.endsWith('/y') : undefined;
              same(el, type, 'urn:g', ignore);
              expect(canonicalEntries(el, type, 'urn:g', ignore)).toEqual(entriesBefore(el, type, 'urn:g', ignore));
            },
          ),
          { numRuns: 400 },
        );
      },
    );

    test(
      'on wide generated records (up to 24 children: names repeated among the few compared pair by pair and '
        + 'among more), the entries as before issue 35',
      () => {
        const leaf = fc.record({
          ns: fc.constantFrom('urn:g', 'urn:g', 'urn:a/b'),
          local: fc.constantFrom('x', 'y', 'meal', 'id', 'name'),
          text: fc.constantFrom('', '1.50', '7'),
        });
        const wide = fc.record({
          ns: fc.constant('urn:g'),
          local: fc.constant('r'),
          prefix: fc.constant(''),
          attrs: fc.constant([]),
          text: fc.constant(''),
          children: fc.array(
            leaf.map((l) => ({ ...l, prefix: '', attrs: [], children: [] })),
            { maxLength: 24 },
          ),
        });
        fc.assert(
          fc.property(wide, fc.constantFrom('anyType', 'GetMealsResult'), (el, type) => {
            same(el, type, 'urn:g');
            expect(canonicalEntries(el, type, 'urn:g')).toEqual(entriesBefore(el, type, 'urn:g'));
          }),
          { numRuns: 300 },
        );
      },
    );

    test(
      "an entry given whole or as its parent's place and step hashes alike, and a path split differently "
        + 'does not collide',
      () => {
        const whole = new EntryDigest();
        const stepped = new EntryDigest();
        for (const [parent, name, index, path] of [
          [1, 'r', 0, '/r'],
          [2, '{a}x/{b}c', 0, '/r/{a}x/{b}c'],
          [3, '{b}c', 0, '/r/{a}x/{b}c'],
          [2, 'x', 1, '/r/x[1]'],
          [3, 'text()', 0, '/r/x[1]/text()'],
          [2, 'x[1]', 0, '/r/x[1]'],
          [2, 'x', 1, '/r/x[1]'],
          [2, 'text()', 0, '/r/text()'],
        ] as const) {
          whole.push({ path, value: 'v' });
          stepped.pushAt(parent, name, index, 'v');
        }
        expect(stepped.finish()).toBe(whole.finish());
        // Any walk in document order: each entry under the previous entry's path or a path it starts with.
        const step = fc.tuple(
          fc.nat(3),
          fc.constantFrom('a', 'a[1]', 'a[12]', 'b', '{u/v}a', '{u/v}a[1]', '@k', 'text()', 'x]', ''),
          fc.constantFrom(0, 0, 1, 2, 12),
        );
        fc.assert(
          fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
            const w = new EntryDigest();
            const s = new EntryDigest();
            let path: [string, number][] = [];
            for (const [up, name, index] of steps) {
              path = path.slice(0, Math.max(0, path.length - up));
              const parent = 1 + path.reduce((n, [nm]) => n + nm.split('/').length, 0);
              path.push([name, index]);
              w.push({ path: `/${path.map(([nm, i]) => (i ? `${nm}[${i}]` : nm)).join('/')}`, value: name });
              s.pushAt(parent, name, index, name);
            }
            expect(s.finish()).toBe(w.finish());
          }),
          { numRuns: 3000 },
        );
        expect(
          digestOf([
            { path: '/r/a', value: 'v' },
            { path: '/r/a/b', value: 'v' },
          ]),
        ).not.toBe(
          digestOf([
            { path: '/r/a', value: 'v' },
            { path: '/r/b', value: 'v' },
          ]),
        );
        expect(
          digestOf([
            { path: '/r/a/b', value: 'v' },
            { path: '/r/a', value: 'v' },
          ]),
        ).not.toBe(
          digestOf([
            { path: '/r/a/b', value: 'v' },
            { path: '/r/a/b', value: 'v' },
          ]),
        );
        expect(
          digestOf([
            { path: '/r/a//', value: 'v' },
            { path: '/r/a/', value: 'v' },
          ]),
        ).not.toBe(
          digestOf([
            { path: '/r/a//', value: 'v' },
            { path: '/r/a', value: 'v' },
          ]),
        );
        expect(digestOf([{ path: 'r', value: 'v' }])).not.toBe(digestOf([{ path: '/r', value: 'v' }]));
      },
    );
  },
);
