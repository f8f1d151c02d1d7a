import { z } from 'zod';
import {
  alert,
  alertAcknowledge,
  alertChannel,
  alertChannelCreate,
  alertChannelParams,
  alertChannelUpdate,
  alertDelivery,
  alertParams,
  alertPolicy,
  alertPolicyInput,
  alertQuery,
  alertResolve,
  alertWithTimeline,
  serviceAlertChannels,
  vendorAnswer,
} from '../alerts.js';
import { serviceParams, teamParams } from '../catalogue.js';
import { defineOperations } from '../operation.js';

const tags = ['alerts'];

/** Alerts, acknowledged and resolved by the owning team (docs/api.md, "Alerts"). */
export const alertOperations = defineOperations({
  listAlerts: {
    method: 'GET',
    path: '/alerts',
    summary:
      'Alerts of the services the caller may see, newest first; `state` and `severity` take comma lists, `team` ' +
      'and `service` a handle; total in the `total` header',
    tags,
    access: 'beacon.alert.read',
    query: alertQuery,
    response: z.array(alert),
    paged: true,
    errors: [400, 401, 403, 404],
  },
  getAlert: {
    method: 'GET',
    path: '/alerts/:id',
    summary: 'One alert with its timeline; 404 when missing or its service is hidden from the caller',
    tags,
    access: 'beacon.alert.read',
    params: alertParams,
    response: alertWithTimeline,
    errors: [401, 403, 404],
  },
  acknowledgeAlert: {
    replayable: true,
    method: 'POST',
    path: '/alerts/:id/actions/acknowledge',
    summary:
      'Acknowledge an open alert (members of the owning team, admins): its escalation stops and every channel ' +
      'told of it is told; 409 when it is already acknowledged or resolved',
    tags,
    access: 'beacon.alert.write',
    params: alertParams,
    body: alertAcknowledge.optional(),
    response: alertWithTimeline,
    errors: [400, 401, 403, 404, 409],
  },
  resolveAlert: {
    replayable: true,
    method: 'POST',
    path: '/alerts/:id/actions/resolve',
    summary:
      'Resolve an alert by hand, with an optional reason (allowed while the service still fails); every channel ' +
      'told of it is told; 409 when it is already resolved',
    tags,
    access: 'beacon.alert.write',
    params: alertParams,
    body: alertResolve.optional(),
    response: alertWithTimeline,
    errors: [400, 401, 403, 404, 409],
  },
});

/** Where alerts are told (docs/api.md, "Alert channels"). */
export const alertChannelOperations = defineOperations({
  listAlertChannels: {
    method: 'GET',
    path: '/alert-channels',
    summary: 'The workspace\'s channels (members and admins; guests none), secrets answered as "set"',
    tags,
    access: 'user',
    response: z.array(alertChannel),
    errors: [401, 403],
  },
  createAlertChannel: {
    method: 'POST',
    path: '/alert-channels',
    summary: 'Add a workspace channel (admins); its kind decides its settings',
    tags,
    access: 'user',
    body: alertChannelCreate,
    response: alertChannel,
    status: 201,
    errors: [400, 401, 403],
  },
  listTeamAlertChannels: {
    method: 'GET',
    path: '/teams/:team/alert-channels',
    summary: "A team's own channels (its members and admins)",
    tags,
    access: 'user',
    params: teamParams,
    response: z.array(alertChannel),
    errors: [401, 403, 404],
  },
  createTeamAlertChannel: {
    method: 'POST',
    path: '/teams/:team/alert-channels',
    summary: "Add a channel of the team's own (the team's admins, workspace admins)",
    tags,
    access: 'user',
    params: teamParams,
    body: alertChannelCreate,
    response: alertChannel,
    status: 201,
    errors: [400, 401, 403, 404],
  },
  getAlertChannel: {
    method: 'GET',
    path: '/alert-channels/:id',
    summary: 'One channel',
    tags,
    access: 'user',
    params: alertChannelParams,
    response: alertChannel,
    errors: [401, 403, 404],
  },
  updateAlertChannel: {
    method: 'PATCH',
    path: '/alert-channels/:id',
    summary: 'Rename a channel or change its settings (a secret left out keeps its value)',
    tags,
    access: 'user',
    params: alertChannelParams,
    body: alertChannelUpdate,
    response: alertChannel,
    errors: [400, 401, 403, 404],
  },
  deleteAlertChannel: {
    method: 'DELETE',
    path: '/alert-channels/:id',
    summary: 'Remove a channel; the policies that named it no longer do',
    tags,
    access: 'user',
    params: alertChannelParams,
    response: null,
    errors: [401, 403, 404],
  },
  testAlertChannel: {
    method: 'POST',
    path: '/alert-channels/:id/actions/test',
    summary: 'Send a test alert through the channel now; its attempt shows in the delivery log',
    tags,
    access: 'user',
    params: alertChannelParams,
    response: alertDelivery,
    status: 202,
    errors: [401, 403, 404, 429],
  },
  listAlertChannelDeliveries: {
    method: 'GET',
    path: '/alert-channels/:id/deliveries',
    summary: "The channel's last 100 attempts, newest first",
    tags,
    access: 'user',
    params: alertChannelParams,
    response: z.array(alertDelivery),
    errors: [401, 403, 404],
  },
});

