import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PostedMessage {
  token: string;
  channel: string;
  text: string;
  blocks: unknown;
  at: number;
}

/**
 * A local stand-in for Slack's Web API and OAuth pages (DESIGN.md 11; notes/integrations.md 2), speaking the
 * protocol @slack/web-api speaks: form-encoded POSTs to /api/{method}, JSON answers with `ok`, 429 with
 * Retry-After. Failures on demand.
 */
export class SlackStandIn {
  readonly messages: PostedMessage[] = [];
  /** Every chat.postMessage attempt, answered or refused. */
  attempts = 0;
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

  /** The next chat.postMessage calls fail: with an HTTP status, a Slack error, or a 429 with Retry-After. */
  failNext(...failures: Array<{ status: number; error?: string; retryAfter?: number }>): void {
    this.failures.push(...failures);
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
    const url = new URL(request.url ?? '/', this.url);
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
    const form = new URLSearchParams(body);
    const json = (value: object, status = 200, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
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
        this.attempts++;
        const failure = this.failures.shift();
        if (failure?.retryAfter !== undefined)
          return json({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(failure.retryAfter) });
        if (failure) return failure.error ? json({ ok: false, error: failure.error }) : json({}, failure.status);
        if (!this.tokens.has(token)) return json({ ok: false, error: 'invalid_auth' });
        const channel = form.get('channel') ?? '';
        this.messages.push({
          token,
          channel,
          text: form.get('text') ?? '',
          blocks: JSON.parse(form.get('blocks') ?? 'null'),
          at: Date.now(),
        });
        return json({ ok: true, channel, ts: `${Date.now() / 1000}` });
      }
      default:
        return json({ ok: false, error: 'unknown_method' }, 404);
    }
  }
}
