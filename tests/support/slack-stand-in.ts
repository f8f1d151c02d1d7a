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
  /** The message metadata the post sent (`event_type`, `event_payload`), if any. */
  metadata: { event_type: string; event_payload: Record<string, unknown> } | null;
  at: number;
  /** The path prefix the call came through (a proxy's, e.g. `/second`), or ''; tells callers apart. */
  via: string;
  /** What chat.update changed, in order: the message shows the last. */
  edits: Array<{ text: string; blocks: unknown; attachments: PostedMessage['attachments']; at: number }>;
  deleted: boolean;
}

/**
 * A planned failure of a chat.postMessage or chat.update call (`method`: only that method's next call; else the
 * next of either): an HTTP status, a Slack error, a 429 with Retry-After; or `lost`: Slack does what was asked
 * (stores the message, applies the update) but the caller never hears it: `drop` closes the connection at once,
 * `hang` never answers (the client's timeout ends it), `late` answers after `afterMs`.
 */
export type PlannedFailure = {
  method?: 'chat.postMessage' | 'chat.update';
  status?: number;
  error?: string;
  retryAfter?: number;
  lost?: 'drop' | 'hang' | 'late';
  afterMs?: number;
};

/** A message as Slack's conversations.history and conversations.replies show it. */
interface ListedMessage {
  type: 'message';
  ts: string;
  text: string;
  user: string;
  bot_id: string;
  thread_ts?: string;
  reply_count?: number;
  metadata?: PostedMessage['metadata'];
}

/**
 * A local stand-in for Slack's Web API and OAuth pages (docs/decisions.md#integrations),
 * speaking the protocol @slack/web-api speaks: POSTs to /api/{method} with a form-encoded body (or JSON with a bearer
 * token), JSON answers with `ok` (and `error` when not), 429 with Retry-After. chat.postMessage (with `thread_ts` for a
 * reply in a thread, `metadata` kept) and chat.update (`message_not_found` for a deleted or unknown message,
 * `cant_update_message` for another's). conversations.history (a channel's top-level messages, newest first,
 * between `oldest` and `latest`) and conversations.replies (a thread: its root first, then the replies oldest
 * first; `thread_not_found`), both paged with `limit`, `has_more` and `response_metadata.next_cursor`, and
 * showing messages' metadata only with `include_all_metadata`. Failures on demand, answers lost on demand.
 */
export class SlackStandIn {
  /** Every message posted, roots and thread replies, in order. */
  readonly messages: PostedMessage[] = [];
  /** Every chat.postMessage and chat.update attempt, answered or refused. */
  attempts = 0;
  /** Every conversations.history and conversations.replies call, answered or refused. */
  lookups = 0;
  /** Successful chat.update calls. */
  updates = 0;
  private lastTs = 0;
  private server: Server | undefined;
  private readonly codes = new Map<string, { teamId: string; teamName: string; userId: string }>();
  private readonly tokens = new Set<string>();
  private failures: PlannedFailure[] = [];
  /** The error conversations.history and .replies answer while set (`missing_scope`, `not_in_channel`). */
  private lookupError: string | null = null;
  /** Requests left unanswered (`hang`), ended when the stand-in closes. */
  private readonly hanging = new Set<ServerResponse>();
  url = '';

  /** A code Slack's redirect would carry, for this team and user. */
  issueCode(team = { id: 'T0001', name: 'Acme Slack' }, userId = 'U0001'): string {
    const code = `code-${randomBytes(6).toString('hex')}`;
    this.codes.set(code, { teamId: team.id, teamName: team.name, userId });
    return code;
  }

  /**
   * The next chat.postMessage or chat.update calls fail: with an HTTP status, a Slack error, or a 429; or Slack
   * does what was asked and the answer is lost (PlannedFailure).
   */
  failNext(...failures: PlannedFailure[]): void {
    this.failures.push(...failures);
  }

