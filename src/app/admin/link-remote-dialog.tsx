import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { remoteOperations } from '../../contract/operations/dependencies.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { TextField } from '../components/form.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { useSnackbar } from '../components/snackbars.js';
import { reloadRemotes } from './admin-api.js';

const FORM_ID = 'link-remote-form';
export const REMOTE_ID_REQUIRED = 'Remote workspace ID is required';

/** Spec section 5: the remote workspace ID is required, checked on change. */
export function remoteIdError(value: string): string | null {
  return value.trim() ? null : REMOTE_ID_REQUIRED;
}

/**
 * The Add Remote Workspace modal, mounted while open (so it starts empty each time): a 'Remote workspace ID'
 * field, Cancel and Add; Add stays disabled until the ID is valid. A refused link keeps the dialog open with
 * the server's reason under the field.
 */
export function LinkRemoteDialog({ onClose }: { onClose(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [remote, setRemote] = useState('');
  const [changed, setChanged] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const error = remoteIdError(remote);

  const link = useMutation({
    mutationFn: (domain: string) => api.call(remoteOperations.linkRemote, { body: { remote: domain } }),
    onSuccess: (linked) => {
      queryClient.setQueryData(keys.remotes(), linked);
      void reloadRemotes(queryClient);
      enqueue('Remote workspace was linked');
      onClose();
    },
    onError: (failure) => {
      enqueue('Failed to link workspace', 'error');
      // Snackbars leave after a while; the field keeps the server's reason until the next edit.
      setRefusal(failure instanceof ApiError && failure.message ? failure.message : null);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (error || link.isPending) return;
    link.mutate(remote.trim().toLowerCase());
  }

  return (
    <PickerDialog
      header="Add Remote Workspace"
      onClose={onClose}
      pending={link.isPending}
      disabled={Boolean(error)}
      formId={FORM_ID}
    >
      <form id={FORM_ID} onSubmit={submit} noValidate>
        <TextField
          id="remote-workspace-id"
          label="Remote workspace ID"
          hint="The domain of the workspace whose public services this workspace may see"
          autoComplete="off"
          value={remote}
          onChange={(value) => {
            setRemote(value);
            setChanged(true);
            setRefusal(null);
          }}
          error={refusal ?? (changed ? error : null)}
        />
      </form>
    </PickerDialog>
  );
}
