import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceChannel, SlackSettings, SlackWorkspace } from '../../src/contract/slack.js';
import { startChatOutbox } from '../../src/server/jobs/chat-outbox.js';
import type { OutboxLoop } from '../../src/server/jobs/outbox-loop.js';
import { chatOutboxCounts } from '../../src/server/db/repositories/slack.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import type { ServerContext } from '../../src/server/context.js';
import { TEST_ENGINE } from '../support/database.js';
import { addMember, createClient, createService, seedWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { SlackStandIn, type PostedMessage } from '../support/slack-stand-in.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 16 and docs/decisions.md#integrations: Slack through @slack/web-api against a local stand-in of Slack's Web API
 * (BEACON_SLACK_API_URL): linking, chat connect, channels, and delivery through the chat outbox.
 */
const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('Slack switched off', () => {
  let server: TestServer;
  let owner: Member;
  beforeAll(async () => {
    server = await startTestServer();
    ({ owner } = await seedWorkspace(server, { domain: 'noslack' }));
  });
  afterAll(() => server.close());

  it('says so, refuses to link, and the rest works', async () => {
    const settings = json<SlackSettings>(await callAs(server, owner, 'GET', '/api/slack/settings'));
    expect(settings).toEqual({ configured: false, install_url: null, connect_url: null });
    expect(json(await callAs(server, owner, 'GET', '/api/slack-workspaces'))).toEqual([]);
    const link = await callAs(server, owner, 'POST', '/api/slack-workspaces', { token: 'code' });
    expect(link.statusCode).toBe(409);
    expect(json(link)).toMatchObject({ message: 'Slack is not configured on this server' });
    expect((await callAs(server, owner, 'GET', '/api/services/nothing/channels')).statusCode).toBe(404);
  });
});

describe('Slack', () => {
  let server: TestServer;
  let slack: SlackStandIn;
  let outbox: OutboxLoop;
  let owner: Member;
  let admin: Member;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let outsider: Member;
  const call = (actor: Member, method: Method, url: string, payload?: object) =>
    callAs(server, actor, method, url, payload);

  beforeAll(async () => {
    slack = new SlackStandIn();
    const url = await slack.start();
    server = await startTestServer({
      BEACON_SLACK_CLIENT_ID: 'beacon-client',
      BEACON_SLACK_CLIENT_SECRET: 'beacon-secret',
      BEACON_SLACK_API_URL: `${url}/api/`,
      BEACON_SLACK_AUTHORIZE_URL: `${url}/oauth/v2/authorize`,
    });
    ({
      owner,
      admin,
      teamAdmin: alice,
      teamMember: bob,
      outsider,
    } = await seedWorkspace(server, { domain: 'slackco' }));
    carol = await addMember(server, owner, 'carol');
    await createService(server, alice, 'payments', { name: 'Billing', handle: 'billing' });
    outbox = startChatOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50, retryMaxMs: 200 });
  });
  afterAll(async () => {
    await outbox.stop();
    await server.close();
    await slack.close();
  });

  it('gives the authorise pages with the app id, scopes and the callback screens', async () => {
    const settings = json<SlackSettings>(await call(bob, 'GET', '/api/slack/settings'));
    expect(settings.configured).toBe(true);
    const install = new URL(settings.install_url!);
    expect(install.origin + install.pathname).toBe(`${slack.url}/oauth/v2/authorize`);
    expect(install.searchParams.get('client_id')).toBe('beacon-client');
    expect(install.searchParams.get('scope')).toContain('chat:write');
    expect(install.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/slackco\.localhost.*\/callbacks\/slack-workspaces$/,
    );
    expect(new URL(settings.connect_url!).searchParams.get('redirect_uri')).toMatch(/\/callbacks\/connect-to-slack$/);
  });

  it('links a Slack workspace with the code of the redirect; the token is stored sealed', async () => {
    const created = await call(admin, 'POST', '/api/slack-workspaces', { token: slack.issueCode() });
    expect(created.statusCode, created.body).toBe(201);
    const workspace = json<SlackWorkspace>(created);
    expect(workspace).toMatchObject({ team: 'Acme Slack', user: 'User ada' });
    expect(json(await call(owner, 'GET', '/api/slack-workspaces'))).toEqual([workspace]);
    const [row] = await server.ctx.database.db.selectFrom('slack_workspaces').select('token').execute();
    expect(row!.token).toMatch(/^v1:/);
    expect(row!.token).not.toContain('xoxb');
    // Linking the same Slack team again renews it rather than adding a second.
    await call(owner, 'POST', '/api/slack-workspaces', { token: slack.issueCode() });
    expect(json<SlackWorkspace[]>(await call(owner, 'GET', '/api/slack-workspaces'))).toHaveLength(1);
    const again = await call(owner, 'PATCH', `/api/slack-workspaces/${workspace.id}`, { token: slack.issueCode() });
    expect(json(again)).toMatchObject({ id: workspace.id, user: 'Owner of slackco' });
  });

  it('refuses used codes, members, API clients and other workspaces', async () => {
    const code = slack.issueCode();
    expect((await call(admin, 'POST', '/api/slack-workspaces', { token: code })).statusCode).toBe(201);
    const reused = await call(admin, 'POST', '/api/slack-workspaces', { token: code });
    expect(reused.statusCode).toBe(400);
    expect(json(reused)).toMatchObject({ message: 'Slack refused the authorisation: invalid_code' });
    expect((await call(bob, 'GET', '/api/slack-workspaces')).statusCode).toBe(403);
    expect((await call(bob, 'POST', '/api/slack-workspaces', { token: slack.issueCode() })).statusCode).toBe(403);
    expect((await call(admin, 'POST', '/api/slack-workspaces', {})).statusCode).toBe(400);
    const client = await createClient(server, alice, 'payments', { scopes: ['beacon.service.manage'] });
    expect((await callAs(server, client.caller, 'GET', '/api/slack-workspaces')).statusCode).toBe(403);
    expect(json(await call(outsider, 'GET', '/api/slack-workspaces'))).toEqual([]);
    const [mine] = json<SlackWorkspace[]>(await call(owner, 'GET', '/api/slack-workspaces'));
    expect((await call(outsider, 'PATCH', `/api/slack-workspaces/${mine!.id}`, { token: 'x' })).statusCode).toBe(404);
  });

  it('connects a person to Slack (themself only)', async () => {
    expect(
      (
        await call(carol, 'POST', '/api/users/carol/actions/connect-to-slack', {
          token: slack.issueCode(undefined, 'U0042'),
        })
      ).statusCode,
    ).toBe(204);
    const row = await server.ctx.database.db
      .selectFrom('slack_users')
      .selectAll()
      .where('user_id', '=', carol.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ slack_team_id: 'T0001', slack_user_id: 'U0042' });
    expect(
      (await call(bob, 'POST', '/api/users/carol/actions/connect-to-slack', { token: slack.issueCode() })).statusCode,
    ).toBe(403);
    expect((await call(carol, 'POST', '/api/users/carol/actions/connect-to-slack', { token: 'nope' })).statusCode).toBe(
      400,
    );
  });

  it('keeps one channel a service, for editors; readers see it', async () => {
    expect(json(await call(carol, 'GET', '/api/services/billing/channels'))).toEqual([]);
    expect(
      (await call(carol, 'POST', '/api/services/billing/channels', { provider: 'slack', channel: 'C1' })).statusCode,
    ).toBe(403);
    for (const bad of [
      { provider: 'slack' },
      { provider: 'teams', channel: 'C1' },
      { provider: 'slack', channel: '#no way' },
    ])
      expect((await call(bob, 'POST', '/api/services/billing/channels', bad)).statusCode).toBe(400);
    const created = await call(bob, 'POST', '/api/services/billing/channels', { provider: 'slack', channel: 'CWRONG' });
    expect(created.statusCode).toBe(201);
    expect(json<ServiceChannel>(created)).toMatchObject({ provider: 'slack', slack_channel: { id: 'CWRONG' } });
    expect(
      (await call(bob, 'POST', '/api/services/billing/channels', { provider: 'slack', channel: 'C2' })).statusCode,
    ).toBe(409);
    const changed = await call(bob, 'PATCH', '/api/services/billing/channels/slack', { channel: 'CBILLING' });
    expect(json(changed)).toMatchObject({ slack_channel: { id: 'CBILLING' } });
    expect(json<ServiceChannel[]>(await call(carol, 'GET', '/api/services/billing/channels'))).toMatchObject([
      { slack_channel: { id: 'CBILLING' } },
    ]);
    expect((await call(outsider, 'GET', '/api/services/billing/channels')).statusCode).toBe(404);
  });

  it('posts each event of the service once, readable, with a link back', async () => {
    const before = slack.messages.length;
    expect(
      (await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'critical' })).statusCode,
    ).toBe(200);
    await until(() => slack.messages.length > before);
    await outbox.idle();
    const posted = slack.messages.slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ channel: 'CBILLING', text: 'Billing: Health changed from Good to Critical' });
    expect(JSON.stringify(posted[0]!.blocks)).toContain('/services/billing|Billing>');
    expect(await chatOutboxCounts(server.ctx.database.db, (await workspaceId()) ?? '')).toMatchObject({ sent: 1 });
  });

  it('retries a failing Slack until it answers, and waits out a 429’s Retry-After', async () => {
    const before = slack.messages.length;
    slack.failNext({ status: 500 }, { status: 200, error: 'internal_error' }, { status: 429, retryAfter: 1 });
    const attempts = slack.attempts;
    const started = Date.now();
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'good' });
    await until(() => slack.messages.length > before, 8000);
    expect(slack.attempts - attempts).toBe(4);
    // The third attempt was rate-limited for 1 s: the fourth came after it.
    expect(slack.messages.at(-1)!.at - started).toBeGreaterThanOrEqual(1000);
    expect(slack.messages.slice(before).map((m) => m.text)).toEqual(['Billing: Health changed from Critical to Good']);
  });

  it('loses nothing and sends nothing twice across a restart of the job', async () => {
    await outbox.stop();
    const before = slack.messages.length;
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'warning' });
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'good' });
    expect(slack.messages.length).toBe(before);
    outbox = startChatOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50, retryMaxMs: 200 });
    await until(() => slack.messages.length >= before + 2);
    await outbox.idle();
    // A second process-like job on the same database finds nothing left to send.
    const second = startChatOutbox(server.ctx, { pollMs: 100 });
    await second.idle();
    await second.stop();
    // Each once (two changes within one millisecond may be posted in either order).
    expect(
      slack.messages
        .slice(before)
        .map((m) => m.text)
        .sort(),
    ).toEqual(['Billing: Health changed from Good to Warning', 'Billing: Health changed from Warning to Good']);
  });

  const notice = async (title: string, message = 'Looking into it') => {
    const created = await call(alice, 'POST', '/api/services/billing/notices', { type: 'incident', title, message });
    expect(created.statusCode, created.body).toBe(201);
    return json<{ id: string }>(created).id;
  };
  const updateNotice = async (id: string, status: string, message: string) =>
    expect((await call(alice, 'PATCH', `/api/notices/${id}`, { status, message })).statusCode).toBe(200);
  /** The messages posted since `before` that are roots of a notice titled `title`. */
  const rootsOf = (title: string, before: number) =>
    slack.messages.slice(before).filter((m) => !m.thread_ts && m.text.includes(`Incident: ${title}`));
  /** What a message shows now: its last edit, else what was posted. */
  const shown = (message: PostedMessage) => message.edits.at(-1) ?? message;

  it('posts a notice once, then updates that root and replies in its thread, in order', async () => {
    const before = slack.messages.length;
    const updatesBefore = slack.updates;
    // Everything queued while the job is stopped, the root's first attempt failing: the updates wait for it.
    await outbox.stop();
    const id = await notice('Card payments failing', 'Card payments fail at checkout');
    await updateNotice(id, 'identified', 'A bad deploy of the gateway');
    await updateNotice(id, 'monitoring', 'Rolled back; watching');
    // Another event of the service meanwhile is posted on its own.
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'critical' });
    await updateNotice(id, 'resolved', 'Payments are going through again');
    slack.failNext({ status: 500 });
    outbox = startChatOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50, retryMaxMs: 200, batchSize: 2 });
    await until(() => slack.messages.length >= before + 5, 8000);
    await outbox.idle();

    const posted = slack.messages.slice(before);
    const [root, ...others] = rootsOf('Card payments failing', before);
    expect(others).toEqual([]);
    expect(root).toMatchObject({
      channel: 'CBILLING',
      text: 'Billing: Incident: Card payments failing · Investigating',
    });
    expect(root!.attachments![0]!.color).toBe('#e01e5a');
    expect(JSON.stringify(root!.attachments)).toContain('/services/billing|Billing>');
    // The root follows the notice: one update per later event, the last one green and resolved.
    expect(root!.edits.map((edit) => edit.text)).toEqual([
      'Billing: Incident: Card payments failing · Identified',
      'Billing: Incident: Card payments failing · Monitoring',
      'Billing: Incident: Card payments failing · Resolved',
    ]);
    expect(shown(root!).attachments![0]!.color).toBe('#2eb886');
    expect(slack.updates - updatesBefore).toBe(3);
    // The updates, in order, in the root's thread, with what the editor wrote.
    expect(slack.threadOf('CBILLING', root!.ts).map((m) => m.text)).toEqual([
      'Identified: A bad deploy of the gateway',
      'Monitoring: Rolled back; watching',
      'Resolved: Payments are going through again',
    ]);
    // The health change went on its own, outside the thread; nothing else was posted.
    const standalone = posted.filter((m) => !m.thread_ts && m !== root);
    expect(standalone.map((m) => m.text)).toContain('Billing: Health changed from Good to Critical');
    expect(standalone.every((m) => !m.text.includes('Incident'))).toBe(true);
    expect(posted).toHaveLength(1 + 3 + standalone.length);
    const row = await server.ctx.database.db
      .selectFrom('chat_threads')
      .selectAll()
      .where('notice_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel_id: 'CBILLING', provider: 'slack', ts: root!.ts });
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'good' });
    await outbox.idle();
  });

  it('starts a new root when the old one was deleted in Slack', async () => {
    const before = slack.messages.length;
    const id = await notice('Refunds delayed');
    await until(() => rootsOf('Refunds delayed', before).length === 1);
    await outbox.idle();
    const [first] = rootsOf('Refunds delayed', before);
    slack.deleteMessage('CBILLING', first!.ts);
    await updateNotice(id, 'identified', 'The bank is slow');
    await until(() => rootsOf('Refunds delayed', before).length === 2);
    await outbox.idle();
    const [, second] = rootsOf('Refunds delayed', before);
    // The new root shows the notice as it is now; the update is in its thread; the old root was left alone.
    expect(second!.text).toBe('Billing: Incident: Refunds delayed · Identified');
    expect(first!.edits).toEqual([]);
    expect(slack.threadOf('CBILLING', second!.ts).map((m) => m.text)).toEqual(['Identified: The bank is slow']);
    // Later events go to the new root.
    await updateNotice(id, 'resolved', 'Refunds are out');
    await until(() => slack.threadOf('CBILLING', second!.ts).length === 2);
    await outbox.idle();
    expect(shown(second!).text).toBe('Billing: Incident: Refunds delayed · Resolved');
    expect(rootsOf('Refunds delayed', before)).toHaveLength(2);
  });

  /** The chat outbox's rows queued since `since` (an ISO time), or those of a notice. */
  const rowsSince = (since: string, noticeId?: string) => {
    let query = server.ctx.database.db.selectFrom('chat_outbox').selectAll().where('created_at', '>=', since);
    if (noticeId) query = query.where('notice_id', '=', noticeId);
    return query.orderBy('created_at').execute();
  };
  const allSent = async (since: string, noticeId?: string) => {
    const rows = await rowsSince(since, noticeId);
    return rows.length > 0 && rows.every((row) => row.status === 'sent');
  };
  const metadataOf = (messageId: string, part: string) => ({
    event_type: 'beacon_outbox',
    event_payload: { message_id: messageId, part },
  });

  it('posts once a message Slack took but whose answer never came (found by its metadata on the retry)', async () => {
    // A job whose Slack calls give up after 1 s, so the post Slack never answers times out quickly.
    await outbox.stop();
    outbox = startChatOutbox(server.ctx, { pollMs: 100, retryBaseMs: 50, retryMaxMs: 200, slackTimeoutMs: 1000 });
    const since = new Date().toISOString();
    const before = slack.messages.length;
    const lookups = slack.lookups;
    slack.failNext({ method: 'chat.postMessage', lost: 'hang' });
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'warning' });
    await until(() => allSent(since), 10_000);
    await outbox.idle();
    const posted = slack.messages.slice(before);
    expect(posted.map((m) => m.text)).toEqual(['Billing: Health changed from Good to Warning']);
    const [row] = await rowsSince(since);
    expect(row!.attempts).toBeGreaterThanOrEqual(2);
    expect(posted[0]!.metadata).toEqual(metadataOf(row!.id, 'standalone'));
    // The retry looked in the channel's history and took the message it found.
    expect(slack.lookups - lookups).toBeGreaterThanOrEqual(1);
  });

  it('posts a notice’s root and a reply once when their answers were lost', async () => {
    const since = new Date().toISOString();
    const before = slack.messages.length;
    // The root is taken by Slack, the connection lost before its answer.
    slack.failNext({ method: 'chat.postMessage', lost: 'drop' });
    const id = await notice('Payouts stuck');
    await until(() => allSent(since, id), 8000);
    await outbox.idle();
    const [root, ...others] = rootsOf('Payouts stuck', before);
    expect(others).toEqual([]);
    const [first] = await rowsSince(since, id);
    expect(first!.attempts).toBeGreaterThanOrEqual(2);
    expect(root!.metadata).toEqual(metadataOf(first!.id, 'root'));
    // The root found on the retry is the notice's thread.
    const thread = await server.ctx.database.db
      .selectFrom('chat_threads')
      .select('ts')
      .where('notice_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(thread.ts).toBe(root!.ts);

    // An update: the root's chat.update goes through, the reply is taken and its answer lost.
    slack.failNext({ method: 'chat.postMessage', lost: 'drop' });
    await updateNotice(id, 'identified', 'A stuck payout queue');
    await until(() => allSent(since, id), 8000);
    await outbox.idle();
    expect(rootsOf('Payouts stuck', before)).toHaveLength(1);
    expect(slack.threadOf('CBILLING', root!.ts).map((m) => m.text)).toEqual(['Identified: A stuck payout queue']);
    expect(shown(root!).text).toBe('Billing: Incident: Payouts stuck · Identified');
    const [, second] = await rowsSince(since, id);
    expect(second!.attempts).toBeGreaterThanOrEqual(2);
    expect(slack.threadOf('CBILLING', root!.ts)[0]!.metadata).toEqual(metadataOf(second!.id, 'reply'));
    // Nothing else of the notice was posted.
    expect(slack.messages.slice(before).filter((m) => m.text.includes('Payouts') || m.thread_ts)).toHaveLength(2);
  });

  it('still posts when Slack refuses to show the history (a workspace linked before the history scopes)', async () => {
    slack.failLookups('missing_scope');
    try {
      // The first post fails outright; the retry cannot look, and posts.
      let since = new Date().toISOString();
      let before = slack.messages.length;
      const lookups = slack.lookups;
      slack.failNext({ method: 'chat.postMessage', status: 500 });
      await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'good' });
      await until(() => allSent(since), 8000);
      await outbox.idle();
      expect(slack.lookups - lookups).toBeGreaterThanOrEqual(1);
      expect(slack.messages.slice(before).map((m) => m.text)).toEqual(['Billing: Health changed from Warning to Good']);
      // Slack took the first post and its answer was lost: unable to look, the retry posts it again. At least
      // once, then: the window the history scopes close.
      since = new Date().toISOString();
      before = slack.messages.length;
      slack.failNext({ method: 'chat.postMessage', lost: 'drop' });
      await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'critical' });
      await until(() => allSent(since), 8000);
      await outbox.idle();
      expect(slack.messages.slice(before).map((m) => m.text)).toEqual([
        'Billing: Health changed from Good to Critical',
        'Billing: Health changed from Good to Critical',
      ]);
    } finally {
      slack.failLookups(null);
    }
  });

  it('stops posting when the channel is removed', async () => {
    expect((await call(bob, 'DELETE', '/api/services/billing/channels/slack')).statusCode).toBe(204);
    expect((await call(bob, 'DELETE', '/api/services/billing/channels/slack')).statusCode).toBe(404);
    const before = slack.messages.length;
    await call(alice, 'POST', '/api/services/billing/actions/change-health', { health: 'error' });
    await outbox.idle();
    expect(slack.messages.length).toBe(before);
  });

  async function workspaceId() {
    const row = await server.ctx.database.db
      .selectFrom('workspaces')
      .select('id')
      .where('domain', '=', 'slackco')
      .executeTakeFirst();
    return row?.id;
  }
});

