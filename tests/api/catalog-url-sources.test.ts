import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEntity, CatalogSource } from '../../src/contract/catalog.js';
import type { Service, Team } from '../../src/contract/catalogue.js';
import { CATALOG_SYNC_AGENT, syncDueSources } from '../../src/server/jobs/catalog-sync.js';
import { syncSource } from '../../src/server/services/descriptors/descriptors.js';
import { seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/** Issue 29 item 3: catalogue sources with a URL, synced on demand and on a schedule, all or nothing. */

/** A local host of descriptor files with ETags; any path can be made to answer a status, or never answer. */
class FileHost {
  readonly files = new Map<string, string>();
  /** Off: no ETag, and If-None-Match is ignored (a host that never answers 304). */
  etags = true;
  readonly answers = new Map<string, number | 'hang'>();
  readonly requests: Array<{ path: string; ifNoneMatch: string | null; status: number | 'hang' }> = [];
  /** The Authorization header of each request, in order. */
  readonly authorizations: Array<string | null> = [];
  /** Set: a request without `Authorization: Bearer {token}` answers 401. */
  token: string | null = null;
  private readonly hung: ServerResponse[] = [];
  private readonly server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname.slice(1));
    const ifNoneMatch = request.headers['if-none-match'] ?? null;
    this.authorizations.push(request.headers.authorization ?? null);
    const unauthorized = this.token !== null && request.headers.authorization !== `Bearer ${this.token}`;
    const answer = unauthorized ? 401 : this.answers.get(path);
    const content = this.files.get(path);
    const etag =
      content === undefined || !this.etags ? null : `"${createHash('sha256').update(content).digest('hex')}"`;
    const status = answer ?? (content === undefined ? 404 : etag && ifNoneMatch === etag ? 304 : 200);
    this.requests.push({ path, ifNoneMatch, status });
    if (status === 'hang') {
      this.hung.push(response);
      return;
    }
    response.statusCode = status;
    if (etag && status < 400) response.setHeader('etag', etag);
    response.end(status === 200 ? content : status === 304 ? undefined : 'no');
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const response of this.hung) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const group = (name: string, description = '') => `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: ${name}
  description: ${description || name}
spec:
  type: team
  children: []
`;
const component = (name: string, owner: string) => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ${name}
spec:
  type: service
  lifecycle: production
  owner: ${owner}
`;
const location = (target: string) => `apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: more
spec:
  targets: [${target}]
