import dayjs from 'dayjs';

/** List dates (spec 9): 'Mar 5, 2024'. */
export function formatPageDate(time: string): string {
  return dayjs(time).format('MMM D, YYYY');
}

/** The What's New card's date (spec 2.1): 'Mar 5, 09:30 am'. */
export function formatPageTime(time: string): string {
  return dayjs(time).format('MMM D, hh:mm a');
}
