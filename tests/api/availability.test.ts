/**
 * Liveness and readiness, a locked SQLite file, and SIGTERM draining (issue 10). The PostgreSQL outage under
 * load is db-outage.test.ts.
 */
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import BetterSqlite from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/schema.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../support/database.js';
import { beacon, freePort } from '../support/processes.js';
import {
  authHeaders,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';

/** A database that never answers: every query waits for a connection forever. */
function unanswering(): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: () => new Promise<never>(() => {}),
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

describe('liveness and readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('GET /api/livez answers while the process is up; /api/healthz 503 while the database does not answer', async () => {
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    expect(json(await get('/api/livez'))).toEqual({ status: 'ok' });
    expect(json(await get('/api/healthz'))).toEqual({ status: 'ok' });

    const real = server.ctx.database;
    server.ctx.database = { ...real, db: unanswering() };
    try {
      const started = Date.now();
      const healthz = await get('/api/healthz');
      // Bounded: readiness gives up on the database after 2 s.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(healthz.statusCode).toBe(503);
      expect(healthz.headers['retry-after']).toBe('5');
      expect(json(healthz)).toEqual({ message: expect.stringMatching(/database/) });
      expect((await get('/api/livez')).statusCode).toBe(200);
    } finally {
      server.ctx.database = real;
    }
    expect((await get('/api/healthz')).statusCode).toBe(200);
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('a SQLite file locked by another process', () => {
  let server: TestServer;
  let owner: Member;
  beforeAll(async () => {
    server = await startTestServer({ BEACON_DB_BUSY_TIMEOUT_MS: '200' });
    owner = await registerWorkspace(server, 'locked');
  });
  afterAll(() => server.close());

  it('answers writes 503 with Retry-After after the busy timeout, reads meanwhile, and writes once released', async () => {
    const createTeam = (handle: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/teams',
        headers: authHeaders(owner),
        payload: { name: `Team ${handle}`, handle },
      });
    const other = new BetterSqlite(join(server.database.dataDir, 'beacon.sqlite'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const refused = await createTeam('first');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(json(refused)).toEqual({ message: expect.stringMatching(/database/) });
      expect(refused.body).not.toMatch(/SQLITE|sqlite/);
      const read = await server.app.inject({ method: 'GET', url: '/api/workspace', headers: authHeaders(owner) });
      expect(read.statusCode).toBe(200);
      other.exec('ROLLBACK');
      expect((await createTeam('first')).statusCode).toBe(201);
    } finally {
      other.close();
    }
  });
});

/** One HTTP/1.1 connection read by hand, to see what a kept-alive socket gets. */
class RawConnection {
  private buffer = '';
  private wake: () => void = () => {};
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Sends a GET on this connection and reads its answer. */
  async get(path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine = '', ...lines] = this.buffer.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.slice(end + 4, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) throw new Error(`connection closed before an answer (read: ${JSON.stringify(this.buffer)})`);
      await this.next();
    }
  }

  async closedByServer(): Promise<void> {
    while (!this.closed) await this.next();
  }
}

describe('SIGTERM', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it('answers requests on kept-alive connections with 503 and Connection: close, then exits', async () => {
    const port = await freePort();
    const serve = beacon(['serve'], {
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      BEACON_SHARED_RUNNER: '0',
      BEACON_DRAIN_MS: '5000',
    });
    try {
      // Printed once started, signal handlers in place (the database is empty).
      await serve.waitFor(/register\?beta_code=/);
      const first = await RawConnection.open(port);
      const second = await RawConnection.open(port);
      for (const connection of [first, second]) {
        const answer = await connection.get('/api/livez');
        expect(answer.status).toBe(200);
        expect(answer.headers.connection).toBe('keep-alive');
      }

      serve.child.kill('SIGTERM');
      await serve.waitFor(/shutting down/);
      // Both connections are idle and open: whatever arrives on them now is answered, not reset.
      for (const connection of [first, second]) {
        const answer = await connection.get('/api/healthz');
        expect(answer.status).toBe(503);
        expect(answer.headers.connection).toBe('close');
        expect(answer.headers['retry-after']).toBe('5');
        expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/shutting down/) });
        await connection.closedByServer();
      }
      // The connections gone, the process does not wait out the drain time.
      expect(await serve.exited).toBe(0);
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    }
  }, 60_000);
});
