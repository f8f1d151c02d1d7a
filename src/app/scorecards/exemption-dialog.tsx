import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useState } from 'react';
import { scorecardOperations } from '../../contract/operations/scorecards.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { LabelledControl, serverErrorsOf } from '../components/form.js';
import { TextAreaField } from '../components/text-area-field.js';
import { useSnackbar } from '../components/snackbars.js';

export const RULE_EXEMPTED = 'Rule exempted';
export const EXEMPTION_ENDED = 'Exemption ended';
export const EXEMPTION_FAILED = 'The exemption could not be saved';

/** An exemption's first default: a month from today (UTC), as the date field holds it. */
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/** After an exemption changes: the service's results and the scorecards' spreads and matrices refetch. */
function useExemptionChanged(service: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: keys.serviceScorecards(service) });
    void queryClient.invalidateQueries({ queryKey: keys.scorecards() });
  };
}

/**
 * Waives a rule for the service (workspace admins and owners): a reason and the last day it holds; the rule then
 * shows as exempt and leaves the score. Mounted while open.
 */
export function ExemptionDialog({
  scorecard,
  service,
  rule,
  onClose,
}: {
  scorecard: string;
  service: string;
  rule: { key: string; name: string };
  onClose(): void;
}) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const changed = useExemptionChanged(service);
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState(inAMonth);
  const save = useMutation({
    mutationFn: () =>
      api.call(scorecardOperations.createScorecardExemption, {
        params: { scorecard },
        // Through the last day given.
        body: { service, rule: rule.key, reason: reason.trim(), expires_at: `${until}T23:59:59Z` },
      }),
    onSuccess: () => {
      enqueue(RULE_EXEMPTED);
      changed();
      onClose();
    },
  });
  const errors = save.error ? serverErrorsOf(save.error, EXEMPTION_FAILED) : null;
  const formId = `exempt-${rule.key}`;
  return (
    <Dialog
      header={`Exempt “${rule.name}”`}
      visible
      onHide={onClose}
      style={{ width: '30rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={save.isPending}
          submitLabel="Exempt"
          disabled={!reason.trim() || !until}
          formId={formId}
        />
      }
    >
      <form
        id={formId}
        className="flex flex-column gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <TextAreaField
          id={`${formId}-reason`}
          label="Reason"
          value={reason}
          onChange={setReason}
          errors={errors?.fields.reason ? [errors.fields.reason] : []}
        />
        <LabelledControl
          id={`${formId}-until`}
          label="Until"
          hint="The rule applies again the day after."
          errors={errors?.fields.expires_at ? [errors.fields.expires_at] : []}
          control={(aria) => (
            <InputText
              id={`${formId}-until`}
              type="date"
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              {...aria}
            />
          )}
        />
        {errors?.message && !errors.fields.reason && !errors.fields.expires_at && (
          <small className="p-error" role="alert">
            {errors.message}
          </small>
        )}
      </form>
    </Dialog>
  );
}

/** Ends an exemption at once (workspace admins and owners). */
export function useEndExemption(scorecard: string, service: string) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const changed = useExemptionChanged(service);
  return useMutation({
    mutationFn: (id: string) => api.call(scorecardOperations.deleteScorecardExemption, { params: { scorecard, id } }),
    onSuccess: () => {
      enqueue(EXEMPTION_ENDED);
      changed();
    },
    onError: () => enqueue(EXEMPTION_FAILED, 'error'),
  });
}
