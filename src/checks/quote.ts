/**
 * A short quote of a target's text for a message: the one quoting of the checks (support.ts and soap-fault.ts read it).
 */
export const MAX_QUOTE = 200;

const isXmlSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * A short quote of response text for a message: whitespace runs folded, at most MAX_QUOTE
 * characters. Only as much of the text is read as the quote needs (a fault's text can be 30 MB:
 * folding all of it first cost seconds of garbage collection).
 */
export function quote(s: string, max = MAX_QUOTE): string {
  // The folded, trimmed text, built only until it is known to be longer than fits (max - 2).
  let out = '';
  let space = false;
  for (let i = 0; i < s.length && out.length <= max - 2; i++) {
    const c = s.charCodeAt(i);
    if (isXmlSpace(c)) {
      space = out.length > 0;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += s[i];
  }
  return `"${out.length > max - 2 ? `${out.slice(0, max - 3)}…` : out}"`;
}
