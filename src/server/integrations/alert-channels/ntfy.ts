/**
 * ntfy (docs/decisions.md#alerts), on ntfy.sh or a server of the team's own: the summary is the body, everything
 * else a header (Title, Priority, Tags, Click, Actions), and a protected topic takes a bearer token. Headers are
 * ASCII, so a title that is not is sent as an RFC 2047 encoded word, which ntfy decodes.
 */
import type { AlertAction, AlertMessage, AlertSeverity } from '../../../domain/alerts.js';
import type { ChannelSender } from './channel.js';
import { cut, isSent, parseJson, postTo, refusal, stringAt } from './vendor-http.js';

export interface NtfyConfig {
  url: string;
  topic: string;
  token?: string;
}

type Told = Exclude<AlertAction, 'trigger' | 'raise'>;

const PRIORITY_OF_SEVERITY: Record<AlertSeverity, number> = { critical: 5, error: 4, warning: 3 };
const PRIORITY_OF_ACTION: Record<Told, number> = { acknowledge: 2, resolve: 2, test: 3 };
/** ntfy shows a tag that is an emoji's short code as the emoji, before the title. */
const TAG_OF_SEVERITY: Record<AlertSeverity, string> = {
  critical: 'rotating_light',
  error: 'red_circle',
  warning: 'warning',
};
const TAG_OF_ACTION: Record<Told, string> = { acknowledge: 'eyes', resolve: 'white_check_mark', test: 'test_tube' };

const isTold = (action: AlertAction): action is Told => action !== 'trigger' && action !== 'raise';

/** ntfy's messages are 4096 bytes at most (more becomes an attachment, which a server may not take). */
const MESSAGE_BYTES = 4096;

/** A header's value as is when it is printable ASCII, else as one `=?UTF-8?B?...?=` encoded word. */
export function headerWord(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** ntfy's short action format splits on `,` and `;`: a value holding either is quoted. */
const actionValue = (value: string): string => (/[,;"]/.test(value) ? `'${value.replace(/'/g, '%27')}'` : value);

function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let kept = '';
  let bytes = 0;
  for (const point of text) {
    bytes += Buffer.byteLength(point, 'utf8');
    // Room for the ellipsis (3 bytes).
    if (bytes > max - 3) break;
    kept += point;
  }
  return `${kept}…`;
}

export function ntfyHeaders(config: NtfyConfig, message: AlertMessage): Record<string, string> {
  const actions = [`view, Open alert, ${actionValue(message.link)}`];
  if (message.acknowledgeLink) actions.push(`view, Acknowledge, ${actionValue(message.acknowledgeLink)}`);
  const { action, severity } = message;
  return {
    'content-type': 'text/plain; charset=utf-8',
    title: headerWord(cut(message.title, 256)),
    priority: String(isTold(action) ? PRIORITY_OF_ACTION[action] : PRIORITY_OF_SEVERITY[severity]),
    tags: [isTold(action) ? TAG_OF_ACTION[action] : TAG_OF_SEVERITY[severity], message.service.handle].join(','),
    click: message.link,
    actions: actions.join('; '),
    ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
  };
}

export const sendNtfy: ChannelSender<NtfyConfig> = async (config, message, send) => {
  const answer = await postTo(
    `${config.url.replace(/\/+$/, '')}/${encodeURIComponent(config.topic)}`,
    send,
    ntfyHeaders(config, message),
    cutBytes(message.summary, MESSAGE_BYTES),
  );
  // ntfy's refusal: { code, http, error, link }.
  if (!isSent(answer)) throw refusal(answer, send, stringAt(parseJson(answer.text), 'error'));
  return { status: answer.status };
};
