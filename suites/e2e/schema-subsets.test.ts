/**
 * The schema subsets' verdicts and messages equal the whole schemas' with one namespace for both
 * services (the contract's placeholders may name the same URI): the second half of the proof in
 * test/support/schema-subsets.ts, a slow proof (every operation's corpus validated twice); the first
 * half, with two namespaces, runs in npm test (src/schema/schema-bundle.test.ts).
 */
import { describe } from 'vitest';
import { describeSubsetEquality } from '../../test/support/schema-subsets.js';

describe('schema subsets', () => {
  describeSubsetEquality('one namespace', { book: 'urn:one/1/', search: 'urn:one/1/' });
});
