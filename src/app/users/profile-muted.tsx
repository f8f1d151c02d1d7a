import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import type { ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { Spinner } from '../components/status-screens.js';
import { retryUnlessClientError } from './query-retry.js';

/** A muted entry (spec/catalogue.md section 3, Muted item). */
export interface MutedItem {
  profile: { id: string; name: string; description: string | null };
  activity: boolean;
  notifications: boolean;
}

export type MuteMode = 'all' | 'activity' | 'notifications';

export const MUTE_OPTIONS: Array<{ label: string; value: MuteMode }> = [
  { label: 'All', value: 'all' },
  { label: 'Activities', value: 'activity' },
  { label: 'Notifications', value: 'notifications' },
];

/** Spec catalogue 4: All mutes both, Activities only activity, Notifications only notifications. */
export function muteFlags(mode: MuteMode): { activity: boolean; notifications: boolean } {
  return { activity: mode !== 'notifications', notifications: mode !== 'activity' };
}

export function muteModeOf(item: { activity: boolean; notifications: boolean }): MuteMode | null {
  if (item.activity && item.notifications) return 'all';
  if (item.activity) return 'activity';
  if (item.notifications) return 'notifications';
  return null;
}

export function mutedPath(handle: string, profileId?: string): string {
  const base = `/users/${encodeURIComponent(handle)}/muted`;
  return profileId === undefined ? base : `${base}/${encodeURIComponent(profileId)}`;
}

export function getMutedQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: ['user', handle, 'muted'] as const,
    queryFn: () => api.get<MutedItem[]>(mutedPath(handle)),
    retry: retryUnlessClientError,
  });
}

function MutedRow({
  item,
  busy,
  onMode,
  onUnmute,
}: {
  item: MutedItem;
  busy: boolean;
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
          disabled={busy}
          onChange={(event) => onMode(event.value as MuteMode)}
          pt={{ select: { 'aria-label': label } }}
          className="w-10rem"
        />
      </div>
      <Button
        type="button"
        label="Unmute"
        outlined
        disabled={busy}
        onClick={onUnmute}
        aria-label={`Unmute ${item.profile.name}`}
      />
    </li>
  );
}

/** The Muted tab (own profile only): each muted profile with its mode and Unmute. */
export function ProfileMuted({ handle }: { handle: string }) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const options = getMutedQueryOptions(api, handle);
  const { data, isPending, isError } = useQuery(options);

  const update = useMutation({
    mutationFn: ({ item, mode }: { item: MutedItem; mode: MuteMode }) =>
      api.send<unknown>('PATCH', mutedPath(handle, item.profile.id), muteFlags(mode)),
    onSuccess: (_result, { item, mode }) => {
      queryClient.setQueryData(options.queryKey, (items) =>
        items?.map((current) =>
          current.profile.id === item.profile.id ? { ...current, ...muteFlags(mode) } : current,
        ),
      );
    },
  });
  const unmute = useMutation({
    mutationFn: (item: MutedItem) => api.send<unknown>('DELETE', mutedPath(handle, item.profile.id)),
    // Spec: unmuting removes the entry.
    onSuccess: (_result, item) => {
      queryClient.setQueryData(options.queryKey, (items) =>
        items?.filter((current) => current.profile.id !== item.profile.id),
      );
      void queryClient.invalidateQueries({ queryKey: ['user', handle, 'watched-services'] });
    },
  });

  if (isPending) return <Spinner label="Loading muted profiles" />;
  const items = isError || !Array.isArray(data) ? [] : data;
  if (items.length === 0) return <p className="text-600">You didn&apos;t muted any notifications</p>;
  const busyId =
    (update.isPending ? update.variables?.item.profile.id : undefined) ??
    (unmute.isPending ? unmute.variables?.profile.id : undefined);
  return (
    <ul className="list-none p-0 m-0" aria-label="Muted profiles">
      {items.map((item) => (
        <MutedRow
          key={item.profile.id}
          item={item}
          busy={busyId === item.profile.id}
          onMode={(mode) => update.mutate({ item, mode })}
          onUnmute={() => unmute.mutate(item)}
        />
      ))}
    </ul>
  );
}
