/** Determinism of the mock's data: the stable hash. */
import { expect, test } from 'vitest';
import { stableHash } from './rng.js';

test('stableHash is FNV-1a', () => {
  expect(stableHash('')).toBe(0x811c9dc5);
  expect(stableHash('a')).toBe(0xe40c292c);
});
