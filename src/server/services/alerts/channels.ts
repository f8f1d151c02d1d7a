/**
 * Alert channels (docs/api.md, "Alert channels"): workspace admins manage the workspace's, a team's admins (and
 * workspace admins) the team's own; members read them, guests none. Secrets are sealed (crypto/secret-box.ts) and
 * never answered: `"set"` stands in their place. URLs must not point into the operator's network.
 */
import { randomUUID } from 'node:crypto';
import type { AlertChannel, AlertChannelCreate, AlertDelivery } from '../../../contract/alerts.js';
import { CHANNEL_SECRETS, channelConfigs } from '../../../contract/alerts.js';
import { DELIVERY_LOG_SIZE, type AlertChannelKind } from '../../../domain/alerts.js';
import { canAdminTeam, canEditService, type Viewer } from '../../../domain/catalogue.js';
import { isAdminRole } from '../../../domain/roles.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteChannel,
  findChannel,
  insertChannel,
  listChannelDeliveries,
  listChannels,
  listChannelsByIds,
  updateChannel,
} from '../../db/repositories/alerts.js';
import { listTeamHandlesByIds, listTeamIdsByHandles } from '../../db/repositories/teams.js';
import { listUsersByHandles } from '../../db/repositories/users.js';
import type { AlertChannelRow, AlertDeliveryRow } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { requirePublicUrl } from '../../integrations/public-address.js';
import { viewerOf } from '../../cache/viewer.js';
import type { Caller } from '../accounts/auth.js';
import { queueTest } from '../alerting/deliveries.js';
import { findTeamOr404 } from '../catalogue/teams.js';

const CHANNEL_NOT_FOUND = 'The alert channel was not found';
/** The URL fields of each kind's settings, checked against the address guard. */
const URL_FIELDS: Partial<Record<AlertChannelKind, string>> = {
  webhook: 'url',
  teams: 'url',
  discord: 'url',
  ntfy: 'url',
};

type Config = Record<string, unknown>;

/** Splits settings into what is answered and what is sealed. */
function splitSecrets(kind: AlertChannelKind, config: Config): { open: Config; secrets: Config } {
  const secretFields = CHANNEL_SECRETS[kind];
  const open: Config = {};
  const secrets: Config = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    (secretFields.includes(key) ? secrets : open)[key] = value;
  }
  return { open, secrets };
}

/** The channel's settings with its secrets opened: what its sender needs (the alert outbox). */
export function channelSettings(ctx: ServerContext, row: AlertChannelRow): Config {
  const open = JSON.parse(row.config) as Config;
  const secrets = row.secrets ? (JSON.parse(ctx.secretBox.open(row.secrets)) as Config) : {};
  return { ...open, ...secrets };
}