/** Which channels for which severities, and whom to escalate to (docs/api.md, "Alert policies"). */
export const alertPolicyOperations = defineOperations({
  getAlertPolicy: {
    method: 'GET',
    path: '/alert-policy',
    summary: "The workspace's default policy, for teams without their own",
    tags,
    access: 'user',
    response: alertPolicy,
    errors: [401, 403],
  },
  setAlertPolicy: {
    method: 'PUT',
    path: '/alert-policy',
    summary: "Set the workspace's default policy (admins)",
    tags,
    access: 'user',
    body: alertPolicyInput,
    response: alertPolicy,
    errors: [400, 401, 403],
  },
  getTeamAlertPolicy: {
    method: 'GET',
    path: '/teams/:team/alert-policy',
    summary: "The team's policy; without one of its own, the workspace's default (`source` says which)",
    tags,
    access: 'user',
    params: teamParams,
    response: alertPolicy,
    errors: [401, 403, 404],
  },
  setTeamAlertPolicy: {
    method: 'PUT',
    path: '/teams/:team/alert-policy',
    summary: "Set the team's policy (the team's admins, workspace admins)",
    tags,
    access: 'user',
    params: teamParams,
    body: alertPolicyInput,
    response: alertPolicy,
    errors: [400, 401, 403, 404],
  },
  getServiceAlertChannels: {
    method: 'GET',
    path: '/services/:service/alert-channels',
    summary: "Channels the service adds to its team's policy (every severity)",
    tags,
    access: 'user',
    params: serviceParams,
    response: z.array(alertChannel),
    errors: [401, 403, 404],
  },
  setServiceAlertChannels: {
    method: 'PUT',
    path: '/services/:service/alert-channels',
    summary: "Set the channels the service adds (editors of the service); it cannot mute its team's",
    tags,
    access: 'user',
    params: serviceParams,
    body: serviceAlertChannels,
    response: z.array(alertChannel),
    errors: [400, 401, 403, 404],
  },
});

/**
 * Answers that come back from the vendors (docs/api.md, "Alerts"): PagerDuty's and Opsgenie's webhooks and Slack's
 * buttons acknowledge or resolve the alert they name, verified by the channel's shared secret (Slack: the app's
 * signing secret). Public: the signature is the caller.
 */
export const alertVendorOperations = defineOperations({
  receivePagerDutyWebhook: {
    method: 'POST',
    path: '/integrations/pagerduty',
    summary:
      "PagerDuty's webhook (v3): incident.acknowledged and incident.resolved of an alert's incident, signed " +
      "X-PagerDuty-Signature with the channel's webhook secret",
    tags,
    access: 'public',
    response: vendorAnswer,
    errors: [400, 401],
  },
  receiveOpsgenieWebhook: {
    method: 'POST',
    path: '/integrations/opsgenie',
    summary:
      "Opsgenie's webhook: Acknowledge and Close of an alert's alias, with the channel's secret as a bearer token",
    tags,
    access: 'public',
    response: vendorAnswer,
    errors: [400, 401],
  },
  receiveSlackAction: {
    method: 'POST',
    path: '/integrations/slack/actions',
    summary:
      "Slack's interactivity: an alert message's Acknowledge or Resolve button, signed X-Slack-Signature with the " +
      "Slack app's signing secret; 404 when no signing secret is set",
    tags,
    access: 'public',
    response: z.object({}).loose(),
    errors: [400, 401, 404],
  },
});