`;

describe('URL sources', () => {
  let server: TestServer;
  let cast: SeededWorkspace;
  const host = new FileHost();
  let base: string;
  let remote: CatalogSource;

  const call = (actor: Member, method: Method, url: string, payload?: object) =>
    callAs(server, actor, method, url, payload);
  const sync = async (id: string) => {
    const response = await call(cast.admin, 'POST', `/api/catalog/sources/${id}/actions/sync`);
    expect(response.statusCode, response.body).toBe(200);
    return json<CatalogSource>(response);
  };
  const createSource = async (name: string, url: string) => {
    const response = await call(cast.admin, 'POST', '/api/catalog/sources', { name, url });
    expect(response.statusCode, response.body).toBe(201);
    return json<CatalogSource>(response);
  };
  const getSource = async (id: string) =>
    json<CatalogSource>(await call(cast.admin, 'GET', `/api/catalog/sources/${id}`));
  const sourceRow = (id: string) =>
    server.ctx.database.db.selectFrom('catalog_sources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const entities = async (state: 'orphaned' | 'errored' | 'conflict') =>
    json<CatalogEntity[]>(await call(cast.admin, 'GET', `/api/catalog/entities?state=${state}`));
  /** Everything a sync could write: events, the services' rows and the source's entity rows. */
  const written = async (sourceId: string) => {
    const { db } = server.ctx.database;
    const [events, services, marks] = await Promise.all([
      db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
      db.selectFrom('services').select(['handle', 'name', 'updated_at']).orderBy('handle').execute(),
      db.selectFrom('catalog_entities').selectAll().where('source_id', '=', sourceId).orderBy('handle').execute(),
    ]);
    return { events: Number(events.n), services, marks };
  };
  const good = () => {
    host.files.set('catalog-info.yaml', `${group('web')}---\n${location('./services/a.yaml')}`);
    host.files.set('services/a.yaml', `${component('storefront', 'web')}---\n${component('checkout', 'web')}`);
  };

  beforeAll(async () => {
    server = await startTestServer({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
    cast = await seedWorkspace(server);
    base = await host.start();
  });
  afterAll(async () => {
    await host.close();
    await server?.close();
  });

  it('syncs on demand: the root file and the files its Locations name, managed by the source', async () => {
    good();
    remote = await createSource('remote', `${base}/catalog-info.yaml`);
    expect(remote).toMatchObject({ url: `${base}/catalog-info.yaml`, last_sync: null });
    const synced = await sync(remote.id);
    expect(synced.last_sync).toMatchObject({
      status: 'ok',
      error: null,
      counts: expect.objectContaining({ create: 3 }),
    });
    expect(synced.entities).toEqual({ synced: 3, errored: 0, orphaned: 0, conflict: 0 });
    expect(host.requests).toEqual([
      { path: 'catalog-info.yaml', ifNoneMatch: null, status: 200 },
      { path: 'services/a.yaml', ifNoneMatch: null, status: 200 },
    ]);
    const storefront = json<Service>(await call(cast.teamMember, 'GET', '/api/services/storefront'));
    expect(storefront).toMatchObject({
      owner: { handle: 'web' },
      managed_by: { source: 'remote', path: 'services/a.yaml', line: 1 },
    });
    const team = json<Team>(await call(cast.teamMember, 'GET', '/api/teams/web'));
    expect(team.managed_by).toMatchObject({ source: 'remote', path: 'catalog-info.yaml' });
    // Its next sync is an interval away.
    expect(Number((await sourceRow(remote.id)).next_sync_at)).toBeGreaterThan(Date.now() + 59 * 60_000);
  });

  it('answers unchanged and writes nothing when every file answers 304', async () => {
    const before = await written(remote.id);
    host.requests.length = 0;
    const synced = await sync(remote.id);
    expect(synced.last_sync).toMatchObject({ status: 'unchanged', counts: expect.objectContaining({ create: 3 }) });
    expect(host.requests).toEqual([
      { path: 'catalog-info.yaml', ifNoneMatch: expect.any(String), status: 304 },
      { path: 'services/a.yaml', ifNoneMatch: expect.any(String), status: 304 },
    ]);
    expect(await written(remote.id)).toEqual(before);

    // A host without ETags: the files are read again, found the same, and still nothing is written.
    host.etags = false;
    host.requests.length = 0;
    expect((await sync(remote.id)).last_sync).toMatchObject({ status: 'unchanged' });
    // The root asked as before answers 200: every file is read again, unconditionally.
    expect(host.requests).toEqual([
      { path: 'catalog-info.yaml', ifNoneMatch: expect.any(String), status: 200 },
      { path: 'catalog-info.yaml', ifNoneMatch: null, status: 200 },
      { path: 'services/a.yaml', ifNoneMatch: null, status: 200 },
    ]);
    expect(await written(remote.id)).toEqual(before);
    host.etags = true;
  });

  it('fails as a whole, writing nothing and orphaning nothing, on a 503, a timeout or a 404', async () => {
    const before = await written(remote.id);
    const stillThere = async () => {
      expect(await written(remote.id)).toEqual(before);
      expect(await entities('orphaned')).toEqual([]);
      const source = await getSource(remote.id);
      expect(source.entities).toEqual({ synced: 3, errored: 0, orphaned: 0, conflict: 0 });
      // The last good sync's counts stay.
      expect(source.last_sync?.counts).toMatchObject({ create: 3 });
    };

    // A file a Location names answers 503: the root alone is not a sync.
    host.answers.set('services/a.yaml', 503);
    const unavailable = await sync(remote.id);
    expect(unavailable.last_sync).toMatchObject({
      status: 'failed',
      error: `GET ${base}/services/a.yaml answered 503`,
    });
    await stillThere();

    // The root never answers: given up after the timeout (short here; 10 s by default).
    host.answers.clear();
    host.answers.set('catalog-info.yaml', 'hang');
    const nextBefore = Number((await sourceRow(remote.id)).next_sync_at);
    await syncSource(server.ctx, await sourceRow(remote.id), CATALOG_SYNC_AGENT, { timeoutMs: 300 });
    expect((await getSource(remote.id)).last_sync).toMatchObject({
      status: 'failed',
      error: `GET ${base}/catalog-info.yaml did not answer within 300 ms`,
    });
    expect(Number((await sourceRow(remote.id)).next_sync_at)).toBeGreaterThanOrEqual(nextBefore);
    await stillThere();

    // The root changed, but a file it names is gone: nothing of the change is applied.
    host.answers.clear();
    host.files.set('catalog-info.yaml', `${group('web', 'The web team')}---\n${location('./services/a.yaml')}`);
    host.files.delete('services/a.yaml');
    const missing = await sync(remote.id);
    expect(missing.last_sync).toMatchObject({ status: 'failed', error: `GET ${base}/services/a.yaml answered 404` });
    expect(json<Team>(await call(cast.admin, 'GET', '/api/teams/web')).description).toBe('web');
    await stillThere();
  });

  it('applies the files when they come back, orphaning the service they no longer describe', async () => {
    good();
    host.files.set('services/a.yaml', component('storefront', 'web'));
    const synced = await sync(remote.id);
    expect(synced.last_sync).toMatchObject({
      status: 'ok',
      error: null,
      counts: expect.objectContaining({ delete: 1 }),
    });
    expect(synced.entities).toEqual({ synced: 2, errored: 0, orphaned: 1, conflict: 0 });
    expect(await entities('orphaned')).toEqual([
      expect.objectContaining({ kind: 'service', handle: 'checkout', source: { id: remote.id, name: 'remote' } }),
    ]);
    // Orphaned, not gone: removed only after the grace.
    expect((await call(cast.admin, 'GET', '/api/services/checkout')).statusCode).toBe(200);
    expect(json<Service>(await call(cast.admin, 'GET', '/api/services/storefront')).managed_by).toMatchObject({
      source: 'remote',
    });
  });

  it('syncs the sources that are due on schedule, and leaves the others alone', async () => {
    host.files.set('due/catalog-info.yaml', component('scheduled', 'web'));
    host.files.set('later/catalog-info.yaml', component('not-yet', 'web'));
    const due = await createSource('due', `${base}/due/catalog-info.yaml`);
    const broken = await createSource('broken', `${base}/nowhere/catalog-info.yaml`);
    const later = await createSource('later', `${base}/later/catalog-info.yaml`);
    // A new interval counts from now: not due for two hours.
    expect(
      (await call(cast.admin, 'PATCH', `/api/catalog/sources/${later.id}`, { interval_minutes: 120 })).statusCode,
    ).toBe(200);
    host.requests.length = 0;

    // The failing source is synced too, and does not stop the others.
    expect(await syncDueSources(server.ctx)).toBe(2);
    expect((await getSource(due.id)).last_sync).toMatchObject({ status: 'ok' });
    expect((await getSource(broken.id)).last_sync).toMatchObject({
      status: 'failed',
      error: `GET ${base}/nowhere/catalog-info.yaml answered 404`,
    });
    const scheduled = json<Service>(await call(cast.admin, 'GET', '/api/services/scheduled'));
    expect(scheduled.managed_by).toMatchObject({ source: 'due', path: 'catalog-info.yaml' });
    const events = await server.ctx.database.db
      .selectFrom('events')
      .select(['agent_name', 'actor_id'])
      .where('profile_id', '=', scheduled.id)
      .execute();
    expect(events[0]).toEqual({ agent_name: 'Beacon', actor_id: null });

    expect((await getSource(later.id)).last_sync).toBeNull();
    expect(host.requests.map((r) => r.path)).not.toContain('later/catalog-info.yaml');
    expect((await call(cast.admin, 'GET', '/api/services/not-yet')).statusCode).toBe(404);
    // Synced ones are next due an interval later: nothing is due now.
    expect(Number((await sourceRow(due.id)).next_sync_at)).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(await syncDueSources(server.ctx)).toBe(0);
  });
  it('reads a file named twice once, and fails a file larger than 5 MB', async () => {
    host.files.set('loop/catalog-info.yaml', `${component('looped', 'web')}---\n${location('./b.yaml')}`);
    host.files.set('loop/b.yaml', `${location('./catalog-info.yaml')}---\n${location('b.yaml')}`);
    const loop = await createSource('loop', `${base}/loop/catalog-info.yaml`);
    host.requests.length = 0;
    expect((await sync(loop.id)).last_sync).toMatchObject({ status: 'ok' });
    expect(host.requests.map((r) => r.path)).toEqual(['loop/catalog-info.yaml', 'loop/b.yaml']);

    host.files.set('big/catalog-info.yaml', `# ${'x'.repeat(5 * 1024 * 1024)}\n`);
    const big = await createSource('big', `${base}/big/catalog-info.yaml`);
    expect((await sync(big.id)).last_sync).toMatchObject({
      status: 'failed',
      error: `GET ${base}/big/catalog-info.yaml: the file is larger than 5 MB`,
    });
  });
});