function toChannel(row: AlertChannelRow, teams: Map<string, { handle: string; name: string }>): AlertChannel {
  const config = JSON.parse(row.config) as Config;
  const secretNames = row.secrets ? CHANNEL_SECRETS[row.kind] : [];
  for (const name of secretNames) config[name] = 'set';
  const team = row.team_id ? teams.get(row.team_id) : undefined;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    team: team ? { handle: team.handle, name: team.name } : null,
    config,
    failing: row.failing === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function toChannels(ctx: ServerContext, workspaceId: string, rows: AlertChannelRow[]): Promise<AlertChannel[]> {
  const teamIds = [...new Set(rows.map((row) => row.team_id).filter((id) => id !== null))];
  const teams = new Map<string, { handle: string; name: string }>();
  if (teamIds.length > 0) {
    for (const team of await listTeamHandlesByIds(ctx.database.db, workspaceId, teamIds)) {
      teams.set(team.id, { handle: team.handle, name: team.name });
    }
  }
  return rows.map((row) => toChannel(row, teams));
}

async function readerViewer(ctx: ServerContext, caller: Caller): Promise<Viewer> {
  const viewer = await viewerOf(ctx, caller);
  if (viewer.role === 'guest') throw forbidden('Guests cannot see alert channels');
  return viewer;
}

/**
 * Who may see a channel: the workspace's, every member but guests (a team's policy may name them); a team's own, its
 * members and workspace admins (another team's channels say where that team is woken, and are none of theirs).
 */
function canReadChannel(viewer: Viewer, teamId: string | null): boolean {
  return teamId === null || canEditService(viewer, teamId);
}

/** Who may change a channel: workspace admins any; a team's admins their team's. */
function requireChannelAdmin(viewer: Viewer, teamId: string | null): void {
  if (teamId === null ? isAdminRole(viewer.role) : canAdminTeam(viewer, teamId)) return;
  throw forbidden(
    teamId === null
      ? 'Only workspace admins and owners can manage workspace alert channels'
      : "Only the team's admins and workspace admins can manage the team's alert channels",
  );
}

/** Settings checked beyond their shape: the users and teams an email channel names exist, URLs are public. */
async function checkConfig(ctx: ServerContext, workspaceId: string, kind: AlertChannelKind, config: Config) {
  const url = URL_FIELDS[kind];
  if (url && typeof config[url] === 'string') {
    await requirePublicUrl(ctx.config.allowPrivateTargets, config[url], { field: `config.${url}`, noun: 'channel' });
  }
  if (kind !== 'email') return;
  const users = (config.users as string[] | undefined) ?? [];
  const teams = (config.teams as string[] | undefined) ?? [];
  const db = ctx.database.db;
  const foundUsers = new Set((await listUsersByHandles(db, workspaceId, users)).map((user) => user.handle));
  const missingUsers = users.filter((handle) => !foundUsers.has(handle));
  if (missingUsers.length > 0) {
    throw badRequest('No such user', { 'config.users': missingUsers.map((handle) => `No user @${handle}`) });
  }
  const foundTeams = new Set((await listTeamIdsByHandles(db, workspaceId, teams)).map((team) => team.handle));
  const missingTeams = teams.filter((handle) => !foundTeams.has(handle));
  if (missingTeams.length > 0) {
    throw badRequest('No such team', { 'config.teams': missingTeams.map((handle) => `No team @${handle}`) });
  }
}

export async function listWorkspaceChannels(ctx: ServerContext, caller: Caller): Promise<AlertChannel[]> {
  await readerViewer(ctx, caller);
  return toChannels(ctx, caller.workspace.id, await listChannels(ctx.database.db, caller.workspace.id, null));
}

export async function listTeamChannels(ctx: ServerContext, caller: Caller, teamHandle: string) {
  const viewer = await readerViewer(ctx, caller);
  const team = await findTeamOr404(ctx, caller.workspace.id, teamHandle);
  if (!canReadChannel(viewer, team.id)) {
    throw forbidden("Only the team's members and workspace admins can see the team's alert channels");
  }
  return toChannels(ctx, caller.workspace.id, await listChannels(ctx.database.db, caller.workspace.id, team.id));
}

export async function createChannel(
  ctx: ServerContext,
  caller: Caller,
  input: AlertChannelCreate,
  teamHandle?: string,
): Promise<AlertChannel> {
  const viewer = await readerViewer(ctx, caller);
  const teamId = teamHandle ? (await findTeamOr404(ctx, caller.workspace.id, teamHandle)).id : null;
  requireChannelAdmin(viewer, teamId);
  const config = input.config as Config;
  await checkConfig(ctx, caller.workspace.id, input.kind, config);
  const { open, secrets } = splitSecrets(input.kind, config);
  const now = isoNow(ctx);
  const row: AlertChannelRow = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    team_id: teamId,
    name: input.name,
    kind: input.kind,
    config: JSON.stringify(open),
    secrets: Object.keys(secrets).length > 0 ? ctx.secretBox.seal(JSON.stringify(secrets)) : null,
    failing: 0,
    failures_in_row: 0,
    created_at: now,
    updated_at: now,
  };
  await insertChannel(ctx.database.db, row);
  const [answer] = await toChannels(ctx, caller.workspace.id, [row]);
  return answer!;
}

async function visibleChannel(ctx: ServerContext, caller: Caller, id: string) {
  const viewer = await readerViewer(ctx, caller);
  const row = await findChannel(ctx.database.db, caller.workspace.id, id);
  // Another team's channel is answered as missing: its id says nothing to those who may not see it.
  if (!row || !canReadChannel(viewer, row.team_id)) throw notFound(CHANNEL_NOT_FOUND);
  return { viewer, row };
}

