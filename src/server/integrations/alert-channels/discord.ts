/**
 * Discord through a channel's webhook (docs/decisions.md#alerts): one embed coloured by severity, within Discord's
 * limits (a title of 256 characters, a description of 4096, a field's value 1024, 6000 in all), so a long summary is
 * cut rather than refused. `?wait=true` makes Discord answer once the message is posted (200 with it) instead of
 * 204 before, so a refusal is seen. A 429 says how long to wait in its body (`retry_after`, float seconds).
 */
import type { AlertMessage } from '../../../domain/alerts.js';
import type { ChannelSender } from './channel.js';
import { cut, isSent, numberAt, parseJson, postTo, refusal, secondsToMs, stringAt, valueAt } from './vendor-http.js';

export interface DiscordConfig {
  url: string;
}

const COLORS = { critical: 0xe01e5a, error: 0xe8912d, warning: 0xecb22e, resolve: 0x2eb886, info: 0x1d9bd1 };

function colorOf(message: AlertMessage): number {
  if (message.action === 'resolve') return COLORS.resolve;
  if (message.action === 'acknowledge' || message.action === 'test') return COLORS.info;
  return COLORS[message.severity];
}

const TITLE_LENGTH = 256;
const DESCRIPTION_LENGTH = 4096;
const FIELD_LENGTH = 1024;
const EMBED_LENGTH = 6000;
const CONTENT_LENGTH = 2000;

const length = (text: string): number => Array.from(text).length;

export function discordBody(message: AlertMessage) {
  const title = cut(message.title, TITLE_LENGTH);
  const fields = [
    { name: 'Service', value: message.service.name },
    { name: 'Team', value: message.team.name },
    { name: 'Severity', value: message.severity },
  ].map((field) => ({ ...field, value: cut(field.value || '-', FIELD_LENGTH), inline: true }));
  // What is left of the embed's 6000 after the title and fields goes to the description.
  const used = length(title) + fields.reduce((sum, field) => sum + length(field.name) + length(field.value), 0);
  const description = cut(message.summary, Math.min(DESCRIPTION_LENGTH, EMBED_LENGTH - used));
  return {
    content: cut(message.title, CONTENT_LENGTH),
    embeds: [
      {
        title,
        // Discord refuses an empty description rather than leaving it out.
        ...(description ? { description } : {}),
        url: message.link,
        color: colorOf(message),
        fields,
        timestamp: message.at,
      },
    ],
  };
}

/** `?wait=true` added to the webhook's address, keeping a query it has (`?thread_id=`). */
function waitUrl(url: string): URL {
  const target = new URL(url);
  target.searchParams.set('wait', 'true');
  return target;
}

/** Discord's "Invalid Form Body" says where in `errors`: { embeds: { 0: { title: { _errors: [{ message }] } } } }. */
function formErrors(errors: unknown): string[] {
  if (typeof errors !== 'object' || errors === null) return [];
  return Object.entries(errors).flatMap(([key, value]) =>
    key === '_errors' && Array.isArray(value)
      ? value.flatMap((error) => stringAt(error, 'message') ?? [])
      : formErrors(value),
  );
}

export const sendDiscord: ChannelSender<DiscordConfig> = async (config, message, send) => {
  const answer = await postTo(
    waitUrl(config.url),
    send,
    { 'content-type': 'application/json' },
    JSON.stringify(discordBody(message)),
  );
  if (!isSent(answer)) {
    const refused = parseJson(answer.text);
    const words = [stringAt(refused, 'message'), ...formErrors(valueAt(refused, 'errors'))].filter(Boolean);
    throw refusal(answer, send, words.join(': '), secondsToMs(numberAt(refused, 'retry_after')));
  }
  return { status: answer.status };
};
