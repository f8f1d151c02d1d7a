import { queryOptions, useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { InputSwitch } from 'primereact/inputswitch';
import { watchedServiceOperations } from '../../contract/operations/watched-services.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useWrite } from '../local/local-provider.js';
import { MUTE_ALL, muteWrite, unmuteWrite } from './mute-writes.js';

export function getWatchedServicesQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userWatched(username),
    queryFn: () => api.call(watchedServiceOperations.listWatchedServices, { params: { username } }),
  });
}

/** Watched services with a 'Mute Service' switch each (spec/platform.md section 2, "Watched services"). */
export function WatchedServices({ handle }: { handle: string }) {
  const api = useApi();
  const write = useWrite();
  const { data, isPending } = useQuery(getWatchedServicesQueryOptions(api, handle));
  // Through the outbox: the switch moves at once; a refused write is undone by the write path.
  const toggle = (service: { id: string; name: string }, muted: boolean) => {
    const params = { username: handle, profile: service.id };
    const made = muted
      ? write(muteWrite, { params, body: MUTE_ALL }, { label: `Mute ${service.name}` })
      : write(unmuteWrite, { params }, { label: `Unmute ${service.name}` });
    void made.catch(() => undefined);
  };
  const entries = Array.isArray(data) ? data : [];
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
                  onChange={(event) => toggle(entry.service, Boolean(event.value))}
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
