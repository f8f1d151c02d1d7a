import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import type { Notice } from '../../contract/notices.js';
import {
  formatNoticeDate,
  formatNoticeTime,
  moreUpdatesText,
  noticeStatusLabel,
  noticeTypeLabel,
} from './notice-format.js';

/** The time of the latest message: the newest history entry's (history is oldest first). */
export function latestUpdateTime(notice: Pick<Notice, 'history' | 'updated_at'>): string {
  return notice.history.at(-1)?.time ?? notice.updated_at;
}

/**
 * One notice in the grid (spec/catalogue.md 2.1): title, type, capitalised status, created date, the latest
 * message with its time, 'And more N updates', 'View Details', and 'Update' for editors.
 */
export function NoticeCard({
  notice,
  canEdit,
  onView,
  onUpdate,
}: {
  notice: Notice;
  canEdit: boolean;
  onView(): void;
  onUpdate(): void;
}) {
  const more = moreUpdatesText(notice.history);
  return (
    <Card className="h-full" pt={{ body: { className: 'h-full flex flex-column' }, content: { className: 'flex-1' } }}>
      <article className="flex flex-column gap-2 h-full" aria-label={notice.title}>
        <h2 className="text-lg font-semibold m-0">{notice.title}</h2>
        <div className="flex flex-wrap align-items-center gap-2">
          <Tag value={noticeTypeLabel(notice.type)} severity={notice.type === 'incident' ? 'danger' : 'info'} />
          <span className="font-semibold">{noticeStatusLabel(notice.status)}</span>
        </div>
        <div className="text-600 text-sm">
          Created <time dateTime={notice.created_at}>{formatNoticeDate(notice.created_at)}</time>
        </div>
        <div className="flex-1">
          <p className="m-0 text-800" style={{ whiteSpace: 'pre-line' }}>
            {notice.message}
          </p>
          <time className="text-600 text-sm" dateTime={latestUpdateTime(notice)}>
            {formatNoticeTime(latestUpdateTime(notice))}
          </time>
          {more && <p className="m-0 mt-1 text-600 text-sm">{more}</p>}
        </div>
        <div className="flex gap-2">
          <Button type="button" label="View Details" outlined size="small" onClick={onView} />
          {canEdit && <Button type="button" label="Update" size="small" onClick={onUpdate} />}
        </div>
      </article>
    </Card>
  );
}