export async function getChannel(ctx: ServerContext, caller: Caller, id: string): Promise<AlertChannel> {
  const { row } = await visibleChannel(ctx, caller, id);
  const [answer] = await toChannels(ctx, caller.workspace.id, [row]);
  return answer!;
}

export async function changeChannel(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  input: { name?: string | undefined; config?: Record<string, unknown> | undefined },
): Promise<AlertChannel> {
  const { viewer, row } = await visibleChannel(ctx, caller, id);
  requireChannelAdmin(viewer, row.team_id);
  const patch: Partial<AlertChannelRow> = { updated_at: isoNow(ctx) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.config !== undefined) {
    // A secret answered as "set" and sent back unchanged keeps its value, as does one left out.
    const given = Object.fromEntries(
      Object.entries(input.config).filter(
        ([key, value]) => !(CHANNEL_SECRETS[row.kind].includes(key) && value === 'set'),
      ),
    );
    const merged = { ...channelSettings(ctx, row), ...given };
    const parsed = channelConfigs[row.kind].safeParse(merged);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const field = ['config', ...issue.path.map(String)].join('.');
        (errors[field] ??= []).push(issue.message);
      }
      throw badRequest('The channel settings are not valid', errors);
    }
    const config = parsed.data as Config;
    await checkConfig(ctx, caller.workspace.id, row.kind, config);
    const { open, secrets } = splitSecrets(row.kind, config);
    patch.config = JSON.stringify(open);
    patch.secrets = Object.keys(secrets).length > 0 ? ctx.secretBox.seal(JSON.stringify(secrets)) : null;
  }
  await updateChannel(ctx.database.db, caller.workspace.id, id, patch);
  return getChannel(ctx, caller, id);
}

export async function removeChannel(ctx: ServerContext, caller: Caller, id: string): Promise<void> {
  const { viewer, row } = await visibleChannel(ctx, caller, id);
  requireChannelAdmin(viewer, row.team_id);
  await deleteChannel(ctx.database.db, caller.workspace.id, id);
}

export function toDelivery(row: AlertDeliveryRow): AlertDelivery {
  return {
    id: row.id,
    at: row.attempted_at ?? row.created_at,
    alert: row.alert_id,
    action: row.action,
    status: row.status === 'pending' ? 'retrying' : row.status,
    code: row.code,
    error: row.status === 'sent' ? null : row.last_error,
  };
}

/** Queues a test through the channel (its admins); the outbox sends it at once. */
export async function testChannel(ctx: ServerContext, caller: Caller, id: string): Promise<AlertDelivery> {
  const { viewer, row } = await visibleChannel(ctx, caller, id);
  requireChannelAdmin(viewer, row.team_id);
  const delivery = await queueTest(ctx.database.db, row, isoNow(ctx), caller.user.name);
  ctx.wakeAlerts?.();
  return toDelivery(delivery);
}

export async function channelDeliveries(ctx: ServerContext, caller: Caller, id: string): Promise<AlertDelivery[]> {
  const { viewer, row } = await visibleChannel(ctx, caller, id);
  requireChannelAdmin(viewer, row.team_id);
  return (await listChannelDeliveries(ctx.database.db, row.id, DELIVERY_LOG_SIZE)).map(toDelivery);
}

/**
 * The channels with these ids that `teamId`'s policy or service may use: the workspace's and the team's own.
 * Throws a 400 naming `field` for any other.
 */
export async function usableChannels(
  ctx: ServerContext,
  workspaceId: string,
  teamId: string | null,
  ids: readonly string[],
  field: string,
): Promise<AlertChannelRow[]> {
  const rows = await listChannelsByIds(ctx.database.db, workspaceId, ids);
  const usable = new Map(
    rows.filter((row) => row.team_id === null || row.team_id === teamId).map((row) => [row.id, row] as const),
  );
  const missing = ids.filter((cid) => !usable.has(cid));
  if (missing.length > 0) {
    throw badRequest('No such alert channel', { [field]: missing.map((cid) => `No usable channel ${cid}`) });
  }
  return [...usable.values()];
}

export { toChannels };
