import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Link, useNavigate } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { healthLabel, type Health } from '../../domain/catalogue.js';
import { ProfileAvatar } from '../components/avatar.js';
import { HEALTH_COLOURS } from '../components/health-colours.js';
import { useStar, type StarTarget } from './use-star.js';
import { servicePath } from '../routing/paths.js';

/** A health as a coloured dot and its label. */
export function HealthStatus({ health }: { health: Health }) {
  return (
    <span className="inline-flex align-items-center gap-1">
      <i className="pi pi-circle-fill text-xs" style={{ color: HEALTH_COLOURS[health] }} aria-hidden="true" />
      <span>{healthLabel(health)}</span>
    </span>
  );
}

/** The star toggle with the starred count; pressed while the user has starred the service. */
export function StarButton({ service: shown }: { service: StarTarget }) {
  const { toggle } = useStar();
  return (
    <Button
      type="button"
      outlined
      icon={shown.starred ? 'pi pi-star-fill' : 'pi pi-star'}
      label={String(shown.starred_count)}
      aria-label={`Star ${shown.name}`}
      aria-pressed={shown.starred}
      title={shown.starred ? 'Starred' : 'Star'}
      onClick={() => void toggle(shown)}
    />
  );
}

/**
 * The service card (spec/platform.md, shared components): avatar, name, a 'Status: ' health line, the
 * description clamped to 2 lines, 'View Service' and the star toggle; either button can be hidden.
 */
export function ServiceCard({
  service,
  hideView = false,
  hideStar = false,
}: {
  service: Service;
  hideView?: boolean;
  hideStar?: boolean;
}) {
  const navigate = useNavigate();
  const to = servicePath(service.handle);
  return (
    <Card className="h-full" pt={{ body: { className: 'h-full flex flex-column' }, content: { className: 'flex-1' } }}>
      <article className="flex flex-column gap-2 h-full" aria-label={service.name}>
        <header className="flex align-items-center gap-3">
          <ProfileAvatar name={service.name} url={service.thumbnail_url} size="large" />
          <div className="flex flex-column" style={{ minWidth: 0 }}>
            <h2 className="text-lg font-semibold m-0 white-space-nowrap overflow-hidden text-overflow-ellipsis">
              <Link to={to} className="text-900 no-underline">
                {service.name}
              </Link>
            </h2>
            <span className="text-600 text-sm">{service.handle}</span>
          </div>
        </header>
        <div>
          Status: <HealthStatus health={service.health} />
        </div>
        <p className="beacon-clamp-2 m-0 text-700 flex-1" title={service.description ?? undefined}>
          {service.description ?? ''}
        </p>
        {(!hideView || !hideStar) && (
          <div className="flex gap-2 justify-content-end">
            {!hideView && <Button type="button" label="View Service" onClick={() => navigate(to)} />}
            {!hideStar && <StarButton service={service} />}
          </div>
        )}
      </article>
    </Card>
  );
}
