/**
 * The files the style tools look at: the TypeScript and JavaScript sources Biome formats (biome.jsonc),
 * tracked or new, never what .gitignore leaves out (dist/, reports/, caches) nor fixtures/ (data).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const MAX_LINE = 120;

export const ROOT = resolve(import.meta.dirname, '..', '..');

const CODE = /\.(?:ts|js|mjs)$/;
const DATA = /^(?:dist|reports|fixtures|scratch)\//;

/** Paths relative to the repository's root, sorted. */
export function codeFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\0'))].filter((f) => CODE.test(f) && !DATA.test(f)).sort();
}

/** The width of a line in characters (code points, as a reader counts them), its line end left out. */
export function widthOf(line: string): number {
  let n = 0;
  for (const _ of line.replace(/\r$/, '')) n++;
  return n;
}
