import { z } from 'zod';
import {
  ALERT_ACTIONS,
  ALERT_CHANNEL_KINDS,
  ALERT_SEVERITIES,
  ALERT_SOURCES,
  ALERT_STATES,
  MAX_ESCALATION_REPEAT,
} from '../domain/alerts.js';
import { httpUrl, line, pageQuery, text } from './common.js';

/**
 * Alerts, their channels and the policies that route them (docs/api.md, "Alerts"; docs/decisions.md#alerts).
 * Channel secrets are write-only: an answer says `"set"` in their place.
 */

export const alertSeverity = z.enum(ALERT_SEVERITIES);
export const alertState = z.enum(ALERT_STATES);
export const alertSource = z.enum(ALERT_SOURCES);
export const alertChannelKind = z.enum(ALERT_CHANNEL_KINDS);

const handle = line().min(1).max(64);
const id = line().min(1).max(64);
const ref = z.object({ handle: z.string(), name: z.string() });
export const alertTimelineEntry = z
  .object({
    at: z.string(),
    kind: z.string().describe('opened, raised, told, escalated, acknowledged, resolved, delivery_failed'),
    channel: z.object({ id: z.string(), name: z.string(), kind: alertChannelKind }).optional(),
    target: z.string().optional().describe('Whom it was sent to: a user, a team, an address'),
    status: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: 'AlertTimelineEntry' });

