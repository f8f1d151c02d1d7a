/**
 * The admin area's reads and writes (spec/platform.md "Admin area"; docs/decisions.md#graph): the linked workspaces.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { remoteOperations } from '../../contract/operations/dependencies.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

/** GET /remotes: the domains of the workspaces this one is linked to. */
export function getRemotesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.remotes(),
    queryFn: () => api.call(remoteOperations.listRemotes),
  });
}

/** Spec: after link or unlink the list reloads. */
export function reloadRemotes(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: keys.remotes() });
}
