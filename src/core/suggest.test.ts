import { describe, expect, test } from 'vitest';
import { didYouMean, editDistance, nearestName } from './suggest.js';

describe('did you mean', () => {
  const ops = ['GetMeals', 'GetThemes', 'GetFeatures', 'SearchTransfers', 'CancelBooking'];
  test('edit distance counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('soap11', 'soap1.1')).toBe(1);
    expect(editDistance('GetMaels', 'GetMeals')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
  test(
    'a case-only difference says names are case-sensitive; a near miss is named; nothing close, nothing ' + 'said',
    () => {
      expect(didYouMean('getmeals', ops)).toBe(' (did you mean GetMeals? names are case-sensitive)');
      expect(didYouMean('GetMeal', ops)).toBe(' (did you mean GetMeals?)');
      expect(didYouMean('SerchTransfer', ops)).toBe(' (did you mean SearchTransfers?)');
      expect(didYouMean('Bookings', ops)).toBe('');
      expect(nearestName('x', ops)).toBeUndefined();
      expect(nearestName('rest', ['soap11', 'soap12', 'get', 'post'])).toBeUndefined();
    },
  );
});
