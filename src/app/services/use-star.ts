import type { QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Service, StarredItem } from '../../contract/catalogue.js';
import { starOperations } from '../../contract/operations/stars.js';
import { toggleStar } from '../../domain/catalogue.js';
import { keys } from '../api/query-keys.js';
import { useWrite } from '../local/local-provider.js';
import { isQueryKey, writeKind, type WriteOutcome } from '../local/writes.js';
import { useAuth } from '../session/auth-context.js';
import { editCachedService, serviceRef } from './service-api.js';

/** What the star toggle needs of a service. */
export type StarTarget = Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url' | 'starred' | 'starred_count'>;

/**
 * The service with its star set to `starred`; the count moves (domain toggleStar) only when the star changes,
 * so applying the same state twice changes nothing.
 */
export function withStarred<T extends Pick<Service, 'handle' | 'starred' | 'starred_count'>>(
  service: T,
  starred: boolean,
): T {
  if (service.starred === starred) return service;
  const next = toggleStar(service.starred ? [service.handle] : [], service.starred_count, service.handle);
  return { ...service, starred: next.starred.includes(service.handle), starred_count: next.count };
}

/** The starred list with the service in it or out of it. */
export function withStarredItem(
  list: StarredItem[] | undefined,
  service: Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url'>,
  starred: boolean,
): StarredItem[] | undefined {
  if (!list) return list;
  const handles = list.map((item) => item.profile.handle);
  if (handles.includes(service.handle) === starred) return list;
  const next = toggleStar(handles, handles.length, service.handle).starred;
  return starred
    ? [...list, { id: service.id, profile: serviceRef(service) }]
    : list.filter((item) => next.includes(item.profile.handle));
}

type StarView = Pick<Service, 'id' | 'handle' | 'name' | 'thumbnail_url'>;

/** A star or an unstar as the user sees it at once: in every cached copy of the service and the starred list. */
function starOverlay(starred: boolean) {
  return (queryKey: QueryKey, data: unknown, input: { params: { username: string } }, view: StarView) => {
    if (isQueryKey(queryKey, keys.userStarred(input.params.username)))
      return withStarredItem(data as StarredItem[] | undefined, view, starred);
    return editCachedService(data, view.handle, (service) => withStarred(service, starred));
  };
}

/** Once sent, the starred list is read again; refused, the services too (the optimistic star was wrong). */
function starInvalidates(input: { params: { username: string } }, outcome: WriteOutcome): QueryKey[] {
  const starredList = keys.userStarred(input.params.username);
  return outcome === 'done' ? [starredList] : [starredList, keys.anyService(), keys.services(), keys.anyTeam()];
}

export const starWrite = writeKind({
  kind: 'star',
  operation: starOperations.starService,
  overlay: starOverlay(true),
  invalidates: starInvalidates,
});

export const unstarWrite = writeKind({
  kind: 'unstar',
  operation: starOperations.unstarService,
  overlay: starOverlay(false),
  invalidates: starInvalidates,
});

/**
 * The star toggle (docs/decisions.md#offline, one write path): the service and the starred list change at once, the
 * write is queued in the outbox and sent when the app is online.
 */
export function useStar(): { toggle(service: StarTarget): Promise<void> } {
  const { state } = useAuth();
  const write = useWrite();
  const username = state.user?.handle ?? state.username ?? '';

  const toggle = useCallback(
    async (service: StarTarget) => {
      if (!username) return;
      const input = { params: { username, service: service.handle } };
      const view: StarView = serviceRef(service);
      const label = `Star ${service.name}`;
      // A refused write is settled by the write path (the service is read again); nothing more to do here.
      const made = service.starred
        ? write(unstarWrite, input, { label, view })
        : write(starWrite, input, { label, view });
      await made.catch(() => undefined);
    },
    [write, username],
  );

  return { toggle };
}
