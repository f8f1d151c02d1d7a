import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapRegistrationLink, createBetaKey } from '../../src/server/services/accounts/registration.js';
import { hostOf, json, loginAs, startTestServer, STRONG_PASSWORD, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  // Many registrations from one address; the per-address limit is tested in login-limits.test.ts.
  server = await startTestServer({ BEACON_REGISTER_RATE_LIMIT: '1000' });
});
afterAll(() => server.close());

function registration(
  betaKey: string,
  overrides: { email?: string; handle?: string; password?: string; domain?: string } = {},
) {
  return {
    beta_key: betaKey,
    owner: {
      email: overrides.email ?? 'founder@example.com',
      name: 'Fay Founder',
      handle: overrides.handle ?? 'fay',
      password: overrides.password ?? STRONG_PASSWORD,
    },
    workspace: { name: 'Initech', domain: overrides.domain ?? 'initech' },
  };
}

const register = (payload: object) =>
  server.app.inject({ method: 'POST', url: '/api/registration/register-workspace', payload });

describe('bootstrap beta key', () => {
  it('on an empty database gives a one-time registration link whose key accepts any email, once', async () => {
    const link = await bootstrapRegistrationLink(server.ctx);
    expect(link).toMatch(/^http:\/\/localhost:8080\/register\?beta_code=[A-Z2-9]{6}$/);
    expect(await bootstrapRegistrationLink(server.ctx)).toBeNull();
    const key = new URL(link!).searchParams.get('beta_code')!;
    const check = await server.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { beta_key: key, email: 'anyone@example.com' },
    });
    expect(check.statusCode).toBe(200);
    const created = await register(registration(key, { email: 'boot@example.com', handle: 'boot', domain: 'bootco' }));
    expect(created.statusCode).toBe(201);
  });
});

describe('POST /api/register (step one)', () => {
  it('accepts a key with its email and refuses another email', async () => {
    const key = await createBetaKey(server.ctx, 'pair@example.com');
    expect(key).toMatch(/^[A-Z2-9]{6}$/);
    const ok = await server.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { beta_key: key, email: 'Pair@Example.com' },
    });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toEqual({ beta_key: key, email: 'pair@example.com' });
    const wrong = await server.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { beta_key: key, email: 'other@example.com' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(json<{ message: string }>(wrong).message).toBe('This beta key is not valid for this email');
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { beta_key: 'ZZZZZZ', email: 'pair@example.com' },
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('POST /api/registration/register-workspace (step two)', () => {
  it('creates the workspace and its owner, answers with the domain, and the owner can log in', async () => {
    const key = await createBetaKey(server.ctx, 'founder@example.com');
    const response = await register(registration(key));
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({
      domain: 'initech',
      workspace: { domain: 'initech', name: 'Initech', status: 'active' },
    });
    const owner = await loginAs(server, 'initech', 'founder@example.com');
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/users/fay',
      headers: { host: hostOf('initech'), authorization: `Bearer ${owner.token}` },
    });
    expect(json(me)).toMatchObject({ handle: 'fay', role: 'owner', super_admin: true, email: 'founder@example.com' });
  });

  it('refuses a reused beta key and changes nothing', async () => {
    const key = await createBetaKey(server.ctx, 'twice@example.com');
    expect(
      (await register(registration(key, { email: 'twice@example.com', handle: 'twice', domain: 'twice-one' })))
        .statusCode,
    ).toBe(201);
    const again = await register(
      registration(key, { email: 'twice@example.com', handle: 'twice', domain: 'twice-two' }),
    );
    expect(again.statusCode).toBe(400);
    expect(json<{ message: string }>(again).message).toBe('This beta key has already been used');
    const missing = await server.app.inject({
      method: 'GET',
      url: '/api/workspace',
      headers: { host: hostOf('twice-two') },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a taken domain with 409 and the field in errors, leaving the key unused', async () => {
    const key = await createBetaKey(server.ctx, 'late@example.com');
    const taken = await register(registration(key, { email: 'late@example.com', domain: 'initech' }));
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({ errors: { 'workspace.domain': ['This domain is already taken'] } });
    const retry = await register(registration(key, { email: 'late@example.com', domain: 'initech-two' }));
    expect(retry.statusCode).toBe(201);
  });

  it('refuses invalid fields with the spec messages, the first error first', async () => {
    const key = await createBetaKey(server.ctx, 'rules@example.com');
    const cases: Array<[object, string, string]> = [
      [{ email: 'not-an-email' }, 'owner.email', 'Email is not valid'],
      [{ handle: 'Bad Handle' }, 'owner.handle', 'Handle is not valid, can only contain lowercase letters and dashes'],
      [{ handle: 'a--b' }, 'owner.handle', 'Handle is not valid, can only contain lowercase letters and dashes'],
      [
        { password: 'weakpass' },
        'owner.password',
        'Password is not strong enough. It must be at least 8 characters and include a lowercase and uppercase letter, a number and a special character.',
      ],
      [{ domain: 'ab' }, 'workspace.domain', 'Domain must be at least 3 characters'],
      [{ domain: 'Upper' }, 'workspace.domain', 'Domain can only contain lowercase letters, digits and dashes'],
      [{ domain: 'www' }, 'workspace.domain', 'This domain is reserved'],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await register(registration(key, { email: 'rules@example.com', ...overrides }));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      const body = json<{ message: string; errors: Record<string, string[]> }>(response);
      expect(body.errors[field]).toEqual([message]);
      expect(body.message).toBe(message);
    }
    const badKey = await register(registration('ABC', { email: 'rules@example.com' }));
    expect(json(badKey)).toMatchObject({ errors: { beta_key: ['Invalid Beta Code'] } });
  });
});