export const alert = z
  .object({
    id: z.string(),
    service: ref,
    team: ref,
    severity: alertSeverity,
    state: alertState,
    source: alertSource,
    summary: z.string(),
    opened_at: z.string(),
    acknowledged_at: z.string().nullable(),
    acknowledged_by: ref.nullable(),
    resolved_at: z.string().nullable(),
    resolved_by: ref.nullable(),
    reason: z.string().nullable(),
    permissions: z.object({ answer: z.boolean().describe('Whether the caller may acknowledge and resolve it') }),
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof alert>;

export const alertWithTimeline = alert
  .extend({ timeline: z.array(alertTimelineEntry).describe('Oldest first') })
  .meta({ id: 'AlertWithTimeline' });
export type AlertWithTimeline = z.infer<typeof alertWithTimeline>;

export const alertQuery = z.strictObject({
  cursor: pageQuery.shape.cursor,
  limit: pageQuery.shape.limit,
  state: line().max(100).optional().describe('A comma list of open, acknowledged, resolved; default all'),
  severity: line().max(100).optional().describe('A comma list of warning, error, critical; default all'),
  team: handle.optional(),
  service: handle.optional(),
});

export const alertParams = z.strictObject({ id });
export const alertResolve = z.strictObject({ reason: text().trim().max(1000).optional() });
export const alertAcknowledge = z.strictObject({});

// ---- channels ----

const email = line()
  .trim()
  .min(3)
  .max(254)
  .check(z.email({ error: 'Must be an email address' }));
const secret = line().trim().min(1).max(500);

/** Each kind's settings, as written (POST); the secret fields are those of CHANNEL_SECRETS. */
export const channelConfigs = {
  email: z
    .strictObject({
      users: z.array(handle).max(50).optional(),
      teams: z.array(handle).max(20).optional(),
      addresses: z.array(email).max(50).optional(),
    })
    .refine((c) => (c.users?.length ?? 0) + (c.teams?.length ?? 0) + (c.addresses?.length ?? 0) > 0, {
      message: 'Name at least one user, team or address',
    }),
  slack: z.strictObject({ channel: line().trim().min(1).max(80) }),
  webhook: z.strictObject({ url: httpUrl().max(2000), secret: secret.optional() }),
  teams: z.strictObject({ url: httpUrl().max(2000) }),
  discord: z.strictObject({ url: httpUrl().max(2000) }),
  telegram: z.strictObject({
    bot_token: line().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'Must be a bot token from BotFather (123456:ABC...)'),
    chat_id: line().trim().min(1).max(64),
  }),
  ntfy: z.strictObject({
    url: httpUrl().max(2000),
    topic: line().regex(/^[-_A-Za-z0-9]{1,64}$/, 'Letters, digits, - and _ only, at most 64'),
    token: secret.optional(),
  }),
  pagerduty: z.strictObject({
    routing_key: line().regex(
      /^[A-Za-z0-9]{32}$/,
      'Must be the 32-character integration key of an Events API v2 service',
    ),
    webhook_secret: secret
      .optional()
      .describe("A PagerDuty webhook subscription's secret: its acknowledgements come back"),
  }),
  opsgenie: z.strictObject({
    api_key: secret,
    region: z.enum(['us', 'eu']).optional(),
    webhook_secret: secret.optional().describe("Sent by Opsgenie's webhook integration as a bearer token"),
  }),
} as const;

/** The settings that are secrets: written, never answered. A Teams or Discord URL is itself the credential. */
export const CHANNEL_SECRETS: Record<keyof typeof channelConfigs, readonly string[]> = {
  email: [],
  slack: [],
  webhook: ['secret'],
  teams: ['url'],
  discord: ['url'],
  telegram: ['bot_token'],
  ntfy: ['token'],
  pagerduty: ['routing_key', 'webhook_secret'],
  opsgenie: ['api_key', 'webhook_secret'],
};

const channelName = line().trim().min(1).max(80);

const channelCreate = <K extends keyof typeof channelConfigs>(kind: K) =>
  z.strictObject({ name: channelName, kind: z.literal(kind), config: channelConfigs[kind] });

export const alertChannelCreate = z.discriminatedUnion('kind', [
  channelCreate('email'),
  channelCreate('slack'),
  channelCreate('webhook'),
  channelCreate('teams'),
  channelCreate('discord'),
  channelCreate('telegram'),
  channelCreate('ntfy'),
  channelCreate('pagerduty'),
  channelCreate('opsgenie'),
]);
export type AlertChannelCreate = z.infer<typeof alertChannelCreate>;

/** A change: the name, and settings merged over the stored ones (a secret left out keeps its value). */
export const alertChannelUpdate = z.strictObject({
  name: channelName.optional(),
  config: z
    .record(line().max(40), z.union([line().max(2000), z.array(line().max(254)).max(50)]))
    .optional()
    .describe('Settings to change, checked against the kind\'s; a secret left out or sent as "set" keeps its value'),
});

export const alertChannel = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: alertChannelKind,
    team: ref.nullable().describe("The team whose channel it is; null for the workspace's"),
    config: z.record(z.string(), z.unknown()).describe('The settings, secrets answered as "set"'),
    failing: z.boolean().describe('10 deliveries in a row failed; a delivery that succeeds clears it'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AlertChannel' });
export type AlertChannel = z.infer<typeof alertChannel>;

export const alertChannelParams = z.strictObject({ id });

export const alertDelivery = z
  .object({
    id: z.string(),
    at: z.string(),
    alert: z.string().nullable().describe('Null for a test'),
    action: z.enum(ALERT_ACTIONS),
    status: z.enum(['sent', 'failed', 'retrying']),
    code: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'AlertDelivery' });
export type AlertDelivery = z.infer<typeof alertDelivery>;

// ---- policies ----

const target = z.union([
  z.strictObject({ user: handle }),
  z.strictObject({ team: handle }),
  z.strictObject({ channel: id }),
]);

const level = z
  .strictObject({
    after_minutes: z.number().int().min(0).max(1440).optional(),
    after_seconds: z.number().int().min(0).max(86_400).optional().describe('Test configuration: seconds'),
    targets: z.array(target).min(1).max(20),
  })
  .refine((l) => (l.after_minutes === undefined) !== (l.after_seconds === undefined), {
    message: 'Give after_minutes (or after_seconds), not both',
  });

export const alertPolicyInput = z.strictObject({
  rules: z.array(z.strictObject({ severities: z.array(alertSeverity).min(1), channels: z.array(id).max(20) })).max(20),
  escalation: z.array(level).max(10).default([]),
  repeat: z.number().int().min(0).max(MAX_ESCALATION_REPEAT).default(0),
  notify_when_impacted: z.boolean().default(true),
});
export type AlertPolicyInput = z.infer<typeof alertPolicyInput>;

const answeredTarget = z.union([
  z.object({ user: z.string(), name: z.string() }),
  z.object({ team: z.string(), name: z.string() }),
  z.object({ channel: z.string(), name: z.string() }),
]);

export const alertPolicy = z
  .object({
    rules: z.array(
      z.object({
        severities: z.array(alertSeverity),
        channels: z.array(z.string()),
        channel_names: z
          .array(z.string())
          .describe(
            "The names of the rule's channels that still exist, in order: readable by those who cannot list them",
          ),
      }),
    ),
    escalation: z.array(
      z.object({ after_minutes: z.number(), after_seconds: z.number().int(), targets: z.array(answeredTarget) }),
    ),
    repeat: z.number().int(),
    notify_when_impacted: z.boolean(),
    source: z
      .enum(['team', 'workspace', 'none'])
      .describe("Whose policy this is: the team's own, the workspace's default it falls back to, or none yet"),
    permissions: z.object({ edit: z.boolean() }),
  })
  .meta({ id: 'AlertPolicy' });
export type AlertPolicy = z.infer<typeof alertPolicy>;

export const serviceAlertChannels = z.strictObject({ channels: z.array(id).max(20) });

/** What a vendor's webhook is answered: received, whether or not it changed an alert (a vendor retries otherwise). */
export const vendorAnswer = z.object({ received: z.literal(true), applied: z.boolean() }).meta({ id: 'VendorAnswer' });
