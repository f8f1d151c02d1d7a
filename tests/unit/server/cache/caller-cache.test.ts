import { describe, expect, it } from 'vitest';
import type { UserRow, WorkspaceRow } from '../../../../src/server/db/schema.js';
import { CallerCache, clientCacheKey, type CachedCaller } from '../../../../src/server/cache/caller-cache.js';
import { parseScope } from '../../../../src/server/cache/scopes.js';

const workspace = {
  id: 'w1',
  domain: 'acme',
  name: 'Acme',
  status: 'active',
  login: null,
  created_at: '',
} as WorkspaceRow;
const callerOf = (userId: string, workspaceId = 'w1'): CachedCaller => ({
  workspace: { ...workspace, id: workspaceId },
  user: { id: userId, workspace_id: workspaceId, role: 'member' } as UserRow,
});

describe('CallerCache', () => {
  it('gives an entry fresh for its TTL, then stale until renewed', () => {
    const cache = new CallerCache(1000);
    const bob = callerOf('bob');
    cache.set('s1', bob, 0, cache.epoch);
    expect(cache.get('s1', 999)).toEqual({ caller: bob, fresh: true });
    expect(cache.get('s1', 1000)).toEqual({ caller: bob, fresh: false });
    cache.renew('s1', 1000);
    expect(cache.get('s1', 1999)).toEqual({ caller: bob, fresh: true });
  });

  it('forgets a session at its end, however fresh', () => {
    const cache = new CallerCache(60_000);
    cache.set('s1', callerOf('bob'), 0, cache.epoch, 500);
    expect(cache.get('s1', 499)?.fresh).toBe(true);
    expect(cache.get('s1', 500)).toBeUndefined();
  });

  it('keeps nothing read before a forget (the change may have come after the read)', () => {
    const cache = new CallerCache(60_000);
    const epoch = cache.epoch;
    cache.forgetScope(parseScope('session:other'));
    cache.set('s1', callerOf('bob'), 0, epoch);
    expect(cache.get('s1', 0)).toBeUndefined();
    cache.set('s1', callerOf('bob'), 0, cache.epoch);
    expect(cache.get('s1', 0)).toBeDefined();
  });

  it('forgets by the scope a change logs: a session, a user, a client, a workspace', () => {
    const cache = new CallerCache(60_000);
    const put = () => {
      cache.set('s1', callerOf('bob'), 0, cache.epoch);
      cache.set('s2', callerOf('bob'), 0, cache.epoch);
      cache.set('s3', callerOf('eve'), 0, cache.epoch);
      cache.set(clientCacheKey('c1'), callerOf('client:c1'), 0, cache.epoch);
      cache.set('s4', callerOf('zed', 'w2'), 0, cache.epoch);
    };
    const held = () => ['s1', 's2', 's3', clientCacheKey('c1'), 's4'].filter((key) => cache.get(key, 0));
    put();
    cache.forgetScope(parseScope('session:s1'));
    expect(held()).toEqual(['s2', 's3', clientCacheKey('c1'), 's4']);
    cache.forgetScope(parseScope('bob'));
    expect(held()).toEqual(['s3', clientCacheKey('c1'), 's4']);
    cache.forgetScope(parseScope('client:c1'));
    cache.forgetScope(parseScope('services'));
    expect(held()).toEqual(['s3', 's4']);
    put();
    cache.forgetScope(parseScope('workspace:w1'));
    expect(held()).toEqual(['s4']);
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = new CallerCache(0);
    cache.set('s1', callerOf('bob'), 0, cache.epoch);
    expect(cache.get('s1', 0)).toBeUndefined();
  });
});
