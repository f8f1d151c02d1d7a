import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ProfileRef, Service } from '../../contract/catalogue.js';
import type { DependencyItem } from '../../contract/dependencies.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { dependencyOperations } from '../../contract/operations/dependencies.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { servicePath } from '../routing/paths.js';
import { HealthStatus } from '../services/index.js';
import { useSnackbar } from '../components/snackbars.js';
import { getDependenciesQueryOptions, getDependentsQueryOptions } from './dependencies-api.js';

/** Spec catalogue 10: the dependency toasts, as the product writes them. */
export const DEPENDENCY_ADDED = 'Service dependency added';
export const DEPENDENCY_REMOVED = 'Service dependency Removed';
export const DEPENDENCY_ADD_FAILED = 'There was an error adding your dependency';
export const DEPENDENCY_REMOVE_FAILED = 'Failed to remove dependency';

/** The services matching a search, without the service itself (spec: search excludes the current service). */
export function dependencyCandidates(found: readonly ProfileRef[], current: string): ProfileRef[] {
  return found.filter((service) => service.handle !== current);
}

/**
 * A list of services with their health; spec: a load failure sets an error flag and empties the list, so what
 * shows then is the empty text, with a line saying the list could not be loaded.
 */
function DependencyList({
  label,
  items,
  failed,
  emptyText,
  onRemove,
}: {
  label: string;
  items: readonly DependencyItem[];
  failed: boolean;
  emptyText: string;
  onRemove?: (item: DependencyItem) => void;
}) {
  if (items.length === 0) {
    return (
      <>
        {failed && <p className="m-0 mb-2 p-error">The list could not be loaded.</p>}
        <p className="m-0 text-600">{emptyText}</p>
      </>
    );
  }
  return (
    <ul className="list-none p-0 m-0 flex flex-column gap-2" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="flex align-items-center gap-2">
          <span aria-hidden="true">
            <ProfileAvatar name={item.name} url={item.thumbnail_url} />
          </span>
          <Link
            to={servicePath(item.handle)}
            className="flex-1 white-space-nowrap overflow-hidden text-overflow-ellipsis"
          >
            {item.name}
          </Link>
          <HealthStatus health={item.health} />
          {onRemove && (
            <Button
              type="button"
              icon="pi pi-times"
              text
              rounded
              severity="secondary"
              aria-label={`Remove ${item.name}`}
              onClick={() => onRemove(item)}
            />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The dependency dialog: a debounced search over the services the user can see, the current one left out. */
function AddDependencyDialog({ service, onClose }: { service: Service; onClose(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [value, setValue] = useState<ProfileRef | string>('');
  const picked = chosenProfile(value);
  const add = useMutation({
    mutationFn: (dependency: ProfileRef) =>
      api.call(dependencyOperations.addDependency, {
        params: { service: service.handle },
        body: { service: { id: dependency.handle } },
      }),
    onSuccess: (added) => {
      enqueue(DEPENDENCY_ADDED);
      void queryClient.invalidateQueries({ queryKey: keys.serviceDependencies(service.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceDependents(added.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceGraphs(service.handle) });
      onClose();
    },
    onError: () => enqueue(DEPENDENCY_ADD_FAILED, 'error'),
  });
  return (
    <PickerDialog
      header="Add Dependency"
      onClose={onClose}
      pending={add.isPending}
      disabled={!picked}
      onSubmit={() => picked && add.mutate(picked)}
      label="Service"
      inputId="add-dependency-service"
    >
      <ProfileSearch
        inputId="add-dependency-service"
        value={value}
        onChange={setValue}
        placeholder="Search services"
        search={async (q) =>
          dependencyCandidates(
            await api.call(autocompleteOperations.autocompleteServices, { query: { q } }),
            service.handle,
          )
        }
        autoFocus
      />
    </PickerDialog>
  );
}

/** A dependency card's title, with its Add button when the viewer may edit (`onAdd` given). */
export function DependencyCardTitle({ title, addLabel, onAdd }: { title: string; addLabel?: string; onAdd?(): void }) {
  return (
    <div className="flex align-items-center justify-content-between gap-2 flex-wrap">
      <h2 className="text-xl font-semibold m-0">{title}</h2>
      {onAdd && <Button type="button" label={addLabel} icon="pi pi-plus" outlined onClick={onAdd} />}
    </div>
  );
}

/** The overview's Dependencies card (spec/catalogue.md 2.1): editors add and remove; everyone who sees reads. */
export function DependenciesCard({ service }: { service: Service }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [adding, setAdding] = useState(false);
  const { data, isError } = useQuery(getDependenciesQueryOptions(api, service.handle));
  // A managed service's dependencies are its file's (docs/decisions.md#catalogue-as-code).
  const editable = service.permissions.edit && !service.managed_by;
  const remove = useMutation({
    mutationFn: (item: DependencyItem) =>
      api.call(dependencyOperations.removeDependency, {
        params: { service: service.handle, dependency: item.handle },
      }),
    onSuccess: (_none, item) => {
      enqueue(DEPENDENCY_REMOVED);
      void queryClient.invalidateQueries({ queryKey: keys.serviceDependencies(service.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceDependents(item.handle) });
      void queryClient.invalidateQueries({ queryKey: keys.serviceGraphs(service.handle) });
    },
    onError: () => enqueue(DEPENDENCY_REMOVE_FAILED, 'error'),
  });
  return (
    <Card
      title={
        <DependencyCardTitle
          title="Dependencies"
          addLabel="Add Dependency"
          {...(editable ? { onAdd: () => setAdding(true) } : {})}
        />
      }
    >
      <DependencyList
        label="Dependencies"
        items={data ?? []}
        failed={isError && !data}
        emptyText="No Dependencies"
        {...(editable ? { onRemove: (item: DependencyItem) => remove.mutate(item) } : {})}
      />
      {adding && <AddDependencyDialog service={service} onClose={() => setAdding(false)} />}
    </Card>
  );
}

/** The overview's Dependents card: the services that depend on this one, read only. */
export function DependentsCard({ service }: { service: Service }) {
  const api = useApi();
  const { data, isError } = useQuery(getDependentsQueryOptions(api, service.handle));
  return (
    <Card title={<DependencyCardTitle title="Dependents" />}>
      <DependencyList label="Dependents" items={data ?? []} failed={isError && !data} emptyText="No Dependents" />
    </Card>
  );
}
