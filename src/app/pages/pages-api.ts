import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { pageOperations, sectionPageOperations } from '../../contract/operations/pages.js';
import type { DraftPage, PageSection, PublishedPage } from '../../contract/pages.js';
import type { Page } from '../../domain/pagination.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export function getPublishedPagesQueryOptions(api: ApiClient, service: string, section: PageSection, page: Page) {
  return queryOptions({
    queryKey: keys.publishedPages(service, section, page),
    queryFn: () => api.page(pageOperations.listPublishedPages, { params: { service }, query: { section, ...page } }),
  });
}

export function getPublishedPageQueryOptions(api: ApiClient, service: string, section: PageSection, id: string) {
  return queryOptions({
    queryKey: keys.publishedPage(service, section, id),
    queryFn: () => api.call(pageOperations.getPublishedPage, { params: { service, section, page: id } }),
  });
}

/** Spec 7: the overview asks for the latest announcement (limit 1), then reads it for its content. */
export function getLatestAnnouncementQueryOptions(api: ApiClient, service: string) {
  const door = sectionPageOperations.announcements;
  return queryOptions({
    queryKey: keys.latestAnnouncement(service),
    queryFn: async (): Promise<PublishedPage | null> => {
      const [latest] = await api.call(door.listAnnouncements, {
        params: { service },
        query: { cursor: 0, limit: 1 },
      });
      return latest ? api.call(door.getAnnouncement, { params: { id: latest.id } }) : null;
    },
  });
}

export function getDraftsQueryOptions(api: ApiClient, service: string, section: PageSection, page: Page) {
  return queryOptions({
    queryKey: keys.draftList(service, section, page),
    queryFn: () => api.page(pageOperations.listDraftPages, { params: { service }, query: { section, ...page } }),
  });
}

export function getDraftQueryOptions(api: ApiClient, service: string, section: PageSection, handle: string) {
  return queryOptions({
    queryKey: keys.draft(service, section, handle),
    queryFn: () => api.call(pageOperations.getDraftPage, { params: { service, section, handle } }),
  });
}

export function createDraft(
  api: ApiClient,
  service: string,
  body: { section: PageSection; title: string; content: string; handle?: string },
): Promise<DraftPage> {
  return api.call(pageOperations.createDraftPage, { params: { service }, body });
}

type DraftAction = 'publishDraftPage' | 'unpublishDraftPage';

export function draftAction(
  api: ApiClient,
  action: DraftAction,
  service: string,
  section: PageSection,
  handle: string,
): Promise<DraftPage> {
  return api.call(pageOperations[action], { params: { service, section, handle } });
}

export async function deleteDraft(api: ApiClient, service: string, section: PageSection, handle: string) {
  await api.call(pageOperations.deleteDraftPage, { params: { service, section, handle } });
}

/** After a write: the service's drafts and published pages are read again. */
export async function refreshPages(queryClient: QueryClient, service: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.drafts(service) }),
    queryClient.invalidateQueries({ queryKey: keys.servicePages(service) }),
  ]);
}