describe('URL sources without private targets allowed', () => {
  let server: TestServer;
  let cast: SeededWorkspace;
  const host = new FileHost();

  beforeAll(async () => {
    server = await startTestServer();
    cast = await seedWorkspace(server);
  });
  afterAll(async () => {
    await host.close();
    await server?.close();
  });

  it('refuses a URL on a loopback address, and says so', async () => {
    const base = await host.start();
    host.files.set('catalog-info.yaml', component('inside', 'payments'));
    const created = await callAs(server, cast.admin, 'POST', '/api/catalog/sources', {
      name: 'inside',
      url: `${base}/catalog-info.yaml`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const synced = await callAs(
      server,
      cast.admin,
      'POST',
      `/api/catalog/sources/${json<CatalogSource>(created).id}/actions/sync`,
    );
    expect(json<CatalogSource>(synced).last_sync).toMatchObject({
      status: 'failed',
      error: `GET ${base}/catalog-info.yaml failed: Refused: 127.0.0.1 is a loopback address`,
    });
    expect(host.requests).toEqual([]);
    expect((await callAs(server, cast.admin, 'GET', '/api/services/inside')).statusCode).toBe(404);
  });
});

describe('a source token (issue 48)', () => {
  let server: TestServer;
  let cast: SeededWorkspace;
  const host = new FileHost();
  let base: string;
  const TOKEN = 'sekret-Token-4711';

  const call = (method: Method, url: string, payload?: object) => callAs(server, cast.admin, method, url, payload);
  /** Every answer about sources, and the source's row, as text: none may hold the token. */
  const everywhere = async (id: string) => {
    const answers = await Promise.all([
      call('GET', '/api/catalog/sources'),
      call('GET', `/api/catalog/sources/${id}`),
      call('GET', '/api/catalog/entities'),
    ]);
    return answers.map((answer) => answer.body).join('\n');
  };

  beforeAll(async () => {
    server = await startTestServer({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
    cast = await seedWorkspace(server, { domain: 'tokenco' });
    base = await host.start();
    host.files.set('catalog-info.yaml', `${group('web')}---\n${location('./services/a.yaml')}`);
    host.files.set('services/a.yaml', component('storefront', 'web'));
  });
  afterAll(async () => {
    await host.close();
    await server?.close();
  });

  it('refuses credentials in the URL itself, saying to use token', async () => {
    const urls = [
      `${base}/catalog-info.yaml?access_token=abc`,
      `${base}/catalog-info.yaml?ref=main&API_KEY=abc`,
      `${base}/catalog-info.yaml?X-Amz-Signature=abc&X-Amz-Date=20240101`,
      `${base}/catalog-info.yaml?client_secret=abc`,
      `${base}/catalog-info.yaml?password=abc`,
      `${base.replace('http://', 'http://deploy:hunter2@')}/catalog-info.yaml`,
      `${base.replace('http://', 'http://deploy@')}/catalog-info.yaml`,
    ];
    for (const url of urls) {
      const created = await call('POST', '/api/catalog/sources', { name: 'leaky', url });
      expect(created.statusCode, url).toBe(400);
      const body = json<{ message: string; errors: Record<string, string[]> }>(created);
      expect(body.message).toMatch(/\btoken\b/);
      expect(body.errors.url?.[0]).toMatch(/\btoken\b/);
      expect(created.body).not.toContain('abc');
      expect(created.body).not.toContain('hunter2');
    }
    expect(json<CatalogSource[]>(await call('GET', '/api/catalog/sources'))).toEqual([]);
    // A parameter that only looks like one elsewhere in the URL is fine.
    const fine = await call('POST', '/api/catalog/sources', {
      name: 'fine',
      url: `${base}/token/catalog-info.yaml?ref=main`,
    });
    expect(fine.statusCode, fine.body).toBe(201);
    const patched = await call('PATCH', `/api/catalog/sources/${json<CatalogSource>(fine).id}`, {
      url: `${base}/catalog-info.yaml?private_token=abc`,
    });
    expect(patched.statusCode).toBe(400);
    expect(json<{ message: string }>(patched).message).toMatch(/\btoken\b/);
    expect((await call('DELETE', `/api/catalog/sources/${json<CatalogSource>(fine).id}`)).statusCode).toBe(204);
  });

  it('is sent as Authorization: Bearer to every file, answered as "set", never shown or stored in clear', async () => {
    host.token = TOKEN;
    const created = await call('POST', '/api/catalog/sources', {
      name: 'private',
      url: `${base}/catalog-info.yaml`,
      token: TOKEN,
    });
    expect(created.statusCode, created.body).toBe(201);
    const source = json<CatalogSource>(created);
    expect(source.token).toBe('set');
    expect(created.body).not.toContain(TOKEN);
    host.authorizations.length = 0;
    const synced = await call('POST', `/api/catalog/sources/${source.id}/actions/sync`);
    expect(json<CatalogSource>(synced).last_sync).toMatchObject({ status: 'ok', error: null });
    expect(synced.body).not.toContain(TOKEN);
    expect(host.authorizations).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(json<CatalogSource[]>(await call('GET', '/api/catalog/sources'))[0]).toMatchObject({ token: 'set' });
    expect(await everywhere(source.id)).not.toContain(TOKEN);
    const row = await server.ctx.database.db
      .selectFrom('catalog_sources')
      .selectAll()
      .where('id', '=', source.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(server.ctx.secretBox.open(row.token_sealed!)).toBe(TOKEN);
  });

  it('never shows up in a failed sync, and is replaced or removed by a PATCH', async () => {
    const [source] = json<CatalogSource[]>(await call('GET', '/api/catalog/sources'));
    // A wrong token: the host says 401, and the error says so without the token.
    const replaced = await call('PATCH', `/api/catalog/sources/${source!.id}`, { token: `${TOKEN}-old` });
    expect(json<CatalogSource>(replaced).token).toBe('set');
    const refused = json<CatalogSource>(await call('POST', `/api/catalog/sources/${source!.id}/actions/sync`));
    expect(refused.last_sync).toMatchObject({ status: 'failed', error: `GET ${base}/catalog-info.yaml answered 401` });
    expect(await everywhere(source!.id)).not.toContain(TOKEN);

    // Even a URL that holds the token's text in its path (the admin's own doing): the error blanks it.
    host.files.set(`${TOKEN}/catalog-info.yaml`, component('odd', 'web'));
    const odd = json<CatalogSource>(
      await call('POST', '/api/catalog/sources', {
        name: 'odd',
        url: `${base}/${TOKEN}/catalog-info.yaml`,
        token: TOKEN,
      }),
    );
    host.answers.set(`${TOKEN}/catalog-info.yaml`, 503);
    const failed = json<CatalogSource>(await call('POST', `/api/catalog/sources/${odd.id}/actions/sync`));
    expect(failed.last_sync).toMatchObject({ status: 'failed', error: `GET ${base}/…/catalog-info.yaml answered 503` });

    // A URL on another origin does not take the token along; the same origin keeps it.
    const moved = await call('PATCH', `/api/catalog/sources/${odd.id}`, { url: `${base}/moved/catalog-info.yaml` });
    expect(json<CatalogSource>(moved).token).toBe('set');
    const elsewhere = await call('PATCH', `/api/catalog/sources/${odd.id}`, {
      url: `${base.replace('127.0.0.1', 'localhost')}/catalog-info.yaml`,
    });
    expect(json<CatalogSource>(elsewhere)).not.toHaveProperty('token');
    expect((await call('DELETE', `/api/catalog/sources/${odd.id}`)).statusCode).toBe(204);

    // Removed: no Authorization header any more, and no `token` in the answer.
    const removed = await call('PATCH', `/api/catalog/sources/${source!.id}`, { token: null });
    expect(json<CatalogSource>(removed)).not.toHaveProperty('token');
    host.authorizations.length = 0;
    expect(
      json<CatalogSource>(await call('POST', `/api/catalog/sources/${source!.id}/actions/sync`)).last_sync,
    ).toMatchObject({ status: 'failed', error: `GET ${base}/catalog-info.yaml answered 401` });
    expect(host.authorizations).toEqual([null]);
  });
});
