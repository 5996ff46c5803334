/**
 * conformance.json's bytes, encoded once. jsonText's scan of a full run's 9 MB for the characters a
 * reader would not see cost more than the encoding, and almost every report has none: the UTF-8
 * bytes are searched for them instead (a native byte search for the few lead bytes they start
 * with), and only a report that holds one is escaped and encoded again.
 */
import { jsonText } from './model.js';

/** The UTF-8 bytes of `${jsonText(JSON.stringify(value, null, 2))}\n`. */
export function jsonBytes(value: unknown): Buffer {
  const raw = `${JSON.stringify(value, null, 2)}\n`;
  const bytes = Buffer.from(raw, 'utf8');
  return holdsJsonUnsafe(bytes) ? Buffer.from(jsonText(raw), 'utf8') : bytes;
}

/**
 * Whether UTF-8 `b` holds a character jsonText escapes: U+007F-U+009F, U+061C, U+200E, U+200F,
 * U+2028-U+202E or U+2066-U+2069. A lead byte never occurs inside another character's encoding,
 * so each is found by its lead byte and told apart by the bytes after it.
 */
export function holdsJsonUnsafe(b: Buffer): boolean {
  if (b.indexOf(0x7f) !== -1) return true;
  for (let i = b.indexOf(0xc2); i !== -1; i = b.indexOf(0xc2, i + 1)) {
    const n = b[i + 1]!;
    if (n >= 0x80 && n <= 0x9f) return true; // U+0080-U+009F
  }
  for (let i = b.indexOf(0xd8); i !== -1; i = b.indexOf(0xd8, i + 1)) if (b[i + 1] === 0x9c) return true; // U+061C
  for (let i = b.indexOf(0xe2); i !== -1; i = b.indexOf(0xe2, i + 1)) {
    const n = b[i + 1];
    const m = b[i + 2]!;
    // U+200E, U+200F, U+2028-U+202E; U+2066-U+2069.
    if (n === 0x80 && (m === 0x8e || m === 0x8f || (m >= 0xa8 && m <= 0xae))) return true;
    if (n === 0x81 && m >= 0xa6 && m <= 0xa9) return true;
  }
  return false;
}
