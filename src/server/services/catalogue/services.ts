import { randomUUID } from 'node:crypto';
import type { ProfileRef, Service } from '../../../contract/catalogue.js';
import {
  canCreateServiceFor,
  canEditService,
  canSeeService,
  type Health,
  type Stage,
  type Visibility,
  type Viewer,
} from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import { deleteAsset } from '../../db/repositories/assets.js';
import { recordEvent } from '../events/record-event.js';
import {
  deleteService as deleteServiceRow,
  findService,
  findServiceByHandle,
  insertService,
  listTeamServices as listTeamServiceRows,
  searchServices as searchServiceRows,
  updateService,
  type ServiceListRow,
  type ServicePatch,
} from '../../db/repositories/services.js';
import { findTeam } from '../../db/repositories/teams.js';
import type { SearchPage } from '../../db/repositories/users.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { agentColumns, agentOf } from '../accounts/agents.js';
import { requireUnmanaged, withManagedMarks } from './managed-marks.js';
import type { Caller } from '../accounts/auth.js';
import { setServiceHealth } from './service-health.js';
import { requireValidHandle, withFreeHandle } from './handles.js';
import { removeIcon, replaceIcon } from '../accounts/icons.js';
import { AUTOCOMPLETE_LIMIT, findTeamOr404, teamRef } from './teams.js';
import { assetUrl } from '../accounts/users.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';

const SERVICE_NOT_FOUND = 'The service was not found';

function toService(row: ServiceListRow, viewer: Viewer): Service {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    thumbnail_url: assetUrl(row.icon_asset_id),
    links: JSON.parse(row.links) as Service['links'],
    visibility: row.visibility,
    stage: row.stage,
    health: row.health,
    created_at: row.created_at,
    updated_at: row.updated_at,
    starred_count: Number(row.starred_count),
    starred: row.starred_at !== null,
    owner: teamRef({
      id: row.owner_team_id,
      handle: row.owner_handle,
      name: row.owner_name,
      icon_asset_id: row.owner_icon_asset_id,
    }),
    permissions: { edit: canEditService(viewer, row.owner_team_id) },
    managed_by: null,
  };
}

/** Services as answered: with their "Managed in" marks. */
function toServices(ctx: ServerContext, workspaceId: string, rows: ServiceListRow[], viewer: Viewer) {
  return withManagedMarks(
    ctx,
    workspaceId,
    rows.map((row) => toService(row, viewer)),
  );
}

export function serviceRef(row: {
  id: string;
  handle: string;
  name: string;
  icon_asset_id: string | null;
}): ProfileRef {
  return { id: row.id, handle: row.handle, name: row.name, thumbnail_url: assetUrl(row.icon_asset_id) };
}

/** The service if the caller may see it; a hidden service answers exactly like a missing one. */
export async function visibleService(ctx: ServerContext, caller: Caller, idOrHandle: string) {
  const viewer = await viewerOf(ctx, caller);
  const row = await findService(ctx.database.db, caller.workspace.id, idOrHandle, caller.user.id);
  if (!row || !canSeeService(viewer, { visibility: row.visibility, ownerTeamId: row.owner_team_id })) {
    throw notFound(SERVICE_NOT_FOUND);
  }
  return { row, viewer };
}

/** The service if the caller may edit it: a member of its team, or a workspace admin or owner; never a guest. */
export async function editableService(ctx: ServerContext, caller: Caller, idOrHandle: string) {
  const found = await visibleService(ctx, caller, idOrHandle);
  if (!canEditService(found.viewer, found.row.owner_team_id)) {
    throw forbidden('Only members of the owning team can change this service');
  }
  return found;
}

