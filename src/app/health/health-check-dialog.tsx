import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputSwitch } from 'primereact/inputswitch';
import { useState, type FormEvent } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { Runner } from '../../contract/clients.js';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import { sourcesFor } from '../../domain/assertion-text.js';
import { healthLabel } from '../../domain/catalogue.js';
import { CHECK_KIND_LABELS, latestResultOf } from '../../domain/check-card.js';
import { CHECK_KINDS, DNS_RECORD_TYPES, HTTP_METHODS, type CheckKind } from '../../domain/check-kinds.js';
import { HEALTH_CHECK_BOUNDS, IMPORTANCES, type Importance } from '../../domain/health.js';
import { ApiError } from '../api/client.js';
import { getTeamRunnersQueryOptions } from '../api/shared-queries.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { TextField, useShownErrors } from '../components/form.js';
import { TextAreaField } from '../components/text-area-field.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { useAuth } from '../session/auth-context.js';
import { useSnackbar } from '../components/snackbars.js';
import { createHealthCheck, storeHealthCheck, testHealthCheck, updateHealthCheck } from './health-api.js';
import {
  createBody,
  draftErrors,
  draftOf,
  ENDPOINT_FIELDS,
  fieldOfServerError,
  isProbed,
  newDraft,
  RECOVER_AFTER_BOUNDS,
  testBody,
  updateBody,
  withKind,
  type DraftField,
  type HealthCheckDraft,
} from './health-check-form.js';
import { PingUrl } from './ping-url.js';
import { AssertionsTable, errorLine, ResultFacts } from './result-details.js';
import './health.css';

export const SHARED_RUNNER = 'Shared runner';
const FORM_ID = 'health-check-form';

/** The select's value for the shared runner: the Dropdown takes '' for no choice, and no handle has parentheses. */
const SHARED_VALUE = '(shared)';

/** What each kind does, under the kind picker. */
const KIND_HINTS: Record<CheckKind, string> = {
  http: 'Requests a URL and checks the answer.',
  tcp: 'Connects to a port, optionally sends a line and reads the answer.',
  tls: 'Makes a TLS handshake on any port: the certificate chain, its host name and its days left.',
  dns: 'Asks the configured resolvers for a record: the answer code and the answers.',
  domain: 'Reads the registration expiry through RDAP.',
  heartbeat: 'Your job pings a secret URL; a missing ping past its period plus grace, or a fail ping, fails it.',
};

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

/** A field error the server gave, by the form's field it belongs to; `form` for one without a field. */
type ServerErrors = Partial<Record<string, string>>;

function serverErrorsOf(error: unknown, kind: CheckKind): ServerErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const errors: ServerErrors = {};
  for (const [key, [first] = []] of Object.entries(error.body.errors ?? {})) {
    if (!first) continue;
    const field = fieldOfServerError(key, kind) ?? 'form';
    errors[field] ??= field === 'form' ? `${key}: ${first}` : first;
  }
  if (Object.keys(errors).length === 0) errors.form = error.message;
  return errors;
}

/** Why a test could not run, in words (a refused body shows its errors by the fields instead). */
function testFailureText(error: unknown): string {
  if (error instanceof ApiError && error.status === 429)
    return 'Too many tests in a short time: wait a minute and test again.';
  if (error instanceof ApiError && error.status === 400) return 'Fix the fields marked above, then test again.';
  return error instanceof ApiError && error.message
    ? `The test could not run: ${error.message}`
    : 'The test could not run: the server cannot be reached.';
}

/** The hint under the assertions: the text form and the sources the kind offers. */
function AssertionsHint({ kind }: { kind: CheckKind }) {
  const sources = sourcesFor(kind);
  return (
    <>
      One per line: source, op, value and an optional severity, e.g. <code>status in 200..299</code> or{' '}
      <code>latency_ms &lt; 800 warning</code>; empty: the kind&apos;s defaults. Sources for {CHECK_KIND_LABELS[kind]}:{' '}
      {sources.map((info, index) => (
        <span key={info.source}>
          {index > 0 && ', '}
          <code title={info.description}>{info.source}</code>
        </span>
      ))}
      .
    </>
  );
}

/** One run of the form as it stands: how it went, why, and every assertion's actual value. */
function TestResult({ result }: { result: HealthCheckResult }) {
  const latest = latestResultOf([result])!;
  return (
    <div className="beacon-test-result flex flex-column gap-2">
      <h3 className="m-0 text-base font-semibold">Test result</h3>
      <ResultFacts result={latest} />
      {latest.error && (
        <p className="m-0 text-sm beacon-wrap-anywhere">
          Error: <span className="font-semibold">{errorLine(latest.error)}</span>
        </p>
      )}
      <AssertionsTable assertions={result.assertions ?? []} label="Assertions of the test" />
    </div>
  );
}

