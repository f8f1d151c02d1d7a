import { useNotificationBell } from './notifications/index.js';
import { Shell } from './shell/shell.js';

/** The shell with the notifications bell filled in: its list, unread count, live stream and mark-read actions. */
export function AppShell({ suspended }: { suspended: boolean }) {
  const bell = useNotificationBell();
  return <Shell suspended={suspended} bell={bell} />;
}
