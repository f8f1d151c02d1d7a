import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  apiCall,
  apiInviteAndJoin,
  apiToken,
  type Beacon,
  launchChromium,
  logIn,
  newPage,
  screenshot,
  startBeacon,
} from './harness.js';

/** The demo owner edits every service's pages (workspace owners are editors). */
const OWNER = { email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' };
const TEAM = 'docs-team';
const SERVICE = 'quill-ledger';

let beacon: Beacon;
let browser: Browser;
let token: string;
let context: BrowserContext;
let page: Page;
/** Every call of the hook the XSS payloads would make, in any frame. */
const xssCalls: string[] = [];

beforeAll(async () => {
  beacon = await startBeacon();
  await beacon.cli(['demo']);
  browser = await launchChromium();
  token = await apiToken(beacon, 'demo', OWNER.email, OWNER.password);
  const team = await apiCall(beacon, 'demo', 'POST', '/teams', { body: { name: 'Docs Team', handle: TEAM }, token });
  expect(team.status).toBe(201);
  const service = await apiCall(beacon, 'demo', 'POST', `/teams/${TEAM}/services`, {
    body: { name: 'Quill Ledger', handle: SERVICE },
    token,
  });
  expect(service.status).toBe(201);
  ({ context, page } = await newPage(browser));
  // Exposed in every frame of the page: a payload that runs anywhere calls it.
  await context.exposeBinding('__xss', (_source, payload: unknown) => void xssCalls.push(String(payload)));
  page.on('dialog', (dialog) => {
    xssCalls.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await logIn(page, beacon, 'demo', OWNER.email, OWNER.password);
});

afterAll(async () => {
  await browser?.close();
  await beacon?.stop();
});

const url = (path: string) => `${beacon.origin('demo')}${path}`;

/** Resizes and lets the page lay itself out again (CodeMirror measures on the next frames). */
async function resize(width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  );
}

/** Creates an announcement draft through the API; resolves its id. */
async function createDraft(title: string, content: string): Promise<string> {
  const created = await apiCall(beacon, 'demo', 'POST', `/services/${SERVICE}/draft-pages`, {
    body: { section: 'announcements', title, content },
    token,
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

async function readDraft(id: string): Promise<{ content: string; revisions: number; lock: number }> {
  const draft = await apiCall(beacon, 'demo', 'GET', `/services/${SERVICE}/draft-pages/announcements/${id}`, { token });
  expect(draft.status).toBe(200);
  return draft.body as { content: string; revisions: number; lock: number };
}

async function openEditor(id: string): Promise<void> {
  await page.goto(url(`/services/${SERVICE}/draft-announcements/${id}`));
  await page.getByRole('heading', { name: 'Edit Announcement' }).waitFor();
  await page.locator('.cm-content').waitFor();
}

/** Replaces the code editor's text as a user would. */
async function replaceContent(text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** Publishes a page through the API (the browser tests look at how it renders). */
async function publishPage(section: string, title: string, content: string): Promise<string> {
  const created = await apiCall(beacon, 'demo', 'POST', `/services/${SERVICE}/draft-pages`, {
    body: { section, title, content },
    token,
  });
  expect(created.status).toBe(201);
  const { id } = created.body as { id: string };
  const published = await apiCall(
    beacon,
    'demo',
    'POST',
    `/services/${SERVICE}/draft-pages/${section}/${id}/actions/publish`,
    {
      token,
    },
  );
  expect(published.status).toBe(200);
  return id;
}

const VALID_SPEC = `openapi: 3.0.3
info:
  title: Ledger API
  version: 1.0.0
paths:
  /entries:
    get:
      summary: List ledger entries
      responses:
        '200':
          description: The entries
    post:
      summary: Book an entry
      responses:
        '201':
          description: Booked
`;

/**
 * Payloads that would call `__xss` if any markup, handler or URL ran: script tags, event handlers, javascript:
 * and data: URLs, SVG, iframes, style, and markdown link and image forms.
 */
const XSS = [
  '<script>__xss(1)</script>',
  '<script src="data:text/javascript,__xss(2)"></script>',
  '<img src=x onerror="__xss(3)">',
  '<img src="x" onerror=__xss(4) />',
  '<svg onload="__xss(5)"></svg>',
  '<svg><script>__xss(6)</script></svg>',
  '<svg><a xlink:href="javascript:__xss(7)"><text y="20">svg link</text></a></svg>',
  '<svg><animate onbegin="__xss(8)" attributeName="x" dur="1s"/></svg>',
  '<svg><set onbegin="__xss(9)" attributeName="x" to="1"/></svg>',
  '<iframe src="javascript:__xss(10)"></iframe>',
  '<iframe srcdoc="<script>parent.__xss(11)</script>"></iframe>',
  '<iframe src="data:text/html,<script>parent.__xss(12)</script>"></iframe>',
  '<object data="javascript:__xss(13)"></object>',
  '<embed src="javascript:__xss(14)">',
  '<a href="javascript:__xss(15)">js link</a>',
  '<a href="JaVaScRiPt:__xss(16)">mixed case</a>',
  '<a href="&#106;avascript:__xss(17)">entity</a>',
  '<a href="data:text/html,<script>__xss(18)</script>">data link</a>',
  '<body onload="__xss(19)">',
  '<div onmouseover="__xss(20)">hover me</div>',
  '<details open ontoggle="__xss(21)"><summary>toggle</summary>x</details>',
  '<input autofocus onfocus="__xss(22)">',
  '<button onclick="__xss(23)">button</button>',
  '<form action="javascript:__xss(24)"><button>submit</button></form>',
  '<video><source onerror="__xss(25)"></video>',
  '<audio src=x onerror="__xss(26)"></audio>',
  '<marquee onstart="__xss(27)">marquee</marquee>',
  '<style>@import "javascript:__xss(28)";</style>',
  '<style>body { background: url("javascript:__xss(29)") }</style>',
  '<div style="background:url(javascript:__xss(30))">styled</div>',
  '<link rel="stylesheet" href="javascript:__xss(31)">',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss(32)">',
  '<base href="javascript:__xss(33)//">',
  '<math><mtext><table><mglyph><style><img src=x onerror="__xss(34)">',
  '<noscript><p title="</noscript><img src=x onerror=__xss(35)>">',
  '<template><img src=x onerror="__xss(36)"></template>',
  '[markdown link](javascript:__xss(37))',
  '[data link](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoMzgpPC9zY3JpcHQ+)',
  '![markdown image](javascript:__xss(39))',
  '![image" onerror="__xss(40)](x)',
  '[ref link][evil]\n\n[evil]: javascript:__xss(41)',
  '<javascript:__xss(42)>',
  '<img src="x" alt="`<script>__xss(43)</script>`">',
  '<a href="  javascript:__xss(44)">spaced</a>',
  "<svg><use href=\"data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='__xss(45)'/></svg>#x\"/></svg>",
  '<isindex type=image src=1 onerror=__xss(46)>',
];

/** Ordinary raw HTML a page may carry, which must survive. */
const BENIGN = `
<table id="benign-table"><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Pro</td><td>10</td></tr></tbody></table>

<details id="benign-details"><summary>Release details</summary>Everything is faster.</details>

<img id="benign-image" alt="Beacon logo" src="/icons/icon-192.png">
`;

describe('pages in the browser', () => {
  it('creates an announcement draft, publishes it, and shows it on the overview and in the list', async () => {
    await page.goto(url(`/services/${SERVICE}/draft-announcements`));
    await page.getByRole('button', { name: 'Create New' }).click();
    await page.waitForURL(/\/draft-announcements\/new$/);
    await page.getByPlaceholder('Announcement Name').fill('Ledger 2.0 is out');
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.insertText(
      '## Faster bookings\n\nBookings are **twice** as fast.\n\n```js\nconst booked = await ledger.book(entry);\n```\n',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Created Draft').count()).toBeGreaterThan(0);
    await page.waitForURL(
      (target) => /\/draft-announcements\/[^/]+$/.test(target.pathname) && !target.pathname.endsWith('/new'),
    );
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Breadcrumb' }).innerText())
      .toContain('Draft Announcement');
    await screenshot(page, 'pages-editor-desktop');
    await resize(390, 844);
    await screenshot(page, 'pages-editor-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await resize(1280, 800);

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.getByText('Published Draft').count()).toBeGreaterThan(0);

    await page.goto(url(`/services/${SERVICE}`));
    const whatsNew = page.getByRole('article', { name: "What's New" });
    await whatsNew.waitFor();
    expect(await whatsNew.getByRole('heading', { name: 'Ledger 2.0 is out' }).count()).toBe(1);
    expect(await whatsNew.locator('strong').innerText()).toBe('twice');
    await whatsNew.getByRole('button', { name: 'View All Announcements' }).click();
    await page.waitForURL(/\/announcements$/);
    const link = page.getByRole('table', { name: 'Announcements' }).getByRole('link', { name: 'Ledger 2.0 is out' });
    await link.click();
    await page.getByRole('heading', { name: 'Ledger 2.0 is out', level: 1 }).waitFor();
    // The code block is highlighted by the lazily loaded highlighter.
    await page.locator('pre code.hljs .hljs-keyword').first().waitFor();
    await screenshot(page, 'pages-published-desktop');
    await resize(390, 844);
    await screenshot(page, 'pages-published-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await resize(1280, 800);
  });

  it("shows 'Parsing Error' for a spec published before specs were validated", async () => {
    const id = await publishPage('open-api-specs', 'v0.9', VALID_SPEC);
    // Publishing now refuses such a text: an older row still holding one is played by the API's answer.
    const broken = 'openapi: 3.0.3\ninfo:\n  title: Broken\n   version: 1\npaths: [';
    const stored = await apiCall(beacon, 'demo', 'GET', `/services/${SERVICE}/published-pages/open-api-specs/${id}`, {
      token,
    });
    expect(stored.status).toBe(200);
    await page.route(`**/api/services/${SERVICE}/published-pages/open-api-specs/${id}`, (route) =>
      route.fulfill({ json: { ...(stored.body as object), content: broken } }),
    );
    await page.goto(url(`/services/${SERVICE}/open-api-specs/${id}`));
    const alert = page.getByRole('alert').filter({ hasText: 'Parsing Error' });
    await alert.waitFor();
    // The YAML parser's own message.
    const message = (() => {
      try {
        parse(broken, { prettyErrors: true });
        return '';
      } catch (error) {
        return (error as Error).message.split('\n')[0]!;
      }
    })();
    expect(message).not.toBe('');
    expect(await alert.innerText()).toContain(message);
    await page.unroute(`**/api/services/${SERVICE}/published-pages/open-api-specs/${id}`);
  });

  it("shows the server's reasons when it refuses to publish an invalid spec", async () => {
    const created = await apiCall(beacon, 'demo', 'POST', `/services/${SERVICE}/draft-pages`, {
      body: { section: 'open-api-specs', title: 'v2.0-draft', content: 'openapi: 3.0.3\npaths:\n  /entries: []\n' },
      token,
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    await page.goto(url(`/services/${SERVICE}/draft-open-api-specs/${id}`));
    await page.getByRole('heading', { name: 'Edit Open API Spec' }).waitFor();
    await page.locator('.cm-content').waitFor();
    const publish = page.getByRole('button', { name: 'Publish', exact: true });
    await expect.poll(() => publish.isEnabled()).toBe(true);
    await publish.click();
    const refused = page.getByRole('alert', { name: 'Publish refused' });
    await refused.waitFor();
    const text = await refused.innerText();
    expect(text).toContain('The content is not a valid OpenAPI document');
    expect(text).toContain("must have required property 'info'");
    expect(text).not.toContain('The handle has already been taken.');
    await screenshot(page, 'pages-publish-refused');
    const draft = await apiCall(beacon, 'demo', 'GET', `/services/${SERVICE}/draft-pages/open-api-specs/${id}`, {
      token,
    });
    expect(draft.body).toMatchObject({ is_published: false });
  });

  it('renders the operations of a valid spec in the interactive view', async () => {
    const id = await publishPage('open-api-specs', 'v1.0', VALID_SPEC);
    await page.goto(url(`/services/${SERVICE}/open-api-specs/${id}`));
    await page.getByText('List ledger entries').waitFor();
    expect(await page.getByText('Book an entry').count()).toBe(1);
    expect(await page.locator('.opblock-summary-path', { hasText: '/entries' }).count()).toBe(2);
    await screenshot(page, 'pages-spec-desktop');
  });

  it('runs none of the XSS corpus and keeps ordinary raw HTML', async () => {
    expect(XSS.length).toBeGreaterThanOrEqual(40);
    // The hook works: a call from the page is seen (then forgotten).
    await page.evaluate(() => (window as unknown as { __xss(payload: string): void }).__xss('control'));
    await expect.poll(() => xssCalls.includes('control')).toBe(true);
    xssCalls.length = 0;
    const content = `# Corpus\n\n${XSS.join('\n\n')}\n\n${BENIGN}`;
    const id = await publishPage('announcements', 'XSS corpus', content);
    await page.goto(url(`/services/${SERVICE}/announcements/${id}`));
    await page.locator('#benign-table').waitFor();
    expect(await page.locator('#benign-table td').allInnerTexts()).toEqual(['Pro', '10']);
    expect(await page.locator('#benign-details summary').innerText()).toBe('Release details');
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('#benign-image');
      return image?.complete && image.naturalWidth > 0;
    });
    // Give every handler its chance: hover, focus and click what the corpus left, then wait for every image.
    const article = page.getByRole('article', { name: 'XSS corpus' });
    for (const text of ['hover me', 'js link', 'mixed case', 'entity', 'data link', 'markdown link', 'spaced']) {
      const target = article.getByText(text, { exact: true });
      if ((await target.count()) === 0) continue;
      await target.first().hover();
      await target
        .first()
        .click({ modifiers: ['Control'] })
        .catch(() => undefined);
    }
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    // The overview renders the same page in the What's New card.
    await page.goto(url(`/services/${SERVICE}`));
    await page.getByRole('article', { name: "What's New" }).getByRole('heading', { name: 'XSS corpus' }).waitFor();
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    expect(await page.locator('script:not([src]):not([type="module"])').count()).toBeLessThanOrEqual(
      await page.evaluate(() => document.querySelectorAll('head script').length),
    );
    expect(await page.locator('.beacon-markdown iframe, .beacon-markdown script, .beacon-markdown style').count()).toBe(
      0,
    );
    expect(xssCalls).toEqual([]);
  });

  it('downloads the service export as a zip from the settings', async () => {
    await page.goto(url(`/services/${SERVICE}/settings`));
    const card = page.locator('.p-card', { hasText: 'Export Service Pages' });
    // Listened for from the moment the window opens: the download may start before a later listener would.
    const downloaded = new Promise<Download>((resolve) =>
      page.context().once('page', (popup) => popup.once('download', resolve)),
    );
    await card.getByRole('button', { name: 'Export Pages' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`${SERVICE}-pages.zip`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it("downloads every service's pages from the admin card as a zip; a plain member has neither card nor export", async () => {
    await apiInviteAndJoin(beacon, 'demo', token, 'Ada Admin', 'ada');
    const promoted = await apiCall(beacon, 'demo', 'POST', '/users/ada/actions/change-role', {
      body: { role: 'admin' },
      token,
    });
    expect(promoted.status).toBe(200);
    const memberToken = await apiInviteAndJoin(beacon, 'demo', token, 'Mona Member', 'mona');
    await publishPage('announcements', 'Zip me', '**zipped** for the admin');

    const admin = await newPage(browser);
    await logIn(admin.page, beacon, 'demo', 'ada@demo.test', 'Str0ng-pass');
    await admin.page.goto(url('/admin'));
    const card = admin.page.locator('.p-card', { hasText: 'Export Workspace Pages' });
    // Listened for from the moment the window opens: the download may start before a later listener would.
    const downloaded = new Promise<Download>((resolve) =>
      admin.context.once('page', (popup) => popup.once('download', resolve)),
    );
    await card.getByRole('button', { name: 'Export Pages' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('workspace-pages.zip');
    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as {
      pages: Array<{ service: string; section: string; handle: string; file: string | null }>;
    };
    const path = `${SERVICE}/announcements/zip-me.md`;
    expect(manifest.pages).toContainEqual(
      expect.objectContaining({ service: SERVICE, section: 'announcements', handle: 'zip-me', file: path }),
    );
    expect(strFromU8(files[path]!)).toBe('**zipped** for the admin');
    await admin.context.close();

    expect((await apiCall(beacon, 'demo', 'GET', '/pages/actions/export', { token: memberToken })).status).toBe(403);
    const member = await newPage(browser);
    await logIn(member.page, beacon, 'demo', 'mona@demo.test', 'Str0ng-pass');
    await member.page.goto(url('/admin'));
    await member.page.getByRole('heading', { name: '404 Not Found' }).waitFor();
    expect(await member.page.getByText('Export Workspace Pages').count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Export Pages' }).count()).toBe(0);
    await member.context.close();
  });

  it('saves a draft offline and replays it once back online', async () => {
    const id = await createDraft('Offline note', 'First text');
    await openEditor(id);
    await context.setOffline(true);
    await replaceContent('Written offline');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved on this device').waitFor();
    expect((await readDraft(id)).content).toBe('First text');
    await context.setOffline(false);
    await expect.poll(async () => (await readDraft(id)).content, { timeout: 20_000 }).toBe('Written offline');
    // Replayed once: the create's revision and this save's.
    expect((await readDraft(id)).revisions).toBe(2);
  });

  it('shows a conflicting edit with both texts and keeps mine when asked', async () => {
    const id = await createDraft('Contested note', 'Original text');
    await openEditor(id);
    await context.setOffline(true);
    await replaceContent('My offline text');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved on this device').waitFor();
    // Someone else saves meanwhile.
    const theirs = await apiCall(beacon, 'demo', 'PATCH', `/services/${SERVICE}/draft-pages/announcements/${id}`, {
      body: { content: 'Their newer text', lock: 1 },
      token,
    });
    expect(theirs.status).toBe(200);
    await context.setOffline(false);
    const conflict = page.getByRole('alert', { name: 'Conflicting edit' });
    await conflict.waitFor({ timeout: 20_000 });
    expect(await conflict.getByLabel('Your text').innerText()).toContain('My offline text');
    expect(await conflict.getByLabel('Their text').innerText()).toContain('Their newer text');
    expect((await readDraft(id)).content).toBe('Their newer text');
    await screenshot(page, 'pages-conflict-desktop');
    await conflict.getByRole('button', { name: 'Keep Mine' }).click();
    await expect.poll(async () => (await readDraft(id)).content, { timeout: 20_000 }).toBe('My offline text');
    await conflict.waitFor({ state: 'detached' });
  });
});
