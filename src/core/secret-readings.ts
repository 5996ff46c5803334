/**
 * What the redactor looks for (./redact.ts): the strings a secret can read as in any decoded view
 * (its other letter case, its prefix, single-byte and UTF-16 readings of its bytes, base64).
 */

/** windows-1252's bytes 0x80-0x9F, by character (the rest of the range is Latin-1). */
const CP1252 = new Map<string, number>();
{
  const d = new TextDecoder('windows-1252');
  for (let b = 0x80; b <= 0x9f; b++) CP1252.set(d.decode(Uint8Array.of(b)), b);
}

/** The secret in a single-byte encoding, or undefined when a character has no byte there. */
function singleByte(secret: string, cp1252: boolean): Buffer | undefined {
  const out: number[] = [];
  for (const ch of secret) {
    const c = ch.codePointAt(0)!;
    const b =
      cp1252 && CP1252.has(ch) ? CP1252.get(ch)! : c <= 0xff && !(cp1252 && c >= 0x80 && c <= 0x9f) ? c : undefined;
    if (b === undefined) return undefined;
    out.push(b);
  }
  return Buffer.from(out);
}

const SINGLE_BYTE_READINGS = [
  'windows-1252',
  'iso-8859-2',
  'iso-8859-15',
  'windows-1250',
  'windows-1251',
  'koi8-r',
  'ibm866',
];

/**
 * The password with the case of every letter swapped (equal to it when it has no letter): the password-case variant's.
 */
export function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** The strings a secret can read as, in any decoded view (see the module comment). */
export function readings(secret: string): string[] {
  // The password in other letter case is as good as the password (the password-case credential
  // variant sends it; a service comparing without regard to case accepts it).
  // Its proper prefix too (the login-password-prefix variant sends it: all of the password but one
  // character would show otherwise); the password itself, longer, is matched first where it stands.
  const prefix = [...secret].slice(0, -1).join('');
  const out = new Set<string>([
    secret,
    secret.replace(/[ \t\r\n]+/g, ' '),
    swapCase(secret),
    ...(prefix.length > MIN_PARTIAL ? [prefix] : []),
  ]);
  const bytes = Buffer.from(secret, 'utf8');
  if (/[^\u0000-\u007f]/.test(secret)) {
    out.add(bytes.toString('latin1'));
    for (const label of SINGLE_BYTE_READINGS) {
      try {
        out.add(new TextDecoder(label).decode(bytes));
      } catch {
        /* an encoding this Node lacks */
      }
    }
    for (const cp1252 of [false, true]) {
      const b = singleByte(secret, cp1252);
      if (b) out.add(b.toString('utf8'));
    }
    out.add(secret.replace(/[^\u0000-\u007f]/gu, '\uFFFD'));
  }
  const le = Buffer.from(secret, 'utf16le');
  const be = Buffer.from(le).swap16();
  for (const b of [le, be]) {
    out.add(b.toString('utf8').replace(/\u0000/g, ''));
    out.add(b.toString('latin1').replace(/\u0000/g, ''));
  }
  for (const enc of ['base64', 'base64url'] as const) {
    out.add(bytes.toString(enc));
    // Inside a longer base64 text (user:password, a JSON body): the characters that depend on the secret alone, for
    // each alignment.
    for (let pad = 1; pad <= 2; pad++) {
      const whole = Buffer.concat([Buffer.alloc(pad), bytes])
        .toString(enc)
        .replace(/=+$/, '');
      const stable = whole.slice(Math.ceil((pad * 4) / 3), Math.floor(((pad + bytes.length) * 4) / 3));
      if (stable.length >= 8) out.add(stable);
    }
  }
  return [...out].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** Shortest start of a secret redacted where a text was cut ("…"). */
export const MIN_PARTIAL = 3;
