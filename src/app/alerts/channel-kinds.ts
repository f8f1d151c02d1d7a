/**
 * What the channel form asks for each kind (docs/api.md, "Alert channels"), and how its draft becomes the settings the
 * contract takes. No React: the form and its checks use it.
 */
import type { z } from 'zod';
import { CHANNEL_SECRETS, channelConfigs, type AlertChannel } from '../../contract/alerts.js';
import type { AlertChannelKind } from '../../domain/alerts.js';
import { messages } from '../../domain/validators.js';

export const CHANNEL_KIND_LABELS: Record<AlertChannelKind, string> = {
  email: 'Email',
  slack: 'Slack',
  webhook: 'Webhook',
  teams: 'Microsoft Teams',
  discord: 'Discord',
  telegram: 'Telegram',
  ntfy: 'ntfy',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
};

/** How a setting is typed: a line, a URL, a write-only secret, a line per item, picked users or teams, a region. */
export type FieldControl = 'text' | 'url' | 'secret' | 'lines' | 'users' | 'teams' | 'region';

export interface ChannelField {
  key: string;
  label: string;
  control: FieldControl;
  hint?: string;
}

const FIELDS: Record<AlertChannelKind, readonly ChannelField[]> = {
  email: [
    { key: 'users', label: 'Users', control: 'users', hint: 'Each gets a mail at the address of their account.' },
    { key: 'teams', label: 'Teams', control: 'teams', hint: 'Every member of each team gets a mail.' },
    { key: 'addresses', label: 'Other addresses', control: 'lines', hint: 'One email address a line.' },
  ],
  slack: [
    {
      key: 'channel',
      label: 'Slack channel',
      control: 'text',
      hint: "A channel of the workspace's linked Slack, such as #payments-on-call.",
    },
  ],
  webhook: [
    { key: 'url', label: 'URL', control: 'url', hint: 'Each alert is posted here as JSON.' },
    {
      key: 'secret',
      label: 'Signing secret',
      control: 'secret',
      hint: 'Optional: signs each delivery (X-Beacon-Signature).',
    },
  ],
  teams: [{ key: 'url', label: 'Workflows webhook URL', control: 'secret', hint: 'From a Teams Workflows webhook.' }],
  discord: [{ key: 'url', label: 'Webhook URL', control: 'secret', hint: "From the Discord channel's integrations." }],
  telegram: [
    { key: 'bot_token', label: 'Bot token', control: 'secret', hint: 'From BotFather, such as 123456:ABC...' },
    { key: 'chat_id', label: 'Chat ID', control: 'text' },
  ],
  ntfy: [
    { key: 'url', label: 'Server URL', control: 'url', hint: 'Such as https://ntfy.sh.' },
    { key: 'topic', label: 'Topic', control: 'text', hint: 'Letters, digits, - and _.' },
    { key: 'token', label: 'Access token', control: 'secret', hint: 'Optional: for a protected topic.' },
  ],
  pagerduty: [
    {
      key: 'routing_key',
      label: 'Integration key',
      control: 'secret',
      hint: 'The 32-character key of an Events API v2 integration.',
    },
    {
      key: 'webhook_secret',
      label: 'Webhook secret',
      control: 'secret',
      hint: "Optional: lets PagerDuty's webhook acknowledge and resolve alerts here.",
    },
  ],
  opsgenie: [
    { key: 'api_key', label: 'API key', control: 'secret' },
    { key: 'region', label: 'Region', control: 'region' },
    {
      key: 'webhook_secret',
      label: 'Webhook secret',
      control: 'secret',
      hint: "Optional: lets Opsgenie's webhook acknowledge and close alerts here.",
    },
  ],
};

export const REGIONS = [
  { label: 'United States', value: 'us' },
  { label: 'Europe', value: 'eu' },
] as const;

type Shape = Record<string, z.ZodType>;
const shapeOf = (kind: AlertChannelKind) => channelConfigs[kind].shape as Shape;

/** The fields of a kind that its settings take: the contract decides, so a field it does not take is not offered. */
export function channelFields(kind: AlertChannelKind): ChannelField[] {
  const shape = shapeOf(kind);
  return FIELDS[kind].filter((field) => field.key in shape);
}

/** Whether a setting may be left out (the contract's schema takes it missing). */
export const isOptional = (kind: AlertChannelKind, key: string) =>
  shapeOf(kind)[key]?.safeParse(undefined).success ?? true;

// ---- the draft ----

