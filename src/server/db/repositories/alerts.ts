import type { Insertable, SelectQueryBuilder, Updateable } from 'kysely';
import type { AlertSeverity, AlertSource, AlertState } from '../../../domain/alerts.js';
import type { Visibility } from '../../../domain/catalogue.js';
import type {
  AlertChannelRow,
  Database,
  AlertChannelsTable,
  AlertDeliveriesTable,
  AlertDeliveryRow,
  AlertPoliciesTable,
  AlertPolicyRow,
  AlertRow,
  AlertsTable,
  AlertTimelineRow,
  AlertTimelineTable,
} from '../schema.js';
import { pageAndCount, type Paged } from './paging.js';
import { visibleTo, type ServiceScope } from './services.js';
import type { Db } from './workspaces.js';

// ---- alerts ----

/** An alert with what the answers show of its service and owning team (the team it routes by today). */
export interface AlertListRow extends AlertRow {
  service_handle: string;
  service_name: string;
  service_visibility: Visibility;
  team_id: string;
  team_handle: string;
  team_name: string;
}

function alertsWithService(db: Db) {
  return db
    .selectFrom('alerts')
    .innerJoin('services', 'services.id', 'alerts.service_id')
    .innerJoin('teams', 'teams.id', 'services.owner_team_id')
    .selectAll('alerts')
    .select([
      'services.handle as service_handle',
      'services.name as service_name',
      'services.visibility as service_visibility',
      'teams.id as team_id',
      'teams.handle as team_handle',
      'teams.name as team_name',
    ]);
}

export function findAlert(db: Db, workspaceId: string, id: string): Promise<AlertListRow | undefined> {
  return alertsWithService(db)
    .where('alerts.workspace_id', '=', workspaceId)
    .where('alerts.id', '=', id)
    .executeTakeFirst();
}

/** An alert by its id whatever its workspace: what a vendor's answer names (the caller checks who vouches for it). */
export function findAlertAnywhere(db: Db, id: string): Promise<AlertListRow | undefined> {
  return alertsWithService(db).where('alerts.id', '=', id).executeTakeFirst();
}

/** The service's alert of `source` that is not resolved, if any (at most one: the `alerts_active` index). */
export function findActiveAlert(db: Db, serviceId: string, source: AlertSource): Promise<AlertRow | undefined> {
  return db
    .selectFrom('alerts')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('source', '=', source)
    .where('state', '<>', 'resolved')
    .executeTakeFirst();
}

export interface AlertFilter {
  states?: readonly AlertState[];
  teamId?: string;
  severities?: readonly AlertSeverity[];
  serviceId?: string;
}

/** The alerts the scope may see, newest first, with the total. */
export function listAlerts(
  db: Db,
  workspaceId: string,
  scope: ServiceScope,
  filter: AlertFilter,
  page: { cursor: number; limit: number },
): Promise<Paged<AlertListRow>> {
  // The alert's own columns, for the page and the total alike.
  const ofAlerts = <Q extends SelectQueryBuilder<Database, 'alerts', object>>(query: Q): Q => {
    let q = query.where('alerts.workspace_id', '=', workspaceId);
    if (filter.states?.length) q = q.where('alerts.state', 'in', [...filter.states]);
    if (filter.severities?.length) q = q.where('alerts.severity', 'in', [...filter.severities]);
    if (filter.serviceId) q = q.where('alerts.service_id', '=', filter.serviceId);
    return q as Q;
  };
  let rows = ofAlerts(alertsWithService(db));
  if (!scope.all) rows = rows.where(visibleTo(workspaceId, scope));
  if (filter.teamId) rows = rows.where('services.owner_team_id', '=', filter.teamId);
  // The total reads the services only for what it must (visibility, the team): joined, 10,000 open alerts took
  // five times as long to count on PostgreSQL.
  let total = ofAlerts(db.selectFrom('alerts')).select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (!scope.all || filter.teamId)
    total = total.where(
      'alerts.service_id',
      'in',
      db
        .selectFrom('services')
        .select('services.id')
        .where('services.workspace_id', '=', workspaceId)
        .$if(!scope.all, (qb) => qb.where(visibleTo(workspaceId, scope)))
        .$if(filter.teamId !== undefined, (qb) => qb.where('services.owner_team_id', '=', filter.teamId!)),
    );
  return pageAndCount(
    // Both descending: the order of the alerts_by_workspace index (migration 042), so a page stops at its size.
    rows
      .orderBy('alerts.opened_at', 'desc')
      .orderBy('alerts.id', 'desc')
      .offset(page.cursor)
      .limit(page.limit)
      .execute(),
    total.executeTakeFirstOrThrow(),
  );
}

