import { describe, expect, it } from 'vitest';
import {
  canCreate,
  canInvite,
  capitalise,
  roleChangeDenial,
  ROLES,
  selectableRoles,
  type Role,
} from '../../src/domain/roles.js';

describe('roleChangeDenial', () => {
  it('lets owners and admins change non-owners to any non-owner role', () => {
    for (const actor of ['owner', 'admin'] as Role[]) {
      for (const target of ['guest', 'member', 'admin'] as Role[]) {
        for (const next of ['guest', 'member', 'admin'] as Role[])
          expect(roleChangeDenial(actor, target, next)).toBeNull();
      }
    }
  });

  it('refuses guests and members', () => {
    for (const actor of ['guest', 'member'] as Role[]) {
      for (const target of ROLES) expect(roleChangeDenial(actor, target, 'member')).toBe('not-admin');
    }
  });

  it('only an owner makes an owner or changes an owner', () => {
    expect(roleChangeDenial('admin', 'member', 'owner')).toBe('owner-requires-owner');
    expect(roleChangeDenial('admin', 'owner', 'member')).toBe('target-is-owner');
    expect(roleChangeDenial('owner', 'member', 'owner')).toBeNull();
    expect(roleChangeDenial('owner', 'owner', 'admin')).toBeNull();
  });
});

describe('role helpers', () => {
  it('offers Owner only to owners', () => {
    expect(selectableRoles('owner')).toEqual(['guest', 'member', 'admin', 'owner']);
    expect(selectableRoles('admin')).toEqual(['guest', 'member', 'admin']);
  });
  it('invite and create capabilities', () => {
    expect(ROLES.filter(canInvite)).toEqual(['admin', 'owner']);
    expect(ROLES.filter(canCreate)).toEqual(['member', 'admin', 'owner']);
    expect(capitalise('guest')).toBe('Guest');
  });
});
