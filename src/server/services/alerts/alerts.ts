/**
 * Alerts as the API answers them (docs/api.md, "Alerts"): a member reads the alerts of the services they can see
 * (guests read none), the owning team's members and admins acknowledge and resolve them. The rules of an alert's
 * life are the alerting area's (services/alerting/lifecycle.ts).
 */
import type { z } from 'zod';
import type { Alert, AlertWithTimeline, alertQuery } from '../../../contract/alerts.js';
import { ALERT_SEVERITIES, ALERT_STATES } from '../../../domain/alerts.js';
import { canEditService, canSeeService, type Viewer } from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  findAlert,
  listAlerts as listAlertRows,
  listChannelsByIds,
  listTimeline,
  type AlertListRow,
} from '../../db/repositories/alerts.js';
import { findService } from '../../db/repositories/services.js';
import { findTeamByHandle } from '../../db/repositories/teams.js';
import { listUserRefsByIds } from '../../db/repositories/users.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';
import type { Caller } from '../accounts/auth.js';
import { answerAlert, type AlertAnswerer } from '../alerting/lifecycle.js';

const ALERT_NOT_FOUND = 'The alert was not found';

type AlertQuery = z.infer<typeof alertQuery>;

/** A comma list of known values; a value it does not know is a 400 naming it. */
function commaList<T extends string>(value: string, known: readonly T[], field: string): T[] {
  const values = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = values.filter((part) => !(known as readonly string[]).includes(part));
  if (unknown.length > 0) {
    throw badRequest(`Unknown ${field}: ${unknown.join(', ')}`, {
      [field]: [`Must be a comma list of ${known.join(', ')}`],
    });
  }
  return values as T[];
}

function requireReader(viewer: Viewer): void {
  if (viewer.role === 'guest') throw forbidden('Guests cannot read alerts');
}

async function toAlerts(ctx: ServerContext, caller: Caller, viewer: Viewer, rows: AlertListRow[]): Promise<Alert[]> {
  const userIds = [
    ...new Set(rows.flatMap((row) => [row.acknowledged_by, row.resolved_by]).filter((id) => id !== null)),
  ];
  const users = new Map(
    (await listUserRefsByIds(ctx.database.db, caller.workspace.id, userIds)).map((user) => [user.id, user]),
  );
  const refOf = (id: string | null) => {
    const user = id ? users.get(id) : undefined;
    return user ? { handle: user.handle, name: user.name } : null;
  };
  return rows.map((row) => ({
    id: row.id,
    service: { handle: row.service_handle, name: row.service_name },
    team: { handle: row.team_handle, name: row.team_name },
    severity: row.severity,
    state: row.state,
    source: row.source,
    summary: row.summary,
    opened_at: row.opened_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by: refOf(row.acknowledged_by),
    resolved_at: row.resolved_at,
    resolved_by: refOf(row.resolved_by),
    reason: row.reason,
    permissions: { answer: canEditService(viewer, row.team_id) },
  }));
}

export async function listAlerts(ctx: ServerContext, caller: Caller, query: AlertQuery) {
  const viewer = await viewerOf(ctx, caller);
  requireReader(viewer);
  const db = ctx.database.db;
  const workspaceId = caller.workspace.id;
  let teamId: string | undefined;
  let serviceId: string | undefined;
  if (query.team) {
    const team = await findTeamByHandle(db, workspaceId, query.team);
    if (!team) throw notFound('The team was not found');
    teamId = team.id;
  }
  if (query.service) {
    const service = await findService(db, workspaceId, query.service, caller.user.id);
    if (!service || !canSeeService(viewer, { visibility: service.visibility, ownerTeamId: service.owner_team_id })) {
      throw notFound('The service was not found');
    }
    serviceId = service.id;
  }
  const page = await listAlertRows(
    db,
    workspaceId,
    serviceScope(caller, viewer),
    {
      ...(query.state !== undefined ? { states: commaList(query.state, ALERT_STATES, 'state') } : {}),
      ...(query.severity !== undefined ? { severities: commaList(query.severity, ALERT_SEVERITIES, 'severity') } : {}),
      ...(teamId ? { teamId } : {}),
      ...(serviceId ? { serviceId } : {}),
    },
    { cursor: query.cursor, limit: query.limit },
  );
  return { items: await toAlerts(ctx, caller, viewer, page.rows), total: page.total };
}

/** The alert if the caller may see its service; a hidden one answers exactly like a missing one. */
async function visibleAlert(ctx: ServerContext, caller: Caller, id: string) {
  const viewer = await viewerOf(ctx, caller);
  requireReader(viewer);
  const row = await findAlert(ctx.database.db, caller.workspace.id, id);
  if (!row) throw notFound(ALERT_NOT_FOUND);
  if (!canSeeService(viewer, { visibility: row.service_visibility, ownerTeamId: row.team_id })) {
    throw notFound(ALERT_NOT_FOUND);
  }
  return { row, viewer };
}

export async function getAlert(ctx: ServerContext, caller: Caller, id: string): Promise<AlertWithTimeline> {
  const { row, viewer } = await visibleAlert(ctx, caller, id);
  return withTimeline(ctx, caller, viewer, row);
}

async function withTimeline(ctx: ServerContext, caller: Caller, viewer: Viewer, row: AlertListRow) {
  const db = ctx.database.db;
  const [answer] = await toAlerts(ctx, caller, viewer, [row]);
  const entries = await listTimeline(db, row.id);
  const channelIds = [...new Set(entries.map((entry) => entry.channel_id).filter((cid) => cid !== null))];
  const channels = new Map(
    (await listChannelsByIds(db, caller.workspace.id, channelIds)).map((channel) => [channel.id, channel]),
  );
  return {
    ...answer!,
    timeline: entries.map((entry) => {
      const channel = entry.channel_id ? channels.get(entry.channel_id) : undefined;
      return {
        at: entry.at,
        kind: entry.kind,
        ...(channel ? { channel: { id: channel.id, name: channel.name, kind: channel.kind } } : {}),
        ...(entry.target ? { target: entry.target } : {}),
        ...(entry.status ? { status: entry.status } : {}),
        message: entry.message,
      };
    }),
  };
}

/** The answerer a caller is: a person through the app or the API, or an API client. */
function answererOf(caller: Caller): AlertAnswerer {
  if (caller.client) return { userId: null, name: caller.client.handle, via: 'the API' };
  return { userId: caller.user.id, name: caller.user.name, via: 'Beacon' };
}

export async function actOnAlert(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  action: 'acknowledge' | 'resolve',
  reason?: string,
): Promise<AlertWithTimeline> {
  const { row, viewer } = await visibleAlert(ctx, caller, id);
  if (!canEditService(viewer, row.team_id)) {
    throw forbidden('Only members of the owning team and workspace admins can answer this alert');
  }
  const outcome = await ctx.database.db
    .transaction()
    .execute((trx) => answerAlert(trx, row, action, answererOf(caller), isoNow(ctx), reason));
  if (!outcome.applied) throw conflict(outcome.refusal);
  const fresh = await findAlert(ctx.database.db, caller.workspace.id, id);
  return withTimeline(ctx, caller, viewer, fresh ?? row);
}
