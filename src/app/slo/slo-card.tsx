import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { ProgressBar } from 'primereact/progressbar';
import { Tag } from 'primereact/tag';
import { Link } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { formatDuration } from '../../domain/health.js';
import { budgetLeftText, formatBurnRate, REPORTED_BURN_WINDOWS, sloSummary } from '../../domain/slo.js';
import { useApi } from '../session/use-api.js';
import { formatNoticeTime } from '../notices/index.js';
import { servicePath } from '../routing/paths.js';
import { getSloStatusQueryOptions } from './slo-api.js';

const BURN_LABELS = { '1h': '1 hour', '6h': '6 hours', '3d': '3 days' } as const;

/**
 * The overview's SLO (issue 28): the target, the availability over its window, the error budget left, how fast it
 * burns and when it runs out, and the burn-rate alerts firing. Editors are pointed to the settings to set one.
 */
export function SloCard({ service }: { service: Service }) {
  const api = useApi();
  const { data: status, isPending } = useQuery(getSloStatusQueryOptions(api, service.handle));
  const title = <h2 className="text-xl font-semibold m-0">SLO</h2>;
  if (isPending) return null;
  if (!status) {
    if (!service.permissions.edit) return null;
    return (
      <Card title={title}>
        <p className="m-0 text-700">
          No SLO yet. <Link to={`${servicePath(service.handle)}/settings`}>Set an SLO</Link> to follow its error budget.
        </p>
      </Card>
    );
  }
  const left = Math.max(0, Math.min(1, status.budget.left_ratio));
  return (
    <Card title={title}>
      <div className="flex flex-column gap-3">
        <div className="flex flex-wrap align-items-center gap-2">
          <span className="font-semibold">{sloSummary(status)}</span>
          {status.alerts.fast && <Tag severity="danger" value="Fast burn" />}
          {status.alerts.slow && <Tag severity="warning" value="Slow burn" />}
        </div>
        <dl className="grid m-0">
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Availability</dt>
            <dd className="m-0 mt-1">{status.availability === null ? 'No data yet' : `${status.availability}%`}</dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Error budget</dt>
            <dd className="m-0 mt-1">{budgetLeftText(status.budget)}</dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Budget runs out</dt>
            <dd className="m-0 mt-1">
              {status.exhausted_at === null ? 'Not burning' : formatNoticeTime(status.exhausted_at)}
            </dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Burn rate</dt>
            <dd className="m-0 mt-1">
              {REPORTED_BURN_WINDOWS.map((window) => (
                <div key={window}>
                  {BURN_LABELS[window]}: {formatBurnRate(status.burn_rates[window])}
                </div>
              ))}
            </dd>
          </div>
        </dl>
        <ProgressBar
          value={Math.round(left * 100)}
          showValue={false}
          style={{ height: '0.5rem' }}
          aria-label="Error budget left"
          color={left < 0.25 ? 'var(--red-500)' : undefined}
        />
        {status.maintenance_seconds_excluded > 0 && (
          <small className="text-600">
            {formatDuration(status.maintenance_seconds_excluded)} of declared maintenance left out.
          </small>
        )}
      </div>
    </Card>
  );
}

/**
 * One line for a list of services (the team's Health tab): the SLO, its budget left and the alerts firing; nothing
 * for a service without one.
 */
export function SloSummary({ service }: { service: Pick<Service, 'handle'> }) {
  const api = useApi();
  const { data: status } = useQuery(getSloStatusQueryOptions(api, service.handle));
  if (!status) return null;
  return (
    <div className="flex flex-wrap align-items-center gap-2 text-700">
      <span>
        SLO {sloSummary(status)} · {budgetLeftText(status.budget)}
      </span>
      {status.alerts.fast && <Tag severity="danger" value="Fast burn" />}
      {status.alerts.slow && <Tag severity="warning" value="Slow burn" />}
    </div>
  );
}
