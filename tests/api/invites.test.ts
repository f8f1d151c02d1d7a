import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  hostOf,
  inviteAndJoin,
  json,
  registerWorkspace,
  startTestServer,
  STRONG_PASSWORD,
  type Member,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let owner: Member;
let member: Member;

beforeAll(async () => {
  server = await startTestServer();
  owner = await registerWorkspace(server, 'invco');
  member = await inviteAndJoin(server, owner, 'mona');
});
afterAll(() => server.close());

const invite = (actor: Member, email: string) =>
  server.app.inject({ method: 'POST', url: '/api/invites', headers: authHeaders(actor), payload: { email } });

function inviteLink(text: string): { id: string; code: string } {
  const url = new URL(text.match(/http\S+\/invite\/\S+/)![0]);
  expect(url.origin).toBe('http://invco.localhost:8080');
  return { id: url.pathname.split('/').pop()!, code: url.searchParams.get('code')! };
}

const join = (link: { id: string; code: string }, handle: string, password = STRONG_PASSWORD) =>
  server.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { host: hostOf('invco') },
    payload: { workspace: 'invco', invite: link, user: { name: `Name ${handle}`, handle, password } },
  });

describe('invitations', () => {
  it('an invited user joins through the mailed link as a member, once', async () => {
    const response = await invite(owner, 'Nina@Example.com');
    expect(response.statusCode).toBe(201);
    expect(json(response)).toMatchObject({ email: 'nina@example.com', last_sent: expect.any(String) });
    const mail = await server.mail.waitFor('nina@example.com');
    expect(mail.subject).toContain('invited you');
    const link = inviteLink(mail.text);
    const joined = await join(link, 'nina');
    expect(joined.statusCode).toBe(201);
    expect(json(joined)).toMatchObject({
      handle: 'nina',
      email: 'nina@example.com',
      role: 'member',
      super_admin: false,
    });
    const again = await join(link, 'nina-two');
    expect(again.statusCode).toBe(400);
  });

  it('refuses a wrong code, a weak password, an invalid handle and a taken handle', async () => {
    await invite(owner, 'omar@example.com');
    const link = inviteLink((await server.mail.waitFor('omar@example.com')).text);
    expect((await join({ ...link, code: 'wrong' }, 'omar')).statusCode).toBe(400);
    const weak = await join(link, 'omar', 'weak');
    expect(json(weak)).toMatchObject({ errors: { password: ['Password not strong enough'] } });
    const badHandle = await join(link, 'Omar!');
    expect(json(badHandle)).toMatchObject({ errors: { handle: ['The handle is not valid'] } });
    const taken = await join(link, 'mona');
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({ errors: { handle: ['Handle is already taken'] } });
    expect((await join(link, 'omar')).statusCode).toBe(201);
  });

  it('refuses to invite a member or an invited email with 409 and an email error', async () => {
    const memberAgain = await invite(owner, member.email);
    expect(memberAgain.statusCode).toBe(409);
    expect(json<{ errors: { email: string[] } }>(memberAgain).errors.email[0]).toContain('already a member');
    await invite(owner, 'pending@example.com');
    const duplicate = await invite(owner, 'pending@example.com');
    expect(duplicate.statusCode).toBe(409);
    expect(json<{ errors: { email: string[] } }>(duplicate).errors.email[0]).toContain('already been invited');
  });

  it('lets only owners and admins invite, list and resend', async () => {
    expect((await invite(member, 'x@example.com')).statusCode).toBe(403);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/invites', headers: authHeaders(member) })).statusCode,
    ).toBe(403);
  });

  it('lists pending invites paged, with the total header and a search', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await invite(owner, `${name}@example.com`);
    const firstPage = await server.app.inject({
      method: 'GET',
      url: '/api/invites?q=page-&limit=2&cursor=0',
      headers: authHeaders(owner),
    });
    expect(firstPage.statusCode).toBe(200);
    expect(firstPage.headers.total).toBe('3');
    expect(json<unknown[]>(firstPage)).toHaveLength(2);
    const secondPage = await server.app.inject({
      method: 'GET',
      url: '/api/invites?q=page-&limit=2&cursor=2',
      headers: authHeaders(owner),
    });
    expect(json<unknown[]>(secondPage)).toHaveLength(1);
    const all = json<Array<{ email: string }>>(
      await server.app.inject({ method: 'GET', url: '/api/invites?limit=100', headers: authHeaders(owner) }),
    );
    expect(all.map((i) => i.email)).not.toContain('nina@example.com');
  });

  it('resends an invite with a fresh link; the old link stops working', async () => {
    const created = json<{ id: string; last_sent: string }>(await invite(owner, 'resend@example.com'));
    const oldLink = inviteLink((await server.mail.waitFor('resend@example.com')).text);
    const count = server.mail.mails.length;
    const resent = await server.app.inject({
      method: 'POST',
      url: `/api/invites/${created.id}/actions/resend`,
      headers: authHeaders(owner),
    });
    expect(resent.statusCode).toBe(200);
    expect(json(resent)).toMatchObject({ id: created.id, email: 'resend@example.com' });
    const newMail = await server.mail.waitFor('resend@example.com', (m) => server.mail.mails.indexOf(m) >= count);
    const newLink = inviteLink(newMail.text);
    expect(newLink.code).not.toBe(oldLink.code);
    expect((await join(oldLink, 'resender')).statusCode).toBe(400);
    expect((await join(newLink, 'resender')).statusCode).toBe(201);
    const gone = await server.app.inject({
      method: 'POST',
      url: `/api/invites/${created.id}/actions/resend`,
      headers: authHeaders(owner),
    });
    expect(gone.statusCode).toBe(404);
  });
});
