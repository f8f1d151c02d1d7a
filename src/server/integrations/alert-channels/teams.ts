/**
 * Microsoft Teams through a Workflows webhook (docs/decisions.md#alerts): the "post to a channel when a webhook
 * request is received" flow takes a message with one Adaptive Card attachment (1.4, the version Teams renders) and
 * answers 202 once the flow has it. The old Office 365 connectors (MessageCard) are retired, so none is sent.
 */
import type { AlertMessage } from '../../../domain/alerts.js';
import type { ChannelSender } from './channel.js';
import { isSent, parseJson, postTo, refusal, stringAt } from './vendor-http.js';

export interface TeamsConfig {
  url: string;
}

type CardColor = 'attention' | 'warning' | 'good' | 'accent';

function colorOf(message: AlertMessage): CardColor {
  if (message.action === 'resolve') return 'good';
  if (message.action === 'acknowledge' || message.action === 'test') return 'accent';
  return message.severity === 'warning' ? 'warning' : 'attention';
}

export function teamsCard(message: AlertMessage) {
  const openUrl = (title: string, url: string) => ({ type: 'Action.OpenUrl', title, url });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: message.title,
              weight: 'Bolder',
              size: 'Medium',
              color: colorOf(message),
              wrap: true,
            },
            { type: 'TextBlock', text: message.summary, wrap: true },
            {
              type: 'FactSet',
              facts: [
                { title: 'Service', value: message.service.name },
                { title: 'Team', value: message.team.name },
                { title: 'Severity', value: message.severity },
                { title: 'State', value: message.state },
              ],
            },
          ],
          actions: [
            openUrl('Open alert', message.link),
            ...(message.acknowledgeLink ? [openUrl('Acknowledge', message.acknowledgeLink)] : []),
          ],
        },
      },
    ],
  };
}

export const sendTeams: ChannelSender<TeamsConfig> = async (config, message, send) => {
  const answer = await postTo(
    config.url,
    send,
    { 'content-type': 'application/json' },
    JSON.stringify(teamsCard(message)),
  );
  // A flow's refusal: { error: { code, message } }.
  if (!isSent(answer)) throw refusal(answer, send, stringAt(parseJson(answer.text), 'error', 'message'));
  return { status: answer.status };
};
