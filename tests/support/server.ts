import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { startMailOutbox, type MailOutbox } from '../../src/server/jobs/mail-outbox.js';
import { createBetaKey } from '../../src/server/services/accounts/registration.js';
import { freshDatabase, type TestDatabase } from './database.js';
import { linkIn, MailCatcher } from './mail-catcher.js';

export const STRONG_PASSWORD = 'Str0ng-pass';

export interface TestServer {
  app: FastifyInstance;
  ctx: ServerContext;
  mail: MailCatcher;
  /** The mail outbox job, as `beacon serve` runs it; a test may replace it (close stops this one). */
  mailOutbox: MailOutbox;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh database (the engine the run was started for), mailing to a local SMTP server. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const database = await freshDatabase();
  const mail = new MailCatcher();
  const smtpUrl = await mail.start();
  const config = loadConfig({ ...database.env, BEACON_SMTP_URL: smtpUrl, PORT: '8080', ...env });
  const ctx = await createContext(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  const app = await buildApp(ctx);
  await app.ready();
  const server: TestServer = {
    app,
    ctx,
    mail,
    mailOutbox: startMailOutbox(ctx),
    database,
    async close() {
      await app.close();
      await server.mailOutbox.stop();
      await closeContext(ctx);
      await mail.close();
      await database.drop();
    },
  };
  return server;
}

/** Runs `fn` with the server's clock at `ms` (epoch), and puts the real clock back whatever happens. */
export async function atTime<T>(server: TestServer, ms: number, fn: () => Promise<T>): Promise<T> {
  const realNow = server.ctx.now;
  server.ctx.now = () => new Date(ms);
  try {
    return await fn();
  } finally {
    server.ctx.now = realNow;
  }
}

export const hostOf = (domain: string) => `${domain}.localhost:8080`;

export interface Member {
  domain: string;
  handle: string;
  email: string;
  password: string;
  token: string;
  cookie: string;
  id: string;
}

export function json<T = unknown>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

/** Logs in through the API and exchanges the session for a token. */
export async function loginAs(
  server: TestServer,
  domain: string,
  email: string,
  password = STRONG_PASSWORD,
): Promise<Omit<Member, 'handle' | 'id'> & { handle: string }> {
  const session = await server.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { host: hostOf(domain) },
    payload: { workspace: domain, login: email, password },
  });
  if (session.statusCode !== 200) throw new Error(`login failed: ${session.statusCode} ${session.body}`);
  const cookie = session.cookies.find((c) => c.name === 'beacon_session');
  if (!cookie) throw new Error('no session cookie');
  const token = await server.app.inject({
    method: 'POST',
    url: '/api/token',
    headers: { host: hostOf(domain) },
    cookies: { beacon_session: cookie.value },
    payload: { grant_type: 'session', workspace: domain },
  });
  if (token.statusCode !== 200) throw new Error(`token failed: ${token.statusCode} ${token.body}`);
  return {
    domain,
    email,
    password,
    handle: json<{ handle: string }>(session).handle,
    token: json<{ access_token: string }>(token).access_token,
    cookie: cookie.value,
  };
}

/** Registers a workspace through the API with a fresh beta key and logs its owner in. */
export async function registerWorkspace(
  server: TestServer,
  domain: string,
  handle = `${domain}-owner`,
): Promise<Member> {
  const email = `${handle}@${domain}.example`;
  const betaKey = await createBetaKey(server.ctx, email);
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/registration/register-workspace',
    payload: {
      beta_key: betaKey,
      owner: { email, name: `Owner of ${domain}`, handle, password: STRONG_PASSWORD },
      workspace: { name: `Workspace ${domain}`, domain },
    },
  });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const member = await loginAs(server, domain, email);
  const me = await server.app.inject({ method: 'GET', url: `/api/users/${handle}`, headers: authHeaders(member) });
  return { ...member, id: json<{ id: string }>(me).id };
}

/** Invites an email as `inviter`, joins through the mailed link, logs the new member in. */
export async function inviteAndJoin(server: TestServer, inviter: Member, handle: string): Promise<Member> {
  const email = `${handle}@${inviter.domain}.example`;
  const invite = await server.app.inject({
    method: 'POST',
    url: '/api/invites',
    headers: authHeaders(inviter),
    payload: { email },
  });
  if (invite.statusCode !== 201) throw new Error(`invite failed: ${invite.statusCode} ${invite.body}`);
  const mail = await server.mail.waitFor(email);
  const link = linkIn(mail, /http\S+\/invite\/\S+/);
  const joined = await server.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { host: hostOf(inviter.domain) },
    payload: {
      workspace: inviter.domain,
      invite: { id: link.pathname.split('/').pop(), code: link.searchParams.get('code') },
      user: { name: `User ${handle}`, handle, password: STRONG_PASSWORD },
    },
  });
  if (joined.statusCode !== 201) throw new Error(`join failed: ${joined.statusCode} ${joined.body}`);
  const member = await loginAs(server, inviter.domain, email);
  return { ...member, id: json<{ id: string }>(joined).id };
}

export function authHeaders(member: Pick<Member, 'domain' | 'token'>, domain = member.domain) {
  return { host: hostOf(domain), authorization: `Bearer ${member.token}` };
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A request as `actor`, on their workspace's host, with a JSON payload when given. */
export function callAs(
  server: TestServer,
  actor: Member,
  method: Method,
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) {
  return server.app.inject({
    method,
    url,
    headers: { ...authHeaders(actor), ...headers },
    ...(payload ? { payload } : {}),
  });
}
