import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AutoComplete } from 'primereact/autocomplete';
import { useRef, useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { RemoteService } from '../../contract/dependencies.js';
import { dependencyOperations } from '../../contract/operations/dependencies.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '../components/profile-search.js';
import { HealthStatus } from '../services/index.js';
import { useSnackbar } from '../components/snackbars.js';

export const REMOTE_DEPENDENCY_ADDED = 'Service Dependency Added';
export const REMOTE_DEPENDENCY_ADD_FAILED = 'Failed to add remote dependency';

/**
 * A remote service's one id: its workspace and handle (the graph's id `{workspace}:{handle}`: docs/decisions.md#graph).
 */
export function remoteId(item: { workspace: string; handle: string }): string {
  return `${item.workspace}:${item.handle}`;
}

/** What the search offers: the matches the service does not depend on already. */
export function remoteCandidates(found: readonly RemoteService[], taken: ReadonlySet<string>): RemoteService[] {
  return found.filter((item) => !taken.has(remoteId(item)));
}

/** The remote service picked in the field, or null while it holds typed text only. */
function chosen(value: RemoteService | string): RemoteService | null {
  return typeof value === 'object' ? value : null;
}

/** Searches live health on every keystroke pause, so an answer is kept only briefly. */
const SEARCH_STALE_MS = 30_000;

/**
 * The remote dependency dialog (spec/catalogue.md 2.1, 5: remote service required), mounted while open: a
 * debounced search over the public services of the linked workspaces, each with its workspace and health;
 * Add stays disabled until one is picked. A refused add keeps the dialog open.
 */
export function AddRemoteDependencyDialog({
  service,
  taken,
  onClose,
}: {
  service: Service;
  /** The remote ids the service already depends on (left out of the matches). */
  taken: ReadonlySet<string>;
  onClose(): void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [value, setValue] = useState<RemoteService | string>('');
  const [suggestions, setSuggestions] = useState<RemoteService[]>([]);
  const latest = useRef('');
  const picked = chosen(value);

  async function complete(query: string) {
    latest.current = query;
    const q = query.trim();
    const found = await queryClient
      .fetchQuery({
        queryKey: keys.remoteServiceSearch(q),
        queryFn: () => api.call(dependencyOperations.searchRemoteServices, { query: { q } }),
        staleTime: SEARCH_STALE_MS,
      })
      .catch(() => []);
    // Only the answer to the latest query fills the list; a failed search offers nothing.
    if (latest.current === query) setSuggestions(remoteCandidates(Array.isArray(found) ? found : [], taken));
  }

  const add = useMutation({
    mutationFn: (remote: RemoteService) =>
      api.call(dependencyOperations.addRemoteDependency, {
        params: { service: service.handle },
        body: { workspace: remote.workspace, service: remote.handle },
      }),
    onSuccess: () => {
      enqueue(REMOTE_DEPENDENCY_ADDED);
      void queryClient.invalidateQueries({ queryKey: keys.serviceRemoteDependencies(service.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceGraphs(service.handle) });
      onClose();
    },
    onError: () => enqueue(REMOTE_DEPENDENCY_ADD_FAILED, 'error'),
  });

  return (
    <PickerDialog
      header="Add Remote Dependency"
      width="30rem"
      onClose={onClose}
      pending={add.isPending}
      disabled={!picked}
      onSubmit={() => picked && add.mutate(picked)}
      label="Remote service"
      inputId="add-remote-dependency-service"
    >
      <AutoComplete
        inputId="add-remote-dependency-service"
        value={value}
        suggestions={suggestions}
        field="name"
        delay={AUTOCOMPLETE_DEBOUNCE_MS}
        placeholder="Search services"
        autoFocus
        completeMethod={(event) => void complete(event.query)}
        onChange={(event) => setValue((event.value as RemoteService | string | null) ?? '')}
        itemTemplate={(option: RemoteService) => (
          <div className="flex align-items-center gap-2">
            <span aria-hidden="true">
              <ProfileAvatar name={option.name} url={option.thumbnail_url} />
            </span>
            <span className="flex flex-column flex-1" style={{ minWidth: 0 }}>
              <span>{option.name}</span>
              <span className="text-sm text-600">{option.workspace}</span>
            </span>
            <HealthStatus health={option.health} />
          </div>
        )}
        className="w-full"
        inputClassName="w-full"
        aria-describedby="add-remote-dependency-hint"
      />
      <small id="add-remote-dependency-hint" className="text-600">
        Public services of the workspaces linked in Admin
      </small>
    </PickerDialog>
  );
}
