import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailStatus } from '../../src/server/db/repositories/mail-outbox.js';
import { linkIn } from '../support/mail-catcher.js';
import { freePort } from '../support/processes.js';
import {
  atTime,
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
  const link = linkIn(mail, /http\S+\/reset-password\?key=\S+/);
  expect(link.origin).toBe('http://pwco.localhost:8080');
  return link.searchParams.get('key')!;
}

/** Waits until the job has handled every queued mail (sent, dropped or given up). */
async function outboxSettled(on: TestServer) {
  await vi.waitFor(
    async () => expect((await mailStatus(on.ctx.database.db, new Date().toISOString())).pending).toBe(0),
    { timeout: 5000, interval: 20 },
  );
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
    await outboxSettled(server);
    expect(server.mail.mails.length).toBe(before);
  });

  it('refuses an expired key', async () => {
    const key = await mailedKey(owner.email);
    expect((await atTime(server, Date.now() + 3601 * 1000, () => reset(key, 'Expir3d-pass'))).statusCode).toBe(400);
  });

  it('refuses a weak password without using up the key', async () => {
    const key = await mailedKey(owner.email);
    const weak = await reset(key, 'short');
    expect(weak.statusCode).toBe(400);
    expect(json(weak)).toMatchObject({ message: 'Password not strong enough' });
    expect((await reset(key, 'Str0nger-pass')).statusCode).toBe(200);
  });

  it('a successful reset uses up every older and newer reset link of the user', async () => {
    const first = await mailedKey(owner.email);
    const second = await mailedKey(owner.email);
    const third = await mailedKey(owner.email);
    expect((await reset(second, 'Sec0nd-pass')).statusCode).toBe(200);
    for (const key of [first, second, third]) {
      const refused = await reset(key, 'Th1rd-pass');
      expect(refused.statusCode).toBe(400);
      expect(json(refused)).toMatchObject({ message: 'This reset link is invalid or has expired' });
    }
    await expect(loginAs(server, 'pwco', owner.email, 'Th1rd-pass')).rejects.toThrow(/401/);
    owner.password = 'Sec0nd-pass';
    // A link asked for after the reset works.
    expect((await reset(await mailedKey(owner.email), 'F0urth-pass')).statusCode).toBe(200);
    owner.password = 'F0urth-pass';
  });
});

describe('forgot password with SMTP down', () => {
  let down: TestServer;
  let account: Member;

  beforeAll(async () => {
    // Nothing listens on this port: every send is refused. The rate limit would cut the 100 timed requests.
    const closedPort = await freePort();
    down = await startTestServer({
      BEACON_SMTP_URL: `smtp://127.0.0.1:${closedPort}?ignoreTLS=true`,
      BEACON_AUTH_RATE_LIMIT: '100000',
    });
    account = await registerWorkspace(down, 'downco');
  });
  afterAll(() => down.close());

  const ask = (email: string) =>
    down.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      headers: { host: hostOf('downco') },
      payload: { workspace: 'downco', email },
    });

  it('answers the same status and body with or without an account, and as with SMTP up', async () => {
    const existing = await ask(account.email);
    const missing = await ask('nobody@downco.example');
    const up = await forgot(owner.email);
    for (const answer of [existing, missing]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(up.body);
      expect(answer.headers['content-type']).toBe(up.headers['content-type']);
    }
  });

  it('takes the same time with or without an account: medians of 50 each within 1 ms', async () => {
    // Each request is timed on its own, as its sender sees it: the job's work for the previous request (a
    // send tried only for an account) is let finish first rather than counted into the next answer.
    const time = async (email: string) => {
      await down.mailOutbox.idle();
      const start = process.hrtime.bigint();
      const answer = await ask(email);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      expect(answer.statusCode).toBe(200);
      return ms;
    };
    for (let i = 0; i < 10; i++) await time(i % 2 ? account.email : `warm-${i}@downco.example`);
    const withAccount: number[] = [];
    const without: number[] = [];
    // Interleaved, so a slow moment of a shared machine hits both sides alike.
    for (let i = 0; i < 50; i++) {
      withAccount.push(await time(account.email));
      without.push(await time(`nobody-${i}@downco.example`));
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[24]! + sorted[25]!) / 2;
    };
    const [a, b] = [median(withAccount), median(without)];
    console.log(`forgot-password medians, SMTP down: with account ${a.toFixed(3)} ms, without ${b.toFixed(3)} ms`);
    expect(Math.abs(a - b)).toBeLessThan(1);
  });
});
