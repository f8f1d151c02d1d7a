import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Notification } from '../../contract/feeds.js';
import { keys } from '../api/query-keys.js';
import { isQueryKey } from '../local/writes.js';
import { useAuth } from '../session/auth-context.js';
import type { NotificationList } from '../notifications/index.js';
import { getOpenAlertCountQueryOptions } from './alerts-api.js';

/** The badge is read again this often besides the live news (people outside a team hear nothing of its alerts). */
export const OPEN_COUNT_POLL_MS = 300_000;

/**
 * Whether a notification may be news of an alert (alert.opened, .acknowledged, .resolved, .escalated). A
 * notification does not carry its event's type, so every one about a service counts: alerts follow services'
 * health, and reading the lists again once too often costs little.
 */
const mayBeAlertNews = (notification: Notification) => notification.subject.type === 'service';

const idsOf = (list: NotificationList | undefined) => (list ? new Set(list.items.map((item) => item.id)) : null);

/**
 * Keeps the alerts live: the bell's list (kept live by the event stream, notifications/) is watched, and a new
 * notification about a service reads the alerts again (lists, count, and any alert on screen). Mounted once, in the
 * shell, so one notification reads each list once.
 */
export function useAlertsLive(username: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!username) return;
    const queryKey = keys.notifications(username);
    let known = idsOf(queryClient.getQueryData<NotificationList>(queryKey));
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || !isQueryKey(event.query.queryKey, queryKey)) return;
      const list = event.query.state.data as NotificationList | undefined;
      const before = known;
      known = idsOf(list) ?? known;
      // The first list read is no news: only what arrives after it is.
      if (!before || !list) return;
      if (list.items.some((item) => !before.has(item.id) && mayBeAlertNews(item)))
        void queryClient.invalidateQueries({ queryKey: keys.alerts() });
    });
  }, [queryClient, username]);
}

/**
 * The main navigation's count of open alerts (a one-row page's `total`), kept live; nothing for guests, who read no
 * alerts.
 */
export function useOpenAlertCount(): number | undefined {
  const { api, state } = useAuth();
  const username = state.user?.handle ?? state.username ?? '';
  const member = Boolean(state.user && state.user.role !== 'guest');
  useAlertsLive(member ? username : '');
  const count = useQuery({
    ...getOpenAlertCountQueryOptions(api),
    enabled: member && Boolean(state.token),
    refetchInterval: OPEN_COUNT_POLL_MS,
  });
  return member ? count.data : undefined;
}
