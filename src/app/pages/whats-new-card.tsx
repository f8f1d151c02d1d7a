import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useNavigate } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { useApi } from '../session/use-api.js';
import { servicePath } from '../routing/paths.js';
import { Markdown } from './markdown.js';
import { formatPageTime } from './page-format.js';
import { getLatestAnnouncementQueryOptions } from './pages-api.js';

/**
 * The overview's What's New (spec 2.1): the latest announcement's title, rendered content and published date,
 * and View All Announcements. Nothing while pending or without an announcement.
 */
export function WhatsNewCard({ service }: { service: Service }) {
  const api = useApi();
  const navigate = useNavigate();
  const { data: latest } = useQuery(getLatestAnnouncementQueryOptions(api, service.handle));
  if (!latest) return null;
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">What&apos;s New</h2>}>
      <article className="flex flex-column gap-2" aria-label="What's New">
        <div className="flex align-items-baseline justify-content-between gap-2 flex-wrap">
          <h3 className="text-lg font-semibold m-0" style={{ overflowWrap: 'anywhere' }}>
            {latest.title}
          </h3>
          <time className="text-600 text-sm" dateTime={latest.published_at}>
            {formatPageTime(latest.published_at)}
          </time>
        </div>
        <Markdown text={latest.content} />
        <div>
          <Button
            type="button"
            label="View All Announcements"
            outlined
            onClick={() => navigate(`${servicePath(service.handle)}/announcements`)}
          />
        </div>
      </article>
    </Card>
  );
}
