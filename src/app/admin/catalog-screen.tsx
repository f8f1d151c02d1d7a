import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { InputText } from 'primereact/inputtext';
import { SelectButton } from 'primereact/selectbutton';
import { Tag } from 'primereact/tag';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { CatalogEntity, CatalogPlanAnswer, CatalogSource } from '../../contract/catalog.js';
import type { SourceMode } from '../../domain/catalog-plan.js';
import type { DescriptorFile } from '../../domain/descriptors.js';
import { ApiError } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { LinkButton } from '../components/link-button.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { useOnline } from '../components/use-online.js';
import { ListPaginator } from '../components/list-paginator.js';
import { Spinner } from '../components/status-screens.js';
import { servicePath, teamPath } from '../routing/paths.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import {
  applyPlan,
  CATALOG_PATH,
  createSource,
  deleteSource,
  ENTITIES_PAGE_SIZE,
  forgetCatalogue,
  getEntitiesQueryOptions,
  getSourcesQueryOptions,
  planFiles,
  readPickedFiles,
  syncSource,
  type EntityFilter,
} from './catalog-api.js';
import { PlanView } from './catalog-plan-view.js';
import { fromNow } from '../components/from-now.js';

export const CATALOG_INTRO =
  'Describe services and teams in Backstage descriptor files (catalog-info.yaml) next to their code. A plan shows ' +
  'what the files would change before anything does.';
const NO_SOURCE = 'none';
const MODE_LABELS: Record<SourceMode, string> = { authoritative: 'Authoritative', seed: 'Seed' };
const MODE_HELP: Record<SourceMode, string> = {
  authoritative: 'The files win: what they say is read-only in Beacon',
  seed: 'Created once from the files, then edited in Beacon',
};
const STATE_LABELS: Record<CatalogEntity['state'], { label: string; severity: 'success' | 'danger' | 'warning' }> = {
  synced: { label: 'Synced', severity: 'success' },
  errored: { label: 'Errored', severity: 'danger' },
  orphaned: { label: 'Orphaned', severity: 'warning' },
  conflict: { label: 'Conflict', severity: 'warning' },
};
const FILTERS: Array<{ label: string; value: EntityFilter }> = [
  { label: 'All', value: 'all' },
  { label: 'Errored', value: 'errored' },
  { label: 'Orphaned', value: 'orphaned' },
  { label: 'Conflict', value: 'conflict' },
];

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.firstError() : fallback);
const ago = (iso: string) => <time dateTime={iso}>{fromNow(iso)}</time>;

