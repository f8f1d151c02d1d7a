import type { ServiceSection } from '../services/index.js';
import { HealthChecksScreen } from './health-checks-screen.js';

/** The service's Health Checks tab (spec/catalogue.md 2.1), for everyone who sees the service. */
export const healthChecksSection: ServiceSection = {
  label: 'Health Checks',
  icon: 'pi pi-heart',
  path: 'health-checks',
  shown: () => true,
  render: ({ service }) => <HealthChecksScreen service={service} />,
};
