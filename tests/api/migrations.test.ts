import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/server/db/migrate.js';
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
        '040-scorecard-touches',
      ]);
      expect(await migrateToLatest(handle)).toEqual([]);
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
