import type { ServiceSection } from '../services/index.js';
import { NoticesScreen } from './notices-screen.js';

/** The service's Notices tab (spec/catalogue.md 2.1), for everyone who sees the service. */
export const noticesSection: ServiceSection = {
  label: 'Notices',
  icon: 'pi pi-megaphone',
  path: 'notices',
  shown: () => true,
  render: ({ service }) => <NoticesScreen service={service} />,
};
