import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_CHANNEL_KINDS,
  alertTitle,
  type AlertAction,
  type AlertChannelKind,
  type AlertMessage,
} from '../../../src/domain/alerts.js';
import { DeliveryError, type SendContext } from '../../../src/server/integrations/alert-channels/channel.js';
import {
  vendorSenders,
  type VendorConfigs,
  type VendorKind,
} from '../../../src/server/integrations/alert-channels/index.js';
import { webhookBody } from '../../../src/server/integrations/alert-channels/webhook.js';
import { AlertVendorsStandIn } from '../../support/alert-vendors-stand-in.js';

let standIn: AlertVendorsStandIn;
let dispatcher: Agent;

beforeAll(async () => {
  standIn = await new AlertVendorsStandIn().start();
  dispatcher = new Agent();
});

afterAll(async () => {
  await dispatcher.close();
  await standIn.close();
});

const NOW = Date.parse('2025-03-04T10:00:00Z');

const context = (): SendContext => ({
  dispatcher,
  timeoutMs: 5000,
  urls: standIn.vendorUrls,
  deliveryId: 'delivery-1',
  now: NOW,
});

/** Through the index, as the outbox calls a sender: the kind picks the config's type. */
function deliver<Kind extends VendorKind>(kind: Kind, config: VendorConfigs[Kind], message: AlertMessage) {
  return vendorSenders[kind](config, message, context());
}

let alerts = 0;

/** A message about Payments API (critical unless told), on an alert of its own unless `alertId` is given. */
function message(action: AlertAction = 'trigger', overrides: Partial<AlertMessage> = {}): AlertMessage {
  const alertId = overrides.alertId ?? `alert-${++alerts}`;
  const severity = overrides.severity ?? 'critical';
  const service = overrides.service ?? { handle: 'payments-api', name: 'Payments API' };
  const opens = action === 'trigger' || action === 'raise';
  return {
    action,
    alertId,
    dedupKey: action === 'test' ? `test-${alertId}` : alertId,
    severity,
    state: action === 'acknowledge' ? 'acknowledged' : action === 'resolve' ? 'resolved' : 'open',
    source: 'health',
    service,
    team: { handle: 'payments', name: 'Payments' },
    workspace: { slug: 'acme', name: 'Acme' },
    title: alertTitle(action, service.name, severity),
    summary: `${service.name} has been ${severity} since 10:00: 3 of 3 checks fail.`,
    link: `https://beacon.test/acme/alerts/${alertId}`,
    ...(opens ? { acknowledgeLink: `https://beacon.test/acme/alerts/${alertId}/ack?token=t0k` } : {}),
    ...(opens ? {} : { by: 'Ada Lovelace', reason: 'Rolled back the deploy' }),
    at: '2025-03-04T10:00:00.000Z',
    ...overrides,
  };
}

/** The DeliveryError a send rejected with. */
async function refusal(sending: Promise<unknown>): Promise<DeliveryError> {
  const error = await sending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

const lastReceived = () => standIn.received.at(-1)!;

describe('the vendor senders', () => {
  it('cover every channel kind but email and Slack', () => {
    const kinds: AlertChannelKind[] = Object.keys(vendorSenders) as VendorKind[];
    expect(kinds.sort()).toEqual(ALERT_CHANNEL_KINDS.filter((kind) => kind !== 'email' && kind !== 'slack').sort());
  });
});

describe('webhook', () => {
  const hook = () => `${standIn.url}/hooks/ops`;

  it('posts the documented JSON, signed with the secret as status page webhooks are', async () => {
    const sent = message('trigger');
    expect(await deliver('webhook', { url: hook(), secret: 'whsec_test' }, sent)).toEqual({ status: 200 });
    const received = lastReceived();
    expect(received.vendor).toBe('webhook');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toBe('Beacon-Webhooks/1');
    expect(received.headers['x-beacon-delivery']).toBe('delivery-1');
    const t = Math.floor(NOW / 1000);
    const v1 = createHmac('sha256', 'whsec_test').update(`${t}.${received.raw}`).digest('hex');
    expect(received.headers['x-beacon-signature']).toBe(`t=${t},v1=${v1}`);
    expect(received.body).toEqual(webhookBody(sent));
    expect(received.body).toEqual({
      type: 'beacon.alert',
      action: 'trigger',
      alert: {
        id: sent.alertId,
        state: 'open',
        severity: 'critical',
        source: 'health',
        title: 'Payments API is critical',
        summary: sent.summary,
        link: sent.link,
        acknowledge_link: sent.acknowledgeLink,
        at: sent.at,
        service: { handle: 'payments-api', name: 'Payments API' },
        team: { handle: 'payments', name: 'Payments' },
        workspace: { slug: 'acme', name: 'Acme' },
      },
    });
  });

  it('leaves the signature out without a secret, and tells who resolved and why', async () => {
    await deliver('webhook', { url: hook() }, message('resolve'));
    const received = lastReceived();
    expect(received.headers['x-beacon-signature']).toBeUndefined();
    expect(received.body).toMatchObject({ action: 'resolve', alert: { by: 'Ada Lovelace', state: 'resolved' } });
    expect(received.body).not.toHaveProperty('alert.acknowledge_link');
  });

  it("rejects a refusal with the receiver's status and its words, cut short", async () => {
    standIn.failNext('webhook', { status: 500, body: `Broken ${'x'.repeat(1000)}` });
    const error = await refusal(deliver('webhook', { url: hook() }, message()));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^Broken x+…$/);
    expect(Array.from(error.message).length).toBeLessThanOrEqual(300);
  });

  it('rejects a 429 with the wait of its Retry-After', async () => {
    standIn.failNext('webhook', { status: 429, retryAfterSeconds: 20 });
    const error = await refusal(deliver('webhook', { url: hook() }, message()));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 20_000 });
  });
});

