/**
 * The signed-in half of the local-first layer, loaded as a chunk of its own: the user's Dexie database, the query
 * persister, the outbox and its sync. Dexie alone is as heavy as the rest of the login screen's code, and no
 * screen without a user needs it, so the sign-in screens never download it (LocalProvider loads it, and the
 * session waits for it before it shows a user).
 */
import type { QueryClient } from '@tanstack/react-query';
import { liveQuery } from 'dexie';
import type { LocalDb } from '../../local/db.js';
import type { ApiClient } from '../api/client.js';
import { getStarredQueryOptions } from '../api/shared-queries.js';
import type { PendingWrites } from './writes.js';

export { openLocalDb } from '../../local/db.js';
export { mutate, startOutboxSync } from '../../local/outbox.js';
export { createDexieQueryPersister } from '../../local/query-persister.js';

/** Keeps `pending` in step with the outbox of `db` (across tabs too); returns the stop. */
export function followOutbox(db: LocalDb, pending: PendingWrites, queryClient: QueryClient): () => void {
  let first = true;
  const subscription = liveQuery(() => db.outbox.toArray()).subscribe({
    next: (entries) => {
      pending.update(queryClient, entries, !first);
      first = false;
    },
    // A failing IndexedDB leaves the optimistic state as it is.
    error: () => undefined,
  });
  return () => subscription.unsubscribe();
}

/** Spec section 4: a sign-in is followed by a fetch of the user's starred services, into the cache screens read. */
export function prefetchStarred(queryClient: QueryClient, api: ApiClient, handle: string): void {
  void queryClient.prefetchQuery(getStarredQueryOptions(api, handle));
}