/** The admin overview's card. */
export function CatalogCard() {
  return (
    <Card className="h-full" title={<h2 className="text-xl font-semibold m-0">Catalogue as code</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">Import and sync services and teams from Backstage descriptor files.</p>
        <div>
          <LinkButton to={CATALOG_PATH} icon="pi pi-file-import" label="Manage the catalogue as code" />
        </div>
      </div>
    </Card>
  );
}

/** Upload files, see the plan as a diff, apply it. */
function PlanCard({ sources }: { sources: CatalogSource[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [files, setFiles] = useState<DescriptorFile[]>([]);
  const [source, setSource] = useState(NO_SOURCE);
  const [plan, setPlan] = useState<CatalogPlanAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const planning = useMutation({
    mutationFn: () => planFiles(api, files, source === NO_SOURCE ? null : source),
    onMutate: () => setError(null),
    onSuccess: setPlan,
    onError: (failure) => setError(messageOf(failure, 'The files could not be planned')),
  });
  const applying = useMutation({
    mutationFn: (id: string) => applyPlan(api, id),
    onSuccess: (applied) => {
      const { create, update, delete: deleted } = applied.counts;
      enqueue(`Plan applied: ${create} created, ${update} updated, ${deleted} deleted`);
      setPlan(null);
      forgetCatalogue(queryClient);
    },
    onError: (failure) => setError(messageOf(failure, 'The plan could not be applied')),
  });
  const uploadSources = sources.filter((s) => s.url === null);
  const options = [
    { label: 'No source: create and update only', value: NO_SOURCE },
    ...uploadSources.map((s) => ({ label: `${s.name} (${MODE_LABELS[s.mode].toLowerCase()})`, value: s.id })),
  ];
  const doing = plan ? plan.counts.create + plan.counts.update + plan.counts.delete : 0;
  const online = useOnline();
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Plan and apply files</h2>}>
      <div className="flex flex-column gap-3">
        <div className="flex flex-column gap-2">
          <label htmlFor="catalog-files" className="font-semibold">
            Descriptor files
          </label>
          <input
            id="catalog-files"
            type="file"
            multiple
            accept=".yaml,.yml,.json"
            aria-describedby="catalog-files-help"
            onChange={(event) => {
              const picked = event.currentTarget.files;
              setPlan(null);
              void readPickedFiles(picked ?? []).then(setFiles);
            }}
          />
          <small id="catalog-files-help" className="text-600">
            {files.length > 0
              ? `${files.length} ${files.length === 1 ? 'file' : 'files'}: ${files.map((f) => f.path).join(', ')}`
              : 'catalog-info.yaml and the files its Locations name'}
          </small>
        </div>
        <div className="flex flex-column gap-2">
          <LabelledSelect
            id="catalog-plan-source"
            label="Apply as"
            value={source}
            options={options}
            onChange={(value) => {
              setSource(value);
              setPlan(null);
            }}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            label="Plan"
            icon="pi pi-list-check"
            disabled={files.length === 0 || !online}
            loading={planning.isPending}
            onClick={() => planning.mutate()}
          />
          {plan && (
            <>
              <Button
                label="Apply plan"
                icon="pi pi-check"
                disabled={doing === 0 || !online}
                loading={applying.isPending}
                onClick={() => applying.mutate(plan.id)}
              />
              <Button label="Discard" severity="secondary" text onClick={() => setPlan(null)} />
            </>
          )}
        </div>
        {!online && <p className="m-0 text-700">Planning and applying need the network.</p>}
        {error && (
          <p className="m-0 p-error" role="alert">
            {error}
          </p>
        )}
        {plan && <PlanView plan={plan} />}
      </div>
    </Card>
  );
}

function SourceItem({ source }: { source: CatalogSource }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const sync = useMutation({
    mutationFn: () => syncSource(api, source.id),
    onSuccess: (synced) => {
      enqueue(
        synced.last_sync?.status === 'failed' ? `Sync failed: ${synced.last_sync.error ?? ''}` : 'Synced',
        synced.last_sync?.status === 'failed' ? 'error' : undefined,
      );
      forgetCatalogue(queryClient);
    },
    onError: (failure) => enqueue(messageOf(failure, 'The source could not be synced'), 'error'),
  });
  const remove = useMutation({
    mutationFn: () => deleteSource(api, source.id),
    onSuccess: () => {
      setConfirming(false);
      enqueue('Source was deleted: Beacon owns its entities now');
      forgetCatalogue(queryClient);
    },
    onError: (failure) => enqueue(messageOf(failure, 'The source could not be deleted'), 'error'),
  });
  const last = source.last_sync;
  const counts = source.entities;
  return (
    <li className="surface-card border-round shadow-1 p-3 flex flex-column gap-2">
      <div className="flex flex-wrap align-items-center gap-2">
        <h3 className="text-lg font-semibold m-0 beacon-editor-wrap">{source.name}</h3>
        <Tag
          value={MODE_LABELS[source.mode]}
          severity={source.mode === 'authoritative' ? 'info' : 'secondary'}
          title={MODE_HELP[source.mode]}
        />
      </div>
      <p className="m-0 text-700 beacon-editor-wrap">
        {source.url ? (
          <>
            {source.url} · every {source.interval_minutes} minutes{source.token ? ' · with a token' : ''}
          </>
        ) : (
          'Uploaded files'
        )}
      </p>
      <p className="m-0">
        {last === null ? (
          'Never synced'
        ) : last.status === 'failed' ? (
          <span className="p-error">
            Sync failed {ago(last.at)}: {last.error}
          </span>
        ) : (
          <>
            {last.status === 'unchanged' ? 'Unchanged' : 'Synced'} {ago(last.at)}
          </>
        )}
      </p>
      <p className="m-0 text-700">
        {counts.synced} synced · {counts.errored} errored · {counts.orphaned} orphaned · {counts.conflict} in conflict
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          label="Sync now"
          icon="pi pi-sync"
          size="small"
          outlined
          disabled={!source.url && last === null}
          loading={sync.isPending}
          onClick={() => sync.mutate()}
          aria-label={`Sync ${source.name} now`}
        />
        <ConfirmDelete
          label="Delete source"
          question={`Delete the source ${source.name}? Its services and teams stay, and Beacon owns them from then on.`}
          open={confirming}
          onOpenChange={setConfirming}
          pending={remove.isPending}
          onDelete={() => remove.mutate()}
        />
      </div>
    </li>
  );
}

function AddSourceForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [mode, setMode] = useState<SourceMode>('authoritative');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () =>
      createSource(api, {
        name: name.trim(),
        mode,
        interval_minutes: 60,
        ...(url.trim() ? { url: url.trim() } : {}),
        ...(url.trim() && token ? { token } : {}),
      }),
    onSuccess: () => {
      enqueue('Source was added');
      setName('');
      setUrl('');
      setToken('');
      setError(null);
      forgetCatalogue(queryClient);
    },
    onError: (failure) => setError(messageOf(failure, 'The source could not be added')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="flex flex-column gap-3" onSubmit={submit} aria-label="Add source">
      <h3 className="text-lg font-semibold m-0">Add source</h3>
      <div className="flex flex-column gap-2">
        <label htmlFor="catalog-source-name" className="font-semibold">
          Name
        </label>
        <InputText id="catalog-source-name" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="flex flex-column gap-2">
        <label htmlFor="catalog-source-url" className="font-semibold">
          URL (optional)
        </label>
        <InputText
          id="catalog-source-url"
          value={url}
          type="url"
          placeholder="https://git.example.com/raw/main/catalog-info.yaml"
          aria-describedby="catalog-source-url-help"
          onChange={(e) => setUrl(e.target.value)}
        />
        <small id="catalog-source-url-help" className="text-600">
          Synced every hour and on demand; without one, the source is the files you apply as it.
        </small>
      </div>
      {url.trim() && (
        <div className="flex flex-column gap-2">
          <label htmlFor="catalog-source-token" className="font-semibold">
            Token (optional)
          </label>
          <InputText
            id="catalog-source-token"
            value={token}
            type="password"
            autoComplete="off"
            aria-describedby="catalog-source-token-help"
            onChange={(e) => setToken(e.target.value)}
          />
          <small id="catalog-source-token-help" className="text-600">
            Sent to the URL&apos;s host as Authorization: Bearer, kept sealed and never shown again. Keep credentials
            out of the URL itself.
          </small>
        </div>
      )}
      <div className="flex flex-column gap-2">
        <LabelledSelect
          id="catalog-source-mode"
          label="Mode"
          value={mode}
          options={(['authoritative', 'seed'] as const).map((m) => ({
            label: `${MODE_LABELS[m]}: ${MODE_HELP[m]}`,
            value: m,
          }))}
          onChange={setMode}
        />
      </div>
      {error && (
        <p className="m-0 p-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" label="Add source" icon="pi pi-plus" disabled={!name.trim()} loading={add.isPending} />
      </div>
    </form>
  );
}

function SourcesCard({ sources }: { sources: CatalogSource[] }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Sources</h2>}>
      <div className="flex flex-column gap-4">
        {sources.length === 0 ? (
          <p className="m-0 text-700">No sources yet. Files applied without a source create and update only.</p>
        ) : (
          <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Sources">
            {sources.map((source) => (
              <SourceItem key={source.id} source={source} />
            ))}
          </ul>
        )}
        <AddSourceForm />
      </div>
    </Card>
  );
}

