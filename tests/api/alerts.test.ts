/**
 * Issue 50: alerts open when a service's health leaves good, route by the owning team's policy (or the workspace's
 * default) to channels that speak their vendors' protocols (a local stand-in of each here), climb the escalation
 * until acknowledged, and tell every channel that was told when they are acknowledged or resolved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, AlertChannel, AlertDelivery, AlertPolicy, AlertWithTimeline } from '../../src/contract/alerts.js';
import { findChannel } from '../../src/server/db/repositories/alerts.js';
import { startAlertEscalation } from '../../src/server/jobs/alert-escalation.js';
import { startAlertOutbox } from '../../src/server/jobs/alert-outbox.js';
import type { OutboxLoop } from '../../src/server/jobs/outbox-loop.js';
import { queueTest } from '../../src/server/services/alerting/deliveries.js';
import { createHmac } from 'node:crypto';
import { AlertVendorsStandIn } from '../support/alert-vendors-stand-in.js';
import { SlackStandIn } from '../support/slack-stand-in.js';
import {
  addMember,
  createClient,
  createService,
  createTeam,
  seedWorkspace,
  workspaceIdOf,
  type SeededWorkspace,
} from '../support/fixtures.js';
import { linkIn } from '../support/mail-catcher.js';
import { callAs, json, startTestServer, type Member, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';

const ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';
const SLACK_SIGNING_SECRET = 'slack-signing-secret';

let server: TestServer;
let vendors: AlertVendorsStandIn;
let slack: SlackStandIn;
let ws: SeededWorkspace;
let outbox: OutboxLoop;
let escalation: OutboxLoop;

beforeAll(async () => {
  vendors = await new AlertVendorsStandIn().start();
  slack = new SlackStandIn();
  const slackUrl = await slack.start();
  server = await startTestServer({
    BEACON_SLACK_CLIENT_ID: 'beacon-client',
    BEACON_SLACK_CLIENT_SECRET: 'beacon-secret',
    BEACON_SLACK_API_URL: `${slackUrl}/api/`,
    BEACON_SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET,
    BEACON_ALLOW_PRIVATE_TARGETS: '1',
    BEACON_PAGERDUTY_EVENTS_URL: `${vendors.url}/pagerduty`,
    BEACON_OPSGENIE_API_URL: `${vendors.url}/opsgenie`,
    BEACON_TELEGRAM_API_URL: `${vendors.url}/telegram`,
  });
  outbox = startAlertOutbox(server.ctx, { pollMs: 200, retryBaseMs: 50, retryMaxMs: 200, maxAttempts: 3 });
  escalation = startAlertEscalation(server.ctx, { pollMs: 200 });
  ws = await seedWorkspace(server);
});
afterAll(async () => {
  await escalation.stop();
  await outbox.stop();
  await server.close();
  await vendors.close();
  await slack.close();
});

const call = (actor: Member, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object) =>
  callAs(server, actor, method, url, body);

async function channel(actor: Member, body: object, team?: string): Promise<AlertChannel> {
  const response = await call(actor, 'POST', team ? `/api/teams/${team}/alert-channels` : '/api/alert-channels', body);
  expect(response.statusCode, response.body).toBe(201);
  return json<AlertChannel>(response);
}

/** Moves the service's health as a person declaring an incident does (a notice carrying a health). */
async function declare(actor: Member, service: string, health: string): Promise<string> {
  const response = await call(actor, 'POST', `/api/services/${service}/notices`, {
    type: 'incident',
    title: `${service} is ${health}`,
    message: 'Looking',
    health,
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ id: string }>(response).id;
}

async function recover(actor: Member, noticeId: string): Promise<void> {
  const response = await call(actor, 'PATCH', `/api/notices/${noticeId}`, {
    status: 'resolved',
    message: 'Fixed',
    health: 'good',
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function alertsOf(actor: Member, service: string): Promise<Alert[]> {
  const response = await call(actor, 'GET', `/api/alerts?service=${service}`);
  expect(response.statusCode, response.body).toBe(200);
  return json<Alert[]>(response);
}

const getAlert = async (actor: Member, id: string) =>
  json<AlertWithTimeline>(await call(actor, 'GET', `/api/alerts/${id}`));

describe('routing by ownership', () => {
  let pagerduty: AlertChannel;
  let hook: AlertChannel;

  beforeAll(async () => {
    pagerduty = await channel(ws.admin, { name: 'On-call', kind: 'pagerduty', config: { routing_key: ROUTING_KEY } });
    hook = await channel(
      ws.teamAdmin,
      { name: 'Payments hook', kind: 'webhook', config: { url: `${vendors.url}/hooks/payments`, secret: 's3cret' } },
      'payments',
    );
    const policy = await call(ws.teamAdmin, 'PUT', '/api/teams/payments/alert-policy', {
      rules: [
        { severities: ['critical'], channels: [pagerduty.id, hook.id] },
        { severities: ['warning', 'error'], channels: [hook.id] },
      ],
    });
    expect(policy.statusCode, policy.body).toBe(200);
    expect(json<AlertPolicy>(policy)).toMatchObject({ source: 'team', permissions: { edit: true } });
    await createService(server, ws.teamAdmin, 'payments', { name: 'Ledger', handle: 'ledger' });
  });

  it('opens an alert when health leaves good and tells the channels of its severity, then resolves on recovery', async () => {
    const notice = await declare(ws.teamMember, 'ledger', 'critical');
    const [opened] = await alertsOf(ws.teamMember, 'ledger');
    expect(opened).toMatchObject({
      state: 'open',
      severity: 'critical',
      source: 'health',
      service: { handle: 'ledger', name: 'Ledger' },
      team: { handle: 'payments' },
      permissions: { answer: true },
    });
    const incident = await until(async () => vendors.pagerdutyIncidents.get(opened!.id));
    expect(incident).toMatchObject({ routingKey: ROUTING_KEY, status: 'triggered' });
    expect(incident.payload).toMatchObject({ severity: 'critical', component: 'ledger', group: 'payments' });
    const hooked = await until(async () => vendors.receivedBy('webhook').find((r) => r.path === '/hooks/payments'));
    expect(hooked.body).toMatchObject({ type: 'beacon.alert', action: 'trigger', alert: { id: opened!.id } });
    expect(String(hooked.headers['x-beacon-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    await recover(ws.teamMember, notice);
    const [resolved] = await alertsOf(ws.teamMember, 'ledger');
    expect(resolved).toMatchObject({ id: opened!.id, state: 'resolved' });
    await until(async () => vendors.pagerdutyIncidents.get(opened!.id)?.status === 'resolved');
    await until(async () =>
      vendors.receivedBy('webhook').some((r) => (r.body as { action?: string }).action === 'resolve'),
    );
    const timeline = (await getAlert(ws.teamMember, opened!.id)).timeline.map((entry) => entry.kind);
    expect(timeline[0]).toBe('opened');
    expect(timeline).toContain('resolved');
    await until(async () => {
      const kinds = (await getAlert(ws.teamMember, opened!.id)).timeline.filter((e) => e.kind === 'told');
      return kinds.length >= 4 ? kinds : undefined; // two channels told of the opening, two of the end
    });
  });

  it('raises the severity while open and tells again; a channel of the new severity hears it first', async () => {
    await createService(server, ws.teamAdmin, 'payments', { name: 'Payouts', handle: 'payouts' });
    const warning = await declare(ws.teamMember, 'payouts', 'warning');
    const [alert] = await alertsOf(ws.teamMember, 'payouts');
    expect(alert).toMatchObject({ severity: 'warning' });
    expect(vendors.pagerdutyIncidents.get(alert!.id)).toBeUndefined();
    await declare(ws.teamMember, 'payouts', 'critical');
    const [raised] = await alertsOf(ws.teamMember, 'payouts');
    expect(raised).toMatchObject({ id: alert!.id, severity: 'critical', state: 'open' });
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id));
    await until(async () =>
      vendors.receivedBy('webhook').some((r) => (r.body as { action?: string }).action === 'raise'),
    );
    await recover(ws.teamMember, warning);
  });

  it('follows the team that owns the service now, and the workspace default for a team without a policy', async () => {
    const mail = await channel(ws.admin, {
      name: 'Ops mail',
      kind: 'email',
      config: { addresses: ['ops@acme.example'] },
    });
    const defaults = await call(ws.admin, 'PUT', '/api/alert-policy', {
      rules: [{ severities: ['warning', 'error', 'critical'], channels: [mail.id] }],
    });
    expect(defaults.statusCode, defaults.body).toBe(200);
    await createTeam(server, ws.teamAdmin, { name: 'Search', handle: 'search' });
    expect(json<AlertPolicy>(await call(ws.teamAdmin, 'GET', '/api/teams/search/alert-policy'))).toMatchObject({
      source: 'workspace',
    });
    await createService(server, ws.teamAdmin, 'search', { name: 'Indexer', handle: 'indexer' });
    await declare(ws.teamAdmin, 'indexer', 'error');
    const [alert] = await alertsOf(ws.teamAdmin, 'indexer');
    expect(alert).toMatchObject({ team: { handle: 'search' }, severity: 'error' });
    const sent = await server.mail.waitFor('ops@acme.example', (m) => m.subject.includes('Indexer'));
    expect(sent.subject).toBe('[Beacon] Indexer is error');
    expect(sent.text).toContain(`/alerts/${alert!.id}/ack?token=`);

    // The mail's acknowledge link: a GET only shows a button (a link scanner acknowledges nothing), the POST does.
    const link = linkIn(sent, /http:\/\/\S+\/ack\?token=\S+/);
    const host = { host: link.host };
    const shown = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: host });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Acknowledge this alert?');
    expect((await getAlert(ws.teamAdmin, alert!.id)).state).toBe('open');
    const token = link.searchParams.get('token')!;
    const post = (tokenValue: string, path = link.pathname) =>
      server.app.inject({
        method: 'POST',
        url: path,
        headers: { ...host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: tokenValue }).toString(),
      });
    expect((await post('forged')).statusCode).toBe(404);
    expect((await post(token, `/alerts/${(await alertsOf(ws.teamAdmin, 'ledger'))[0]!.id}/ack`)).statusCode).toBe(404);
    const acknowledged = await post(token);
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.body).toContain('Acknowledged');
    const answered = await getAlert(ws.teamAdmin, alert!.id);
    expect(answered).toMatchObject({ state: 'acknowledged', acknowledged_by: null });
    expect(answered.timeline.map((e) => e.message)).toContain('Acknowledged by Someone with the link (a link)');
    // Used once: the link only says so now.
    const reused = await post(token);
    expect(reused.statusCode).toBe(409);
    expect(reused.body).toContain('This alert is already acknowledged');
    const other = await server.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search}`,
      headers: { host: 'otherco.localhost:8080' },
    });
    expect(other.statusCode).toBe(404);
  });

  it('lets a service add a channel of its own to its team’s', async () => {
    const extra = await channel(ws.admin, {
      name: 'Ledger room',
      kind: 'ntfy',
      config: { url: `${vendors.url}/ntfy`, topic: 'ledger' },
    });
    const set = await call(ws.teamMember, 'PUT', '/api/services/ledger/alert-channels', { channels: [extra.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(json<AlertChannel[]>(set).map((c) => c.name)).toEqual(['Ledger room']);
    const notice = await declare(ws.teamMember, 'ledger', 'warning');
    await until(async () => vendors.ntfyMessages.find((m) => m.topic === 'ledger'));
    await until(async () => vendors.receivedBy('webhook').length > 0);
    await recover(ws.teamMember, notice);
  });
});

describe('acknowledging and escalating', () => {
  let pagerduty: AlertChannel;

  beforeAll(async () => {
    await createTeam(server, ws.teamAdmin, { name: 'Identity', handle: 'identity' });
    pagerduty = await channel(
      ws.teamAdmin,
      { name: 'Identity pager', kind: 'pagerduty', config: { routing_key: ROUTING_KEY } },
      'identity',
    );
    const policy = await call(ws.teamAdmin, 'PUT', '/api/teams/identity/alert-policy', {
      rules: [],
      escalation: [
        { after_seconds: 0, targets: [{ user: ws.teamAdmin.handle }] },
        { after_seconds: 1, targets: [{ channel: pagerduty.id }] },
      ],
      repeat: 1,
    });
    expect(policy.statusCode, policy.body).toBe(200);
    expect(json<AlertPolicy>(policy).escalation).toEqual([
      { after_minutes: 0, after_seconds: 0, targets: [{ user: ws.teamAdmin.handle, name: expect.any(String) }] },
      { after_minutes: 1 / 60, after_seconds: 1, targets: [{ channel: pagerduty.id, name: 'Identity pager' }] },
    ]);
    await createService(server, ws.teamAdmin, 'identity', { name: 'Login', handle: 'login' });
  });

  it('climbs level after level until acknowledged, then tells every channel told and stops', async () => {
    const notice = await declare(ws.teamAdmin, 'login', 'critical');
    const [alert] = await alertsOf(ws.teamAdmin, 'login');
    // Level 1 at once: the user's bell and mail.
    await server.mail.waitFor(ws.teamAdmin.email, (m) => m.subject.includes('Login'));
    const bell = await call(ws.teamAdmin, 'GET', `/api/users/${ws.teamAdmin.handle}/notifications`);
    expect(bell.body).toContain('Alert escalated to level 1');
    // Level 2 a second later: the pager.
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id));
    const entries = (await getAlert(ws.teamAdmin, alert!.id)).timeline.filter((e) => e.kind === 'escalated');
    expect(entries.map((e) => e.message)).toEqual([
      `Level 1: told @${ws.teamAdmin.handle}`,
      'Level 2: told Identity pager',
    ]);

    const ack = await call(ws.teamAdmin, 'POST', `/api/alerts/${alert!.id}/actions/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(json<AlertWithTimeline>(ack)).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: { handle: ws.teamAdmin.handle },
    });
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id)?.status === 'acknowledged');
    const again = await call(ws.teamAdmin, 'POST', `/api/alerts/${alert!.id}/actions/acknowledge`);
    expect(again.statusCode).toBe(409);
    expect(json<{ message: string }>(again).message).toBe('This alert is already acknowledged');
    // The repeat round was due 2 s after opening: acknowledged, nothing is due any more.
    const row = await server.ctx.database.db
      .selectFrom('alerts')
      .select(['next_escalation_at', 'escalation_round', 'escalation_level'])
      .where('id', '=', alert!.id)
      .executeTakeFirstOrThrow();
    expect(row.next_escalation_at).toBeNull();

    const resolve = await call(ws.teamAdmin, 'POST', `/api/alerts/${alert!.id}/actions/resolve`, {
      reason: 'Rolled back',
    });
    expect(resolve.statusCode, resolve.body).toBe(200);
    expect(json<AlertWithTimeline>(resolve)).toMatchObject({ state: 'resolved', reason: 'Rolled back' });
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id)?.status === 'resolved');
    await recover(ws.teamAdmin, notice);
  });
});

