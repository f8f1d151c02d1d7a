import { useOnline } from './use-online.js';
import { MessageCard } from './status-screens.js';
import { fromNow } from './from-now.js';

/** Shown for a screen never seen on this device while the network is cut (docs/decisions.md#offline). */
export const NOT_AVAILABLE_OFFLINE = 'Not available offline';

/** A fetch that got no answer (offline, DNS, connection refused): `fetch` rejects with a TypeError. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}

interface ReadState {
  data: unknown;
  error: unknown;
  isPending: boolean;
}

/**
 * What a screen shows for its main read. What is held wins: data last seen (from Dexie when offline) is shown even
 * when the latest fetch failed. Without data, only an answer from the server marks the thing missing (a 404, or
 * any refusal: spec "a failed load marks it not found"); a fetch that got no answer is "not available offline".
 */
export function loadStateOf(query: ReadState): 'ready' | 'pending' | 'not-found' | 'offline' {
  if (query.data !== undefined) return 'ready';
  if (query.isPending) return 'pending';
  return isNetworkFailure(query.error) ? 'offline' : 'not-found';
}

export function NotAvailableOffline() {
  return (
    <MessageCard title={NOT_AVAILABLE_OFFLINE} icon="pi-wifi">
      This page was not opened on this device before. It will load once you are back online.
    </MessageCard>
  );
}

/**
 * "Last synced 5 minutes ago", shown while what is on screen may be stale: the network is cut, or the latest
 * fetch failed and the data is what was seen before.
 */
export function LastSynced({ query }: { query: { data: unknown; isError: boolean; dataUpdatedAt: number } }) {
  const online = useOnline();
  if (query.data === undefined || (online && !query.isError) || query.dataUpdatedAt === 0) return null;
  return (
    <p role="status" className="m-0 mb-3 text-700 text-sm flex align-items-center gap-2">
      <i className="pi pi-history" aria-hidden="true" />
      <span>
        Offline · last synced{' '}
        <time dateTime={new Date(query.dataUpdatedAt).toISOString()}>{fromNow(query.dataUpdatedAt)}</time>
      </span>
    </p>
  );
}
