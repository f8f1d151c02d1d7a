/**
 * The vendors' senders by channel kind (docs/decisions.md#alerts). Email and Slack are not here: they go through the
 * mail outbox and the Slack client.
 */
import type { ChannelSender } from './channel.js';
import { sendDiscord, type DiscordConfig } from './discord.js';
import { sendNtfy, type NtfyConfig } from './ntfy.js';
import { sendOpsgenie, type OpsgenieConfig } from './opsgenie.js';
import { sendPagerDuty, type PagerDutyConfig } from './pagerduty.js';
import { sendTeams, type TeamsConfig } from './teams.js';
import { sendTelegram, type TelegramConfig } from './telegram.js';
import { sendWebhook, type WebhookConfig } from './webhook.js';

export type { DiscordConfig, NtfyConfig, OpsgenieConfig, PagerDutyConfig, TeamsConfig, TelegramConfig, WebhookConfig };
export { DeliveryError, type ChannelSender, type Delivered, type SendContext, type VendorUrls } from './channel.js';

/** Each vendor kind's config. */
export interface VendorConfigs {
  webhook: WebhookConfig;
  teams: TeamsConfig;
  discord: DiscordConfig;
  telegram: TelegramConfig;
  ntfy: NtfyConfig;
  pagerduty: PagerDutyConfig;
  opsgenie: OpsgenieConfig;
}

/** Mapped, so `vendorSenders[kind]` with a generic `kind` takes `VendorConfigs[typeof kind]`. */
export const vendorSenders: { [Kind in keyof VendorConfigs]: ChannelSender<VendorConfigs[Kind]> } = {
  webhook: sendWebhook,
  teams: sendTeams,
  discord: sendDiscord,
  telegram: sendTelegram,
  ntfy: sendNtfy,
  pagerduty: sendPagerDuty,
  opsgenie: sendOpsgenie,
};

export type VendorKind = keyof typeof vendorSenders;
export type VendorConfig<Kind extends VendorKind> = VendorConfigs[Kind];
