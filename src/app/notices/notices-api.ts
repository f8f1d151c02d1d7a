import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Notice, NoticeCreate, NoticeUpdate } from '../../contract/notices.js';
import { noticeFilterQuery, type NoticeFilter } from '../../domain/notices.js';
import type { ApiClient } from '../api/client.js';
import { servicePath } from '../services/service-api.js';
import { retryUnlessClientError } from '../users/query-retry.js';

/** The open incidents, as the overview's latest-incident card asks for them. */
export const OPEN_INCIDENTS: NoticeFilter = { types: ['incident'], open: true };

/**
 * The list path with its query written out by hand: spec section 7 sends the `type` and `status` comma lists
 * unescaped (URLSearchParams would write the commas as %2C).
 */
export function noticesPath(handle: string, filter: NoticeFilter): string {
  const { type, status } = noticeFilterQuery(filter);
  const list = (value: string) => value.split(',').map(encodeURIComponent).join(',');
  return `${servicePath(handle)}/notices?type=${list(type)}&status=${list(status)}`;
}

/** Every notice list of a service shares the prefix, so one invalidation refreshes them all. */
export const noticesKey = (handle: string) => ['notices', handle] as const;

/**
 * One service's notices under one filter, newest first. The key is stable per filter, so the list last seen is
 * kept in Dexie by the app's query persister (DESIGN.md 6).
 */
export function getNoticesQueryOptions(api: ApiClient, handle: string, filter: NoticeFilter) {
  return queryOptions({
    queryKey: [...noticesKey(handle), noticeFilterQuery(filter)] as const,
    queryFn: () => api.get<Notice[]>(noticesPath(handle, filter)),
    retry: retryUnlessClientError,
  });
}

export function createNotice(api: ApiClient, handle: string, body: Omit<NoticeCreate, 'service'>): Promise<Notice> {
  return api.send<Notice>('POST', `${servicePath(handle)}/notices`, { service: { id: handle }, ...body });
}

export function updateNotice(api: ApiClient, id: string, body: NoticeUpdate): Promise<Notice> {
  return api.send<Notice>('PATCH', `/notices/${encodeURIComponent(id)}`, body);
}

/**
 * After a create or update: the notice lists refresh with their filters, and the service (whose health the
 * notice set in the same transaction, DESIGN.md 4a) is read again.
 */
export async function refreshAfterNoticeWrite(queryClient: QueryClient, handle: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: noticesKey(handle) }),
    queryClient.invalidateQueries({ queryKey: ['service', handle] }),
  ]);
}
