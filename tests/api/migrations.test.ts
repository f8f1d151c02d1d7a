import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrateTo, migrateToLatest } from '../../src/server/db/migrate.js';
import { CREDENTIAL_REMOVED } from '../../src/server/db/migrations/039-domain-proofs-and-source-tokens.js';
import type { Database } from '../../src/server/db/schema.js';
import { openDatabase } from '../../src/server/db/connect.js';
import { freshDatabase, TEST_ENGINE } from '../support/database.js';

function open(env: Record<string, string>) {
  return env.DATABASE_URL
    ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL, schema: env.BEACON_DATABASE_SCHEMA })
    : openDatabase({ engine: 'sqlite', file: `${env.BEACON_DATA_DIR}/beacon.sqlite` });
}

describe('migrations', () => {
  it('apply once; a second run applies nothing', async () => {
    const database = await freshDatabase();
    const handle = open(database.env);
    try {
      expect(await migrateToLatest(handle)).toEqual([
        '001-accounts',
        '002-user-search',
        '003-catalogue',
        '004-health',
        '005-notices',
        '006-clients-runners',
        '007-mail-outbox',
        '008-login-failures',
        '009-team-policies',
        '010-dependencies',
        '011-feeds',
        '012-graph-version',
        '013-pages',
        '014-slack',
        '015-sso',
        '016-billing',
        '017-check-aggregates',
        '018-service-counts',
        '019-chat-threads',
        '020-feed-reads',
        '021-catalogue-version',
        '022-idempotency-keys',
        '023-check-kinds',
        '024-failing-checks-index',
        '025-status-pages',
        '026-status-subscriptions',
        '027-slos',
        '028-scorecards',
        '029-catalog-sources',
        '030-catalog-managed-settings',
        '031-api-drift',
        '032-catalogue-changes',
        '033-search-text-changes',
        '034-short-search-index',
        '035-schedulable-checks-index',
        '036-caller-changes',
        '037-client-grants',
        '038-status-subscription-limits',
        '039-domain-proofs-and-source-tokens',
        '040-scorecard-touches',
        '041-alerts',
        '042-alert-list-order',
      ]);
      expect(await migrateToLatest(handle)).toEqual([]);
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it('039 leaves named custom domains pending, and takes credentials out of source URLs and their errors', async () => {
    const database = await freshDatabase();
    const handle = open(database.env);
    try {
      await migrateTo(handle, '036-caller-changes');
      const db = handle.db as unknown as Kysely<Database>;
      const at = '2024-01-01T00:00:00.000Z';
      await db
        .insertInto('workspaces')
        .values({ id: 'w', domain: 'acme', name: 'Acme', status: 'active', created_at: at })
        .execute();
      const page = { workspace_id: 'w', title: 'T', description: '', logo_url: null, access: 'public' as const };
      const pageRow = { ...page, password_hash: null, show_upstream: 1, upstream_depth: 3, created_at: at };
      await db
        .insertInto('status_pages')
        .values([
          { ...pageRow, id: 'p1', handle: 'one', custom_domain: 'status.acme.example', updated_at: at },
          { ...pageRow, id: 'p2', handle: 'two', custom_domain: null, updated_at: at },
        ])
        .execute();
      const source = {
        workspace_id: 'w',
        mode: 'authoritative' as const,
        interval_minutes: 60,
        files: null,
        etag: '"e"',
        digest: null,
        last_sync_at: at,
        last_sync_status: 'failed' as const,
        last_sync_counts: null,
        next_sync_at: 1,
        created_at: at,
        updated_at: at,
      };
      const leaky = 'https://git.example/raw/catalog-info.yaml?ref=main&access_token=s3cret';
      await db
        .insertInto('catalog_sources')
        .values([
          { ...source, id: 's1', name: 'query', url: leaky, last_sync_error: `GET ${leaky} answered 404` },
          { ...source, id: 's2', name: 'userinfo', url: 'https://ci:s3cret@git.example/c.yaml', last_sync_error: null },
          {
            ...source,
            id: 's3',
            name: 'moved',
            url: 'https://git.example/c.yaml',
            last_sync_error: 'GET https://old.example/c.yaml?X-Amz-Signature=s3cret&b=1 answered 403',
          },
          {
            ...source,
            id: 's4',
            name: 'clean',
            url: 'https://git.example/d.yaml',
            last_sync_error: 'GET … answered 500',
          },
        ])
        .execute();

      expect(await migrateToLatest(handle)).toContain('039-domain-proofs-and-source-tokens');
      const pages = await db.selectFrom('status_pages').selectAll().orderBy('id').execute();
      expect(pages[0]).toMatchObject({ custom_domain: 'status.acme.example', custom_domain_verified_at: null });
      expect(pages[0]!.custom_domain_token).toMatch(/^[0-9a-f]{40}$/);
      expect(pages[1]).toMatchObject({ custom_domain: null, custom_domain_token: null });
      const sources = await db.selectFrom('catalog_sources').selectAll().orderBy('id').execute();
      expect(JSON.stringify(sources)).not.toContain('s3cret');
      const removed = { last_sync_status: 'failed', last_sync_error: CREDENTIAL_REMOVED, next_sync_at: null };
      expect(sources[0]).toMatchObject({ url: 'https://git.example/raw/catalog-info.yaml?ref=main', ...removed });
      expect(sources[1]).toMatchObject({ url: 'https://git.example/c.yaml', ...removed, token_sealed: null });
      expect(sources[2]).toMatchObject({
        url: 'https://git.example/c.yaml',
        last_sync_error: 'GET https://old.example/c.yaml?X-Amz-Signature=…&b=1 answered 403',
        next_sync_at: expect.anything(),
      });
      expect(sources[3]).toMatchObject({ last_sync_error: 'GET … answered 500' });
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'migrate a schema while another schema of the database has been migrated',
    async () => {
      // Kysely looks for its bookkeeping tables in every schema unless told which; this once made a second
      // install (or a parallel test run) skip creating its own and fail.
      const first = await freshDatabase('postgres');
      const second = await freshDatabase('postgres');
      const a = open(first.env);
      const b = open(second.env);
      try {
        await migrateToLatest(a);
        expect(await migrateToLatest(b)).toContain('004-health');
      } finally {
        await a.close();
        await b.close();
        await first.drop();
        await second.drop();
      }
    },
  );
});