export interface ChannelDraft {
  name: string;
  kind: AlertChannelKind;
  /** By setting: typed text (a line per item for `lines`), or the handles picked (`users`, `teams`). */
  values: Record<string, string | string[]>;
}

const isList = (control: FieldControl) => control === 'users' || control === 'teams';

const emptyValue = (field: ChannelField) => (isList(field.control) ? [] : field.control === 'region' ? 'us' : '');

/** A new channel's draft of a kind, or the saved channel's (its secrets empty: empty keeps the one set). */
export function draftOf(channel: AlertChannel | null, kind: AlertChannelKind = 'email'): ChannelDraft {
  const of = channel?.kind ?? kind;
  const values: ChannelDraft['values'] = {};
  for (const field of channelFields(of)) {
    const saved = channel?.config[field.key];
    if (field.control === 'secret' || saved === undefined || saved === null) values[field.key] = emptyValue(field);
    else if (isList(field.control)) values[field.key] = Array.isArray(saved) ? saved.map(String) : [];
    else if (field.control === 'lines') values[field.key] = Array.isArray(saved) ? saved.map(String).join('\n') : '';
    else values[field.key] = String(saved);
  }
  return { name: channel?.name ?? '', kind: of, values };
}

/** The secrets a saved channel has set: their fields say "set" and may stay empty. */
export function secretsSet(channel: AlertChannel | null): Set<string> {
  if (!channel) return new Set();
  return new Set(CHANNEL_SECRETS[channel.kind].filter((key) => channel.config[key] === 'set'));
}

const linesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The settings as sent: every field of the kind, lists as arrays, text trimmed. A secret left empty is left out:
 * on a new channel a missing required one is an error; on a saved one it keeps its value (docs/api.md).
 */
export function configOf(draft: ChannelDraft): Record<string, string | string[]> {
  const config: Record<string, string | string[]> = {};
  for (const field of channelFields(draft.kind)) {
    const value = draft.values[field.key] ?? emptyValue(field);
    if (Array.isArray(value)) config[field.key] = value;
    else if (field.control === 'lines') config[field.key] = linesOf(value);
    else if (value.trim() !== '') config[field.key] = value.trim();
    else if (field.control !== 'secret' && !isOptional(draft.kind, field.key)) config[field.key] = '';
  }
  return config;
}

// ---- checks, in the contract's terms ----

export const URL_INVALID = 'A URL starting with http:// or https://';

/** Where an error shows: a field's key, or '' for the settings as a whole (the email kind's "name someone"). */
export type ChannelErrors = Record<string, string>;

function issueText(issue: z.core.$ZodIssue, value: unknown): string {
  if (value === undefined || value === '') return messages.required;
  if (issue.code === 'invalid_format' && issue.format === 'url') return URL_INVALID;
  if (issue.code === 'too_big') return `At most ${String(issue.maximum)}`;
  return issue.message;
}

/**
 * What is wrong with the draft before it is sent (the server checks again): the name, and the settings by the kind's
 * schema. A secret already set and left empty is no error.
 */
export function channelErrors(draft: ChannelDraft, kept: ReadonlySet<string>): ChannelErrors {
  const errors: ChannelErrors = {};
  const name = draft.name.trim();
  if (name === '') errors.name = messages.required;
  else if (name.length > 80) errors.name = 'At most 80 characters';
  const config = configOf(draft);
  const schema: z.ZodType = channelConfigs[draft.kind];
  const checked = schema.safeParse(config);
  if (checked.success) return errors;
  for (const issue of checked.error.issues) {
    const [key, index] = issue.path;
    const field = typeof key === 'string' ? key : '';
    if (field && kept.has(field) && config[field] === undefined) continue;
    const value = field ? config[field] : undefined;
    const item = Array.isArray(value) && typeof index === 'number' ? value[index] : value;
    const text = issueText(issue, item);
    errors[field] ??= typeof index === 'number' && field === 'addresses' ? `Line ${index + 1}: ${text}` : text;
  }
  return errors;
}

/** A refused save's errors by field: `config.url` is the url field, `name` the name; the rest for the form. */
export function placeServerErrors(fields: Record<string, string>): { fields: ChannelErrors; form: string[] } {
  const placed: ChannelErrors = {};
  const form: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const [head, key] = path.split('.');
    if (path === 'name') placed.name ??= message;
    else if (head === 'config' && key) placed[key] ??= message;
    else if (path === 'config') placed[''] ??= message;
    else form.push(message);
  }
  return { fields: placed, form };
}
