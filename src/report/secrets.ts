/**
 * The last line of defence against publishing a credential: every byte a report writer is about
 * to write is searched for each secret, in every spelling the redactor knows (src/core/redact.ts).
 */
import { HarnessError } from '../core/errors.js';
import { echoedForms } from '../core/redact.js';

/** A report would have contained a secret; nothing was written. Exit 2 (a harness fault, not a finding). */
export class SecretLeakError extends HarnessError {
  override readonly code = 'SECRET_LEAK';
  override name = 'SecretLeakError';
}

/** The spellings a secret can take in reports: the redactor's own list (raw, escaped, encoded, echoed). */
function variants(secret: string): Array<{ form: string; bytes: Buffer }> {
  return echoedForms(secret).map((v) => ({ form: v === secret ? 'raw' : 'an encoded or escaped form', bytes: Buffer.from(v, 'utf8') }));
}

/** Searches written content for secrets; each secret is identified by its index, never echoed. */
export class SecretGuard {
  private readonly needles: Array<{ index: number; form: string; bytes: Buffer }>;

  constructor(secrets: readonly string[]) {
    this.needles = secrets.flatMap((s, index) => (s.length === 0 ? [] : variants(s).map((v) => ({ index, ...v }))));
  }

  /** Throw SecretLeakError if content holds any secret; `name` says which file it was for. */
  check(name: string, content: string | Buffer): void {
    const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (const n of this.needles) {
      if (buf.includes(n.bytes)) {
        throw new SecretLeakError(
          `refusing to write reports: ${name} would contain secret #${n.index + 1} (${n.form}); nothing was written. `
          + 'Redact it in the run report (target.password, request/response excerpts, reproduce commands) before reporting.',
        );
      }
    }
  }
}
