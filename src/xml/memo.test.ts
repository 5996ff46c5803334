import { describe, expect, it } from 'vitest';
import { TextMemo } from './memo.js';

describe('TextMemo', () => {
  it('computes a text once and gives every holder the same value', () => {
    const memo = new TextMemo<{ n: number }>(100, 1000);
    let calls = 0;
    const a = memo.get('<a/>', () => ({ n: ++calls }));
    const b = memo.get('<a/>', () => ({ n: ++calls }));
    expect(calls).toBe(1);
    expect(b).toBe(a);
    expect(memo.get('<b/>', () => ({ n: ++calls })).n).toBe(2);
  });

  it('never keeps a text longer than its limit', () => {
    const memo = new TextMemo<number>(10, 1000);
    let calls = 0;
    memo.get('x'.repeat(11), () => ++calls);
    memo.get('x'.repeat(11), () => ++calls);
    expect(calls).toBe(2);
    expect(memo.size.entries).toBe(0);
  });

  it('stays within its budget, dropping the least recently used first', () => {
    const memo = new TextMemo<number>(100, 25, (_v, text) => text.length); // a text costs twice its length
    memo.get('aaaaa', () => 1); // 10
    memo.get('bbbbb', () => 2); // 20
    memo.get('aaaaa', () => -1); // a used again: b is now the oldest
    memo.get('ccccc', () => 3); // 30 > 25: b goes
    expect(memo.size).toEqual({ entries: 2, cost: 20 });
    expect(memo.get('aaaaa', () => -1)).toBe(1);
    expect(memo.get('bbbbb', () => 4)).toBe(4); // computed again
    expect(memo.size.cost).toBeLessThanOrEqual(25);
  });

  it('does not keep a value whose cost is over the budget (Infinity: never kept)', () => {
    const memo = new TextMemo<number>(100, 1000, (v) => (v < 0 ? Infinity : 0));
    let calls = 0;
    memo.get('t', () => {
      calls++;
      return -1;
    });
    memo.get('t', () => {
      calls++;
      return -1;
    });
    expect(calls).toBe(2);
  });

  it('keeps nothing of a computation that throws', () => {
    const memo = new TextMemo<number>(100, 1000);
    expect(() =>
      memo.get('t', () => {
        throw new Error('bad');
      }),
    ).toThrow('bad');
    expect(memo.get('t', () => 7)).toBe(7);
  });
});