describe('Microsoft Teams', () => {
  const url = () => `${standIn.url}/teams/payments-channel`;

  it('posts one Adaptive Card 1.4, with the acknowledge link as an action', async () => {
    const sent = message('trigger');
    expect(await deliver('teams', { url: url() }, sent)).toEqual({ status: 202 });
    const card = standIn.teamsCards.at(-1)!;
    expect(card.version).toBe('1.4');
    expect(card.body).toEqual([
      expect.objectContaining({ type: 'TextBlock', text: 'Payments API is critical', color: 'attention' }),
      expect.objectContaining({ type: 'TextBlock', text: sent.summary, wrap: true }),
      {
        type: 'FactSet',
        facts: [
          { title: 'Service', value: 'Payments API' },
          { title: 'Team', value: 'Payments' },
          { title: 'Severity', value: 'critical' },
          { title: 'State', value: 'open' },
        ],
      },
    ]);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open alert', url: sent.link },
      { type: 'Action.OpenUrl', title: 'Acknowledge', url: sent.acknowledgeLink },
    ]);
  });

  it('colours a warning and a resolution, and offers no acknowledgement once resolved', async () => {
    await deliver('teams', { url: url() }, message('trigger', { severity: 'warning' }));
    expect((standIn.teamsCards.at(-1)!.body as Array<{ color?: string }>)[0]!.color).toBe('warning');
    await deliver('teams', { url: url() }, message('resolve'));
    const card = standIn.teamsCards.at(-1)!;
    expect((card.body as Array<{ color?: string }>)[0]!.color).toBe('good');
    expect(card.actions).toEqual([expect.objectContaining({ title: 'Open alert' })]);
  });

  it("rejects the flow's refusal with its message, and a 429 with its wait", async () => {
    standIn.failNext('teams', {
      status: 400,
      body: { error: { code: 'TriggerInputSchemaMismatch', message: 'The input body did not match' } },
    });
    const refused = await refusal(deliver('teams', { url: url() }, message()));
    expect(refused).toMatchObject({ status: 400, message: 'The input body did not match' });
    standIn.failNext('teams', { status: 429, retryAfterSeconds: 7 });
    expect(await refusal(deliver('teams', { url: url() }, message()))).toMatchObject({
      status: 429,
      retryAfterMs: 7000,
    });
  });
});

