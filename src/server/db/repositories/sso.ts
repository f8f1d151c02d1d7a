import type { SsoProviderRow } from '../schema.js';
import type { Db } from './workspaces.js';

/** SAML single sign-on (services/accounts/sso.ts): a workspace's identity providers, and node-saml's requests. */

export function findSsoProvider(db: Db, workspaceId: string, handle: string): Promise<SsoProviderRow | undefined> {
  return db
    .selectFrom('sso_providers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

export function listSsoProviders(db: Db, workspaceId: string): Promise<SsoProviderRow[]> {
  return db.selectFrom('sso_providers').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
}

/** The workspace's default provider, when single sign-on is on for it. */
export function findDefaultSsoProvider(db: Db, workspaceId: string): Promise<SsoProviderRow | undefined> {
  return db
    .selectFrom('sso_providers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', 1)
    .where('sso_enabled', '=', 1)
    .executeTakeFirst();
}

export async function insertSsoProvider(db: Db, row: SsoProviderRow): Promise<void> {
  await db.insertInto('sso_providers').values(row).execute();
}

export async function updateSsoProvider(db: Db, id: string, change: Partial<SsoProviderRow>): Promise<void> {
  await db.updateTable('sso_providers').set(change).where('id', '=', id).execute();
}

export async function deleteSsoProvider(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sso_providers').where('id', '=', id).execute();
}

/** Takes the default from the workspace's other providers. */
export async function clearOtherDefaults(db: Db, workspaceId: string, exceptId: string): Promise<void> {
  await db
    .updateTable('sso_providers')
    .set({ is_default: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('id', '<>', exceptId)
    .execute();
}

/** Keeps a SAML request; an id seen before is refused by the primary key. */
export async function insertSamlRequest(
  db: Db,
  row: { id: string; workspace_id: string; value: string; created_at: string },
): Promise<void> {
  await db.insertInto('saml_requests').values(row).execute();
}

export async function deleteSamlRequestsBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('created_at', '<', before).execute();
}

/** A kept request's value, unless it is older than `since`. */
export async function findSamlRequest(db: Db, id: string, since: string): Promise<string | null> {
  const row = await db
    .selectFrom('saml_requests')
    .select('value')
    .where('id', '=', id)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** Deletes a kept request; true when it was there. */
export async function deleteSamlRequest(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('saml_requests').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
