/**
 * The house's two structural rules, held against the code (docs/architecture.md, "Where things live"): nothing
 * imports upward or sideways into another room of its floor, and no file outside src/bindings/
 * branches on a binding id.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Floors, ground first: a room imports only rooms of lower floors (and itself). */
const FLOOR: Record<string, number> = {
  contract: 1, core: 2, xml: 3, transport: 3, bindings: 4, schema: 5, checks: 6, mock: 6, report: 6, equivalence: 7, engine: 8, cli: 9,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const roomOf = (path: string) => relative(SRC, path).split('/')[0]!;

describe('structure', () => {
  const files = sources(SRC).filter((f) => roomOf(f) in FLOOR);

  test('every room of src/ has a floor', () => {
    const rooms = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(rooms.sort()).toEqual(Object.keys(FLOOR).sort());
  });

  test('nothing imports upward, or sideways into another room of its floor', () => {
    const wrong: string[] = [];
    for (const f of files) {
      const from = roomOf(f);
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
        const target = resolve(dirname(f), m[1]!);
        if (!target.startsWith(SRC)) continue; // package data (fixtures/, schemas/, package.json)
        const to = roomOf(target);
        if (to === from || to.endsWith('.ts')) continue;
        if (FLOOR[to] === undefined || FLOOR[to]! >= FLOOR[from]!) wrong.push(`${relative(SRC, f)} imports ${m[1]} (${from} → ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('no file outside src/bindings/ branches on a binding id', () => {
    const branching = /(?:===|!==|case)\s*'(?:soap11|soap12|get|post)'|'(?:soap11|soap12|get|post)'\s*(?:===|!==)/;
    const wrong = files.filter((f) => roomOf(f) !== 'bindings' && branching.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(wrong).toEqual([]);
  });
});
