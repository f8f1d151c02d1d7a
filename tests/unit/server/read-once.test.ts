import { describe, expect, it, vi } from 'vitest';
import { readOnce } from '../../../src/server/jobs/read-once.js';

describe('readOnce', () => {
  it('reads once per set of arguments, and keeps sets that join alike apart', async () => {
    const read = vi.fn(async (workspaceId: string, id: string) => `${workspaceId}/${id}`);
    const once = readOnce(read);
    expect(await once('w1', 'c1')).toBe('w1/c1');
    expect(await once('w1', 'c1')).toBe('w1/c1');
    expect(await once('w1 c1', '')).toBe('w1 c1/');
    expect(await once('w2', 'c1')).toBe('w2/c1');
    expect(read).toHaveBeenCalledTimes(3);
  });
});
