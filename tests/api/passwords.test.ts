import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  hostOf,
  json,
  loginAs,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let owner: Member;

beforeAll(async () => {
  server = await startTestServer();
  owner = await registerWorkspace(server, 'pwco');
});
afterAll(() => server.close());

const forgot = (email: string, workspace = 'pwco') =>
  server.app.inject({
    method: 'POST',
    url: '/api/forgot-password',
    headers: { host: hostOf(workspace) },
    payload: { workspace, email },
  });
const reset = (key: string, password: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/reset-password',
    headers: { host: hostOf('pwco') },
    payload: { key, password },
  });

async function mailedKey(email: string): Promise<string> {
  const before = server.mail.mails.length;
  expect((await forgot(email)).statusCode).toBe(200);
  const mail = await server.mail.waitFor(
    email,
    (m) => server.mail.mails.indexOf(m) >= before && /reset-password/.test(m.text),
  );
  const link = new URL(mail.text.match(/http\S+\/reset-password\?key=\S+/)![0]);
  expect(link.origin).toBe('http://pwco.localhost:8080');
  return link.searchParams.get('key')!;
}

describe('forgot and reset password', () => {
  it('mails a reset link over SMTP; the key sets a new password once and ends old sessions', async () => {
    const oldSession = await loginAs(server, 'pwco', owner.email);
    const key = await mailedKey(owner.email);
    expect((await reset(key, 'N3w-password')).statusCode).toBe(200);
    expect(
      (await server.app.inject({ method: 'GET', url: `/api/users/${owner.handle}`, headers: authHeaders(oldSession) }))
        .statusCode,
    ).toBe(401);
    const fresh = await loginAs(server, 'pwco', owner.email, 'N3w-password');
    expect(fresh.token).toBeTruthy();
    const reused = await reset(key, 'An0ther-pass');
    expect(reused.statusCode).toBe(400);
    expect(json(reused)).toMatchObject({ message: 'This reset link is invalid or has expired' });
    await expect(loginAs(server, 'pwco', owner.email, 'An0ther-pass')).rejects.toThrow(/401/);
    owner.password = 'N3w-password';
  });

  it('answers the same success for unknown accounts and workspaces, and mails nothing', async () => {
    const before = server.mail.mails.length;
    const unknownUser = await forgot('nobody@pwco.example');
    const unknownWorkspace = await forgot(owner.email, 'ghostco');
    expect(unknownUser.statusCode).toBe(200);
    expect(json(unknownUser)).toEqual(json(await forgot('also-nobody@pwco.example')));
    expect(unknownWorkspace.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.mail.mails.length).toBe(before);
  });

  it('refuses an expired key', async () => {
    const key = await mailedKey(owner.email);
    const realNow = server.ctx.now;
    server.ctx.now = () => new Date(Date.now() + 3601 * 1000);
    try {
      expect((await reset(key, 'Expir3d-pass')).statusCode).toBe(400);
    } finally {
      server.ctx.now = realNow;
    }
  });

  it('refuses a weak password without using up the key', async () => {
    const key = await mailedKey(owner.email);
    const weak = await reset(key, 'short');
    expect(weak.statusCode).toBe(400);
    expect(json(weak)).toMatchObject({ message: 'Password not strong enough' });
    expect((await reset(key, 'Str0nger-pass')).statusCode).toBe(200);
  });
});
