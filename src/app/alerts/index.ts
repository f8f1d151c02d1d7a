/**
 * What the alerts feature offers the rest of the app: the admin area's channel screens, the team's Alert policy and
 * Alert channels cards (its own screens, /alerts and /alerts/{id}, are routed by path; the shell's count and the
 * acknowledge write kind are taken by the composition files directly).
 */
export { AlertChannelsCard, AlertChannelScreen, AlertChannelsScreen } from './channels-screen.js';
export { TeamAlertChannelsCard, TeamAlertPolicyCard } from './team-alert-cards.js';
