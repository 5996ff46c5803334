/**
 * Splits the string literals and templates Biome cannot wrap, on lines over 120 characters, into a
 * concatenation of pieces at spaces: `'a b c'` becomes `'a b ' + 'c'`, `` `a ${x} b c` `` becomes
 * `` `a ${x} b ` + `c` ``. The value is the same string at run time, byte for byte; Biome then lays the
 * pieces out one a line. Left alone: literals in types, import and export specifiers, property names,
 * enum members, tagged templates, `as const`, and any literal without a space to split at (a URL, a
 * regex: those are split by hand).
 *
 * Not part of `npm run format` (a literal whose type is its value, `'a b'` where a union of literals
 * is expected, no longer compiles once split: `tsc` says where). After a merge:
 * `npm run format && tsx scripts/style/split-strings.ts --write && npm run format && npx tsc --noEmit`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { codeFiles, MAX_LINE, ROOT, widthOf } from './files.js';

/** Operators binding less tightly than `+`: `a === 'x' + 'y'` is `a === ('x' + 'y')`. */
const LOOSER_THAN_PLUS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.CommaToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.InKeyword,
]);

/** Parents under which a literal may stand as a `+` of pieces without parentheses. */
function bare(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    // Beside a `+`, on either side: the literal is a string, so every `+` around it concatenates.
    return op === ts.SyntaxKind.PlusToken || LOOSER_THAN_PLUS.has(op);
  }
  return (
    ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression !== node)
    || ts.isVariableDeclaration(p)
    || ts.isPropertyAssignment(p)
    || ts.isArrayLiteralExpression(p)
    || ts.isReturnStatement(p)
    || ts.isConditionalExpression(p)
    || ts.isArrowFunction(p)
    || ts.isThrowStatement(p)
    || ts.isParenthesizedExpression(p)
    || ts.isParameter(p)
    || ts.isPropertyDeclaration(p)
  );
}

/** Literals that must stay one token. */
function fixed(node: ts.Node): boolean {
  const p = node.parent;
  if (
    ts.isImportDeclaration(p)
    || ts.isExportDeclaration(p)
    || ts.isLiteralTypeNode(p)
    || ts.isExternalModuleReference(p)
    || ts.isTaggedTemplateExpression(p)
    || ts.isEnumMember(p)
    || ts.isExpressionStatement(p)
    || ((ts.isAsExpression(p) || ts.isTypeAssertionExpression(p)) && /^const$/.test(p.type.getText()))
  )
    return true;
  if ('name' in p && (p as { name?: ts.Node }).name === node) return true;
  if (ts.isCallExpression(p) && p.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
  return false;
}

/** Where the literal may be cut (offsets in the file, just after a space), and the spans of its text. */
function cutPoints(node: ts.Node, text: string): number[] {
  const spans: [number, number][] = [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    spans.push([node.getStart() + 1, node.end - 1]);
  } else if (ts.isTemplateExpression(node)) {
    spans.push([node.head.getStart() + 1, node.head.end - 2]);
    for (const s of node.templateSpans) {
      const tail = ts.isTemplateTail(s.literal);
      spans.push([s.literal.getStart() + 1, s.literal.end - (tail ? 1 : 2)]);
    }
  }
  const out: number[] = [];
  for (const [from, to] of spans) {
    for (let i = from; i < to - 1; i++) {
      if (text[i] !== ' ') continue;
      let slashes = 0;
      while (text[i - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) out.push(i + 1);
    }
  }
  return out;
}

/** The file's literals on over-wide lines, split; the text unchanged where there is none. */
export function splitStrings(file: string, text: string, max = MAX_LINE): string {
  const lines = text.split('\n');
  if (!lines.some((l) => widthOf(l) > max)) return text;
  const kind = /\.(?:js|mjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits: { from: number; to: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    const literal =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
    if (literal) {
      const start = node.getStart(sf);
      const { line } = sf.getLineAndCharacterOfPosition(start);
      const endLine = sf.getLineAndCharacterOfPosition(node.end).line;
      const whole = lines[line]!;
      if (endLine === line && widthOf(whole) > max && !fixed(node)) {
        const indent = whole.length - whole.trimStart().length;
        const room = Math.max(30, max - indent - 12);
        const cuts = cutPoints(node, text);
        const quote = text[start]!;
        const chosen: number[] = [];
        let from = start;
        let last = -1;
        for (const c of cuts) {
          if (widthOf(text.slice(from, c)) + 4 <= room) {
            last = c;
            continue;
          }
          const cut = last > from ? last : c;
          chosen.push(cut);
          from = cut;
          last = c > cut && widthOf(text.slice(from, c)) + 4 <= room ? c : -1;
        }
        if (widthOf(text.slice(from, node.end)) + 4 > room && last > from) chosen.push(last);
        if (chosen.length > 0) {
          let out = '';
          let at = start;
          for (const c of chosen) {
            out += `${text.slice(at, c)}${quote} + ${quote}`;
            at = c;
          }
          out += text.slice(at, node.end);
          edits.push({ from: start, to: node.end, text: bare(node) ? out : `(${out})` });
        }
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  for (const e of edits.sort((a, b) => b.from - a.from)) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

function main(argv: readonly string[]): void {
  if (!argv.includes('--write')) {
    console.error('usage: split-strings.ts --write (scripts/style/split-strings.ts)');
    process.exitCode = 2;
    return;
  }
  let n = 0;
  for (const file of codeFiles()) {
    const path = join(ROOT, file);
    const text = readFileSync(path, 'utf8');
    const next = splitStrings(file, text);
    if (next === text) continue;
    writeFileSync(path, next);
    n++;
  }
  console.log(`split-strings: ${n} file(s) changed`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main(process.argv.slice(2));
