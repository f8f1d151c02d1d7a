import { describe, expect, it } from 'vitest';
import { keepNewest, MAX_BUFFERED_RESULTS } from '../../../../src/server/jobs/shared-runner/flushing.js';

describe('the result buffer while the database is away', () => {
  it('puts a batch that failed back in front of what came meanwhile', () => {
    expect(keepNewest([1, 2], [3, 4], 10)).toEqual({ kept: [1, 2, 3, 4], dropped: 0 });
  });

  it('drops the oldest beyond the limit, keeping the newest', () => {
    expect(keepNewest([1, 2, 3], [4, 5], 3)).toEqual({ kept: [3, 4, 5], dropped: 2 });
    expect(keepNewest([], [1, 2], 2)).toEqual({ kept: [1, 2], dropped: 0 });
  });

  it('holds up to MAX_BUFFERED_RESULTS', () => {
    const batch = Array.from({ length: MAX_BUFFERED_RESULTS }, (_, i) => i);
    const { kept, dropped } = keepNewest(batch, [-1], MAX_BUFFERED_RESULTS);
    expect(dropped).toBe(1);
    expect(kept).toHaveLength(MAX_BUFFERED_RESULTS);
    expect(kept.at(-1)).toBe(-1);
  });
});