describe('Discord', () => {
  const url = () => `${standIn.url}/discord/1234567890/hook-token_1`;

  it('posts one embed coloured by severity, waiting for the message', async () => {
    const sent = message('trigger');
    expect(await deliver('discord', { url: url() }, sent)).toEqual({ status: 200 });
    expect(lastReceived().path).toBe('/discord/1234567890/hook-token_1?wait=true');
    const posted = standIn.discordMessages.at(-1)!.body;
    expect(posted.content).toBe('Payments API is critical');
    expect(posted.embeds).toEqual([
      {
        title: 'Payments API is critical',
        description: sent.summary,
        url: sent.link,
        color: 0xe01e5a,
        fields: [
          { name: 'Service', value: 'Payments API', inline: true },
          { name: 'Team', value: 'Payments', inline: true },
          { name: 'Severity', value: 'critical', inline: true },
        ],
        timestamp: sent.at,
      },
    ]);
  });

  it("keeps a webhook's own query, colours a resolution, and cuts a long summary to Discord's limits", async () => {
    await deliver('discord', { url: `${url()}?thread_id=42` }, message('resolve', { summary: 'y'.repeat(10_000) }));
    expect(lastReceived().path).toBe('/discord/1234567890/hook-token_1?thread_id=42&wait=true');
    const [embed] = standIn.discordMessages.at(-1)!.body.embeds as Array<{ color: number; description: string }>;
    expect(embed!.color).toBe(0x2eb886);
    expect(embed!.description).toHaveLength(4096);
  });

  it('rejects "Invalid Form Body" with what Discord found, and a 429 with its retry_after', async () => {
    standIn.failNext('discord', {
      status: 400,
      body: {
        message: 'Invalid Form Body',
        code: 50035,
        errors: {
          embeds: { 0: { url: { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' }] } } },
        },
      },
    });
    const refused = await refusal(deliver('discord', { url: url() }, message()));
    expect(refused).toMatchObject({ status: 400, message: 'Invalid Form Body: Not a well formed URL.' });
    standIn.failNext('discord', { status: 429, retryAfterSeconds: 1.5 });
    expect(await refusal(deliver('discord', { url: url() }, message()))).toMatchObject({
      status: 429,
      retryAfterMs: 1500,
    });
  });

  it('rejects an unknown webhook', async () => {
    const refused = await refusal(deliver('discord', { url: `${standIn.url}/discord/nope/x` }, message()));
    expect(refused).toMatchObject({ status: 404, message: 'Unknown Webhook' });
  });
});

describe('Telegram', () => {
  const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
  const config = { bot_token: token, chat_id: '-1001234567890' };
  const service = { handle: 'payments-api', name: '<Payments & Co>' };

  beforeAll(() => standIn.telegramTokens.add(token));

  const noToken = (error: Error) => {
    expect(error.message).not.toContain(token);
    expect(String(error.stack)).not.toContain(token);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(token);
  };

  it('sends HTML Telegram parses, escaped, with the links as buttons', async () => {
    const sent = message('trigger', { service });
    expect(await deliver('telegram', config, sent)).toEqual({ status: 200 });
    expect(lastReceived().path).toBe(`/telegram/bot${token}/sendMessage`);
    expect(lastReceived().body).toMatchObject({
      chat_id: config.chat_id,
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    });
    const posted = standIn.telegramMessages.at(-1)!;
    expect(posted.html).toBe(
      `<b>&lt;Payments &amp; Co&gt; is critical</b>\n&lt;Payments &amp; Co&gt; has been critical since 10:00: 3 of 3 ` +
        `checks fail.\n&lt;Payments &amp; Co&gt; · Payments`,
    );
    expect(posted.text.split('\n')[0]).toBe('<Payments & Co> is critical');
    expect(posted.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Open alert', url: sent.link },
          { text: 'Acknowledge', url: sent.acknowledgeLink },
        ],
      ],
    });
  });

  it('is refused by the stand-in when the HTML is not escaped (what the sender guards against)', async () => {
    const response = await request(`${standIn.url}/telegram/bot${token}/sendMessage`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 1, text: '<b><Payments & Co></b>', parse_mode: 'HTML' }),
    });
    expect(response.statusCode).toBe(400);
    expect(await response.body.json()).toMatchObject({ description: expect.stringMatching(/can't parse entities/) });
  });

  it("rejects Telegram's refusals with its description and code, never the token", async () => {
    const unknown = await refusal(deliver('telegram', { ...config, bot_token: '42:unknownTokenOfSomeBot' }, message()));
    expect(unknown).toMatchObject({ status: 401, message: 'Unauthorized' });
    noToken(unknown);
    const noChat = await refusal(deliver('telegram', { ...config, chat_id: '' }, message()));
    expect(noChat).toMatchObject({ status: 400, message: 'Bad Request: chat not found' });
    noToken(noChat);
    standIn.failNext('telegram', { status: 429, retryAfterSeconds: 3 });
    const flood = await refusal(deliver('telegram', config, message()));
    expect(flood).toMatchObject({ status: 429, retryAfterMs: 3000, message: 'Too Many Requests: retry after 3' });
    noToken(flood);
  });

  it('refuses a token that is not one without sending, and hides the token from a network error', async () => {
    const before = standIn.received.length;
    const bent = await refusal(deliver('telegram', { ...config, bot_token: '1:x/../../other' }, message()));
    expect(bent.message).not.toContain('other');
    expect(standIn.received).toHaveLength(before);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const urls = { ...standIn.vendorUrls, telegram: `http://127.0.0.1:${port}` };
    const error = await vendorSenders.telegram(config, message(), { ...context(), urls }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DeliveryError);
    expect(error!.message).toMatch(/^The request to Telegram failed/);
    noToken(error!);
  });
});

