import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STREAM_EVENTS } from '../../contract/stream-events.js';
import { feedOperations, notificationOperations } from '../../contract/operations/feeds.js';
import type { ServerContext } from '../context.js';
import { countUnread, listNotificationsSince } from '../db/repositories/events.js';
import { bearerOrCookie } from '../http.js';
import { routes } from '../operations.js';
import type { Caller } from '../services/accounts/auth.js';
import {
  getTeamPublicFeed,
  getUserFeed,
  getUserPublicFeed,
  listNotifications,
  markRead,
  toNotification,
} from '../services/feeds/feeds.js';

/** A comment line every 25 s keeps proxies from closing an idle stream (docs/decisions.md#feeds). */
const HEARTBEAT_MS = 25_000;
/** A resumed stream replays at most this many missed notifications; the list has the rest. */
const REPLAY_LIMIT = 100;

export function feedRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, feedOperations, {
      getUserFeed: ({ caller, params, query }) => getUserFeed(ctx, caller, params.username, query),
      getUserPublicFeed: ({ caller, params, query }) => getUserPublicFeed(ctx, caller, params.username, query),
      getTeamPublicFeed: ({ caller, params, query }) => getTeamPublicFeed(ctx, caller, params.team, query),
    });
    routes(
      ctx,
      app,
      notificationOperations,
      {
        listNotifications: async ({ caller, params, query, reply }) => {
          const { notifications, unread } = await listNotifications(ctx, caller, params.username, query);
          void reply.header('unread', String(unread));
          return notifications;
        },
        markNotificationsRead: async ({ caller, params, body }) => {
          await markRead(ctx, caller, params.username, body.ids);
          return null;
        },
        streamEvents: ({ caller, request, reply }) => openStream(ctx, caller, request, reply),
      },
      { streamEvents: { authenticate: bearerOrCookie(ctx) } },
    );
  };
}

/** Holds the response open and writes the caller's notifications and unread count as they come. */
async function openStream(
  ctx: ServerContext,
  caller: Caller,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const workspaceId = caller.workspace.id;
  const userId = caller.user.id;
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store, no-transform',
    // The connection ends with the stream (a client reconnects anyway): shutdown need not wait for it to idle out.
    connection: 'close',
    // Proxies such as nginx would otherwise hold the events back in a buffer.
    'x-accel-buffering': 'no',
  });
  const write = (text: string) => {
    if (!response.writableEnded && !response.destroyed) response.write(text);
  };
  const listener = {
    notification: (notification: ReturnType<typeof toNotification>) =>
      write(`id: ${notification.id}\nevent: ${STREAM_EVENTS.notification}\ndata: ${JSON.stringify(notification)}\n\n`),
    unread: (unread: number) => write(`event: ${STREAM_EVENTS.unread}\ndata: ${JSON.stringify({ unread })}\n\n`),
    close: () => response.end(),
  };
  // Subscribed before the replay and the count are read: nothing committed meanwhile falls between them.
  const unsubscribe = ctx.live.subscribe(workspaceId, userId, listener);
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  response.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
  write('retry: 5000\n\n');
  try {
    const { db } = ctx.database;
    const lastEventId = request.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId.length > 0 && lastEventId.length <= 64) {
      const missed = await listNotificationsSince(db, workspaceId, userId, lastEventId, REPLAY_LIMIT);
      for (const row of missed) listener.notification(toNotification(row));
    }
    listener.unread(await countUnread(db, workspaceId, userId));
  } catch (error) {
    ctx.logger.error({ err: error }, 'could not start an event stream');
    response.end();
  }
  return reply;
}
