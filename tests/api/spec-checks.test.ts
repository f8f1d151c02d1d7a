import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheck, HealthCheckResult } from '../../src/contract/health.js';
import type { ServiceScorecard } from '../../src/contract/scorecards.js';
import type { ApiDrift, SpecProbesAnswer } from '../../src/contract/spec-checks.js';
import { startSharedRunner, type SharedRunner } from '../../src/server/jobs/shared-runner.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import type { RunnerSync } from '../../src/contract/clients.js';
import { runCheck, runnableCheck } from '../../src/runner/run-check.js';
import { specSchemas } from '../../src/runner/response-schemas.js';
import { addMember, createClient, createTeam } from '../support/fixtures.js';
import { until } from '../support/until.js';
import {
  authHeaders,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type Method,
  type TestServer,
} from '../support/server.js';

/**
 * Issue 30 and docs/decisions.md#spec-checks, on both engines: checks proposed from a published OpenAPI spec, created
 * with the ordinary create, judged by the `schema` assertion through the shared runner against a local server that
 * answers to spec or off it; drift found and cleared once each; a new version re-links the checks; an external `$ref`
 * is never fetched.
 */
let server: TestServer;
let owner: Member;
let guest: Member;
let outsider: Member;
let target: Server;
let port: number;
let offSpec = false;
let externalFetches = 0;
let runner: SharedRunner | undefined;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: authHeaders(actor), ...(payload ? { payload } : {}) });

const ITEMS = [
  { id: 7, name: 'Lamp', price: 12.5, tags: ['home'], note: null },
  { id: 8, name: 'Desk', price: 99, tags: [], note: 'oak' },
];

function specText(version: 'v1' | 'v2'): string {
  const getItemId = version === 'v1' ? 'getItem' : 'fetchItem';
  const list =
    version === 'v1'
      ? `  /items:
    get:
      operationId: listItems
      summary: All items
      responses:
        "200":
          description: Items
          content:
            application/json:
              schema: { type: array, items: { $ref: "#/components/schemas/Item" } }
    post:
      operationId: createItem
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Item" }
      responses:
        "201": { description: Created }
`
      : `  /items/{id}/stock:
    get:
      operationId: getStock
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer }, example: 7 }
      responses:
        "200":
          description: Stock
          content:
            application/json:
              schema: { type: object, properties: { count: { type: integer } } }
`;
  return `openapi: 3.0.3
info: { title: Items API, version: "${version}" }
servers:
  - url: http://127.0.0.1:{port}/v1
    variables:
      port: { default: "${port}" }
paths:
${list}  /items/{itemId}:
    get:
      operationId: ${getItemId}
      summary: One item
      parameters:
        - { name: itemId, in: path, required: true, schema: { type: integer }, example: 7 }
      responses:
        "200":
          description: The item
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Item" }
        "404": { description: Not found }
  /external:
    get:
      operationId: getExternal
      responses:
        "200":
          description: Described elsewhere
          content:
            application/json:
              schema: { $ref: "http://127.0.0.1:${port}/schemas/external.json" }
components:
  schemas:
    Item:
      type: object
      required: [id, name, price]
      properties:
        id: { type: integer }
        name: { type: string }
        price: { type: number }
        tags: { type: array, items: { type: string } }
        note: { type: string, nullable: true }
`;
}

