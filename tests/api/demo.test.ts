import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, seedDemo } from '../../src/server/services/demo.js';
import { authHeaders, json, loginAs, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('beacon demo', () => {
  it('seeds the demo workspace with teams and services through the business rules, once', async () => {
    await seedDemo(server.ctx);
    await seedDemo(server.ctx);
    const owner = await loginAs(server, 'demo', DEMO_LOGIN.email, DEMO_LOGIN.password);
    const teams = await server.app.inject({ method: 'GET', url: '/api/search/teams', headers: authHeaders(owner) });
    expect(teams.headers.total).toBe('3');
    const services = await server.app.inject({
      method: 'GET',
      url: '/api/search/services',
      headers: authHeaders(owner),
    });
    expect(services.headers.total).toBe('8');
    const ledger = json<{ visibility: string; owner: { handle: string } }>(
      await server.app.inject({ method: 'GET', url: '/api/services/ledger', headers: authHeaders(owner) }),
    );
    expect(ledger).toMatchObject({ visibility: 'owner', owner: { handle: 'payments' } });
    const starred = json<Array<{ profile: { handle: string } }>>(
      await server.app.inject({ method: 'GET', url: '/api/users/demo-owner/starred', headers: authHeaders(owner) }),
    );
    expect(starred.map((s) => s.profile.handle)).toEqual(['checkout']);
  });
});
