import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newPage, screenshot, seriousViolations, startBeacon, type Beacon } from './harness.js';

const OWNER = { email: 'fay@acme.test', name: 'Fay Founder', password: 'Str0ng-pass' };
const WORKSPACE = { name: 'Acme Corp', domain: 'acme-corp' };

let beacon: Beacon;
let browser: Browser;

beforeAll(async () => {
  beacon = await startBeacon();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

/** No serious or critical accessibility violations on the current screen. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousViolations(page), screen).toEqual([]);
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

describe('accounts in the browser', () => {
  it('registers a workspace from the bootstrap beta key and moves to its subdomain', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(beacon.bootstrapLink);
    await expect(page.getByLabel('Beta Code').inputValue()).resolves.toMatch(/^[A-Z0-9]{6}$/);
    await screenshot(page, 'register-step-1');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByLabel('Workspace Name').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(OWNER.email);
    await page.getByLabel('Name', { exact: true }).fill(OWNER.name);
    await page.getByLabel('Password').fill('weak');
    await page.getByLabel('Workspace Name').click();
    await page.getByText('Password is not strong enough.').waitFor();
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('Workspace Name').fill(WORKSPACE.name);
    // Handle and domain follow the names.
    expect(await page.getByLabel('Handle').inputValue()).toBe('fay-founder');
    expect(await page.getByLabel('Workspace Domain').inputValue()).toBe(WORKSPACE.domain);
    await screenshot(page, 'register-step-2');
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    await page.waitForURL((to) => to.origin === beacon.origin(WORKSPACE.domain) && to.pathname === '/login');
    // The new workspace's login says it is ready and has the owner's email filled in.
    await page.getByText('Your workspace is ready. Log in to start.').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(OWNER.email);
    await screenshot(page, 'registered-login');
    await context.close();
  });

  it('refuses a wrong password, then logs in to the saved redirect and clears it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/users?q=fay`);
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_redirect'))).toBe('/users?q=fay');
    await expectAccessible(page, 'login');
    await logIn(page, OWNER.email, 'Wr0ng-pass!');
    await page.getByText('Login/password did not match').waitFor();
    await screenshot(page, 'login-error');
    await logIn(page, OWNER.email, OWNER.password);
    await page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/users?q=fay`);
    expect(await page.evaluate(() => localStorage.getItem('auth_redirect'))).toBeNull();
    await context.close();
  });

  it('shows 404 Not Found for an unknown path and Workspace Not Found for an unknown workspace', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/login`);
    await logIn(page, OWNER.email, OWNER.password);
    await page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/`);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/no/such/page`);
    await page.getByText('404 Not Found').waitFor();
    await page.getByText('No pages found').waitFor();
    await screenshot(page, 'not-found');
    await page.goto(`${beacon.origin('no-such-workspace')}/`);
    await page.getByText('Workspace Not Found').waitFor();
    await screenshot(page, 'workspace-not-found');
    await context.close();
  });

  it('logs out from the user menu; the app then asks for a login again', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/login`);
    await logIn(page, OWNER.email, OWNER.password);
    await page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/`);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/`);
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('invites a user who joins through the mailed link; an owner changes their role', async () => {
    const owner = await newPage(browser);
    await owner.page.goto(`${beacon.origin(WORKSPACE.domain)}/login`);
    await logIn(owner.page, OWNER.email, OWNER.password);
    await owner.page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/`);
    await owner.page.getByRole('button', { name: 'Create' }).click();
    await owner.page.getByRole('menuitem', { name: 'Invite User' }).click();
    await owner.page.getByText('Enter an email to invite a user to this workspace').waitFor();
    await owner.page.getByLabel('Email').fill('nina@acme.test');
    await owner.page.getByRole('button', { name: 'Invite User' }).click();
    await owner.page.getByText('Successfully invited "nina@acme.test"').waitFor();
    await screenshot(owner.page, 'invite-user');

    const mail = await beacon.mail.waitFor('nina@acme.test');
    const link = mail.text.match(/http\S+\/invite\/\S+/)![0];
    const guest = await newPage(browser);
    await guest.page.goto(link);
    await guest.page.getByText('Join Beacon').waitFor();
    await guest.page.getByLabel('Name').fill('Nina Newcomer');
    expect(await guest.page.getByLabel('Handle').inputValue()).toBe('nina-newcomer');
    await guest.page.getByLabel('Password').fill('Str0ng-pass');
    await screenshot(guest.page, 'accept-invite');
    await guest.page.getByRole('button', { name: 'Join' }).click();
    await guest.page.waitForURL(/\/login$/);
    await logIn(guest.page, 'nina@acme.test', 'Str0ng-pass');
    await guest.page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/`);
    // A member gets no Invite User entry and sees roles as text.
    await guest.page.goto(`${beacon.origin(WORKSPACE.domain)}/users`);
    await guest.page.getByRole('link', { name: 'Fay Founder' }).waitFor();
    expect(await guest.page.getByLabel('Role of Fay Founder').count()).toBe(0);
    expect(await guest.page.getByText('Pending Users').count()).toBe(0);

    await owner.page.goto(`${beacon.origin(WORKSPACE.domain)}/users`);
    await owner.page.getByRole('link', { name: 'Nina Newcomer' }).waitFor();
    await expectAccessible(owner.page, 'users');
    await owner.page
      .getByRole('row', { name: /Nina Newcomer/ })
      .locator('.p-dropdown')
      .click();
    await owner.page.getByRole('option', { name: 'Admin' }).click();
    await owner.page.getByText('User Role Update').waitFor();
    await screenshot(owner.page, 'users');
    await owner.page.reload();
    await owner.page.getByRole('link', { name: 'Nina Newcomer' }).waitFor();
    // Local-first: the last-seen list shows at once, the server's answer follows.
    await expect.poll(() => owner.page.getByRole('row', { name: /Nina Newcomer/ }).textContent()).toContain('Admin');

    await owner.page.getByRole('link', { name: 'Nina Newcomer' }).click();
    await owner.page.waitForURL(/\/users\/nina-newcomer$/);
    await owner.page.getByText('nina@acme.test').first().waitFor();
    await screenshot(owner.page, 'profile');
    await owner.page.goto(`${beacon.origin(WORKSPACE.domain)}/users/fay-founder/settings`);
    await owner.page.getByRole('button', { name: 'Upload Avatar' }).waitFor();
    await screenshot(owner.page, 'profile-settings');
    await owner.context.close();
    await guest.context.close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${beacon.origin(WORKSPACE.domain)}/forgot-password`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('We emailed you a link to reset your password!').waitFor();
    await screenshot(page, 'forgot-password');
    const mail = await beacon.mail.waitFor(OWNER.email, (m) => m.text.includes('/reset-password?key='));
    const link = mail.text.match(/http\S+\/reset-password\?key=\S+/)![0];
    expect(link.startsWith(beacon.origin(WORKSPACE.domain))).toBe(true);
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill('N3w-password');
    await page.getByLabel('Confirm Password').fill('N3w-passwordX');
    await page.getByLabel('Password', { exact: true }).click();
    await page.getByText('Confirm Password does not match with Password').waitFor();
    await page.getByLabel('Confirm Password').fill('N3w-password');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL(/\/login$/);
    await logIn(page, OWNER.email, 'N3w-password');
    await page.waitForURL(`${beacon.origin(WORKSPACE.domain)}/`);
    OWNER.password = 'N3w-password';
    await context.close();
  });
});
