import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { WORKSPACE_WIDE_SCOPES } from '../../../domain/scopes.js';

/** Why the migration disabled a client: its workspace-wide scope was granted by someone we cannot name. */
export const UNGRANTED_REASON =
  'it held a workspace-wide scope that no workspace admin or owner is recorded as granting';

/**
 * Who granted a client its workspace-wide scopes (docs/api.md, "API clients"): `granted_by` is the workspace admin
 * or owner who did, and `disabled_reason` says why a client may not have tokens. Clients holding such a scope
 * before this migration were made by anyone who could administer a team, and who made them was not recorded: all
 * are disabled (a new secret version revokes their live tokens), with an event on their team naming each, so that an
 * admin can grant the scope again.
 */
/** The columns this migration reads and writes, as they are at this migration (not as the schema may grow). */
interface Tables {
  clients: {
    id: string;
    workspace_id: string;
    team_id: string;
    handle: string;
    name: string;
    scopes: string;
    secret_version: number;
    granted_by: string | null;
    disabled_reason: string | null;
    updated_at: string;
  };
  events: {
    id: string;
    workspace_id: string;
    profile_type: string;
    profile_id: string;
    type: string;
    actor_id: string | null;
    agent_name: string;
    data: string;
    created_at: string;
  };
}

export function clientGrantsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('clients').addColumn('granted_by', 'text').execute();
      await db.schema.alterTable('clients').addColumn('disabled_reason', 'text').execute();
      await disableUngrantedClients(db, new Date().toISOString());
    },
  };
}

/** Disables every client holding a workspace-wide scope that nobody is recorded as granting; exported for its test. */
export async function disableUngrantedClients(untyped: Kysely<unknown>, now: string): Promise<void> {
  const db = untyped as unknown as Kysely<Tables>;
  const clients = await db
    .selectFrom('clients')
    .select(['id', 'workspace_id', 'team_id', 'handle', 'name', 'scopes', 'secret_version'])
    .where('granted_by', 'is', null)
    .where('disabled_reason', 'is', null)
    .execute();
  for (const client of clients) {
    const held = WORKSPACE_WIDE_SCOPES.filter((scope) => (JSON.parse(client.scopes) as string[]).includes(scope));
    if (held.length === 0) continue;
    await db
      .updateTable('clients')
      .set({ disabled_reason: UNGRANTED_REASON, secret_version: client.secret_version + 1, updated_at: now })
      .where('id', '=', client.id)
      .execute();
    await db
      .insertInto('events')
      .values({
        id: randomUUID(),
        workspace_id: client.workspace_id,
        profile_type: 'team',
        profile_id: client.team_id,
        type: 'client.disabled',
        actor_id: null,
        agent_name: 'Beacon',
        data: JSON.stringify({ client: client.handle, name: client.name, scopes: held }),
        created_at: now,
      })
      .execute();
  }
}
