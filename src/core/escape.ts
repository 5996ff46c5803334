/** Escaping for XML text and attribute values written by the harness and the mock. */

const TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR: Record<string, string> = { ...TEXT, '"': '&quot;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };

/** Escape character data. CR is written as a reference so it survives end-of-line normalisation. */
export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => TEXT[c]!).replace(/\r/g, '&#13;');
}

/** Escape an attribute value for use inside double quotes. */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"\r\n\t]/g, (c) => ATTR[c]!);
}
