import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';

// Extended once here, for every screen that says how long ago something was.
dayjs.extend(relativeTime);

/** "3 minutes ago", "in 2 days": a time relative to now, as the screens word it. */
export function fromNow(time: string | number | Date): string {
  return dayjs(time).fromNow();
}
