import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service, Team, TeamPolicies } from '../../src/contract/catalogue.js';
import { seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
let owner: Member;
let admin: Member;
/** Admin of team payments. */
let alice: Member;
/** Member of team payments. */
let bob: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);
const policiesOf = async (actor: Member = alice) =>
  json<TeamPolicies>(await call(actor, 'GET', '/api/teams/payments/policies'));

beforeAll(async () => {
  server = await startTestServer();
  ({
    owner,
    admin,
    teamAdmin: alice,
    teamMember: bob,
    guest,
    outsider,
  } = await seedWorkspace(server, { domain: 'policyco' }));
});
afterAll(() => server.close());

describe('GET /api/teams/{team}/policies', () => {
  it('starts with workspace visibility and only admins creating services', async () => {
    const response = await call(alice, 'GET', '/api/teams/payments/policies');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ default_visibility: 'workspace', members_create_services: false });
  });

  it('is for team admins and workspace admins and owners; others get 403, another workspace 404', async () => {
    expect((await call(admin, 'GET', '/api/teams/payments/policies')).statusCode).toBe(200);
    expect((await call(owner, 'GET', '/api/teams/payments/policies')).statusCode).toBe(200);
    expect((await call(bob, 'GET', '/api/teams/payments/policies')).statusCode).toBe(403);
    expect((await call(guest, 'GET', '/api/teams/payments/policies')).statusCode).toBe(403);
    expect((await call(outsider, 'GET', '/api/teams/payments/policies')).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/api/teams/nobody/policies')).statusCode).toBe(404);
  });
});

describe('PATCH /api/teams/{team}/policies', () => {
  it('refuses team members, guests and other workspaces, and changes nothing', async () => {
    const change = { members_create_services: true };
    expect((await call(bob, 'PATCH', '/api/teams/payments/policies', change)).statusCode).toBe(403);
    expect((await call(guest, 'PATCH', '/api/teams/payments/policies', change)).statusCode).toBe(403);
    expect((await call(outsider, 'PATCH', '/api/teams/payments/policies', change)).statusCode).toBe(404);
    expect(await policiesOf()).toEqual({ default_visibility: 'workspace', members_create_services: false });
  });

  it('refuses a bad visibility, a non-boolean and unknown fields with 400, and changes nothing', async () => {
    for (const body of [
      { default_visibility: 'everyone' },
      { members_create_services: 'yes' },
      { default_visibility: 'owner', colour: 'red' },
    ]) {
      const response = await call(alice, 'PATCH', '/api/teams/payments/policies', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json<{ message: string }>(response).message).toBeTruthy();
    }
    expect(await policiesOf()).toEqual({ default_visibility: 'workspace', members_create_services: false });
  });

  it('lets the team admin change one policy at a time, keeping the other', async () => {
    const response = await call(alice, 'PATCH', '/api/teams/payments/policies', { default_visibility: 'owner' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ default_visibility: 'owner', members_create_services: false });
    expect(await policiesOf(admin)).toEqual({ default_visibility: 'owner', members_create_services: false });
  });
});

describe('the policies at work', () => {
  it('gives new services of the team its default visibility', async () => {
    const created = await call(alice, 'POST', '/api/teams/payments/services', { name: 'Vault', handle: 'vault' });
    expect(created.statusCode).toBe(201);
    expect(json<Service>(created).visibility).toBe('owner');
    // An owner-only service: a member of another team does not see it.
    const other = await call(guest, 'GET', '/api/services/vault');
    expect(other.statusCode).toBe(404);
  });

  it('lets team members create services only while the team allows it', async () => {
    const team = json<Team>(await call(bob, 'GET', '/api/teams/payments'));
    expect(team).toMatchObject({ is_member: true, is_admin: false, can_create_services: false });
    const refused = await call(bob, 'POST', '/api/teams/payments/services', { name: 'Ledger', handle: 'ledger' });
    expect(refused.statusCode).toBe(403);
    expect((await call(bob, 'GET', '/api/services/ledger')).statusCode).toBe(404);

    await call(alice, 'PATCH', '/api/teams/payments/policies', { members_create_services: true });
    expect(json<Team>(await call(bob, 'GET', '/api/teams/payments')).can_create_services).toBe(true);
    const created = await call(bob, 'POST', '/api/teams/payments/services', { name: 'Ledger', handle: 'ledger' });
    expect(created.statusCode).toBe(201);
    expect(json<Service>(created)).toMatchObject({ handle: 'ledger', visibility: 'owner' });

    // Still never guests, nor members of the workspace outside the team.
    expect(json<Team>(await call(guest, 'GET', '/api/teams/payments')).can_create_services).toBe(false);
    const byGuest = await call(guest, 'POST', '/api/teams/payments/services', { name: 'G', handle: 'by-guest' });
    expect(byGuest.statusCode).toBe(403);
  });
});
