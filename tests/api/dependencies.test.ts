import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyItem, RemoteDependency, ServiceGraph } from '../../src/contract/dependencies.js';
import { walkGraph, type GraphEdge } from '../../src/domain/graph.js';
import { addMember, addToTeam, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
let owner: Member;
let admin: Member;
/** Admin of team payments, which owns checkout, ledger, vault (owner-only) and the walk's services. */
let alice: Member;
/** Member of team payments: an editor of its services. */
let bob: Member;
/** A member outside team payments: a reader. */
let rita: Member;
let guest: Member;
/** The owner of otherco, a workspace with a public and a workspace-only service. */
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const handles = (items: Array<{ handle: string }>) => items.map((item) => item.handle);
const dependenciesOf = async (service: string, actor: Member = alice) =>
  handles(json<DependencyItem[]>(await call(actor, 'GET', `/api/services/${service}/dependencies`)));
const depend = (actor: Member, service: string, on: string) =>
  call(actor, 'POST', `/api/services/${service}/dependencies`, { service: { id: on } });

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'depco' });
  ({ owner, admin, teamAdmin: alice, teamMember: bob, guest, outsider } = seeded);
  rita = await addMember(server, owner, 'rita');
  for (const handle of ['checkout', 'ledger', 'identity', 'search'])
    await createService(server, alice, 'payments', { name: handle[0]!.toUpperCase() + handle.slice(1), handle });
  await createService(server, alice, 'payments', { name: 'Vault', handle: 'vault', visibility: 'owner' });
  await createTeam(server, outsider, { name: 'Status', handle: 'status' });
  await createService(server, outsider, 'status', { name: 'Status Page', handle: 'status-page', visibility: 'public' });
  await createService(server, outsider, 'status', { name: 'Internal', handle: 'internal' });
});
afterAll(() => server.close());

