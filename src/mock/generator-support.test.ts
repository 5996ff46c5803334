/** What the generators share: the language a parameter asks for. */
import { expect, test } from 'vitest';
import { languageOf } from './generator-support.js';

test('languageOf reads the first two letters', () => {
  expect(['de', 'DE', 'de-CH', 'de_DE', ' el'].map(languageOf)).toEqual(['de', 'de', 'de', 'de', 'el']);
  expect([undefined, '', '1', 'x'].map(languageOf)).toEqual(['en', 'en', 'en', 'en']);
});
