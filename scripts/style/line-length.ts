/**
 * `npm run lint`'s check of line length: no line of code longer than 120 characters. Biome wraps
 * code at that width but cannot wrap a comment or a long string; `npm run format` rewraps comments
 * (./rewrap-comments.ts), and a long string is split by hand. Exit 1 listing every line over the
 * width (path:line: width), 0 when there is none.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeFiles, MAX_LINE, ROOT, widthOf } from './files.js';

/** The 1-based numbers and widths of the lines of `text` longer than `max`. */
export function longLines(text: string, max = MAX_LINE): { line: number; width: number }[] {
  const out: { line: number; width: number }[] = [];
  text.split('\n').forEach((l, i) => {
    const width = widthOf(l);
    if (width > max) out.push({ line: i + 1, width });
  });
  return out;
}

function main(): void {
  let count = 0;
  for (const file of codeFiles()) {
    for (const { line, width } of longLines(readFileSync(join(ROOT, file), 'utf8'))) {
      console.error(`${file}:${line}: ${width} characters`);
      count++;
    }
  }
  if (count > 0) {
    console.error(
      `line-length: ${count} line(s) longer than ${MAX_LINE} characters (scripts/style/line-length.ts). `
        + 'Run `npm run format` (Biome wraps code, the rewrap wraps comments); split long strings by hand.',
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main();
