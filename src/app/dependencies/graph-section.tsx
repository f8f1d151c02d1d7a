import { lazy, Suspense } from 'react';
import { Spinner } from '../components/status-screens.js';
import type { ServiceSection } from '../services/index.js';

/** The screen with cytoscape comes in its own chunk: neither /login nor the other service tabs download it. */
const GraphScreen = lazy(() => import('./graph-screen.js'));

/** The Service Graph tab at /services/{id}/graph (spec/catalogue.md 2.1), for everyone who sees the service. */
export const graphSection: ServiceSection = {
  label: 'Service Graph',
  icon: 'pi pi-sitemap',
  path: 'graph',
  shown: () => true,
  render: ({ service }) => (
    <Suspense fallback={<Spinner label="Loading graph" />}>
      <GraphScreen service={service} />
    </Suspense>
  ),
};
