import { describe, expect, it } from 'vitest';
import {
  canAdminTeam,
  canEditService,
  canSeeService,
  stageLabel,
  teamServiceCount,
  toggleStar,
  type TeamRole,
  type Viewer,
} from '../../src/domain/catalogue.js';
import type { Role } from '../../src/domain/roles.js';

const viewer = (role: Role, teams: Array<[string, TeamRole]> = []): Viewer => ({ role, teams: new Map(teams) });

describe('service visibility (docs/decisions.md#roles-and-visibility)', () => {
  it('shows public and workspace services to everyone, guests included', () => {
    for (const visibility of ['public', 'workspace'] as const) {
      expect(canSeeService(viewer('guest'), { visibility, ownerTeamId: 't1' })).toBe(true);
    }
  });
  it('shows owner services only to the owning team and to workspace admins and owners', () => {
    const service = { visibility: 'owner' as const, ownerTeamId: 't1' };
    expect(canSeeService(viewer('member'), service)).toBe(false);
    expect(canSeeService(viewer('member', [['t2', 'admin']]), service)).toBe(false);
    expect(canSeeService(viewer('member', [['t1', 'member']]), service)).toBe(true);
    expect(canSeeService(viewer('guest', [['t1', 'member']]), service)).toBe(true);
    expect(canSeeService(viewer('admin'), service)).toBe(true);
    expect(canSeeService(viewer('owner'), service)).toBe(true);
  });
});

describe('edit and admin rights (spec section 6)', () => {
  it('lets team members edit their services; workspace admins edit all; guests nothing', () => {
    expect(canEditService(viewer('member', [['t1', 'member']]), 't1')).toBe(true);
    expect(canEditService(viewer('member', [['t2', 'admin']]), 't1')).toBe(false);
    expect(canEditService(viewer('admin'), 't1')).toBe(true);
    expect(canEditService(viewer('guest', [['t1', 'admin']]), 't1')).toBe(false);
  });
  it('lets team admins and workspace admins manage a team', () => {
    expect(canAdminTeam(viewer('member', [['t1', 'admin']]), 't1')).toBe(true);
    expect(canAdminTeam(viewer('member', [['t1', 'member']]), 't1')).toBe(false);
    expect(canAdminTeam(viewer('owner'), 't1')).toBe(true);
    expect(canAdminTeam(viewer('guest', [['t1', 'admin']]), 't1')).toBe(false);
  });
});

describe('small rules', () => {
  it('counts services plus sub-teams, labels End of Life', () => {
    expect(teamServiceCount(2, 3)).toBe(5);
    expect(stageLabel('eol')).toBe('End of Life');
  });
  it('toggles a star: adds the handle and one, removes it by handle and subtracts one', () => {
    expect(toggleStar(['a'], 4, 'b')).toEqual({ starred: ['a', 'b'], count: 5 });
    expect(toggleStar(['a', 'b'], 5, 'a')).toEqual({ starred: ['b'], count: 4 });
    expect(toggleStar(['a'], 0, 'a')).toEqual({ starred: [], count: 0 });
  });
});
