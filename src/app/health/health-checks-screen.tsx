import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { HealthCheck } from '../../contract/health.js';
import { healthLabel } from '../../domain/catalogue.js';
import { CHECK_KIND_LABELS, heartbeatText, specLinkText } from '../../domain/check-card.js';
import { useAuth } from '../session/auth-context.js';
import { Spinner } from '../components/status-screens.js';
import { getHealthChecksQueryOptions } from './health-api.js';
import { HealthCheckDialog } from './health-check-dialog.js';
import { PingUrl } from './ping-url.js';
import { HealthCheckResultsChart } from './results-chart.js';

export const NO_HEALTH_CHECKS = 'No HealthChecks';

/** Which modal is open: adding (no check) or editing one. */
type Editing = { check?: HealthCheck } | null;

/** What a check watches: its target, or a heartbeat's rhythm. */
function targetText(check: HealthCheck): string {
  if (check.kind === 'heartbeat') return heartbeatText(check);
  if (check.kind === 'dns') return `${check.record ?? 'A'} ${check.endpoint}`;
  if (check.kind === 'tls' && check.starttls) return `${check.endpoint} (STARTTLS ${check.starttls.toUpperCase()})`;
  if (check.kind === 'http' && check.request && check.request.method !== 'GET')
    return `${check.request.method} ${check.endpoint}`;
  return check.endpoint;
}

function HealthCheckCard({ check, onEdit }: { check: HealthCheck; onEdit?: () => void }) {
  const titleId = `health-check-${check.id}`;
  // A check cached before kinds existed is an http check.
  const kind = check.kind ?? 'http';
  const spec = check.spec && specLinkText(check.spec);
  return (
    <Card>
      <article className="flex flex-column gap-3" aria-labelledby={titleId}>
        <header className="flex align-items-start justify-content-between gap-3">
          <div className="flex flex-column gap-1" style={{ minWidth: 0 }}>
            <h2 id={titleId} className="text-xl font-semibold m-0">
              {check.name}
            </h2>
            <span className="text-600 text-sm white-space-nowrap overflow-hidden text-overflow-ellipsis">
              {targetText({ ...check, kind })}
            </span>
            <div className="flex gap-2 flex-wrap">
              <Tag value={CHECK_KIND_LABELS[kind]} severity="info" />
              <Tag value={`Importance: ${healthLabel(check.importance)}`} severity="secondary" />
              {check.spec && spec && (
                <Tag
                  value={spec.label}
                  severity={spec.why ? 'warning' : 'secondary'}
                  title={`Made from ${check.spec.operation_id}${check.spec.page ? ` of the spec ${check.spec.page}` : ''}`}
                />
              )}
            </div>
            {spec?.why && <p className="m-0 text-700 text-sm">{spec.why}</p>}
          </div>
          {onEdit && (
            <Button
              type="button"
              label="Edit"
              icon="pi pi-pencil"
              outlined
              aria-label={`Edit ${check.name}`}
              onClick={onEdit}
            />
          )}
        </header>
        {kind === 'heartbeat' && onEdit && <PingUrl check={check} idPrefix={titleId} />}
        <HealthCheckResultsChart check={check} />
      </article>
    </Card>
  );
}

/**
 * /services/:id/health-checks (spec/catalogue.md 2.1): a card per health check with its kind and target (a
 * heartbeat's rhythm, and its ping URL for editors), its state, the newest result and why it failed,
 * its uptime over 24 h, 7 d and 30 d, and its results chart over a chosen range (or 'No Data Available'; issue 11
 * item 5); editors add and edit checks in a modal. Empty (or failed to load): 'No HealthChecks'.
 */
export function HealthChecksScreen({ service }: { service: Service }) {
  const { api } = useAuth();
  const { data, isPending } = useQuery(getHealthChecksQueryOptions(api, service.handle));
  const [editing, setEditing] = useState<Editing>(null);
  const editor = service.permissions.edit;
  // Spec section 4: a failed load sets an error flag and empties the list.
  const checks = data ?? [];

  return (
    <section className="flex flex-column gap-3" aria-labelledby="health-checks-title">
      <div className="flex align-items-center justify-content-between gap-2">
        <h1 id="health-checks-title" className="text-2xl font-semibold m-0">
          Health Checks
        </h1>
        {editor && <Button type="button" label="Add Healthcheck" icon="pi pi-plus" onClick={() => setEditing({})} />}
      </div>
      {isPending ? (
        <Spinner label="Loading health checks" />
      ) : checks.length === 0 ? (
        <Card>
          <p className="m-0 text-600">{NO_HEALTH_CHECKS}</p>
        </Card>
      ) : (
        checks.map((check) => (
          <HealthCheckCard key={check.id} check={check} onEdit={editor ? () => setEditing({ check }) : undefined} />
        ))
      )}
      {editing && <HealthCheckDialog service={service} check={editing.check} onClose={() => setEditing(null)} />}
    </section>
  );
}
