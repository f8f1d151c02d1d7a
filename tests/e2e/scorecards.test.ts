import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  apiToken,
  horizontalOverflow,
  launchChromium,
  logIn as logInAs,
  screenshot,
  startBeacon,
  waitForServiceWorker,
  waitUntilKept,
  type Beacon,
} from './harness.js';

/** Issue 28, scorecards: the list with its level spread, a scorecard's matrix, and a service's Scorecards tab. */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };

let beacon: Beacon;
let browser: Browser;
let ownerToken: string;

const READINESS = {
  handle: 'readiness',
  name: 'Production readiness',
  description: 'What every service we run should have.',
  levels: [
    { key: 'bronze', name: 'Bronze' },
    { key: 'silver', name: 'Silver' },
    { key: 'gold', name: 'Gold' },
  ],
  rules: [
    {
      key: 'described',
      name: 'Has a description',
      level: 'bronze',
      evaluator: 'field_set',
      params: { field: 'description' },
    },
    { key: 'checked', name: 'Live and checked', level: 'bronze', evaluator: 'live_has_check', params: {} },
    {
      key: 'runbook',
      name: 'Has a runbook',
      level: 'silver',
      weight: 2,
      evaluator: 'has_link',
      params: { kind: 'runbook' },
      remediation: 'Link the runbook on-call reads first.',
    },
    {
      key: 'no-incident',
      name: 'No open incident',
      level: 'silver',
      evaluator: 'no_open_incident',
      params: { min_severity: 'error' },
    },
    {
      key: 'channel',
      name: 'Has a Slack channel',
      level: 'gold',
      evaluator: 'has_channel',
      params: {},
      remediation: 'Add the team channel in the settings.',
    },
    { key: 'slo', name: 'SLO met', level: 'gold', weight: 3, evaluator: 'slo_met', params: {} },
  ],
};

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  ownerToken = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  const created = await apiCall(beacon, 'demo', 'POST', '/scorecards', { body: READINESS, token: ownerToken });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

