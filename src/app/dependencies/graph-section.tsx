import type { ServiceSection } from '../services/index.js';

/** The Service Graph tab at /services/{id}/graph (spec/catalogue.md 2.1), for everyone who sees the service. */
export const graphSection: ServiceSection = {
  label: 'Service Graph',
  icon: 'pi pi-sitemap',
  path: 'graph',
  shown: () => true,
  render: () => null,
};
