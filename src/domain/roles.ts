/** Workspace roles and the rules of spec/platform.md section 6, shared by server and app. */

export const ROLES = ['guest', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isAdminRole(role: Role): boolean {
  return role === 'admin' || role === 'owner';
}

/** Owners and admins invite users and manage Admin and Billing. */
export function canInvite(role: Role): boolean {
  return isAdminRole(role);
}

/** Guests read, star, mute and watch, but create and edit nothing. */
export function canCreate(role: Role): boolean {
  return role !== 'guest';
}

export type RoleChangeDenial = 'not-admin' | 'target-is-owner' | 'owner-requires-owner';

/**
 * Why `actor` may not give `target` the role `next`, or null when allowed:
 * an admin or owner may change the role of a user who is not an owner; only an owner makes an owner;
 * nobody but an owner changes an owner's role.
 */
export function roleChangeDenial(actor: Role, target: Role, next: Role): RoleChangeDenial | null {
  if (!isAdminRole(actor)) return 'not-admin';
  if (target === 'owner' && actor !== 'owner') return 'target-is-owner';
  if (next === 'owner' && actor !== 'owner') return 'owner-requires-owner';
  return null;
}

/** Roles the actor may pick in the role select (Owner only enabled for owners). */
export function selectableRoles(actor: Role): Role[] {
  return actor === 'owner' ? [...ROLES] : ROLES.filter((role) => role !== 'owner');
}

export function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
