import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/contract/feeds.js';
import type { DraftPage, DraftSummary, PublishedPage, PublishedSummary } from '../../src/contract/pages.js';
import { addMember, createClient, createService, seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/**
 * Issue 15 and docs/decisions.md#pages: pages and drafts through both doors (the generic `draft-pages` routes and each
 * section's own), locks and 412, the taken handle's 422, publishing, permissions and the zip export.
 *
 * Cast: alice admins Payments (billing: workspace; vault: owner-only), bob is a member of Payments, carol is a
 * member in no team, gus a guest, ada a workspace admin.
 */
let server: TestServer;
let owner: Member;
let admin: Member;
let alice: Member;
let bob: Member;
let carol: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const ok = async <T>(actor: Member, method: Method, url: string, payload?: object, status = 200) => {
  const response = await call(actor, method, url, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
  return json<T>(response);
};

beforeAll(async () => {
  server = await startTestServer();
  ({
    owner,
    admin,
    teamAdmin: alice,
    teamMember: bob,
    guest,
    outsider,
  } = await seedWorkspace(server, {
    domain: 'pageco',
  }));
  carol = await addMember(server, owner, 'carol');
  await createService(server, alice, 'payments', { name: 'Billing', handle: 'billing' });
  await createService(server, alice, 'payments', { name: 'Vault', handle: 'vault', visibility: 'owner' });
});
afterAll(() => server.close());

describe('drafts through the generic door', () => {
  let draft: DraftPage;

  it('creates a draft at lock 1 with a handle from its title; the title is also its name', async () => {
    draft = await ok<DraftPage>(
      bob,
      'POST',
      '/api/services/billing/draft-pages',
      { section: 'announcements', title: 'Faster checkout!', content: '# Hello' },
      201,
    );
    expect(draft).toMatchObject({
      handle: 'faster-checkout',
      section: 'announcements',
      title: 'Faster checkout!',
      name: 'Faster checkout!',
      content: '# Hello',
      lock: 1,
      is_published: false,
      published_at: null,
      updated_by: { name: 'User bob' },
      revisions: 1,
    });
    const listed = await ok<DraftSummary[]>(bob, 'GET', '/api/services/billing/draft-pages?section=announcements');
    expect(listed.map((d) => d.handle)).toEqual(['faster-checkout']);
    expect(listed[0]).not.toHaveProperty('content');
  });

  it('answers 422 for a taken handle, in the spec’s words', async () => {
    const taken = await call(bob, 'POST', '/api/services/billing/draft-pages', {
      section: 'announcements',
      title: 'Faster Checkout',
    });
    expect(taken.statusCode).toBe(422);
    expect(json(taken)).toMatchObject({ message: 'The handle has already been taken.' });
    // The same handle in another section is free.
    await ok(
      bob,
      'POST',
      '/api/services/billing/draft-pages',
      { section: 'release-notes', title: 'Faster checkout' },
      201,
    );
  });

  it('saves on the lock it read; a stale lock is 412 with the current draft; every save is a revision', async () => {
    const url = '/api/services/billing/draft-pages/announcements/faster-checkout';
    const saved = await ok<DraftPage>(bob, 'PATCH', url, { content: '# Hello, world', lock: 1 });
    expect(saved).toMatchObject({ content: '# Hello, world', lock: 2, revisions: 2 });
    const stale = await call(alice, 'PATCH', url, { content: 'Mine', lock: 1 });
    expect(stale.statusCode).toBe(412);
    expect(json(stale)).toMatchObject({ content: '# Hello, world', lock: 2, message: expect.any(String) });
    expect((await ok<DraftPage>(alice, 'GET', url)).content).toBe('# Hello, world');
    // Title under its alias.
    expect(await ok<DraftPage>(alice, 'PATCH', url, { name: 'Faster checkout', lock: 2 })).toMatchObject({
      title: 'Faster checkout',
      lock: 3,
      updated_by: { name: 'User alice' },
    });
  });

  it('publishes what is saved; readers see it; later saves do not change it until published again', async () => {
    const url = '/api/services/billing/draft-pages/announcements/faster-checkout';
    expect(await call(carol, 'GET', '/api/services/billing/published-pages?section=announcements')).toMatchObject({
      statusCode: 200,
      body: '[]',
    });
    const published = await ok<DraftPage>(bob, 'POST', `${url}/actions/publish`);
    expect(published.is_published).toBe(true);
    expect(Date.parse(published.published_at!)).not.toBeNaN();
    const list = await ok<PublishedSummary[]>(
      carol,
      'GET',
      '/api/services/billing/published-pages?section=announcements',
    );
    expect(list).toMatchObject([{ handle: 'faster-checkout', title: 'Faster checkout' }]);
    const page = await ok<PublishedPage>(
      carol,
      'GET',
      '/api/services/billing/published-pages/announcements/faster-checkout',
    );
    expect(page.content).toBe('# Hello, world');
    await ok(bob, 'PATCH', url, { content: 'Unpublished words', lock: published.lock });
    expect((await ok<PublishedPage>(carol, 'GET', `/api/announcements/${published.id}`)).content).toBe(
      '# Hello, world',
    );
    // The feeds hear of it.
    const [event] = await ok<FeedEvent[]>(carol, 'GET', '/api/teams/payments/public-feed?limit=1');
    expect(event).toMatchObject({ title: 'Announcement published: Faster checkout', agent_name: 'User bob' });
  });

  it('unpublishes: gone from the lists and the views, the draft stays', async () => {
    const url = '/api/services/billing/draft-pages/announcements/faster-checkout';
    const unpublished = await ok<DraftPage>(alice, 'POST', `${url}/actions/unpublish`);
    expect(unpublished).toMatchObject({ is_published: false, published_at: null });
    expect(await ok(carol, 'GET', '/api/services/billing/published-pages')).toEqual([]);
    expect((await call(carol, 'GET', `/api/announcements/${unpublished.id}`)).statusCode).toBe(404);
    expect((await ok<DraftPage>(bob, 'GET', url)).content).toBe('Unpublished words');
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await ok(bob, 'GET', '/api/services/billing/draft-pages');
    const bad: Array<[Method, string, object]> = [
      ['POST', '/api/services/billing/draft-pages', { section: 'announcements' }],
      ['POST', '/api/services/billing/draft-pages', { section: 'blog', title: 'X' }],
      ['POST', '/api/services/billing/draft-pages', { section: 'announcements', title: 'X', handle: 'Not A Handle' }],
      ['POST', '/api/services/billing/draft-pages', { section: 'announcements', title: 'X', extra: 1 }],
      ['PATCH', '/api/services/billing/draft-pages/announcements/faster-checkout', { content: 'x' }],
      ['PATCH', '/api/services/billing/draft-pages/announcements/faster-checkout', { content: 'x', lock: 0 }],
    ];
    for (const [method, url, body] of bad) expect((await call(bob, method, url, body)).statusCode, url).toBe(400);
    expect((await call(bob, 'GET', '/api/services/billing/draft-pages?section=blog')).statusCode).toBe(400);
    expect(await ok(bob, 'GET', '/api/services/billing/draft-pages')).toEqual(before);
  });
});

describe('permissions', () => {
  it('drafts and writes are for the service’s editors; readers read what is published', async () => {
    const url = '/api/services/billing/draft-pages';
    for (const reader of [carol, guest]) {
      expect((await call(reader, 'GET', url)).statusCode).toBe(403);
      expect((await call(reader, 'POST', url, { section: 'announcements', title: 'Nope' })).statusCode).toBe(403);
      expect((await call(reader, 'GET', `${url}/release-notes/faster-checkout`)).statusCode).toBe(403);
      expect((await call(reader, 'GET', '/api/services/billing/published-pages')).statusCode).toBe(200);
    }
    // A workspace admin edits every service's pages.
    expect((await call(admin, 'GET', url)).statusCode).toBe(200);
  });

  it('an owner-only service’s pages do not exist for those who may not see it', async () => {
    const draft = await ok<DraftPage>(
      alice,
      'POST',
      '/api/services/vault/announcement-drafts',
      { title: 'Secret' },
      201,
    );
    await ok(alice, 'POST', `/api/announcement-drafts/${draft.id}/actions/publish`);
    expect((await call(carol, 'GET', '/api/services/vault/published-pages')).statusCode).toBe(404);
    expect((await call(carol, 'GET', `/api/announcements/${draft.id}`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/api/announcements/${draft.id}`)).statusCode).toBe(200);
  });

  it('another workspace sees nothing', async () => {
    const [page] = await ok<DraftSummary[]>(bob, 'GET', '/api/services/billing/draft-pages?section=release-notes');
    expect((await call(outsider, 'GET', `/api/release-notes-drafts/${page!.id}`)).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/services/billing/published-pages')).statusCode).toBe(404);
  });

  it('API clients use the section scopes', async () => {
    const reader = await createClient(server, alice, 'payments', { scopes: ['beacon.release-notes.read'] });
    const writer = await createClient(server, alice, 'payments', { scopes: ['beacon.release-notes.manage'] });
    expect((await callAs(server, reader.caller, 'GET', '/api/services/billing/release-notes')).statusCode).toBe(200);
    expect(
      (await callAs(server, reader.caller, 'POST', '/api/services/billing/release-notes-drafts', { title: 'v1' }))
        .statusCode,
    ).toBe(403);
    const made = await callAs(server, writer.caller, 'POST', '/api/services/billing/release-notes-drafts', {
      name: 'v2.0',
    });
    expect(made.statusCode).toBe(201);
    expect(json<DraftPage>(made)).toMatchObject({ handle: 'v2-0', title: 'v2.0', updated_by: { name: 'Agent' } });
    expect((await callAs(server, writer.caller, 'GET', '/api/pages/actions/export')).statusCode).toBe(403);
  });
});

describe('section doors', () => {
  it('announcements: list, read, drafts by id, publish and unpublish', async () => {
    const draft = await ok<DraftPage>(
      alice,
      'POST',
      '/api/services/billing/announcement-drafts',
      { title: 'Maintenance window', content: 'Sunday 2am' },
      201,
    );
    expect(await ok<DraftPage>(bob, 'GET', `/api/announcement-drafts/${draft.id}`)).toMatchObject({ lock: 1 });
    await ok(bob, 'PATCH', `/api/announcement-drafts/${draft.id}`, { content: 'Sunday 3am', lock: 1 });
    await ok(bob, 'POST', `/api/announcement-drafts/${draft.id}/actions/publish`);
    const [latest] = await ok<PublishedSummary[]>(carol, 'GET', '/api/services/billing/announcements?limit=1');
    expect(latest).toMatchObject({ id: draft.id, title: 'Maintenance window', name: 'Maintenance window' });
    expect((await ok<PublishedPage>(carol, 'GET', `/api/announcements/${draft.id}`)).content).toBe('Sunday 3am');
    // A release-notes door does not open an announcement.
    expect((await call(carol, 'GET', `/api/release-notes/${draft.id}`)).statusCode).toBe(404);
    await ok(bob, 'POST', `/api/announcement-drafts/${draft.id}/actions/unpublish`);
    expect((await call(carol, 'GET', `/api/announcements/${draft.id}`)).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `/api/announcement-drafts/${draft.id}`)).statusCode).toBe(204);
    expect((await call(bob, 'GET', `/api/announcement-drafts/${draft.id}`)).statusCode).toBe(404);
  });

  it('API docs and specs: a version, then the content page with lock 1 (spec), published as pages/…', async () => {
    const doc = await ok<DraftPage>(bob, 'POST', '/api/services/billing/api-docs-drafts', { version: 'v1' }, 201);
    expect(doc).toMatchObject({ title: 'v1', version: 'v1', content: '', lock: 1 });
    const written = await ok<DraftPage>(bob, 'PATCH', `/api/api-docs-drafts/${doc.id}/pages/index.md`, {
      content: '## Endpoints',
      lock: 1,
    });
    expect(written).toMatchObject({ content: '## Endpoints', lock: 2 });
    expect(
      (await call(bob, 'PATCH', `/api/api-docs-drafts/${doc.id}/pages/index.md`, { content: 'x', lock: 1 })).statusCode,
    ).toBe(412);
    expect((await ok<DraftPage>(bob, 'GET', `/api/api-docs-drafts/${doc.id}/pages/index.md`)).content).toBe(
      '## Endpoints',
    );
    await ok(bob, 'POST', `/api/api-docs-drafts/${doc.id}/actions/publish`);
    expect((await ok<PublishedPage>(carol, 'GET', `/api/api-docs/${doc.id}/pages/index.md`)).content).toBe(
      '## Endpoints',
    );
    expect(await ok<DraftPage>(bob, 'DELETE', `/api/api-docs-drafts/${doc.id}/pages/index.md`)).toMatchObject({
      content: '',
      lock: 3,
    });

    const spec = await ok<DraftPage>(
      bob,
      'POST',
      '/api/services/billing/open-api-spec-drafts',
      { version: '1.0.0' },
      201,
    );
    await ok(bob, 'PATCH', `/api/open-api-spec-drafts/${spec.id}/pages/openapi.yml`, {
      content: 'openapi: 3.0.0\ninfo: { title: Billing, version: 1.0.0 }\npaths: {}\n',
      lock: 1,
    });
    await ok(bob, 'POST', `/api/open-api-spec-drafts/${spec.id}/actions/publish`);
    const specs = await ok<PublishedSummary[]>(carol, 'GET', '/api/services/billing/open-api-specs');
    expect(specs).toMatchObject([{ handle: '1-0-0', version: '1.0.0' }]);
  });

  it('pages lists by cursor and limit with the total header', async () => {
    for (let i = 0; i < 3; i++)
      await ok(bob, 'POST', '/api/services/billing/release-notes-drafts', { name: `Paged ${i}` }, 201);
    const first = await call(bob, 'GET', '/api/services/billing/release-notes-drafts?limit=2');
    const total = Number(first.headers.total);
    expect(total).toBeGreaterThanOrEqual(4);
    const rest = await call(bob, 'GET', `/api/services/billing/release-notes-drafts?limit=50&cursor=2`);
    expect(json<DraftSummary[]>(first).length + json<DraftSummary[]>(rest).length).toBe(total);
  });
});

describe('export', () => {
  const unzip = (body: Buffer) => {
    const files = unzipSync(new Uint8Array(body));
    return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
  };

  it("zips a service's published pages and drafts with a manifest (editors)", async () => {
    const draft = await ok<DraftPage>(
      bob,
      'POST',
      '/api/services/billing/announcement-drafts',
      { title: 'Zipped' },
      201,
    );
    await ok(bob, 'PATCH', `/api/announcement-drafts/${draft.id}`, { content: '**zipped**', lock: 1 });
    await ok(bob, 'POST', `/api/announcement-drafts/${draft.id}/actions/publish`);
    const response = await call(bob, 'GET', '/api/services/billing/pages/actions/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe('attachment; filename="billing-pages.zip"');
    const files = unzip(response.rawPayload);
    expect(files['billing/announcements/zipped.md']).toBe('**zipped**');
    expect(files['billing/announcements/drafts/zipped.md']).toBe('**zipped**');
    expect(files['billing/open-api-specs/1-0-0.yml']).toContain('openapi: 3.0.0');
    const manifest = JSON.parse(files['manifest.json']!) as { pages: Array<{ handle: string; file: string | null }> };
    expect(manifest.pages).toEqual(
      expect.arrayContaining([expect.objectContaining({ handle: 'zipped', file: 'billing/announcements/zipped.md' })]),
    );
    // Never another service's pages.
    expect(Object.keys(files).some((name) => name.startsWith('vault/'))).toBe(false);
    expect((await call(carol, 'GET', '/api/services/billing/pages/actions/export')).statusCode).toBe(403);
  });

  it("zips every service's pages for workspace admins and owners only", async () => {
    const response = await call(admin, 'GET', '/api/pages/actions/export');
    expect(response.statusCode).toBe(200);
    const names = Object.keys(unzip(response.rawPayload));
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'billing/announcements/zipped.md',
        'vault/announcements/drafts/secret.md',
      ]),
    );
    for (const member of [alice, bob, guest])
      expect((await call(member, 'GET', '/api/pages/actions/export')).statusCode).toBe(403);
    expect((await call(outsider, 'GET', '/api/pages/actions/export')).statusCode).toBe(200);
    // The outsider's own workspace has no pages.
    const theirs = unzip((await call(outsider, 'GET', '/api/pages/actions/export')).rawPayload);
    expect(Object.keys(theirs)).toEqual(['manifest.json']);
  });
});

describe('publishing OpenAPI specs: only valid documents (docs/decisions.md#pages)', () => {
  /** A service of its own, so these specs stay out of the lists the tests above count. */
  const SERVICE = 'ledger-api';
  const generic = (id: string) => `/api/services/${SERVICE}/draft-pages/open-api-specs/${id}/actions/publish`;
  const sectionDoor = (id: string) => `/api/open-api-spec-drafts/${id}/actions/publish`;
  const spec30 = (paths = '  /entries:\n    get:\n      responses:\n        "200":\n          description: ok\n') =>
    `openapi: 3.0.3\ninfo:\n  title: Ledger\n  version: 1.0.0\npaths:\n${paths}`;

  beforeAll(async () => {
    await createService(server, alice, 'payments', { name: 'Ledger API', handle: SERVICE });
  });

  /** Saves a spec draft (drafts may hold anything) and answers its id. */
  const draftSpec = async (version: string, content: string) =>
    (await ok<DraftPage>(bob, 'POST', `/api/services/${SERVICE}/open-api-spec-drafts`, { version, content }, 201)).id;

  /** Publishing through either door is refused with 422 naming `content`; nothing is published. */
  const expectRefused = async (id: string, pattern: RegExp) => {
    for (const url of [generic(id), sectionDoor(id)]) {
      const response = await call(bob, 'POST', url);
      expect(response.statusCode, url).toBe(422);
      const body = json<{ message: string; errors: Record<string, string[]> }>(response);
      expect(Object.keys(body.errors)).toEqual(['content']);
      expect(body.errors.content!.length).toBeGreaterThanOrEqual(1);
      expect(body.errors.content!.length).toBeLessThanOrEqual(4);
      expect(body.message).toMatch(pattern);
      expect(body.errors.content![0]).toMatch(pattern);
      // Short sentences, not the parser's code frames.
      for (const problem of body.errors.content!) expect(problem).not.toContain('\n');
    }
    expect((await call(carol, 'GET', `/api/open-api-specs/${id}`)).statusCode).toBe(404);
    expect((await ok<DraftPage>(bob, 'GET', `/api/open-api-spec-drafts/${id}`)).is_published).toBe(false);
    return json<{ message: string; errors: { content: string[] } }>(await call(bob, 'POST', generic(id)));
  };

  it('refuses a spec that is not YAML or JSON; the draft itself was saved', async () => {
    const id = await draftSpec('bad-yaml', 'openapi: 3.0.3\ninfo:\n  title: Broken\n   version: 1\npaths: [');
    const body = await expectRefused(id, /.+/);
    expect(body.message).toMatch(/^The content is not valid YAML or JSON: /);
    // The draft keeps the text as written, and later saves are fine too.
    expect((await ok<DraftPage>(bob, 'GET', `/api/open-api-spec-drafts/${id}`)).content).toContain('Broken');
    await ok(bob, 'PATCH', `/api/open-api-spec-drafts/${id}/pages/openapi.yml`, { content: '{ nope', lock: 1 });
    expect((await call(bob, 'POST', generic(id))).statusCode).toBe(422);
  });

  it('refuses YAML that is not an OpenAPI document, with the parser’s messages', async () => {
    const noInfo = await draftSpec('no-info', 'openapi: 3.0.3\npaths: {}\n');
    const missing = await expectRefused(noInfo, /must have required property 'info'/);
    expect(missing.message).toMatch(/^The content is not a valid OpenAPI document: /);

    const pathsList = await draftSpec(
      'paths-list',
      'openapi: 3.0.3\ninfo: { title: L, version: "1" }\npaths: [1, 2]\n',
    );
    await expectRefused(pathsList, /must be object/);

    const notObject = await draftSpec('a-string', 'just a sentence');
    await expectRefused(notObject, /not an OpenAPI object/);

    const neither = await draftSpec('neither', 'title: Ledger\nendpoints: []\n');
    await expectRefused(neither, /not a valid API definition/);

    const empty = await draftSpec('empty', '');
    await expectRefused(empty, /not an OpenAPI object/);
  });

  it('names the first few problems and counts the rest', async () => {
    // Five operations whose path parameter is not declared: five problems.
    const ops = ['a', 'b', 'c', 'd', 'e']
      .map((name) => `  /${name}/{id}:\n    get: { responses: { "200": { description: ok } } }\n`)
      .join('');
    const id = await draftSpec('many', `openapi: 3.0.3\ninfo: { title: L, version: "1" }\npaths:\n${ops}`);
    const body = await expectRefused(id, /missing path parameter/);
    expect(body.errors.content).toEqual([
      expect.stringContaining('/paths/a/{id}/get'),
      expect.stringContaining('/paths/b/{id}/get'),
      expect.stringContaining('/paths/c/{id}/get'),
      '…and 2 more problems',
    ]);
  });

  it('publishes valid OpenAPI 3.0 and 3.1 and Swagger 2.0 documents, through either door', async () => {
    const v30 = await draftSpec('3.0', spec30());
    expect(await ok<DraftPage>(bob, 'POST', generic(v30))).toMatchObject({ is_published: true });
    expect((await ok<PublishedPage>(carol, 'GET', `/api/open-api-specs/${v30}`)).content).toBe(spec30());

    const text31 = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Ledger', version: '2.0.0' },
      webhooks: { booked: { post: { responses: { '200': { description: 'ok' } } } } },
      components: { schemas: { Entry: { type: ['object', 'null'], properties: { id: { type: 'string' } } } } },
    });
    const v31 = await draftSpec('3.1', text31);
    expect(await ok<DraftPage>(bob, 'POST', sectionDoor(v31))).toMatchObject({ is_published: true });
    expect((await ok<PublishedPage>(carol, 'GET', `/api/open-api-specs/${v31}/pages/openapi.yml`)).content).toBe(
      text31,
    );

    const swagger = await draftSpec('2.0', 'swagger: "2.0"\ninfo: { title: Ledger, version: "0.9" }\npaths: {}\n');
    await ok(bob, 'POST', generic(swagger));
  });

  it('keeps the published text when a later draft is refused', async () => {
    const id = await draftSpec('kept', spec30());
    await ok(bob, 'POST', generic(id));
    await ok(bob, 'PATCH', `/api/open-api-spec-drafts/${id}`, { content: 'openapi: 3.0.3\npaths: {}\n', lock: 1 });
    expect((await call(bob, 'POST', sectionDoor(id))).statusCode).toBe(422);
    expect((await ok<PublishedPage>(carol, 'GET', `/api/open-api-specs/${id}`)).content).toBe(spec30());
  });

  it('never fetches an external $ref (SSRF): the local server sees no request, the reference is left alone', async () => {
    const requests: string[] = [];
    const target = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end('{"type":"string"}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = target.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/schema.json`;
      // The counter counts: a request that does reach it is seen.
      expect((await fetch(`${url}?control`)).status).toBe(200);
      expect(requests).toEqual(['/schema.json?control']);
      requests.length = 0;

      const schema = `          content:\n            application/json:\n              schema:\n                $ref: '${url}'\n`;
      const id = await draftSpec(
        'external-ref',
        spec30(`  /entries:\n    get:\n      responses:\n        "200":\n          description: ok\n${schema}`),
      );
      // Valid as it stands: the parser leaves the external reference unresolved rather than fetching it.
      expect(await ok<DraftPage>(bob, 'POST', generic(id))).toMatchObject({ is_published: true });
      await ok(bob, 'POST', sectionDoor(id));
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
