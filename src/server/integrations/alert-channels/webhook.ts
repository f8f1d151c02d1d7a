/**
 * A plain webhook (docs/decisions.md#alerts): Beacon's own JSON schema, snake_case like the API, POSTed as status page
 * webhooks are (jobs/webhook-outbox.ts): `X-Beacon-Delivery` to drop a repeat, and `X-Beacon-Signature`
 * (crypto/webhook-signature.ts) when the channel has a secret. Any 2xx is taken.
 */
import type { AlertAction, AlertMessage, AlertSeverity, AlertSource, AlertState } from '../../../domain/alerts.js';
import { webhookSignature } from '../../crypto/webhook-signature.js';
import type { ChannelSender } from './channel.js';
import { isSent, postTo, refusal } from './vendor-http.js';

export interface WebhookConfig {
  url: string;
  secret?: string;
}

interface Named {
  handle: string;
  name: string;
}

/** The documented body of an alert webhook. */
export interface WebhookPayload {
  type: 'beacon.alert';
  action: AlertAction;
  alert: {
    id: string;
    state: AlertState;
    severity: AlertSeverity;
    source: AlertSource;
    title: string;
    summary: string;
    link: string;
    acknowledge_link?: string;
    by?: string;
    reason?: string;
    at: string;
    service: Named;
    team: Named;
    workspace: { slug: string; name: string };
  };
}

export function webhookBody(message: AlertMessage): WebhookPayload {
  return {
    type: 'beacon.alert',
    action: message.action,
    alert: {
      id: message.alertId,
      state: message.state,
      severity: message.severity,
      source: message.source,
      title: message.title,
      summary: message.summary,
      link: message.link,
      ...(message.acknowledgeLink ? { acknowledge_link: message.acknowledgeLink } : {}),
      ...(message.by ? { by: message.by } : {}),
      ...(message.reason ? { reason: message.reason } : {}),
      at: message.at,
      service: { handle: message.service.handle, name: message.service.name },
      team: { handle: message.team.handle, name: message.team.name },
      workspace: { slug: message.workspace.slug, name: message.workspace.name },
    },
  };
}

export const sendWebhook: ChannelSender<WebhookConfig> = async (config, message, send) => {
  const body = JSON.stringify(webhookBody(message));
  const answer = await postTo(
    config.url,
    send,
    {
      'content-type': 'application/json',
      'user-agent': 'Beacon-Webhooks/1',
      'x-beacon-delivery': send.deliveryId,
      ...(config.secret ? { 'x-beacon-signature': webhookSignature(config.secret, body, send.now) } : {}),
    },
    body,
  );
  if (!isSent(answer)) throw refusal(answer, send);
  return { status: answer.status };
};
