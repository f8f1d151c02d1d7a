/** What the notifications feature offers the app: the header bell's data and actions, kept live. */
export { useNotificationBell, useLiveNotifications, useAppBadge } from './use-notifications.js';
export { getNotificationsQueryOptions, NOTIFICATIONS_POLL_MS, type NotificationList } from './notifications-api.js';
