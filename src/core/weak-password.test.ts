import { describe, expect, test } from 'vitest';
import { weakPasswordWarning } from './weak-password.js';

describe('weak password warning', () => {
  test.each(['en', 'test', 'hotel', 'pw1234'])('a short password (%s) is named with its length', (p) => {
    expect(weakPasswordWarning(p)).toMatch(
      new RegExp(`^the password is ${p.length} characters long: .*will also mask ordinary text`),
    );
  });
  test.each(['password', 'changeme', 'Password'])('a common word (%s)', (p) => {
    expect(weakPasswordWarning(p)).toMatch(/^the password is a common word/);
  });
  test.each(['language', 'CancellationPaymentMethod', 'searchTransfersResult'])('a word of the service (%s)', (p) => {
    expect(weakPasswordWarning(p)).toMatch(/^the password is a word the service and the reports use/);
  });
  test.each(['k7#Tq9!vR2', 'mock-password-long', 'correct horse battery'])('nothing to say about %s', (p) => {
    expect(weakPasswordWarning(p)).toBeUndefined();
  });
});
