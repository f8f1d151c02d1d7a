import { describe, expect, it } from 'vitest';
import { editCachedService } from '../../../src/app/services/service-api.js';
import { starWrite, unstarWrite, withStarred, withStarredItem } from '../../../src/app/services/use-star.js';
import { pathOf } from '../../../src/contract/operation.js';
import { makeService } from './services-kit.js';

const payments = makeService('payments', { starred_count: 2 });
const search = makeService('search');

describe('star helpers', () => {
  it('moves the count only when the star changes', () => {
    expect(withStarred(payments, true)).toMatchObject({ starred: true, starred_count: 3 });
    expect(withStarred(payments, false)).toBe(payments);
    expect(withStarred({ ...payments, starred: true, starred_count: 0 }, false)).toMatchObject({
      starred: false,
      starred_count: 0,
    });
  });

  it('adds to and removes from the starred list once', () => {
    const added = withStarredItem([], payments, true)!;
    expect(added).toEqual([
      { id: payments.id, profile: { id: payments.id, handle: 'payments', name: 'Payments', thumbnail_url: null } },
    ]);
    expect(withStarredItem(added, payments, true)).toBe(added);
    expect(withStarredItem(added, payments, false)).toEqual([]);
    expect(withStarredItem(undefined, payments, true)).toBeUndefined();
  });

  it('names the service of a star write in its operation path', () => {
    const params = { username: 'mia', service: 'pay ments' };
    expect(pathOf(starWrite.operation, params)).toBe('/users/mia/starred/pay%20ments');
    expect([starWrite.operation.method, unstarWrite.operation.method]).toEqual(['PUT', 'DELETE']);
  });

  it('lays a pending star over the service and the starred list, and over nothing else', () => {
    const input = { params: { username: 'mia', service: 'payments' } };
    const view = { id: payments.id, handle: 'payments', name: 'Payments', thumbnail_url: null };
    expect(starWrite.overlay!(['service', 'payments'], payments, input, view)).toMatchObject({
      starred: true,
      starred_count: 3,
    });
    expect(starWrite.overlay!(['user', 'mia', 'starred'], [], input, view)).toEqual([
      { id: payments.id, profile: view },
    ]);
    expect(starWrite.overlay!(['service', 'search'], search, input, view)).toBe(search);
  });
});

describe('editCachedService', () => {
  const star = (service: typeof payments) => ({ ...service, starred: true });

  it('edits a service, a list and a page holding it, and leaves other data as it is', () => {
    expect(editCachedService(payments, 'payments', star)).toMatchObject({ starred: true });
    const list = [payments, search];
    expect((editCachedService(list, 'payments', star) as (typeof payments)[]).map((s) => s.starred)).toEqual([
      true,
      false,
    ]);
    const page = { items: list, total: 2 };
    expect((editCachedService(page, 'payments', star) as typeof page).items[0]!.starred).toBe(true);

    expect(editCachedService(list, 'other', star)).toBe(list);
    expect(editCachedService(page, 'other', star)).toBe(page);
    const user = { handle: 'payments', name: 'Not a service' };
    expect(editCachedService(user, 'payments', star)).toBe(user);
  });
});
