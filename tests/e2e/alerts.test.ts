import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, AlertChannel, AlertPolicy, AlertWithTimeline } from '../../src/contract/alerts.js';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  choose,
  horizontalOverflow,
  launchChromium,
  logIn,
  screenshot,
  settled,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
  type Beacon,
} from './harness.js';

/**
 * Issue 50, the alerts screens: the list with Acknowledge in place, an alert's page with its timeline and Resolve, the
 * workspace's channels with Send test and its delivery log, a team's policy editor, at 1366 and 390 px, and offline:
 * the alerts last seen after a reload with the network cut, and an Acknowledge made offline sent once back online
 * (someone else acknowledging first is the same outcome, not a failure).
 */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const TEAM = { handle: 'pager-team', name: 'Pager Team' };
const ANSWERED = { handle: 'pager-api', name: 'Pager API' };
const OFFLINE = { handle: 'pager-web', name: 'Pager Web' };

let beacon: Beacon;
let browser: Browser;
let token: string;
let mailChannel: AlertChannel;
/** Acknowledged, then resolved, in the browser. */
let answered: Alert;
/** Seen, then acknowledged offline. */
let offline: Alert;

const url = (path: string) => `${beacon.origin('demo')}${path}`;

async function api<T>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const answer = await apiCall(beacon, 'demo', method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as T;
}

/** A service of the team that goes critical as a person declaring an incident says so; resolves its alert. */
async function failingService(service: { handle: string; name: string }): Promise<Alert> {
  await api('POST', `/teams/${TEAM.handle}/services`, service, 201);
  await api(
    'POST',
    `/services/${service.handle}/notices`,
    { type: 'incident', title: `${service.name} is down`, message: 'Looking into it', health: 'critical' },
    201,
  );
  const [alert] = await api<Alert[]>('GET', `/alerts?service=${service.handle}`);
  expect(alert).toMatchObject({ state: 'open', severity: 'critical', permissions: { answer: true } });
  return alert!;
}

const getAlert = (id: string) => api<AlertWithTimeline>('GET', `/alerts/${id}`);

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  await api('POST', '/teams', TEAM, 201);
  mailChannel = await api<AlertChannel>(
    'POST',
    '/alert-channels',
    { name: 'On-call mail', kind: 'email', config: { addresses: ['oncall@pager.test'] } },
    201,
  );
  await api('PUT', `/teams/${TEAM.handle}/alert-policy`, {
    rules: [{ severities: ['critical'], channels: [mailChannel.id] }],
  });
  answered = await failingService(ANSWERED);
  offline = await failingService(OFFLINE);
});

afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

async function open(width: number, height: number): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
  return { page, close: () => context.close() };
}

const alertRow = (page: Page, alert: Alert) =>
  page.getByRole('list', { name: 'Alerts' }).getByRole('listitem', { name: `${alert.service.name}: ${alert.summary}` });

