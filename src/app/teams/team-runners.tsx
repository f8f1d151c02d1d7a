import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { DialogFooter } from '../components/dialog-footer.js';
import { InputTextarea } from 'primereact/inputtextarea';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { runnerCreate, type Runner } from '../../contract/clients.js';
import { runnerOperations } from '../../contract/operations/runners.js';
import { ApiError } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { TextField, handleTyping, useShownErrors } from '../components/form.js';
import { RowActions } from '../components/row-actions.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import { teamCrumbs } from './teams-api.js';
import { teamPath } from '../routing/paths.js';
import { getTeamRunnersQueryOptions } from '../api/shared-queries.js';

/** Spec catalogue 8: the error toast when a runner a health check names is deleted. */
export const RUNNER_LINKED = 'Runner is currently linked to a healthcheck';

const STATUS_LABELS: Record<Runner['sync_status'], string> = { never: 'Never synced', ok: 'OK', error: 'Error' };

export const runnerStatusLabel = (status: Runner['sync_status']): string => STATUS_LABELS[status];

/** Last Sync as the lists show times ('MMM D, hh:mm a'), or a dash before the first. */
export function lastSyncLabel(lastSync: string | null): string {
  return lastSync ? dayjs(lastSync).format('MMM D, hh:mm a') : '-';
}

/**
 * The Add Runner / Edit Runner dialog (spec 2.3 and 5: name and description required; the handle only when
 * adding, made from the name by the server when left empty). It closes on a successful submit, and when the
 * runner list changes.
 */
function RunnerDialog({
  team,
  runner,
  runners,
  onClose,
}: {
  team: Team;
  runner: Runner | null;
  runners: Runner[] | undefined;
  onClose(): void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [name, setName] = useState(runner?.name ?? '');
  const [description, setDescription] = useState(runner?.description ?? '');
  const [handle, setHandle] = useState('');
  // Spec 5's words; the rules are the contract's.
  const errors = {
    name: runnerCreate.shape.name.safeParse(name).success ? null : 'Name is required',
    description: runnerCreate.shape.description.safeParse(description).success ? null : 'Description is required',
  };
  const { shown, touch, attempt, valid } = useShownErrors(errors);

  // The list changing under the dialog (another tab, a refetch after a save) closes it.
  const opened = useRef(runners);
  useEffect(() => {
    if (runners !== opened.current) onClose();
  }, [runners, onClose]);

  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), description: description.trim() };
      return runner
        ? api.call(runnerOperations.updateRunner, { params: { team: team.handle, runner: runner.handle }, body })
        : api.call(runnerOperations.createRunner, {
            params: { team: team.handle },
            body: { ...body, ...(handle ? { handle } : {}) },
          });
    },
    onSuccess: () => {
      enqueue(runner ? 'Team Runner Updated' : 'Team Runner Created');
      void queryClient.invalidateQueries({ queryKey: keys.teamRunners(team.handle) });
      onClose();
    },
  });
  const failure =
    save.error instanceof ApiError ? save.error.firstError() : save.error ? 'The runner could not be saved' : null;

  return (
    <Dialog
      header={runner ? 'Edit Runner' : 'Add Runner'}
      visible
      onHide={onClose}
      style={{ width: '30rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={save.isPending}
          submitLabel={runner ? 'Save' : 'Add'}
          formId="runner-form"
        />
      }
    >
      <form
        id="runner-form"
        className="flex flex-column gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          attempt();
          if (valid && !save.isPending) save.mutate();
        }}
      >
        <TextField
          id="runner-name"
          label="Name"
          value={name}
          onChange={(value) => {
            setName(value);
            touch('name');
          }}
          error={shown('name')}
        />
        <div className="flex flex-column gap-1">
          <label htmlFor="runner-description">Description</label>
          <InputTextarea
            id="runner-description"
            rows={3}
            value={description}
            onChange={(event) => {
              setDescription(event.target.value);
              touch('description');
            }}
            className={shown('description') ? 'p-invalid' : undefined}
            aria-invalid={shown('description') ? true : undefined}
            aria-describedby={shown('description') ? 'runner-description-error' : undefined}
          />
          {shown('description') && (
            <small id="runner-description-error" className="p-error">
              {shown('description')}
            </small>
          )}
        </div>
        {!runner && (
          <TextField
            id="runner-handle"
            label="Handle"
            value={handle}
            onChange={(value) => setHandle(handleTyping(value))}
            hint="Unique in the workspace; made from the name when left empty. Health checks name the runner by it."
          />
        )}
        {failure && (
          <small role="alert" className="p-error">
            {failure}
          </small>
        )}
      </form>
    </Dialog>
  );
}

