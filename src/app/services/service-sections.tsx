import type { ComponentType } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { ServiceOverview } from './service-overview.js';
import type { ServiceSection } from './service-screen.js';
import { ServiceSettings } from './service-settings.js';

/** The Overview, everyone's first tab, with the other features' cards below the service's own. */
export function overviewSection(cards: ReadonlyArray<ComponentType<{ service: Service }>>): ServiceSection {
  return {
    label: 'Overview',
    icon: 'pi pi-home',
    path: '',
    exact: true,
    shown: () => true,
    render: ({ service }) => <ServiceOverview service={service} cards={cards} />,
  };
}

/** Settings: editors only (spec 6), with the other features' cards (the pages export) before Delete Service. */
export function settingsSection(cards: ReadonlyArray<ComponentType<{ service: Service }>> = []): ServiceSection {
  return {
    label: 'Settings',
    icon: 'pi pi-cog',
    path: 'settings',
    shown: (service) => service.permissions.edit,
    render: ({ service, onUpdated }) => <ServiceSettings service={service} onUpdated={onUpdated} cards={cards} />,
  };
}
