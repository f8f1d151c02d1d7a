/**
 * PagerDuty's Events API v2 (docs/decisions.md#alerts): one event per message on the integration's routing key,
 * deduplicated on the alert's id, so a raise updates the incident an opening made and an acknowledgement or a
 * resolution moves it. A test is a trigger of severity info on its own dedup key (AlertMessage gives tests one).
 * Answers 202; 400 lists what is wrong in `errors`; 429 when the key sends too fast.
 */
import type { AlertMessage } from '../../../domain/alerts.js';
import type { ChannelSender } from './channel.js';
import { cut, isSent, parseJson, postTo, refusal, retryAfterHeader, stringAt, valueAt } from './vendor-http.js';

export interface PagerDutyConfig {
  routing_key: string;
}

/** PagerDuty's summary is at most 1024 characters. */
const SUMMARY_LENGTH = 1024;
/** How long to wait on a 429 that did not say: PagerDuty's own advice is to back off, not to come straight back. */
const THROTTLE_WAIT_MS = 30_000;

const EVENT_ACTION = {
  trigger: 'trigger',
  raise: 'trigger',
  test: 'trigger',
  acknowledge: 'acknowledge',
  resolve: 'resolve',
} as const;

export function pagerDutyEvent(config: PagerDutyConfig, message: AlertMessage) {
  const eventAction = EVENT_ACTION[message.action];
  const event = { routing_key: config.routing_key, event_action: eventAction, dedup_key: message.dedupKey };
  // An acknowledgement or a resolution names the incident and nothing more.
  if (eventAction !== 'trigger') return event;
  return {
    ...event,
    payload: {
      // The incident's title in PagerDuty.
      summary: cut(message.summary || message.title, SUMMARY_LENGTH),
      source: `beacon:${message.workspace.slug}/${message.service.handle}`,
      severity: message.action === 'test' ? 'info' : message.severity,
      timestamp: message.at,
      component: message.service.handle,
      group: message.team.handle,
      class: message.source,
      custom_details: { state: message.state, link: message.link, team: message.team.name },
    },
    links: [{ href: message.link, text: 'Open in Beacon' }],
  };
}

export const sendPagerDuty: ChannelSender<PagerDutyConfig> = async (config, message, send) => {
  const answer = await postTo(
    `${send.urls.pagerduty}/v2/enqueue`,
    send,
    { 'content-type': 'application/json' },
    JSON.stringify(pagerDutyEvent(config, message)),
  );
  if (!isSent(answer)) {
    const refused = parseJson(answer.text);
    const errors = valueAt(refused, 'errors');
    const listed = Array.isArray(errors) ? errors.filter((error) => typeof error === 'string').join('; ') : '';
    const said = stringAt(refused, 'message');
    const reason = said && listed ? `${said}: ${listed}` : listed || said;
    const wait = retryAfterHeader(answer, send.now) ?? (answer.status === 429 ? THROTTLE_WAIT_MS : undefined);
    throw refusal(answer, send, reason, wait);
  }
  return { status: answer.status };
};
