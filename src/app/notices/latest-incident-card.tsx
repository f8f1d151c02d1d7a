import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import type { Service } from '../../contract/catalogue.js';
import { useAuth } from '../session/auth-context.js';
import { formatNoticeTime } from './notice-format.js';
import { getNoticesQueryOptions, OPEN_INCIDENTS } from './notices-api.js';

/**
 * The overview's latest open incident (spec/catalogue.md 2.1): the newest one's title, its first history message
 * and that entry's time. Nothing renders while pending, on a failure, or with no open incident.
 */
export function LatestIncidentCard({ service }: { service: Service }) {
  const { api } = useAuth();
  const { data } = useQuery(getNoticesQueryOptions(api, service.handle, OPEN_INCIDENTS));
  // The list is newest first.
  const incident = data?.[0];
  if (!incident) return null;
  const first = incident.history[0];
  return (
    <Card className="border-left-3 border-red-600">
      <article className="flex align-items-start gap-3" aria-label="Latest incident">
        <i className="pi pi-exclamation-triangle text-2xl text-red-600" aria-hidden="true" />
        <div className="flex flex-column gap-1" style={{ minWidth: 0 }}>
          <h2 className="text-lg font-semibold m-0">{incident.title}</h2>
          {first && (
            <>
              <p className="m-0 text-800" style={{ whiteSpace: 'pre-line' }}>
                {first.message}
              </p>
              <time className="text-600 text-sm" dateTime={first.time}>
                {formatNoticeTime(first.time)}
              </time>
            </>
          )}
        </div>
      </article>
    </Card>
  );
}
