import { describe, expect, test } from 'vitest';
import { judge, longLines } from './line-length.js';
import { rewrapComments } from './rewrap-comments.js';
import { splitStrings } from './split-strings.js';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

describe('line-length', () => {
  test('names the lines over the width, counted in characters, not bytes', () => {
    const text = ['short', 'x'.repeat(121), 'é'.repeat(120), `  ${'y'.repeat(130)}`].join('\n');
    expect(longLines(text)).toEqual([
      { line: 2, width: 121 },
      { line: 4, width: 132 },
    ]);
  });
});

describe('rewrap-comments', () => {
  test('refills an over-wide // run within the width, keeping its indentation and its words', () => {
    const src = `function f() {\n  // ${words(30)}\n  // ${words(3, 'tail')}\n  return 1;\n}\n`;
    const out = rewrapComments('a.ts', src);
    expect(widest(out)).toBeLessThanOrEqual(120);
    const comment = out.split('\n').filter((l) => l.startsWith('  // '));
    expect(comment).toHaveLength(2);
    expect(comment.map((l) => l.slice(5)).join(' ')).toBe(`${words(30)} ${words(3, 'tail')}`);
    expect(out).toContain('\n  return 1;\n}\n');
  });

  test('a comment within the width is left exactly as written, even in a file with a long line', () => {
    const src = `// short\n// lines   kept\nconst s = '${'x'.repeat(130)}';\n`;
    expect(rewrapComments('a.ts', src)).toBe(src);
  });

  test('refills a /** */ block and opens a one-line block over the width', () => {
    const block = `/**\n * ${words(28)}\n *\n * - item ${words(25)}\n *   more\n */\nexport const a = 1;\n`;
    const out = rewrapComments('a.ts', block);
    expect(widest(out)).toBeLessThanOrEqual(120);
    // The list item keeps its marker and its continuation lines hang under its text.
    const item = out.split('\n').filter((l) => /^ \* {1,3}\S/.test(l) && !l.startsWith(' * word'));
    expect(item[0]).toMatch(/^ \* - item word0 /);
    expect(item.slice(1).every((l) => l.startsWith(' *   '))).toBe(true);
    expect(out).toContain('\n *\n * - item word0 ');

    const one = `  /** ${words(30)} */\n  x = 1;\n`;
    const opened = rewrapComments('a.ts', one).split('\n');
    expect(opened[0]).toBe('  /**');
    expect(opened.slice(1, -3).every((l) => l.startsWith('   * '))).toBe(true);
    expect(opened.at(-3)).toBe('   */');
  });

  test('keeps code samples, fences and directives, and never touches // inside strings and templates', () => {
    const sample = `    ${'code();'.repeat(20)}`;
    const src = [
      `// ${words(3)}`,
      '//',
      `//${sample}`,
      '// ```',
      `// ${words(30)}`,
      '// ```',
      `// biome-ignore lint/x: ${words(25)}`,
      `const t = \`\n// ${words(30)}\n\`;`,
      `const s = '// ${words(30)}';`,
      '',
    ].join('\n');
    expect(rewrapComments('a.ts', src)).toBe(src);
  });

  test('comments after code on the same line are left for a hand to move', () => {
    const src = `const a = 1; // ${words(30)}\n`;
    expect(rewrapComments('a.ts', src)).toBe(src);
  });

  test('is idempotent: a second run changes nothing, even with a word longer than the width', () => {
    const src = [
      `  // ${words(20)} - not a list ${'u'.repeat(130)} ${words(20)} @tag 1. two`,
      '  /**',
      `   * ${words(15)} - dash ${words(15)} 2) x ${words(15)}`,
      '   * @param a the parameter, described at length '.padEnd(140, 'z'),
      '   */',
      '  function g(a: number) {}',
      '',
    ].join('\n');
    const once = rewrapComments('a.ts', src);
    expect(once).not.toBe(src);
    expect(rewrapComments('a.ts', once)).toBe(once);
  });
});

describe('line-length allowances', () => {
  test('a file may hold no more long lines than its count; the counts only go down', () => {
    const { over, counts } = judge({ 'a.ts': 3, 'b.ts': 1, 'c.ts': 2 }, { 'a.ts': 3, 'c.ts': 5, 'gone.ts': 4 });
    expect(over).toEqual(['b.ts']);
    expect(counts).toEqual({ 'a.ts': 3, 'b.ts': 0, 'c.ts': 2 });
  });
});

describe('split-strings', () => {
  // The test runs the code before and after the split to compare the values it makes.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is the test's own
  const evaluated = (code: string) => new Function(`${code}; return s;`)() as string;
  const long = `the harness's ${words(30)} "quoted" \\n\\t end`;

  test('splits a long string and a long template at spaces into the same value, byte for byte', () => {
    const x = 7;
    for (const src of [
      `const s = '${long.replace(/'/g, "\\'")}';`,
      `const x = ${x}; const s = \`${long} \${x + 1} ${words(20)} \${'a b'}\`;`,
      `const s = 'x ' + '${words(40)}'.toUpperCase();`,
      `const s = [1].map(() => '${words(40)}').join() === 'y' ? 'no' : 'yes ${words(40)}';`,
    ]) {
      const out = splitStrings('a.ts', src);
      expect(out).not.toBe(src);
      expect(out).toMatch(/['`] \+ ['`]/);
      expect(evaluated(out)).toBe(evaluated(src));
    }
  });

  test('leaves types, imports, property names and short lines alone', () => {
    const src = [
      `import { a } from './${'x'.repeat(20)} ${'y'.repeat(110)}.js';`,
      `type T = '${words(30)}';`,
      `const o = { '${words(30)}': 1 };`,
      `const s = '${words(5)}';`,
    ].join('\n');
    expect(splitStrings('a.ts', src)).toBe(src);
  });
});
