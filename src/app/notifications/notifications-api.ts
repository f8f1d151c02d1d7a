import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Notification } from '../../contract/feeds.js';
import { STREAM_EVENTS } from '../../contract/stream-events.js';
import { notificationOperations } from '../../contract/operations/feeds.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

/**
 * Spec section 9: events are polled every 5 minutes; here only while the live stream is down (docs/decisions.md#feeds).
 */
export const NOTIFICATIONS_POLL_MS = 300_000;

/** The bell's data: the newest notifications and how many of all are unread (the `unread` header). */
export interface NotificationList {
  items: Notification[];
  unread: number;
}

export function getNotificationsQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.notifications(username),
    queryFn: async ({ signal }): Promise<NotificationList> => {
      const response = await api.exchange(
        notificationOperations.listNotifications,
        { params: { username } },
        { signal },
      );
      const items = Array.isArray(response.data) ? response.data : [];
      const header = Number(response.headers.get('unread'));
      return { items, unread: Number.isInteger(header) && header >= 0 ? header : items.filter((n) => !n.read).length };
    },
  });
}

/** Marks some notifications read (all when `ids` is left out). */
export function markNotificationsRead(api: ApiClient, username: string, ids?: string[]): Promise<null> {
  return api.call(notificationOperations.markNotificationsRead, { params: { username }, body: ids ? { ids } : {} });
}

/** A new notification at the top of the list (once), counted when it is unread and was not there. */
export function withNotification(list: NotificationList, notification: Notification): NotificationList {
  const known = list.items.find((item) => item.id === notification.id);
  const others = list.items.filter((item) => item.id !== notification.id);
  const counted = !known && !notification.read ? 1 : 0;
  return { items: [notification, ...others], unread: list.unread + counted };
}

/** The list with these notifications (or all) read, and the count lowered by those that were unread. */
export function withRead(list: NotificationList, ids?: readonly string[]): NotificationList {
  if (!ids) return { items: list.items.map((item) => (item.read ? item : { ...item, read: true })), unread: 0 };
  const chosen = new Set(ids);
  const newlyRead = list.items.filter((item) => chosen.has(item.id) && !item.read).length;
  return {
    items: list.items.map((item) => (chosen.has(item.id) && !item.read ? { ...item, read: true } : item)),
    unread: Math.max(0, list.unread - newlyRead),
  };
}

/** What a stream event does to the cached list: `notification` adds the item, `unread` sets the count. */
export type LiveUpdate = { type: 'notification'; notification: Notification } | { type: 'unread'; unread: number };

/**
 * Applies a live update to the cached list of `username`. Returns whether the list must be read again: the count
 * moved in a way the list does not explain (read in another tab or device, or notifications that came while no
 * stream was open).
 */
export function applyLiveUpdate(queryClient: QueryClient, username: string, update: LiveUpdate): boolean {
  const key = keys.notifications(username);
  const list = queryClient.getQueryData<NotificationList>(key);
  if (update.type === 'notification') {
    if (list) queryClient.setQueryData<NotificationList>(key, withNotification(list, update.notification));
    return !list;
  }
  if (!list) return true;
  if (list.unread === update.unread) return false;
  queryClient.setQueryData<NotificationList>(key, { ...list, unread: update.unread });
  return true;
}

/** Parses a stream event's data; null when it is not what the contract says. */
export function liveUpdateOf(event: { event: string; data: string }): LiveUpdate | null {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  if (event.event === STREAM_EVENTS.unread) {
    const unread = (data as { unread?: unknown }).unread;
    return typeof unread === 'number' && Number.isInteger(unread) && unread >= 0 ? { type: 'unread', unread } : null;
  }
  if (event.event === STREAM_EVENTS.notification) {
    const item = data as Partial<Notification>;
    if (typeof item.id !== 'string' || typeof item.message !== 'string' || !item.subject) return null;
    return { type: 'notification', notification: { ...(item as Notification), read: Boolean(item.read) } };
  }
  return null;
}
