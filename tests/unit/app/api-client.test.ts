import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../../src/app/api/client.js';
import { userOperations } from '../../../src/contract/operations/users.js';
import { usernameFromToken } from '../../../src/app/session/token.js';
import { appKindOf } from '../../../src/domain/hosts.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('createApiClient', () => {
  it('sends the bearer token and JSON, and reads the total header of a page', async () => {
    const fetch = vi.fn(async () => json(200, [{ id: 1 }], { total: '41' }));
    const client = createApiClient({ getToken: () => 'tok', refreshToken: async () => null, fetch });
    const page = await client.page(userOperations.searchUsers, { query: { cursor: 20, limit: 20, q: 'an' } });
    expect(page).toEqual({ items: [{ id: 1 }], total: 41 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/search/users?cursor=20&limit=20&q=an');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('refreshes the token once on a 401 and retries with the new one', async () => {
    let token = 'old';
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
      (init?.headers as Record<string, string>).authorization === 'Bearer new'
        ? json(200, { ok: true })
        : json(401, { message: 'Token expired' }),
    );
    const refreshToken = vi.fn(async () => (token = 'new'));
    const client = createApiClient({ getToken: () => token, refreshToken, fetch });
    expect(await client.call(userOperations.getUser, { params: { username: 'ann' } })).toEqual({ ok: true });
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('gives up after the retry limit of 2 and surfaces the 401', async () => {
    const fetch = vi.fn(async () => json(401, { message: 'Session ended' }));
    const refreshToken = vi.fn(async () => 'again');
    const client = createApiClient({ getToken: () => 'tok', refreshToken, fetch });
    await expect(client.call(userOperations.getUser, { params: { username: 'ann' } })).rejects.toMatchObject({
      status: 401,
      message: 'Session ended',
    });
    expect(refreshToken).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('does not retry when the refresh finds no session', async () => {
    const fetch = vi.fn(async () => json(401, { message: 'No session' }));
    const client = createApiClient({ getToken: () => 'tok', refreshToken: async () => null, fetch });
    await expect(client.call(userOperations.getUser, { params: { username: 'x' } })).rejects.toBeInstanceOf(ApiError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reports the first field error, else the message', () => {
    expect(
      new ApiError(409, {
        message: 'Conflict',
        errors: { 'workspace.domain': ['This domain is already taken'] },
      }).firstError(),
    ).toBe('This domain is already taken');
    expect(new ApiError(400, { message: 'Bad' }).firstError()).toBe('Bad');
  });
});

describe('usernameFromToken', () => {
  it('reads the third part of the sub claim', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'user:acme:ann-lee' })).toString('base64url');
    expect(usernameFromToken(`h.${payload}.s`)).toBe('ann-lee');
    expect(usernameFromToken('garbage')).toBeNull();
  });
});

describe('appKindOf', () => {
  it('chooses the sign-up, workspace or root application by host', () => {
    expect(appKindOf('signup.localhost', 'localhost', 'signup.localhost')).toEqual({ kind: 'signup' });
    expect(appKindOf('acme.localhost', 'localhost', null)).toEqual({ kind: 'workspace', workspace: 'acme' });
    expect(appKindOf('localhost', 'localhost', null)).toEqual({ kind: 'root' });
  });
});
