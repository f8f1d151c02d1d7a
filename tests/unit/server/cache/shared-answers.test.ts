import { describe, expect, it } from 'vitest';
import type { Viewer } from '../../../../src/domain/catalogue.js';
import { membersCreateServicesOf, sharedAnswer } from '../../../../src/server/cache/shared-answers.js';

type Item = Record<string, unknown>;

/** A serializer writing keys in the order given (the cut must not depend on any one order). */
function serializerOf(order: 'as-is' | 'reversed') {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([key, inner]) => [key, sorted(inner)] as const);
    return Object.fromEntries(order === 'reversed' ? entries.reverse() : entries);
  };
  return (value: unknown) => Buffer.from(JSON.stringify(sorted(value)));
}

const service = (id: string, owner: string, starred: boolean, edit: boolean): Item => ({
  id,
  name: `Service ${id} says "starred":false`,
  owner: { id: owner, name: 'Team' },
  starred,
  visibility: 'public',
  permissions: { edit },
});

const member = (teams: Record<string, 'member' | 'admin'>): Viewer => ({
  role: 'member',
  teams: new Map(Object.entries(teams)),
});

describe('sharedAnswer', () => {
  for (const order of ['as-is', 'reversed'] as const) {
    it(`lays each caller's stars and rights over a page, whatever the key order (${order})`, () => {
      const serialize = serializerOf(order);
      const items = [service('s1', 't1', true, false), service('s2', 't2', false, true)];
      const shared = sharedAnswer(
        { body: serialize(items), value: items, serializeItem: (item) => serialize(item) },
        items,
        ['services'],
      )!;
      expect(shared).not.toBeNull();
      expect(shared.needsStars).toBe(true);
      expect(shared.scopes.sort()).toEqual(['s1', 's2', 'services', 't1', 't2']);
      const forBob = JSON.parse(shared.bodyFor(member({ t1: 'member' }), new Set(['s2'])).toString()) as Item[];
      expect(forBob).toEqual([
        { ...items[0], starred: false, permissions: { edit: true } },
        { ...items[1], starred: true, permissions: { edit: false } },
      ]);
      // A name that spells a field is left as it is.
      expect(forBob[0]!.name).toBe('Service s1 says "starred":false');
    });
  }

  it("lays a caller's rights over a team, and refuses a team whose policy was not noted", () => {
    const serialize = serializerOf('as-is');
    const team: Item = {
      id: 't1',
      name: 'Team',
      member_count: 2,
      is_admin: true,
      is_member: true,
      can_create_services: true,
    };
    const made = { body: serialize(team), value: team, serializeItem: (item: Item) => serialize(item) };
    expect(sharedAnswer(made, team, [])).toBeNull();
    membersCreateServicesOf.set(team, false);
    const shared = sharedAnswer(made, team, [])!;
    expect(shared.scopes).toContain('members:t1');
    expect(JSON.parse(shared.bodyFor(member({ t1: 'member' }), new Set()).toString())).toMatchObject({
      is_admin: false,
      is_member: true,
      can_create_services: false,
    });
    expect(JSON.parse(shared.bodyFor(member({}), new Set()).toString())).toMatchObject({
      is_admin: false,
      is_member: false,
    });
  });

  it('is not shared when the cut bytes would not give back the body the read made', () => {
    const serialize = serializerOf('as-is');
    const items = [service('s1', 't1', true, false)];
    const made = { body: Buffer.from(`${serialize(items).toString()} `), value: items, serializeItem: serialize };
    expect(sharedAnswer(made, items, [])).toBeNull();
    expect(sharedAnswer({ body: serialize(items), value: items }, items, [])).toBeNull();
  });
});
