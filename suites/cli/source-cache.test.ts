/**
 * bin/source-cache.js's freshness check: the hash of the sources comes from the stamp only while every
 * file's stat is the one recorded with it; an edit, even of the same size, is seen.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';

interface SourceCache {
  currentHash(root: string, cache: string, settledMs?: number): Promise<{ hash: string; via: 'stamp' | 'hash' }>;
  sourceHash(root: string): Promise<string>;
}
const BIN = new URL('../../bin/source-cache.js', import.meta.url).href;
const load = async () => (await import(BIN)) as SourceCache;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout of three files, and a cache directory of its own. */
function checkout(): { root: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'source-cache-'));
  dirs.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  return { root, cache: join(root, '.source-cache') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the source cache sees every edit', () => {
  test('files written just now: hashed at each start, no stamp recorded (an edit in the same tick seen)', async () => {
    const { currentHash, sourceHash } = await load();
    const { root, cache } = checkout();
    const first = await currentHash(root, cache);
    expect(first.via).toBe('hash');
    expect(existsSync(join(cache, 'stamp'))).toBe(false);
    // The same size, at once: only the bytes differ.
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
    const second = await currentHash(root, cache);
    expect(second).toEqual({ hash: await sourceHash(root), via: 'hash' });
    expect(second.hash).not.toBe(first.hash);
  });

  test('settled files: the stamp serves while nothing changes; an edit, an added file are hashed again', async () => {
    const { currentHash, sourceHash } = await load();
    const { root, cache } = checkout();
    const first = await currentHash(root, cache, 0);
    expect(first).toEqual({ hash: await sourceHash(root), via: 'hash' });
    expect(await currentHash(root, cache, 0)).toEqual({ hash: first.hash, via: 'stamp' });
    // An edit of the same size, a clock tick later (the settled rule keeps a stamp from sharing one with an edit).
    await sleep(100);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 3;\n');
    const edited = await currentHash(root, cache, 0);
    expect(edited).toEqual({ hash: await sourceHash(root), via: 'hash' });
    expect(edited.hash).not.toBe(first.hash);
    expect(await currentHash(root, cache, 0)).toEqual({ hash: edited.hash, via: 'stamp' });
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 1;\n');
    const added = await currentHash(root, cache, 0);
    expect(added).toEqual({ hash: await sourceHash(root), via: 'hash' });
    expect(added.hash).not.toBe(edited.hash);
  });

  test('a stamp that is not a hash is not believed', async () => {
    const { currentHash, sourceHash } = await load();
    const { root, cache } = checkout();
    await currentHash(root, cache, 0);
    const stamp = join(cache, 'stamp');
    const lines = readFileSync(stamp, 'utf8').split('\n');
    writeFileSync(stamp, ['not-a-hash', ...lines.slice(1)].join('\n'));
    expect(await currentHash(root, cache, 0)).toEqual({ hash: await sourceHash(root), via: 'hash' });
  });
});
