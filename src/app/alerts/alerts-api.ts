/**
 * The alerts feature's reads and writes (docs/api.md, "Alerts"): the alerts with their timeline, the channels they are
 * told through with their delivery log, and a team's policy.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AlertChannel, AlertDelivery, AlertPolicy, AlertWithTimeline } from '../../contract/alerts.js';
import type { BodyOf } from '../../contract/operation.js';
import { alertChannelOperations, alertOperations, alertPolicyOperations } from '../../contract/operations/alerts.js';
import type { AlertSeverity, AlertState } from '../../domain/alerts.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export const ALERTS_PATH = '/alerts';
export const alertPath = (id: string) => `${ALERTS_PATH}/${encodeURIComponent(id)}`;
/** Where workspace admins keep the workspace's channels (the admin area). */
export const ALERT_CHANNELS_PATH = '/admin/alert-channels';
export const alertChannelPath = (id: string) => `${ALERT_CHANNELS_PATH}/${encodeURIComponent(id)}`;

/** A screen of rows; "Load more" adds the next. */
export const ALERTS_PAGE_SIZE = 25;
/**
 * The list and an alert's page are read again this often while open, besides the live news: the bell only hears of
 * the alerts of the user's teams and starred services, and an admin watching every team's would miss the others.
 */
export const ALERTS_POLL_MS = 60_000;
/** What the list shows until the user picks states: what still needs someone. */
export const DEFAULT_ALERT_STATES: readonly AlertState[] = ['open', 'acknowledged'];

export interface AlertFilter {
  /** A team's handle; '' for every team. */
  team: string;
  /** None picked: every severity (and every state). */
  severities: readonly AlertSeverity[];
  states: readonly AlertState[];
}

/** One page of the list: the key holds the filter as the query sends it, so a reload finds the page it stored. */
export function getAlertsPageQueryOptions(api: ApiClient, filter: AlertFilter, cursor: number) {
  const severity = filter.severities.join(',');
  const state = filter.states.join(',');
  const page = { cursor, limit: ALERTS_PAGE_SIZE };
  return queryOptions({
    queryKey: keys.alertList({ team: filter.team, severity, state, ...page }),
    queryFn: () =>
      api.page(alertOperations.listAlerts, {
        query: {
          ...page,
          ...(filter.team ? { team: filter.team } : {}),
          ...(severity ? { severity } : {}),
          ...(state ? { state } : {}),
        },
      }),
  });
}

/** How many alerts are open: the `total` of a one-row page. */
export function getOpenAlertCountQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.openAlertCount(),
    queryFn: async () => (await api.page(alertOperations.listAlerts, { query: { state: 'open', limit: 1 } })).total,
  });
}

export function getAlertQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: keys.alert(id),
    queryFn: () => api.call(alertOperations.getAlert, { params: { id } }),
  });
}

export function resolveAlert(api: ApiClient, id: string, reason: string): Promise<AlertWithTimeline> {
  const trimmed = reason.trim();
  return api.call(alertOperations.resolveAlert, { params: { id }, body: trimmed ? { reason: trimmed } : {} });
}

/** The lists and the count read again (an alert moved, here or elsewhere). */
export function refreshAlertLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: keys.alertLists() });
  void queryClient.invalidateQueries({ queryKey: keys.openAlertCount() });
}

/** After an action: the alert is the server's answer, and the lists read again. */
export function storeAlert(queryClient: QueryClient, alert: AlertWithTimeline): void {
  queryClient.setQueryData(keys.alert(alert.id), alert);
  refreshAlertLists(queryClient);
}

// ---- channels ----

/**
 * Channels hold addresses and URLs of people and systems outside the workspace: read fresh, never kept in Dexie (and
 * only admins manage them, online).
 */
const fresh = { meta: { persist: false } } as const;

export function getWorkspaceChannelsQueryOptions(api: ApiClient) {
  return queryOptions({
    ...fresh,
    queryKey: keys.workspaceAlertChannels(),
    queryFn: () => api.call(alertChannelOperations.listAlertChannels),
  });
}

export function getTeamChannelsQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    ...fresh,
    queryKey: keys.teamAlertChannels(team),
    queryFn: () => api.call(alertChannelOperations.listTeamAlertChannels, { params: { team } }),
  });
}

export function getChannelQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    ...fresh,
    queryKey: keys.alertChannel(id),
    queryFn: () => api.call(alertChannelOperations.getAlertChannel, { params: { id } }),
  });
}

export function getDeliveriesQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    ...fresh,
    queryKey: keys.alertChannelDeliveries(id),
    queryFn: () => api.call(alertChannelOperations.listAlertChannelDeliveries, { params: { id } }),
  });
}

export type ChannelCreateBody = BodyOf<(typeof alertChannelOperations)['createAlertChannel']>;
export type ChannelUpdateBody = BodyOf<(typeof alertChannelOperations)['updateAlertChannel']>;

/** Adds a channel: the team's own when `team` is given, else the workspace's. */
export function createChannel(api: ApiClient, body: ChannelCreateBody, team: string | null): Promise<AlertChannel> {
  return team
    ? api.call(alertChannelOperations.createTeamAlertChannel, { params: { team }, body })
    : api.call(alertChannelOperations.createAlertChannel, { body });
}

export function updateChannel(api: ApiClient, id: string, body: ChannelUpdateBody): Promise<AlertChannel> {
  return api.call(alertChannelOperations.updateAlertChannel, { params: { id }, body });
}

export function deleteChannel(api: ApiClient, id: string): Promise<null> {
  return api.call(alertChannelOperations.deleteAlertChannel, { params: { id } });
}

export function testChannel(api: ApiClient, id: string): Promise<AlertDelivery> {
  return api.call(alertChannelOperations.testAlertChannel, { params: { id } });
}

/** The list a channel is in: its team's, or the workspace's. */
const listKeyOf = (channel: Pick<AlertChannel, 'team'>) =>
  channel.team ? keys.teamAlertChannels(channel.team.handle) : keys.workspaceAlertChannels();

/** After a save: the channel is the server's answer, and its list reads again. */
export function storeChannel(queryClient: QueryClient, channel: AlertChannel): void {
  queryClient.setQueryData(keys.alertChannel(channel.id), channel);
  void queryClient.invalidateQueries({ queryKey: listKeyOf(channel), exact: true });
}

/** After a delete: the channel and its log are forgotten; its list, and the policies that named it, read again. */
export function forgetChannel(queryClient: QueryClient, channel: AlertChannel): void {
  queryClient.removeQueries({ queryKey: keys.alertChannel(channel.id) });
  void queryClient.invalidateQueries({ queryKey: listKeyOf(channel), exact: true });
  void queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === 'team' && query.queryKey[2] === 'alert-policy',
  });
}

// ---- policies ----

export function getTeamPolicyQueryOptions(api: ApiClient, team: string) {
  return queryOptions({
    queryKey: keys.teamAlertPolicy(team),
    queryFn: () => api.call(alertPolicyOperations.getTeamAlertPolicy, { params: { team } }),
  });
}

export type PolicyBody = BodyOf<(typeof alertPolicyOperations)['setTeamAlertPolicy']>;

export function saveTeamPolicy(api: ApiClient, team: string, body: PolicyBody): Promise<AlertPolicy> {
  return api.call(alertPolicyOperations.setTeamAlertPolicy, { params: { team }, body });
}
