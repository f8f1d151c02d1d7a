import type { QueryKey } from '@tanstack/react-query';
import type { MutedItem, WatchedService } from '../../contract/catalogue.js';
import type { FeedEvent } from '../../contract/feeds.js';
import { muteOperations } from '../../contract/operations/mutes.js';
import { keys } from '../api/query-keys.js';
import { isQueryKey, writeKind } from '../local/writes.js';

/**
 * Mutes go through the outbox (docs/decisions.md#feeds): muting from the Watched Services switch or a feed item,
 * changing what is muted on the Muted tab, and unmuting, each shown at once and sent when the app is online.
 */

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

/** Spec section 3: the default muted body mutes both. */
export const MUTE_ALL = { activity: true, notifications: true } as const;

interface MuteInput {
  params: { username: string; profile: string };
}

/** The watched list with the service's switch set, or the data as it is when it is not that list. */
function watchedWith(queryKey: QueryKey, data: unknown, { params }: MuteInput, muted: boolean): unknown {
  if (!isQueryKey(queryKey, keys.userWatched(params.username)) || !Array.isArray(data)) return data;
  const list = data as WatchedService[];
  const entry = list.find((item) => item.service.id === params.profile);
  if (!entry || entry.muted === muted) return data;
  return list.map((item) => (item === entry ? { ...item, muted } : item));
}

/** The muted list with the profile's flags changed (`null` takes it out). */
function mutedWith(
  queryKey: QueryKey,
  data: unknown,
  { params }: MuteInput,
  flags: { activity?: boolean; notifications?: boolean } | null,
): unknown {
  if (!isQueryKey(queryKey, keys.userMuted(params.username)) || !Array.isArray(data)) return data;
  const list = data as MutedItem[];
  const entry = list.find((item) => item.profile.id === params.profile);
  if (!entry) return data;
  if (flags === null) return list.filter((item) => item !== entry);
  const next = { ...entry, ...flags };
  if (next.activity === entry.activity && next.notifications === entry.notifications) return data;
  return list.map((item) => (item === entry ? next : item));
}

/** The user's own feed without the profile's events, when it is muted for activity (docs/decisions.md#feeds). */
function feedWithout(queryKey: QueryKey, data: unknown, { params }: MuteInput, activity: boolean | undefined): unknown {
  if (!activity || !isQueryKey(queryKey, keys.userFeed(params.username)) || !Array.isArray(data)) return data;
  const events = data as FeedEvent[];
  const kept = events.filter((event) => event.profile.id !== params.profile);
  return kept.length === events.length ? data : kept;
}

/** Once settled, the lists and the feed are read again (a new mute's profile details come from the server). */
const muteLists = ({ params }: MuteInput): QueryKey[] => [
  keys.userMuted(params.username),
  keys.userWatched(params.username),
  keys.userFeed(params.username),
];

export const muteWrite = writeKind({
  kind: 'mute',
  operation: muteOperations.muteProfile,
  overlay: (queryKey, data, input) => {
    const flags = input.body ?? MUTE_ALL;
    // A PUT's flags default to true.
    const shown = feedWithout(queryKey, watchedWith(queryKey, data, input, true), input, flags.activity !== false);
    return mutedWith(queryKey, shown, input, flags);
  },
  invalidates: muteLists,
});

export const changeMuteWrite = writeKind({
  kind: 'change-mute',
  operation: muteOperations.updateMute,
  overlay: (queryKey, data, input) =>
    mutedWith(queryKey, feedWithout(queryKey, data, input, input.body?.activity), input, input.body ?? {}),
  invalidates: muteLists,
});

export const unmuteWrite = writeKind({
  kind: 'unmute',
  operation: muteOperations.unmuteProfile,
  overlay: (queryKey, data, input) => mutedWith(queryKey, watchedWith(queryKey, data, input, false), input, null),
  invalidates: muteLists,
});