describe('answers from the vendors', () => {
  let pagerduty: AlertChannel;
  let opsgenie: AlertChannel;
  let slackChannel: AlertChannel;

  beforeAll(async () => {
    await createTeam(server, ws.teamAdmin, { name: 'Edge', handle: 'edge' });
    pagerduty = await channel(
      ws.teamAdmin,
      { name: 'Edge pager', kind: 'pagerduty', config: { routing_key: ROUTING_KEY, webhook_secret: 'pd-secret' } },
      'edge',
    );
    vendors.opsgenieKeys.add('genie-key');
    opsgenie = await channel(
      ws.teamAdmin,
      { name: 'Edge genie', kind: 'opsgenie', config: { api_key: 'genie-key', webhook_secret: 'og-secret' } },
      'edge',
    );
    const linked = await call(ws.owner, 'POST', '/api/slack-workspaces', { token: slack.issueCode() });
    expect(linked.statusCode, linked.body).toBe(201);
    slackChannel = await channel(
      ws.teamAdmin,
      { name: 'Edge Slack', kind: 'slack', config: { channel: 'C0EDGE' } },
      'edge',
    );
    const policy = await call(ws.teamAdmin, 'PUT', '/api/teams/edge/alert-policy', {
      rules: [{ severities: ['warning', 'error', 'critical'], channels: [pagerduty.id, opsgenie.id, slackChannel.id] }],
    });
    expect(policy.statusCode, policy.body).toBe(200);
    for (const handle of ['cdn', 'dns', 'waf']) {
      await createService(server, ws.teamAdmin, 'edge', { name: handle.toUpperCase(), handle });
    }
  });

  const pagerDutyHook = (body: object, secret = 'pd-secret') => {
    const raw = JSON.stringify(body);
    return server.app.inject({
      method: 'POST',
      url: '/api/integrations/pagerduty',
      headers: {
        'content-type': 'application/json',
        'x-pagerduty-signature': `v1=${createHmac('sha256', secret).update(raw).digest('hex')}`,
      },
      payload: raw,
    });
  };

  it('PagerDuty’s acknowledgement comes back through its signed webhook; a bad signature changes nothing', async () => {
    await declare(ws.teamAdmin, 'cdn', 'critical');
    const [alert] = await alertsOf(ws.teamAdmin, 'cdn');
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id));
    const event = {
      event: {
        event_type: 'incident.acknowledged',
        agent: { summary: 'Pat On-call' },
        data: { incident_key: alert!.id },
      },
    };
    const forged = await pagerDutyHook(event, 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    expect((await getAlert(ws.teamAdmin, alert!.id)).state).toBe('open');
    const answered = await pagerDutyHook(event);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(json(answered)).toEqual({ received: true, applied: true });
    const after = await getAlert(ws.teamAdmin, alert!.id);
    expect(after.state).toBe('acknowledged');
    expect(after.timeline.map((e) => e.message)).toContain('Acknowledged by Pat On-call (PagerDuty)');
    // Opsgenie, told of the alert too, hears of the acknowledgement.
    await until(async () => vendors.opsgenieAlerts.get(alert!.id)?.status === 'acked');
    // PagerDuty's echo of it changes nothing.
    expect(json(await pagerDutyHook(event))).toEqual({ received: true, applied: false });
  });

  it('Opsgenie’s close comes back with the channel’s secret as a bearer token', async () => {
    await declare(ws.teamAdmin, 'dns', 'error');
    const [alert] = await alertsOf(ws.teamAdmin, 'dns');
    await until(async () => vendors.opsgenieAlerts.get(alert!.id));
    const hook = (authorization: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/integrations/opsgenie',
        headers: { 'content-type': 'application/json', authorization },
        payload: { action: 'Close', alert: { alias: alert!.id, username: 'sam@acme.example' } },
      });
    expect((await hook('Bearer wrong')).statusCode).toBe(401);
    const closed = await hook('Bearer og-secret');
    expect(json(closed)).toEqual({ received: true, applied: true });
    expect(await getAlert(ws.teamAdmin, alert!.id)).toMatchObject({ state: 'resolved' });
    await until(async () => vendors.pagerdutyIncidents.get(alert!.id)?.status === 'resolved');
  });

  it('Slack’s Acknowledge button, signed by Slack, acknowledges and updates the message', async () => {
    await declare(ws.teamAdmin, 'waf', 'warning');
    const [alert] = await alertsOf(ws.teamAdmin, 'waf');
    const posted = await until(async () =>
      slack.messages.find((m) => m.channel === 'C0EDGE' && m.text.includes('WAF')),
    );
    expect(JSON.stringify(posted.attachments)).toContain('beacon_alert_acknowledge');
    const press = (secret: string, at = Math.floor(Date.now() / 1000)) => {
      const payload = {
        type: 'block_actions',
        team: { id: 'T0001' },
        user: { id: 'U0042', username: 'rio' },
        actions: [{ action_id: 'beacon_alert_acknowledge', value: alert!.id }],
        container: { channel_id: 'C0EDGE', message_ts: posted.ts },
      };
      const raw = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      const signature = `v0=${createHmac('sha256', secret).update(`v0:${at}:${raw}`).digest('hex')}`;
      return server.app.inject({
        method: 'POST',
        url: '/api/integrations/slack/actions',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-signature': signature,
          'x-slack-request-timestamp': String(at),
        },
        payload: raw,
      });
    };
    expect((await press('wrong')).statusCode).toBe(401);
    expect((await press(SLACK_SIGNING_SECRET, Math.floor(Date.now() / 1000) - 600)).statusCode).toBe(401);
    const pressed = await press(SLACK_SIGNING_SECRET);
    expect(pressed.statusCode, pressed.body).toBe(200);
    const after = await getAlert(ws.teamAdmin, alert!.id);
    expect(after.state).toBe('acknowledged');
    expect(after.timeline.map((e) => e.message)).toContain('Acknowledged by rio (Slack)');
    const edited = slack.messages.find((m) => m.ts === posted.ts)!;
    expect(edited.edits.at(-1)?.text).toBe('WAF: alert acknowledged');
  });
});

