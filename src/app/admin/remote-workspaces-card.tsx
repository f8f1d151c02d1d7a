import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { remoteOperations } from '../../contract/operations/dependencies.js';
import { useApi } from '../session/use-api.js';
import { isNetworkFailure } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';
import { getRemotesQueryOptions, reloadRemotes } from './admin-api.js';
import { LinkRemoteDialog } from './link-remote-dialog.js';

/**
 * The Remote Workspaces card (spec/platform.md "Admin area"; docs/decisions.md#graph): the linked workspaces' domains,
 * each with Unlink, and Add Remote Workspace. A linked workspace's public services can be depended on.
 */
export function RemoteWorkspacesCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [adding, setAdding] = useState(false);
  const query = useQuery(getRemotesQueryOptions(api));

  const unlink = useMutation({
    mutationFn: (remote: string) => api.call(remoteOperations.unlinkRemote, { params: { remote } }),
    onSuccess: () => enqueue('Remote workspace was unlinked'),
    onError: () => enqueue('Failed to unlink workspace', 'error'),
    onSettled: () => reloadRemotes(queryClient),
  });

  const remotes = Array.isArray(query.data) ? query.data : [];
  return (
    <Card
      className="h-full"
      title={<h2 className="text-xl font-semibold m-0">Remote Workspaces</h2>}
      subTitle="Linked workspaces share their public services with this one"
    >
      <div className="flex flex-column gap-3">
        {query.isPending ? (
          <Spinner label="Loading remote workspaces" />
        ) : query.data === undefined ? (
          <p className="m-0 p-error" role="alert">
            {isNetworkFailure(query.error)
              ? 'Remote workspaces are not available offline'
              : 'Remote workspaces could not be loaded'}
          </p>
        ) : remotes.length === 0 ? (
          <p className="m-0 text-600">No remote workspaces linked</p>
        ) : (
          <ul className="list-none p-0 m-0" aria-label="Remote workspaces">
            {remotes.map((remote) => (
              <li key={remote} className="flex align-items-center gap-2 py-2 border-bottom-1 surface-border">
                <i className="pi pi-link text-600" aria-hidden="true" />
                <span className="flex-1 font-semibold overflow-hidden text-overflow-ellipsis">{remote}</span>
                <Button
                  type="button"
                  label="Unlink"
                  icon="pi pi-times"
                  severity="danger"
                  outlined
                  size="small"
                  aria-label={`Unlink ${remote}`}
                  loading={unlink.isPending && unlink.variables === remote}
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate(remote)}
                />
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button type="button" label="Add Remote Workspace" icon="pi pi-plus" onClick={() => setAdding(true)} />
        </div>
      </div>
      {adding && <LinkRemoteDialog onClose={() => setAdding(false)} />}
    </Card>
  );
}
