import { z } from 'zod';
import { usernameParams } from '../accounts.js';
import { serviceParams } from '../catalogue.js';
import { defineOperations } from '../operation.js';
import {
  channelCreate,
  channelParams,
  channelUpdate,
  serviceChannel,
  slackCodeBody,
  slackSettings,
  slackWorkspace,
  slackWorkspaceParams,
} from '../slack.js';

const tags = ['slack'];

/**
 * Slack workspaces, chat connect and service channels (spec/platform.md admin area; docs/decisions.md#integrations).
 */
export const slackOperations = defineOperations({
  getSlackSettings: {
    method: 'GET',
    path: '/slack/settings',
    summary: "Whether Slack is configured, and Slack's authorise pages for linking a workspace or oneself",
    tags,
    access: 'user',
    response: slackSettings,
    errors: [401, 403],
  },
  listSlackWorkspaces: {
    method: 'GET',
    path: '/slack-workspaces',
    summary: 'Slack workspaces linked to this workspace (admins and owners)',
    tags,
    access: 'user',
    response: z.array(slackWorkspace),
    errors: [401, 403],
  },
  createSlackWorkspace: {
    method: 'POST',
    path: '/slack-workspaces',
    summary: "Link a Slack workspace with the code of Slack's OAuth redirect (admins and owners)",
    tags,
    access: 'user',
    body: slackCodeBody,
    response: slackWorkspace,
    status: 201,
    errors: [400, 401, 403, 409],
  },
  updateSlackWorkspace: {
    method: 'PATCH',
    path: '/slack-workspaces/:id',
    summary: 'Authorise a linked Slack workspace again, with a new code (admins and owners)',
    tags,
    access: 'user',
    params: slackWorkspaceParams,
    body: slackCodeBody,
    response: slackWorkspace,
    errors: [400, 401, 403, 404, 409],
  },
  connectToSlack: {
    method: 'POST',
    path: '/users/:username/actions/connect-to-slack',
    summary: "Link your Slack identity with the code of Slack's OAuth redirect (yourself only)",
    tags,
    access: 'user',
    params: usernameParams,
    body: slackCodeBody,
    response: null,
    errors: [400, 401, 403, 404, 409],
  },
  listServiceChannels: {
    method: 'GET',
    path: '/services/:service/channels',
    summary: "A service's chat channels",
    tags,
    access: 'beacon.service.read',
    params: serviceParams,
    response: z.array(serviceChannel),
    errors: [400, 401, 403, 404],
  },
  createServiceChannel: {
    method: 'POST',
    path: '/services/:service/channels',
    summary: "Post the service's events to a Slack channel (editors); one channel per provider",
    tags,
    access: 'beacon.service.manage',
    params: serviceParams,
    body: channelCreate,
    response: serviceChannel,
    status: 201,
    errors: [400, 401, 403, 404, 409],
  },
  updateServiceChannel: {
    method: 'PATCH',
    path: '/services/:service/channels/:provider',
    summary: "Change the service's Slack channel (editors)",
    tags,
    access: 'beacon.service.manage',
    params: channelParams,
    body: channelUpdate,
    response: serviceChannel,
    errors: [400, 401, 403, 404],
  },
  deleteServiceChannel: {
    method: 'DELETE',
    path: '/services/:service/channels/:provider',
    summary: "Stop posting the service's events to its channel (editors)",
    tags,
    access: 'beacon.service.manage',
    params: channelParams,
    response: null,
    errors: [400, 401, 403, 404],
  },
});
