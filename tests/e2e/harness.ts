import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import type * as Axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { MailCatcher } from '../support/mail-catcher.js';

export const CHROMIUM = process.env.BEACON_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Beacon {
  port: number;
  mail: MailCatcher;
  /** The one-time registration link the server printed on its first start. */
  bootstrapLink: string;
  origin(workspace?: string): string;
  /** Runs the real `beacon` command against this server's database; resolves with its output. */
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Starts Beacon as README.md says (the built app, `beacon serve`) on a fresh embedded database. */
export async function startBeacon(extraEnv: Record<string, string> = {}): Promise<Beacon> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-e2e-'));
  const mail = new MailCatcher();
  const smtpUrl = await mail.start();
  // The embedded database, whatever the calling shell has configured.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BEACON_DATA_DIR: dataDir,
    BEACON_SMTP_URL: smtpUrl,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['bin/beacon.js', 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  let bootstrapLink = '';
  while (!bootstrapLink) {
    const match = output.match(/http:\/\/\S+\/register\?beta_code=[A-Z0-9]{6}/);
    if (match) bootstrapLink = match[0];
    else if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Beacon did not start:\n${output}`);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    mail,
    bootstrapLink,
    origin: (workspace) => `http://${workspace ? `${workspace}.` : ''}localhost:${port}`,
    cli: (args) =>
      new Promise((resolve, reject) => {
        const run = spawn(process.execPath, ['bin/beacon.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        run.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        run.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        run.on('exit', (code) =>
          code === 0 ? resolve(text) : reject(new Error(`beacon ${args.join(' ')} failed:\n${text}`)),
        );
      }),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Waits until the service worker controls the page: the app is then installed for offline use. A page opened
 * before the worker activated is controlled from its next load, and an install that a busy machine failed
 * (a precache fetch timed out) is tried again by that load's registration.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const active = await page.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]),
    );
    if (active) {
      const controlled = await page
        .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (controlled) return;
    }
    if (attempt === 3) throw new Error('The service worker did not take control of the page');
    await page.reload();
  }
}

/**
 * Waits until the app has stored a query in the user's local database (src/local/query-persister.ts), so what the
 * page shows is there when it is reloaded offline. The write is asynchronous: a test that leaves the page with a
 * full navigation the moment the data is on screen can abort it on a busy machine. With `extended`, any query
 * whose key extends `queryKey` will do (a list's page, whatever its parameters).
 */
export async function waitUntilKept(
  page: Page,
  queryKey: readonly unknown[],
  { extended = false }: { extended?: boolean } = {},
): Promise<void> {
  const exact = `q-${JSON.stringify(queryKey)}`;
  const under = `${exact.slice(0, -1)},`;
  await page.waitForFunction(
    async ({ exact, under, extended }) => {
      const key = extended ? IDBKeyRange.bound(under, `${under}\uffff`) : IDBKeyRange.only(exact);
      const names = (await indexedDB.databases()).map((db) => db.name ?? '').filter((n) => n.startsWith('beacon-'));
      for (const name of names) {
        const found = await new Promise<boolean>((resolve) => {
          const open = indexedDB.open(name);
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('queries')) return resolve((db.close(), false));
            const read = db.transaction('queries').objectStore('queries').count(key);
            read.onsuccess = () => resolve((db.close(), read.result > 0));
            read.onerror = () => resolve((db.close(), false));
          };
        });
        if (found) return true;
      }
      return false;
    },
    { exact, under, extended },
    { polling: 100 },
  );
}

/**
 * Waits until the screen's content is there (its main region, no spinner left in it). A spinner is a progressbar
 * without a value; one with a value is a gauge that stays (an SLO's error budget left).
 */
export async function settled(page: Page): Promise<void> {
  await page.locator('main').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [role="progressbar"]:not([aria-valuenow])'));
}

