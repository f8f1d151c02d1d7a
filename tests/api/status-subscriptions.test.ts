import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxLoop } from '../../src/server/jobs/outbox-loop.js';
import { startMaintenanceReminders } from '../../src/server/jobs/maintenance-reminders.js';
import { startStatusNews } from '../../src/server/jobs/status-news.js';
import { startWebhookOutbox } from '../../src/server/jobs/webhook-outbox.js';
import { STREAMS_PER_ADDRESS } from '../../src/server/services/status-pages/status-live.js';
import { createService, seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { linkIn, type CaughtMail } from '../support/mail-catcher.js';
import {
  atTime,
  callAs,
  hostOf,
  json,
  startTestServer,
  type Member,
  type Method,
  type TestServer,
} from '../support/server.js';
import { until } from '../support/until.js';

/**
 * Issues 27 and 48: subscriptions with no account. Email is double opt-in (the link's page has a Confirm button)
 * with a one-click unsubscribe page; webhooks are signed; a subscription to a component follows what it depends on
 * when asked, as the page tells it; each event is told once, after the notice was written (jobs/status-news.ts),
 * and only while the page is public; an address, a page and the event streams have limits. Private webhook
 * targets are allowed here (the receiver is on loopback); status-pages.test.ts checks the refusal.
 */
const STREAMS_MAX = 25;
let server: TestServer;
let cast: SeededWorkspace;
let alice: Member;
let news: OutboxLoop;
let webhooks: OutboxLoop;
let receiver: Server;
let receiverUrl = '';
const received: { body: string; signature: string; delivery: string }[] = [];

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const visit = (
  url: string,
  options: { method?: 'GET' | 'POST'; payload?: object | string; form?: boolean; from?: string } = {},
) =>
  server.app.inject({
    method: options.method ?? 'GET',
    url,
    headers: {
      host: hostOf('subsco'),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
    ...(options.from ? { remoteAddress: options.from } : {}),
  });
let asks = 0;
/** Each from an address of its own unless told: the per-address rate limit is status-pages.test.ts's. */
const subscribeTo = (page: string, payload: object, from = `10.1.${Math.floor(++asks / 250)}.${asks % 250}`) =>
  visit(`/api/status/${page}/subscriptions`, { method: 'POST', payload, from });
const notice = (service: string, title: string, health?: string) =>
  call(alice, 'POST', `/api/services/${service}/notices`, {
    type: 'incident',
    title,
    message: `${title}: looking`,
    ...(health ? { health } : {}),
  });
/** Every event told and every mail sent: what was not sent by now never will be. */
const settled = async () => {
  news.wake();
  await news.idle();
  server.mailOutbox.wake();
  await server.mailOutbox.idle();
  webhooks.wake();
  await webhooks.idle();
};
const mailsTo = (address: string) => server.mail.mails.filter((mail) => mail.to.includes(address));
const subscribers = async (page: string) =>
  json<{ id: string; kind: string; address: string; confirmed: boolean }[]>(
    await call(cast.admin, 'GET', `/api/status-pages/${page}/subscribers`),
  );
const confirmationLink = (mail: CaughtMail) => linkIn(mail, /http\S+\/subscriptions\/confirm\?token=\S+/);
/** Opens the confirmation link and presses its button, as a person does. */
async function confirm(mail: CaughtMail) {
  const link = confirmationLink(mail);
  expect((await visit(`${link.pathname}${link.search}`)).statusCode).toBe(200);
  const page = link.pathname.split('/')[2]!;
  const token = link.searchParams.get('token')!;
  return visit(`/api/status/${page}/subscriptions/confirm`, {
    method: 'POST',
    form: true,
    payload: `token=${encodeURIComponent(token)}`,
  });
}
/** Subscribes an email to `page` and confirms it. */
async function subscribed(page: string, email: string, payload: object = {}) {
  expect((await subscribeTo(page, { email, ...payload })).statusCode).toBe(201);
  const mail = await server.mail.waitFor(email, (caught) => caught.subject.startsWith('Confirm'));
  expect((await confirm(mail)).statusCode).toBe(200);
}
const deliveriesOf = (page: string) =>
  received
    .map((delivery) => JSON.parse(delivery.body) as { page: { handle: string }; [key: string]: unknown })
    .filter((body) => body.page.handle === page);

beforeAll(async () => {
  server = await startTestServer({
    BEACON_ALLOW_PRIVATE_TARGETS: '1',
    // The stream limits are per address: the tests name theirs in X-Forwarded-For.
    BEACON_TRUST_PROXY: '1',
    BEACON_STATUS_STREAMS_MAX: String(STREAMS_MAX),
  });
  cast = await seedWorkspace(server, { domain: 'subsco', outsiderDomain: 'subsother' });
  alice = cast.teamAdmin;
  const team = cast.team.handle;
  for (const [name, handle, visibility] of [
    ['Checkout', 'checkout'],
    ['Payments', 'payments'],
    ['Database', 'database'],
    ['Search', 'search'],
    ['Billing', 'billing'],
    ['Ledger', 'ledger', 'owner'],
    ['Bank', 'bank'],
  ] as const) {
    await createService(server, alice, team, { name, handle, ...(visibility ? { visibility } : {}) });
  }
  // checkout -> payments -> database, and checkout -> ledger (owner-only) -> bank.
  for (const [from, to] of [
    ['checkout', 'payments'],
    ['payments', 'database'],
    ['checkout', 'ledger'],
    ['ledger', 'bank'],
  ]) {
    await call(alice, 'POST', `/api/services/${from}/dependencies`, { service: { id: to } });
  }
  const page = await call(cast.admin, 'POST', '/api/status-pages', {
    handle: 'public',
    title: 'Subs status',
    groups: [{ name: 'Shop', services: ['checkout', 'search'] }],
  });
  expect(page.statusCode).toBe(201);
  receiver = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
    incoming.on('end', () => {
      received.push({
        body,
        signature: String(incoming.headers['x-beacon-signature']),
        delivery: String(incoming.headers['x-beacon-delivery']),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/beacon`;
  news = startStatusNews(server.ctx, { pollMs: 100 });
  webhooks = startWebhookOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50 });
});
afterAll(async () => {
  await news?.stop();
  await webhooks?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  await server.close();
});

describe('email subscriptions', () => {
  it('sends nothing but the confirmation until its button is pressed, then every notice, until unsubscribed', async () => {
    const subscribedNow = await subscribeTo('public', { email: 'Fan@Example.com' });
    expect(subscribedNow.statusCode).toBe(201);
    expect(json(subscribedNow)).toMatchObject({ kind: 'email', confirmed: false });
    const confirmation = await server.mail.waitFor('fan@example.com', (mail) => mail.subject.includes('Confirm'));

    // Opening the link (as a mail scanner does) shows a button and confirms nothing.
    const link = confirmationLink(confirmation);
    const opened = await visit(`${link.pathname}${link.search}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('action="/api/status/public/subscriptions/confirm"');
    expect(opened.body).toContain(link.searchParams.get('token'));
    expect((await subscribers('public')).find((s) => s.address === 'fan@example.com')?.confirmed).toBe(false);
    await notice('checkout', 'Before confirming');
    await settled();
    expect(mailsTo('fan@example.com').map((mail) => mail.subject)).toEqual([
      'Confirm your subscription to Subs status',
    ]);

    const token = link.searchParams.get('token')!;
    const pressed = await visit('/api/status/public/subscriptions/confirm', {
      method: 'POST',
      form: true,
      payload: `token=${encodeURIComponent(token)}`,
    });
    expect(pressed.statusCode).toBe(200);
    expect(pressed.body).toContain('Subscription confirmed');
    expect((await subscribers('public')).find((s) => s.address === 'fan@example.com')?.confirmed).toBe(true);
    expect((await visit('/status/public/subscriptions/confirm?token=forged')).statusCode).toBe(400);
    const forged = await visit('/api/status/public/subscriptions/confirm', { method: 'POST', payload: { token: 'x' } });
    expect(forged.statusCode).toBe(404);

    await notice('checkout', 'Card payments failing');
    const told = await server.mail.waitFor('fan@example.com', (mail) => mail.subject.includes('Card payments failing'));
    expect(told.subject).toBe('[Subs status] Incident: Card payments failing (investigating)');
    expect(told.text).toContain('Card payments failing: looking');
    const unsubscribeLink = linkIn(told, /http\S+\/unsubscribe\?token=\S+/);

    // A notice of a service the page does not show is not told to a whole-page subscriber.
    await notice('database', 'Disk full');
    await settled();
    expect(mailsTo('fan@example.com').some((mail) => mail.subject.includes('Disk full'))).toBe(false);

    // The link opens a page with one button (a mail scanner following links unsubscribes no one).
    const page = await visit(`${unsubscribeLink.pathname}${unsubscribeLink.search}`);
    expect(page.statusCode).toBe(200);
    const unsubscribeToken = unsubscribeLink.searchParams.get('token')!;
    expect(page.body).toContain(unsubscribeToken);
    const done = await visit('/api/status/public/unsubscribe', {
      method: 'POST',
      form: true,
      payload: `token=${encodeURIComponent(unsubscribeToken)}`,
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Unsubscribed');
    const before = mailsTo('fan@example.com').length;
    await notice('checkout', 'After leaving');
    await settled();
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

  it('follows what a component depends on when asked, telling only its name and status', async () => {
    await subscribed('public', 'deep@example.com', { components: ['checkout'], include_upstream: true });
    await subscribed('public', 'shallow@example.com', { components: ['checkout'], include_upstream: false });
    // database is two steps up from checkout, and not on the page: its notice's title and text stay unsaid.
    await notice('database', 'Replica lag', 'warning');
    const deep = await server.mail.waitFor('deep@example.com', (mail) => mail.subject.includes('Database'));
    expect(deep.subject).toBe('[Subs status] Database, which Checkout depends on: Degraded performance');
    expect(deep.text).toContain('Database, which Checkout depends on, is now: Degraded performance.');
    expect(`${deep.subject}${deep.text}`).not.toMatch(/Replica lag|looking|incidents\//);
    // search is on the page, but neither follows it.
    await notice('search', 'Index stale');
    await settled();
    expect(mailsTo('shallow@example.com').some((mail) => /Database|Index stale/.test(mail.subject))).toBe(false);
    expect(mailsTo('deep@example.com').some((mail) => mail.subject.includes('Index stale'))).toBe(false);
    const refused = await subscribeTo('public', { email: 'x@example.com', components: ['database'] });
    expect(refused.statusCode).toBe(400);
  });

  it('never walks through an owner-only service, nor tells one', async () => {
    // bank is two steps up from checkout, through ledger, which only its team sees.
    const before = mailsTo('deep@example.com').length;
    await notice('bank', 'Bank down', 'critical');
    await notice('ledger', 'Ledger down', 'critical');
    // The walk does reach bank's neighbours that anyone may see: a later notice on database is told.
    await notice('database', 'Replica lag again', 'error');
    await server.mail.waitFor('deep@example.com', (mail) => mail.subject.endsWith('Partial outage'));
    await settled();
    const subjects = mailsTo('deep@example.com')
      .slice(before)
      .map((mail) => mail.subject);
    expect(subjects).toEqual(['[Subs status] Database, which Checkout depends on: Partial outage']);
  });
});

describe('the page as it is when a message goes out', () => {
  it('tells nothing to its subscribers while a page is for members or a password, and again once public', async () => {
    await call(cast.admin, 'POST', '/api/status-pages', {
      handle: 'flip',
      title: 'Flip status',
      groups: [{ name: '', services: ['billing'] }],
    });
    await subscribed('flip', 'flip@example.com');
    expect((await subscribeTo('flip', { webhook_url: `${receiverUrl}?page=flip` })).statusCode).toBe(201);
    for (const access of [{ access: 'members' }, { access: 'password', password: 'open sesame' }]) {
      expect((await call(cast.admin, 'PATCH', '/api/status-pages/flip', access)).statusCode).toBe(200);
      await notice('billing', `While ${access.access}`);
    }
    await settled();
    expect((await call(cast.admin, 'PATCH', '/api/status-pages/flip', { access: 'public' })).statusCode).toBe(200);
    await notice('billing', 'Public again');
    await server.mail.waitFor('flip@example.com', (mail) => mail.subject.includes('Public again'));
    await until(async () => deliveriesOf('flip').length > 0);
    await settled();
    expect(mailsTo('flip@example.com').map((mail) => mail.subject)).toEqual([
      'Confirm your subscription to Flip status',
      '[Flip status] Incident: Public again (investigating)',
    ]);
    expect(deliveriesOf('flip').map((body) => (body.notice as { title: string }).title)).toEqual(['Public again']);
  });

  it('refuses include_upstream on a page that shows no upstream, and tells no upstream once it stops', async () => {
    await call(cast.admin, 'POST', '/api/status-pages', {
      handle: 'flat',
      title: 'Flat status',
      groups: [{ name: '', services: ['checkout'] }],
    });
    await subscribed('flat', 'flat@example.com', { include_upstream: true });
    const hook = await subscribeTo('flat', { webhook_url: `${receiverUrl}?page=flat`, include_upstream: true });
    expect(hook.statusCode).toBe(201);
    expect((await call(cast.admin, 'PATCH', '/api/status-pages/flat', { show_upstream: false })).statusCode).toBe(200);

    const refused = await subscribeTo('flat', { email: 'more@example.com', include_upstream: true });
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({ errors: { include_upstream: [expect.any(String)] } });
    expect((await subscribers('flat')).map((s) => s.address)).not.toContain('more@example.com');

    // payments is one step up from checkout: the page no longer tells it, nor do its subscriptions.
    await notice('payments', 'Gateway slow', 'warning');
    // checkout itself still is.
    await notice('checkout', 'Checkout slow');
    await server.mail.waitFor('flat@example.com', (mail) => mail.subject.includes('Checkout slow'));
    await until(async () => deliveriesOf('flat').length > 0);
    await settled();
    expect(mailsTo('flat@example.com').map((mail) => mail.subject)).toEqual([
      'Confirm your subscription to Flat status',
      '[Flat status] Incident: Checkout slow (investigating)',
    ]);
    expect(deliveriesOf('flat').map((body) => (body.component as { handle: string }).handle)).toEqual(['checkout']);
  });
});

describe('webhook subscriptions', () => {
  it('delivers each notice event once, signed with the secret answered at subscribing', async () => {
    const subscribedNow = await subscribeTo('public', { webhook_url: receiverUrl, components: ['search'] });
    expect(subscribedNow.statusCode).toBe(201);
    const { secret } = json<{ secret: string }>(subscribedNow);
    expect(secret).toMatch(/^whsec_/);
    const created = await notice('search', 'Search slow');
    const id = json<{ id: string }>(created).id;
    await call(alice, 'PATCH', `/api/notices/${id}`, { status: 'resolved', message: 'Fast again', health: 'good' });
    await until(async () => deliveriesOf('public').length >= 2);
    for (const delivery of received.filter((one) => one.body.includes('"handle":"public"'))) {
      const [t, v1] = delivery.signature.split(',').map((part) => part.split('=')[1]!);
      expect(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex')).toBe(v1);
    }
    // Deliveries run side by side: their order is not promised (each names its event).
    const bodies = deliveriesOf('public') as unknown as { type: string; notice: { status: string } }[];
    expect(bodies.map((body) => [body.type, body.notice.status]).sort()).toEqual([
      ['notice.created', 'investigating'],
      ['notice.updated', 'resolved'],
    ]);
    // Nothing more comes: each event once.
    await settled();
    expect(deliveriesOf('public')).toHaveLength(2);
  });

  it('tells an upstream problem by the service and its status, never the notice', async () => {
    const url = `${receiverUrl}?upstream`;
    const hook = await subscribeTo('public', { webhook_url: url, components: ['checkout'], include_upstream: true });
    expect(hook.statusCode).toBe(201);
    const before = received.length;
    await notice('database', 'Secret migration', 'critical');
    await until(async () => received.length > before);
    await settled();
    const told = received.slice(before).map((delivery) => delivery.body);
    expect(told).toHaveLength(1);
    expect(told[0]).not.toMatch(/Secret migration|looking|incidents/);
    expect(JSON.parse(told[0]!)).toEqual({
      type: 'notice.created',
      page: { handle: 'public', title: 'Subs status', url: expect.stringMatching(/\/status\/public$/) },
      component: {
        handle: 'database',
        name: 'Database',
        status: 'major_outage',
        upstream: true,
        affects: ['checkout'],
      },
    });
    const listed = await subscribers('public');
    const remove = listed.find((subscriber) => subscriber.address === url)!;
    expect((await call(cast.admin, 'DELETE', `/api/status-pages/public/subscribers/${remove.id}`)).statusCode).toBe(
      204,
    );
  });

  it('takes at most 100 webhooks a page, and one per URL', async () => {
    await call(cast.admin, 'POST', '/api/status-pages', { handle: 'hooks', title: 'Hooks' });
    const add = (n: number) => subscribeTo('hooks', { webhook_url: `${receiverUrl}?n=${n}` });
    expect((await add(0)).statusCode).toBe(201);
    const again = await add(0);
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ errors: { webhook_url: [expect.any(String)] } });
    for (let n = 1; n < 100; n++) expect((await add(n)).statusCode, `webhook ${n}`).toBe(201);
    const past = await add(100);
    expect(past.statusCode).toBe(409);
    expect(json(past)).toMatchObject({ message: 'A page takes at most 100 webhooks' });
    expect((await subscribers('hooks')).filter((s) => s.kind === 'webhook')).toHaveLength(100);
  });

  it('lets admins list and remove subscribers', async () => {
    const listed = await subscribers('public');
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
    const before = received.length;
    await notice('search', 'Gone quiet');
    await settled();
    expect(received).toHaveLength(before);
  });
});

describe('maintenance windows', () => {
  it('tells an hour before, at the start and at the end, each once', async () => {
    await subscribed('public', 'ops@example.com');
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
    await settled();
    const reminders = startMaintenanceReminders(server.ctx, { pollMs: 3_600_000 });
    const subjects = async () => {
      await reminders.run();
      await reminders.run();
      await settled();
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

describe('limits', () => {
  it('mails one address at most 3 confirmations a day per workspace, for one pending subscription', async () => {
    const answers = [];
    // 12 asks from 12 addresses: the per-address rate limit does not hold them back.
    for (let i = 0; i < 12; i++) answers.push(await subscribeTo('public', { email: 'many@example.com' }));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, ...Array<number>(9).fill(429)]);
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(86_000);
    expect(json(answers[3]!)).toMatchObject({ message: expect.stringContaining('3 confirmation mails') });
    // Another page of the workspace counts too.
    expect((await subscribeTo('flip', { email: 'many@example.com' })).statusCode).toBe(429);
    await settled();
    expect(mailsTo('many@example.com')).toHaveLength(3);
    expect((await subscribers('public')).filter((s) => s.address === 'many@example.com')).toEqual([
      expect.objectContaining({ confirmed: false }),
    ]);
    expect((await subscribers('flip')).some((s) => s.address === 'many@example.com')).toBe(false);
    // Every mail's link names that one subscription: the last confirms it.
    expect((await confirm(mailsTo('many@example.com')[2]!)).statusCode).toBe(200);
    expect((await subscribers('public')).filter((s) => s.address === 'many@example.com')).toEqual([
      expect.objectContaining({ confirmed: true }),
    ]);
  });

  it('forgets an unconfirmed subscription after 24 hours', async () => {
    const asked = Date.now();
    expect((await subscribeTo('public', { email: 'late@example.com' })).statusCode).toBe(201);
    const mail = await server.mail.waitFor('late@example.com');
    const sweepAt = async (ms: number) =>
      atTime(server, ms, async () => {
        news.wake();
        await news.idle();
      });
    await sweepAt(asked + 23 * 3_600_000);
    expect((await subscribers('public')).map((s) => s.address)).toContain('late@example.com');
    await sweepAt(asked + 24 * 3_600_000 + 60_000);
    expect((await subscribers('public')).map((s) => s.address)).not.toContain('late@example.com');
    const link = confirmationLink(mail);
    expect((await visit(`${link.pathname}${link.search}`)).statusCode).toBe(400);
  });
});

describe('live streams', () => {
  let port = 0;
  const open: { close(): void }[] = [];
  beforeAll(async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
  });
  afterAll(() => {
    for (const stream of open) stream.close();
  });
  /** Opens the page's event stream as a browser at `address` does: its status, once the headers come. */
  const stream = (address: string) =>
    new Promise<{ status: number; body: () => Promise<string>; close(): void }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/status/public/events',
          agent: false,
          headers: { host: hostOf('subsco'), accept: 'text/event-stream', 'x-forwarded-for': address },
        },
        (response: IncomingMessage) => {
          const opened = { status: response.statusCode ?? 0, body: () => text(response), close: () => req.destroy() };
          if (opened.status === 200) open.push(opened);
          resolve(opened);
        },
      );
      req.on('error', reject).end();
    });

  it('holds at most 20 streams per address and BEACON_STATUS_STREAMS_MAX in all, 429 past them', async () => {
    for (let i = 0; i < STREAMS_PER_ADDRESS; i++) expect((await stream('203.0.113.1')).status).toBe(200);
    const refused = await stream('203.0.113.1');
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body())).toMatchObject({ message: expect.any(String) });
    for (let i = STREAMS_PER_ADDRESS; i < STREAMS_MAX; i++) expect((await stream('203.0.113.2')).status).toBe(200);
    expect((await stream('203.0.113.3')).status).toBe(429);
    // A stream closed makes room again.
    open.shift()!.close();
    await until(async () => {
      const next = await stream('203.0.113.3');
      if (next.status !== 200) await next.body();
      return next.status === 200;
    });
  });
});

async function text(response: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return body;
}
