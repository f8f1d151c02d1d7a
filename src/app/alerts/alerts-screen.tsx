import { useQueries, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Alert } from '../../contract/alerts.js';
import { getUserTeamsQueryOptions } from '../api/shared-queries.js';
import { errorMessage } from '../components/form.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { useAuth } from '../session/auth-context.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { AlertFilters, filterOf, searchOf, type TeamChoice } from './alert-filters.js';
import { AlertRow } from './alert-row.js';
import { ALERTS_PAGE_SIZE, ALERTS_POLL_MS, getAlertsPageQueryOptions, type AlertFilter } from './alerts-api.js';

export const ALERTS_EMPTY = 'No alerts. When a service of your teams fails, its alert shows here.';
export const ALERTS_FAILED = 'The alerts could not be loaded';

/** Each alert once: a page read after new alerts arrived repeats the rows the earlier pages ended with. */
function uniqueAlerts(pages: ReadonlyArray<{ items: Alert[] } | undefined>): Alert[] {
  const seen = new Set<string>();
  return pages.flatMap((page) => page?.items ?? []).filter((alert) => !seen.has(alert.id) && seen.add(alert.id));
}

/** The pages of one filter, first to last; "Load more" reads the next (a filter of its own starts afresh). */
function AlertList({ filter }: { filter: AlertFilter }) {
  const { api } = useAuth();
  const [pages, setPages] = useState(1);
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, index) => ({
      ...getAlertsPageQueryOptions(api, filter, index * ALERTS_PAGE_SIZE),
      refetchInterval: ALERTS_POLL_MS,
    })),
  });
  const first = results[0]!;
  const last = results[results.length - 1]!;
  const state = loadStateOf(first);
  if (state === 'pending') return <Spinner label="Loading alerts" />;
  if (state === 'offline') return <NotAvailableOffline />;
  if (state === 'not-found')
    return (
      <p className="m-0 p-error" role="alert">
        {errorMessage(first.error, ALERTS_FAILED)}
      </p>
    );
  const alerts = uniqueAlerts(results.map((result) => result.data));
  const total = last.data?.total ?? first.data?.total ?? alerts.length;
  return (
    <>
      <LastSynced query={first} />
      {alerts.length === 0 ? (
        <Card>
          <p className="m-0 text-700">{ALERTS_EMPTY}</p>
        </Card>
      ) : (
        <ul className="beacon-alert-list" aria-label="Alerts">
          {alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap align-items-center gap-3">
        {alerts.length > 0 && (
          <span className="text-700 text-sm" role="status">
            {alerts.length} of {total}
          </span>
        )}
        {alerts.length < total && (
          <Button
            type="button"
            label="Load more"
            icon="pi pi-angle-down"
            outlined
            loading={last.isPending}
            disabled={last.isPending}
            onClick={() => setPages((count) => count + 1)}
          />
        )}
      </div>
    </>
  );
}

/** The teams to filter by: the user's own, and those of the alerts listed (an admin's may be anyone's). */
function useTeamChoices(filter: AlertFilter): TeamChoice[] {
  const { api, state } = useAuth();
  const username = state.user?.handle ?? state.username ?? '';
  const own = useQuery({ ...getUserTeamsQueryOptions(api, username), enabled: Boolean(username) });
  const listed = useQuery(getAlertsPageQueryOptions(api, filter, 0));
  const byHandle = new Map<string, TeamChoice>();
  for (const team of [...(own.data ?? []), ...(listed.data?.items.map((alert) => alert.team) ?? [])])
    byHandle.set(team.handle, { handle: team.handle, name: team.name });
  return [...byHandle.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** /alerts: the open and recent alerts of the services the user may see, filtered by team, severity and state. */
export default function AlertsScreen() {
  useBreadcrumb({ name: 'Alerts' });
  const [search, setSearch] = useSearchParams();
  const filter = filterOf(search);
  const teams = useTeamChoices(filter);
  return (
    <section className="flex flex-column gap-3" aria-labelledby="alerts-title">
      <h1 id="alerts-title" className="text-2xl font-semibold m-0">
        Alerts
      </h1>
      <AlertFilters filter={filter} teams={teams} onChange={(next) => setSearch(searchOf(next), { replace: true })} />
      <AlertList key={searchOf(filter).toString()} filter={filter} />
    </section>
  );
}
