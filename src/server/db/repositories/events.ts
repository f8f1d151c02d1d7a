import { randomUUID } from 'node:crypto';
import type { EventsTable } from '../schema.js';
import type { Db } from './workspaces.js';

export interface NewEvent {
  workspace_id: string;
  profile_type: EventsTable['profile_type'];
  profile_id: string;
  type: string;
  actor_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

/** Appends an event, in the caller's transaction when given one. */
export async function recordEvent(db: Db, event: NewEvent): Promise<void> {
  await db
    .insertInto('events')
    .values({ ...event, id: randomUUID(), data: JSON.stringify(event.data) })
    .execute();
}

/** The newest events of a profile, newest first (the feeds build on this). */
export async function listProfileEvents(
  db: Db,
  workspaceId: string,
  profileId: string,
  limit: number,
): Promise<Array<Omit<NewEvent, 'data'> & { id: string; data: Record<string, unknown> }>> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
}
