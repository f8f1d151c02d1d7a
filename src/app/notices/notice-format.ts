import dayjs from 'dayjs';
import type { NoticeHistoryEntry } from '../../contract/notices.js';
import type { NoticeType } from '../../domain/notices.js';

/** Spec section 9: 'MMM D, YYYY', e.g. 'Mar 5, 2024'. */
export function formatNoticeDate(time: string): string {
  return dayjs(time).format('MMM D, YYYY');
}

/** Spec section 9: 'MMM D, hh:mm a', e.g. 'Mar 5, 09:30 am'. */
export function formatNoticeTime(time: string): string {
  return dayjs(time).format('MMM D, hh:mm a');
}

/** A status capitalised for display: 'in_progress' reads 'In progress'. */
export function noticeStatusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPE_LABELS: Record<NoticeType, string> = { incident: 'Incident', maintenance: 'Maintenance' };

export const noticeTypeLabel = (type: NoticeType): string => TYPE_LABELS[type];

/** Spec 2.1: the card's 'And more N updates' line, shown when the history has more than one entry. */
export function moreUpdatesText(history: readonly NoticeHistoryEntry[]): string | null {
  return history.length > 1 ? `And more ${history.length - 1} updates` : null;
}
