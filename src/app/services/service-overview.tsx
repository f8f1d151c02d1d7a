import { Card } from 'primereact/card';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { stageLabel, visibilityLabel } from '../../domain/catalogue.js';
import { ProfileAvatar } from '../components/avatar.js';
import { MANAGED_SERVICE_FIELDS, ManagedMark } from '../components/managed-mark.js';
import { HealthStatus, StarButton } from './service-card.js';
import { teamPath } from '../routing/paths.js';
import { ServiceLinksCard } from './service-links.js';

/**
 * The Overview (spec/catalogue.md 2.1): owner team, visibility, stage and health, and the star toggle.
 * Incidents, announcements, health history and dependencies come with their own issues.
 */
export function ServiceOverview({
  service,
  cards = [],
}: {
  service: Service;
  /** The other features' cards below the service's own (the latest incident, overall health, ...). */
  cards?: ReadonlyArray<ComponentType<{ service: Service }>>;
}) {
  return (
    <div className="flex flex-column gap-3">
      <Card>
        <div className="flex align-items-start gap-3 mb-3">
          <ProfileAvatar name={service.name} url={service.thumbnail_url} size="xlarge" />
          <div className="flex-1" style={{ minWidth: 0 }}>
            <h1 className="text-2xl font-semibold m-0">{service.name}</h1>
            <div className="text-600">{service.handle}</div>
            <ManagedMark managedBy={service.managed_by} what={MANAGED_SERVICE_FIELDS} />
            {service.description && (
              <p className="mt-2 mb-0 text-700" style={{ whiteSpace: 'pre-line' }}>
                {service.description}
              </p>
            )}
          </div>
          <StarButton service={service} />
        </div>
        <dl className="grid m-0">
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Owner</dt>
            <dd className="m-0 mt-1">
              <Link to={teamPath(service.owner.handle)}>{service.owner.name}</Link>
            </dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Visibility</dt>
            <dd className="m-0 mt-1">{visibilityLabel(service.visibility)}</dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Stage</dt>
            <dd className="m-0 mt-1">{stageLabel(service.stage)}</dd>
          </div>
          <div className="col-12 sm:col-6 lg:col-3">
            <dt className="text-600 text-sm">Health</dt>
            <dd className="m-0 mt-1">
              <HealthStatus health={service.health} />
            </dd>
          </div>
        </dl>
      </Card>
      <ServiceLinksCard service={service} />
      {cards.map((Extra, index) => (
        <Extra key={index} service={service} />
      ))}
    </div>
  );
}
