import { useOpenAlertCount } from './alerts/use-alerts-live.js';
import { useNotificationBell } from './notifications/index.js';
import { Shell } from './shell/shell.js';

/**
 * The shell with the notifications bell filled in (its list, unread count, live stream and mark-read actions) and
 * the open alerts counted beside the Alerts link (kept live by the same stream).
 */
export function AppShell({ suspended }: { suspended: boolean }) {
  const bell = useNotificationBell();
  const openAlerts = useOpenAlertCount();
  return <Shell suspended={suspended} bell={bell} navCounts={{ '/alerts': openAlerts }} />;
}
