/**
 * The cast most API tests start from, built through the API itself: a workspace with its owner, a workspace
 * admin, a team with its admin and a plain member, a guest, and an outsider who owns a second workspace; each
 * logged in. The helpers below add more people, teams, services and API clients, and fail loudly when the
 * server refuses, so a broken setup never passes for a failing assertion.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { Service, Team } from '../../src/contract/catalogue.js';
import type { Client } from '../../src/contract/clients.js';
import type { Visibility } from '../../src/domain/catalogue.js';
import type { Role } from '../../src/domain/roles.js';
import { callAs, hostOf, inviteAndJoin, json, registerWorkspace, type Member, type TestServer } from './server.js';

export interface NewTeam {
  name: string;
  handle: string;
}

export interface NewService {
  name: string;
  handle: string;
  /** Changed after the create, as a user would (a new service is visible to the workspace). */
  visibility?: Visibility;
}

export interface SeedOptions {
  /** The workspace's subdomain (default `acme`). */
  domain?: string;
  /** The outsider's workspace (default `otherco`). */
  outsiderDomain?: string;
  /** The team the team admin creates and the team member joins (default Payments); null for none. */
  team?: NewTeam | null;
}

/** The people of a seeded workspace (handles in brackets), each logged in. */
export interface Cast {
  domain: string;
  owner: Member;
  /** A workspace admin (ada). */
  admin: Member;
  /** The admin of the seeded team, who created it (alice). */
  teamAdmin: Member;
  /** A plain member of the seeded team (bob). */
  teamMember: Member;
  /** A workspace guest (gus). */
  guest: Member;
  /** The owner of another workspace. */
  outsider: Member;
}

export interface SeededWorkspace extends Cast {
  team: Team;
}

const DEFAULT_TEAM: NewTeam = { name: 'Payments', handle: 'payments' };

export async function seedWorkspace(server: TestServer, options: SeedOptions & { team: null }): Promise<Cast>;
export async function seedWorkspace(server: TestServer, options?: SeedOptions): Promise<SeededWorkspace>;
export async function seedWorkspace(server: TestServer, options: SeedOptions = {}): Promise<Cast | SeededWorkspace> {
  const domain = options.domain ?? 'acme';
  const owner = await registerWorkspace(server, domain);
  const admin = await addMember(server, owner, 'ada', 'admin');
  const teamAdmin = await addMember(server, owner, 'alice');
  const teamMember = await addMember(server, owner, 'bob');
  const guest = await addMember(server, owner, 'gus', 'guest');
  const outsider = await registerWorkspace(server, options.outsiderDomain ?? 'otherco');
  const cast: Cast = { domain, owner, admin, teamAdmin, teamMember, guest, outsider };
  if (options.team === null) return cast;
  const team = await createTeam(server, teamAdmin, options.team ?? DEFAULT_TEAM);
  await addToTeam(server, teamAdmin, team.handle, teamMember);
  return { ...cast, team };
}

/** Invites `handle` into `inviter`'s workspace, joins, logs in, and gives them `role` (the owner must invite). */
export async function addMember(server: TestServer, inviter: Member, handle: string, role: Role = 'member') {
  const member = await inviteAndJoin(server, inviter, handle);
  if (role !== 'member') {
    const url = `/api/users/${member.id}/actions/change-role`;
    expectStatus(await callAs(server, inviter, 'POST', url, { role }), 200, `make ${handle} ${role}`);
  }
  return member;
}

/** `actor` creates a team, and so becomes its admin. */
export async function createTeam(server: TestServer, actor: Member, team: NewTeam): Promise<Team> {
  const response = await callAs(server, actor, 'POST', '/api/teams', team);
  return json<Team>(expectStatus(response, 201, `create team ${team.handle}`));
}

export async function addToTeam(
  server: TestServer,
  actor: Member,
  teamHandle: string,
  member: Member,
  role: 'admin' | 'member' = 'member',
): Promise<void> {
  const response = await callAs(server, actor, 'POST', `/api/teams/${teamHandle}/members`, {
    user: { id: member.id },
    role,
  });
  expectStatus(response, 201, `add ${member.handle} to ${teamHandle}`);
}

/** `actor` creates a service of the team, then gives it `visibility` when asked. */
export async function createService(
  server: TestServer,
  actor: Member,
  teamHandle: string,
  service: NewService,
): Promise<Service> {
  const { visibility, ...fields } = service;
  const created = await callAs(server, actor, 'POST', `/api/teams/${teamHandle}/services`, fields);
  const made = json<Service>(expectStatus(created, 201, `create service ${service.handle}`));
  if (!visibility) return made;
  const url = `/api/services/${service.handle}/actions/change-visibility`;
  return json<Service>(expectStatus(await callAs(server, actor, 'POST', url, { visibility }), 200, url));
}

/**
 * A client of the team with `scopes`, created by a team admin, and a token for it: `caller` calls the API as
 * the client does (its handle and id are the client's; it has no email, password or cookie).
 */
export async function createClient(
  server: TestServer,
  teamAdmin: Member,
  teamHandle: string,
  fields: { scopes: string[]; name?: string; description?: string },
): Promise<{ client: Client; caller: Member }> {
  const body = { name: fields.name ?? 'Agent', description: fields.description ?? 'API client', scopes: fields.scopes };
  const created = await callAs(server, teamAdmin, 'POST', `/api/teams/${teamHandle}/clients`, body);
  const client = json<Client>(expectStatus(created, 201, `create client of ${teamHandle}`));
  const token = await server.app.inject({
    method: 'POST',
    url: '/api/token',
    headers: { host: hostOf(teamAdmin.domain) },
    payload: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret },
  });
  const accessToken = json<{ access_token: string }>(expectStatus(token, 200, 'client token')).access_token;
  const caller: Member = {
    domain: teamAdmin.domain,
    handle: client.handle,
    email: '',
    password: '',
    cookie: '',
    id: client.id,
    token: accessToken,
  };
  return { client, caller };
}

function expectStatus(response: LightMyRequestResponse, status: number, what: string): LightMyRequestResponse {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response;
}

/** The id of the workspace on `domain`, read from the database. */
export async function workspaceIdOf(server: TestServer, domain: string): Promise<string> {
  const row = await server.ctx.database.db
    .selectFrom('workspaces')
    .select('id')
    .where('domain', '=', domain)
    .executeTakeFirstOrThrow();
  return row.id;
}
