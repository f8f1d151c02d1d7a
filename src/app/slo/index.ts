/** What the SLO feature offers the service screens: its overview card, its settings card and a line for lists (issue 28). */
export { SloCard, SloSummary } from './slo-card.js';
export { SloSettingCard } from './slo-setting.js';