export async function insertAlert(db: Db, row: Insertable<AlertsTable>): Promise<void> {
  await db.insertInto('alerts').values(row).execute();
}

/** Changes an alert if it is still in one of `states`; false when it was not (another request moved it first). */
export async function updateAlertIf(
  db: Db,
  id: string,
  states: readonly AlertState[],
  patch: Updateable<AlertsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('alerts')
    .set(patch)
    .where('id', '=', id)
    .where('state', 'in', [...states])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Alerts whose next escalation step is due, oldest first, with their service and its team now. */
export function listDueEscalations(db: Db, now: string, limit: number): Promise<AlertListRow[]> {
  return alertsWithService(db)
    .where('alerts.next_escalation_at', 'is not', null)
    .where('alerts.next_escalation_at', '<=', now)
    .orderBy('alerts.next_escalation_at')
    .limit(limit)
    .execute();
}

/** When the next escalation step of any alert is due (epoch ms). */
export async function nextEscalationDue(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.min('next_escalation_at').as('next'))
    .where('next_escalation_at', 'is not', null)
    .executeTakeFirst();
  return row?.next ? Date.parse(row.next) : undefined;
}

/**
 * Moves an alert's escalation from the step `due` was read at to the next one; false when another process took
 * the step first (the compare on `next_escalation_at` makes it one taker).
 */
