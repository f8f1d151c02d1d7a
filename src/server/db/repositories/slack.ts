import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ChatOutboxRow, ServiceChannelsTable, SlackWorkspacesTable } from '../schema.js';
import { claimDue, markFailed, markSent, nextDue, pendingOutboxColumns } from './outbox.js';
import type { Db } from './workspaces.js';

// ---- linked Slack workspaces and people ----

export function listSlackWorkspaces(db: Db, workspaceId: string) {
  return db
    .selectFrom('slack_workspaces')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('slack_team_name')
    .execute();
}

export function findSlackWorkspace(db: Db, workspaceId: string, id: string) {
  return db
    .selectFrom('slack_workspaces')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The link to the Slack workspace `slackTeamId` of this workspace, if it has one. */
export function findSlackLink(db: Db, workspaceId: string, slackTeamId: string) {
  return db
    .selectFrom('slack_workspaces')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('slack_team_id', '=', slackTeamId)
    .executeTakeFirst();
}

/** The Beacon user who connected this Slack identity, if one did. */
export function slackUserOf(db: Db, workspaceId: string, slackTeamId: string, slackUserId: string) {
  return db
    .selectFrom('slack_users')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('slack_team_id', '=', slackTeamId)
    .where('slack_user_id', '=', slackUserId)
    .executeTakeFirst();
}

/** Links a Slack workspace, or renews the token of one linked before (re-authorised). */
export async function upsertSlackWorkspace(
  db: Db,
  row: Omit<SlackWorkspacesTable, 'id' | 'created_at'> & { created_at: string },
): Promise<void> {
  await db
    .insertInto('slack_workspaces')
    .values({ ...row, id: randomUUID() })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'slack_team_id']).doUpdateSet({
        slack_team_name: row.slack_team_name,
        bot_user_id: row.bot_user_id,
        installed_by: row.installed_by,
        token: row.token,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function updateSlackWorkspace(
  db: Db,
  workspaceId: string,
  id: string,
  change: Pick<SlackWorkspacesTable, 'slack_team_name' | 'bot_user_id' | 'installed_by' | 'token' | 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('slack_workspaces')
    .set(change)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function upsertSlackUser(
  db: Db,
  row: { user_id: string; workspace_id: string; slack_team_id: string; slack_user_id: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('slack_users')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ slack_team_id: row.slack_team_id, slack_user_id: row.slack_user_id }),
    )
    .execute();
}

// ---- channels ----

export function listServiceChannels(db: Db, workspaceId: string, serviceId: string) {
  return db
    .selectFrom('service_channels')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .orderBy('provider')
    .execute();
}

export async function insertServiceChannel(db: Db, row: ServiceChannelsTable): Promise<void> {
  await db.insertInto('service_channels').values(row).execute();
}

export async function updateServiceChannel(
  db: Db,
  workspaceId: string,
  serviceId: string,
  provider: string,
  change: { channel_id: string; updated_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('service_channels')
    .set(change)
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('provider', '=', provider as 'slack')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteServiceChannel(
  db: Db,
  workspaceId: string,
  serviceId: string,
  provider: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('service_channels')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId)
    .where('provider', '=', provider as 'slack')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// ---- the chat outbox ----

/**
 * Queues the event for every channel of its service, in the event's transaction; true when any was queued.
 * A notice's event (`notice_id`) takes its place in the notice's history, written just before in the same
 * transaction: the notice's messages are sent in that order (its thread). Times are real time: the job's clock.
 */
export async function enqueueChatMessages(
  db: Db,
  event: { id: string; workspace_id: string; service_id: string; notice_id: string | null },
): Promise<boolean> {
  const now = new Date().toISOString();
  const channels = await db
    .selectFrom('service_channels')
    .select(['provider', 'channel_id'])
    .where('workspace_id', '=', event.workspace_id)
    .where('service_id', '=', event.service_id)
    .execute();
  if (channels.length === 0) return false;
  let noticeSeq: number | null = null;
  if (event.notice_id) {
    const last = await db
      .selectFrom('notice_history')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('notice_id', '=', event.notice_id)
      .executeTakeFirst();
    noticeSeq = last?.seq === null || last?.seq === undefined ? 0 : Number(last.seq);
  }
  await db
    .insertInto('chat_outbox')
    .values(
      channels.map((channel) => ({
        id: randomUUID(),
        workspace_id: event.workspace_id,
        event_id: event.id,
        service_id: event.service_id,
        provider: channel.provider,
        channel_id: channel.channel_id,
        ...pendingOutboxColumns(now),
        notice_id: event.notice_id,
        notice_seq: noticeSeq,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'provider', 'channel_id']).doNothing())
    .execute();
  return true;
}

/** Leases due messages to `owner` (outbox.ts claimDue). */
export function claimChatMessages(db: Db, options: { owner: string; now: string; until: string; limit: number }) {
  return claimDue(db, 'chat_outbox', options);
}

export function nextChatMessageDue(db: Db): Promise<number | undefined> {
  return nextDue(db, 'chat_outbox');
}

export function markChatMessageSent(db: Db, id: string, owner: string, now: string): Promise<boolean> {
  return markSent(db, 'chat_outbox', id, owner, now);
}

export function markChatMessageFailed(
  db: Db,
  id: string,
  owner: string,
  failure: { error: string; retryAt: string | null },
): Promise<void> {
  return markFailed(db, 'chat_outbox', id, owner, failure);
}

/** Gives a leased row back untried, due at `retryAt` (it waits for an earlier message of its notice). */
export async function deferChatMessage(db: Db, id: string, owner: string, retryAt: string): Promise<void> {
  await db
    .updateTable('chat_outbox')
    .set((eb) => ({
      next_attempt_at: retryAt,
      attempts: eb('attempts', '-', 1),
      lease_owner: null,
      lease_until: null,
    }))
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * The earliest message of the same notice and channel still to be sent before `row` (a lower place in the
 * notice's history), if any: `row` waits for it.
 */
export function earlierNoticeMessage(db: Db, row: ChatOutboxRow) {
  return db
    .selectFrom('chat_outbox')
    .select(['id', 'next_attempt_at', 'lease_until'])
    .where('notice_id', '=', row.notice_id)
    .where('provider', '=', row.provider)
    .where('channel_id', '=', row.channel_id)
    .where('status', '=', 'pending')
    .where('notice_seq', '<', row.notice_seq)
    .orderBy('notice_seq')
    .limit(1)
    .executeTakeFirst();
}

/** The root message of a notice in a channel, if posted. */
export function findChatThread(db: Db, row: Pick<ChatOutboxRow, 'notice_id' | 'provider' | 'channel_id'>) {
  return db
    .selectFrom('chat_threads')
    .select(['ts'])
    .where('notice_id', '=', row.notice_id!)
    .where('provider', '=', row.provider)
    .where('channel_id', '=', row.channel_id)
    .executeTakeFirst();
}

/** Keeps the root message of a notice in a channel (a new root, after the old was deleted, replaces it). */
export async function saveChatThread(
  db: Db,
  row: Pick<ChatOutboxRow, 'workspace_id' | 'notice_id' | 'provider' | 'channel_id'>,
  ts: string,
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('chat_threads')
    .values({
      workspace_id: row.workspace_id,
      notice_id: row.notice_id!,
      provider: row.provider,
      channel_id: row.channel_id,
      ts,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['notice_id', 'provider', 'channel_id']).doUpdateSet({ ts, updated_at: now }))
    .execute();
}

/** The history entry of a notice's event: the message its editor wrote with the status. */
export function noticeHistoryEntry(db: Db, noticeId: string, seq: number) {
  return db
    .selectFrom('notice_history')
    .select(['status', 'message'])
    .where('notice_id', '=', noticeId)
    .where('seq', '=', seq)
    .executeTakeFirst();
}

/** What a message says: its event, its service and the workspace's domain (null when the event is gone). */
export function chatMessageContext(db: Db, row: ChatOutboxRow) {
  return db
    .selectFrom('events')
    .innerJoin('services', 'services.workspace_id', 'events.workspace_id')
    .innerJoin('workspaces', 'workspaces.id', 'events.workspace_id')
    .select([
      'events.type',
      'events.data',
      'events.agent_name',
      'events.created_at',
      'services.handle as service_handle',
      'services.name as service_name',
      'services.health as service_health',
      'workspaces.domain as workspace_domain',
    ])
    .where('events.id', '=', row.event_id)
    .where('services.id', '=', row.service_id)
    .executeTakeFirst();
}

/** The bot token of the workspace's Slack link (the first linked, when several). */
export function slackTokenOf(db: Db, workspaceId: string) {
  return db
    .selectFrom('slack_workspaces')
    .select('token')
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** Messages sent, pending and given up (tests and `beacon` status). */
export async function chatOutboxCounts(db: Db, workspaceId: string) {
  const rows = await db
    .selectFrom('chat_outbox')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('workspace_id', '=', workspaceId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
