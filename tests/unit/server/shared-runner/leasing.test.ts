import { describe, expect, it } from 'vitest';
import { shareOf, surplusOf } from '../../../../src/server/jobs/shared-runner/leasing.js';

describe('a shared runner process’s share of the checks', () => {
  it('is the checks divided by the processes alive, rounded up, itself at least', () => {
    expect(shareOf(10, 2)).toBe(5);
    expect(shareOf(10, 3)).toBe(4);
    expect(shareOf(10, 0)).toBe(10);
    expect(shareOf(0, 4)).toBe(0);
  });

  it('gives back what it holds beyond its share, in the order held', () => {
    expect(surplusOf(['a', 'b', 'c', 'd'], 2, () => false)).toEqual(['a', 'b']);
    expect(surplusOf(['a', 'b'], 3, () => false)).toEqual([]);
  });

  it('keeps a check whose probe is in flight, giving back others instead (or fewer)', () => {
    expect(surplusOf(['a', 'b', 'c', 'd'], 2, (id) => id === 'a')).toEqual(['b', 'c']);
    expect(surplusOf(['a', 'b', 'c'], 1, (id) => id !== 'c')).toEqual(['c']);
  });
});