function EntityItem({ entity }: { entity: CatalogEntity }) {
  const state = STATE_LABELS[entity.state];
  const to =
    entity.entity && (entity.kind === 'service' ? servicePath(entity.entity.handle) : teamPath(entity.entity.handle));
  return (
    <li className="py-2 flex flex-column gap-1 beacon-plan-change">
      <div className="flex flex-wrap align-items-center gap-2">
        <Tag value={state.label} severity={state.severity} />
        <span className="font-semibold beacon-editor-wrap">
          {entity.kind} {to ? <Link to={to}>{entity.handle}</Link> : entity.handle}
        </span>
        <span className="text-600 text-sm">
          in {entity.source.name} · since {ago(entity.since)}
        </span>
      </div>
      {entity.reason && <p className="m-0 text-700 text-sm beacon-editor-wrap">{entity.reason}</p>}
      {entity.path && (
        <code className="text-600 text-sm beacon-editor-wrap">
          {entity.path}:{entity.line}
        </code>
      )}
      {entity.removed_at && (
        <p className="m-0 text-700 text-sm">
          Removed {dayjs(entity.removed_at).format('D MMM YYYY HH:mm')} unless a file describes it again
        </p>
      )}
    </li>
  );
}

/** What the sources describe that is not synced, and why: for every admin to see, not only in a log. */
function NotInSyncCard() {
  const api = useApi();
  const [filter, setFilter] = useState<EntityFilter>('all');
  const [cursor, setCursor] = useState(0);
  const query = useQuery(getEntitiesQueryOptions(api, filter, cursor));
  const items = query.data?.items ?? [];
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Not in sync</h2>}>
      <div className="flex flex-column gap-3">
        <SelectButton
          value={filter}
          options={FILTERS}
          allowEmpty={false}
          aria-label="Show"
          onChange={(event) => {
            setFilter(event.value as EntityFilter);
            setCursor(0);
          }}
        />
        {query.isPending ? (
          <Spinner label="Loading entities" />
        ) : query.data === undefined ? (
          <p className="m-0 p-error" role="alert">
            The entities could not be loaded
          </p>
        ) : items.length === 0 ? (
          <p className="m-0 text-700">Everything the sources describe is in sync.</p>
        ) : (
          <ul className="list-none p-0 m-0" aria-label="Entities not in sync">
            {items.map((entity) => (
              <EntityItem key={`${entity.source.id}:${entity.kind}:${entity.handle}`} entity={entity} />
            ))}
          </ul>
        )}
        <ListPaginator page={{ cursor, limit: ENTITIES_PAGE_SIZE }} total={query.data?.total ?? 0} onPage={setCursor} />
      </div>
    </Card>
  );
}

/** /admin/catalog: plan and apply descriptor files, the sources, and what is not in sync. */
export function CatalogScreen() {
  useBreadcrumb({ name: 'Admin', to: '/admin', crumbs: [{ label: 'Catalogue as code' }] });
  const api = useApi();
  const sources = useQuery(getSourcesQueryOptions(api));
  const state = loadStateOf(sources);
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">Catalogue as code</h1>
      <p className="m-0 text-700 beacon-status-admin-measure">{CATALOG_INTRO}</p>
      <LastSynced query={sources} />
      {state === 'pending' ? (
        <Spinner label="Loading sources" />
      ) : state === 'offline' ? (
        <NotAvailableOffline />
      ) : sources.data === undefined ? (
        <p className="m-0 p-error" role="alert">
          The sources could not be loaded
        </p>
      ) : (
        <>
          <PlanCard sources={sources.data} />
          <SourcesCard sources={sources.data} />
        </>
      )}
      <NotInSyncCard />
    </div>
  );
}