describe('ntfy', () => {
  const url = () => `${standIn.url}/ntfy`;

  it('posts the summary with the title, priority, tags, click and actions as headers', async () => {
    const sent = message('trigger');
    expect(await deliver('ntfy', { url: url(), topic: 'beacon-alerts' }, sent)).toEqual({ status: 200 });
    expect(lastReceived().headers.authorization).toBeUndefined();
    expect(standIn.ntfyMessages.at(-1)).toMatchObject({
      topic: 'beacon-alerts',
      title: 'Payments API is critical',
      priority: 5,
      tags: ['rotating_light', 'payments-api'],
      click: sent.link,
      actions: [
        { action: 'view', label: 'Open alert', url: sent.link },
        { action: 'view', label: 'Acknowledge', url: sent.acknowledgeLink },
      ],
      message: sent.summary,
    });
  });

  it('encodes a title that is not ASCII, and lowers a resolution', async () => {
    const service = { handle: 'zahlungen', name: 'Zahlungsdienst Ü' };
    await deliver('ntfy', { url: `${url()}/`, topic: 'beacon-alerts' }, message('resolve', { service }));
    expect(lastReceived().headers.title).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    expect(standIn.ntfyMessages.at(-1)).toMatchObject({
      title: 'Zahlungsdienst Ü: alert resolved',
      priority: 2,
      tags: ['white_check_mark', 'zahlungen'],
      actions: [{ label: 'Open alert' }],
    });
  });

  it('sends the bearer a protected topic wants, and is refused without it', async () => {
    standIn.ntfyProtect('private-alerts', 'tk_secret');
    const refused = await refusal(deliver('ntfy', { url: url(), topic: 'private-alerts' }, message()));
    expect(refused).toMatchObject({ status: 403, message: 'forbidden' });
    const wrong = await refusal(deliver('ntfy', { url: url(), topic: 'private-alerts', token: 'tk_other' }, message()));
    expect(wrong).toMatchObject({ status: 401, message: 'unauthorized' });
    await deliver('ntfy', { url: url(), topic: 'private-alerts', token: 'tk_secret' }, message('test'));
    expect(lastReceived().headers.authorization).toBe('Bearer tk_secret');
    expect(standIn.ntfyMessages.at(-1)).toMatchObject({ topic: 'private-alerts', priority: 3 });
  });

  it('rejects a 429 with its wait', async () => {
    standIn.failNext('ntfy', { status: 429, retryAfterSeconds: 9 });
    const error = await refusal(deliver('ntfy', { url: url(), topic: 'beacon-alerts' }, message()));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 9000, message: 'limit reached: too many requests' });
  });
});

describe('PagerDuty', () => {
  const config = { routing_key: 'R0UT1NGKEY0123456789ABCDEFGHIJKL' };

  it('triggers, acknowledges and resolves one incident on the alert id', async () => {
    const opened = message('trigger');
    expect(await deliver('pagerduty', config, opened)).toEqual({ status: 202 });
    expect(lastReceived().path).toBe('/pagerduty/v2/enqueue');
    expect(lastReceived().body).toEqual({
      routing_key: config.routing_key,
      event_action: 'trigger',
      dedup_key: opened.alertId,
      payload: {
        summary: opened.summary,
        source: 'beacon:acme/payments-api',
        severity: 'critical',
        timestamp: opened.at,
        component: 'payments-api',
        group: 'payments',
        class: 'health',
        custom_details: { state: 'open', link: opened.link, team: 'Payments' },
      },
      links: [{ href: opened.link, text: 'Open in Beacon' }],
    });
    expect(standIn.pagerdutyIncidents.get(opened.alertId)?.status).toBe('triggered');

    await deliver('pagerduty', config, message('acknowledge', { alertId: opened.alertId }));
    expect(lastReceived().body).toEqual({
      routing_key: config.routing_key,
      event_action: 'acknowledge',
      dedup_key: opened.alertId,
    });
    expect(standIn.pagerdutyIncidents.get(opened.alertId)?.status).toBe('acknowledged');

    await deliver('pagerduty', config, message('resolve', { alertId: opened.alertId }));
    expect(lastReceived().body).toMatchObject({ event_action: 'resolve', dedup_key: opened.alertId });
    expect(standIn.pagerdutyIncidents.get(opened.alertId)).toMatchObject({
      status: 'resolved',
      events: ['trigger', 'acknowledge', 'resolve'],
    });
  });

  it('sends a test as an info trigger on its own dedup key', async () => {
    const test = message('test');
    await deliver('pagerduty', config, test);
    expect(lastReceived().body).toMatchObject({
      event_action: 'trigger',
      dedup_key: `test-${test.alertId}`,
      payload: { severity: 'info' },
    });
  });

  it("rejects an invalid event with PagerDuty's errors, and a 429 with its wait or 30 s", async () => {
    const invalid = await refusal(deliver('pagerduty', { routing_key: 'short' }, message()));
    expect(invalid).toMatchObject({
      status: 400,
      message: "Event object is invalid: Length of 'routing_key' is incorrect (should be 32 characters)",
    });
    standIn.failNext('pagerduty', { status: 429 });
    expect(await refusal(deliver('pagerduty', config, message()))).toMatchObject({ status: 429, retryAfterMs: 30_000 });
    standIn.failNext('pagerduty', { status: 429, retryAfterSeconds: 12 });
    expect(await refusal(deliver('pagerduty', config, message()))).toMatchObject({ status: 429, retryAfterMs: 12_000 });
  });
});