export async function claimEscalationStep(
  db: Db,
  due: Pick<AlertRow, 'id' | 'next_escalation_at'>,
  next: { round: number; level: number; nextAt: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('alerts')
    .set({ escalation_round: next.round, escalation_level: next.level, next_escalation_at: next.nextAt })
    .where('id', '=', due.id)
    .where('next_escalation_at', '=', due.next_escalation_at)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The team that owns the service now. */
export async function ownerTeamOf(db: Db, serviceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('services').select('owner_team_id').where('id', '=', serviceId).executeTakeFirst();
  return row?.owner_team_id;
}

/** Moves a due escalation step to `at` (its step failed: tried again then). */
export async function postponeEscalation(db: Db, due: Pick<AlertRow, 'id' | 'next_escalation_at'>, at: string) {
  await db
    .updateTable('alerts')
    .set({ next_escalation_at: at })
    .where('id', '=', due.id)
    .where('next_escalation_at', '=', due.next_escalation_at)
    .execute();
}

// ---- the timeline ----

export async function insertTimeline(db: Db, rows: readonly Insertable<AlertTimelineTable>[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('alert_timeline')
      .values([...rows])
      .execute();
}

export function listTimeline(db: Db, alertId: string): Promise<AlertTimelineRow[]> {
  return db
    .selectFrom('alert_timeline')
    .selectAll()
    .where('alert_id', '=', alertId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

// ---- channels ----

export function findChannel(db: Db, workspaceId: string, id: string): Promise<AlertChannelRow | undefined> {
  return db
    .selectFrom('alert_channels')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A workspace's channels (`teamId` null), a team's own, or all of them (`teamId` undefined), by name. */
export function listChannels(db: Db, workspaceId: string, teamId?: string | null): Promise<AlertChannelRow[]> {
  let query = db.selectFrom('alert_channels').selectAll().where('workspace_id', '=', workspaceId);
  if (teamId === null) query = query.where('team_id', 'is', null);
  else if (teamId !== undefined) query = query.where('team_id', '=', teamId);
  return query.orderBy('name').orderBy('id').execute();
}

export function listChannelsByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<AlertChannelRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('alert_channels')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function insertChannel(db: Db, row: Insertable<AlertChannelsTable>): Promise<void> {
  await db.insertInto('alert_channels').values(row).execute();
}

export async function updateChannel(
  db: Db,
  workspaceId: string,
  id: string,
  patch: Updateable<AlertChannelsTable>,
): Promise<void> {
  await db
    .updateTable('alert_channels')
    .set(patch)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function deleteChannel(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.deleteFrom('alert_channels').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/**
 * Counts a delivery's outcome on its channel: a success clears the run of failures (and the failing mark), a
 * failure adds one. Answers whether this failure made the channel failing (the run reached `failingAfter`).
 */
export async function countDeliveryOutcome(
  db: Db,
  channelId: string,
  ok: boolean,
  failingAfter: number,
): Promise<{ becameFailing: boolean }> {
  if (ok) {
    await db
      .updateTable('alert_channels')
      .set({ failures_in_row: 0, failing: 0 })
      .where('id', '=', channelId)
      .where((eb) => eb.or([eb('failures_in_row', '<>', 0), eb('failing', '<>', 0)]))
      .execute();
    return { becameFailing: false };
  }
  const row = await db
    .updateTable('alert_channels')
    .set((eb) => ({ failures_in_row: eb('failures_in_row', '+', 1) }))
    .where('id', '=', channelId)
    .returning(['failures_in_row', 'failing'])
    .executeTakeFirst();
  if (!row || row.failing || row.failures_in_row < failingAfter) return { becameFailing: false };
  const marked = await db
    .updateTable('alert_channels')
    .set({ failing: 1 })
    .where('id', '=', channelId)
    .where('failing', '=', 0)
    .executeTakeFirst();
  return { becameFailing: Number(marked.numUpdatedRows) === 1 };
}

// ---- policies ----

/** The workspace's default policy is kept under team_key ''. */
export const DEFAULT_POLICY_KEY = '';

export function findPolicy(db: Db, workspaceId: string, teamKey: string): Promise<AlertPolicyRow | undefined> {
  return db
    .selectFrom('alert_policies')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('team_key', '=', teamKey)
    .executeTakeFirst();
}

/** The team's policy, else the workspace's default, else none. */
export async function effectivePolicy(
  db: Db,
  workspaceId: string,
  teamId: string,
): Promise<AlertPolicyRow | undefined> {
  const rows = await db
    .selectFrom('alert_policies')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('team_key', 'in', [teamId, DEFAULT_POLICY_KEY])
    .execute();
  return rows.find((row) => row.team_key === teamId) ?? rows.find((row) => row.team_key === DEFAULT_POLICY_KEY);
}

export async function putPolicy(db: Db, row: Insertable<AlertPoliciesTable>): Promise<void> {
  await db
    .insertInto('alert_policies')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'team_key']).doUpdateSet({
        rules: row.rules,
        escalation: row.escalation,
        repeat: row.repeat,
        notify_when_impacted: row.notify_when_impacted,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

// ---- a service's own channels ----

export async function listServiceChannelIds(db: Db, serviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('service_alert_channels')
    .select('channel_id')
    .where('service_id', '=', serviceId)
    .execute();
  return rows.map((row) => row.channel_id);
}

export async function replaceServiceChannels(
  db: Db,
  workspaceId: string,
  serviceId: string,
  channelIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('service_alert_channels').where('service_id', '=', serviceId).execute();
  if (channelIds.length === 0) return;
  await db
    .insertInto('service_alert_channels')
    .values(channelIds.map((channel_id) => ({ workspace_id: workspaceId, service_id: serviceId, channel_id })))
    .execute();
}

// ---- deliveries ----

export async function insertDeliveries(db: Db, rows: readonly Insertable<AlertDeliveriesTable>[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('alert_deliveries')
      .values([...rows])
      .execute();
}

/** The channels an alert's opening or raises were queued for: the ones to tell of its end. */
export async function channelsToldOf(db: Db, alertId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_deliveries')
    .select('channel_id')
    .distinct()
    .where('alert_id', '=', alertId)
    .where('action', 'in', ['trigger', 'raise'])
    .execute();
  return rows.map((row) => row.channel_id);
}

/** A channel's last attempts, newest first (deliveries never tried yet are not attempts). */
export function listChannelDeliveries(db: Db, channelId: string, limit: number): Promise<AlertDeliveryRow[]> {
  return db
    .selectFrom('alert_deliveries')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('attempts', '>', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Records an attempt's answer beside the outbox's own bookkeeping (db/repositories/outbox.ts). */
export async function recordAttempt(db: Db, id: string, attempt: { code: number | null; at: string }): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set({ code: attempt.code, attempted_at: attempt.at })
    .where('id', '=', id)
    .execute();
}

/**
 * Keeps the newest `keep` deliveries of each of these channels; older ones that are done (sent or failed) go, in one
 * statement for a batch's channels.
 */
export async function trimChannelDeliveries(db: Db, channelIds: readonly string[], keep: number): Promise<void> {
  if (channelIds.length === 0) return;
  const ranked = db
    .selectFrom('alert_deliveries')
    .select((eb) => [
      'alert_deliveries.id',
      'alert_deliveries.status',
      eb.fn
        .agg<number>('row_number')
        .over((over) => over.partitionBy('channel_id').orderBy('created_at', 'desc').orderBy('id', 'desc'))
        .as('newest'),
    ])
    .where('channel_id', 'in', [...channelIds]);
  await db
    .deleteFrom('alert_deliveries')
    .where(
      'id',
      'in',
      db
        .selectFrom(ranked.as('ranked'))
        .select('ranked.id')
        .where('ranked.newest', '>', keep)
        .where('ranked.status', '<>', 'pending'),
    )
    .execute();
}

// ---- who is told ----

export interface Recipient {
  id: string;
  email: string;
  name: string;
  handle: string;
}

/** The users named, and the members of the teams named (by id or by handle), once each. */
export async function recipientsOf(
  db: Db,
  workspaceId: string,
  named: {
    userIds?: readonly string[];
    userHandles?: readonly string[];
    teamIds?: readonly string[];
    teamHandles?: readonly string[];
  },
): Promise<Recipient[]> {
  const { userIds = [], userHandles = [], teamIds = [], teamHandles = [] } = named;
  if (userIds.length + userHandles.length + teamIds.length + teamHandles.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['users.id', 'users.email', 'users.name', 'users.handle'])
    .where('users.workspace_id', '=', workspaceId)
    .where((eb) => {
      const any = [];
      if (userIds.length > 0) any.push(eb('users.id', 'in', [...userIds]));
      if (userHandles.length > 0) any.push(eb('users.handle', 'in', [...userHandles]));
      if (teamIds.length > 0 || teamHandles.length > 0) {
        any.push(
          eb(
            'users.id',
            'in',
            eb
              .selectFrom('team_members')
              .innerJoin('teams', 'teams.id', 'team_members.team_id')
              .select('team_members.user_id')
              .where('team_members.workspace_id', '=', workspaceId)
              .where((t) =>
                t.or([
                  ...(teamIds.length > 0 ? [t('teams.id', 'in', [...teamIds])] : []),
                  ...(teamHandles.length > 0 ? [t('teams.handle', 'in', [...teamHandles])] : []),
                ]),
              ),
          ),
        );
      }
      return eb.or(any);
    })
    .orderBy('users.handle')
    .execute();
  return rows;
}

/** Who looks after a channel: its team's admins (a team's channel) and the workspace's admins and owners. */
export function channelKeepers(db: Db, workspaceId: string, teamId: string | null): Promise<Recipient[]> {
  return db
    .selectFrom('users')
    .select(['users.id', 'users.email', 'users.name', 'users.handle'])
    .where('users.workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb('users.role', 'in', ['admin', 'owner']),
        ...(teamId
          ? [
              eb(
                'users.id',
                'in',
                eb
                  .selectFrom('team_members')
                  .select('team_members.user_id')
                  .where('team_members.team_id', '=', teamId)
                  .where('team_members.role', '=', 'admin'),
              ),
            ]
          : []),
      ]),
    )
    .orderBy('users.handle')
    .execute();
}