async function publishSpec(version: 'v1' | 'v2') {
  const drafts = '/api/services/shop/draft-pages';
  if (version === 'v1') {
    const created = await call(owner, 'POST', drafts, {
      section: 'open-api-specs',
      handle: 'items-api',
      version: 'v1',
      content: specText('v1'),
    });
    expect(created.statusCode, created.body).toBe(201);
  } else {
    const current = json<{ lock: number }>(await call(owner, 'GET', `${drafts}/open-api-specs/items-api`));
    const saved = await call(owner, 'PATCH', `${drafts}/open-api-specs/items-api`, {
      version: 'v2',
      content: specText('v2'),
      lock: current.lock,
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  const published = await call(owner, 'POST', `${drafts}/open-api-specs/items-api/actions/publish`);
  expect(published.statusCode, published.body).toBe(200);
}

const probes = async (actor = owner) => call(actor, 'GET', '/api/services/shop/open-api-specs/items-api/probes');

const common = { runner: null, frequency: 1, timeout: 2, allowed_failures: 0, importance: 'error' };

async function createFromProbe(probe: SpecProbesAnswer['probes'][number]): Promise<HealthCheck> {
  const response = await call(owner, 'POST', '/api/services/shop/health-checks', {
    ...common,
    name: probe.operation_id,
    endpoint: probe.url,
    assertions: probe.assertions,
    spec: { page: 'items-api', operation_id: probe.operation_id },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<HealthCheck>(response);
}

const drift = async () => json<ApiDrift[]>(await call(owner, 'GET', '/api/services/shop/drift'));
const driftEvents = async () =>
  server.ctx.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('type', 'in', ['api.drift_found', 'api.drift_cleared'])
    .orderBy('created_at')
    .execute();

beforeAll(async () => {
  target = createServer((request, response) => {
    const path = request.url ?? '';
    if (path.startsWith('/schemas/')) externalFetches++;
    response.setHeader('content-type', 'application/json');
    if (path === '/v1/items') return response.end(JSON.stringify(ITEMS));
    if (path === '/v1/items/7') {
      // Off spec: the price comes as text.
      return response.end(JSON.stringify(offSpec ? { ...ITEMS[0], price: '12.50' } : ITEMS[0]));
    }
    if (path === '/v1/external') return response.end('{"any":"thing"}');
    response.statusCode = 404;
    response.end('{}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  port = (target.address() as AddressInfo).port;
  server = await startTestServer({ BEACON_ALLOW_PRIVATE_TARGETS: '1' });
  owner = await registerWorkspace(server, 'specco');
  guest = await addMember(server, owner, 'gus', 'guest');
  outsider = await registerWorkspace(server, 'otherspecco');
  await createTeam(server, owner, { name: 'Shop', handle: 'shop-team' });
  expect(
    (await call(owner, 'POST', '/api/teams/shop-team/services', { name: 'Shop', handle: 'shop' })).statusCode,
  ).toBe(201);
  await publishSpec('v1');
});
afterAll(async () => {
  await runner?.stop();
  await server.close();
  await closeSharedAgents();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

describe('checks proposed from a published spec', () => {
  it('proposes every safe operation with its URL and assertions, and says why the others are not', async () => {
    const answer = json<SpecProbesAnswer>(await probes());
    expect(answer).toMatchObject({ page: 'items-api', version: 'v1', title: 'Items API', flagged: [] });
    expect(answer.servers).toEqual([`http://127.0.0.1:${port}/v1`]);
    const byId = new Map(answer.probes.map((probe) => [probe.operation_id, probe]));
    expect(byId.get('listItems')).toMatchObject({
      method: 'GET',
      url: `http://127.0.0.1:${port}/v1/items`,
      success_codes: ['200'],
      content_type: 'application/json',
      checks: [],
    });
    expect(byId.get('listItems')!.assertions_text).toContain('schema == true');
    expect(byId.get('getItem')!.url).toBe(`http://127.0.0.1:${port}/v1/items/7`);
    expect(byId.get('createItem')!.reason_skipped).toBeTruthy();
    expect(byId.get('createItem')!.url === null || byId.get('createItem')!.reason_skipped).toBeTruthy();
  });

  it('answers editors only, and never another workspace', async () => {
    expect((await probes(guest)).statusCode).toBe(403);
    expect((await probes(outsider)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/api/services/shop/open-api-specs/nope/probes')).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/services/shop/drift')).statusCode).toBe(404);
    const badServer = await call(owner, 'GET', '/api/services/shop/open-api-specs/items-api/probes?server=ftp://x');
    expect(badServer.statusCode).toBe(400);
  });

  it('creates a check linked to its operation, and refuses a link that does not hold', async () => {
    const answer = json<SpecProbesAnswer>(await probes());
    const list = await createFromProbe(answer.probes.find((probe) => probe.operation_id === 'listItems')!);
    expect(list.spec).toEqual({
      page: 'items-api',
      operation_id: 'listItems',
      method: 'GET',
      path: '/items',
      version: 'v1',
      missing: false,
      gone: null,
    });
    const refused = async (body: object, field: string) => {
      const response = await call(owner, 'POST', '/api/services/shop/health-checks', {
        ...common,
        name: 'Bad',
        endpoint: `http://127.0.0.1:${port}/v1/items`,
        ...body,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(response).errors).toHaveProperty([field]);
    };
    await refused({ spec: { page: 'items-api', operation_id: 'noSuchOperation' } }, 'spec');
    await refused({ spec: { page: 'other-api', operation_id: 'listItems' } }, 'spec');
    await refused(
      { kind: 'tcp', endpoint: '127.0.0.1:80', spec: { page: 'items-api', operation_id: 'listItems' } },
      'spec',
    );
    await refused({ assertions_text: 'schema == true' }, 'assertions_text');
    // The proposal marks the operation as checked now.
    const again = json<SpecProbesAnswer>(await probes());
    expect(again.probes.find((probe) => probe.operation_id === 'listItems')!.checks).toEqual([
      { id: list.id, name: 'listItems' },
    ]);
  });

  it('"Test" validates the answer against the linked operation’s schema', async () => {
    const answer = json<SpecProbesAnswer>(await probes());
    const getItem = answer.probes.find((probe) => probe.operation_id === 'getItem')!;
    const test = (off: boolean) => {
      offSpec = off;
      return call(owner, 'POST', '/api/services/shop/health-checks/actions/test', {
        ...common,
        name: 'Try',
        endpoint: getItem.url,
        assertions: getItem.assertions,
        spec: { page: 'items-api', operation_id: 'getItem' },
      });
    };
    const good = json<HealthCheckResult>(await test(false));
    expect(good.success).toBe(true);
    expect(good.assertions!.find((a) => a.source === 'schema')).toMatchObject({ pass: true });
    const bad = json<HealthCheckResult>(await test(true));
    expect(bad.success).toBe(false);
    expect(bad.assertions!.find((a) => a.source === 'schema')).toMatchObject({
      pass: false,
      actual: expect.stringContaining('/price'),
    });
    offSpec = false;
  });
});

describe('drift', () => {
  it('is found once when answers break the spec, and cleared once when they keep to it again', async () => {
    const answer = json<SpecProbesAnswer>(await probes());
    const check = await createFromProbe(answer.probes.find((probe) => probe.operation_id === 'getItem')!);
    offSpec = true;
    runner = startSharedRunner(server.ctx, { reloadMs: 200, tickMs: 100 });
    const found = await until(async () => {
      const now = await drift();
      return now.length > 0 && now;
    }, 30_000);
    expect(found).toEqual([
      {
        operation_id: 'getItem',
        method: 'GET',
        path: '/items/{itemId}',
        page: 'items-api',
        spec_version: 'v1',
        check: { id: check.id, name: 'getItem' },
        since: expect.any(String),
        last_seen: expect.any(String),
        example: { status: 200, pointer: '/price', message: expect.stringContaining('number'), value: '"12.50"' },
      },
    ]);
    // A scorecard's "no API drift" rule reads it.
    const card = await call(owner, 'POST', '/api/scorecards', {
      handle: 'contracts',
      name: 'Contracts',
      description: 'Answers keep to the spec',
      levels: [{ key: 'kept', name: 'Kept' }],
      rules: [
        { key: 'no-drift', name: 'No API drift', level: 'kept', weight: 1, evaluator: 'no_api_drift', params: {} },
      ],
    });
    expect(card.statusCode, card.body).toBe(201);
    const driftRule = async () =>
      json<ServiceScorecard[]>(await call(owner, 'GET', '/api/services/shop/scorecards'))
        .find((result) => result.scorecard.handle === 'contracts')!
        .rules.find((rule) => rule.key === 'no-drift')!;
    expect(await driftRule()).toMatchObject({ state: 'fail', value: 'Drift in getItem (GET /items/{itemId})' });
    // More runs off spec: still one drift, one event.
    await until(async () => (await drift())[0]!.last_seen > found[0]!.since, 30_000);
    offSpec = false;
    await until(async () => (await drift()).length === 0, 30_000);
    expect(await driftRule()).toMatchObject({ state: 'pass', value: 'No API drift (2 spec checks)' });
    const events = await driftEvents();
    expect(events.map((event) => event.type)).toEqual(['api.drift_found', 'api.drift_cleared']);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ operation: 'getItem (GET /items/{itemId})' });
    // The service's watchers (its team) are told each, once.
    const notices = json<{ message: string }[]>(
      await call(owner, 'GET', `/api/users/${owner.handle}/notifications`),
    ).map((notification) => notification.message);
    expect(notices.filter((message) => message.includes('API drift'))).toEqual([
      'Shop: API drift cleared: getItem (GET /items/{itemId})',
      'Shop: API drift found: getItem (GET /items/{itemId}) (must be number (type))',
    ]);
  }, 90_000);

  it('never fetches an external $ref: the operation’s schema assertion fails saying why', async () => {
    const answer = json<SpecProbesAnswer>(await probes());
    const external = answer.probes.find((probe) => probe.operation_id === 'getExternal')!;
    const check = await createFromProbe(external);
    const result = await until(async () => {
      const results = json<HealthCheckResult[]>(
        await call(owner, 'GET', `/api/health-checks/${check.id}/reports/health-check-results`),
      );
      return results.find((r) => r.assertions?.some((a) => a.source === 'schema'));
    }, 30_000);
    expect(result.assertions!.find((a) => a.source === 'schema')!.pass).toBe(false);
    expect(externalFetches).toBe(0);
  }, 60_000);
});

describe('team runners', () => {
  it('get the published document with a check made from it, and their results find and clear drift', async () => {
    const runners = await call(owner, 'POST', '/api/teams/shop-team/runners', {
      name: 'Shop Box',
      description: 'In the shop network',
      handle: 'shop-box',
    });
    expect(runners.statusCode, runners.body).toBe(201);
    const agent = (
      await createClient(server, owner, 'shop-team', { scopes: ['beacon.runner.read', 'beacon.runner.manage'] })
    ).caller;
    const answer = json<SpecProbesAnswer>(await probes());
    const getItem = answer.probes.find((probe) => probe.operation_id === 'getItem')!;
    const created = await call(owner, 'POST', '/api/services/shop/health-checks', {
      ...common,
      runner: 'shop-box',
      name: 'Item via runner',
      endpoint: getItem.url,
      assertions: getItem.assertions,
      spec: { page: 'items-api', operation_id: 'getItem' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const check = json<HealthCheck>(created);
    const sync = json<RunnerSync>(await call(agent, 'POST', '/api/runners/shop-box/actions/sync', {}));
    const handed = sync.checks.find((candidate) => candidate.id === check.id)!;
    expect(handed.spec).toMatchObject({ operation_id: 'getItem', document: { info: { version: 'v1' } } });

    // What the agent does with it: the same engine, the schema from the document it was given.
    const runnable = runnableCheck(
      { kind: 'http', endpoint: handed.endpoint, timeoutSeconds: handed.timeout },
      handed.assertions,
      handed.importance,
      handed.retries,
      specSchemas(handed.spec!.document).validator('getItem') ?? undefined,
    );
    const report = async () => {
      const { run } = await runCheck(runnable, { allowPrivate: true });
      const posted = await call(agent, 'POST', '/api/runners/shop-box/results', {
        results: [{ ...run, check_id: check.id, start: new Date(run.start).toISOString() }],
      });
      expect(posted.statusCode, posted.body).toBe(200);
    };
    const before = (await driftEvents()).length;
    offSpec = true;
    await report();
    expect((await drift()).map((item) => [item.operation_id, item.example.pointer])).toContainEqual([
      'getItem',
      '/price',
    ]);
    offSpec = false;
    await report();
    expect((await drift()).filter((item) => item.operation_id === 'getItem')).toEqual([]);
    expect((await driftEvents()).slice(before).map((event) => event.type)).toEqual([
      'api.drift_found',
      'api.drift_cleared',
    ]);
  });
});

describe('a new spec version', () => {
  it('re-links checks to the operations that remain, flags the ones gone, and offers the new ones', async () => {
    await publishSpec('v2');
    const checks = json<HealthCheck[]>(await call(owner, 'GET', '/api/services/shop/health-checks'));
    const byName = new Map(checks.map((check) => [check.name, check]));
    // getItem became fetchItem: same method and path (its parameter renamed is the same route).
    expect(byName.get('getItem')!.spec).toMatchObject({ operation_id: 'fetchItem', version: 'v2', missing: false });
    expect(byName.get('listItems')!.spec).toMatchObject({ operation_id: 'listItems', version: 'v2', missing: true });
    const answer = json<SpecProbesAnswer>(await probes());
    expect(answer.version).toBe('v2');
    expect(answer.flagged).toEqual([{ id: byName.get('listItems')!.id, name: 'listItems', operation_id: 'listItems' }]);
    const stock = answer.probes.find((probe) => probe.operation_id === 'getStock')!;
    expect(stock).toMatchObject({ url: `http://127.0.0.1:${port}/v1/items/7/stock`, checks: [] });
    const fetchChecks = answer.probes.find((probe) => probe.operation_id === 'fetchItem')!.checks;
    expect(fetchChecks).toHaveLength(2);
    expect(fetchChecks).toEqual(
      expect.arrayContaining([
        { id: byName.get('getItem')!.id, name: 'getItem' },
        { id: byName.get('Item via runner')!.id, name: 'Item via runner' },
      ]),
    );
  });
});

describe('a spec unpublished or deleted', () => {
  const specPage = '/api/services/shop/draft-pages/open-api-specs/items-api';
  const checksByName = async () =>
    new Map(
      json<HealthCheck[]>(await call(owner, 'GET', '/api/services/shop/health-checks')).map((check) => [
        check.name,
        check,
      ]),
    );

  it('flags its checks, whose schema assertion has nothing to judge by, and a new publish links them again', async () => {
    expect((await call(owner, 'POST', `${specPage}/actions/unpublish`)).statusCode).toBe(200);
    const getItem = (await checksByName()).get('getItem')!;
    expect(getItem.spec).toMatchObject({
      page: 'items-api',
      operation_id: 'fetchItem',
      missing: true,
      gone: 'unpublished',
    });
    // The shared runner (started above) runs it without a schema: the assertion fails saying so, and that is no drift.
    const schemaless = await until(async () => {
      const results = json<HealthCheckResult[]>(
        await call(owner, 'GET', `/api/health-checks/${getItem.id}/reports/health-check-results`),
      );
      return results
        .flatMap((result) => result.assertions ?? [])
        .find((assertion) => assertion.source === 'schema' && assertion.expected === 'a response schema');
    }, 30_000);
    expect(schemaless).toMatchObject({ pass: false, actual: null });
    expect(await drift()).toEqual([]);

    const published = await call(owner, 'POST', `${specPage}/actions/publish`);
    expect(published.statusCode, published.body).toBe(200);
    const relinked = await checksByName();
    expect(relinked.get('getItem')!.spec).toMatchObject({ page: 'items-api', missing: false, gone: null });
    expect(relinked.get('listItems')!.spec).toMatchObject({ missing: true, gone: 'operation' });
  }, 60_000);

  it('keeps the operation of a check whose spec page was deleted, flagged, and the check editable', async () => {
    expect((await call(owner, 'DELETE', specPage)).statusCode).toBe(204);
    const getItem = (await checksByName()).get('getItem')!;
    expect(getItem.spec).toEqual({
      page: null,
      operation_id: 'fetchItem',
      method: 'GET',
      path: '/items/{itemId}',
      version: 'v2',
      missing: true,
      gone: 'deleted',
    });
    const { name, endpoint, frequency, timeout, allowed_failures, importance, disabled, paused, assertions } = getItem;
    const renamed = await call(owner, 'PATCH', `/api/health-checks/${getItem.id}`, {
      ...{ endpoint, frequency, timeout, allowed_failures, importance, disabled, paused, assertions },
      runner: null,
      name: `${name}, spec deleted`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json<HealthCheck>(renamed).spec).toMatchObject({ gone: 'deleted' });
  });
});
