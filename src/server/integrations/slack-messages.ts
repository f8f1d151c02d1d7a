/**
 * What Beacon posts to Slack (docs/decisions.md#integrations): a standalone message per event, and for a notice
 * (incident or maintenance) one root message that is updated as the notice moves (its colour and status), with each
 * update replied in the root's thread (docs/decisions.md#integrations).
 */
import { healthLabel, type Health } from '../../domain/catalogue.js';
import { eventTitle } from '../../domain/events.js';
import { isClosed, isNoticeType, type NoticeType } from '../../domain/notices.js';

/** What a message is about: the event, its service and where the service lives. */
export interface ChatSubject {
  type: string;
  data: Record<string, unknown>;
  agentName: string;
  serviceName: string;
  serviceHealth: Health;
  /** The service's page. */
  link: string;
}

export interface SlackMessage {
  text: string;
  blocks?: unknown[];
  attachments?: Array<{ color: string; fallback: string; blocks: unknown[] }>;
}

/** Slack's own palette: red, amber, green; blue for planned work. */
const COLOURS = { danger: '#e01e5a', warning: '#ecb22e', good: '#2eb886', planned: '#1d9bd1' } as const;

const STATUS_COLOURS: Record<string, string> = {
  investigating: COLOURS.danger,
  identified: COLOURS.danger,
  monitoring: COLOURS.warning,
  resolved: COLOURS.good,
  scheduled: COLOURS.planned,
  in_progress: COLOURS.planned,
  verifying: COLOURS.warning,
  completed: COLOURS.good,
};

/** Slack's mrkdwn treats these three as markup: escaped in text a person wrote. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** 'in_progress' -> 'In progress'. */
function statusLabel(status: string): string {
  const text = status.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const byLine = (subject: ChatSubject) =>
  `By ${slackEscape(subject.agentName || 'Beacon')} · health ${healthLabel(subject.serviceHealth)}`;

/** Any event, as one message of its own. */
export function standaloneMessage(subject: ChatSubject): SlackMessage {
  const title = eventTitle(subject.type, subject.data);
  return {
    text: `${subject.serviceName}: ${title}`,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*<${subject.link}|${slackEscape(subject.serviceName)}>*\n${slackEscape(title)}`,
        },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: byLine(subject) }] },
    ],
  };
}

/** Whether an event belongs to a notice's thread. */
export function isNoticeEvent(subject: Pick<ChatSubject, 'type' | 'data'>): boolean {
  return (
    (subject.type === 'notice.created' || subject.type === 'notice.updated') &&
    typeof subject.data.notice === 'string' &&
    typeof subject.data.status === 'string'
  );
}

function noticeOf(subject: ChatSubject): { type: NoticeType; title: string; status: string } {
  const type = String(subject.data.type ?? '');
  return {
    type: isNoticeType(type) ? type : 'incident',
    title: String(subject.data.title ?? ''),
    status: String(subject.data.status ?? ''),
  };
}

/** A notice's root message, as of this event: its kind, title and status, coloured by the status. */
export function noticeRootMessage(subject: ChatSubject): SlackMessage {
  const notice = noticeOf(subject);
  const kind = notice.type === 'maintenance' ? 'Maintenance' : 'Incident';
  const status = statusLabel(notice.status);
  const text = `${subject.serviceName}: ${kind}: ${notice.title} · ${status}`;
  const closed = isClosed(notice.type, notice.status);
  return {
    text,
    attachments: [
      {
        color: STATUS_COLOURS[notice.status] ?? (closed ? COLOURS.good : COLOURS.warning),
        fallback: text,
        blocks: [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*<${subject.link}|${slackEscape(subject.serviceName)}>* · ${kind}\n*${slackEscape(notice.title)}*`,
            },
          },
          {
            type: 'context',
            elements: [{ type: 'mrkdwn', text: `Status: *${status}*${closed ? '' : ' · updates in the thread'}` }],
          },
        ],
      },
    ],
  };
}

/** A notice's later event, as a reply in its thread: the new status and what its editor wrote. */
export function noticeReplyMessage(subject: ChatSubject, message: string | null): SlackMessage {
  const notice = noticeOf(subject);
  const status = statusLabel(notice.status);
  const note = message?.trim() ?? '';
  return {
    text: note ? `${status}: ${note}` : status,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${status}*${note ? `\n${slackEscape(note)}` : ''}` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: byLine(subject) }] },
    ],
  };
}