describe('Opsgenie', () => {
  const config = { api_key: 'og-key-0001' };

  beforeAll(() => standIn.opsgenieKeys.add(config.api_key));

  it('creates an alert on the alias, then acknowledges and closes it by alias', async () => {
    const opened = message('trigger');
    expect(await deliver('opsgenie', config, opened)).toEqual({ status: 202 });
    expect(lastReceived().path).toBe('/opsgenie/v2/alerts');
    expect(lastReceived().headers.authorization).toBe('GenieKey og-key-0001');
    expect(lastReceived().body).toEqual({
      message: 'Payments API is critical',
      alias: opened.alertId,
      description: `${opened.summary}\n${opened.link}`,
      priority: 'P1',
      tags: ['beacon', 'payments-api', 'critical'],
      details: { service: 'Payments API', team: 'Payments', state: 'open', link: opened.link },
      entity: 'Payments API',
      source: 'Beacon',
    });
    expect(standIn.opsgenieAlerts.get(opened.alertId)).toMatchObject({ status: 'open', priority: 'P1', region: 'us' });

    await deliver('opsgenie', config, message('acknowledge', { alertId: opened.alertId }));
    expect(lastReceived().path).toBe(`/opsgenie/v2/alerts/${opened.alertId}/acknowledge?identifierType=alias`);
    expect(standIn.opsgenieAlerts.get(opened.alertId)?.status).toBe('acked');

    await deliver('opsgenie', config, message('resolve', { alertId: opened.alertId }));
    expect(lastReceived().path).toBe(`/opsgenie/v2/alerts/${opened.alertId}/close?identifierType=alias`);
    expect(standIn.opsgenieAlerts.get(opened.alertId)).toMatchObject({
      status: 'closed',
      actions: [
        { action: 'acknowledge', user: 'Ada Lovelace', note: 'Rolled back the deploy', source: 'Beacon' },
        { action: 'close', user: 'Ada Lovelace', note: 'Rolled back the deploy', source: 'Beacon' },
      ],
    });
  });

  it('sends to the EU region when the channel is there, a test at P5', async () => {
    const test = message('test');
    await deliver('opsgenie', { ...config, region: 'eu' }, test);
    expect(lastReceived().path).toBe('/opsgenie-eu/v2/alerts');
    expect(standIn.opsgenieAlerts.get(test.dedupKey)).toMatchObject({ region: 'eu', priority: 'P5' });
  });

  it("rejects an unknown key, an empty message and a 429 with Opsgenie's words", async () => {
    const unknown = await refusal(deliver('opsgenie', { api_key: 'og-nope' }, message()));
    expect(unknown).toMatchObject({ status: 401, message: 'Key format is not valid!' });
    const empty = await refusal(deliver('opsgenie', config, message('trigger', { title: '' })));
    expect(empty).toMatchObject({
      status: 422,
      message: 'Request body is not processable. Please check the errors. Message can not be empty.',
    });
    standIn.failNext('opsgenie', { status: 429, retryAfterSeconds: 4 });
    expect(await refusal(deliver('opsgenie', config, message()))).toMatchObject({
      status: 429,
      retryAfterMs: 4000,
      message: 'You are making too many requests!',
    });
  });
});
