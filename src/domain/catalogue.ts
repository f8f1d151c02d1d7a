/**
 * Catalogue values and rules (spec/catalogue.md sections 4 and 6, docs/decisions.md#open-decisions), shared by the
 * server, the app and the worker.
 */
import { isAdminRole, type Role } from './roles.js';

export const HEALTHS = ['good', 'maintenance', 'warning', 'error', 'critical'] as const;
export type Health = (typeof HEALTHS)[number];

export const VISIBILITIES = ['public', 'workspace', 'owner'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const STAGES = ['development', 'live', 'eol'] as const;
export type Stage = (typeof STAGES)[number];

export const TEAM_ROLES = ['admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const STAGE_LABELS: Record<Stage, string> = { development: 'Development', live: 'Live', eol: 'End of Life' };
const VISIBILITY_LABELS: Record<Visibility, string> = { public: 'Public', workspace: 'Workspace', owner: 'Owner team' };
const HEALTH_LABELS: Record<Health, string> = {
  good: 'Good',
  maintenance: 'Maintenance',
  warning: 'Warning',
  error: 'Error',
  critical: 'Critical',
};

export const stageLabel = (stage: Stage): string => STAGE_LABELS[stage];
export const visibilityLabel = (visibility: Visibility): string => VISIBILITY_LABELS[visibility];
export const healthLabel = (health: Health): string => HEALTH_LABELS[health];

/** Spec: services list page size 36 (three per row); members, services and teams lists 20. */
export const SERVICES_PAGE_SIZE = 36;
export const TEAM_LIST_PAGE_SIZE = 20;
/** Spec: the teams list shows at most 4 member avatars. */
export const AVATAR_GROUP_MAX = 4;
/** Owner pickers list up to 20 teams at once; past that they search (debounced) over the same set. */
export const OWNER_PICKER_LIST_MAX = 20;

/** Who is looking: their workspace role and the teams they belong to (with their role in each). */
export interface Viewer {
  role: Role;
  teams: ReadonlyMap<string, TeamRole>;
}

/**
 * docs/decisions.md#roles-and-visibility: `public` and `workspace` services are seen by every member (guests included);
 * `owner` services only by the owning team, and by workspace admins and owners.
 */
export function canSeeService(viewer: Viewer, service: { visibility: Visibility; ownerTeamId: string }): boolean {
  return service.visibility !== 'owner' || isAdminRole(viewer.role) || viewer.teams.has(service.ownerTeamId);
}

/** Team members edit the team's services (spec: team.is_member); workspace admins and owners edit every service. */
export function canEditService(viewer: Viewer, ownerTeamId: string): boolean {
  return viewer.role !== 'guest' && (isAdminRole(viewer.role) || viewer.teams.has(ownerTeamId));
}

/** Team admins manage their team (members, settings, services); workspace admins and owners manage every team. */
export function canAdminTeam(viewer: Viewer, teamId: string): boolean {
  return viewer.role !== 'guest' && (isAdminRole(viewer.role) || viewer.teams.get(teamId) === 'admin');
}

/**
 * Who may create a service for a team (docs/decisions.md#open-decisions): its admins (spec: team.is_admin creates
 * services), and its members too when the team's `members_create_services` policy says so.
 */
export function canCreateServiceFor(viewer: Viewer, teamId: string, membersCreateServices: boolean): boolean {
  return canAdminTeam(viewer, teamId) || (membersCreateServices && canEditService(viewer, teamId));
}

/** Spec: a team's service count is its services plus its sub-teams; a team with any cannot be deleted. */
export function teamServiceCount(services: number, subTeams: number): number {
  return services + subTeams;
}

export const TEAM_NOT_EMPTY = 'You cannot delete a team with services or subteams.';

/** Spec section 4, the star toggle: the starred handles and the count after toggling `handle`. */
export function toggleStar(
  starred: readonly string[],
  count: number,
  handle: string,
): { starred: string[]; count: number } {
  return starred.includes(handle)
    ? { starred: starred.filter((h) => h !== handle), count: Math.max(0, count - 1) }
    : { starred: [...starred, handle], count: count + 1 };
}
