/**
 * Hostile input (issue 10, item 3): control characters are refused by the contract with a 400 naming the
 * field, on public and authenticated routes alike (PostgreSQL cannot store a NUL; SQLite would store it);
 * multi-line text keeps its line breaks; a malformed multipart body is a 400, not a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, type SeededWorkspace } from '../support/fixtures.js';
import { tinyPng } from '../support/images.js';
import {
  authHeaders,
  callAs,
  hostOf,
  json,
  startTestServer,
  STRONG_PASSWORD,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let cast: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server);
});
afterAll(() => server.close());

const ONE_LINE = 'Must be one line without control characters';

describe('control characters', () => {
  it('are refused in a public body, naming the field', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: hostOf('acme') },
      payload: { workspace: 'acme', login: 'a\u0000@acme.example', password: STRONG_PASSWORD },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: `Invalid body: login: ${ONE_LINE}`, errors: { login: [ONE_LINE] } });
  });

  it('are refused in path parameters and query strings', async () => {
    const path = await callAs(server, cast.owner, 'GET', '/api/users/bob%00');
    expect(path.statusCode).toBe(400);
    expect(json(path)).toMatchObject({ errors: { username: [ONE_LINE] } });
    const query = await callAs(server, cast.owner, 'GET', '/api/search/users?q=%1B%5B2J');
    expect(query.statusCode).toBe(400);
    expect(json(query)).toMatchObject({ errors: { q: [ONE_LINE] } });
  });

  it('are refused in names, handles and URLs, line breaks included', async () => {
    const { teamAdmin } = cast;
    const cases: [string, object, string][] = [
      ['/api/teams', { name: 'Ops\nTeam', handle: 'ops' }, 'name'],
      ['/api/teams', { name: 'Ops', handle: 'ops\u0000' }, 'handle'],
      ['/api/teams/payments/services', { name: 'Tab\there', handle: 'tabbed' }, 'name'],
    ];
    for (const [url, payload, field] of cases) {
      const response = await callAs(server, teamAdmin, 'POST', url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(json(response), JSON.stringify(payload)).toMatchObject({ errors: { [field]: [ONE_LINE] } });
    }
    await callAs(server, teamAdmin, 'POST', '/api/teams/payments/services', { name: 'Ledger', handle: 'ledger' });
    const link = await callAs(server, teamAdmin, 'PATCH', '/api/services/ledger', {
      links: [{ name: 'Docs', url: 'https://docs.example/a\nb' }],
    });
    expect(link.statusCode).toBe(400);
    expect(json(link)).toMatchObject({ errors: { 'links.0.url': [ONE_LINE] } });
  });

  it('keep tabs and line breaks in multi-line text, and refuse the other controls there', async () => {
    const { teamAdmin } = cast;
    const description = 'First line\n\tindented\r\nlast';
    const kept = await callAs(server, teamAdmin, 'PATCH', '/api/teams/payments', { description });
    expect(kept.statusCode).toBe(200);
    expect(json<{ description: string }>(kept).description).toBe(description);
    const bell = await callAs(server, teamAdmin, 'PATCH', '/api/teams/payments', { description: 'ding\u0007' });
    expect(bell.statusCode).toBe(400);
    expect(json(bell)).toMatchObject({
      errors: { description: ['Must not contain control characters other than tabs and line breaks'] },
    });
  });
});

/** Found by `npm run fuzz`: valid inputs that once answered 500. */
describe('edge inputs the fuzzer found', () => {
  it('an empty notice type list is an empty list, not a database error', async () => {
    const response = await callAs(server, cast.owner, 'GET', '/api/services/ledger/notices?type=&cursor=8');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual([]);
    expect(response.headers.total).toBe('0');
  });

  it('a daily-health range ending far ahead answers its last 90 days', async () => {
    const url = '/api/services/ledger/reports/service-health-daily?from=1684-07-07T07:16:00Z&to=7268-02-28T09:00:00Z';
    const response = await callAs(server, cast.owner, 'GET', url);
    expect(response.statusCode).toBe(200);
    const days = json<{ date: string }[]>(response);
    expect(days).toHaveLength(90);
    expect(days.at(-1)!.date).toBe('7268-02-28');
  });
});

describe('malformed multipart bodies', () => {
  const boundary = 'fuzzboundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="icon"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    tinyPng(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const cases: [string, string, Buffer | string][] = [
    ['no boundary', 'multipart/form-data', body],
    ['a truncated body', `multipart/form-data; boundary=${boundary}`, body.subarray(0, 80)],
    ['a missing final boundary', `multipart/form-data; boundary=${boundary}`, body.subarray(0, body.length - 8)],
    ['no parts at all', `multipart/form-data; boundary=${boundary}`, 'not multipart'],
  ];

  for (const [what, contentType, payload] of cases) {
    it(`answer 400 for ${what}, and change nothing`, async () => {
      const { owner } = cast;
      const response = await server.app.inject({
        method: 'POST',
        url: `/api/users/${owner.handle}/icon`,
        headers: { ...authHeaders(owner), 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toMatchObject({ errors: { icon: [expect.any(String)] } });
      const me = await callAs(server, owner, 'GET', `/api/users/${owner.handle}`);
      expect(json<{ thumbnail_url: string | null }>(me).thumbnail_url).toBeNull();
    });
  }
});

describe('HTTP Basic client credentials', () => {
  it('refuse a control character in the client id with 401, not a database error', async () => {
    const basic = Buffer.from('client\u0000id:secret').toString('base64');
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/token',
      headers: { host: hostOf('acme'), authorization: `Basic ${basic}` },
      payload: { grant_type: 'client_credentials' },
    });
    expect(response.statusCode).toBe(401);
  });
});
