import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { useState } from 'react';
import type { Alert } from '../../contract/alerts.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { serverErrorsOf } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { TextAreaField } from '../components/text-area-field.js';
import { useApi } from '../session/use-api.js';
import { refreshAlertLists, resolveAlert, storeAlert } from './alerts-api.js';

export const ALERT_RESOLVED = 'Alert resolved';
export const RESOLVE_FAILED = 'The alert could not be resolved';

/**
 * Resolves an alert by hand, with an optional reason for its timeline (allowed while the service still fails).
 * Mounted while open. Someone resolving it first (409) is the same outcome: the dialog closes and the alert reloads.
 */
export function ResolveDialog({ alert, onClose }: { alert: Alert; onClose(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [reason, setReason] = useState('');
  const resolve = useMutation({
    mutationFn: () => resolveAlert(api, alert.id, reason),
    onSuccess: (answer) => {
      storeAlert(queryClient, answer);
      enqueue(ALERT_RESOLVED);
      onClose();
    },
    onError: (error) => {
      if (!(error instanceof ApiError && error.status === 409)) return;
      void queryClient.invalidateQueries({ queryKey: keys.alert(alert.id) });
      refreshAlertLists(queryClient);
      enqueue(error.message);
      onClose();
    },
  });
  const errors = resolve.error ? serverErrorsOf(resolve.error, RESOLVE_FAILED) : null;
  const formId = `resolve-${alert.id}`;
  const reasonError = errors?.fields.reason;
  return (
    <Dialog
      header={`Resolve the alert of ${alert.service.name}`}
      visible
      onHide={onClose}
      style={{ width: '30rem', maxWidth: '95vw' }}
      footer={<DialogFooter onCancel={onClose} pending={resolve.isPending} submitLabel="Resolve" formId={formId} />}
    >
      <form
        id={formId}
        className="flex flex-column gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!resolve.isPending) resolve.mutate();
        }}
      >
        <TextAreaField
          id={`${formId}-reason`}
          label="Reason (optional)"
          value={reason}
          onChange={setReason}
          hint="Shown on the alert's timeline, for instance why it can wait."
          errors={reasonError ? [reasonError] : []}
        />
        {errors && !reasonError && (
          <small className="p-error" role="alert">
            {errors.message}
          </small>
        )}
      </form>
    </Dialog>
  );
}
