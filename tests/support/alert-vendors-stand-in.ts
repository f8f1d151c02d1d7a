import { randomUUID } from 'node:crypto';
import {
  createServer,
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type AlertVendor = 'webhook' | 'teams' | 'discord' | 'telegram' | 'ntfy' | 'pagerduty' | 'opsgenie';

export interface ReceivedRequest {
  vendor: AlertVendor;
  /** The path and query as sent (a Telegram token and all). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON when it is JSON, else its text. */
  body: unknown;
  /** The body as sent (what a signature signs). */
  raw: string;
  at: number;
}

/** A planned answer to a vendor's next request: its status, a Retry-After, and a body (else the vendor's own). */
export interface PlannedAnswer {
  status: number;
  retryAfterSeconds?: number;
  body?: unknown;
}

export interface OpsgenieAlert {
  id: string;
  alias: string;
  region: 'us' | 'eu';
  message: string;
  priority: string;
  status: 'open' | 'acked' | 'closed';
  /** How many creates Opsgenie folded into this alert (its alias was open). */
  count: number;
  body: Record<string, unknown>;
  /** Who acknowledged or closed it, and their notes, in order. */
  actions: Array<{ action: 'acknowledge' | 'close'; user?: string; note?: string; source?: string }>;
}

export interface PagerDutyIncident {
  dedupKey: string;
  routingKey: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  /** The last trigger's payload. */
  payload: Record<string, unknown>;
  /** Every event on this dedup key, in order. */
  events: string[];
}

export interface NtfyAction {
  action: string;
  label: string;
  url?: string;
  clear?: boolean;
}

export interface NtfyMessage {
  id: string;
  topic: string;
  /** Decoded as ntfy decodes it (RFC 2047 encoded words). */
  title?: string;
  priority: number;
  tags: string[];
  click?: string;
  actions: NtfyAction[];
  message: string;
}

export interface TelegramMessage {
  message_id: number;
  token: string;
  chat_id: string | number;
  /** The HTML as sent. */
  html: string;
  /** The text as Telegram shows it (tags out, entities decoded). */
  text: string;
  reply_markup?: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const length = (value: unknown): number => Array.from(textOf(value)).length;

/** The tags Telegram's HTML takes (a subset is enough: what a sender should use). */
const TELEGRAM_TAGS = ['b', 'strong', 'i', 'em', 'u', 's', 'a', 'code', 'pre'];
const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'];
const NTFY_PRIORITIES: Record<string, number> = { min: 1, low: 2, default: 3, high: 4, max: 5, urgent: 5 };

/**
 * A local stand-in for the alert channels' vendors (docs/decisions.md#alerts), one server with each at its own path
 * prefix, checking what it receives as the vendor does and answering as it does:
 *
 * - `/hooks/{name}`: a plain webhook receiver, 200.
 * - `/teams/{name}`: a Teams Workflows webhook: a message with one Adaptive Card 1.4 attachment, 202; else 400.
 * - `/discord/{id}/{token}`: a Discord webhook: embeds within Discord's limits; 200 with the message when
 *   `wait=true`, else 204; 400 "Invalid Form Body" with `errors` by field.
 * - `/telegram/bot{token}/sendMessage`: the Bot API: a registered token (`telegramTokens`), a chat, HTML Telegram
 *   parses (every `<` a tag it knows, every `&` an entity, tags closed in order).
 * - `/ntfy/{topic}`: ntfy: headers read as ntfy reads them, a protected topic (`ntfyProtect`) wanting its bearer.
 * - `/pagerduty/v2/enqueue`: Events API v2, validated as PagerDuty does; incidents kept by dedup key.
 * - `/opsgenie/v2/alerts...` (and `/opsgenie-eu/`): Alert API with a registered GenieKey (`opsgenieKeys`); alerts
 *   kept by alias with their status.
 *
 * Every request is kept in `received`; `failNext` plans a vendor's next answer (a 429 with Retry-After and the
 * vendor's own hint in its body where it gives one).
 */
export class AlertVendorsStandIn {
  readonly received: ReceivedRequest[] = [];
  readonly opsgenieKeys = new Set<string>();
  readonly telegramTokens = new Set<string>();
  /** Opsgenie's alerts by alias (the latest with that alias). */
  readonly opsgenieAlerts = new Map<string, OpsgenieAlert>();
  readonly pagerdutyIncidents = new Map<string, PagerDutyIncident>();
  readonly ntfyMessages: NtfyMessage[] = [];
  readonly telegramMessages: TelegramMessage[] = [];
  /** Discord's messages as posted (`content`, `embeds`), with the webhook's id. */
  readonly discordMessages: Array<{ id: string; webhookId: string; body: Json }> = [];
  readonly teamsCards: Json[] = [];
  private readonly ntfyTokens = new Map<string, string>();
  private readonly planned = new Map<AlertVendor, PlannedAnswer[]>();
  private server: Server | undefined;
  private sequence = 0;
  url = '';

  /** The next request to `vendor` is answered so (then it answers as ever). */
  failNext(vendor: AlertVendor, answer: PlannedAnswer): void {
    this.planned.set(vendor, [...(this.planned.get(vendor) ?? []), answer]);
  }

  /** The topic takes only messages with `Authorization: Bearer {token}`. */
  ntfyProtect(topic: string, token: string): void {
    this.ntfyTokens.set(topic, token);
  }

  /** The requests one vendor received, in order. */
  receivedBy(vendor: AlertVendor): ReceivedRequest[] {
    return this.received.filter((request) => request.vendor === vendor);
  }

  /** The vendor bases a SendContext's `urls` takes. */
  get vendorUrls() {
    return {
      pagerduty: `${this.url}/pagerduty`,
      opsgenie: { us: `${this.url}/opsgenie`, eu: `${this.url}/opsgenie-eu` },
      telegram: `${this.url}/telegram`,
    };
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const [, prefix = '', rest = ''] = /^\/([\w-]+)(\/.*)?$/.exec(url.pathname) ?? [];
    const vendor = VENDOR_OF_PREFIX[prefix];
    let text = '';
    for await (const chunk of request) text += chunk;
    const isJson = (request.headers['content-type'] ?? '').startsWith('application/json');
    const body = isJson ? parseOr(text, text) : text;
    const answer = new Answer(response);
    if (!vendor) return answer.json(404, { message: 'Not Found' });
    this.received.push({ vendor, path: request.url ?? '/', headers: request.headers, body, raw: text, at: Date.now() });
    const plan = this.planned.get(vendor)?.shift();
    if (plan) return this.answerPlanned(vendor, plan, answer);
    if (request.method !== 'POST') return answer.json(405, { message: 'Method Not Allowed' });
    switch (vendor) {
      case 'webhook':
        return answer.text(200, 'ok');
      case 'teams':
        return this.teams(body, answer);
      case 'discord':
        return this.discord(rest, url.searchParams, body, answer);
      case 'telegram':
        return this.telegram(rest, body, answer);
      case 'ntfy':
        return this.ntfy(rest, request.headers, text, answer);
      case 'pagerduty':
        return rest === '/v2/enqueue' ? this.pagerduty(body, answer) : answer.json(404, { message: 'Not Found' });
      case 'opsgenie':
        return this.opsgenie(prefix === 'opsgenie-eu' ? 'eu' : 'us', rest, url.searchParams, request, body, answer);
    }
  }

  private answerPlanned(vendor: AlertVendor, plan: PlannedAnswer, answer: Answer): void {
    const seconds = plan.retryAfterSeconds;
    const headers: Record<string, string> = seconds === undefined ? {} : { 'retry-after': String(Math.ceil(seconds)) };
    const words = plan.status === 429 ? 'Too Many Requests' : (STATUS_CODES[plan.status] ?? 'Error');
    const body = plan.body ?? defaultFailure(vendor, plan.status, words, seconds);
    if (typeof body === 'string') return answer.text(plan.status, body, headers);
    answer.json(plan.status, body, headers);
  }

  private teams(body: unknown, answer: Answer): void {
    const refuse = (details: string) =>
      answer.json(400, {
        error: {
          code: 'TriggerInputSchemaMismatch',
          message: `The input body for trigger 'manual' of type 'Request' did not match its schema definition. Error details: '${details}'.`,
        },
      });
    if (!isObject(body) || body.type !== 'message') return refuse("Invalid type. Expected 'message'");
    const attachments = body.attachments;
    if (!Array.isArray(attachments) || attachments.length !== 1) return refuse('Expected one attachment');
    const [attachment] = attachments as unknown[];
    if (!isObject(attachment) || attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
      return refuse('The attachment is not an adaptive card');
    const card = attachment.content;
    if (!isObject(card) || card.type !== 'AdaptiveCard' || card.version !== '1.4' || !Array.isArray(card.body))
      return refuse('The card is not an AdaptiveCard of version 1.4 with a body');
    this.teamsCards.push(card);
    answer.text(202, '');
  }

  private discord(rest: string, query: URLSearchParams, body: unknown, answer: Answer): void {
    const [, webhookId = ''] = /^\/(\d+)\/[\w-]+$/.exec(rest) ?? [];
    if (!webhookId) return answer.json(404, { message: 'Unknown Webhook', code: 10015 });
    if (!isObject(body)) return answer.json(400, { message: 'Cannot send an empty message', code: 50006 });
    const errors = discordFormErrors(body);
    if (errors) return answer.json(400, { message: 'Invalid Form Body', code: 50035, errors });
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if (!textOf(body.content) && embeds.length === 0)
      return answer.json(400, { message: 'Cannot send an empty message', code: 50006 });
    const id = String(1_200_000_000_000_000_000n + BigInt(++this.sequence));
    this.discordMessages.push({ id, webhookId, body });
    if (query.get('wait') !== 'true') return answer.text(204, '');
    answer.json(200, {
      id,
      type: 0,
      content: textOf(body.content),
      embeds,
      channel_id: '1100000000000000001',
      webhook_id: webhookId,
      timestamp: new Date().toISOString(),
    });
  }

  private telegram(rest: string, body: unknown, answer: Answer): void {
    const refuse = (status: number, description: string) =>
      answer.json(status, { ok: false, error_code: status, description });
    const [, token = '', method = ''] = /^\/bot([^/]+)\/(\w+)$/.exec(rest) ?? [];
    if (!token) return refuse(404, 'Not Found');
    if (!this.telegramTokens.has(token)) return refuse(401, 'Unauthorized');
    if (method !== 'sendMessage') return refuse(404, 'Not Found: method not found');
    const args = isObject(body) ? body : {};
    const chatId = args.chat_id;
    if ((typeof chatId !== 'string' && typeof chatId !== 'number') || chatId === '')
      return refuse(400, 'Bad Request: chat not found');
    const html = textOf(args.text);
    if (!html.trim()) return refuse(400, 'Bad Request: message text is empty');
    if (args.parse_mode === 'HTML') {
      const problem = telegramHtmlProblem(html);
      if (problem) return refuse(400, `Bad Request: can't parse entities: ${problem}`);
    }
    const text = args.parse_mode === 'HTML' ? telegramShown(html) : html;
    if (Array.from(text).length > 4096) return refuse(400, 'Bad Request: message is too long');
    const markup = args.reply_markup;
    if (markup !== undefined && !inlineKeyboardOk(markup))
      return refuse(400, 'Bad Request: inline keyboard button URL is invalid');
    const message: TelegramMessage = {
      message_id: ++this.sequence,
      token,
      chat_id: chatId,
      html,
      text,
      ...(markup === undefined ? {} : { reply_markup: markup }),
    };
    this.telegramMessages.push(message);
    answer.json(200, {
      ok: true,
      result: {
        message_id: message.message_id,
        from: { id: Number(token.split(':')[0]), is_bot: true, first_name: 'Beacon' },
        chat: { id: chatId, type: 'group' },
        date: Math.floor(Date.now() / 1000),
        text,
      },
    });
  }

  private ntfy(rest: string, headers: IncomingHttpHeaders, text: string, answer: Answer): void {
    const refuse = (status: number, code: number, error: string) => answer.json(status, { code, http: status, error });
    const topic = decodeURIComponent(rest.replace(/^\//, ''));
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic)) return refuse(400, 40009, 'invalid request: topic invalid');
    const protectedBy = this.ntfyTokens.get(topic);
    if (protectedBy !== undefined) {
      const authorization = headers.authorization;
      if (!authorization) return refuse(403, 40301, 'forbidden');
      if (authorization !== `Bearer ${protectedBy}`) return refuse(401, 40101, 'unauthorized');
    }
    const header = (...names: string[]) => {
      for (const name of names) {
        const value = headers[name];
        if (typeof value === 'string') return value;
      }
      return undefined;
    };
    const rawPriority = header('x-priority', 'priority', 'prio', 'p');
    const priority = rawPriority === undefined ? 3 : (NTFY_PRIORITIES[rawPriority] ?? Number(rawPriority));
    if (!Number.isInteger(priority) || priority < 1 || priority > 5) return refuse(400, 40007, 'invalid priority');
    const rawActions = header('x-actions', 'actions', 'action');
    const actions = rawActions === undefined ? [] : ntfyActions(rawActions);
    if (!actions) return refuse(400, 40018, 'invalid request: actions invalid');
    if (actions.length > 3) return refuse(400, 40018, 'invalid request: too many actions');
    const title = header('x-title', 'title', 'ti', 't');
    const tags = header('x-tags', 'tags', 'tag', 'ta');
    const click = header('x-click', 'click');
    const message: NtfyMessage = {
      id: randomUUID().replace(/-/g, '').slice(0, 12),
      topic,
      ...(title === undefined ? {} : { title: decodeWords(title) }),
      priority,
      tags: tags === undefined ? [] : tags.split(',').map((tag) => tag.trim()),
      ...(click === undefined ? {} : { click }),
      actions,
      message: text || 'triggered',
    };
    this.ntfyMessages.push(message);
    const time = Math.floor(Date.now() / 1000);
    answer.json(200, { ...message, time, expires: time + 43_200, event: 'message' });
  }

  private pagerduty(body: unknown, answer: Answer): void {
    const event = isObject(body) ? body : {};
    const errors: string[] = [];
    const routingKey = textOf(event.routing_key);
    if (!routingKey) errors.push("'routing_key' is missing or blank");
    else if (routingKey.length !== 32) errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
    const action = textOf(event.event_action);
    if (!['trigger', 'acknowledge', 'resolve'].includes(action))
      errors.push("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')");
    const dedupKey = textOf(event.dedup_key);
    if (dedupKey.length > 255) errors.push("'dedup_key' is too long (must be at most 255 characters)");
    if (action !== 'trigger' && !dedupKey) errors.push("'dedup_key' is missing or blank");
    const payload = event.payload;
    if (action === 'trigger') {
      if (!isObject(payload)) errors.push("'payload' is missing or blank");
      else {
        if (!textOf(payload.summary)) errors.push("'payload.summary' is missing or blank");
        if (!textOf(payload.source)) errors.push("'payload.source' is missing or blank");
        if (!PAGERDUTY_SEVERITIES.includes(textOf(payload.severity)))
          errors.push(
            "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
          );
      }
    }
    if (errors.length > 0)
      return answer.json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
    const key = dedupKey || randomUUID().replace(/-/g, '');
    const incident = this.pagerdutyIncidents.get(key);
    if (action === 'trigger' && isObject(payload)) {
      // A trigger on a resolved incident's key opens a new one.
      if (!incident || incident.status === 'resolved')
        this.pagerdutyIncidents.set(key, { dedupKey: key, routingKey, status: 'triggered', payload, events: [action] });
      else {
        incident.payload = payload;
        incident.events.push(action);
      }
    } else if (incident && incident.status !== 'resolved') {
      incident.status = action === 'acknowledge' ? 'acknowledged' : 'resolved';
      incident.events.push(action);
    }
    answer.json(202, { status: 'success', message: 'Event processed', dedup_key: key });
  }

  private opsgenie(
    region: 'us' | 'eu',
    rest: string,
    query: URLSearchParams,
    request: IncomingMessage,
    body: unknown,
    answer: Answer,
  ): void {
    const requestId = randomUUID();
    const reply = (status: number, value: Json) => answer.json(status, { ...value, took: 0.01, requestId });
    const key = /^GenieKey (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!key || !this.opsgenieKeys.has(key)) return reply(401, { message: 'Key format is not valid!' });
    const args = isObject(body) ? body : {};
    if (rest === '/v2/alerts') {
      const message = textOf(args.message);
      if (!message.trim())
        return reply(422, {
          message: 'Request body is not processable. Please check the errors.',
          errors: { message: 'Message can not be empty.' },
        });
      const priority = args.priority === undefined ? 'P3' : textOf(args.priority);
      if (!/^P[1-5]$/.test(priority))
        return reply(422, {
          message: 'Request body is not processable. Please check the errors.',
          errors: { priority: 'Priority should be one of [P1, P2, P3, P4, P5]' },
        });
      const alias = textOf(args.alias) || randomUUID();
      const open = this.opsgenieAlerts.get(alias);
      // An alias with an alert not yet closed folds the create into it (Opsgenie's deduplication).
      if (open && open.status !== 'closed') open.count += 1;
      else
        this.opsgenieAlerts.set(alias, {
          id: randomUUID(),
          alias,
          region,
          message: Array.from(message).slice(0, 130).join(''),
          priority,
          status: 'open',
          count: 1,
          body: args,
          actions: [],
        });
      return reply(202, { result: 'Request will be processed' });
    }
    const [, identifier = '', action = ''] = /^\/v2\/alerts\/([^/]+)\/(acknowledge|close)$/.exec(rest) ?? [];
    if (!identifier) return reply(404, { message: 'Not Found' });
    const identifierType = query.get('identifierType') ?? 'id';
    if (!['id', 'alias', 'tiny'].includes(identifierType))
      return reply(422, { message: `Invalid identifier type: ${identifierType}` });
    const name = decodeURIComponent(identifier);
    const alert =
      identifierType === 'alias'
        ? this.opsgenieAlerts.get(name)
        : [...this.opsgenieAlerts.values()].find((one) => one.id === name);
    // Opsgenie takes the request and fails it later when there is no such alert: still 202.
    if (alert && alert.status !== 'closed') {
      alert.status = action === 'acknowledge' ? 'acked' : 'closed';
      alert.actions.push({
        action: action === 'acknowledge' ? 'acknowledge' : 'close',
        ...(typeof args.user === 'string' ? { user: args.user } : {}),
        ...(typeof args.note === 'string' ? { note: args.note } : {}),
        ...(typeof args.source === 'string' ? { source: args.source } : {}),
      });
    }
    reply(202, { result: 'Request will be processed' });
  }
}

const VENDOR_OF_PREFIX: Record<string, AlertVendor | undefined> = {
  hooks: 'webhook',
  teams: 'teams',
  discord: 'discord',
  telegram: 'telegram',
  ntfy: 'ntfy',
  pagerduty: 'pagerduty',
  opsgenie: 'opsgenie',
  'opsgenie-eu': 'opsgenie',
};

class Answer {
  constructor(private readonly response: ServerResponse) {}

  json(status: number, value: unknown, headers: Record<string, string> = {}): void {
    this.response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  }

  text(status: number, value: string, headers: Record<string, string> = {}): void {
    this.response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(value);
  }
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Each vendor's own shape of a refusal, with its wait where it says one in the body. */
function defaultFailure(vendor: AlertVendor, status: number, words: string, seconds: number | undefined): unknown {
  switch (vendor) {
    case 'webhook':
      return words;
    case 'teams':
      return { error: { code: status === 429 ? 'TooManyRequests' : 'Failed', message: words } };
    case 'discord':
      return status === 429
        ? { message: 'You are being rate limited.', retry_after: seconds ?? 1, global: false }
        : { message: words, code: 0 };
    case 'telegram':
      return {
        ok: false,
        error_code: status,
        description: status === 429 ? `Too Many Requests: retry after ${seconds ?? 1}` : words,
        ...(seconds === undefined ? {} : { parameters: { retry_after: seconds } }),
      };
    case 'ntfy':
      return {
        code: status * 100 + 1,
        http: status,
        error: status === 429 ? 'limit reached: too many requests' : words,
      };
    case 'pagerduty':
      return status === 429
        ? {
            status: 'throttle event',
            message: 'Requests for this service are arriving too quickly. Please retry later.',
          }
        : { status: 'error', message: words };
    case 'opsgenie':
      return {
        message: status === 429 ? 'You are making too many requests!' : words,
        took: 0.01,
        requestId: randomUUID(),
      };
  }
}

/** Discord's "Invalid Form Body" errors (by field, `_errors` at the leaves), or null when the body is within limits. */
function discordFormErrors(body: Json): Json | null {
  const errors: Json = {};
  const fail = (at: string[], code: string, message: string) => {
    let node = errors;
    for (const key of at) node = (node[key] ??= {}) as Json;
    node._errors = [{ code, message }];
  };
  const max = (at: string[], value: unknown, limit: number) => {
    if (length(value) > limit) fail(at, 'BASE_TYPE_MAX_LENGTH', `Must be ${limit} or fewer in length.`);
  };
  max(['content'], body.content, 2000);
  const embeds = body.embeds;
  if (embeds !== undefined && !Array.isArray(embeds))
    fail(['embeds'], 'LIST_TYPE_CONVERT', 'Only iterables may be used');
  const list: unknown[] = Array.isArray(embeds) ? embeds : [];
  if (list.length > 10) fail(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let total = 0;
  list.forEach((embed, index) => {
    const at = ['embeds', String(index)];
    if (!isObject(embed)) return fail(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    max([...at, 'title'], embed.title, 256);
    max([...at, 'description'], embed.description, 4096);
    const color = embed.color;
    if (color !== undefined && (!Number.isInteger(color) || (color as number) < 0 || (color as number) > 0xffffff))
      fail([...at, 'color'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.');
    const fields: unknown[] = Array.isArray(embed.fields) ? embed.fields : [];
    if (fields.length > 25) fail([...at, 'fields'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    fields.forEach((field, fieldIndex) => {
      const fieldAt = [...at, 'fields', String(fieldIndex)];
      const name = isObject(field) ? field.name : undefined;
      const value = isObject(field) ? field.value : undefined;
      if (!length(name)) fail([...fieldAt, 'name'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (!length(value)) fail([...fieldAt, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
      max([...fieldAt, 'name'], name, 256);
      max([...fieldAt, 'value'], value, 1024);
      total += length(name) + length(value);
    });
    const footer = isObject(embed.footer) ? embed.footer.text : undefined;
    const author = isObject(embed.author) ? embed.author.name : undefined;
    total += length(embed.title) + length(embed.description) + length(footer) + length(author);
  });
  if (total > 6000) fail(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Why Telegram would not parse this HTML, or null: a `<` not starting a tag it knows, a bare `&`, a tag left open. */
function telegramHtmlProblem(html: string): string | null {
  const open: string[] = [];
  const offset = (index: number) => Buffer.byteLength(html.slice(0, index), 'utf8');
  for (let index = 0; index < html.length; index++) {
    const char = html[index];
    if (char === '&') {
      if (!/^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.test(html.slice(index, index + 12)))
        return `Character entity expected at byte offset ${offset(index)}`;
    } else if (char === '<') {
      const tag = /^<(\/?)([a-z-]*)(\s[^<>]*)?>/i.exec(html.slice(index));
      if (!tag) return `Unclosed start tag at byte offset ${offset(index)}`;
      const [whole, closing, name = ''] = tag;
      const lower = name.toLowerCase();
      if (!TELEGRAM_TAGS.includes(lower)) return `Unsupported start tag "${lower}" at byte offset ${offset(index)}`;
      if (closing) {
        if (open.pop() !== lower) return `Unmatched end tag at byte offset ${offset(index)}, expected "</${lower}>"`;
      } else open.push(lower);
      index += whole.length - 1;
    }
  }
  return open.length > 0 ? `Can't find end tag corresponding to start tag "${open.at(-1)}"` : null;
}

/** The text Telegram shows for HTML it parsed: tags out, entities decoded. */
function telegramShown(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** An inline keyboard: rows of buttons, each with text and an http(s) url (or another kind Telegram knows). */
function inlineKeyboardOk(markup: unknown): boolean {
  if (!isObject(markup)) return false;
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows)) return false;
  return rows.every(
    (row) =>
      Array.isArray(row) &&
      row.every(
        (button) =>
          isObject(button) &&
          textOf(button.text) !== '' &&
          (button.url === undefined || /^https?:\/\/\S+$/.test(textOf(button.url))),
      ),
  );
}

/** A header as ntfy decodes it: RFC 2047 encoded words (base64 or Q) joined, anything else as is. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/**
 * Splits on `separator` outside quotes, keeping them. As in ntfy, a quote opens only at the start of a value (after
 * a `,` or `;`), so an apostrophe inside a word is just a character. Null when a quote is left open.
 */
function splitOutsideQuotes(text: string, separator: string): string[] | null {
  const parts: string[] = [];
  let part = '';
  let value = '';
  let quote: string | null = null;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = null;
    } else if ((char === '"' || char === "'") && value.trim() === '') quote = char;
    else if (char === separator) {
      parts.push(part);
      part = value = '';
      continue;
    } else if (char === ',' || char === ';') value = '';
    part += char;
    if (char !== ',' && char !== ';') value += char;
  }
  if (quote) return null;
  parts.push(part);
  return parts;
}

const unquote = (part: string): string => {
  const trimmed = part.trim();
  return /^(['"])[\s\S]*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
};

/** ntfy's short action format: `action, label, url[, key=value...]; ...`, or null when it would refuse it. */
function ntfyActions(header: string): NtfyAction[] | null {
  const definitions = splitOutsideQuotes(header, ';');
  if (!definitions) return null;
  const actions: NtfyAction[] = [];
  for (const definition of definitions.filter((part) => part.trim() !== '')) {
    const parts = splitOutsideQuotes(definition, ',');
    if (!parts) return null;
    const [action = '', label = '', ...rest] = parts.map(unquote);
    if (!['view', 'broadcast', 'http'].includes(action) || !label) return null;
    const params = rest.filter((part) => /^\w+=/.test(part) && !/^\w+:\/\//.test(part));
    const url = rest.find((part) => !params.includes(part));
    if (action !== 'broadcast' && !url) return null;
    actions.push({
      action,
      label,
      ...(url ? { url } : {}),
      ...(params.includes('clear=true') ? { clear: true } : {}),
    });
  }
  return actions;
}
