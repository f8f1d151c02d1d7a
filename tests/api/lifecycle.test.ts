import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/main.js';
import { createBetaKey } from '../../src/server/services/accounts/registration.js';
import { freshDatabase, type TestDatabase } from '../support/database.js';
import { multipart, tinyPng } from '../support/images.js';
import { beacon, freePort } from '../support/processes.js';
import { STRONG_PASSWORD } from '../support/server.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json<T>(): T;
}

/** A request with an explicit Host header (fetch may not set one), to a server on loopback. */
function api(
  base: string,
  host: string,
  path: string,
  init: { method?: string; body?: object; token?: string; cookie?: string } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  const body = init.body ? JSON.stringify(init.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? 'GET',
        path: url.pathname + url.search,
        headers: {
          host,
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: <T>() => JSON.parse(text) as T }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('graceful shutdown', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('finishes a request in flight, refuses new connections, then closes the database', async () => {
    const config = loadConfig({ ...database.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    const server = await startServer(config);
    const port = new URL(server.url).port;
    const base = `http://127.0.0.1:${port}`;
    const host = `life.localhost:${port}`;
    const key = await createBetaKey(server.ctx, 'life@example.com');
    const registered = await api(base, 'localhost', '/api/registration/register-workspace', {
      method: 'POST',
      body: {
        beta_key: key,
        owner: { email: 'life@example.com', name: 'Life', handle: 'life', password: STRONG_PASSWORD },
        workspace: { name: 'Life', domain: 'life' },
      },
    });
    expect(registered.status).toBe(201);
    const session = await api(base, host, '/api/session', {
      method: 'POST',
      body: { workspace: 'life', login: 'life@example.com', password: STRONG_PASSWORD },
    });
    const cookie = (session.headers['set-cookie'] as string[])[0]!.split(';')[0]!;
    const token = (
      await api(base, host, '/api/token', {
        method: 'POST',
        body: { grant_type: 'session', workspace: 'life' },
        cookie,
      })
    ).json<{ access_token: string }>().access_token;

    // An upload whose body arrives in two halves, with the shutdown starting in between.
    const upload = multipart('icon', 'a.png', 'image/png', tinyPng());
    const half = Math.floor(upload.payload.length / 2);
    const finished = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/users/life/icon',
          headers: {
            host,
            authorization: `Bearer ${token}`,
            ...upload.headers,
            'content-length': upload.payload.length,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(upload.payload.subarray(0, half));
      setTimeout(() => {
        shutdown = server.shutdown();
        setTimeout(() => req.end(upload.payload.subarray(half)), 300);
      }, 200);
    });
    let shutdown: Promise<void> | undefined;
    const result = await finished;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({
      handle: 'life',
      thumbnail_url: expect.stringMatching(/^\/api\/assets\//),
    });
    await shutdown;
    await expect(api(base, 'localhost', '/api/healthz')).rejects.toThrow();
    await expect(server.ctx.database.db.selectFrom('users').selectAll().execute()).rejects.toThrow();
  });
});

describe('the beacon command', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('migrate, serve (with the bootstrap link), beta-key create, demo, and SIGTERM', async () => {
    const migrate = beacon(['migrate'], database.env);
    expect(await migrate.exited).toBe(0);
    expect(migrate.output()).toContain('applied: 001-accounts');

    const port = await freePort();
    const env = { ...database.env, PORT: String(port), HOST: '127.0.0.1' };
    const first = beacon(['serve'], env);
    const [, code] = await first.waitFor(/register\?beta_code=([A-Z0-9]{6})/);
    const base = `http://127.0.0.1:${port}`;
    expect((await api(base, 'localhost', '/api/healthz')).status).toBe(200);
    expect(
      (
        await api(base, 'localhost', '/api/register', {
          method: 'POST',
          body: { beta_key: code, email: 'first@example.com' },
        })
      ).status,
    ).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const created = beacon(['beta-key', 'create', '--email', 'Next@Example.com'], database.env);
    expect(await created.exited).toBe(0);
    const lastLine = created.output().trim().split('\n').pop()!;
    expect(lastLine).toMatch(/^[A-Z2-9]{6}$/);

    const demo = beacon(['demo'], env);
    expect(await demo.exited).toBe(0);
    const email = demo.output().match(/email:\s+(\S+)/)![1]!;
    const password = demo.output().match(/password:\s+(\S+)/)![1]!;
    expect(demo.output()).toContain(`http://demo.localhost:${port}/login`);

    const second = beacon(['serve'], env);
    for (let i = 0; i < 200; i++) {
      if (
        await api(base, 'localhost', '/api/healthz').then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const host = `demo.localhost:${port}`;
    expect(
      (
        await api(base, host, '/api/register', {
          method: 'POST',
          body: { beta_key: lastLine, email: 'next@example.com' },
        })
      ).status,
    ).toBe(200);
    const login = await api(base, host, '/api/session', {
      method: 'POST',
      body: { workspace: 'demo', login: email, password },
    });
    expect(login.status).toBe(200);
    expect(second.output()).not.toContain('beta_code=');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60000);
});
