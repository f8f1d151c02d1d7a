import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/contract/catalogue.js';
import type { Notice } from '../../src/contract/notices.js';
import { NOTICE_HEALTH_MESSAGE } from '../../src/domain/notices.js';
import { addMember, createService, createTeam, seedWorkspace } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

let server: TestServer;
let owner: Member;
/** Admin of team payments, which owns checkout. */
let alice: Member;
/** Member of team search only. */
let carol: Member;
let guest: Member;
let outsider: Member;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const serviceHealth = async () => json<Service>(await call(alice, 'GET', '/api/services/checkout')).health;
const list = async (query = '') => json<Notice[]>(await call(carol, 'GET', `/api/services/checkout/notices${query}`));

/** The service's health transitions and events, straight from the database. */
async function logOf(serviceHandle: string) {
  const db = server.ctx.database.db;
  const service = await db
    .selectFrom('services')
    .select('id')
    .where('handle', '=', serviceHandle)
    .executeTakeFirstOrThrow();
  const transitions = await db
    .selectFrom('health_transitions')
    .select(['health', 'source'])
    .where('service_id', '=', service.id)
    .orderBy('at')
    .execute();
  const events = await db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('profile_id', '=', service.id)
    // What notices and health write (the service's creation is not in question here).
    .where('type', '<>', 'service.created')
    .orderBy('created_at')
    .execute();
  // The service's alert (issue 50) keeps its own steps in the feed: apart from what the notice itself records.
  const parsed = events.map((event) => ({ type: event.type, data: JSON.parse(event.data) as object }));
  return {
    transitions,
    events: parsed.filter((event) => !event.type.startsWith('alert.')),
    alerts: parsed.filter((event) => event.type.startsWith('alert.')).map((event) => event.type),
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const seeded = await seedWorkspace(server, { domain: 'noticeco', outsiderDomain: 'othernotice' });
  ({ owner, teamAdmin: alice, guest, outsider } = seeded);
  carol = await addMember(server, owner, 'carol');
  await createTeam(server, carol, { name: 'Search', handle: 'search' });
  await createService(server, alice, 'payments', { name: 'Checkout', handle: 'checkout' });
});
afterAll(() => server.close());