/**
 * The health-check modal (spec/catalogue.md 2.1, 5 and 7; docs/decisions.md#checks), mounted while open: 'Add
 * Healthcheck' with the spec's defaults, or 'Edit Healthcheck' with the check's values and its disabled and paused
 * switches. The kind comes first and decides the fields; the assertions are typed one per line and parsed as they are
 * typed; "Test" runs the form once and shows every assertion's actual value. Save stays disabled while a field
 * is invalid; the server's field errors appear by their fields. The modal closes after a successful save and the
 * list refreshes; a new heartbeat stays open on its ping URL, which the job needs.
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
  /** The check as last saved here: a new heartbeat, or one whose URL was rotated. */
  const [saved, setSaved] = useState<HealthCheck | undefined>(check);
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  const [justAdded, setJustAdded] = useState(false);
  // A failing runners list (the endpoint may be missing) leaves the shared runner only.
  const runners = useQuery(getTeamRunnersQueryOptions(api, service.owner.handle));
  const errors = draftErrors(draft);
  const { shown, touch, valid } = useShownErrors(errors);
  const probed = isProbed(draft.kind);

  const save = useMutation({
    mutationFn: (current: HealthCheckDraft) =>
      saved
        ? updateHealthCheck(api, saved.id, updateBody(current))
        : createHealthCheck(api, service.handle, createBody(current)),
    onSuccess: (answer) => {
      enqueue(saved ? 'Service Healhcheck Updated' : 'Service Healhcheck Added');
      void storeHealthCheck(queryClient, service.handle, answer);
      if (!saved && answer.kind === 'heartbeat') {
        // The job needs its URL: stay open on it (the dialog now edits the new check).
        setSaved(answer);
        setJustAdded(true);
        return;
      }
      onClose();
    },
    onError: (error, current) => {
      setServerErrors(serverErrorsOf(error, current.kind) ?? {});
      // Spec section 8: this failure is shown with success styling.
      if (!saved) enqueue('Unable to create healthcheck', 'success');
    },
  });

  const test = useMutation({
    mutationFn: (current: HealthCheckDraft) => testHealthCheck(api, service.handle, testBody(current)),
    onSuccess: () => setServerErrors({}),
    onError: (error, current) => setServerErrors(serverErrorsOf(error, current.kind) ?? {}),
  });

  function set<K extends keyof HealthCheckDraft>(key: K, value: HealthCheckDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    // The server's word on a field (and its general one) stands until that field changes.
    if (serverErrors[key] || serverErrors.form)
      setServerErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => field !== key && field !== 'form')),
      );
  }

  function pickKind(kind: CheckKind) {
    setDraft((current) => withKind(current, kind));
    setServerErrors({});
    test.reset();
  }

  /** The error to show by a field: the form's own once touched, else the server's. */
  const errorOf = (field: DraftField) => shown(field) ?? serverErrors[field] ?? null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (valid && !save.isPending) save.mutate(draft);
  }

  // "Test" needs a runnable check, not a name (an unnamed one is tested as 'Test').
  const testable = Object.entries(errors).every(([field, error]) => field === 'name' || !error);
  const assertionErrors = errors.assertions ? errors.assertions.split('\n') : [];
  const serverAssertionError = serverErrors.assertions;
  const title = saved ? 'Edit Healthcheck' : 'Add Healthcheck';
  const idOf = (field: string) => `health-check-${field.replace(/_/g, '-')}`;
  const endpointField = draft.kind === 'heartbeat' ? null : ENDPOINT_FIELDS[draft.kind];

  return (
    <Dialog
      header={title}
      visible
      onHide={onClose}
      className="beacon-check-dialog"
      style={{ width: '46rem', maxWidth: '95vw' }}
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
        <div className="col-12 md:col-6 flex flex-column gap-1">
          <LabelledSelect<CheckKind>
            id={idOf('kind')}
            label="Kind"
            value={draft.kind}
            options={CHECK_KINDS.map((value) => ({ label: CHECK_KIND_LABELS[value], value }))}
            onChange={pickKind}
            className="w-full"
          />
        </div>
        <p className="col-12 md:col-6 m-0 text-600 text-sm md:pt-5" id={`${idOf('kind')}-hint`}>
          {KIND_HINTS[draft.kind]}
        </p>
        <div className="col-12">
          <TextField
            id={idOf('name')}
            label="Name"
            value={draft.name}
            onChange={(value) => set('name', value)}
            onBlur={() => touch('name')}
            error={errorOf('name')}
          />
        </div>

        {endpointField && (
          <div className={draft.kind === 'http' ? 'col-12 md:col-9' : 'col-12 md:col-8'}>
            <TextField
              id={idOf('endpoint')}
              label={endpointField.label}
              value={draft.endpoint}
              hint={endpointField.hint}
              type={draft.kind === 'http' ? 'url' : 'text'}
              onChange={(value) => set('endpoint', value)}
              onBlur={() => touch('endpoint')}
              error={errorOf('endpoint')}
            />
          </div>
        )}
        {draft.kind === 'http' && (
          <>
            <div className="col-12 md:col-3 flex flex-column gap-1">
              <LabelledSelect
                id={idOf('method')}
                label="Method"
                value={draft.method}
                options={HTTP_METHODS.map((value) => ({ label: value, value }))}
                onChange={(value) => set('method', value)}
                className="w-full"
              />
              {serverErrors.method && <small className="p-error">{serverErrors.method}</small>}
            </div>
            <div className="col-12 md:col-6">
              <TextAreaField
                id={idOf('headers')}
                label="Request headers"
                value={draft.headers}
                hint="One Name: value per line."
                placeholder="Accept: application/json"
                monospace
                onChange={(value) => set('headers', value)}
                onBlur={() => touch('headers')}
                errors={[errorOf('headers')].filter((error): error is string => Boolean(error))}
              />
            </div>
            <div className="col-12 md:col-6">
              <TextAreaField
                id={idOf('body')}
                label="Request body"
                value={draft.body}
                hint="Sent as it is; empty sends none."
                monospace
                onChange={(value) => set('body', value)}
                errors={serverErrors.body ? [serverErrors.body] : []}
              />
            </div>
          </>
        )}
        {draft.kind === 'tcp' && (
          <div className="col-12 md:col-4">
            <TextAreaField
              id={idOf('send')}
              label="Send"
              value={draft.send}
              hint="Optional text sent once connected."
              rows={1}
              monospace
              onChange={(value) => set('send', value)}
              errors={serverErrors.send ? [serverErrors.send] : []}
            />
          </div>
        )}
        {draft.kind === 'tls' && (
          <div className="col-12 md:col-4 flex flex-column gap-1">
            <LabelledSelect<'none' | 'smtp'>
              id={idOf('starttls')}
              label="STARTTLS"
              value={draft.starttls}
              options={[
                { label: 'None', value: 'none' },
                { label: 'SMTP', value: 'smtp' },
              ]}
              onChange={(value) => set('starttls', value)}
              className="w-full"
            />
          </div>
        )}
        {draft.kind === 'dns' && (
          <div className="col-12 md:col-4 flex flex-column gap-1">
            <LabelledSelect
              id={idOf('record')}
              label="Record type"
              value={draft.record}
              options={DNS_RECORD_TYPES.map((value) => ({ label: value, value }))}
              onChange={(value) => set('record', value)}
              className="w-full"
            />
            {serverErrors.record && <small className="p-error">{serverErrors.record}</small>}
          </div>
        )}
        {draft.kind === 'heartbeat' && saved?.kind === 'heartbeat' && (
          <div className="col-12 flex flex-column gap-2">
            {justAdded && (
              <p className="m-0 text-green-800 font-semibold" role="status">
                Heartbeat added: point your job at its ping URL.
              </p>
            )}
            <PingUrl check={saved} idPrefix="dialog" onRotated={setSaved} />
          </div>
        )}

        {probed && (
          <div className="col-12 md:col-6 flex flex-column gap-1">
            <LabelledSelect
              id={idOf('runner')}
              label="Runner"
              value={draft.runner || SHARED_VALUE}
              options={runnerOptions(runners.data ?? [], draft.runner)}
              onChange={(value) => set('runner', value === SHARED_VALUE ? '' : value)}
              className="w-full"
            />
            {serverErrors.runner && <small className="p-error">{serverErrors.runner}</small>}
          </div>
        )}
        <div className={`col-12 ${probed ? 'md:col-6' : 'md:col-4'} flex flex-column gap-1`}>
          <LabelledSelect<Importance>
            id={idOf('importance')}
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
            id={idOf('frequency')}
            label={probed ? 'Frequency' : 'Period'}
            hint={probed ? 'Seconds between checks.' : 'Seconds between pings.'}
            value={draft.frequency}
            {...HEALTH_CHECK_BOUNDS.frequency}
            onChange={(value) => set('frequency', value)}
            onBlur={() => touch('frequency')}
            error={errorOf('frequency')}
          />
        </div>
        {probed ? (
          <div className="col-12 md:col-4">
            <TextField
              type="number"
              id={idOf('timeout')}
              label="Timeout"
              hint="Seconds, 1 to 15."
              value={draft.timeout}
              {...HEALTH_CHECK_BOUNDS.timeout}
              onChange={(value) => set('timeout', value)}
              onBlur={() => touch('timeout')}
              error={errorOf('timeout')}
            />
          </div>
        ) : (
          <div className="col-12 md:col-4">
            <TextField
              type="number"
              id={idOf('grace')}
              label="Grace"
              hint="Seconds of slack after the period."
              value={draft.grace}
              min={0}
              max={HEALTH_CHECK_BOUNDS.frequency.max}
              onChange={(value) => set('grace', value)}
              onBlur={() => touch('grace')}
              error={errorOf('grace')}
            />
          </div>
        )}
        {draft.kind === 'heartbeat' && (
          <>
            <div className="col-12 md:col-6">
              <TextField
                id={idOf('schedule')}
                label="Schedule"
                hint="Optional cron, 5 fields (e.g. 0 3 * * *): then late is counted from when the job was due."
                value={draft.schedule}
                onChange={(value) => set('schedule', value)}
                onBlur={() => touch('schedule')}
                error={errorOf('schedule')}
              />
            </div>
            <div className="col-12 md:col-6">
              <TextField
                id={idOf('time_zone')}
                label="Time zone"
                hint="Of the schedule, e.g. Europe/Berlin; empty: UTC."
                value={draft.time_zone}
                onChange={(value) => set('time_zone', value)}
                onBlur={() => touch('time_zone')}
                error={errorOf('time_zone')}
              />
            </div>
          </>
        )}
        <div className="col-12 md:col-4">
          <TextField
            type="number"
            id={idOf('allowed_failures')}
            label="Allowed failures"
            hint="Failures in a row before it fails."
            value={draft.allowed_failures}
            {...HEALTH_CHECK_BOUNDS.allowed_failures}
            onChange={(value) => set('allowed_failures', value)}
            onBlur={() => touch('allowed_failures')}
            error={errorOf('allowed_failures')}
          />
        </div>
        <div className="col-12 md:col-4">
          <TextField
            type="number"
            id={idOf('recover_after')}
            label="Successes to recover"
            hint="Passing runs in a row before a failing check is good again."
            value={draft.recover_after}
            {...RECOVER_AFTER_BOUNDS}
            onChange={(value) => set('recover_after', value)}
            onBlur={() => touch('recover_after')}
            error={errorOf('recover_after')}
          />
        </div>
        {probed && (
          <div className="col-12 md:col-8 flex align-items-center">
            <Switch
              id={idOf('retry')}
              label="Retry a network error once"
              checked={draft.retry}
              onChange={(value) => set('retry', value)}
            />
          </div>
        )}

        {probed && (
          <div className="col-12">
            <TextAreaField
              id={idOf('assertions')}
              label="Assertions"
              value={draft.assertions}
              rows={4}
              monospace
              hint={<AssertionsHint kind={draft.kind} />}
              onChange={(value) => set('assertions', value)}
              errors={assertionErrors.length > 0 ? assertionErrors : serverAssertionError ? [serverAssertionError] : []}
            />
          </div>
        )}
        {probed && (
          <div className="col-12 flex flex-column gap-2" aria-live="polite" aria-busy={test.isPending}>
            <div className="flex flex-wrap align-items-center gap-2">
              <Button
                type="button"
                label="Test"
                icon="pi pi-play"
                outlined
                loading={test.isPending}
                disabled={!testable}
                aria-describedby={`${idOf('test')}-hint`}
                onClick={() => test.mutate(draft)}
              />
              <small id={`${idOf('test')}-hint`} className="text-600">
                Runs the check once as it stands, saving nothing.
              </small>
            </div>
            {test.isError && (
              <small className="p-error" role="alert">
                {testFailureText(test.error)}
              </small>
            )}
            {test.data && !test.isPending && <TestResult result={test.data} />}
          </div>
        )}

        {saved && (
          <div className="col-12 flex flex-wrap gap-4">
            <Switch
              id={idOf('disabled')}
              label="Disabled"
              checked={draft.disabled}
              onChange={(value) => set('disabled', value)}
            />
            <Switch
              id={idOf('paused')}
              label="Paused"
              checked={draft.paused}
              onChange={(value) => set('paused', value)}
            />
          </div>
        )}
        {serverErrors.form && (
          <p className="col-12 m-0 p-error" role="alert">
            {serverErrors.form}
          </p>
        )}
      </form>
    </Dialog>
  );
}