/** The runners table with Add Runner and, for team admins, each row's actions (Edit Runner, Delete Runner). */
export function RunnersPanel({ team }: { team: Team }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const { data, isPending } = useQuery(getTeamRunnersQueryOptions(api, team.handle));
  const [dialog, setDialog] = useState<{ runner: Runner | null } | null>(null);

  const remove = useMutation({
    mutationFn: (runner: Runner) =>
      api.call(runnerOperations.deleteRunner, { params: { team: team.handle, runner: runner.handle } }),
    onSuccess: () => {
      enqueue('Team Runner Removed');
      void queryClient.invalidateQueries({ queryKey: keys.teamRunners(team.handle) });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) enqueue(RUNNER_LINKED, 'error');
    },
  });

  if (isPending) return <Spinner label="Loading runners" />;
  const runners = data ?? [];
  return (
    <div className="flex flex-column gap-3">
      {team.is_admin && (
        <div className="flex justify-content-end">
          <Button type="button" label="Add Runner" icon="pi pi-plus" onClick={() => setDialog({ runner: null })} />
        </div>
      )}
      <DataTable
        value={runners}
        dataKey="id"
        emptyMessage="No Runners"
        // On a phone the table scrolls sideways in its wrapper, which a keyboard must be able to reach (axe).
        pt={{ table: { 'aria-label': 'Runners' }, wrapper: { tabIndex: 0, role: 'region', 'aria-label': 'Runners' } }}
      >
        <Column header="Name" field="name" />
        <Column header="Description" field="description" />
        <Column header="Handle" field="handle" />
        <Column header="Status" body={(runner: Runner) => runnerStatusLabel(runner.sync_status)} />
        <Column header="Last Sync" body={(runner: Runner) => lastSyncLabel(runner.last_sync)} />
        {team.is_admin && (
          <Column
            header={<span className="p-hidden-accessible">Actions</span>}
            body={(runner: Runner) => (
              <RowActions
                id={`runner-actions-${runner.id}`}
                name={runner.name}
                items={[
                  { label: 'Edit Runner', icon: 'pi pi-pencil', command: () => setDialog({ runner }) },
                  { label: 'Delete Runner', icon: 'pi pi-trash', command: () => remove.mutate(runner) },
                ]}
                disabled={remove.isPending && remove.variables?.id === runner.id}
              />
            )}
            style={{ width: '4rem' }}
          />
        )}
      </DataTable>
      {dialog && <RunnerDialog team={team} runner={dialog.runner} runners={data} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** The Runners card of team Settings, linking to the Runners page. */
export function TeamRunnersCard({ team }: { team: Team }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Runners</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">
          Runners run this team&apos;s health checks inside its own network.{' '}
          <Link to={`${teamPath(team.handle)}/runners`}>Open the Runners page</Link>
        </p>
        <RunnersPanel team={team} />
      </div>
    </Card>
  );
}

/** The Runners page at /teams/{id}/runners (breadcrumb Runners). */
export function TeamRunnersPage({ team }: { team: Team }) {
  useBreadcrumb(teamCrumbs(team, 'Runners'));
  return <RunnersPanel team={team} />;
}