describe('dependencies and dependents', () => {
  it('lets an editor add a dependency and everyone who sees the service read both sides', async () => {
    const added = await depend(bob, 'checkout', 'ledger');
    expect(added.statusCode).toBe(201);
    expect(json(added)).toMatchObject({ handle: 'ledger', name: 'Ledger', health: 'good', thumbnail_url: null });
    expect(await dependenciesOf('checkout', rita)).toEqual(['ledger']);
    expect(await dependenciesOf('checkout', guest)).toEqual(['ledger']);
    const dependents = json<DependencyItem[]>(await call(guest, 'GET', '/api/services/ledger/dependents'));
    expect(handles(dependents)).toEqual(['checkout']);
  });

  it('refuses readers and guests (403), itself (400), twice (409), and a service the caller cannot see (404)', async () => {
    expect((await depend(rita, 'checkout', 'identity')).statusCode).toBe(403);
    expect((await depend(guest, 'checkout', 'identity')).statusCode).toBe(403);
    expect((await depend(bob, 'checkout', 'checkout')).statusCode).toBe(400);
    expect((await depend(bob, 'checkout', 'ledger')).statusCode).toBe(409);
    expect((await depend(bob, 'checkout', 'nowhere')).statusCode).toBe(404);
    for (const body of [{ service: {} }, { service: { id: 'ledger' }, extra: 1 }, { id: 'ledger' }]) {
      const response = await call(bob, 'POST', '/api/services/checkout/dependencies', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await dependenciesOf('checkout')).toEqual(['ledger']);
  });

  it('hides owner-only services from those who may not see them, on both sides', async () => {
    expect((await depend(alice, 'vault', 'ledger')).statusCode).toBe(201);
    expect((await depend(rita, 'search', 'vault')).statusCode).toBe(403);
    expect(handles(json<DependencyItem[]>(await call(rita, 'GET', '/api/services/ledger/dependents')))).toEqual([
      'checkout',
    ]);
    expect(handles(json<DependencyItem[]>(await call(alice, 'GET', '/api/services/ledger/dependents')))).toEqual([
      'checkout',
      'vault',
    ]);
    expect((await call(rita, 'GET', '/api/services/vault/dependencies')).statusCode).toBe(404);
  });

  it('allows cycles', async () => {
    expect((await depend(bob, 'ledger', 'checkout')).statusCode).toBe(201);
    expect(await dependenciesOf('ledger')).toEqual(['checkout']);
  });

  it('removes a dependency for editors only; a missing one is 404', async () => {
    expect((await call(rita, 'DELETE', '/api/services/ledger/dependencies/checkout')).statusCode).toBe(403);
    expect((await call(bob, 'DELETE', '/api/services/ledger/dependencies/checkout')).statusCode).toBe(204);
    expect((await call(bob, 'DELETE', '/api/services/ledger/dependencies/checkout')).statusCode).toBe(404);
    expect(await dependenciesOf('ledger')).toEqual([]);
  });

  it('never shows or changes another workspace’s services', async () => {
    expect((await call(outsider, 'GET', '/api/services/checkout/dependencies')).statusCode).toBe(404);
    expect((await depend(outsider, 'status-page', 'checkout')).statusCode).toBe(404);
    expect((await call(outsider, 'DELETE', '/api/services/checkout/dependencies/ledger')).statusCode).toBe(404);
    expect((await depend(bob, 'checkout', 'status-page')).statusCode).toBe(404);
    expect(await dependenciesOf('checkout')).toEqual(['ledger']);
  });
});

describe('linked workspaces', () => {
  it('are for workspace admins and owners', async () => {
    for (const actor of [bob, guest]) {
      expect((await call(actor, 'GET', '/api/remotes')).statusCode).toBe(403);
      expect((await call(actor, 'POST', '/api/remotes', { remote: 'otherco' })).statusCode).toBe(403);
    }
    expect(json(await call(admin, 'GET', '/api/remotes'))).toEqual([]);
  });

  it('refuses an unknown domain (404), this workspace (400) and a second link (409)', async () => {
    expect((await call(owner, 'POST', '/api/remotes', { remote: 'nowhere' })).statusCode).toBe(404);
    expect((await call(owner, 'POST', '/api/remotes', { remote: 'depco' })).statusCode).toBe(400);
    expect((await call(owner, 'POST', '/api/remotes', { remote: '' })).statusCode).toBe(400);
    const linked = await call(admin, 'POST', '/api/remotes', { remote: 'otherco' });
    expect(linked.statusCode).toBe(201);
    expect(json(linked)).toEqual(['otherco']);
    expect((await call(owner, 'POST', '/api/remotes', { remote: 'otherco' })).statusCode).toBe(409);
    expect(json(await call(owner, 'GET', '/api/remotes'))).toEqual(['otherco']);
    // One-way: otherco sees nothing of depco.
    expect(json(await call(outsider, 'GET', '/api/remotes'))).toEqual([]);
  });

  it('shows members only the public services of linked workspaces, with their live health', async () => {
    const found = json<Array<{ workspace: string; handle: string; health: string }>>(
      await call(guest, 'GET', '/api/search-remotes/services?q=stat'),
    );
    expect(found).toEqual([
      { workspace: 'otherco', handle: 'status-page', name: 'Status Page', thumbnail_url: null, health: 'good' },
    ]);
    expect(json(await call(guest, 'GET', '/api/search-remotes/services?q=internal'))).toEqual([]);
    expect(json(await call(outsider, 'GET', '/api/search-remotes/services'))).toEqual([]);
  });
});

describe('remote dependencies', () => {
  const remotes = async (service: string, actor: Member = rita) =>
    json<RemoteDependency[]>(await call(actor, 'GET', `/api/services/${service}/remote-dependencies`));

  it('lets an editor depend on a public service of a linked workspace; never on anything else', async () => {
    const add = (actor: Member, body: object) =>
      call(actor, 'POST', '/api/services/checkout/remote-dependencies', body);
    expect((await add(rita, { workspace: 'otherco', service: 'status-page' })).statusCode).toBe(403);
    expect((await add(bob, { workspace: 'otherco', service: 'internal' })).statusCode).toBe(404);
    expect((await add(bob, { workspace: 'nowhere', service: 'status-page' })).statusCode).toBe(404);
    expect((await add(bob, { workspace: 'depco', service: 'ledger' })).statusCode).toBe(404);
    const added = await add(bob, { workspace: 'otherco', service: 'status-page' });
    expect(added.statusCode).toBe(201);
    expect((await add(bob, { workspace: 'otherco', service: 'status-page' })).statusCode).toBe(409);
    expect(await remotes('checkout')).toEqual([
      {
        workspace: 'otherco',
        handle: 'status-page',
        name: 'Status Page',
        thumbnail_url: null,
        health: 'good',
        available: true,
      },
    ]);
  });

  it('reads the remote health live', async () => {
    await call(outsider, 'POST', '/api/services/status-page/actions/change-health', { health: 'critical' });
    expect((await remotes('checkout'))[0]).toMatchObject({ health: 'critical', available: true });
  });

  it('keeps a dependency that lost its target, unavailable, with no health', async () => {
    await call(outsider, 'POST', '/api/services/status-page/actions/change-visibility', { visibility: 'workspace' });
    expect(await remotes('checkout')).toEqual([
      {
        workspace: 'otherco',
        handle: 'status-page',
        name: 'Status Page',
        thumbnail_url: null,
        health: null,
        available: false,
      },
    ]);
    await call(outsider, 'POST', '/api/services/status-page/actions/change-visibility', { visibility: 'public' });
    expect((await remotes('checkout'))[0]!.available).toBe(true);
    expect((await call(owner, 'DELETE', '/api/remotes/otherco')).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', '/api/remotes/otherco')).statusCode).toBe(404);
    expect((await remotes('checkout'))[0]).toMatchObject({ available: false, health: null });
    expect(json(await call(guest, 'GET', '/api/search-remotes/services'))).toEqual([]);
    expect((await call(owner, 'POST', '/api/remotes', { remote: 'otherco' })).statusCode).toBe(201);
  });

  it('removes a remote dependency for editors only', async () => {
    const url = '/api/services/checkout/remote-dependencies/otherco/status-page';
    expect((await call(rita, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(outsider, 'DELETE', url)).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(bob, 'DELETE', url)).statusCode).toBe(404);
    expect(await remotes('checkout')).toEqual([]);
  });
});

describe('GET /api/services/{service}/graph', () => {
  const graphOf = async (service: string, query = '', actor: Member = alice) => {
    const response = await call(actor, 'GET', `/api/services/${service}/graph${query}`);
    expect(response.statusCode).toBe(200);
    return json<ServiceGraph>(response);
  };
  const nodeIds = (graph: ServiceGraph) => graph.nodes.map((node) => node.id).sort();

  /** A chain waa -> wbb -> c -> d -> e, f -> a, plus e -> a closing a cycle, in a team of its own. */
  beforeAll(async () => {
    await createTeam(server, alice, { name: 'Walk', handle: 'walk' });
    await addToTeam(server, alice, 'walk', bob);
    for (const handle of ['waa', 'wbb', 'wcc', 'wdd', 'wee', 'wff'])
      await createService(server, alice, 'walk', { name: handle.toUpperCase(), handle });
    for (const [from, to] of [
      ['waa', 'wbb'],
      ['wbb', 'wcc'],
      ['wcc', 'wdd'],
      ['wdd', 'wee'],
      ['wff', 'waa'],
      ['wee', 'waa'],
    ])
      expect((await depend(alice, from!, to!)).statusCode).toBe(201);
  });

  it('walks dependencies and dependents to the default depth 2, with the edges among the nodes', async () => {
    const graph = await graphOf('waa');
    expect(graph.truncated).toBe(false);
    // Downstream wbb, wcc; upstream wff, wee, wdd.
    expect(nodeIds(graph)).toEqual(['waa', 'wbb', 'wcc', 'wdd', 'wee', 'wff']);
    const a = graph.nodes.find((node) => node.id === 'waa')!;
    expect(a).toMatchObject({ handle: 'waa', name: 'WAA', workspace: null, health: 'good', thumbnail_url: null });
    expect(a.dependencies).toEqual(['wbb']);
    expect([...a.dependents].sort()).toEqual(['wee', 'wff']);
    expect(graph.nodes[0]!.id).toBe('waa');
  });

  it('honours the depth and refuses one out of range', async () => {
    expect(nodeIds(await graphOf('waa', '?depth=1'))).toEqual(['waa', 'wbb', 'wee', 'wff']);
    for (const depth of ['0', '7', 'two'])
      expect((await call(alice, 'GET', `/api/services/waa/graph?depth=${depth}`)).statusCode).toBe(400);
  });

  it('reaches the same services as the domain walk over the same edges, at every depth', async () => {
    const edges: GraphEdge[] = [
      { from: 'waa', to: 'wbb' },
      { from: 'wbb', to: 'wcc' },
      { from: 'wcc', to: 'wdd' },
      { from: 'wdd', to: 'wee' },
      { from: 'wff', to: 'waa' },
      { from: 'wee', to: 'waa' },
    ];
    for (const root of ['waa', 'wcc', 'wff'])
      for (let depth = 1; depth <= 6; depth++) {
        const expected = walkGraph(root, edges, depth)
          .map((node) => node.id)
          .sort();
        expect(nodeIds(await graphOf(root, `?depth=${depth}`)), `${root} at ${depth}`).toEqual(expected);
      }
  });

  it('walks only through services the caller can see', async () => {
    await call(alice, 'POST', '/api/services/wbb/actions/change-visibility', { visibility: 'owner' });
    // rita is not in team walk: wbb is hidden, so wcc is out of her reach downstream.
    expect(nodeIds(await graphOf('waa', '', rita))).toEqual(['waa', 'wdd', 'wee', 'wff']);
    expect(nodeIds(await graphOf('waa', '', owner))).toEqual(['waa', 'wbb', 'wcc', 'wdd', 'wee', 'wff']);
    await call(alice, 'POST', '/api/services/wbb/actions/change-visibility', { visibility: 'workspace' });
  });

  it('adds remote dependencies as leaves named by workspace and handle', async () => {
    await call(bob, 'POST', '/api/services/wbb/remote-dependencies', { workspace: 'otherco', service: 'status-page' });
    // One step past wbb: within depth 2, beyond depth 1.
    expect(nodeIds(await graphOf('waa', '?depth=1'))).toEqual(['waa', 'wbb', 'wee', 'wff']);
    const graph = await graphOf('waa');
    expect(nodeIds(graph)).toEqual(['otherco:status-page', 'waa', 'wbb', 'wcc', 'wdd', 'wee', 'wff']);
    const remote = graph.nodes.find((node) => node.id === 'otherco:status-page')!;
    expect(remote).toMatchObject({
      workspace: 'otherco',
      handle: 'status-page',
      name: 'Status Page',
      dependents: ['wbb'],
    });
    expect(graph.nodes.find((node) => node.id === 'wbb')!.dependencies).toContain('otherco:status-page');
  });

  it('is 404 for a hidden service or another workspace', async () => {
    expect((await call(rita, 'GET', '/api/services/vault/graph')).statusCode).toBe(404);
    expect((await call(outsider, 'GET', '/api/services/waa/graph')).statusCode).toBe(404);
  });
});