describe.runIf(TEST_ENGINE === 'postgres')('Slack from two processes on one PostgreSQL database', () => {
  let server: TestServer;
  let second: ServerContext;
  let slack: SlackStandIn;
  const slackEnv = (apiUrl: string) => ({
    BEACON_SLACK_CLIENT_ID: 'beacon-client',
    BEACON_SLACK_CLIENT_SECRET: 'beacon-secret',
    BEACON_SLACK_API_URL: apiUrl,
  });

  beforeAll(async () => {
    slack = new SlackStandIn();
    const url = await slack.start();
    server = await startTestServer(slackEnv(`${url}/api/`));
    // A second process's context on the same schema (and data directory: the same sealing key), calling Slack
    // through another path so the stand-in tells the two apart.
    second = await createContext(
      loadConfig({ ...server.database.env, ...slackEnv(`${url}/second/api/`), PORT: '8080' }),
      pino({ level: 'silent' }),
    );
  });
  afterAll(async () => {
    await closeContext(second);
    await server.close();
    await slack.close();
  });

  it('post every queued message exactly once between them, each notice in order in its own thread', async () => {
    const { owner, teamAdmin: alice } = await seedWorkspace(server, { domain: 'twoslack' });
    const call = (method: Method, url: string, payload?: object) => callAs(server, alice, method, url, payload);
    expect(
      (await callAs(server, owner, 'POST', '/api/slack-workspaces', { token: slack.issueCode() })).statusCode,
    ).toBe(201);
    const SERVICES = 4;
    const NOTICES = 5;
    const healths = ['warning', 'critical', 'good'];
    for (let i = 0; i < SERVICES; i++) {
      await createService(server, alice, 'payments', { name: `Svc ${i}`, handle: `svc-${i}` });
      expect(
        (await call('POST', `/api/services/svc-${i}/channels`, { provider: 'slack', channel: `CSVC${i}` })).statusCode,
      ).toBe(201);
    }
    // Queued with no job running: notices with two updates each, and health changes between them.
    for (let n = 0; n < NOTICES; n++) {
      for (let i = 0; i < SERVICES; i++) {
        const created = await call('POST', `/api/services/svc-${i}/notices`, {
          type: 'incident',
          title: `Outage ${i}-${n}`,
          message: 'Looking',
        });
        expect(created.statusCode).toBe(201);
        const id = json<{ id: string }>(created).id;
        if (n < healths.length)
          await call('POST', `/api/services/svc-${i}/actions/change-health`, { health: healths[n] });
        await call('PATCH', `/api/notices/${id}`, { status: 'identified', message: `Cause ${i}-${n}` });
        await call('PATCH', `/api/notices/${id}`, { status: 'resolved', message: `Fixed ${i}-${n}` });
      }
    }
    const workspace = { id: await workspaceIdOf(server, 'twoslack') };
    const { db } = server.ctx.database;
    // Per channel: the notices' messages (three each), and the other events (health changes) on their own.
    const queued = await db
      .selectFrom('chat_outbox')
      .select(['channel_id', 'notice_id'])
      .where('workspace_id', '=', workspace.id)
      .where('status', '=', 'pending')
      .execute();
    const expected = queued.length;
    expect(queued.filter((row) => row.notice_id !== null)).toHaveLength(SERVICES * NOTICES * 3);
    const standaloneQueued = (channel: string) =>
      queued.filter((row) => row.channel_id === channel && row.notice_id === null).length;
    expect(standaloneQueued('CSVC0')).toBeGreaterThanOrEqual(2);

    const options = { pollMs: 100, retryBaseMs: 50, retryMaxMs: 200, batchSize: 3 };
    const jobs = [startChatOutbox(server.ctx, options), startChatOutbox(second, options)];
    try {
      await until(() => slack.messages.length >= expected, 30_000);
    } finally {
      // Both stopped: a message one of them was still posting would be counted now.
      for (const job of jobs) await job.stop();
    }
    const messages = slack.messages;
    expect(messages).toHaveLength(expected);
    expect(await chatOutboxCounts(db, workspace.id)).toEqual({ sent: expected });
    for (let i = 0; i < SERVICES; i++) {
      const channel = `CSVC${i}`;
      for (let n = 0; n < NOTICES; n++) {
        const roots = messages.filter((m) => m.channel === channel && m.text.includes(`Incident: Outage ${i}-${n} `));
        expect(roots, `Outage ${i}-${n}`).toHaveLength(1);
        const root = roots[0]!;
        expect(root.text).toMatch(/· Investigating$/);
        expect(root.edits.map((edit) => edit.text.split(' · ')[1])).toEqual(['Identified', 'Resolved']);
        expect(slack.threadOf(channel, root.ts).map((m) => m.text)).toEqual([
          `Identified: Cause ${i}-${n}`,
          `Resolved: Fixed ${i}-${n}`,
        ]);
      }
      const standalone = messages.filter((m) => m.channel === channel && !m.thread_ts && !m.text.includes('Incident'));
      expect(standalone).toHaveLength(standaloneQueued(channel));
      expect(standalone.map((m) => m.text)).toContain(`Svc ${i}: Health changed from Good to Warning`);
      for (const message of standalone) expect(message.text).toMatch(new RegExp(`^Svc ${i}: Health changed`));
    }
    // Both processes took a share.
    const bySecond = messages.filter((m) => m.via === '/second').length;
    console.log(
      `postgres: Slack messages posted by the first process ${expected - bySecond}, by the second ${bySecond}`,
    );
    expect(bySecond).toBeGreaterThan(0);
    expect(bySecond).toBeLessThan(expected);
  }, 60_000);
});
