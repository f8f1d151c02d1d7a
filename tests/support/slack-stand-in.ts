import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PostedMessage {
  token: string;
  channel: string;
  /** Slack's id of the message in its channel. */
  ts: string;
  /** The root message this one replies to (a thread), if any. */
  thread_ts?: string;
  text: string;
  blocks: unknown;
  attachments: Array<{ color?: string; fallback?: string; blocks?: unknown }> | null;
  at: number;
  /** The path prefix the call came through (a proxy's, e.g. `/second`), or ''; tells callers apart. */
  via: string;
  /** What chat.update changed, in order: the message shows the last. */
  edits: Array<{ text: string; blocks: unknown; attachments: PostedMessage['attachments']; at: number }>;
  deleted: boolean;
}

/**
 * A local stand-in for Slack's Web API and OAuth pages (DESIGN.md 11; notes/integrations.md 2), speaking the
 * protocol @slack/web-api speaks: POSTs to /api/{method} with a form-encoded body (or JSON with a bearer token),
 * JSON answers with `ok` (and `error` when not), 429 with Retry-After. chat.postMessage (with `thread_ts` for a
 * reply in a thread) and chat.update (`message_not_found` for a deleted or unknown message,
 * `cant_update_message` for another's). Failures on demand.
 */
export class SlackStandIn {
  /** Every message posted, roots and thread replies, in order. */
  readonly messages: PostedMessage[] = [];
  /** Every chat.postMessage and chat.update attempt, answered or refused. */
  attempts = 0;
  /** Successful chat.update calls. */
  updates = 0;
  private lastTs = 0;
  private server: Server | undefined;
  private readonly codes = new Map<string, { teamId: string; teamName: string; userId: string }>();
  private readonly tokens = new Set<string>();
  private failures: Array<{ status: number; error?: string; retryAfter?: number }> = [];
  url = '';

  /** A code Slack's redirect would carry, for this team and user. */
  issueCode(team = { id: 'T0001', name: 'Acme Slack' }, userId = 'U0001'): string {
    const code = `code-${randomBytes(6).toString('hex')}`;
    this.codes.set(code, { teamId: team.id, teamName: team.name, userId });
    return code;
  }

  /** The next chat.postMessage or chat.update calls fail: with an HTTP status, a Slack error, or a 429. */
  failNext(...failures: Array<{ status: number; error?: string; retryAfter?: number }>): void {
    this.failures.push(...failures);
  }

  /** Someone deletes a message in Slack. */
  deleteMessage(channel: string, ts: string): void {
    const message = this.find(channel, ts);
    if (!message) throw new Error(`no message ${ts} in ${channel}`);
    message.deleted = true;
  }

  /** The replies in a message's thread, in order. */
  threadOf(channel: string, ts: string): PostedMessage[] {
    return this.messages.filter((m) => m.channel === channel && m.thread_ts === ts);
  }

  private find(channel: string, ts: string): PostedMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  /** Slack's ts: seconds and a sequence, unique in a channel and increasing. */
  private nextTs(): string {
    this.lastTs = Math.max(this.lastTs + 1, Date.now() * 1000);
    return `${Math.floor(this.lastTs / 1_000_000)}.${String(this.lastTs % 1_000_000).padStart(6, '0')}`;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    const requested = new URL(request.url ?? '/', this.url);
    // A prefix before /api/ or /oauth/ (a proxy's path) is noted and set aside.
    const [, via = '', path = requested.pathname] = /^(\/[\w-]+)?(\/(?:api|oauth)\/.*)$/.exec(requested.pathname) ?? [];
    const url = new URL(path + requested.search, this.url);
    // The authorise page: Slack sends the browser straight back with a code (the user said yes).
    if (request.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', this.issueCode());
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    let body = '';
    for await (const chunk of request) body += chunk;
    // Slack takes arguments as a form (objects JSON-encoded in a field) or, with a bearer token, as JSON.
    const isJson = (request.headers['content-type'] ?? '').startsWith('application/json');
    const args: Record<string, unknown> = isJson
      ? (JSON.parse(body || '{}') as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(body));
    const form = { get: (name: string) => (typeof args[name] === 'string' ? (args[name] as string) : null) };
    const structured = (name: string) => {
      const value = args[name];
      return typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null);
    };
    const json = (value: object, status = 200, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '') || (form.get('token') ?? '');
    /** A planned failure of a chat call, answered; true when one was. */
    const failed = () => {
      this.attempts++;
      const failure = this.failures.shift();
      if (!failure) return false;
      if (failure.retryAfter !== undefined)
        json({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(failure.retryAfter) });
      else if (failure.error) json({ ok: false, error: failure.error });
      else json({}, failure.status);
      return true;
    };
    switch (url.pathname) {
      case '/api/oauth.v2.access': {
        const grant = this.codes.get(form.get('code') ?? '');
        if (!grant || form.get('client_id') !== 'beacon-client' || form.get('client_secret') !== 'beacon-secret')
          return json({ ok: false, error: 'invalid_code' });
        this.codes.delete(form.get('code')!);
        const accessToken = `xoxb-${randomBytes(8).toString('hex')}`;
        this.tokens.add(accessToken);
        return json({
          ok: true,
          access_token: accessToken,
          token_type: 'bot',
          scope: 'chat:write,chat:write.public,channels:read',
          bot_user_id: 'B0001',
          app_id: 'A0001',
          team: { id: grant.teamId, name: grant.teamName },
          enterprise: null,
          authed_user: { id: grant.userId },
        });
      }
      case '/api/auth.test':
        return this.tokens.has(token)
          ? json({ ok: true, team_id: 'T0001' })
          : json({ ok: false, error: 'invalid_auth' });
      case '/api/chat.postMessage': {
        if (failed()) return;
        if (!this.tokens.has(token)) return json({ ok: false, error: 'invalid_auth' });
        const channel = form.get('channel') ?? '';
        if (!channel) return json({ ok: false, error: 'channel_not_found' });
        const text = form.get('text') ?? '';
        const blocks = structured('blocks');
        const attachments = structured('attachments') as PostedMessage['attachments'];
        if (!text && !blocks && !attachments) return json({ ok: false, error: 'no_text' });
        const threadTs = form.get('thread_ts') ?? undefined;
        const ts = this.nextTs();
        const message: PostedMessage = {
          token,
          channel,
          ts,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          text,
          blocks,
          attachments,
          at: Date.now(),
          via,
          edits: [],
          deleted: false,
        };
        this.messages.push(message);
        return json({
          ok: true,
          channel,
          ts,
          message: { type: 'message', text, ts, ...(threadTs ? { thread_ts: threadTs } : {}), bot_id: 'B0001' },
        });
      }
      case '/api/chat.update': {
        if (failed()) return;
        if (!this.tokens.has(token)) return json({ ok: false, error: 'invalid_auth' });
        const channel = form.get('channel') ?? '';
        const ts = form.get('ts') ?? '';
        if (!channel) return json({ ok: false, error: 'channel_not_found' });
        const message = this.find(channel, ts);
        if (!message || message.deleted) return json({ ok: false, error: 'message_not_found' });
        if (message.token !== token) return json({ ok: false, error: 'cant_update_message' });
        const text = form.get('text') ?? message.text;
        const blocks = structured('blocks');
        const attachments = structured('attachments') as PostedMessage['attachments'];
        message.edits.push({ text, blocks, attachments, at: Date.now() });
        this.updates++;
        return json({ ok: true, channel, ts, text, message: { type: 'message', text, ts, bot_id: 'B0001' } });
      }
      default:
        return json({ ok: false, error: 'unknown_method' }, 404);
    }
  }
}
