import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { InputSwitch } from 'primereact/inputswitch';
import type { ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { Spinner } from '../components/status-screens.js';
import { mutedPath } from './profile-muted.js';
import { retryUnlessClientError } from './query-retry.js';

/** A watched service entry (spec/platform.md section 3). */
export interface WatchedService {
  service: { id: string; name: string };
  muted: boolean;
}

/** Spec section 3: the default muted body mutes both. */
export const MUTE_ALL = { activity: true, notifications: true } as const;

export function getWatchedServicesQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['user', handle, 'watched-services'] as const,
    queryFn: () => api.get<WatchedService[]>(`/users/${encodeURIComponent(handle)}/services`),
    retry: retryUnlessClientError,
  });
}

/** Watched services with a 'Mute Service' switch each (spec/platform.md section 2, "Watched services"). */
export function WatchedServices({ handle }: { handle: string }) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const options = getWatchedServicesQueryOptions(api, handle);
  const { data, isPending, isError } = useQuery(options);
  const toggle = useMutation({
    mutationFn: ({ entry, muted }: { entry: WatchedService; muted: boolean }) =>
      muted
        ? api.send<unknown>('PUT', mutedPath(handle, entry.service.id), MUTE_ALL)
        : api.send<unknown>('DELETE', mutedPath(handle, entry.service.id)),
    onSuccess: (_result, { entry, muted }) => {
      queryClient.setQueryData(options.queryKey, (entries) =>
        entries?.map((current) => (current.service.id === entry.service.id ? { ...current, muted } : current)),
      );
      void queryClient.invalidateQueries({ queryKey: ['user', handle, 'muted'] });
    },
    // Spec: failures only set an error flag; the switch keeps the state the list gave it.
  });

  const entries = isError || !Array.isArray(data) ? [] : data;
  const busyId = toggle.isPending ? toggle.variables?.entry.service.id : undefined;
  return (
    <Card
      title={<h2 className="text-xl font-semibold m-0">Watched Services</h2>}
      subTitle="Mute the notification for your watched services"
    >
      {isPending ? (
        <Spinner label="Loading watched services" />
      ) : entries.length === 0 ? (
        <p className="m-0 text-600">No watched services</p>
      ) : (
        <ul className="list-none p-0 m-0" aria-label="Watched services">
          {entries.map((entry) => {
            const inputId = `mute-service-${entry.service.id}`;
            return (
              <li key={entry.service.id} className="flex align-items-center gap-3 py-2 border-bottom-1 surface-border">
                <span className="flex-1 font-semibold">{entry.service.name}</span>
                <label htmlFor={inputId}>Mute Service</label>
                <InputSwitch
                  inputId={inputId}
                  checked={entry.muted}
                  disabled={busyId === entry.service.id}
                  onChange={(event) => toggle.mutate({ entry, muted: Boolean(event.value) })}
                  aria-label={`Mute Service ${entry.service.name}`}
                  pt={{ root: { role: 'none', 'aria-checked': undefined, 'aria-label': undefined } }}
                />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
