import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { DatabaseHandle, Engine } from './connect.js';
import { accountsMigration } from './migrations/001-accounts.js';
import { userSearchMigration } from './migrations/002-user-search.js';
import { catalogueMigration } from './migrations/003-catalogue.js';
import { healthMigration } from './migrations/004-health.js';
import { noticesMigration } from './migrations/005-notices.js';
import { clientsRunnersMigration } from './migrations/006-clients-runners.js';
import { mailOutboxMigration } from './migrations/007-mail-outbox.js';
import { loginFailuresMigration } from './migrations/008-login-failures.js';
import { teamPoliciesMigration } from './migrations/009-team-policies.js';
import { dependenciesMigration } from './migrations/010-dependencies.js';
import { feedsMigration } from './migrations/011-feeds.js';
import { graphVersionMigration } from './migrations/012-graph-version.js';
import { pagesMigration } from './migrations/013-pages.js';
import { slackMigration } from './migrations/014-slack.js';
import { ssoMigration } from './migrations/015-sso.js';
import { billingMigration } from './migrations/016-billing.js';
import { checkAggregatesMigration } from './migrations/017-check-aggregates.js';
import { serviceCountsMigration } from './migrations/018-service-counts.js';
import { chatThreadsMigration } from './migrations/019-chat-threads.js';
import { feedReadsMigration } from './migrations/020-feed-reads.js';
import { catalogueVersionMigration } from './migrations/021-catalogue-version.js';
import { idempotencyKeysMigration } from './migrations/022-idempotency-keys.js';
import { checkKindsMigration } from './migrations/023-check-kinds.js';
import { failingChecksIndexMigration } from './migrations/024-failing-checks-index.js';
import { statusPagesMigration } from './migrations/025-status-pages.js';
import { statusSubscriptionsMigration } from './migrations/026-status-subscriptions.js';
import { slosMigration } from './migrations/027-slos.js';
import { scorecardsMigration } from './migrations/028-scorecards.js';
import { catalogSourcesMigration } from './migrations/029-catalog-sources.js';
import { catalogManagedSettingsMigration } from './migrations/030-catalog-managed-settings.js';
import { apiDriftMigration } from './migrations/031-api-drift.js';
import { catalogueChangesMigration } from './migrations/032-catalogue-changes.js';
import { searchTextChangesMigration } from './migrations/033-search-text-changes.js';
import { shortSearchIndexMigration } from './migrations/034-short-search-index.js';
import { schedulableChecksIndexMigration } from './migrations/035-schedulable-checks-index.js';
import { callerChangesMigration } from './migrations/036-caller-changes.js';
import { clientGrantsMigration } from './migrations/037-client-grants.js';
import { statusSubscriptionLimitsMigration } from './migrations/038-status-subscription-limits.js';
import { domainProofsAndSourceTokensMigration } from './migrations/039-domain-proofs-and-source-tokens.js';
import { scorecardTouchesMigration } from './migrations/040-scorecard-touches.js';
import { alertsMigration } from './migrations/041-alerts.js';
import { alertListOrderMigration } from './migrations/042-alert-list-order.js';

/** One ordered list of migrations; each is written once and runs on both engines. */
function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '001-accounts': accountsMigration(engine),
    '002-user-search': userSearchMigration(engine),
    '003-catalogue': catalogueMigration(engine),
    '004-health': healthMigration(),
    '005-notices': noticesMigration(),
    '006-clients-runners': clientsRunnersMigration(),
    '007-mail-outbox': mailOutboxMigration(),
    '008-login-failures': loginFailuresMigration(),
    '009-team-policies': teamPoliciesMigration(),
    '010-dependencies': dependenciesMigration(),
    '011-feeds': feedsMigration(),
    '012-graph-version': graphVersionMigration(engine),
    '013-pages': pagesMigration(),
    '014-slack': slackMigration(),
    '015-sso': ssoMigration(),
    '016-billing': billingMigration(),
    '017-check-aggregates': checkAggregatesMigration(),
    '018-service-counts': serviceCountsMigration(engine),
    '019-chat-threads': chatThreadsMigration(),
    '020-feed-reads': feedReadsMigration(engine),
    '021-catalogue-version': catalogueVersionMigration(engine),
    '022-idempotency-keys': idempotencyKeysMigration(),
    '023-check-kinds': checkKindsMigration(),
    '024-failing-checks-index': failingChecksIndexMigration(),
    '025-status-pages': statusPagesMigration(engine),
    '026-status-subscriptions': statusSubscriptionsMigration(),
    '027-slos': slosMigration(),
    '028-scorecards': scorecardsMigration(engine),
    '029-catalog-sources': catalogSourcesMigration(engine),
    '030-catalog-managed-settings': catalogManagedSettingsMigration(),
    '031-api-drift': apiDriftMigration(),
    '032-catalogue-changes': catalogueChangesMigration(engine),
    '033-search-text-changes': searchTextChangesMigration(engine),
    '034-short-search-index': shortSearchIndexMigration(engine),
    '035-schedulable-checks-index': schedulableChecksIndexMigration(),
    '036-caller-changes': callerChangesMigration(engine),
    '037-client-grants': clientGrantsMigration(),
    '038-status-subscription-limits': statusSubscriptionLimitsMigration(),
    '039-domain-proofs-and-source-tokens': domainProofsAndSourceTokensMigration(),
    '040-scorecard-touches': scorecardTouchesMigration(engine),
    '041-alerts': alertsMigration(),
    '042-alert-list-order': alertListOrderMigration(),
  };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrationsFor(this.engine));
  }
}

function migratorOf(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    provider: new StaticProvider(handle.engine),
    // Named, because without it Kysely looks for its bookkeeping tables in every schema of the database and
    // skips creating its own when another schema (another app, a parallel test run) has them.
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
}

function applied(outcome: MigrationResultSet): string[] {
  const { error, results } = outcome;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Kysely finds its bookkeeping tables by listing the tables and columns of every schema it may use; a schema
 * another connection drops or migrates meanwhile (another install, a parallel test run) makes that listing fail
 * with "schema … does not exist" (3F000), or "column … of relation … does not exist" (42703) and "relation …
 * does not exist" (42P01) for a table being changed there, though ours is whole. Migrating is idempotent under
 * Kysely's lock, so it is tried again.
 */
const OTHER_SCHEMA_RACES = new Set(['3F000', '42703', '42P01']);

async function withoutDroppedSchemaRace(handle: DatabaseHandle, run: () => Promise<MigrationResultSet>) {
  for (let attempt = 1; ; attempt++) {
    const outcome = await run();
    const code = (outcome.error as { code?: unknown } | undefined)?.code;
    const race = typeof code === 'string' && OTHER_SCHEMA_RACES.has(code);
    if (handle.engine !== 'postgres' || !race || attempt === 3) return applied(outcome);
  }
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  return withoutDroppedSchemaRace(handle, () => migratorOf(handle).migrateToLatest());
}

/** Applies the pending migrations up to `name`, included (tests of a migration on rows made before it). */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<string[]> {
  return withoutDroppedSchemaRace(handle, () => migratorOf(handle).migrateTo(name));
}
