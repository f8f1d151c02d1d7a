/**
 * The event stream's events (docs/decisions.md#feeds): `notification` carries a Notification, `unread` an UnreadCount
 * (both in feeds.ts). Apart from those schemas, so that the app's bell reads the stream without bundling zod.
 */
export const STREAM_EVENTS = { notification: 'notification', unread: 'unread' } as const;
