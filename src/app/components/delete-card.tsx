import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { ConfirmDelete } from './confirm-delete.js';
import { useSnackbar } from './snackbars.js';

export interface DeleteCardProps {
  /** The card's title, the button's label and the dialog's header, e.g. 'Delete scorecard'. */
  label: string;
  /** What deleting takes with it, said above the button. */
  note: string;
  question: string;
  remove(api: ApiClient): Promise<unknown>;
  /** Said once deleted. */
  deleted: string;
  /** Said (as an error) when the delete fails; without it a failure is silent. */
  failed?: string;
  /** Where the screen goes once deleted: the list the thing was in. */
  leaveTo: string;
  /** Drops the deleted thing from the cache. */
  forget(queryClient: QueryClient): void;
}

/**
 * The Delete card at the foot of an editor or settings screen (status page, scorecard, service): one place for the
 * card, the confirmation and what follows a delete, so the screens cannot drift apart. A failure keeps the dialog
 * open for another try or Cancel.
 */
export function DeleteCard({ label, note, question, remove, deleted, failed, leaveTo, forget }: DeleteCardProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: () => remove(api),
    onSuccess: () => {
      setOpen(false);
      enqueue(deleted);
      navigate(leaveTo);
      // After leaving, so the screen does not refetch what it just deleted.
      forget(queryClient);
    },
    onError: () => {
      if (failed) enqueue(failed, 'error');
    },
  });
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">{label}</h2>}>
      <p className="mt-0 text-700">{note}</p>
      <ConfirmDelete
        label={label}
        question={question}
        open={open}
        onOpenChange={setOpen}
        pending={mutation.isPending}
        onDelete={() => mutation.mutate()}
      />
    </Card>
  );
}
