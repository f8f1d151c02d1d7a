import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.js';
import type { Db } from './workspaces.js';

export interface LoginFailure {
  workspace_id: string;
  account: string;
  address: string;
  at: string;
}

/** Records a failed login and prunes failures older than `expired`: nothing else deletes them. */
export async function recordLoginFailure(db: Db, failure: LoginFailure, expired: string): Promise<void> {
  await db.insertInto('login_failures').values(failure).execute();
  await db.deleteFrom('login_failures').where('at', '<=', expired).execute();
}

export interface FailureCount {
  count: number;
  /** The oldest failure counted, for Retry-After. */
  oldest: string | null;
}

/** Failures since `since` for one account of a workspace, and for one address across every workspace. */
export async function loginFailuresSince(
  db: Db,
  key: { workspaceId: string; account: string; address: string },
  since: string,
): Promise<{ account: FailureCount; address: FailureCount }> {
  const count = async (where: (query: Recent) => Recent): Promise<FailureCount> => {
    const row = await where(db.selectFrom('login_failures').where('at', '>', since))
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('at').as('oldest')])
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: row.oldest as string | null };
  };
  return {
    account: await count((q) => q.where('workspace_id', '=', key.workspaceId).where('account', '=', key.account)),
    address: await count((q) => q.where('address', '=', key.address)),
  };
}

type Recent = SelectQueryBuilder<Database, 'login_failures', object>;
