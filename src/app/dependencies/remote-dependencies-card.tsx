import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { RemoteDependency } from '../../contract/dependencies.js';
import { dependencyOperations } from '../../contract/operations/dependencies.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { isNetworkFailure } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { HealthStatus } from '../services/index.js';
import { useSnackbar } from '../components/snackbars.js';
import { getRemoteDependenciesQueryOptions } from './dependencies-api.js';
import { DependencyCardTitle } from './dependencies-cards.js';
import { AddRemoteDependencyDialog, remoteId } from './remote-dependency-dialog.js';

export const REMOTE_DEPENDENCY_REMOVED = 'Service Dependency Removed';
export const REMOTE_DEPENDENCY_REMOVE_FAILED = 'Failed to remove dependency';

/** What an item says when its target is gone: workspace unlinked, service deleted or no longer public. */
const UNAVAILABLE_HINT = 'Its workspace was unlinked, or the service is gone or no longer public';

function RemoteDependencyItem({
  item,
  onRemove,
  removing,
}: {
  item: RemoteDependency;
  onRemove?: () => void;
  removing: boolean;
}) {
  return (
    <li className="flex align-items-center gap-2">
      <span aria-hidden="true">
        <ProfileAvatar name={item.name} url={item.thumbnail_url} />
      </span>
      <span className="flex flex-column flex-1" style={{ minWidth: 0 }}>
        <span className="white-space-nowrap overflow-hidden text-overflow-ellipsis">{item.name}</span>
        <span className="text-sm text-600 white-space-nowrap overflow-hidden text-overflow-ellipsis">
          {item.workspace}
        </span>
      </span>
      {item.available && item.health ? (
        <HealthStatus health={item.health} />
      ) : (
        <span className="inline-flex align-items-center gap-1 text-700" title={UNAVAILABLE_HINT}>
          <i className="pi pi-ban text-xs" aria-hidden="true" />
          <span>Unavailable</span>
        </span>
      )}
      {onRemove && (
        <Button
          type="button"
          icon="pi pi-times"
          text
          rounded
          severity="secondary"
          aria-label={`Remove ${item.name}`}
          disabled={removing}
          onClick={onRemove}
        />
      )}
    </li>
  );
}

/**
 * The overview's Remote Dependencies card (spec/catalogue.md 2.1): public services of linked workspaces this
 * one depends on, with their live health, or 'Unavailable' once out of reach (docs/decisions.md#graph). No view or star
 * actions; editors add and remove. Spec: a load failure sets an error flag and empties the list; what was
 * seen before (the persisted cache, offline too) still shows.
 */
export function RemoteDependenciesCard({ service }: { service: Service }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [adding, setAdding] = useState(false);
  const { data, error, isError, isPending } = useQuery(getRemoteDependenciesQueryOptions(api, service.handle));
  // A managed service's dependencies are its file's (docs/decisions.md#catalogue-as-code).
  const editable = service.permissions.edit && !service.managed_by;
  const items = Array.isArray(data) ? data : [];

  const remove = useMutation({
    mutationFn: (item: RemoteDependency) =>
      api.call(dependencyOperations.removeRemoteDependency, {
        params: { service: service.handle, workspace: item.workspace, remote: item.handle },
      }),
    onSuccess: () => {
      enqueue(REMOTE_DEPENDENCY_REMOVED);
      void queryClient.invalidateQueries({ queryKey: keys.serviceRemoteDependencies(service.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceGraphs(service.handle) });
    },
    onError: () => enqueue(REMOTE_DEPENDENCY_REMOVE_FAILED, 'error'),
  });

  return (
    <Card
      title={
        <DependencyCardTitle
          title="Remote Dependencies"
          addLabel="Add Remote Dependency"
          {...(editable ? { onAdd: () => setAdding(true) } : {})}
        />
      }
    >
      {isPending && data === undefined ? (
        <Spinner label="Loading remote dependencies" />
      ) : items.length === 0 ? (
        <>
          {isError && data === undefined && (
            <p className="m-0 mb-2 p-error">
              {isNetworkFailure(error)
                ? 'Remote dependencies are not available offline.'
                : 'The list could not be loaded.'}
            </p>
          )}
          <p className="m-0 text-600">No Dependencies</p>
        </>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-column gap-2" aria-label="Remote dependencies">
          {items.map((item) => (
            <RemoteDependencyItem
              key={remoteId(item)}
              item={item}
              removing={remove.isPending && remove.variables === item}
              {...(editable ? { onRemove: () => remove.mutate(item) } : {})}
            />
          ))}
        </ul>
      )}
      {adding && (
        <AddRemoteDependencyDialog
          service={service}
          taken={new Set(items.map(remoteId))}
          onClose={() => setAdding(false)}
        />
      )}
    </Card>
  );
}
