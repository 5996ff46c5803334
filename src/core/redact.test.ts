import { describe, expect, it } from 'vitest';
import { echoedForms, makeRedactor, REDACTED } from './redact.js';

describe('makeRedactor', () => {
  const secret = 'p@ss w<0>rd&"x';
  const redact = makeRedactor([secret]);

  it('replaces every echoed form of the secret, and nothing else', () => {
    for (const form of echoedForms(secret)) {
      const out = redact(`before ${form} after`);
      expect(out, form).toBe(`before ${REDACTED} after`);
    }
    expect(redact('nothing secret here: p@ss')).toBe('nothing secret here: p@ss');
    expect(redact('')).toBe('');
  });

  it('redacts URL user-info passwords of any scheme and case, also ones holding "@" or ":"', () => {
    const r = makeRedactor([]);
    expect(r('GET http://user:hunter2@example.com/x')).toBe(`GET http://user:${REDACTED}@example.com/x`);
    expect(r('HTTPS://U:a@b:c@host:8443/p?q')).toBe(`HTTPS://U:${REDACTED}@host:8443/p?q`);
    expect(r('svn+ssh://me:pw@h and ftp://x:y@z/')).toBe(`svn+ssh://me:${REDACTED}@h and ftp://x:${REDACTED}@z/`);
    expect(r('http://:only-password@h/')).toBe(`http://:${REDACTED}@h/`);
  });

  it('leaves URLs without a password, and e-mail addresses, alone', () => {
    const r = makeRedactor([]);
    for (const t of ['http://example.com/a:b@c', 'http://user@example.com/', 'mailto:a@b.c', 'a://b c:d@e', 'urn:x:y@z']) expect(r(t), t).toBe(t);
  });

  it('redacts a start of a form left before a cut', () => {
    expect(redact(`… p@ss w<…`)).not.toContain('p@ss w<');
  });
});
