import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import { Link } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { ApiDrift } from '../../contract/spec-checks.js';
import { plural } from '../../domain/words.js';
import { useApi } from '../session/use-api.js';
import { formatNoticeTime } from '../notices/index.js';
import { servicePath } from '../routing/paths.js';
import { getDriftQueryOptions } from './spec-checks-api.js';

/** What the example answer did: its status, where in the body, the rule it broke and the value it had. */
function exampleText(drift: ApiDrift): string {
  const { status, pointer, message, value } = drift.example;
  const parts = [status === null ? null : `Status ${status}`, pointer ? `at ${pointer}` : null, message];
  return `${parts.filter(Boolean).join(' · ')}${value ? `: got ${value}` : ''}`;
}

/**
 * "API drift" (issue 30): the operations whose answers break the published spec now, each with since when, the
 * spec version and one example answer. Shown on the overview and the Open API Specs tab; nothing when none drifts.
 */
export function ApiDriftCard({ service }: { service: Service }) {
  const api = useApi();
  const { data: drift } = useQuery(getDriftQueryOptions(api, service.handle));
  if (!drift || drift.length === 0) return null;
  const specs = `${servicePath(service.handle)}/open-api-specs`;
  return (
    <Card
      title={
        <div className="flex align-items-center gap-2">
          <h2 className="text-xl font-semibold m-0">API drift</h2>
          <Tag severity="warning" value={plural(drift.length, 'operation')} />
        </div>
      }
    >
      <section aria-label="API drift" className="flex flex-column gap-3">
        <p className="m-0 text-700">
          Answers of the service break its <Link to={specs}>published API spec</Link>.
        </p>
        <ul className="list-none m-0 p-0 flex flex-column gap-3">
          {drift.map((item) => (
            <li key={`${item.page}/${item.operation_id}`} className="flex flex-column gap-1">
              <div className="flex flex-wrap align-items-baseline gap-2">
                <code className="font-semibold" style={{ overflowWrap: 'anywhere' }}>
                  {item.method} {item.path}
                </code>
                {item.operation_id !== `${item.method} ${item.path}` && (
                  <span className="text-600 text-sm">{item.operation_id}</span>
                )}
              </div>
              <small className="text-600">
                Since <time dateTime={item.since}>{formatNoticeTime(item.since)}</time> · last seen{' '}
                <time dateTime={item.last_seen}>{formatNoticeTime(item.last_seen)}</time>
                {item.spec_version ? ` · spec ${item.spec_version}` : ''}
                {item.check ? ` · check ${item.check.name}` : ''}
              </small>
              <div
                className="p-2 border-round surface-100 text-sm"
                style={{ overflowWrap: 'anywhere', fontFamily: 'var(--font-family-monospace, monospace)' }}
              >
                {exampleText(item)}
              </div>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
