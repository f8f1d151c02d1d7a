import { Dialog } from 'primereact/dialog';
import type { Notice } from '../../contract/notices.js';
import { formatNoticeTime, noticeStatusLabel, noticeTypeLabel } from './notice-format.js';

/** The notice view modal (spec 2.1): title, type, status and the whole history, newest first. */
export function NoticeViewDialog({ notice, onClose }: { notice: Notice; onClose(): void }) {
  const history = [...notice.history].reverse();
  return (
    <Dialog header={notice.title} visible onHide={onClose} style={{ width: '36rem', maxWidth: '95vw' }}>
      <dl className="grid m-0 mb-3">
        <div className="col-6">
          <dt className="text-600 text-sm">Type</dt>
          <dd className="m-0 mt-1">{noticeTypeLabel(notice.type)}</dd>
        </div>
        <div className="col-6">
          <dt className="text-600 text-sm">Status</dt>
          <dd className="m-0 mt-1">{noticeStatusLabel(notice.status)}</dd>
        </div>
      </dl>
      <h3 className="text-base font-semibold m-0 mb-2">History</h3>
      <ol className="list-none p-0 m-0 flex flex-column gap-3" aria-label="History">
        {history.map((entry, index) => (
          <li key={`${entry.time}-${index}`} className="border-left-2 surface-border pl-3">
            <div className="flex flex-wrap align-items-center gap-2 text-sm">
              <span className="font-semibold">{noticeStatusLabel(entry.status)}</span>
              <time className="text-600" dateTime={entry.time}>
                {formatNoticeTime(entry.time)}
              </time>
            </div>
            <p className="m-0 mt-1" style={{ whiteSpace: 'pre-line' }}>
              {entry.message}
            </p>
          </li>
        ))}
      </ol>
    </Dialog>
  );
}
