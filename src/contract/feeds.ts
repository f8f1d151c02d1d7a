import { z } from 'zod';
import { line } from './common.js';
import { profileType } from './catalogue.js';

/** A feed event (spec/platform.md section 3, docs/decisions.md#feeds). */
export const feedEvent = z
  .object({
    id: z.string(),
    title: z.string(),
    created_at: z.string(),
    agent_name: z.string(),
    profile: z.object({
      /** The profile's id: what a mute names (handles are not unique across services, teams and users). */
      id: z.string(),
      type: profileType,
      handle: z.string(),
      name: z.string(),
      thumbnail_url: z.string().nullable(),
    }),
  })
  .meta({ id: 'FeedEvent' });
export type FeedEvent = z.infer<typeof feedEvent>;

/** docs/decisions.md#feeds: newest first, `cursor` is the last event id seen. */
export const feedQuery = z.strictObject({
  cursor: line().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A notification (spec/platform.md section 3, docs/decisions.md#feeds). */
export const notification = z
  .object({
    id: z.string(),
    message: z.string(),
    subject: z.object({ type: profileType, handle: z.string(), name: z.string() }),
    created_at: z.string(),
    read: z.boolean(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notification>;

/** docs/decisions.md#feeds: mark these notifications read, or all of them when `ids` is left out. */
export const markReadBody = z.strictObject({
  ids: z.array(line().max(64)).max(500).optional(),
});
export type MarkReadBody = z.infer<typeof markReadBody>;

/** The unread count, in the `unread` header of the list and as the stream's `unread` event. */
export const unreadCount = z.object({ unread: z.number().int().min(0) }).meta({ id: 'UnreadCount' });
export type UnreadCount = z.infer<typeof unreadCount>;
