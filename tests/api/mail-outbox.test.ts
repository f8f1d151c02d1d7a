/**
 * The mail outbox: requests queue mail and answer at once; the job sends it with retries and backoff, gives up
 * after a bounded number of attempts (logged, and shown by `beacon mail status`), writes .eml files when no
 * SMTP server is configured, and several processes on one database send each mail once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { enqueueMail, mailStatus } from '../../src/server/db/repositories/mail-outbox.js';
import { createMailer, outboxDirOf } from '../../src/server/integrations/smtp.js';
import { startMailOutbox, type MailOutboxOptions } from '../../src/server/jobs/mail-outbox.js';
import { TEST_ENGINE } from '../support/database.js';
import { linkIn, MailCatcher } from '../support/mail-catcher.js';
import { beacon, freePort } from '../support/processes.js';
import {
  authHeaders,
  hostOf,
  json,
  loginAs,
  registerWorkspace,
  startTestServer,
  STRONG_PASSWORD,
  type Member,
  type TestServer,
} from '../support/server.js';

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger that keeps its lines, to read what an operator would see. */
function capturingLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/** Replaces the server's mail job by one with these options (and logger); close() stops the new one. */
async function restartJob(server: TestServer, options: MailOutboxOptions, logger?: Logger) {
  await server.mailOutbox.stop();
  if (logger) server.ctx.logger = logger;
  server.mailOutbox = startMailOutbox(server.ctx, options);
}

const status = (ctx: ServerContext) =>
  mailStatus(ctx.database.db, new Date(Date.now() - 24 * 3600 * 1000).toISOString());

const invite = (server: TestServer, actor: Member, email: string) =>
  server.app.inject({ method: 'POST', url: '/api/invites', headers: authHeaders(actor), payload: { email } });

const forgot = (server: TestServer, domain: string, email: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/forgot-password',
    headers: { host: hostOf(domain) },
    payload: { workspace: domain, email },
  });

