import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { notificationOperations } from '../../contract/operations/feeds.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import type { BellProps } from '../shell/header.js';
import { openEventStream } from './event-stream.js';
import { startLiveRelay, type RelayChannel, type RelayLocks } from './live-relay.js';
import {
  applyLiveUpdate,
  getNotificationsQueryOptions,
  liveUpdateOf,
  markNotificationsRead,
  NOTIFICATIONS_POLL_MS,
  withRead,
  type NotificationList,
} from './notifications-api.js';

function browserLocks(): RelayLocks | undefined {
  return typeof navigator !== 'undefined' && navigator.locks ? (navigator.locks as unknown as RelayLocks) : undefined;
}

function browserChannel(): ((name: string) => RelayChannel) | undefined {
  return typeof BroadcastChannel === 'function'
    ? (name) => new BroadcastChannel(name) as unknown as RelayChannel
    : undefined;
}

/** Opens the caller's event stream with the bearer token (refreshed on 401), resuming after `lastEventId`. */
function openStream(api: ApiClient, lastEventId: string, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {};
  return api.stream(notificationOperations.streamEvents, {}, { signal, headers });
}

/**
 * Live notifications while signed in (docs/decisions.md#feeds): one tab holds the event stream and relays it to the
 * others; each tab lays what arrives over its cached list. Returns whether the stream is up (when it is not, the list
 * is polled). The stream is closed when the user signs out (`enabled` turns false) or the shell goes.
 */
export function useLiveNotifications(username: string, enabled: boolean): boolean {
  const { api, domain } = useAuth();
  const queryClient = useQueryClient();
  const [up, setUp] = useState(false);

  useEffect(() => {
    if (!enabled || !username) return;
    const relay = startLiveRelay({
      name: `beacon-events:${domain}:${username}`,
      locks: browserLocks(),
      channel: browserChannel(),
      connect: (handlers, lastEventId) =>
        openEventStream({
          open: (resumeAfter, signal) => openStream(api, resumeAfter, signal),
          lastEventId,
          ...handlers,
        }),
      onEvent: (event) => {
        const update = liveUpdateOf(event);
        if (!update) return;
        const queryKey = keys.notifications(username);
        // A read under way began before this event and would land over it: read again (it is cancelled).
        const reading = queryClient.isFetching({ queryKey }) > 0;
        if (applyLiveUpdate(queryClient, username, update) || reading) void queryClient.invalidateQueries({ queryKey });
        // The event behind a notification is news for the home Activity feed too (read again if it is open).
        if (update.type === 'notification') void queryClient.invalidateQueries({ queryKey: keys.userFeed(username) });
      },
      onStatus: setUp,
    });
    // Back online: reconnect now rather than at the end of the backoff.
    const wake = () => relay.wake();
    window.addEventListener('online', wake);
    return () => {
      window.removeEventListener('online', wake);
      relay.stop();
      setUp(false);
    };
  }, [api, domain, username, enabled, queryClient]);

  return up;
}

type BadgeNavigator = { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/** The installed app's badge follows the unread count, where the browser has the Badging API. */
export function useAppBadge(count: number, enabled: boolean): void {
  useEffect(() => {
    const badge = navigator as unknown as BadgeNavigator;
    if (!badge.setAppBadge || !badge.clearAppBadge) return;
    const done = enabled && count > 0 ? badge.setAppBadge(count) : badge.clearAppBadge();
    void done?.catch(() => undefined);
  }, [count, enabled]);
}

/**
 * The header's bell: the newest notifications and the unread count (kept live by the stream, polled every 5
 * minutes while it is down, shown from the local database offline), and marking them read.
 */
export function useNotificationBell(): BellProps {
  const { api, state } = useAuth();
  const username = state.user?.handle ?? state.username ?? '';
  const signedIn = Boolean(state.token);
  const queryClient = useQueryClient();
  const live = useLiveNotifications(username, signedIn);
  const query = useQuery({
    ...getNotificationsQueryOptions(api, username),
    enabled: Boolean(username),
    refetchInterval: live ? false : NOTIFICATIONS_POLL_MS,
  });
  const unread = query.data?.unread ?? 0;
  useAppBadge(unread, signedIn);

  const markRead = useCallback(
    async (ids?: string[]) => {
      const queryKey = keys.notifications(username);
      // An answer read before this must not land over it.
      await queryClient.cancelQueries({ queryKey });
      const list = queryClient.getQueryData<NotificationList>(queryKey);
      if (list) queryClient.setQueryData<NotificationList>(queryKey, withRead(list, ids));
      try {
        await markNotificationsRead(api, username, ids);
      } catch {
        // Not marked after all: show what the server has.
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    [api, queryClient, username],
  );

  return {
    notifications: query.data?.items ?? [],
    unread,
    onRead: (id) => void markRead([id]),
    onReadAll: () => void markRead(),
    synced: query,
  };
}
