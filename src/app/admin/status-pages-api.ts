/**
 * The admin area's status pages (docs/decisions.md#status-pages): reads, writes and how a refused write reads in the
 * form.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BodyOf } from '../../contract/operation.js';
import { statusPageOperations } from '../../contract/operations/status-pages.js';
import type { StatusPage, StatusSubscriber } from '../../contract/status-pages.js';
import type { StatusPageAccess } from '../../domain/status-pages.js';
import { ApiError, type ApiClient } from '../api/client.js';

export type StatusPageCreateBody = BodyOf<(typeof statusPageOperations)['createStatusPage']>;
export type StatusPageUpdateBody = BodyOf<(typeof statusPageOperations)['updateStatusPage']>;

/** The list (prefix) and one page; every page read starts with the list's key, so a write reaches both. */
export const statusPageKeys = {
  all: () => ['status-pages'] as const,
  one: (handle: string) => ['status-pages', 'page', handle] as const,
  /** Under the page's key, so forgetting a deleted page forgets its subscribers too. */
  subscribers: (handle: string) => ['status-pages', 'page', handle, 'subscribers'] as const,
};

export const STATUS_PAGES_PATH = '/admin/status-pages';
export const statusPagePath = (handle: string) => `${STATUS_PAGES_PATH}/${encodeURIComponent(handle)}`;

/** Who may read a page, as the admin picks it and as the list says it. */
export const ACCESS_LABELS: Record<StatusPageAccess, string> = {
  public: 'Anyone',
  password: 'Anyone with the password',
  members: 'Members of this workspace',
};

export function getStatusPagesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: statusPageKeys.all(),
    queryFn: () => api.call(statusPageOperations.listStatusPages),
  });
}

export function getStatusPageQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: statusPageKeys.one(handle),
    queryFn: () => api.call(statusPageOperations.getStatusPage, { params: { page: handle } }),
  });
}

/** Email addresses and webhook URLs of people outside the workspace: read fresh, never kept in Dexie. */
export function getStatusSubscribersQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: statusPageKeys.subscribers(handle),
    queryFn: () => api.call(statusPageOperations.listStatusSubscribers, { params: { page: handle } }),
    meta: { persist: false },
  });
}

export function createStatusPage(api: ApiClient, body: StatusPageCreateBody): Promise<StatusPage> {
  return api.call(statusPageOperations.createStatusPage, { body });
}

export function updateStatusPage(api: ApiClient, handle: string, body: StatusPageUpdateBody): Promise<StatusPage> {
  return api.call(statusPageOperations.updateStatusPage, { params: { page: handle }, body });
}

/** Looks for the custom domain's TXT record now; the answer is the page as it then stands. */
export function verifyStatusPageDomain(api: ApiClient, handle: string): Promise<StatusPage> {
  return api.call(statusPageOperations.verifyStatusPageDomain, { params: { page: handle } });
}

export function deleteStatusPage(api: ApiClient, handle: string): Promise<null> {
  return api.call(statusPageOperations.deleteStatusPage, { params: { page: handle } });
}

export function removeStatusSubscriber(api: ApiClient, handle: string, id: string): Promise<null> {
  return api.call(statusPageOperations.removeStatusSubscriber, { params: { page: handle, id } });
}

/** After a subscriber is removed: gone from the list at once, and the list reloads. */
export function forgetStatusSubscriber(queryClient: QueryClient, handle: string, id: string): void {
  queryClient.setQueryData(statusPageKeys.subscribers(handle), (list: StatusSubscriber[] | undefined) =>
    list?.filter((subscriber) => subscriber.id !== id),
  );
  void queryClient.invalidateQueries({ queryKey: statusPageKeys.subscribers(handle), exact: true });
}

/** After a save: the page is the server's answer, and the list reloads. */
export function storeStatusPage(queryClient: QueryClient, page: StatusPage): void {
  queryClient.setQueryData(statusPageKeys.one(page.handle), page);
  void queryClient.invalidateQueries({ queryKey: statusPageKeys.all(), exact: true });
}

/** After a delete: the page is forgotten (after leaving it, so the screen does not read it again). */
export function forgetStatusPage(queryClient: QueryClient, handle: string): void {
  queryClient.removeQueries({ queryKey: statusPageKeys.one(handle) });
  void queryClient.invalidateQueries({ queryKey: statusPageKeys.all(), exact: true });
}

export const HANDLE_IN_USE = 'This handle is already used by another status page';
export const DOMAIN_IN_USE = 'This domain is already used by another status page';
export const SAVE_FAILED = 'There was an error while saving your status page';

/**
 * A refused save as the form shows it: the first error of each field by its path in the body (`title`,
 * `groups.0.name`, `groups.1.services.2`), and a line for the whole form. A 409 is the handle (or, when the
 * server names it or the handle is fixed, the custom domain) already in use.
 */
export interface RefusedSave {
  fields: Record<string, string>;
  message: string | null;
}

export function refusedSave(error: unknown, { creating }: { creating: boolean }): RefusedSave {
  if (!(error instanceof ApiError)) return { fields: {}, message: SAVE_FAILED };
  const named: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.body.errors ?? {})) {
    if (messages[0]) named[field] = messages[0];
  }
  if (error.status === 409) {
    const domain = 'custom_domain' in named || (!('handle' in named) && (!creating || /domain/i.test(error.message)));
    return domain
      ? { fields: { custom_domain: DOMAIN_IN_USE }, message: null }
      : { fields: { handle: HANDLE_IN_USE }, message: null };
  }
  if (error.status === 400 && Object.keys(named).length > 0) return { fields: named, message: error.message || null };
  return { fields: {}, message: error.message || SAVE_FAILED };
}