describe('with the SMTP server down', () => {
  let server: TestServer;
  let owner: Member;
  let smtpPort: number;
  const smtp = new MailCatcher();
  const { logger, lines } = capturingLogger('warn');

  beforeAll(async () => {
    smtpPort = await freePort();
    server = await startTestServer({ BEACON_SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true` });
    owner = await registerWorkspace(server, 'outco');
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('gives a mail up after the bounded attempts, with a warning per failure', async () => {
    await restartJob(server, { maxAttempts: 3, retryBaseMs: 20, retryMaxMs: 100 }, logger);
    const response = await invite(server, owner, 'never@example.com');
    expect(response.statusCode).toBe(201);
    await vi.waitFor(async () => expect((await status(server.ctx)).failedTotal).toBe(1), { timeout: 5000 });
    const failures = lines.filter((line) => line.to === 'never@example.com');
    expect(failures.map((line) => [line.level, line.msg, line.attempt])).toEqual([
      [40, 'mail failed; will retry', 1],
      [40, 'mail failed; will retry', 2],
      [40, 'mail failed; giving up', 3],
    ]);
    expect(failures[0]!.error).toMatch(/ECONNREFUSED/);
    const { failed } = await status(server.ctx);
    expect(failed[0]).toMatchObject({ recipient: 'never@example.com', attempts: 3 });
    expect(failed[0]!.last_error).toMatch(/ECONNREFUSED/);
  });

  it('answers invites, resends and reset requests at once, keeps retrying, and sends them when SMTP is back', async () => {
    await restartJob(server, { maxAttempts: 1000, retryBaseMs: 20, retryMaxMs: 100 });
    const created = await invite(server, owner, 'late@example.com');
    expect(created.statusCode).toBe(201);
    const resent = await invite(server, owner, 'again@example.com');
    const resend = await server.app.inject({
      method: 'POST',
      url: `/api/invites/${json<{ id: string }>(resent).id}/actions/resend`,
      headers: authHeaders(owner),
    });
    expect(resend.statusCode).toBe(200);
    expect((await forgot(server, 'outco', owner.email)).statusCode).toBe(200);
    // Retried with backoff while SMTP is away; the invites are kept meanwhile.
    await vi.waitFor(
      () => expect(lines.filter((line) => line.to === 'late@example.com').length).toBeGreaterThanOrEqual(2),
      { timeout: 5000 },
    );
    const pending = json<Array<{ email: string }>>(
      await server.app.inject({ method: 'GET', url: '/api/invites', headers: authHeaders(owner) }),
    );
    expect(pending.map((i) => i.email)).toEqual(expect.arrayContaining(['late@example.com', 'again@example.com']));

    await smtp.start(smtpPort);
    const mail = await smtp.waitFor('late@example.com');
    const link = linkIn(mail, /http\S+\/invite\/\S+/);
    const joined = await server.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { host: hostOf('outco') },
      payload: {
        workspace: 'outco',
        invite: { id: link.pathname.split('/').pop(), code: link.searchParams.get('code') },
        user: { name: 'Late', handle: 'late', password: STRONG_PASSWORD },
      },
    });
    expect(joined.statusCode).toBe(201);
    const reset = linkIn(await smtp.waitFor(owner.email), /http\S+\/reset-password\?key=\S+/);
    const done = await server.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      headers: { host: hostOf('outco') },
      payload: { key: reset.searchParams.get('key'), password: 'L8ter-pass' },
    });
    expect(done.statusCode).toBe(200);
    expect((await loginAs(server, 'outco', owner.email, 'L8ter-pass')).token).toBeTruthy();

    // The invite and its resend are both delivered (two mails), each once; the failed mail stays failed.
    await smtp.waitFor('again@example.com', (m) => smtp.mails.filter((n) => n.to === m.to).length === 2);
    await vi.waitFor(async () => expect((await status(server.ctx)).pending).toBe(0), { timeout: 5000 });
    await server.mailOutbox.idle();
    expect(smtp.mails.map((m) => m.to).sort()).toEqual(
      ['again@example.com', 'again@example.com', 'late@example.com', owner.email].sort(),
    );
    expect(await status(server.ctx)).toMatchObject({ pending: 0, failedTotal: 1, sentSince: 4 });
  });

  it('`beacon mail status` shows pending, failed with the last error, and sent in the last 24 h', async () => {
    const run = beacon(['mail', 'status'], server.database.env);
    expect(await run.exited).toBe(0);
    const output = run.output();
    expect(output).toMatch(/^pending: 0$/m);
    expect(output).toMatch(/^failed: 1$/m);
    expect(output).toMatch(/to never@example\.com .*3 attempts: .*ECONNREFUSED/);
    expect(output).toMatch(/^sent in the last 24 h: 4$/m);
  }, 30000);
});

describe('without an SMTP server', () => {
  let server: TestServer;
  let owner: Member;
  const { logger, lines } = capturingLogger('info');

  beforeAll(async () => {
    server = await startTestServer({ BEACON_SMTP_URL: '' });
    const original = server.ctx.mailer;
    server.ctx.mailer = createMailer({
      from: server.ctx.config.mailFrom,
      outboxDir: outboxDirOf(server.ctx.config.dataDir),
      logger,
    });
    original.close();
    await restartJob(server, {}, logger);
    owner = await registerWorkspace(server, 'fileco');
  });
  afterAll(() => server.close());

  /** The text of the newest .eml file whose text matches `pattern`, waiting for it. */
  async function outboxFile(pattern: RegExp): Promise<string> {
    const dir = outboxDirOf(server.ctx.config.dataDir);
    let text = '';
    await vi.waitFor(
      async () => {
        const files = (await readdir(dir).catch(() => [])).sort().reverse();
        for (const file of files) {
          const parsed = await simpleParser(await readFile(join(dir, file)));
          if (parsed.text && pattern.test(parsed.text)) {
            text = parsed.text;
            return;
          }
        }
        throw new Error(`no outbox file matching ${pattern}`);
      },
      { timeout: 5000 },
    );
    return text;
  }

  it('writes reset and invite mails as .eml files, says so once at start, and logs no link', async () => {
    expect((await invite(server, owner, 'filed@example.com')).statusCode).toBe(201);
    expect(await outboxFile(/\/invite\//)).toContain('http://fileco.localhost:8080/invite/');
    expect((await forgot(server, 'fileco', owner.email)).statusCode).toBe(200);
    const key = linkIn({ to: '', subject: '', text: await outboxFile(/reset-password/) }, /http\S+\?key=\S+/);
    const reset = await server.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      headers: { host: hostOf('fileco') },
      payload: { key: key.searchParams.get('key'), password: 'F1les-pass' },
    });
    expect(reset.statusCode).toBe(200);

    await server.mailOutbox.idle();
    const startLines = lines.filter((line) => /outbox files/.test(line.msg));
    expect(startLines).toHaveLength(1);
    expect(startLines[0]!.level).toBe(30);
    const written = lines.filter((line) => line.msg === 'mail written to the outbox');
    expect(written.map((line) => line.to)).toEqual(['filed@example.com', owner.email]);
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/reset-password|\/invite\/|key=|code=/);
  });
});

describe('several processes on one database', () => {
  let server: TestServer;
  let second: ServerContext;

  beforeAll(async () => {
    server = await startTestServer();
    // A second process's context on the same database (schema), mailing to the same SMTP server.
    const config = loadConfig({
      ...server.database.env,
      BEACON_SMTP_URL: `smtp://127.0.0.1:${server.mail.port}?ignoreTLS=true`,
      PORT: '8080',
    });
    second = await createContext(config, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await closeContext(second);
    await server.close();
  });

  it('send each queued mail exactly once between them', async () => {
    const sentBy = [0, 0];
    for (const [i, ctx] of [server.ctx, second].entries()) {
      const send = ctx.mailer.send.bind(ctx.mailer);
      ctx.mailer.send = async (mail) => {
        await send(mail);
        sentBy[i]! += 1;
      };
    }
    // Queued first (on SQLite a second connection in this process would wait on the open transaction
    // synchronously), then both jobs start together with small batches, so they claim often and at once.
    await server.mailOutbox.stop();
    const count = 60;
    await server.ctx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < count; i++) {
        await enqueueMail(trx, { kind: 'mail', recipient: `many-${i}@example.com`, subject: `Mail ${i}`, body: '.' });
      }
    });
    server.mailOutbox = startMailOutbox(server.ctx, { batchSize: 4 });
    const secondJob = startMailOutbox(second, { batchSize: 4 });
    try {
      await vi.waitFor(
        () => expect(server.mail.mails.filter((m) => m.to.startsWith('many-')).length).toBeGreaterThanOrEqual(count),
        { timeout: 15000, interval: 50 },
      );
    } finally {
      // Both stopped: a mail one of them was still sending would be counted now.
      await secondJob.stop();
      await server.mailOutbox.stop();
    }
    const received = server.mail.mails.map((m) => m.to).filter((to) => to.startsWith('many-'));
    expect(received).toHaveLength(count);
    expect(new Set(received).size).toBe(count);
    expect(sentBy[0]! + sentBy[1]!).toBe(count);
    expect(Math.min(...sentBy)).toBeGreaterThan(0);
    console.log(`${TEST_ENGINE}: mails sent by the first process ${sentBy[0]}, by the second ${sentBy[1]}`);
    expect(await status(server.ctx)).toMatchObject({ pending: 0, failedTotal: 0, sentSince: count });
  });
});
