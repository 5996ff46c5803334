/** Reading a JSON file the harness was pointed at, with errors that name the file and the problem. */
import { readFileSync } from 'node:fs';

/**
 * The parsed content of a JSON file. `what` names the file in messages ("config file x.json");
 * `fail` makes the error to throw (its class decides the exit code); `hint` follows a read error.
 */
export function readJsonFile(path: string, what: string, fail: (message: string) => Error, hint = ''): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw fail(`cannot read ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${hint}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail(`${what} is not valid JSON: ${jsonErrorWhere((e as Error).message, text)}`);
  }
}

/** Line and column (1-based) of a character offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

/**
 * JSON.parse's message with the place a person can find in an editor: "line 12, column 5" instead
 * of "position 440" (and the end of the file named as such).
 */
export function jsonErrorWhere(message: string, text: string): string {
  const at = /\s*(?:in JSON )?at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
  if (at) {
    const { line, column } = lineColumn(text, Number(at[1]));
    return `${message.slice(0, at.index)} at line ${line}, column ${column}${message.slice(at.index + at[0].length)}`;
  }
  if (/end of JSON input/.test(message)) {
    const { line, column } = lineColumn(text, text.length);
    return `${message}: the file ends at line ${line}, column ${column} before the JSON value is complete`;
  }
  // Some of V8's messages quote the text instead of giving a position: find the place ourselves.
  const offset = badOffset(text);
  if (offset === undefined) return message;
  const { line, column } = lineColumn(text, offset);
  return `${message.replace(/, ".*" is not valid JSON$/s, '')} at line ${line}, column ${column}`;
}

/**
 * The offset of the character JSON.parse stumbles on: the shortest prefix that fails other than by
 * ending early ends with it (a bad character stays bad in every longer prefix).
 */
function badOffset(text: string): number | undefined {
  const failsInside = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return false;
    } catch (e) {
      const m = (e as Error).message;
      const at = /at position (\d+)/.exec(m);
      return !/end of JSON input/.test(m) && !(at && Number(at[1]) >= n);
    }
  };
  if (!failsInside(text.length)) return undefined;
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsInside(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}
