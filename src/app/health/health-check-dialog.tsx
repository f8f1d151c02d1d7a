import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { DialogFooter } from '../components/dialog-footer.js';
import { InputSwitch } from 'primereact/inputswitch';
import { useState, type FormEvent } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { Runner } from '../../contract/clients.js';
import type { HealthCheck } from '../../contract/health.js';
import { healthLabel } from '../../domain/catalogue.js';
import { HEALTH_CHECK_BOUNDS, IMPORTANCES, type Importance } from '../../domain/health.js';
import { useAuth } from '../session/auth-context.js';
import { TextField, useShownErrors } from '../components/form.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { useSnackbar } from '../shell/snackbars.js';
import { createHealthCheck, storeHealthCheck, updateHealthCheck } from './health-api.js';
import { createBody, draftErrors, draftOf, newDraft, updateBody, type HealthCheckDraft } from './health-check-form.js';
import { getTeamRunnersQueryOptions } from '../api/shared-queries.js';

export const SHARED_RUNNER = 'Shared runner';
const FORM_ID = 'health-check-form';

/** The select's value for the shared runner: the Dropdown takes '' for no choice, and no handle has parentheses. */
const SHARED_VALUE = '(shared)';

/** The runner choices: the shared runner, the owner team's runners, and the check's own when not listed. */
export function runnerOptions(
  runners: readonly Pick<Runner, 'handle' | 'name'>[],
  current: string,
): Array<{ label: string; value: string }> {
  const options = [
    { label: SHARED_RUNNER, value: SHARED_VALUE },
    ...runners.map((runner) => ({ label: runner.name, value: runner.handle })),
  ];
  if (current && !runners.some((runner) => runner.handle === current)) options.push({ label: current, value: current });
  return options;
}

function Switch({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <div className="flex align-items-center gap-2">
      <InputSwitch
        inputId={id}
        checked={checked}
        onChange={(event) => onChange(Boolean(event.value))}
        pt={{ root: { role: 'none', 'aria-checked': undefined } }}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * The health-check modal (spec/catalogue.md 2.1, 5 and 7), mounted while open: 'Add Healthcheck' with the
 * spec's defaults, or 'Edit Healthcheck' with the check's values and its disabled and paused switches. Save
 * stays disabled while a field is invalid; the modal closes after a successful save and the list refreshes.
 */
export function HealthCheckDialog({
  service,
  check,
  onClose,
}: {
  service: Pick<Service, 'handle' | 'owner'>;
  /** The check to edit; none adds one. */
  check?: HealthCheck;
  onClose(): void;
}) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [draft, setDraft] = useState<HealthCheckDraft>(() => (check ? draftOf(check) : newDraft()));
  // A failing runners list (the endpoint may be missing) leaves the shared runner only.
  const runners = useQuery(getTeamRunnersQueryOptions(api, service.owner.handle));
  const errors = draftErrors(draft);
  const { shown, touch, valid } = useShownErrors(errors);

  const save = useMutation({
    mutationFn: (current: HealthCheckDraft) =>
      check
        ? updateHealthCheck(api, check.id, updateBody(current))
        : createHealthCheck(api, service.handle, createBody(current)),
    onSuccess: (saved) => {
      enqueue(check ? 'Service Healhcheck Updated' : 'Service Healhcheck Added');
      void storeHealthCheck(queryClient, service.handle, saved);
      onClose();
    },
    onError: () => {
      // Spec section 8: this failure is shown with success styling.
      if (!check) enqueue('Unable to create healthcheck', 'success');
    },
  });

  const set = <K extends keyof HealthCheckDraft>(key: K, value: HealthCheckDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (valid && !save.isPending) save.mutate(draft);
  }

  const title = check ? 'Edit Healthcheck' : 'Add Healthcheck';
  return (
    <Dialog
      header={title}
      visible
      onHide={onClose}
      style={{ width: '36rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={save.isPending}
          submitLabel="Save"
          disabled={!valid}
          formId={FORM_ID}
        />
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate className="grid">
        <div className="col-12">
          <TextField
            id="health-check-name"
            label="Name"
            value={draft.name}
            onChange={(value) => set('name', value)}
            onBlur={() => touch('name')}
            error={shown('name')}
          />
        </div>
        <div className="col-12">
          <TextField
            id="health-check-endpoint"
            label="Endpoint"
            value={draft.endpoint}
            hint="The URL to check, http or https."
            onChange={(value) => set('endpoint', value)}
            onBlur={() => touch('endpoint')}
            error={shown('endpoint')}
          />
        </div>
        <div className="col-12 md:col-6 flex flex-column gap-1">
          <LabelledSelect
            id="health-check-runner"
            label="Runner"
            value={draft.runner || SHARED_VALUE}
            options={runnerOptions(runners.data ?? [], draft.runner)}
            onChange={(value) => set('runner', value === SHARED_VALUE ? '' : value)}
            className="w-full"
          />
        </div>
        <div className="col-12 md:col-6 flex flex-column gap-1">
          <LabelledSelect<Importance>
            id="health-check-importance"
            label="Importance"
            value={draft.importance}
            options={IMPORTANCES.map((value) => ({ label: healthLabel(value), value }))}
            onChange={(value) => set('importance', value)}
            className="w-full"
          />
        </div>
        <div className="col-12 md:col-4">
          <TextField
            type="number"
            id="health-check-frequency"
            label="Frequency"
            hint="Seconds between checks."
            value={draft.frequency}
            {...HEALTH_CHECK_BOUNDS.frequency}
            onChange={(value) => set('frequency', value)}
            onBlur={() => touch('frequency')}
            error={shown('frequency')}
          />
        </div>
        <div className="col-12 md:col-4">
          <TextField
            type="number"
            id="health-check-timeout"
            label="Timeout"
            hint="Seconds, 1 to 15."
            value={draft.timeout}
            {...HEALTH_CHECK_BOUNDS.timeout}
            onChange={(value) => set('timeout', value)}
            onBlur={() => touch('timeout')}
            error={shown('timeout')}
          />
        </div>
        <div className="col-12 md:col-4">
          <TextField
            type="number"
            id="health-check-allowed-failures"
            label="Allowed failures"
            hint="Failures in a row before it fails."
            value={draft.allowed_failures}
            {...HEALTH_CHECK_BOUNDS.allowed_failures}
            onChange={(value) => set('allowed_failures', value)}
            onBlur={() => touch('allowed_failures')}
            error={shown('allowed_failures')}
          />
        </div>
        {check && (
          <div className="col-12 flex gap-4">
            <Switch
              id="health-check-disabled"
              label="Disabled"
              checked={draft.disabled}
              onChange={(value) => set('disabled', value)}
            />
            <Switch
              id="health-check-paused"
              label="Paused"
              checked={draft.paused}
              onChange={(value) => set('paused', value)}
            />
          </div>
        )}
      </form>
    </Dialog>
  );
}
