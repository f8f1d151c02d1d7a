// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../src/contract/catalogue.js';
import type { DraftPage, PublishedPage } from '../../../src/contract/pages.js';
import { canSave, canUnpublish, publishPlan } from '../../../src/app/pages/draft-rules.js';
import { renderMarkdown } from '../../../src/app/pages/sanitize.js';
import { parseSpec, SpecView } from '../../../src/app/pages/spec-view.js';
import { isMobileAgent } from '../../../src/app/pages/code-editor.js';
import { makeService, makeUser, page, renderApp, resetLocalDb, stubApi, type Call } from './services-kit.js';

const MOBILE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';

beforeAll(() => {
  process.env.TZ = 'UTC';
  // The content editor is a plain text area on mobile agents (spec): the form tests type into it.
  Object.defineProperty(window.navigator, 'userAgent', { configurable: true, get: () => MOBILE });
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

describe('draft rules', () => {
  const stored = { title: 'Launch', content: '# Hello' };
  it('saves only non-empty, changed text', () => {
    expect(canSave({ title: '', content: 'x' }, null)).toBe(false);
    expect(canSave({ title: 'x', content: '  ' }, null)).toBe(false);
    expect(canSave({ title: 'x', content: 'y' }, null)).toBe(true);
    expect(canSave(stored, stored)).toBe(false);
    expect(canSave({ ...stored, content: '# Hello!' }, stored)).toBe(true);
    expect(canSave({ ...stored, title: 'Launch 2' }, stored)).toBe(true);
  });
  it('publishes directly when unchanged, saves first when changed, never without an id', () => {
    expect(publishPlan(stored, null)).toBe('none');
    expect(publishPlan(stored, stored)).toBe('publish');
    expect(publishPlan({ ...stored, content: 'new' }, stored)).toBe('save-then-publish');
    expect(publishPlan({ ...stored, content: '' }, stored)).toBe('none');
  });
  it('unpublishes only a published draft', () => {
    expect(canUnpublish(null)).toBe(false);
    expect(canUnpublish({ published_at: null })).toBe(false);
    expect(canUnpublish({ published_at: '2024-03-05T09:30:00.000Z' })).toBe(true);
  });
  it('tells mobile agents', () => {
    expect(isMobileAgent(MOBILE)).toBe(true);
    expect(isMobileAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(false);
  });
});

describe('markdown sanitiser', () => {
  const hostile = [
    '<script>window.__xss()</script>',
    '<img src=x onerror="window.__xss()">',
    '<svg onload="window.__xss()"><circle r="1"/></svg>',
    '<iframe src="javascript:window.__xss()"></iframe>',
    '<a href="javascript:window.__xss()">click</a>',
    '[click](javascript:window.__xss())',
    '<a href="data:text/html,<script>window.__xss()</script>">data</a>',
    '<style>body{display:none}</style>',
    '<details open ontoggle="window.__xss()"><summary>x</summary></details>',
    '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss()>',
  ];
  it('keeps no script, handler, javascript: or data: link, frame or style sheet', () => {
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown(hostile.join('\n\n'));
    expect(root.querySelectorAll('script, iframe, style, object, embed')).toHaveLength(0);
    for (const element of root.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        expect(attribute.name).not.toMatch(/^on/i);
        expect(attribute.value).not.toMatch(/^\s*(javascript|data):/i);
      }
    }
  });
  it('keeps tables, details, images, links and GFM', () => {
    const html = renderMarkdown(
      [
        '<table><tr><td>cell</td></tr></table>',
        '<details><summary>More</summary>Hidden</details>',
        '<img src="/logo.png" alt="Logo">',
        '| a | b |\n| - | - |\n| 1 | 2 |',
        '~~gone~~ and [docs](https://example.com)',
        '- [x] done',
      ].join('\n\n'),
    );
    const root = document.createElement('div');
    root.innerHTML = html;
    expect(root.querySelectorAll('table')).toHaveLength(2);
    expect(root.querySelector('details summary')?.textContent).toBe('More');
    expect(root.querySelector('img')?.getAttribute('src')).toBe('/logo.png');
    expect(root.querySelector('del')?.textContent).toBe('gone');
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
    expect(root.querySelector('input[type=checkbox]')).toBeNull();
  });
  it('lets the keyboard reach code blocks and tables, which scroll sideways', () => {
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown('```js\nconst x = 1;\n```\n\n| a |\n| - |\n| 1 |\n\n<pre>raw</pre>\n\nplain');
    expect([...root.querySelectorAll('pre, table')].map((element) => element.getAttribute('tabindex'))).toEqual([
      '0',
      '0',
      '0',
    ]);
    expect(root.querySelector('p')?.hasAttribute('tabindex')).toBe(false);
  });
});

describe('spec view', () => {
  it("says 'No config provided' without a spec", () => {
    expect(parseSpec('  ')).toEqual({ kind: 'empty' });
    render(<SpecView text="" />);
    expect(screen.getByText('No config provided')).toBeTruthy();
  });
  it("shows 'Parsing Error' with the parser's message", () => {
    const text = 'openapi: 3.0.0\ninfo:\n  title: x\n   version: 1\npaths: [';
    const parsed = parseSpec(text);
    expect(parsed.kind).toBe('error');
    render(<SpecView text={text} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Parsing Error')).toBeTruthy();
    expect(alert.textContent).toContain((parsed as { message: string }).message.split('\n')[0]);
  });
  it('reads YAML and JSON', () => {
    expect(parseSpec('openapi: 3.0.0\npaths: {}').kind).toBe('spec');
    expect(parseSpec('{"openapi":"3.0.0","paths":{}}').kind).toBe('spec');
    expect(parseSpec('just a string').kind).toBe('error');
  });
});

const me = makeUser('mia');
const payments = makeService('payments', { name: 'Payments' });
const editable: Service = { ...payments, permissions: { edit: true } };

function makeDraft(id: string, overrides: Partial<DraftPage> = {}): DraftPage {
  return {
    id,
    handle: `page-${id}`,
    section: 'announcements',
    title: `Page ${id}`,
    content: `# Page ${id}`,
    lock: 1,
    is_published: false,
    published_at: null,
    updated_at: '2024-03-05T09:30:00.000Z',
    updated_by: { name: 'Mia' },
    revisions: 1,
    ...overrides,
  };
}

function published(draft: DraftPage): PublishedPage {
  return {
    id: draft.id,
    handle: draft.handle,
    section: draft.section,
    title: draft.title,
    content: draft.content,
    published_at: draft.published_at ?? '2024-03-05T09:30:00.000Z',
    updated_at: draft.updated_at,
    updated_by: draft.updated_by,
  };
}

/** What the API answers to publishing a spec that is not an OpenAPI document (docs/decisions.md#pages). */
const SPEC_REFUSAL = {
  message: "The content is not a valid OpenAPI document: REQUIRED must have required property 'info'",
  errors: {
    content: [
      "REQUIRED must have required property 'info'",
      'TYPE must be object',
      'OpenAPI 3.1 definitions must contain at least one entry in either `paths`, `webhooks`, or `components`.',
      '…and 2 more problems',
    ],
  },
};

/** A server holding the service's drafts, answering the generic door as the API does. */
function pagesApi(service: Service, initial: DraftPage[] = []) {
  const drafts = [...initial];
  const base = `/api/services/${service.handle}`;
  const calls = stubApi(me, {
    handler: (call: Call) => {
      if (call.method === 'GET' && call.path === base) return { status: 200, body: service };
      if (call.method === 'GET' && call.path === `${base}/published-pages`)
        return page(drafts.filter((draft) => draft.published_at).map((draft) => published(draft)));
      if (call.method === 'GET' && call.path === `${base}/draft-pages`) return page(drafts);
      if (call.method === 'POST' && call.path === `${base}/draft-pages`) {
        const body = call.body as { title: string; content: string; handle?: string };
        if (drafts.some((draft) => draft.handle === body.handle))
          return { status: 422, body: { message: 'The handle has already been taken.' } };
        const created = makeDraft(`d${drafts.length + 1}`, { title: body.title, content: body.content });
        drafts.push(created);
        return { status: 201, body: created };
      }
      const one = /^\/api\/services\/[^/]+\/draft-pages\/[^/]+\/([^/]+)(\/actions\/(publish|unpublish))?$/.exec(
        call.path,
      );
      const index = one ? drafts.findIndex((draft) => draft.id === one[1] || draft.handle === one[1]) : -1;
      if (one && index < 0) return { status: 404, body: { message: 'Not found' } };
      if (one && call.method === 'GET') return { status: 200, body: drafts[index] };
      if (one && call.method === 'PATCH') {
        const body = call.body as { title: string; content: string; lock: number };
        if (body.lock !== drafts[index]!.lock) return { status: 412, body: { ...drafts[index], message: 'Stale' } };
        drafts[index] = { ...drafts[index]!, ...body, lock: body.lock + 1 };
        return { status: 200, body: drafts[index] };
      }
      if (one && call.method === 'POST') {
        const publish = one[3] === 'publish';
        if (publish && drafts[index]!.section === 'open-api-specs' && !drafts[index]!.content.startsWith('openapi'))
          return { status: 422, body: SPEC_REFUSAL };
        drafts[index] = {
          ...drafts[index]!,
          is_published: publish,
          published_at: publish ? '2024-03-06T12:00:00.000Z' : null,
        };
        return { status: 200, body: drafts[index] };
      }
      if (one && call.method === 'DELETE') {
        drafts.splice(index, 1);
        return { status: 204 };
      }
      return undefined;
    },
  });
  return { calls, drafts };
}

describe('published lists', () => {
  it('lists published pages with Name and Updated; readers get no Manage', async () => {
    pagesApi(payments, [makeDraft('d1', { title: 'Launch', published_at: '2024-03-05T09:30:00.000Z' })]);
    renderApp('/services/payments/announcements');
    const table = await screen.findByRole('table', { name: 'Announcements' });
    expect(within(table).getByText('Name')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Launch' }).getAttribute('href')).toBe(
      '/services/payments/announcements/d1',
    );
    expect(within(table).getByText('Mar 5, 2024')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Drafts Announcements' })).toBeNull();
  });

  it("shows each section's empty text and Manage for editors", async () => {
    pagesApi(editable);
    renderApp('/services/payments/open-api-specs');
    expect(await screen.findByText('No published open api specs')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Manage' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Drafts Open API Specs' })).toBeTruthy();
  });
});

describe('draft lists', () => {
  it('lists drafts with their status and an empty text with Create one', async () => {
    pagesApi(editable, [makeDraft('d1', { title: 'Launch', published_at: '2024-03-05T09:30:00.000Z' })]);
    renderApp('/services/payments/draft-announcements');
    const table = await screen.findByRole('table', { name: 'Drafts Announcements' });
    for (const header of ['Title', 'Status', 'Updated', 'Modified By'])
      expect(within(table).getByText(header)).toBeTruthy();
    expect(within(table).getByText('Published')).toBeTruthy();
    expect(within(table).getByText('Mia')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create New' })).toBeTruthy();
    expect(screen.getByText('Drafts Announcements', { selector: 'nav[aria-label="Breadcrumb"] *' })).toBeTruthy();
    cleanup();

    pagesApi(editable);
    renderApp('/services/payments/draft-release-notes');
    expect((await screen.findByRole('link', { name: 'Create one' })).getAttribute('href')).toBe(
      '/services/payments/draft-release-notes/new',
    );
  });

  it('hides the draft routes from readers', async () => {
    pagesApi(payments);
    renderApp('/services/payments/draft-announcements');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });
});

describe('draft editor', () => {
  it('creates a draft, moves to its id, and says so; Save waits for a title and content', async () => {
    const { calls } = pagesApi(editable);
    renderApp('/services/payments/draft-announcements/new');
    const title = await screen.findByPlaceholderText('Announcement Name');
    expect(screen.getByPlaceholderText('announcement-handle')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Publish' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(title, { target: { value: 'Launch' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: '# Hello' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await screen.findByText('Created Draft')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path.endsWith('/draft-pages'))?.body).toEqual({
      section: 'announcements',
      title: 'Launch',
      content: '# Hello',
    });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Edit Announcement' })).toBeTruthy());
    expect(screen.getByText('Draft Announcement', { selector: 'nav[aria-label="Breadcrumb"] *' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("reads a taken handle as 'The handle has already been taken.'", async () => {
    pagesApi(editable, [makeDraft('d1')]);
    renderApp('/services/payments/draft-announcements/new');
    fireEvent.change(await screen.findByPlaceholderText('Announcement Name'), { target: { value: 'Again' } });
    fireEvent.change(screen.getByPlaceholderText('announcement-handle'), { target: { value: 'page-d1' } });
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The handle has already been taken.')).toBeTruthy();
  });

  it('publishes an unchanged draft directly, and saves a changed one first', async () => {
    const { calls, drafts } = pagesApi(editable, [makeDraft('d1', { title: 'Launch', content: 'One' })]);
    renderApp('/services/payments/draft-announcements/d1');
    const publish = (await screen.findByRole('button', { name: 'Publish' })) as HTMLButtonElement;
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    expect(await screen.findByText('Published Draft')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(0);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Unpublish' }) as HTMLButtonElement).disabled).toBe(false),
    );

    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'Two' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Updated Draft')).toBeTruthy();
    await waitFor(() => expect(calls.filter((call) => call.path.endsWith('/actions/publish'))).toHaveLength(2));
    const order = calls
      .filter((call) => call.method !== 'GET' && call.path.includes('/draft-pages/'))
      .map((call) => call.method);
    expect(order).toEqual(['POST', 'PATCH', 'POST']);
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ title: 'Launch', content: 'Two', lock: 1 });
    expect(drafts[0]!.content).toBe('Two');

    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Publish' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Unpublish' }));
    // The snackbars show three at a time: the unpublish is seen on the server.
    await waitFor(() => expect(drafts[0]!.published_at).toBeNull());
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Unpublish' }) as HTMLButtonElement).disabled).toBe(true),
    );
  });

  it("shows why the server refused to publish a spec, not 'handle taken'; nothing is published", async () => {
    const spec = makeDraft('s1', { section: 'open-api-specs', title: 'v1', content: 'title: Ledger\npaths: []' });
    const { calls, drafts } = pagesApi(editable, [spec]);
    renderApp('/services/payments/draft-open-api-specs/s1');
    const publish = (await screen.findByRole('button', { name: 'Publish' })) as HTMLButtonElement;
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    const refused = await screen.findByRole('alert', { name: 'Publish refused' });
    expect(within(refused).getByText(SPEC_REFUSAL.message)).toBeTruthy();
    expect(
      within(refused)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(SPEC_REFUSAL.errors.content);
    expect(screen.queryByText('The handle has already been taken.')).toBeNull();
    expect(screen.queryByText('Published Draft')).toBeNull();
    expect(calls.filter((call) => call.path.endsWith('/actions/publish'))).toHaveLength(1);
    expect(drafts[0]!.published_at).toBeNull();

    // A spec the server takes: the refusal goes.
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: 'openapi: 3.1.0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Published Draft')).toBeTruthy();
    expect(screen.queryByRole('alert', { name: 'Publish refused' })).toBeNull();
  });
});
