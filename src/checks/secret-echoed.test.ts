import { describe, expect, test } from 'vitest';
import { secretEchoed } from './secret-echoed.js';
import { contextFor, documentFor, findingsOf, outcomeOf } from '../../test/support/checks.js';
import { MIN_ECHO_LENGTH, SecretWatch, watchable } from '../core/secret-watch.js';

const PASSWORD = 'S3cret&<pass wörd>';
const OTHER = 'other-account-pw-9';
const watch = new SecretWatch([
  { what: 'the password', value: PASSWORD },
  { what: "the second account's password", value: OTHER },
]);
const ctx = (body: string, o: { status?: number; headers?: Record<string, string>; contentType?: string } = {}) =>
  contextFor('GetMeals', 'post', body, { caseKind: 'wrong-credentials', secrets: watch, ...o });

describe('secret_echoed', () => {
  test.each<[string, string]>([
    ['as sent', `Request failed: password=${PASSWORD}`],
    ['URL-encoded', `userName=u&password=${encodeURIComponent(PASSWORD)}`],
    ['form-encoded', new URLSearchParams({ password: PASSWORD }).toString()],
    ['XML-escaped', `<pre>${PASSWORD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</pre>`],
    ['base64', `debug: ${Buffer.from(PASSWORD, 'utf8').toString('base64')}`],
  ])('the password %s in the body, whatever the status, is secret_echoed (named, never shown)', (_, body) => {
    for (const status of [200, 400, 500]) {
      const f = findingsOf(secretEchoed, ctx(body, { status, contentType: 'text/plain' }));
      expect(f).toEqual([
        expect.objectContaining({
          check: 'secret_echoed',
          code: 'secret_echoed',
          path: '/',
          message: expect.stringContaining(`holds the password (`),
        }),
      ]);
      expect(JSON.stringify(f)).not.toContain(PASSWORD);
      expect(JSON.stringify(f)).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  test("the second account's password in a header", () => {
    const f = findingsOf(
      secretEchoed,
      ctx(documentFor('GetMeals', 'post', { full: true }), { headers: { 'x-debug': `pw=${OTHER}` } }),
    );
    expect(f).toEqual([
      expect.objectContaining({
        path: 'http:x-debug',
        message: expect.stringContaining("the second account's password (as sent) in the x-debug header"),
      }),
    ]);
  });

  test('an ordinary answer passes: the user name, the wrong-credentials password, a part of the password', () => {
    expect(
      findingsOf(
        secretEchoed,
        ctx(
          `${documentFor('GetMeals', 'post', { full: true })}<!-- mock-user `
            + `conformance-wrong-password-7f3a S3cret&amp;<pass -->`,
        ),
      ),
    ).toEqual([]);
  });

  test(
    'a short or common secret is not looked for (it would match ordinary text); the check does not apply '
      + 'without secrets',
    () => {
      expect(MIN_ECHO_LENGTH).toBe(8);
      for (const weak of ['x', 'meals', 'password', 'Passw0rd', 'abc1234']) expect(watchable(weak), weak).toBe(false);
      expect(watchable('mock-password')).toBe(true);
      const short = new SecretWatch([
        { what: 'the password', value: 'x' },
        { what: 'the proxy', value: 'password' },
      ]);
      expect(short.watching).toBe(false);
      expect(short.unwatched).toEqual(['the password', 'the proxy']);
      expect(outcomeOf(secretEchoed, contextFor('GetMeals', 'post', 'x password x', { secrets: short }))).toBe(
        'not applicable',
      );
      expect(outcomeOf(secretEchoed, contextFor('GetMeals', 'post', PASSWORD))).toBe('not applicable');
    },
  );

  test('the watch never shows its secrets (a context dumped as JSON)', () => {
    expect(JSON.stringify(watch)).not.toContain(OTHER);
    expect(JSON.stringify(ctx('x'))).not.toContain(OTHER);
  });
});
