/**
 * The run's secrets as secret_echoed (src/checks/secret-echoed.ts) looks for them in every answer: a
 * password (either account's), a proxy's password, the value of an extra header read from a
 * variable (issue 42, section 3). The redactor (./redact.ts) masks them in what the reports show;
 * this finds them in what the target sent back, where a secret has no business, whatever the status.
 *
 * Which secrets are looked for: only those a hit of would mean an echo. A short or common password
 * ('x', 'test', a word the service writes itself) matches ordinary text everywhere, so a secret is
 * looked for only when it is at least MIN_ECHO_LENGTH characters long and not weak by the rule the
 * run already warns of (./weak-password.ts: a common word, a word of the contract's vocabulary).
 * Such a secret is not reported as echoed; the run's weak-password warning already says its
 * redaction masks ordinary text. A hit needs no word boundary: a password echoed inside a longer
 * value (the "characters added" login variant sends the password with an x after it) is echoed all
 * the same, and a secret of 8 characters or more that is no word does not occur by chance.
 *
 * The spellings: the wire forms the reproduce commands replace (./redact.ts secretForms: raw,
 * URL-encoded, form-encoded, XML-escaped) and base64 (and base64url) of its UTF-8 bytes, looked for
 * as bytes in the body (no decoding: an answer in any charset holds an ASCII secret's bytes as they
 * are) and as text in every header value. Byte searches: linear in the body, a few per secret.
 *
 * The values live in a private field: a SecretWatch in a CheckContext never reaches a report or a
 * JSON dump (JSON.stringify sees no field), and what it returns names the secret, never its value.
 */
import { secretForms } from './redact.js';
import { weakPasswordWarning } from './weak-password.js';

/** Shorter than this, a secret is not looked for in answers (it would match ordinary text). */
export const MIN_ECHO_LENGTH = 8;

/** A secret of the run and what it is, in words ("the password", "the proxy's password"). */
export interface NamedSecret {
  readonly what: string;
  readonly value: string;
}

/** Where an echo was found: the secret, in words, the spelling, and the place (the body, or a header by name). */
export interface Echo {
  readonly what: string;
  readonly spelling: 'as sent' | 'URL-encoded' | 'XML-escaped' | 'base64';
  readonly where: string;
}

/** Whether a secret is looked for at all (see the module comment). */
export function watchable(secret: string): boolean {
  return secret.length >= MIN_ECHO_LENGTH && weakPasswordWarning(secret) === undefined;
}

interface Form {
  readonly what: string;
  readonly spelling: Echo['spelling'];
  readonly text: string;
  readonly bytes: Buffer;
}

function formsOf(s: NamedSecret): Form[] {
  const utf8 = Buffer.from(s.value, 'utf8');
  const spellingOf = (f: string): Echo['spelling'] =>
    f === s.value ? 'as sent' : f.includes('%') || f.includes('+') ? 'URL-encoded' : 'XML-escaped';
  const wire = secretForms(s.value).map((f) => ({ spelling: spellingOf(f), text: f }));
  const b64 = [
    ...new Set([utf8.toString('base64'), utf8.toString('base64').replace(/=+$/, ''), utf8.toString('base64url')]),
  ].map((f) => ({ spelling: 'base64' as const, text: f }));
  return [...wire, ...b64]
    .filter((f) => f.text.length >= MIN_ECHO_LENGTH)
    .map((f) => ({ what: s.what, ...f, bytes: Buffer.from(f.text, 'utf8') }));
}

export class SecretWatch {
  readonly #forms: readonly Form[];
  /** Secrets left out by the rule (too short or common), in words: the check says so once, never their values. */
  readonly unwatched: readonly string[];

  constructor(secrets: readonly NamedSecret[]) {
    const seen = new Set<string>();
    const kept = secrets.filter((s) => s.value !== '' && !seen.has(s.value) && (seen.add(s.value), true));
    this.#forms = kept.filter((s) => watchable(s.value)).flatMap(formsOf);
    this.unwatched = kept.filter((s) => !watchable(s.value)).map((s) => s.what);
  }

  /** Whether any secret is looked for. */
  get watching(): boolean {
    return this.#forms.length > 0;
  }

  /** The echoes in an answer: each secret once, at its first place (headers first, then the body). */
  find(headers: Readonly<Record<string, string>>, body: Buffer | undefined): Echo[] {
    const out: Echo[] = [];
    const told = new Set<string>();
    for (const f of this.#forms) {
      if (told.has(f.what)) continue;
      const header = Object.entries(headers).find(([, v]) => v.includes(f.text));
      const where = header ? `the ${header[0]} header` : body && body.indexOf(f.bytes) >= 0 ? 'the body' : undefined;
      if (!where) continue;
      told.add(f.what);
      out.push({ what: f.what, spelling: f.spelling, where });
    }
    return out;
  }
}
