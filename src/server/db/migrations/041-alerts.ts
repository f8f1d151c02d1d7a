import { sql, type Kysely } from 'kysely';

/**
 * Alerts (issue 50; docs/decisions.md#alerts):
 * - `alerts`: one per failure of a service (or an SLO burn, a scorecard drop), open -> acknowledged -> resolved.
 *   At most one is active (not resolved) per service and source: a partial unique index, so two processes moving
 *   the same service's health cannot open two. `next_escalation_at` is when its escalation tells the next level.
 * - `alert_timeline`: every step of an alert: opened, raised, told (through which channel, to whom), answered.
 * - `alert_channels`: where alerts are told (a workspace's, or a team's own: `team_id`); `config` is JSON without
 *   secrets, `secrets` the sealed JSON of the secret fields (write-only in the API).
 * - `alert_policies`: a team's rules and escalation, or the workspace's default (`team_key` ''); JSON columns.
 * - `service_alert_channels`: channels one service adds to its team's.
 * - `alert_deliveries`: the alert channels' outbox (db/repositories/outbox.ts columns), also the delivery log.
 */
export function alertsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('alerts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('acknowledged_at', 'text')
        .addColumn('acknowledged_by', 'text')
        .addColumn('resolved_at', 'text')
        .addColumn('resolved_by', 'text')
        .addColumn('reason', 'text')
        /** The last escalation step told: its round and level (null: none yet). */
        .addColumn('escalation_round', 'integer')
        .addColumn('escalation_level', 'integer')
        .addColumn('next_escalation_at', 'text')
        .execute();
      await sql`create unique index alerts_active on alerts (service_id, source) where state <> 'resolved'`.execute(db);
      await db.schema.createIndex('alerts_by_workspace').on('alerts').columns(['workspace_id', 'opened_at']).execute();
      await db.schema.createIndex('alerts_by_service').on('alerts').columns(['service_id', 'opened_at']).execute();
      await sql`create index alerts_escalation_due on alerts (next_escalation_at) where next_escalation_at is not null`.execute(
        db,
      );

      await db.schema
        .createTable('alert_timeline')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text')
        .addColumn('target', 'text')
        .addColumn('status', 'text')
        .addColumn('message', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alert_timeline_by_alert').on('alert_timeline').columns(['alert_id', 'at']).execute();

      await db.schema
        .createTable('alert_channels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('secrets', 'text')
        .addColumn('failing', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failures_in_row', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('alert_channels_by_owner')
        .on('alert_channels')
        .columns(['workspace_id', 'team_id'])
        .execute();

      await db.schema
        .createTable('alert_policies')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        /** The team's id, or '' for the workspace's default policy. */
        .addColumn('team_key', 'text', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('escalation', 'text', (c) => c.notNull())
        .addColumn('repeat', 'integer', (c) => c.notNull())
        .addColumn('notify_when_impacted', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('alert_policies_pk', ['workspace_id', 'team_key'])
        .execute();

      await db.schema
        .createTable('service_alert_channels')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('channel_id', 'text', (c) => c.notNull().references('alert_channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('service_alert_channels_pk', ['service_id', 'channel_id'])
        .execute();

      await db.schema
        .createTable('alert_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('channel_id', 'text', (c) => c.notNull().references('alert_channels.id').onDelete('cascade'))
        .addColumn('alert_id', 'text', (c) => c.references('alerts.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        /** What the channel is told: domain/alerts.ts AlertMessage, JSON, made when it was queued. */
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        /** The vendor's HTTP status at the last attempt. */
        .addColumn('code', 'integer')
        .addColumn('attempted_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('alert_deliveries_due')
        .on('alert_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('alert_deliveries_by_channel')
        .on('alert_deliveries')
        .columns(['channel_id', 'created_at'])
        .execute();
      await db.schema.createIndex('alert_deliveries_by_alert').on('alert_deliveries').columns(['alert_id']).execute();
    },
  };
}