export async function getService(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<Service> {
  const { row, viewer } = await visibleService(ctx, caller, idOrHandle);
  const [service] = await toServices(ctx, caller.workspace.id, [row], viewer);
  return service!;
}

/** docs/decisions.md#api-conventions: a new service is good, visible to the workspace, in development. */
export async function createService(
  ctx: ServerContext,
  caller: Caller,
  teamIdOrHandle: string,
  input: { name: string; handle: string },
): Promise<Service> {
  const { workspace } = caller;
  const team = await findTeamOr404(ctx, workspace.id, teamIdOrHandle);
  if (!canCreateServiceFor(await viewerOf(ctx, caller), team.id, team.members_create_services === 1)) {
    throw forbidden(
      team.members_create_services === 1
        ? 'Only members of the team can create its services'
        : 'Only admins of the team can create its services',
    );
  }
  requireValidHandle(input.handle);
  const { db } = ctx.database;
  const id = randomUUID();
  const now = isoNow(ctx);
  await withFreeHandle(
    async () => Boolean(await findServiceByHandle(db, workspace.id, input.handle)),
    () =>
      db.transaction().execute(async (trx) => {
        await insertService(trx, {
          id,
          workspace_id: workspace.id,
          handle: input.handle,
          name: input.name,
          description: null,
          icon_asset_id: null,
          owner_team_id: team.id,
          visibility: team.default_visibility,
          stage: 'development',
          health: 'good',
          links: '[]',
          created_at: now,
          updated_at: now,
        });
        await recordEvent(trx, {
          workspace_id: workspace.id,
          profile_type: 'service',
          profile_id: id,
          type: 'service.created',
          ...agentColumns(agentOf(caller)),
          data: {},
          created_at: now,
        });
      }),
  );
  return getService(ctx, caller, id);
}

/**
 * Writes a change and answers with the service as it now is. Read back without the visibility check: an
 * editor who just moved an owner-only service to another team still gets the answer to their own write.
 */
async function applyPatch(
  ctx: ServerContext,
  caller: Caller,
  found: { row: ServiceListRow; viewer: Viewer },
  patch: Omit<ServicePatch, 'updated_at'>,
): Promise<Service> {
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  if (Object.keys(patch).length > 0) {
    // docs/decisions.md#health-maths and #feeds: the change, its health transition and its events in one transaction.
    const { health, ...rest } = patch;
    const now = ctx.now();
    await db.transaction().execute(async (trx) => {
      if (Object.keys(rest).length > 0) {
        await updateService(trx, workspaceId, found.row.id, { ...rest, updated_at: now.toISOString() });
        await recordServiceChanges(trx, caller, found.row, rest, now.toISOString());
      }
      if (health !== undefined)
        await setServiceHealth(trx, {
          workspaceId,
          serviceId: found.row.id,
          health,
          at: now,
          source: 'manual',
          agent: agentOf(caller),
        });
    });
  }
  const row = await findService(db, caller.workspace.id, found.row.id, caller.user.id);
  if (!row) throw notFound(SERVICE_NOT_FOUND);
  const [service] = await toServices(ctx, caller.workspace.id, [row], found.viewer);
  return service!;
}

/** What a catalogue source's files decide for a service it manages (docs/decisions.md#catalogue-as-code). */
const MANAGED_FIELDS = 'change its name, description and links';

async function patchService(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  managed: string | null,
  patch: Omit<ServicePatch, 'updated_at'>,
): Promise<Service> {
  const found = await editableService(ctx, caller, idOrHandle);
  if (managed) await requireUnmanaged(ctx, caller.workspace.id, found.row, 'service', managed);
  return applyPatch(ctx, caller, found, patch);
}

export function updateServiceFields(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  input: { name?: string; description?: string | null; links?: Array<{ name: string; url: string }> },
): Promise<Service> {
  const { links, description, ...rest } = input;
  return patchService(ctx, caller, idOrHandle, MANAGED_FIELDS, {
    ...rest,
    // A blank description is no description.
    ...(description !== undefined ? { description: description?.trim() ? description : null } : {}),
    ...(links !== undefined ? { links: JSON.stringify(links) } : {}),
  });
}

/** Spec 6: the owner may become any team the user can see, which is every team of the workspace. */
export async function reparentService(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  ownerIdOrHandle: string,
): Promise<Service> {
  const found = await editableService(ctx, caller, idOrHandle);
  await requireUnmanaged(ctx, caller.workspace.id, found.row, 'service', 'change its owner');
  const team = await findTeam(ctx.database.db, caller.workspace.id, ownerIdOrHandle);
  if (!team) throw badRequest('The owner team was not found', { 'owner.id': ['Team not found'] });
  return applyPatch(ctx, caller, found, team.id === found.row.owner_team_id ? {} : { owner_team_id: team.id });
}

export function changeService(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  change: { health: Health } | { visibility: Visibility } | { stage: Stage },
): Promise<Service> {
  // Health and visibility stay the UI's; the lifecycle is the file's.
  return patchService(ctx, caller, idOrHandle, 'stage' in change ? 'change its lifecycle' : null, change);
}

/** The events of a change of a service's fields: its owner, and the rest as one update. */
async function recordServiceChanges(
  trx: Db,
  caller: Caller,
  before: ServiceListRow,
  change: Omit<ServicePatch, 'updated_at' | 'health'>,
  at: string,
): Promise<void> {
  const base = {
    workspace_id: caller.workspace.id,
    profile_type: 'service' as const,
    profile_id: before.id,
    ...agentColumns(agentOf(caller)),
    created_at: at,
  };
  const { owner_team_id: owner, ...rest } = change;
  // A new icon is not news for a feed.
  const fields = Object.fromEntries(Object.entries(rest).filter(([field]) => field !== 'icon_asset_id'));
  if (owner !== undefined && owner !== before.owner_team_id) {
    const team = await findTeam(trx, caller.workspace.id, owner);
    await recordEvent(trx, {
      ...base,
      type: 'service.owner_changed',
      data: { from: before.owner_name, to: team?.name ?? '' },
    });
  }
  const changed = Object.keys(fields).filter((field) => fields[field] !== before[field as keyof ServiceListRow]);
  if (changed.length > 0) await recordEvent(trx, { ...base, type: 'service.updated', data: { fields: changed } });
}

/** Deleting a service removes its stars (cascade) and its icon. */
export async function deleteService(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<void> {
  const { row } = await editableService(ctx, caller, idOrHandle);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'remove it from its file');
  const workspaceId = caller.workspace.id;
  await ctx.database.db.transaction().execute(async (trx) => {
    await deleteServiceRow(trx, workspaceId, row.id);
    // The service is gone: its team's feed keeps the word of it.
    await recordEvent(trx, {
      workspace_id: workspaceId,
      profile_type: 'team',
      profile_id: row.owner_team_id,
      type: 'service.deleted',
      ...agentColumns(agentOf(caller)),
      data: { name: row.name, handle: row.handle },
      created_at: isoNow(ctx),
    });
    if (row.icon_asset_id) await deleteAsset(trx, workspaceId, row.icon_asset_id);
  });
}

export async function setServiceIcon(ctx: ServerContext, caller: Caller, idOrHandle: string, data: Buffer) {
  const found = await editableService(ctx, caller, idOrHandle);
  await replaceIcon(ctx, caller.workspace.id, found.row.icon_asset_id, data, (trx, assetId) =>
    updateService(trx, caller.workspace.id, found.row.id, { icon_asset_id: assetId, updated_at: isoNow(ctx) }),
  );
  return applyPatch(ctx, caller, found, {});
}

export async function clearServiceIcon(ctx: ServerContext, caller: Caller, idOrHandle: string) {
  const found = await editableService(ctx, caller, idOrHandle);
  await removeIcon(ctx, caller.workspace.id, found.row.icon_asset_id, (trx) =>
    updateService(trx, caller.workspace.id, found.row.id, { icon_asset_id: null, updated_at: isoNow(ctx) }),
  );
  return applyPatch(ctx, caller, found, {});
}

/** The services list: visibility is applied in the query, so totals and pages never count hidden services. */
export async function searchServices(ctx: ServerContext, caller: Caller, page: SearchPage) {
  const viewer = await viewerOf(ctx, caller);
  const scope = serviceScope(caller, viewer);
  const { rows, total } = await searchServiceRows(ctx.database.db, caller.workspace.id, scope, page);
  return { services: await toServices(ctx, caller.workspace.id, rows, viewer), total };
}

export async function listTeamServices(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, page: SearchPage) {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  const viewer = await viewerOf(ctx, caller);
  const scope = serviceScope(caller, viewer);
  const { rows, total } = await listTeamServiceRows(ctx.database.db, caller.workspace.id, team.id, scope, page);
  return { services: await toServices(ctx, caller.workspace.id, rows, viewer), total };
}

export async function autocompleteServices(ctx: ServerContext, caller: Caller, q: string): Promise<ProfileRef[]> {
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const page = { q, cursor: 0, limit: AUTOCOMPLETE_LIMIT };
  const { rows } = await searchServiceRows(ctx.database.db, caller.workspace.id, scope, page);
  return rows.map(serviceRef);
}
