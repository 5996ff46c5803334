/**
 * The guard searches a text with one matcher of all its secrets first (their views decoded once) and
 * asks the matchers per secret only when that one finds something: the answer must be exactly the
 * one the matchers per secret give, spans and which secrets, whatever the text.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { echoedForms, makeSecretMatcher } from '../core/redact.js';
import { SecretGuard } from './secrets.js';

/** What the guard answered before the shared search: every secret's matcher, merged. */
function perSecret(secrets: readonly string[], text: string): { spans: Array<[number, number]>; which: number[] } {
  const all: Array<[number, number]> = [];
  const which: number[] = [];
  secrets.forEach((s, i) => {
    const spans = makeSecretMatcher([s]).spans(text);
    if (spans.length) which.push(i + 1);
    all.push(...spans);
  });
  all.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of all) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return { spans: merged, which };
}

// One secret with whitespace (its views include form decoding, '+' as a space), one without, one short.
const SECRETS = ['Zq8 joined Secret', 'mock-p%ss&word', 'xyz'];

/** Pieces a report's text is made of: the harness's words, escapes, markup, cuts, and every secret's echoed forms. */
const PIECES = [
  ...SECRETS.flatMap((s) => echoedForms(s)),
  ...SECRETS.map((s) => `${s.slice(0, 5)}…`),
  '&amp;',
  '&lt;',
  '%25',
  '+',
  '\\u0000',
  '<![CDATA[',
  ']]>',
  '<!-- c -->',
  ' ',
  '\n',
  'content_type',
  'http://x/',
  'Zq8',
];

describe('SecretGuard.find', () => {
  test('answers what the matchers per secret answer, spans and which secrets, on any mix of forms', () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 12 }),
        (parts) => {
          const text = parts.join('');
          expect(guard.find(text)).toEqual(perSecret(SECRETS, text));
        },
      ),
      { numRuns: 400, seed: 43 },
    );
  });

  test('a text holding no secret is answered without one, and so is the empty text', () => {
    const guard = new SecretGuard(SECRETS, () => undefined);
    expect(guard.find('nothing here &amp; %20 + <![CDATA[x]]>')).toEqual({ spans: [], which: [] });
    expect(guard.find('')).toEqual({ spans: [], which: [] });
    expect(guard.find(`a ${SECRETS[1]!} b`).which).toEqual([2]);
  });
});
