import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxLoop } from '../../src/server/jobs/outbox-loop.js';
import { startMaintenanceReminders } from '../../src/server/jobs/maintenance-reminders.js';
import { startWebhookOutbox } from '../../src/server/jobs/webhook-outbox.js';
import { createService, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { linkIn } from '../support/mail-catcher.js';
import { callAs, hostOf, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';

/**
 * Issue 27: subscriptions with no account. Email is double opt-in with a one-click unsubscribe page; webhooks
 * are signed; a subscription to a component follows what it depends on when asked; each event is told once.
 * Private webhook targets are allowed here (the receiver is on loopback); status-pages.test.ts checks the refusal.
 */
let server: TestServer;
let cast: SeededWorkspace;
let alice: Member;
let webhooks: OutboxLoop;
let receiver: Server;
let receiverUrl = '';
const received: { body: string; signature: string; delivery: string }[] = [];

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const visit = (url: string, options: { method?: 'GET' | 'POST'; payload?: object | string; form?: boolean } = {}) =>
  server.app.inject({
    method: options.method ?? 'GET',
    url,
    headers: {
      host: hostOf('subsco'),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
const notice = (service: string, title: string) =>
  call(alice, 'POST', `/api/services/${service}/notices`, { type: 'incident', title, message: `${title}: looking` });
/** Every queued mail sent: what was not sent by now never will be. */
const mailSettled = async () => {
  server.mailOutbox.wake();
  await server.mailOutbox.idle();
};
const mailsTo = (address: string) => server.mail.mails.filter((mail) => mail.to.includes(address));

beforeAll(async () => {
  server = await startTestServer({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  cast = await seedWorkspace(server, { domain: 'subsco', outsiderDomain: 'subsother' });
  alice = cast.teamAdmin;
  const team = cast.team.handle;
  for (const [name, handle] of [
    ['Checkout', 'checkout'],
    ['Payments', 'payments'],
    ['Database', 'database'],
    ['Search', 'search'],
  ]) {
    await createService(server, alice, team, { name: name!, handle: handle! });
  }
  await call(alice, 'POST', '/api/services/checkout/dependencies', { service: { id: 'payments' } });
  await call(alice, 'POST', '/api/services/payments/dependencies', { service: { id: 'database' } });
  const page = await call(cast.admin, 'POST', '/api/status-pages', {
    handle: 'public',
    title: 'Subs status',
    groups: [{ name: 'Shop', services: ['checkout', 'search'] }],
  });
  expect(page.statusCode).toBe(201);
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        body,
        signature: String(request.headers['x-beacon-signature']),
        delivery: String(request.headers['x-beacon-delivery']),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/beacon`;
  webhooks = startWebhookOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50 });
});
afterAll(async () => {
  await webhooks?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  await server.close();
});

describe('email subscriptions', () => {
  it('sends nothing but the confirmation until its link is opened, then every notice, until unsubscribed', async () => {
    const subscribed = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { email: 'Fan@Example.com' },
    });
    expect(subscribed.statusCode).toBe(201);
    expect(json(subscribed)).toMatchObject({ kind: 'email', confirmed: false });
    const confirmation = await server.mail.waitFor('fan@example.com', (mail) => mail.subject.includes('Confirm'));
    await notice('checkout', 'Before confirming');
    await mailSettled();
    expect(mailsTo('fan@example.com').map((mail) => mail.subject)).toEqual([
      'Confirm your subscription to Subs status',
    ]);

    const link = linkIn(confirmation, /http\S+\/subscriptions\/confirm\?token=\S+/);
    const confirmed = await visit(`${link.pathname}${link.search}`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Subscription confirmed');
    expect((await visit('/status/public/subscriptions/confirm?token=forged')).statusCode).toBe(400);

    await notice('checkout', 'Card payments failing');
    const told = await server.mail.waitFor('fan@example.com', (mail) => mail.subject.includes('Card payments failing'));
    expect(told.subject).toBe('[Subs status] Incident: Card payments failing (investigating)');
    expect(told.text).toContain('Card payments failing: looking');
    const unsubscribeLink = linkIn(told, /http\S+\/unsubscribe\?token=\S+/);

    // A notice of a service the page does not show is not told to a whole-page subscriber.
    await notice('database', 'Disk full');
    await mailSettled();
    expect(mailsTo('fan@example.com').some((mail) => mail.subject.includes('Disk full'))).toBe(false);

    // The link opens a page with one button (a mail scanner following links unsubscribes no one).
    const page = await visit(`${unsubscribeLink.pathname}${unsubscribeLink.search}`);
    expect(page.statusCode).toBe(200);
    const token = unsubscribeLink.searchParams.get('token')!;
    expect(page.body).toContain(token);
    const done = await visit('/api/status/public/unsubscribe', {
      method: 'POST',
      form: true,
      payload: `token=${encodeURIComponent(token)}`,
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Unsubscribed');
    const before = mailsTo('fan@example.com').length;
    await notice('checkout', 'After leaving');
    await mailSettled();
    expect(mailsTo('fan@example.com')).toHaveLength(before);
  });

  it("takes the page's own form, with no script", async () => {
    const page = await visit('/status/public');
    expect(page.body).toContain('action="/api/status/public/subscriptions"');
    const posted = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      form: true,
      payload: 'email=form%40example.com',
    });
    expect(posted.statusCode).toBe(201);
    expect(posted.body).toContain('Check your inbox');
    await server.mail.waitFor('form@example.com', (mail) => mail.subject.includes('Confirm'));
    const bad = await visit('/api/status/public/subscriptions', { method: 'POST', form: true, payload: 'email=' });
    expect(bad.statusCode).toBe(400);
  });

  it('follows what a component depends on when asked, and only then', async () => {
    for (const [email, include_upstream] of [
      ['deep@example.com', true],
      ['shallow@example.com', false],
    ] as const) {
      const subscribed = await visit('/api/status/public/subscriptions', {
        method: 'POST',
        payload: { email, components: ['checkout'], include_upstream },
      });
      expect(subscribed.statusCode).toBe(201);
      const mail = await server.mail.waitFor(email);
      const link = linkIn(mail, /http\S+\/subscriptions\/confirm\?token=\S+/);
      expect((await visit(`${link.pathname}${link.search}`)).statusCode).toBe(200);
    }
    // database is two steps up from checkout, and not on the page.
    await notice('database', 'Replica lag');
    const deep = await server.mail.waitFor('deep@example.com', (mail) => mail.subject.includes('Replica lag'));
    expect(deep.text).toContain('which a component you follow depends on');
    // search is on the page, but neither follows it.
    await notice('search', 'Index stale');
    await mailSettled();
    expect(mailsTo('shallow@example.com').some((mail) => /Replica lag|Index stale/.test(mail.subject))).toBe(false);
    expect(mailsTo('deep@example.com').some((mail) => mail.subject.includes('Index stale'))).toBe(false);
    const refused = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { email: 'x@example.com', components: ['database'] },
    });
    expect(refused.statusCode).toBe(400);
  });
});

describe('webhook subscriptions', () => {
  it('delivers each notice event once, signed with the secret answered at subscribing', async () => {
    const subscribed = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { webhook_url: receiverUrl, components: ['search'] },
    });
    expect(subscribed.statusCode).toBe(201);
    const { secret } = json<{ secret: string }>(subscribed);
    expect(secret).toMatch(/^whsec_/);
    const created = await notice('search', 'Search slow');
    const id = json<{ id: string }>(created).id;
    await call(alice, 'PATCH', `/api/notices/${id}`, { status: 'resolved', message: 'Fast again', health: 'good' });
    await until(async () => received.length >= 2);
    for (const delivery of received) {
      const [t, v1] = delivery.signature.split(',').map((part) => part.split('=')[1]!);
      expect(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex')).toBe(v1);
    }
    const bodies = received.map(
      (delivery) => JSON.parse(delivery.body) as { type: string; notice: { status: string } },
    );
    expect(bodies.map((body) => [body.type, body.notice.status])).toEqual([
      ['notice.created', 'investigating'],
      ['notice.updated', 'resolved'],
    ]);
    // Nothing more comes: each event once.
    webhooks.wake();
    await webhooks.idle();
    expect(received).toHaveLength(2);
  });

  it('lets admins list and remove subscribers', async () => {
    const listed = json<{ id: string; kind: string; address: string; confirmed: boolean }[]>(
      await call(cast.admin, 'GET', '/api/status-pages/public/subscribers'),
    );
    expect(listed.map((subscriber) => [subscriber.kind, subscriber.address, subscriber.confirmed])).toEqual([
      ['email', 'form@example.com', false],
      ['email', 'deep@example.com', true],
      ['email', 'shallow@example.com', true],
      ['webhook', receiverUrl, true],
    ]);
    expect((await call(alice, 'GET', '/api/status-pages/public/subscribers')).statusCode).toBe(403);
    const webhook = listed.find((subscriber) => subscriber.kind === 'webhook')!;
    expect((await call(cast.admin, 'DELETE', `/api/status-pages/public/subscribers/${webhook.id}`)).statusCode).toBe(
      204,
    );
    await notice('search', 'Gone quiet');
    webhooks.wake();
    await webhooks.idle();
    expect(received).toHaveLength(2);
  });
});

describe('maintenance windows', () => {
  it('tells an hour before, at the start and at the end, each once', async () => {
    const subscribed = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { email: 'ops@example.com' },
    });
    expect(subscribed.statusCode).toBe(201);
    const confirmation = await server.mail.waitFor('ops@example.com');
    const link = linkIn(confirmation, /http\S+\/subscriptions\/confirm\?token=\S+/);
    expect((await visit(`${link.pathname}${link.search}`)).statusCode).toBe(200);

    const realNow = server.ctx.now;
    const start = Date.now() + 30 * 60_000;
    const created = await call(alice, 'POST', '/api/services/checkout/notices', {
      type: 'maintenance',
      title: 'Database upgrade',
      message: 'Planned',
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 60 * 60_000).toISOString(),
    });
    expect(created.statusCode).toBe(201);
    // The window's own announcement goes out through the fan-out; wait for it so the reminder's order is fixed.
    await mailSettled();
    const reminders = startMaintenanceReminders(server.ctx, { pollMs: 3_600_000 });
    const subjects = async () => {
      await reminders.run();
      await reminders.run();
      await mailSettled();
      return mailsTo('ops@example.com')
        .map((mail) => mail.subject)
        .filter((subject) => subject.includes('Database upgrade'));
    };
    try {
      expect(await subjects()).toEqual([
        '[Subs status] Maintenance: Database upgrade (scheduled)',
        '[Subs status] Maintenance: Database upgrade (starts within the hour)',
      ]);
      server.ctx.now = () => new Date(start + 60_000);
      expect((await subjects()).slice(2)).toEqual(['[Subs status] Maintenance: Database upgrade (starting now)']);
      server.ctx.now = () => new Date(start + 61 * 60_000);
      expect((await subjects()).slice(3)).toEqual(['[Subs status] Maintenance: Database upgrade (window over)']);
    } finally {
      server.ctx.now = realNow;
      reminders.stop();
    }
  });

  it('tells a short window’s start and end each at its time, though both fall between two of the job’s looks', async () => {
    const subscribed = await visit('/api/status/public/subscriptions', {
      method: 'POST',
      payload: { webhook_url: `${receiverUrl}?short` },
    });
    expect(subscribed.statusCode).toBe(201);
    const subscription = json<{ id: string }>(subscribed).id;
    // The job as it runs in `beacon serve`: a look a minute, and at each moment it knows of.
    const reminders = startMaintenanceReminders(server.ctx);
    try {
      const start = Date.now() + 3_000;
      const end = start + 4_000;
      const created = await call(alice, 'POST', '/api/services/checkout/notices', {
        type: 'maintenance',
        title: 'Quick failover',
        message: 'Planned',
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(end).toISOString(),
      });
      expect(created.statusCode).toBe(201);
      const { id } = json<{ id: string }>(created);
      /** When the moment was told (seen within 100 ms), failing 10 s after it is due: far less than a minute. */
      const toldAt = (stage: string, due: number) =>
        until(
          async () => {
            const row = await server.ctx.database.db
              .selectFrom('status_notified')
              .select('created_at')
              .where('subscription_id', '=', subscription)
              .where('event_key', '=', `${id}:${stage}`)
              .executeTakeFirst();
            return row && Date.parse(row.created_at);
          },
          due + 10_000 - Date.now(),
        );
      const started = await toldAt('start', start);
      const ended = await toldAt('end', end);
      expect(started).toBeGreaterThanOrEqual(start);
      expect(started).toBeLessThan(end);
      expect(ended).toBeGreaterThanOrEqual(end);
      expect(ended - end).toBeLessThan(60_000);
    } finally {
      reminders.stop();
    }
  });
});
