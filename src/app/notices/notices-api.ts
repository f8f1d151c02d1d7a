import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Notice } from '../../contract/notices.js';
import type { BodyOf } from '../../contract/operation.js';
import { noticeOperations } from '../../contract/operations/notices.js';
import { noticeFilterQuery, type NoticeFilter } from '../../domain/notices.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

/** The open incidents, as the overview's latest-incident card asks for them. */
export const OPEN_INCIDENTS: NoticeFilter = { types: ['incident'], open: true };

/**
 * One service's notices under one filter, newest first. The key is stable per filter, so the list last seen is
 * kept in Dexie by the app's query persister (docs/decisions.md#offline). The client sends the `type` and `status`
 * comma lists unescaped, as spec section 7 does.
 */
export function getNoticesQueryOptions(api: ApiClient, handle: string, filter: NoticeFilter) {
  const query = noticeFilterQuery(filter);
  return queryOptions({
    queryKey: keys.noticeList(handle, query),
    queryFn: () => api.call(noticeOperations.listNotices, { params: { service: handle }, query }),
  });
}

type NoticeCreate = BodyOf<typeof noticeOperations.createNotice>;
type NoticeUpdate = BodyOf<typeof noticeOperations.updateNotice>;

export function createNotice(api: ApiClient, handle: string, body: Omit<NoticeCreate, 'service'>): Promise<Notice> {
  return api.call(noticeOperations.createNotice, {
    params: { service: handle },
    body: { service: { id: handle }, ...body },
  });
}

export function updateNotice(api: ApiClient, id: string, body: NoticeUpdate): Promise<Notice> {
  return api.call(noticeOperations.updateNotice, { params: { id }, body });
}

/**
 * After a create or update: the notice lists refresh with their filters, and the service (whose health the
 * notice set in the same transaction, docs/decisions.md#api-conventions) is read again.
 */
export async function refreshAfterNoticeWrite(queryClient: QueryClient, handle: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.serviceNotices(handle) }),
    queryClient.invalidateQueries({ queryKey: keys.service(handle) }),
  ]);
}
