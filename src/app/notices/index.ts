/** What the notices feature offers the other features: the service's notices tab and latest-incident card. */
export { noticesSection } from './notice-sections.js';
export { LatestIncidentCard } from './latest-incident-card.js';
