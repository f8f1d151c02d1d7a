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
