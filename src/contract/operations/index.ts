import type { Operation } from '../operation.js';
import { alertChannelOperations, alertOperations, alertPolicyOperations, alertVendorOperations } from './alerts.js';
import { assetOperations } from './assets.js';
import { autocompleteOperations } from './autocomplete.js';
import { billingOperations, stripeWebhookOperations } from './billing.js';
import { catalogOperations } from './catalog.js';
import { clientOperations } from './clients.js';
import { dependencyOperations, remoteOperations } from './dependencies.js';
import { feedOperations, notificationOperations } from './feeds.js';
import { healthOperations, heartbeatOperations } from './health.js';
import { inviteOperations } from './invites.js';
import { muteOperations } from './mutes.js';
import { noticeOperations } from './notices.js';
import { pageOperations, sectionPageOperations } from './pages.js';
import { passwordOperations } from './passwords.js';
import { registrationOperations } from './registration.js';
import { runnerOperations } from './runners.js';
import { scorecardOperations } from './scorecards.js';
import { serviceOperations } from './services.js';
import { slackOperations } from './slack.js';
import { sloOperations } from './slo.js';
import { specCheckOperations } from './spec-checks.js';
import { samlOperations, ssoProviderOperations } from './sso.js';
import { sessionOperations } from './session.js';
import { starOperations } from './stars.js';
import { statusPageOperations, statusReadOperations } from './status-pages.js';
import { systemOperations } from './system.js';
import { teamOperations } from './teams.js';
import { userTeamOperations } from './user-teams.js';
import { userOperations } from './users.js';
import { watchedServiceOperations } from './watched-services.js';
import { workspaceOperations } from './workspace.js';

/** Every operation of the API, once. */
export const allOperations: readonly Operation[] = [
  alertOperations,
  alertChannelOperations,
  alertPolicyOperations,
  alertVendorOperations,
  assetOperations,
  autocompleteOperations,
  billingOperations,
  stripeWebhookOperations,
  catalogOperations,
  clientOperations,
  dependencyOperations,
  feedOperations,
  healthOperations,
  heartbeatOperations,
  inviteOperations,
  muteOperations,
  noticeOperations,
  notificationOperations,
  pageOperations,
  ...Object.values(sectionPageOperations),
  passwordOperations,
  registrationOperations,
  remoteOperations,
  runnerOperations,
  scorecardOperations,
  serviceOperations,
  slackOperations,
  sloOperations,
  specCheckOperations,
  ssoProviderOperations,
  samlOperations,
  sessionOperations,
  starOperations,
  statusPageOperations,
  statusReadOperations,
  systemOperations,
  teamOperations,
  userOperations,
  userTeamOperations,
  watchedServiceOperations,
  workspaceOperations,
].flatMap((group) => Object.values<Operation>(group));
