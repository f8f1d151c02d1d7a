import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalDb } from './db.js';
import { failedCount, pendingCount } from './outbox.js';

export interface OutboxStatus {
  pending: number;
  failed: number;
}

const NONE: OutboxStatus = { pending: 0, failed: 0 };

/**
 * The outbox counts for the shell ("2 changes waiting", "1 change failed"); live across tabs. Answers
 * zeros until the first read and when there is no database (signed out).
 */
export function useOutboxStatus(db: LocalDb | null | undefined): OutboxStatus {
  return useLiveQuery(
    async (): Promise<OutboxStatus> => (db ? { pending: await pendingCount(db), failed: await failedCount(db) } : NONE),
    [db],
    NONE,
  );
}