describe('notices', () => {
  let incident: Notice;

  it('opens an incident with the default status, sets the health in the same transaction, one event', async () => {
    const response = await call(alice, 'POST', '/api/services/checkout/notices', {
      service: { id: 'checkout' },
      type: 'incident',
      title: 'Payments failing',
      message: 'We are looking into it',
      health: 'critical',
    });
    expect(response.statusCode).toBe(201);
    incident = json<Notice>(response);
    expect(incident).toMatchObject({
      type: 'incident',
      title: 'Payments failing',
      status: 'investigating',
      message: 'We are looking into it',
      health: 'critical',
      history: [{ message: 'We are looking into it', status: 'investigating', time: incident.created_at }],
      service: { handle: 'checkout', name: 'Checkout' },
    });
    expect(await serviceHealth()).toBe('critical');
    const log = await logOf('checkout');
    expect(log.transitions).toEqual([{ health: 'critical', source: 'notice' }]);
    expect(log.events).toEqual([
      {
        type: 'notice.created',
        data: expect.objectContaining({ notice: incident.id, status: 'investigating', health: 'critical' }),
      },
    ]);
  });

  it('opens a maintenance notice as scheduled, without touching the health', async () => {
    const response = await call(alice, 'POST', '/api/services/checkout/notices', {
      type: 'maintenance',
      title: 'Database upgrade',
      message: 'Saturday night',
    });
    expect(response.statusCode).toBe(201);
    expect(json<Notice>(response)).toMatchObject({ status: 'scheduled', health: null });
    expect(await serviceHealth()).toBe('critical');
  });

  it('filters by type and open or closed, comma lists, newest first, with the total', async () => {
    expect((await list()).map((n) => n.title)).toEqual(['Database upgrade', 'Payments failing']);
    expect((await list('?type=incident,maintenance&status=open')).length).toBe(2);
    expect((await list('?type=maintenance')).map((n) => n.title)).toEqual(['Database upgrade']);
    expect((await list('?type=incident&status=closed')).length).toBe(0);
    const response = await call(carol, 'GET', '/api/services/checkout/notices?status=open,closed&limit=1');
    expect(response.headers['total']).toBe('2');
    expect(json<Notice[]>(response)).toHaveLength(1);
  });

  it('refuses unknown filter values and bodies outside the contract, changing nothing', async () => {
    for (const query of ['?type=release', '?status=pending', '?type=incident,bogus']) {
      const response = await call(carol, 'GET', `/api/services/checkout/notices${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    const bad = [
      { type: 'outage', title: 'x', message: 'y' },
      { type: 'incident', title: '', message: 'y' },
      { type: 'incident', title: 'x', message: '' },
      { type: 'incident', title: 'x', message: 'y', status: 'scheduled' },
      { type: 'incident', title: 'x', message: 'y', severity: 'high' },
      { type: 'incident', title: 'x', message: 'y', service: { id: 'other' } },
    ];
    for (const body of bad) {
      const response = await call(alice, 'POST', '/api/services/checkout/notices', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await list('?status=open,closed')).length).toBe(2);
  });

  it('keeps type and title fixed and refuses a status of the other type', async () => {
    const titled = await call(alice, 'PATCH', `/api/notices/${incident.id}`, {
      status: 'identified',
      message: 'Found it',
      title: 'Renamed',
    });
    expect(titled.statusCode).toBe(400);
    const wrong = await call(alice, 'PATCH', `/api/notices/${incident.id}`, { status: 'completed', message: 'Done' });
    expect(wrong.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(wrong).errors.status).toBeDefined();
  });

  it('refuses to resolve with any health but good, with the spec message, changing nothing', async () => {
    const response = await call(alice, 'PATCH', `/api/notices/${incident.id}`, {
      status: 'resolved',
      message: 'Fixed',
      health: 'warning',
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ message: string; errors: Record<string, string[]> }>(response)).toMatchObject({
      message: NOTICE_HEALTH_MESSAGE,
      errors: { health: [NOTICE_HEALTH_MESSAGE] },
    });
    const created = await call(alice, 'POST', '/api/services/checkout/notices', {
      type: 'maintenance',
      title: 'Done already',
      status: 'completed',
      message: 'x',
      health: 'maintenance',
    });
    expect(created.statusCode).toBe(400);
    expect((await list('?status=open,closed')).length).toBe(2);
    expect((await list()).find((n) => n.id === incident.id)?.history).toHaveLength(1);
  });

  it('updates status and message as history entries, and resolving with good brings the health back', async () => {
    const identified = await call(alice, 'PATCH', `/api/notices/${incident.id}`, {
      status: 'identified',
      message: 'A bad deploy',
    });
    expect(identified.statusCode).toBe(200);
    expect(json<Notice>(identified)).toMatchObject({
      status: 'identified',
      message: 'A bad deploy',
      health: 'critical',
    });
    const resolved = json<Notice>(
      await call(alice, 'PATCH', `/api/notices/${incident.id}`, {
        status: 'resolved',
        message: 'Rolled back',
        health: 'good',
      }),
    );
    expect(resolved.history.map((entry) => [entry.status, entry.message])).toEqual([
      ['investigating', 'We are looking into it'],
      ['identified', 'A bad deploy'],
      ['resolved', 'Rolled back'],
    ]);
    expect(await serviceHealth()).toBe('good');
    expect((await list('?type=incident&status=closed')).map((n) => n.id)).toEqual([incident.id]);
    expect((await list('?type=incident')).length).toBe(0);
    const log = await logOf('checkout');
    expect(log.transitions).toEqual([
      { health: 'critical', source: 'notice' },
      { health: 'good', source: 'notice' },
    ]);
    expect(log.events.map((event) => event.type)).toEqual([
      'notice.created',
      'notice.created',
      'notice.updated',
      'notice.updated',
    ]);
    expect(log.alerts).toEqual(['alert.opened', 'alert.resolved']);
  });

  it('an open notice holds its health: closing it without a health lets the service go back', async () => {
    const maintenance = json<Notice>(
      await call(alice, 'POST', '/api/services/checkout/notices', {
        type: 'maintenance',
        title: 'Failover test',
        status: 'in_progress',
        message: 'Switching over',
        health: 'maintenance',
      }),
    );
    expect(await serviceHealth()).toBe('maintenance');
    // A manual change does not outlast the notice: on completion the service takes what its signals call for.
    await call(alice, 'POST', '/api/services/checkout/actions/change-health', { health: 'warning' });
    await call(alice, 'PATCH', `/api/notices/${maintenance.id}`, { status: 'completed', message: 'All done' });
    expect(await serviceHealth()).toBe('good');
  });

  it('lets viewers read, and only editors of the service write', async () => {
    expect((await call(guest, 'GET', '/api/services/checkout/notices')).statusCode).toBe(200);
    const body = { type: 'incident', title: 'Nope', message: 'x' };
    for (const actor of [carol, guest]) {
      expect((await call(actor, 'POST', '/api/services/checkout/notices', body)).statusCode).toBe(403);
      expect(
        (await call(actor, 'PATCH', `/api/notices/${incident.id}`, { status: 'monitoring', message: 'x' })).statusCode,
      ).toBe(403);
    }
    // Workspace admins have team-admin rights on every team.
    expect((await call(owner, 'POST', '/api/services/checkout/notices', body)).statusCode).toBe(201);
  });

  it('hides an owner-only service’s notices from other teams, and everything from other workspaces', async () => {
    await call(alice, 'POST', '/api/services/checkout/actions/change-visibility', { visibility: 'owner' });
    expect((await call(carol, 'GET', '/api/services/checkout/notices')).statusCode).toBe(404);
    expect(
      (await call(carol, 'PATCH', `/api/notices/${incident.id}`, { status: 'monitoring', message: 'x' })).statusCode,
    ).toBe(404);
    await call(alice, 'POST', '/api/services/checkout/actions/change-visibility', { visibility: 'workspace' });
    // On its own workspace another tenant's notice does not exist (tenant-isolation.test.ts sends its token here).
    expect((await call(outsider, 'GET', '/api/services/checkout/notices')).statusCode).toBe(404);
    expect(
      (await call(outsider, 'PATCH', `/api/notices/${incident.id}`, { status: 'monitoring', message: 'x' })).statusCode,
    ).toBe(404);
    expect((await list()).find((n) => n.id === incident.id)).toBeUndefined();
    expect((await list('?status=closed')).find((n) => n.id === incident.id)?.status).toBe('resolved');
  });
});
