/**
 * An alert as a Slack message (docs/decisions.md#alerts): the title, what happened, and while it is open an
 * Acknowledge and a Resolve button. Slack sends a press to the interactivity endpoint (routes/slack-actions.ts),
 * signed with the app's signing secret; the buttons carry the alert's id.
 */
import type { AlertMessage } from '../../../domain/alerts.js';
import { slackEscape, type SlackMessage } from '../slack-messages.js';

export const SLACK_ACKNOWLEDGE = 'beacon_alert_acknowledge';
export const SLACK_RESOLVE = 'beacon_alert_resolve';

const COLOURS: Record<string, string> = {
  critical: '#e01e5a',
  error: '#e8912d',
  warning: '#ecb22e',
  resolve: '#2eb886',
  acknowledge: '#1d9bd1',
  test: '#1d9bd1',
};

export function slackAlertMessage(message: AlertMessage): SlackMessage {
  const colour =
    COLOURS[
      message.action === 'resolve' || message.action === 'acknowledge' || message.action === 'test'
        ? message.action
        : message.severity
    ]!;
  const blocks: unknown[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*<${message.link}|${slackEscape(message.title)}>*\n${slackEscape(message.summary)}`,
      },
    },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `${slackEscape(message.service.name)} · ${slackEscape(message.team.name)}` }],
    },
  ];
  const open = message.action === 'trigger' || message.action === 'raise';
  if (open) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: SLACK_ACKNOWLEDGE,
          text: { type: 'plain_text', text: 'Acknowledge' },
          value: message.alertId,
          style: 'primary',
        },
        {
          type: 'button',
          action_id: SLACK_RESOLVE,
          text: { type: 'plain_text', text: 'Resolve' },
          value: message.alertId,
        },
      ],
    });
  }
  return {
    text: message.title,
    attachments: [{ color: colour, fallback: message.title, blocks }],
  };
}
