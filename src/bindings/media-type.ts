/** Content-Type parsing shared by the bindings, the mock and the content-type check. */

export interface ParsedContentType {
  /** Lower-cased type/subtype. */
  readonly mediaType: string;
  /** Parameter names lower-cased; values unquoted, case kept. */
  readonly params: Readonly<Record<string, string>>;
}

/** Parse a Content-Type value (RFC 9110: parameter order and spacing free, quoted values allowed). */
export function parseContentType(value: string | undefined): ParsedContentType | undefined {
  if (value === undefined) return undefined;
  const [type, ...rest] = value.split(';');
  const mt = type!.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(mt)) return undefined;
  const params: Record<string, string> = {};
  for (const p of rest) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    const k = p.slice(0, i).trim().toLowerCase();
    let val = p.slice(i + 1).trim();
    if (val.startsWith('"') && val.endsWith('"') && val.length >= 2) val = val.slice(1, -1).replace(/\\(.)/g, '$1');
    params[k] = val;
  }
  return { mediaType: mt, params };
}

/** Just the lower-cased media type of a Content-Type value. */
export function mediaType(value: string | undefined): string | undefined {
  return parseContentType(value)?.mediaType;
}