describe('alerts in the browser', () => {
  it('lists the alerts, acknowledges one in place, and shows its page with the timeline, then resolves it', async () => {
    const { page, close } = await open(1366, 900);
    const mainNav = page.getByRole('navigation', { name: 'Main' });
    const alertsLink = mainNav.getByRole('link', { name: /^Alerts/ });
    // The badge counts the open alerts (the demo's own too, if it has some). Waited for as the page's own state:
    // the first count is read after the shell starts, which a loaded machine slows past expect.poll's one second.
    await mainNav.getByRole('link', { name: /^Alerts \(\d+ open\)$/ }).waitFor();
    // The number is shown as a badge (hidden from assistive technology, which hears the words).
    expect(await alertsLink.textContent()).toMatch(/^Alerts\d+ \(\d+ open\)$/);
    await alertsLink.click();
    await page.waitForURL(url('/alerts'));
    const row = alertRow(page, answered);
    await row.getByText('Open', { exact: true }).waitFor();
    await row.getByRole('link', { name: ANSWERED.name }).waitFor();
    await row.getByRole('link', { name: TEAM.name }).waitFor();
    await row.getByText('Critical', { exact: true }).waitFor();
    await alertRow(page, offline).waitFor();
    await settled(page);
    await screenshot(page, 'alerts-1366');
    // The team filter: the team's two alerts, none of the demo's.
    await choose(page, 'Team', TEAM.name);
    await page.waitForURL(url(`/alerts?team=${TEAM.handle}`));
    await expect.poll(() => page.getByRole('list', { name: 'Alerts' }).getByRole('listitem').count()).toBe(2);

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByText('Acknowledged', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await expect.poll(async () => (await getAlert(answered.id)).state).toBe('acknowledged');
    // Sent at once, online: nothing waits in the outbox.
    await expect.poll(() => page.getByText(/\d+ pending/).count()).toBe(0);

    // The channel the policy names is told (the alert outbox), then the timeline says so.
    await expect
      .poll(async () => (await getAlert(answered.id)).timeline.some((entry) => entry.kind === 'told'), {
        timeout: 20_000,
      })
      .toBe(true);
    await row.getByRole('link', { name: answered.summary }).click();
    await page.waitForURL(url(`/alerts/${answered.id}`));
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Acknowledged', { exact: true }).waitFor();
    const kinds = await timeline.locator('li > div > span.font-semibold').allTextContents();
    expect(kinds[0]).toBe('Opened');
    expect(kinds).toContain('Acknowledged');
    // The channel the policy names was told, by name and kind.
    await timeline.getByText('On-call mail (Email)').first().waitFor();
    await page.getByRole('heading', { level: 1, name: `${ANSWERED.name}: ${answered.summary}` }).waitFor();
    await screenshot(page, 'alert-1366');

    await page.getByRole('button', { name: 'Resolve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (optional)').fill('Fixed by a rollback');
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('Alert resolved').first().waitFor();
    await timeline.getByText('Resolved', { exact: true }).waitFor();
    await page.getByText('Fixed by a rollback').first().waitFor();
    const resolved = await getAlert(answered.id);
    expect(resolved).toMatchObject({ state: 'resolved', reason: 'Fixed by a rollback' });
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await close();
  });

  it('lets the admin add an email channel through the form and send a test that the delivery log shows as sent', async () => {
    const { page, close } = await open(1366, 900);
    await page.goto(url('/admin'));
    await page.getByRole('link', { name: 'Manage alert channels' }).click();
    await page.waitForURL(url('/admin/alert-channels'));
    await page.getByRole('list', { name: 'Alert channels' }).getByRole('link', { name: 'On-call mail' }).waitFor();
    await screenshot(page, 'alert-channels-1366');

    await page.getByRole('link', { name: 'Add channel' }).click();
    await page.waitForURL(url('/admin/alert-channels/new'));
    // A refused submit says what is missing and focuses it.
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('This field is required').first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('alert-channel-name');
    await page.getByLabel('Name', { exact: true }).fill('Pager mail');
    await page.getByLabel('Other addresses').fill('pager@pager.test');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pager mail' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const channel = await api<AlertChannel>('GET', `/alert-channels/${id}`);
    expect(channel).toMatchObject({ kind: 'email', config: { addresses: ['pager@pager.test'] }, team: null });

    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test sent').first().waitFor();
    const log = page.getByRole('list', { name: 'Deliveries' });
    await log.getByText('Test', { exact: true }).waitFor();
    // The alert outbox hands the mail to the mail outbox: the attempt is sent, and the mail arrives.
    await log.getByText('Sent', { exact: true }).waitFor({ timeout: 20_000 });
    await beacon.mail.waitFor('pager@pager.test', () => true, 20_000);
    await settled(page);
    await screenshot(page, 'alert-channel-1366');
    await close();
  });

  it("saves a rule in the team's policy editor, and refuses a rule without a severity", async () => {
    const { page, close } = await open(1366, 900);
    await page.goto(url(`/teams/${TEAM.handle}/settings`));
    const card = page.locator('#team-alert-policy');
    const rules = card.getByRole('list', { name: 'Rules' });
    const rule = (index: number) => rules.getByRole('group', { name: `Rule ${index}` });
    await rule(1).getByRole('checkbox', { name: 'On-call mail (Email)' }).waitFor();
    expect(await rule(1).getByRole('checkbox', { name: 'Critical' }).isChecked()).toBe(true);
    expect(await rule(1).getByRole('checkbox', { name: 'On-call mail (Email)' }).isChecked()).toBe(true);

    await card.getByRole('button', { name: 'Add rule' }).click();
    await rule(2).getByRole('checkbox', { name: 'Critical' }).uncheck();
    await card.getByRole('button', { name: 'Save' }).click();
    await rule(2).getByText('Pick at least one severity').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toMatch(/^alert-rule-r\d+-severity-warning$/);

    await rule(2).getByRole('checkbox', { name: 'Warning' }).check();
    await rule(2).getByRole('checkbox', { name: 'Error' }).check();
    await rule(2).getByRole('checkbox', { name: 'Pager mail (Email)' }).check();
    await card.getByRole('button', { name: 'Add level' }).click();
    const level = card.getByRole('list', { name: 'Escalation levels' }).getByRole('group', { name: 'Level 1' });
    await level.getByLabel('After (minutes)').fill('10');
    await level.getByRole('checkbox', { name: 'On-call mail (Email)' }).check();
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Alert policy saved').first().waitFor();
    const pager = (await api<AlertChannel[]>('GET', '/alert-channels')).find((c) => c.name === 'Pager mail')!;
    const policy = await api<AlertPolicy>('GET', `/teams/${TEAM.handle}/alert-policy`);
    expect(policy).toMatchObject({
      source: 'team',
      rules: [
        { severities: ['critical'], channels: [mailChannel.id] },
        { severities: ['warning', 'error'], channels: [pager.id] },
      ],
      escalation: [{ after_minutes: 10, targets: [{ channel: mailChannel.id, name: 'On-call mail' }] }],
    });
    await settled(page);
    await screenshot(page, 'alert-policy-1366');
    await close();
  });

  it("adds a team's own channel on its settings, refused at first by the server, and keeps its secret on a change", async () => {
    const { page, close } = await open(1366, 900);
    await page.goto(url(`/teams/${TEAM.handle}/settings`));
    const card = page.locator('#team-alert-channels');
    await card.getByRole('button', { name: 'Add channel' }).click();
    const name = page.locator('#alert-channel-name');
    await name.fill('Team hook');
    await choose(page, 'Kind', 'Webhook');
    // An address inside this machine: the server's address guard refuses it, by its field, which takes the focus.
    await page.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.locator('#alert-channel-url-error').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('alert-channel-url');

    await choose(page, 'Kind', 'PagerDuty');
    await page.getByLabel('Integration key').fill('R0UT1NGKEY0123456789abcdefABCDEF');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('heading', { level: 2, name: 'Team hook' }).waitFor();
    const [own] = await api<AlertChannel[]>('GET', `/teams/${TEAM.handle}/alert-channels`);
    expect(own).toMatchObject({ name: 'Team hook', kind: 'pagerduty', team: { handle: TEAM.handle } });
    expect(own!.config.routing_key).toBe('set');

    // Saved, the secret shows as set and stays out of a change that does not type it.
    const key = page.getByLabel('Integration key');
    expect(await key.inputValue()).toBe('');
    expect(await key.getAttribute('placeholder')).toBe('set');
    await name.fill('Team pager');
    await page.getByRole('form', { name: 'Channel Team hook' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Channel saved').first().waitFor();
    const changed = await api<AlertChannel>('GET', `/alert-channels/${own!.id}`);
    expect(changed).toMatchObject({ name: 'Team pager', config: { routing_key: 'set' } });
    await page.getByRole('button', { name: 'Back to channels' }).click();
    await card.getByRole('list', { name: 'Team alert channels' }).getByText('Team pager').waitFor();
    await settled(page);
    await screenshot(page, 'team-alert-channels-1366');
    await close();
  });

  it('fits a phone: the list, the alert page, the channels and the policy card, with no sideways scroll', async () => {
    const { page, close } = await open(390, 844);
    const screens: Array<[string, string, () => Promise<void>]> = [
      ['/alerts', 'alerts-390', () => alertRow(page, offline).waitFor()],
      [`/alerts/${answered.id}`, 'alert-390', () => page.getByRole('list', { name: 'Timeline' }).waitFor()],
      [
        '/admin/alert-channels',
        'alert-channels-390',
        () => page.getByRole('list', { name: 'Alert channels' }).waitFor(),
      ],
      [
        `/teams/${TEAM.handle}/settings`,
        'alert-policy-390',
        () => page.getByRole('group', { name: 'Level 1' }).waitFor(),
      ],
    ];
    for (const [path, name, ready] of screens) {
      await page.goto(url(path));
      await ready();
      await settled(page);
      expect(await horizontalOverflow(page), `${path} at 390 px`).toBeLessThanOrEqual(0);
      await screenshot(page, name);
    }
    // The Alerts link is in the main menu on a phone.
    await page.getByRole('button', { name: 'Main menu' }).click();
    await page.getByRole('menuitem', { name: /^Alerts/ }).click();
    await page.waitForURL(url('/alerts'));
    await close();
  });

  it('shows the alerts last seen offline, and sends an Acknowledge made offline once back online', async () => {
    // Wide enough for the header's tags to say what waits ("1 pending"; a phone shows their icons only).
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
    await waitForServiceWorker(page);
    await page.goto(url('/alerts'));
    const row = alertRow(page, offline);
    await row.getByText('Open', { exact: true }).waitFor();
    await waitUntilKept(page, ['alerts', 'list'], { extended: true });

    await context.setOffline(true);
    await page.reload();
    await row.getByText('Open', { exact: true }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /Offline · last synced/ })
      .first()
      .waitFor();
    await screenshot(page, 'alerts-offline');

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByText('Acknowledged', { exact: true }).waitFor();
    await page.getByText('1 pending').waitFor();
    expect((await getAlert(offline.id)).state).toBe('open');
    // Meanwhile someone acknowledges it elsewhere: the queued write then gets 409, which is the same outcome.
    await api('POST', `/alerts/${offline.id}/actions/acknowledge`);

    await context.setOffline(false);
    // Sent on the 'online' event; a replay that loses the race with the reconnect is tried again by the outbox's
    // 30 s timer, so allow two of its rounds on a loaded machine.
    await expect.poll(() => page.getByText('1 pending').count(), { timeout: 75_000 }).toBe(0);
    expect(await page.getByText(/not sent/).count()).toBe(0);
    await row.getByText('Acknowledged', { exact: true }).waitFor();
    expect((await getAlert(offline.id)).state).toBe('acknowledged');
    await context.close();
  }, 120_000);

  it('shows a member who is no admin of the team its policy in words, naming the channels, at 1366 and 390 px', async () => {
    await apiInviteAndJoin(beacon, 'demo', token, 'Rita Reader', 'rita');
    const memberEmail = 'rita@demo.test';
    // The team's own channel, which a member of no standing in the team may not list: the card names it all the same.
    const own = await api<AlertChannel>(
      'POST',
      `/teams/${TEAM.handle}/alert-channels`,
      { name: 'Pager desk mail', kind: 'email', config: { addresses: ['desk@pager.test'] } },
      201,
    );
    // Last of the file: it replaces the policy the editor saved.
    await api('PUT', `/teams/${TEAM.handle}/alert-policy`, {
      rules: [
        { severities: ['critical'], channels: [mailChannel.id] },
        { severities: ['warning', 'error'], channels: [own.id] },
      ],
    });
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await logIn(page, beacon, 'demo', memberEmail, 'Str0ng-pass');
      await page.goto(url(`/teams/${TEAM.handle}`));
      const card = page.locator('#team-alert-policy');
      await card.getByText(`Critical: ${mailChannel.name}`).waitFor();
      await card.getByText(`Warning, Error: ${own.name}`).waitFor();
      expect(await card.getByText('A channel').count()).toBe(0);
      expect(await card.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await card.getByText('The levels do not repeat.', { exact: false }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await settled(page);
      await screenshot(page, `alerts-policy-read-${width}`);
      await context.close();
    }
  });
});
