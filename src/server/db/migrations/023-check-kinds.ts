import type { Kysely } from 'kysely';

/**
 * Check kinds and assertions (docs/decisions.md#checks, issue 26). A check gains its kind and what the kind needs (the
 * request an http check sends, STARTTLS, a DNS record type; a heartbeat's grace, cron schedule, time zone and
 * secret ping token), its assertions (JSON, typed form; null: the kind's defaults), retries and recover_after,
 * the severity it fails with, and a heartbeat's last ping. A result keeps why: the error class, each
 * assertion's expected and actual value, the certificate seen and the severity.
 */
export function checkKindsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const columns: [string, 'text' | 'integer' | 'bigint', string?][] = [
        ['kind', 'text', "'http'"],
        ['request', 'text'],
        ['starttls', 'text'],
        ['record', 'text'],
        ['assertions', 'text'],
        ['retries', 'integer', '0'],
        ['recover_after', 'integer', '1'],
        ['grace', 'integer'],
        ['schedule', 'text'],
        ['time_zone', 'text'],
        // The ping token: its SHA-256 to find the check by, and the token sealed (crypto/secret-box.ts) to
        // show the URL to editors again; a copy of the database alone cannot ping.
        ['ping_token_hash', 'text'],
        ['ping_token_sealed', 'text'],
        ['last_ping_at', 'bigint'],
        // 'success' | 'fail' (a `start` ping changes nothing)
        ['last_ping_kind', 'text'],
        ['last_ping_exit_code', 'integer'],
        // The severity the check fails with now (the worst failing assertion's), null while not failing.
        ['failing_severity', 'text'],
        // Consecutive successes since the check last failed, for recover_after.
        ['recovering', 'integer', '0'],
      ];
      for (const [name, type, fallback] of columns) {
        await db.schema
          .alterTable('health_checks')
          .addColumn(name, type, (c) => (fallback === undefined ? c : c.notNull().defaultTo(sqlDefault(fallback))))
          .execute();
      }
      await db.schema
        .createIndex('health_checks_ping_token')
        .on('health_checks')
        .column('ping_token_hash')
        .unique()
        .execute();
      for (const [name, type] of [
        ['error_class', 'text'],
        ['assertions', 'text'],
        ['cert', 'text'],
        ['severity', 'text'],
      ] as const) {
        await db.schema.alterTable('health_check_results').addColumn(name, type).execute();
      }
    },
  };
}

/** A column default as Kysely takes it: numbers as numbers, quoted strings as strings. */
function sqlDefault(text: string): string | number {
  return text.startsWith("'") ? text.slice(1, -1) : Number(text);
}