  /**
   * conversations.history and conversations.replies answer this Slack error (`missing_scope`: a workspace
   * linked before the app asked for the history scopes; `not_in_channel`) until called again with null.
   */
  failLookups(error: string | null): void {
    this.lookupError = error;
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
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** A message as the conversations methods list it (metadata only when asked for). */
  private listed(message: PostedMessage, withMetadata: boolean): ListedMessage {
    const replies = this.threadOf(message.channel, message.ts).filter((m) => !m.deleted).length;
    const threadTs = message.thread_ts ?? (replies > 0 ? message.ts : undefined);
    return {
      type: 'message',
      ts: message.ts,
      text: message.edits.at(-1)?.text ?? message.text,
      user: 'U0BOT',
      bot_id: 'B0001',
      ...(threadTs ? { thread_ts: threadTs } : {}),
      ...(replies > 0 && !message.thread_ts ? { reply_count: replies } : {}),
      ...(withMetadata && message.metadata ? { metadata: message.metadata } : {}),
    };
  }

  /**
   * A page of `messages` (in the order they are listed) after the cursor's ts, as Slack pages: `limit` (default
   * 100, at most 999), `has_more`, and a `next_cursor` (base64 of `next_ts:<ts of the next message>`).
   */
  private page(messages: PostedMessage[], limitArg: string | null, cursor: string | null, withMetadata: boolean) {
    const limit = Math.min(999, Math.max(1, Number(limitArg) || 100));
    let start = 0;
    if (cursor) {
      const nextTs = /^next_ts:(.+)$/.exec(Buffer.from(cursor, 'base64').toString())?.[1];
      start = messages.findIndex((m) => m.ts === nextTs);
      if (start < 0) return { ok: false, error: 'invalid_cursor' };
    }
    const shown = messages.slice(start, start + limit);
    const next = messages[start + limit];
    return {
      ok: true,
      messages: shown.map((m) => this.listed(m, withMetadata)),
      has_more: next !== undefined,
      ...(next ? { response_metadata: { next_cursor: Buffer.from(`next_ts:${next.ts}`).toString('base64') } } : {}),
    };
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
    /**
     * A planned failure of a chat call: answered (true) when Slack refuses; a lost answer is kept in `lost` for
     * `answer` to lose once the call did what it asked.
     */
    let lost: PlannedFailure | undefined;
    const failed = (method: NonNullable<PlannedFailure['method']>) => {
      this.attempts++;
      const index = this.failures.findIndex((f) => !f.method || f.method === method);
      if (index < 0) return false;
      const [failure] = this.failures.splice(index, 1) as [PlannedFailure];
      if (failure.lost) {
        lost = failure;
        return false;
      }
      if (failure.retryAfter !== undefined)
        json({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(failure.retryAfter) });
      else if (failure.error) json({ ok: false, error: failure.error });
      else json({}, failure.status ?? 500);
      return true;
    };
    /** The answer of a chat call that did its work: sent, or lost as planned. */
    const answer = (value: object) => {
      if (!lost) return json(value);
      if (lost.lost === 'drop') return request.socket.destroy();
      if (lost.lost === 'hang') {
        this.hanging.add(response);
        response.on('close', () => this.hanging.delete(response));
        return;
      }
      setTimeout(() => {
        if (!response.destroyed) json(value);
      }, lost.afterMs ?? 0);
    };
    /** A conversations.* call: counted, and refused while lookups fail. */
    const lookupRefused = () => {
      this.lookups++;
      if (this.lookupError)
        return json({
          ok: false,
          error: this.lookupError,
          ...(this.lookupError === 'missing_scope'
            ? { needed: 'channels:history', provided: 'chat:write,chat:write.public,channels:read' }
            : {}),
        });
      if (!this.tokens.has(token)) return json({ ok: false, error: 'invalid_auth' });
      return undefined;
    };
    const flag = (name: string) => args[name] === true || form.get(name) === 'true' || form.get(name) === '1';
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
          scope: 'chat:write,chat:write.public,channels:read,channels:history,groups:history',
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
        if (failed('chat.postMessage')) return;
        if (!this.tokens.has(token)) return json({ ok: false, error: 'invalid_auth' });
        const channel = form.get('channel') ?? '';
        if (!channel) return json({ ok: false, error: 'channel_not_found' });
        const text = form.get('text') ?? '';
        const blocks = structured('blocks');
        const attachments = structured('attachments') as PostedMessage['attachments'];
        const metadata = structured('metadata') as PostedMessage['metadata'];
        if (!text && !blocks && !attachments) return json({ ok: false, error: 'no_text' });
        if (metadata && (typeof metadata.event_type !== 'string' || typeof metadata.event_payload !== 'object'))
          return json({ ok: false, error: 'invalid_metadata_format' });
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
          metadata,
          at: Date.now(),
          via,
          edits: [],
          deleted: false,
        };
        this.messages.push(message);
        return answer({
          ok: true,
          channel,
          ts,
          message: { type: 'message', text, ts, ...(threadTs ? { thread_ts: threadTs } : {}), bot_id: 'B0001' },
        });
      }
      case '/api/chat.update': {
        if (failed('chat.update')) return;
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
        // Metadata left out of an update is kept (Slack's chat.update).
        const metadata = structured('metadata') as PostedMessage['metadata'];
        if (metadata) message.metadata = metadata;
        message.edits.push({ text, blocks, attachments, at: Date.now() });
        this.updates++;
        return answer({ ok: true, channel, ts, text, message: { type: 'message', text, ts, bot_id: 'B0001' } });
      }
      case '/api/conversations.history': {
        if (lookupRefused()) return;
        const channel = form.get('channel') ?? '';
        if (!channel || !this.messages.some((m) => m.channel === channel))
          return json({ ok: false, error: 'channel_not_found' });
        // Between `oldest` and `latest` (now), each excluded unless `inclusive`; the channel's own messages, not
        // replies in threads; newest first.
        const oldest = Number(form.get('oldest') ?? 0);
        const latest = form.get('latest') ? Number(form.get('latest')) : Infinity;
        const inclusive = flag('inclusive');
        const messages = this.messages
          .filter((m) => m.channel === channel && !m.thread_ts && !m.deleted)
          .filter((m) => {
            const at = Number(m.ts);
            return inclusive ? at >= oldest && at <= latest : at > oldest && at < latest;
          })
          .reverse();
        return json(this.page(messages, form.get('limit'), form.get('cursor'), flag('include_all_metadata')));
      }
      case '/api/conversations.replies': {
        if (lookupRefused()) return;
        const channel = form.get('channel') ?? '';
        const ts = form.get('ts') ?? '';
        if (!channel || !this.messages.some((m) => m.channel === channel))
          return json({ ok: false, error: 'channel_not_found' });
        if (!ts) return json({ ok: false, error: 'invalid_arguments' });
        const root = this.find(channel, ts);
        if (!root || root.deleted) return json({ ok: false, error: 'thread_not_found' });
        // The thread's root first, then its replies oldest first.
        const messages = [root, ...this.threadOf(channel, ts).filter((m) => !m.deleted)];
        return json(this.page(messages, form.get('limit'), form.get('cursor'), flag('include_all_metadata')));
      }
      default:
        return json({ ok: false, error: 'unknown_method' }, 404);
    }
  }
}
