/** What the notices feature offers the other features: the service's notices tab and latest-incident card,
 * and the time format its notices use. */
export { noticesSection } from './notice-sections.js';
export { LatestIncidentCard } from './latest-incident-card.js';
export { formatNoticeTime } from './notice-format.js';
