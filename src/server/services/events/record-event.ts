import type { EventType } from '../../../domain/events.js';
import {
  announce,
  eventAudience,
  insertEvents,
  insertNotifications,
  type NewEvent,
} from '../../db/repositories/events.js';
import { enqueueChatMessages } from '../../db/repositories/slack.js';
import type { Db } from '../../db/repositories/workspaces.js';

export type { NewEvent } from '../../db/repositories/events.js';

/**
 * Records an event in the caller's transaction and tells who should hear of it: a notification for each user of
 * its audience (eventAudience), a chat message for each channel of its service, and an announcement of each
 * (sent on commit), for the live streams and the chat outbox.
 */
export async function recordEvent<T extends EventType>(db: Db, event: NewEvent<T>): Promise<string> {
  const [id] = (await insertEvents(db, [event])) as [string];
  const recipients = await eventAudience(db, event);
  await insertNotifications(db, id, event, recipients);
  if (recipients.length > 0) await announce(db, `e ${id}`);
  // docs/decisions.md#integrations: every event of a service with a chat channel is posted there, through the chat
  // outbox.
  if (event.profile_type === 'service') {
    // A notice's events go to its thread (chat-outbox.ts): they carry the notice.
    const notice = (event.data as { notice?: unknown }).notice;
    const queued = await enqueueChatMessages(db, {
      id,
      workspace_id: event.workspace_id,
      service_id: event.profile_id,
      notice_id: event.type.startsWith('notice.') && typeof notice === 'string' ? notice : null,
    });
    if (queued) await announce(db, 'c');
  }
  return id;
}
