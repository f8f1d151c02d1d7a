import { z } from 'zod';
import { line } from './common.js';
import { SLACK_CHANNEL_PATTERN } from '../domain/validators.js';

/** Slack for this workspace (docs/decisions.md#integrations): off unless the server has a Slack app configured. */
export const slackSettings = z
  .object({
    configured: z.boolean(),
    /** Slack's authorise page for linking a Slack workspace (admins), with the app's id, scopes and return URL. */
    install_url: z.string().nullable(),
    /** Slack's authorise page for linking one's own Slack identity (chat connect). */
    connect_url: z.string().nullable(),
  })
  .meta({ id: 'SlackSettings' });
export type SlackSettings = z.infer<typeof slackSettings>;

/** Spec: a Slack workspace is `{ id, team, user }` (user: who linked it). */
export const slackWorkspace = z
  .object({ id: z.string(), team: z.string(), user: z.string() })
  .meta({ id: 'SlackWorkspace' });
export type SlackWorkspace = z.infer<typeof slackWorkspace>;

/** The OAuth code of Slack's redirect (the spec calls it `token`). */
export const slackCodeBody = z.strictObject({ token: line().min(1).max(500) });

export { SLACK_CHANNEL_PATTERN };
const channelId = () =>
  line().trim().min(1, 'Slack channel id is required').max(80).regex(SLACK_CHANNEL_PATTERN, 'Not a Slack channel id');

/** docs/decisions.md#integrations: `[{ id, provider: 'slack', slack_channel: { id } }]`. */
export const serviceChannel = z
  .object({ id: z.string(), provider: z.literal('slack'), slack_channel: z.object({ id: z.string() }) })
  .meta({ id: 'ServiceChannel' });
export type ServiceChannel = z.infer<typeof serviceChannel>;

export const channelCreate = z.strictObject({ provider: z.literal('slack'), channel: channelId() });
export const channelUpdate = z.strictObject({ channel: channelId() });
export const channelParams = z.strictObject({ service: line().min(1).max(64), provider: z.literal('slack') });
export const slackWorkspaceParams = z.strictObject({ id: line().min(1).max(64) });
