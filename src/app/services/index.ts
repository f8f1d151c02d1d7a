/** What the services feature offers the other features: the service frame's sections, its data and its cards. */
export { ServiceScreen, tabsOf, isTabActive, type ServiceSection, type ServiceTab } from './service-screen.js';
export { overviewSection, settingsSection } from './service-sections.js';
export { getServiceQueryOptions, getTeamServicesQueryOptions } from './service-api.js';
export { HealthStatus, ServiceCard, StarButton } from './service-card.js';
export { starWrite, unstarWrite } from './use-star.js';