describe('who may do what', () => {
  let alertId: string;

  beforeAll(async () => {
    await createService(server, ws.teamAdmin, 'payments', { name: 'Vault', handle: 'vault', visibility: 'owner' });
    await declare(ws.teamAdmin, 'vault', 'error');
    alertId = (await alertsOf(ws.teamAdmin, 'vault'))[0]!.id;
  });

  it('guests read no alerts and channels; a member outside the team sees no owner-only alert', async () => {
    expect((await call(ws.guest, 'GET', '/api/alerts')).statusCode).toBe(403);
    expect((await call(ws.guest, 'GET', '/api/alert-channels')).statusCode).toBe(403);
    const admin = await call(ws.admin, 'GET', '/api/alerts?service=vault'); // admins see every service
    expect(json<Alert[]>(admin)).toHaveLength(1);
    // A member of no team: neither the page nor its total counts the owner-only alert.
    const outsider = await addMember(server, ws.owner, 'mia');
    const everything = await call(ws.admin, 'GET', '/api/alerts?limit=100');
    const seen = await call(outsider, 'GET', '/api/alerts?limit=100');
    expect(seen.statusCode, seen.body).toBe(200);
    const ids = json<Alert[]>(seen).map((alert) => alert.id);
    expect(ids).not.toContain(alertId);
    expect(Number(seen.headers.total)).toBe(ids.length);
    expect(Number(everything.headers.total)).toBeGreaterThan(ids.length);
    expect((await call(outsider, 'GET', '/api/alerts?service=vault')).statusCode).toBe(404);
  });

  it('a member of another team may read a visible alert but not answer it', async () => {
    await createService(server, ws.teamAdmin, 'search', { name: 'Crawler', handle: 'crawler' });
    await declare(ws.teamAdmin, 'crawler', 'warning');
    const [alert] = await alertsOf(ws.teamMember, 'crawler');
    expect(alert).toMatchObject({ permissions: { answer: false } });
    const refused = await call(ws.teamMember, 'POST', `/api/alerts/${alert!.id}/actions/acknowledge`);
    expect(refused.statusCode).toBe(403);
    expect((await getAlert(ws.teamMember, alert!.id)).state).toBe('open');
  });

  it('an API client needs beacon.alert.write to answer, and reads with beacon.alert.read', async () => {
    const reader = await createClient(server, ws.teamAdmin, 'payments', {
      scopes: ['beacon.alert.read'],
      name: 'Reader',
    });
    const writer = await createClient(server, ws.teamAdmin, 'payments', {
      scopes: ['beacon.alert.read', 'beacon.alert.write'],
      name: 'Writer',
    });
    expect((await call(reader.caller, 'GET', `/api/alerts/${alertId}`)).statusCode).toBe(200);
    expect((await call(reader.caller, 'POST', `/api/alerts/${alertId}/actions/acknowledge`)).statusCode).toBe(403);
    const ack = await call(writer.caller, 'POST', `/api/alerts/${alertId}/actions/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
  });

  it('only admins make workspace channels; team admins make their team’s', async () => {
    const body = { name: 'Nope', kind: 'email', config: { addresses: ['x@acme.example'] } };
    expect((await call(ws.teamMember, 'POST', '/api/alert-channels', body)).statusCode).toBe(403);
    expect((await call(ws.teamAdmin, 'POST', '/api/alert-channels', body)).statusCode).toBe(403);
    expect((await call(ws.teamMember, 'POST', '/api/teams/payments/alert-channels', body)).statusCode).toBe(403);
    expect((await call(ws.teamMember, 'PUT', '/api/teams/payments/alert-policy', { rules: [] })).statusCode).toBe(403);
    expect((await call(ws.teamAdmin, 'PUT', '/api/alert-policy', { rules: [] })).statusCode).toBe(403);
  });

  it('a member who may not list a team’s channels still reads its policy’s rules by the channels’ names', async () => {
    const own = await channel(
      ws.teamAdmin,
      { name: 'Search night desk', kind: 'email', config: { addresses: ['night@acme.example'] } },
      'search',
    );
    const saved = await call(ws.teamAdmin, 'PUT', '/api/teams/search/alert-policy', {
      rules: [{ severities: ['critical'], channels: [own.id] }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(ws.teamMember, 'GET', '/api/teams/search/alert-channels')).statusCode).toBe(403);
    const read = await call(ws.teamMember, 'GET', '/api/teams/search/alert-policy');
    expect(read.statusCode, read.body).toBe(200);
    expect(json<AlertPolicy>(read)).toMatchObject({
      source: 'team',
      permissions: { edit: false },
      rules: [{ severities: ['critical'], channels: [own.id], channel_names: ['Search night desk'] }],
    });
    // A deleted channel leaves the names, not a gap the reader cannot explain.
    expect((await call(ws.teamAdmin, 'DELETE', `/api/alert-channels/${own.id}`)).statusCode).toBe(204);
    const after = json<AlertPolicy>(await call(ws.teamMember, 'GET', '/api/teams/search/alert-policy'));
    expect(after.rules[0]!.channel_names).toEqual([]);
    await call(ws.teamAdmin, 'PUT', '/api/teams/search/alert-policy', { rules: [] });
  });

  it('a team’s own channels are read by its members and admins, not by members of other teams', async () => {
    const own = await channel(
      ws.teamAdmin,
      { name: 'Search pager', kind: 'email', config: { addresses: ['search@acme.example'] } },
      'search',
    );
    const listed = await call(ws.teamMember, 'GET', '/api/teams/search/alert-channels');
    expect(listed.statusCode).toBe(403);
    expect(json<{ message: string }>(listed).message).toMatch(/team's members/);
    expect((await call(ws.teamMember, 'GET', `/api/alert-channels/${own.id}`)).statusCode).toBe(404);
    expect((await call(ws.teamMember, 'GET', `/api/alert-channels/${own.id}/deliveries`)).statusCode).toBe(404);
    expect((await call(ws.teamAdmin, 'GET', `/api/alert-channels/${own.id}`)).statusCode).toBe(200);
    expect((await call(ws.admin, 'GET', '/api/teams/search/alert-channels')).statusCode).toBe(200);
    // Bob's own team's channels, and the workspace's, stay his to read.
    expect((await call(ws.teamMember, 'GET', '/api/teams/payments/alert-channels')).statusCode).toBe(200);
    expect((await call(ws.teamMember, 'GET', '/api/alert-channels')).statusCode).toBe(200);
  });
});

describe('channels', () => {
  it('keeps secrets write-only and keeps a secret a change leaves out', async () => {
    const made = await channel(ws.admin, {
      name: 'Telegram',
      kind: 'telegram',
      config: { bot_token: '123456:ABCdefGhIJKlmNoPQRstuVWXyz012345', chat_id: '-100200' },
    });
    expect(made.config).toEqual({ bot_token: 'set', chat_id: '-100200' });
    const renamed = await call(ws.admin, 'PATCH', `/api/alert-channels/${made.id}`, {
      name: 'Telegram ops',
      config: { chat_id: '-100300', bot_token: 'set' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json<AlertChannel>(renamed)).toMatchObject({
      name: 'Telegram ops',
      config: { bot_token: 'set', chat_id: '-100300' },
    });
    vendors.telegramTokens.add('123456:ABCdefGhIJKlmNoPQRstuVWXyz012345');
    const test = await call(ws.admin, 'POST', `/api/alert-channels/${made.id}/actions/test`);
    expect(test.statusCode, test.body).toBe(202);
    const message = await until(async () => vendors.telegramMessages.find((m) => String(m.chat_id) === '-100300'));
    expect(message.text).toContain('Beacon');
    const log = await until(async () => {
      const rows = json<AlertDelivery[]>(await call(ws.admin, 'GET', `/api/alert-channels/${made.id}/deliveries`));
      return rows.find((row) => row.status === 'sent') ? rows : undefined;
    });
    expect(log[0]).toMatchObject({ action: 'test', status: 'sent', code: 200, alert: null, error: null });
  });

  it('logs failed attempts and marks a channel failing after 10 in a row, telling its keepers', async () => {
    const made = await channel(ws.admin, {
      name: 'Flaky',
      kind: 'discord',
      config: { url: `${vendors.url}/discord/1/flaky` },
    });
    for (let i = 0; i < 40; i++) vendors.failNext('discord', { status: 500 });
    for (let i = 0; i < 4; i++) await call(ws.admin, 'POST', `/api/alert-channels/${made.id}/actions/test`);
    const failing = await until(async () => {
      const row = json<AlertChannel>(await call(ws.admin, 'GET', `/api/alert-channels/${made.id}`));
      return row.failing ? row : undefined;
    }, 20_000);
    expect(failing.failing).toBe(true);
    const log = json<AlertDelivery[]>(await call(ws.admin, 'GET', `/api/alert-channels/${made.id}/deliveries`));
    expect(log.some((row) => row.code === 500 && row.error)).toBe(true);
    await server.mail.waitFor(ws.admin.email, (m) => m.subject === '[Beacon] Alert channel Flaky is failing');
  });

  it('keeps a channel’s last 100 attempts in its delivery log, newest first', async () => {
    const made = await channel(ws.admin, {
      name: 'Chatty',
      kind: 'webhook',
      config: { url: `${vendors.url}/hooks/chatty` },
    });
    const row = await findChannel(server.ctx.database.db, await workspaceIdOf(server, ws.domain), made.id);
    const queued: string[] = [];
    for (let i = 0; i < 130; i++) {
      // Each a millisecond apart: the log's order is the order they were queued in.
      const at = new Date(Date.parse('2026-12-01T10:00:00Z') + i).toISOString();
      queued.push((await queueTest(server.ctx.database.db, row!, at, 'Ada')).id);
    }
    outbox.wake();
    const kept = () =>
      server.ctx.database.db
        .selectFrom('alert_deliveries')
        .select('status')
        .where('channel_id', '=', made.id)
        .execute();
    // Every one sent, and the older 30 trimmed (a batch at a time).
    await until(async () => {
      const rows = await kept();
      return rows.length === 100 && rows.every((row) => row.status === 'sent') ? true : undefined;
    }, 20_000);
    const log = json<AlertDelivery[]>(await call(ws.admin, 'GET', `/api/alert-channels/${made.id}/deliveries`));
    expect(log.map((delivery) => delivery.id)).toEqual(queued.slice(30).reverse());
    expect(log.every((delivery) => delivery.status === 'sent' && delivery.code === 200)).toBe(true);
  });

  it('refuses bad input with a clear error and writes nothing', async () => {
    const before = json<AlertChannel[]>(await call(ws.admin, 'GET', '/api/alert-channels')).length;
    const refused = [
      { name: 'X', kind: 'carrier-pigeon', config: {} },
      { name: 'X', kind: 'telegram', config: { bot_token: 'nope', chat_id: '1' } },
      { name: 'X', kind: 'pagerduty', config: { routing_key: 'short' } },
      { name: 'X', kind: 'email', config: {} },
      { name: 'X', kind: 'email', config: { users: ['nobody-here'] } },
      { name: '', kind: 'discord', config: { url: 'ftp://example.com' } },
    ];
    for (const body of refused) {
      const response = await call(ws.admin, 'POST', '/api/alert-channels', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json<{ message: string }>(response).message).toBeTruthy();
    }
    const badFilter = await call(ws.admin, 'GET', '/api/alerts?state=open,bogus');
    expect(badFilter.statusCode).toBe(400);
    expect(json<{ message: string }>(badFilter).message).toBe('Unknown state: bogus');
    const badPolicy = await call(ws.admin, 'PUT', '/api/alert-policy', {
      rules: [{ severities: ['critical'], channels: ['nope'] }],
    });
    expect(badPolicy.statusCode).toBe(400);
    expect(json<AlertChannel[]>(await call(ws.admin, 'GET', '/api/alert-channels'))).toHaveLength(before);
  });
});

describe('the address guard', () => {
  let guarded: TestServer;
  let owner: Member;
  beforeAll(async () => {
    guarded = await startTestServer();
    ({ owner } = await seedWorkspace(guarded, { domain: 'guarded', outsiderDomain: 'guarded-other', team: null }));
  });
  afterAll(() => guarded.close());

  it('refuses a channel that points into the operator’s network', async () => {
    const response = await callAs(guarded, owner, 'POST', '/api/alert-channels', {
      name: 'Internal',
      kind: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(response).errors['config.url']).toBeDefined();
    expect(json<AlertChannel[]>(await callAs(guarded, owner, 'GET', '/api/alert-channels'))).toEqual([]);
  });
});
