/**
 * Opsgenie's Alert API (docs/decisions.md#alerts), in the account's region: an alert per Beacon alert, its alias the
 * alert's id, so Opsgenie folds a raise into the open alert and an acknowledgement or a resolution (close) finds it by
 * alias. Every request is taken as 202 and done after; a refusal is `{ message, took, requestId }` (422 adds
 * `errors`, by field).
 */
import type { AlertAction, AlertMessage, AlertSeverity } from '../../../domain/alerts.js';
import type { ChannelSender } from './channel.js';
import { cut, isSent, parseJson, postTo, refusal, stringAt, valueAt } from './vendor-http.js';

export interface OpsgenieConfig {
  api_key: string;
  region?: 'us' | 'eu';
}

const PRIORITY: Record<AlertSeverity, string> = { critical: 'P1', error: 'P2', warning: 'P3' };

/** Opsgenie's limits: longer is cut by Opsgenie anyway, or refused. */
const MESSAGE_LENGTH = 130;
const ALIAS_LENGTH = 512;
const DESCRIPTION_LENGTH = 15_000;
const TAG_LENGTH = 50;
const ENTITY_LENGTH = 512;
const USER_LENGTH = 100;
const NOTE_LENGTH = 25_000;

export function opsgenieAlert(message: AlertMessage) {
  return {
    message: cut(message.title, MESSAGE_LENGTH),
    alias: cut(message.dedupKey, ALIAS_LENGTH),
    description: cut(`${message.summary}\n${message.link}`, DESCRIPTION_LENGTH),
    priority: message.action === 'test' ? 'P5' : PRIORITY[message.severity],
    tags: ['beacon', message.service.handle, message.severity].map((tag) => cut(tag, TAG_LENGTH)),
    details: {
      service: message.service.name,
      team: message.team.name,
      state: message.state,
      link: message.link,
    },
    entity: cut(message.service.name, ENTITY_LENGTH),
    source: 'Beacon',
  };
}

/** What an acknowledgement or a close says: who did it and why, shown on the alert's activity log. */
function actionBody(message: AlertMessage) {
  return {
    source: 'Beacon',
    ...(message.by ? { user: cut(message.by, USER_LENGTH) } : {}),
    ...(message.reason ? { note: cut(message.reason, NOTE_LENGTH) } : {}),
  };
}

const ALERT_ACTION: Partial<Record<AlertAction, string>> = { acknowledge: 'acknowledge', resolve: 'close' };

export const sendOpsgenie: ChannelSender<OpsgenieConfig> = async (config, message, send) => {
  const base = send.urls.opsgenie[config.region ?? 'us'];
  const action = ALERT_ACTION[message.action];
  const alias = encodeURIComponent(cut(message.dedupKey, ALIAS_LENGTH));
  const [url, body] = action
    ? [`${base}/v2/alerts/${alias}/${action}?identifierType=alias`, actionBody(message)]
    : [`${base}/v2/alerts`, opsgenieAlert(message)];
  const answer = await postTo(
    url,
    send,
    { 'content-type': 'application/json', authorization: `GenieKey ${config.api_key}` },
    JSON.stringify(body),
  );
  if (!isSent(answer)) {
    const refused = parseJson(answer.text);
    const errors = valueAt(refused, 'errors');
    const byField =
      typeof errors === 'object' && errors !== null
        ? Object.values(errors).filter((error) => typeof error === 'string')
        : [];
    throw refusal(answer, send, [stringAt(refused, 'message'), ...byField].filter(Boolean).join(' '));
  }
  return { status: answer.status };
};