describe('scorecards in the browser', () => {
  it('lists the scorecards, opens one’s matrix filtered by level, and a service’s tab at 390 px, again offline', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);

    await page.goto(url('/scorecards'));
    await page.getByRole('heading', { name: 'Scorecards', level: 1 }).waitFor();
    await page.getByText('What every service we run should have.').waitFor();
    // The demo's own scorecards are listed too: read this one's spread.
    await page
      .getByRole('article', { name: 'Production readiness' })
      .getByText(/^No level: \d+$/)
      .waitFor();
    await screenshot(page, 'scorecards-390');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.getByRole('link', { name: 'Production readiness' }).click();
    await page.waitForURL(url('/scorecards/readiness'));
    const matrix = page.getByRole('table', { name: 'Production readiness results' });
    await matrix.getByRole('columnheader', { name: 'Has a runbook' }).waitFor();
    const rows = await matrix.getByRole('row').count();
    expect(rows).toBeGreaterThan(2);
    // The page itself does not scroll sideways: the matrix scrolls inside its frame.
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'scorecard-matrix-390');

    const api = await apiCall(beacon, 'demo', 'GET', '/scorecards/readiness/results?level=none', { token: ownerToken });
    const noLevel = (api.body as Array<{ service: { name: string } }>).map((r) => r.service.name);
    expect(noLevel.length).toBeGreaterThan(0);
    await page.locator('#scorecard-level').locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').click();
    await page.getByRole('option', { name: 'No level' }).click();
    await page.waitForURL(url('/scorecards/readiness?level=none'));
    // The previous page stays on screen until the filtered one is there.
    await expect.poll(() => matrix.getByRole('row').count()).toBe(noLevel.length + 1);
    await matrix.getByRole('rowheader', { name: noLevel[0] }).waitFor();

    // A service's tab: its level, what holds it back from the next, each rule with what it saw.
    await page.goto(url('/services/checkout/scorecards'));
    const tab = page.getByRole('region', { name: 'Scorecards' });
    await tab.getByRole('heading', { name: 'Production readiness' }).waitFor();
    await tab.getByRole('list', { name: 'Production readiness rules' }).getByText('Has a Slack channel').waitFor();
    // The demo's own scorecards are on the tab too: read this one's card.
    await tab
      .getByRole('article', { name: 'Production readiness' })
      .getByText(/^To reach (Bronze|Silver|Gold)$/)
      .waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'service-scorecards-390');

    await waitUntilKept(page, ['service', 'checkout', 'scorecards']);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page
      .getByRole('region', { name: 'Scorecards' })
      .getByRole('heading', { name: 'Production readiness' })
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /last synced/ })
      .first()
      .waitFor();
    await screenshot(page, 'service-scorecards-offline');
    await context.close();
  });

  it('goes from the matrix to a service’s scorecards on a desktop, with the remediation of a failing rule', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.getByRole('link', { name: 'Scorecards' }).first().click();
    await page.waitForURL(url('/scorecards'));
    await page.getByRole('link', { name: 'Production readiness' }).click();
    const matrix = page.getByRole('table', { name: 'Production readiness results' });
    await matrix.getByRole('link', { name: 'Search', exact: true }).waitFor();
    // Today's bar of the last 30 days counts every service on the scorecard.
    const bars = page.getByRole('list', { name: 'Services at each level, by day' });
    await bars.getByRole('listitem').last().waitFor();
    expect(await bars.getByRole('listitem').count()).toBe(30);
    expect(await bars.getByRole('listitem').last().textContent()).toMatch(
      /^\d{4}-\d{2}-\d{2}: No level \d+, Bronze \d+, Silver 0, Gold 0$/,
    );
    await page.getByRole('heading', { name: 'Most regressed' }).waitFor();
    // The rollup by team: Growth's two services, one at Bronze (Recommendations) and one at none (Search).
    const byTeam = page.getByRole('table', { name: 'By team' });
    expect(
      await byTeam
        .getByRole('row', { name: /^Growth / })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['1', '1', '0', '0']);
    await screenshot(page, 'scorecard-matrix-1366');
    await matrix.getByRole('link', { name: 'Search', exact: true }).click();
    await page.waitForURL(url('/services/search/scorecards'));
    const tab = page.getByRole('region', { name: 'Scorecards' });
    // The demo's Search has no Slack channel: gold asks for one, with the scorecard's advice.
    await tab.getByText('Add the team channel in the settings.').first().waitFor();
    await screenshot(page, 'service-scorecards-1366');

    // An admin waives the channel rule for a month with a reason, then ends the exemption.
    await tab.getByRole('button', { name: 'Exempt Has a Slack channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Exempt “Has a Slack channel”' });
    await dialog.getByLabel('Reason').fill('Search has no on-call rota of its own yet');
    await dialog.getByRole('button', { name: 'Exempt', exact: true }).click();
    await page.getByText('Rule exempted').waitFor();
    await tab.getByText(/^Exempt until .*: Search has no on-call rota of its own yet$/).waitFor();
    const exempt = await apiCall(beacon, 'demo', 'GET', '/services/search/scorecards', { token: ownerToken });
    const channel = (
      exempt.body as Array<{ scorecard: { handle: string }; rules: Array<{ key: string; state: string }> }>
    )
      .find((result) => result.scorecard.handle === 'readiness')!
      .rules.find((rule) => rule.key === 'channel');
    expect(channel).toMatchObject({ state: 'exempt' });
    await screenshot(page, 'service-scorecards-exempt-1366');
    await tab.getByRole('button', { name: 'End the exemption of Has a Slack channel' }).click();
    await page.getByText('Exemption ended').waitFor();
    await tab.getByRole('button', { name: 'Exempt Has a Slack channel' }).waitFor();

    // The team's tab: its own services only, on each scorecard.
    await page.goto(url('/teams/growth/scorecards'));
    const teamMatrix = page.getByRole('table', { name: 'Production readiness results' });
    await teamMatrix.getByRole('link', { name: 'Search', exact: true }).waitFor();
    const teamRows = await teamMatrix.getByRole('rowheader').allTextContents();
    const growth = await apiCall(beacon, 'demo', 'GET', '/scorecards/readiness/results?team=growth', {
      token: ownerToken,
    });
    expect(teamRows).toEqual((growth.body as Array<{ service: { name: string } }>).map((r) => r.service.name));
    expect(await teamMatrix.getByRole('columnheader', { name: 'Team' }).count()).toBe(0);
    await screenshot(page, 'team-scorecards-1366');
    await context.close();
  });

  it('lets an admin define a scorecard in the editor, see it evaluated, change it and delete it', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    /** Picks `option` in the PrimeReact select whose input is `#id`. */
    const pick = async (id: string, option: string) => {
      await page.locator(`#${id}`).locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    const rule = (index: number) =>
      page.getByRole('list', { name: 'Rules' }).getByRole('group', { name: `Rule ${index}` });
    /** The id the rule's controls start with (its selects are found by id: their labels repeat in every rule). */
    const ruleId = async (index: number) =>
      (await rule(index).getByLabel('Rule name').getAttribute('id'))!.replace(/-name$/, '');

    await page.goto(url('/scorecards'));
    await page.getByRole('link', { name: 'New scorecard' }).click();
    await page.waitForURL(url('/admin/scorecards/new'));
    await page.getByLabel('Name', { exact: true }).fill('Service basics');
    expect(await page.getByLabel('Handle').inputValue()).toBe('service-basics');
    // Three levels to start; Gold is not wanted here.
    await page.getByRole('button', { name: 'Remove level Gold' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Levels' }).getByRole('listitem').count()).toBe(2);

    await page.getByRole('button', { name: 'Add rule' }).click();
    await rule(1).getByLabel('Rule name').fill('Has a description');
    expect(await rule(1).getByLabel('Key').inputValue()).toBe('has-a-description');

    await page.getByRole('button', { name: 'Add rule' }).click();
    await rule(2).getByLabel('Rule name').fill('Runbook linked');
    await pick(`${await ruleId(2)}-evaluator`, 'Has a link of a kind');
    await rule(2).getByText('Link kind').waitFor();
    await pick(`${await ruleId(2)}-level`, 'Silver');
    await rule(2).getByLabel('Weight').fill('2');
    await rule(2).getByLabel('What to do when it fails').fill('Add a link named Runbook.');

    await page.getByRole('button', { name: 'Add rule' }).click();
    await rule(3).getByLabel('Rule name').fill('Quiet for half an hour');
    await pick(`${await ruleId(3)}-evaluator`, 'No failing check for some minutes');
    await rule(3).getByLabel('Minutes').fill('0');
    await page.getByRole('button', { name: 'Create scorecard' }).click();
    await rule(3).getByText('A whole number from 1 to 10080').waitFor();
    await rule(3).getByLabel('Minutes').fill('30');
    await screenshot(page, 'scorecard-editor-1366');
    await page.getByRole('button', { name: 'Create scorecard' }).click();
    await page.getByText('Scorecard was created').waitFor();
    await page.waitForURL(url('/admin/scorecards/service-basics'));

    const created = await apiCall(beacon, 'demo', 'GET', '/scorecards/service-basics', { token: ownerToken });
    const card = created.body as {
      levels: Array<{ key: string }>;
      rules: Array<{ key: string; level: string; weight: number; evaluator: string; params: object }>;
      distribution: Array<{ services: number }>;
    };
    expect(card.levels.map((level) => level.key)).toEqual(['bronze', 'silver']);
    expect(card.rules.map((r) => [r.key, r.level, r.weight, r.evaluator, r.params])).toEqual([
      ['has-a-description', 'bronze', 1, 'field_set', { field: 'description' }],
      ['runbook-linked', 'silver', 2, 'has_link', { kind: 'runbook' }],
      ['quiet-for-half-an-hour', 'bronze', 1, 'no_failing_checks', { minutes: 30 }],
    ]);
    // Evaluated at once: every service of the workspace is somewhere in the spread.
    const services = await apiCall(beacon, 'demo', 'GET', '/search/services?limit=36', { token: ownerToken });
    expect(card.distribution.reduce((sum, part) => sum + part.services, 0)).toBe((services.body as unknown[]).length);

    // Opened, its matrix has the rules as columns; Edit brings the form back with what was saved.
    await page.getByRole('link', { name: 'Open scorecard' }).click();
    const matrix = page.getByRole('table', { name: 'Service basics results' });
    await matrix.getByRole('columnheader', { name: 'Runbook linked' }).waitFor();
    await page.getByRole('link', { name: 'Edit scorecard' }).click();
    await page.waitForURL(url('/admin/scorecards/service-basics'));
    expect(await rule(2).getByLabel('Key').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Remove rule Quiet for half an hour' }).click();
    await rule(1).getByLabel('Weight').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Scorecard was updated').waitFor();
    const updated = await apiCall(beacon, 'demo', 'GET', '/scorecards/service-basics', { token: ownerToken });
    expect((updated.body as typeof card).rules.map((r) => [r.key, r.weight])).toEqual([
      ['has-a-description', 3],
      ['runbook-linked', 2],
    ]);

    // A second scorecard with the same handle is refused by the handle field.
    await page.goto(url('/admin/scorecards/new'));
    await page.getByLabel('Name', { exact: true }).fill('Service basics');
    await page.getByRole('button', { name: 'Create scorecard' }).click();
    await page.getByText('Another scorecard has this handle').waitFor();
    expect(page.url()).toBe(url('/admin/scorecards/new'));

    // Deleted, it is gone from the list.
    await page.goto(url('/admin/scorecards/service-basics'));
    await page.getByRole('button', { name: 'Delete scorecard' }).click();
    await page.getByRole('dialog', { name: 'Delete scorecard' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Scorecard was deleted').waitFor();
    await page.waitForURL(url('/scorecards'));
    await page.getByRole('link', { name: 'Production readiness' }).waitFor();
    expect(await page.getByRole('link', { name: 'Service basics' }).count()).toBe(0);
    expect((await apiCall(beacon, 'demo', 'GET', '/scorecards/service-basics', { token: ownerToken })).status).toBe(
      404,
    );
    await context.close();
  });

  it('fits the editor on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logInAs(page, beacon, 'demo', OWNER.email, OWNER.password);
    await page.goto(url('/admin/scorecards/readiness'));
    await page.getByRole('heading', { name: 'Edit Production readiness' }).waitFor();
    await page.getByRole('list', { name: 'Rules' }).getByRole('group', { name: 'Rule 6' }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'scorecard-editor-390');
    await context.close();
  });
});
