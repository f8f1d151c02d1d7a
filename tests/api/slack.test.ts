import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceChannel, SlackSettings, SlackWorkspace } from '../../src/contract/slack.js';
import { startChatOutbox } from '../../src/server/jobs/chat-outbox.js';
import type { OutboxLoop } from '../../src/server/jobs/outbox-loop.js';
import { chatOutboxCounts } from '../../src/server/db/repositories/slack.js';
import { addMember, createClient, createService, seedWorkspace } from '../support/fixtures.js';
import { SlackStandIn } from '../support/slack-stand-in.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 16 and DESIGN.md 11: Slack through @slack/web-api against a local stand-in of Slack's Web API
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