/**
 * Saves a full-page screenshot to look at, and checks the screen with axe on the way: every screen a test
 * photographs is a screen users see, so none may have a serious or critical violation.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const violations = await seriousViolations(page);
  if (violations.length > 0) throw new Error(`axe on screen '${name}':\n${violations.join('\n')}`);
}

/** Logs in through the login screen of `workspace` and waits for home. */
export async function logIn(page: Page, beacon: Beacon, workspace: string, email: string, password: string) {
  await page.goto(`${beacon.origin(workspace)}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(`${beacon.origin(workspace)}/`);
}

/** Picks an option of the PrimeReact dropdown labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  const id = await page
    .locator('label', { hasText: new RegExp(`^${label}$`) })
    .first()
    .getAttribute('for');
  await page.locator(`#${id}`).locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Calls Beacon's API from the test (setup and server-side checks), with the workspace in the Host header. */
export function apiCall(
  beacon: Beacon,
  workspace: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; cookie?: string } = {},
): Promise<ApiAnswer & { cookie?: string }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: beacon.port,
        method,
        path: `/api${path}`,
        headers: {
          host: `${workspace}.localhost:${beacon.port}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const setCookie = res.headers['set-cookie']?.[0]?.split(';')[0];
          resolve({
            status: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as unknown) : null,
            ...(setCookie ? { cookie: setCookie } : {}),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Logs in through the API and returns an access token. */
export async function apiToken(beacon: Beacon, workspace: string, email: string, password: string): Promise<string> {
  const session = await apiCall(beacon, workspace, 'POST', '/session', { body: { workspace, login: email, password } });
  if (session.status !== 200 || !session.cookie) throw new Error(`login failed: ${session.status}`);
  const token = await apiCall(beacon, workspace, 'POST', '/token', {
    body: { grant_type: 'session', workspace },
    cookie: session.cookie,
  });
  return (token.body as { access_token: string }).access_token;
}

/** Invites an email and joins through the mailed link, through the API; returns the new member's token. */
export async function apiInviteAndJoin(
  beacon: Beacon,
  workspace: string,
  inviterToken: string,
  name: string,
  handle: string,
): Promise<string> {
  const email = `${handle}@${workspace}.test`;
  const invited = await apiCall(beacon, workspace, 'POST', '/invites', { body: { email }, token: inviterToken });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status}`);
  const mail = await beacon.mail.waitFor(email);
  const link = new URL(mail.text.match(/http\S+\/invite\/\S+/)![0]);
  const joined = await apiCall(beacon, workspace, 'POST', '/users', {
    body: {
      workspace,
      invite: { id: link.pathname.split('/').pop(), code: link.searchParams.get('code') },
      user: { name, handle, password: 'Str0ng-pass' },
    },
  });
  if (joined.status !== 201) throw new Error(`join failed: ${joined.status}`);
  return apiToken(beacon, workspace, email, 'Str0ng-pass');
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page (all its default rules), or in the part `include` selects. axe runs in the
 * page itself: the app has no frames, and the Playwright wrapper's frame-by-frame run and its extra page to merge
 * results cost a second or two per screen for the same findings.
 */
export async function axeViolations(page: Page, include?: string): Promise<AxeResults['violations']> {
  await transitionsEnded(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (context) =>
      (window as unknown as { axe: typeof Axe }).axe
        .run(context ? { include: [context] } : document, { resultTypes: ['violations'] })
        .then((results) => results.violations),
    include ?? null,
  );
}

/**
 * Waits for the page's running transitions and finite animations to end: axe reads colours as they are painted, and
 * a dropdown fading out or a button taking its highlight is half its colours meanwhile. A looping animation (a
 * spinner) never ends and is not waited for.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** A violation named by its rule and the elements it names. */
export const describeViolation = (violation: AxeResults['violations'][number]): string =>
  `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`;

/** axe's serious and critical violations on the page, each with the elements it names. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(describeViolation);
}

/** How far the page is wider than the window (0: nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
