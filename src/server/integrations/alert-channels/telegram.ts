/**
 * Telegram through a bot (docs/decisions.md#alerts): the Bot API's sendMessage with HTML text (only `<`, `>` and `&`
 * to escape, unlike MarkdownV2's many), the links as an inline keyboard. Every answer is `{ ok, ... }`; a refusal
 * carries `error_code`, `description` and, on a flood wait, `parameters.retry_after` (seconds).
 * The bot token is in the request's path: no error leaves here with the address, or the token, in it.
 */
import type { AlertMessage } from '../../../domain/alerts.js';
import { DeliveryError, type ChannelSender } from './channel.js';
import {
  cut,
  isSent,
  numberAt,
  parseJson,
  postTo,
  REASON_LENGTH,
  retryAfterHeader,
  secondsToMs,
  stringAt,
  type VendorAnswer,
} from './vendor-http.js';

export interface TelegramConfig {
  bot_token: string;
  chat_id: string;
}

/** What Telegram's HTML mode asks escaped outside a tag. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A token as BotFather gives it (`123456:AA...`): anything else is refused before it could bend the path. */
const TOKEN_PATTERN = /^\d+:[\w-]+$/;
/** Telegram takes 4096 characters of text; the summary gives way. */
const SUMMARY_LENGTH = 3000;

export function telegramBody(config: TelegramConfig, message: AlertMessage) {
  const text = [
    `<b>${escapeHtml(cut(message.title, 256))}</b>`,
    escapeHtml(cut(message.summary, SUMMARY_LENGTH)),
    `${escapeHtml(message.service.name)} · ${escapeHtml(message.team.name)}`,
  ].join('\n');
  const buttons = [
    { text: 'Open alert', url: message.link },
    ...(message.acknowledgeLink ? [{ text: 'Acknowledge', url: message.acknowledgeLink }] : []),
  ];
  return {
    chat_id: config.chat_id,
    text,
    parse_mode: 'HTML',
    disable_web_page_preview: true,
    reply_markup: { inline_keyboard: [buttons] },
  };
}

/** Telegram's words, with the token taken out should they ever hold it. */
const withoutToken = (text: string, token: string): string => (token ? text.split(token).join('…') : text);

export const sendTelegram: ChannelSender<TelegramConfig> = async (config, message, send) => {
  const token = config.bot_token;
  if (!TOKEN_PATTERN.test(token)) throw new DeliveryError('The bot token is not one Telegram gives');
  let answer: VendorAnswer;
  try {
    answer = await postTo(
      `${send.urls.telegram}/bot${token}/sendMessage`,
      send,
      { 'content-type': 'application/json' },
      JSON.stringify(telegramBody(config, message)),
    );
  } catch (error) {
    // Still a network error to retry, but a new one: the cause may hold the address, so it is not kept.
    const code = typeof error === 'object' && error !== null && 'code' in error ? ` (${String(error.code)})` : '';
    const words = error instanceof Error ? withoutToken(error.message, token) : 'request failed';
    throw new Error(`The request to Telegram failed${code}: ${words}`);
  }
  if (!isSent(answer)) {
    const refused = parseJson(answer.text);
    const description = withoutToken(stringAt(refused, 'description') ?? `answered ${answer.status}`, token);
    throw new DeliveryError(
      cut(description, REASON_LENGTH),
      numberAt(refused, 'error_code') ?? answer.status,
      secondsToMs(numberAt(refused, 'parameters', 'retry_after')) ?? retryAfterHeader(answer, send.now),
    );
  }
  return { status: answer.status };
};
