/**
 * Feeds and notifications (docs/decisions.md#feeds): what the events of a user's watched services and teams say,
 * what a user did, what happened to a team, and each user's notifications. Every read applies the viewer's
 * service visibility; the personal ones are for the user themself only.
 */
import type { FeedEvent, Notification } from '../../../contract/feeds.js';
import { eventTitle, notificationMessage } from '../../../domain/events.js';
import type { ServerContext } from '../../context.js';
import {
  countUnread,
  listNotifications as listNotificationRows,
  listActorEvents,
  listProfileEvents,
  markNotificationsRead,
  teamProfiles,
  announce,
  type EventRow,
  type FeedPage,
  type NotificationRow,
} from '../../db/repositories/events.js';
import type { Caller } from '../accounts/auth.js';
import { findTeamOr404 } from '../catalogue/teams.js';
import { assetUrl, findUserOr404, requireSelf } from '../accounts/users.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';
import { watchedProfilesOf } from './watched-profiles.js';

/** Events written before agents were recorded by name. */
const UNKNOWN_AGENT = 'Beacon';

function titleOf(row: Pick<EventRow, 'type' | 'data'>): string {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    // A broken row still reads as its kind.
  }
  return eventTitle(row.type, data);
}

export function toFeedEvent(row: EventRow): FeedEvent {
  return {
    id: row.id,
    title: titleOf(row),
    created_at: row.created_at,
    agent_name: row.agent_name || UNKNOWN_AGENT,
    profile: {
      id: row.profile_id,
      type: row.profile_type,
      handle: row.profile_handle,
      name: row.profile_name,
      thumbnail_url: assetUrl(row.profile_icon_asset_id),
    },
  };
}

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    message: notificationMessage(row.profile_name, titleOf(row)),
    subject: { type: row.profile_type, handle: row.profile_handle, name: row.profile_name },
    created_at: row.created_at,
    read: row.read === 1,
  };
}

async function scopeOf(ctx: ServerContext, caller: Caller) {
  return serviceScope(caller, await viewerOf(ctx, caller));
}

export async function getUserFeed(ctx: ServerContext, caller: Caller, username: string, page: FeedPage) {
  const user = await requireSelf(ctx, caller, username, 'You can only read your own feed');
  const profiles = await watchedProfilesOf(ctx, caller.workspace.id, user.id, await scopeOf(ctx, caller));
  return (await listProfileEvents(ctx.database.db, caller.workspace.id, profiles, page)).map(toFeedEvent);
}

export async function getUserPublicFeed(ctx: ServerContext, caller: Caller, username: string, page: FeedPage) {
  const user = await findUserOr404(ctx, caller.workspace.id, username);
  const scope = await scopeOf(ctx, caller);
  return (await listActorEvents(ctx.database.db, caller.workspace.id, user.id, scope, page)).map(toFeedEvent);
}

export async function getTeamPublicFeed(ctx: ServerContext, caller: Caller, teamIdOrHandle: string, page: FeedPage) {
  const team = await findTeamOr404(ctx, caller.workspace.id, teamIdOrHandle);
  const scope = await scopeOf(ctx, caller);
  const { db } = ctx.database;
  const profiles = await teamProfiles(db, caller.workspace.id, team, scope);
  return (await listProfileEvents(db, caller.workspace.id, profiles, page)).map(toFeedEvent);
}

const NOT_YOURS = 'You can only read your own notifications';

export async function listNotifications(ctx: ServerContext, caller: Caller, username: string, page: FeedPage) {
  const user = await requireSelf(ctx, caller, username, NOT_YOURS);
  const { db } = ctx.database;
  const [rows, unread] = await Promise.all([
    listNotificationRows(db, caller.workspace.id, user.id, page),
    countUnread(db, caller.workspace.id, user.id),
  ]);
  return { notifications: rows.map(toNotification), unread };
}

/** Marks read, then tells the user's open streams (on every process) the new count. */
export async function markRead(ctx: ServerContext, caller: Caller, username: string, ids: string[] | undefined) {
  const user = await requireSelf(ctx, caller, username, NOT_YOURS);
  const { db } = ctx.database;
  const changed = await markNotificationsRead(db, caller.workspace.id, user.id, ids);
  if (changed > 0) await announce(db, `u ${caller.workspace.id} ${user.id}`);
}
