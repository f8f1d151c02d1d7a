import { queryOptions, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import type { MutedItem } from '../../contract/catalogue.js';
import { muteOperations } from '../../contract/operations/mutes.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useWrite } from '../local/local-provider.js';
import { changeMuteWrite, MUTE_OPTIONS, muteFlags, muteModeOf, unmuteWrite, type MuteMode } from './mute-writes.js';

export function getMutedQueryOptions(api: ApiClient, username: string) {
  return queryOptions({
    queryKey: keys.userMuted(username),
    queryFn: () => api.call(muteOperations.listMutes, { params: { username } }),
  });
}

function MutedRow({
  item,
  onMode,
  onUnmute,
}: {
  item: MutedItem;
  onMode: (mode: MuteMode) => void;
  onUnmute: () => void;
}) {
  const inputId = `muted-mode-${item.profile.id}`;
  const label = `Muted ${item.profile.name}`;
  return (
    <li className="flex flex-wrap align-items-center gap-3 py-3 border-bottom-1 surface-border">
      <div className="flex-1" style={{ minWidth: '12rem' }}>
        <div className="font-semibold">{item.profile.name}</div>
        <div className="text-600">{item.profile.description}</div>
      </div>
      <div className="flex align-items-center gap-2">
        <label htmlFor={inputId}>Muted</label>
        <Dropdown
          inputId={inputId}
          ariaLabel={label}
          value={muteModeOf(item)}
          options={MUTE_OPTIONS}
          onChange={(event) => onMode(event.value as MuteMode)}
          pt={{ select: { 'aria-label': label } }}
          className="w-10rem"
        />
      </div>
      <Button type="button" label="Unmute" outlined onClick={onUnmute} aria-label={`Unmute ${item.profile.name}`} />
    </li>
  );
}

/** The Muted tab (own profile only): each muted profile with its mode and Unmute, through the outbox. */
export function ProfileMuted({ handle }: { handle: string }) {
  const api = useApi();
  const write = useWrite();
  const { data, isPending } = useQuery(getMutedQueryOptions(api, handle));

  if (isPending) return <Spinner label="Loading muted profiles" />;
  const items = Array.isArray(data) ? data : [];
  if (items.length === 0) return <p className="text-600">You didn&apos;t muted any notifications</p>;
  const params = (item: MutedItem) => ({ username: handle, profile: item.profile.id });
  // A refused write is undone by the write path (the lists are read again).
  const ignore = () => undefined;
  return (
    <ul className="list-none p-0 m-0" aria-label="Muted profiles">
      {items.map((item) => (
        <MutedRow
          key={item.profile.id}
          item={item}
          onMode={(mode) =>
            void write(
              changeMuteWrite,
              { params: params(item), body: muteFlags(mode) },
              { label: `Mute ${item.profile.name}` },
            ).catch(ignore)
          }
          // Spec: unmuting removes the entry.
          onUnmute={() =>
            void write(unmuteWrite, { params: params(item) }, { label: `Unmute ${item.profile.name}` }).catch(ignore)
          }
        />
      ))}
    </ul>
  );
}
