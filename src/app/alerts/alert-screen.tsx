import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { AlertWithTimeline } from '../../contract/alerts.js';
import { fromNow } from '../components/from-now.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { MessageCard, Spinner } from '../components/status-screens.js';
import { servicePath, teamPath, userPath } from '../routing/paths.js';
import { useApi } from '../session/use-api.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { ALERTS_PATH, ALERTS_POLL_MS, getAlertQueryOptions } from './alerts-api.js';
import { AlertActions, AlertStateTag, exactTime, SeverityTag } from './alert-parts.js';
import { CHANNEL_KIND_LABELS } from './channel-kinds.js';
import './alerts.css';

export const ALERT_NOT_FOUND = 'The alert was not found';

/** A timeline entry's kind in words (the contract names them; one the app does not know yet reads as it is). */
const KIND_WORDS: Partial<Record<string, string>> = {
  opened: 'Opened',
  raised: 'Raised',
  told: 'Told',
  escalated: 'Escalated',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  delivery_failed: 'Delivery failed',
};
const kindWords = (kind: string) => KIND_WORDS[kind] ?? kind.replace(/_/g, ' ');

/** A moment: exactly, and how long ago. */
function Moment({ at }: { at: string }) {
  return (
    <>
      <time dateTime={at}>{exactTime(at)}</time> <span className="text-600">({fromNow(at)})</span>
    </>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Who did it, linked to their profile. */
const byWhom = (by: { handle: string; name: string } | null) =>
  by ? (
    <>
      {' by '}
      <Link to={userPath(by.handle)}>{by.name}</Link>
    </>
  ) : null;

function AlertFacts({ alert }: { alert: AlertWithTimeline }) {
  return (
    <dl className="beacon-alert-facts">
      <Fact term="Service">
        <Link to={servicePath(alert.service.handle)}>{alert.service.name}</Link>
      </Fact>
      <Fact term="Team">
        <Link to={teamPath(alert.team.handle)}>{alert.team.name}</Link>
      </Fact>
      <Fact term="Opened">
        <Moment at={alert.opened_at} />
      </Fact>
      {alert.acknowledged_at && (
        <Fact term="Acknowledged">
          <Moment at={alert.acknowledged_at} />
          {byWhom(alert.acknowledged_by)}
        </Fact>
      )}
      {alert.resolved_at && (
        <Fact term="Resolved">
          <Moment at={alert.resolved_at} />
          {byWhom(alert.resolved_by)}
        </Fact>
      )}
      {alert.reason && <Fact term="Reason">{alert.reason}</Fact>}
    </dl>
  );
}

type TimelineEntryData = AlertWithTimeline['timeline'][number];

function TimelineEntry({ entry }: { entry: TimelineEntryData }) {
  return (
    <li>
      <div className="flex flex-wrap align-items-center gap-2">
        <span className="font-semibold">{kindWords(entry.kind)}</span>
        <time dateTime={entry.at} className="text-sm text-700">
          {exactTime(entry.at)}
        </time>
        {entry.status && <Tag value={entry.status} severity="secondary" />}
      </div>
      {(entry.channel || entry.target) && (
        <div className="text-sm text-700 mt-1 beacon-alert-text">
          {entry.channel && (
            <span>
              {entry.channel.name} ({CHANNEL_KIND_LABELS[entry.channel.kind]})
            </span>
          )}
          {entry.channel && entry.target && ' · '}
          {entry.target && <span>To {entry.target}</span>}
        </div>
      )}
      <p className="m-0 mt-1">{entry.message}</p>
    </li>
  );
}

type Synced = { data: unknown; isError: boolean; dataUpdatedAt: number };

function AlertPage({ alert, synced }: { alert: AlertWithTimeline; synced: Synced }) {
  return (
    <section className="flex flex-column gap-3" aria-labelledby="alert-title">
      <LastSynced query={synced} />
      <header className="flex flex-column gap-2">
        <div className="flex flex-wrap align-items-center gap-2">
          <SeverityTag severity={alert.severity} />
          <AlertStateTag state={alert.state} />
        </div>
        <h1 id="alert-title" className="text-2xl font-semibold m-0 beacon-alert-text">
          {alert.service.name}: {alert.summary}
        </h1>
      </header>
      <Card>
        <div className="flex flex-column gap-3">
          <AlertFacts alert={alert} />
          <AlertActions alert={alert} />
        </div>
      </Card>
      <Card title={<h2 className="text-xl font-semibold m-0">Timeline</h2>}>
        {alert.timeline.length === 0 ? (
          <p className="m-0 text-700">Nothing has happened to this alert yet.</p>
        ) : (
          <ol className="beacon-alert-timeline" aria-label="Timeline">
            {alert.timeline.map((entry, index) => (
              <TimelineEntry key={`${entry.at}-${index}`} entry={entry} />
            ))}
          </ol>
        )}
      </Card>
    </section>
  );
}

/** /alerts/{id}: who and what, the actions, and everything that happened to the alert, oldest first. */
export default function AlertScreen() {
  const { id = '' } = useParams();
  const api = useApi();
  // Read again while open, as the list is: deliveries and escalations land on the timeline meanwhile.
  const query = useQuery({ ...getAlertQueryOptions(api, id), refetchInterval: ALERTS_POLL_MS });
  useBreadcrumb({ name: 'Alerts', to: ALERTS_PATH, crumbs: [{ label: query.data?.service.name ?? 'Alert' }] });
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading alert" />;
  if (state === 'offline') return <NotAvailableOffline />;
  if (!query.data) return <MessageCard title={ALERT_NOT_FOUND} icon="pi-map" />;
  return <AlertPage alert={query.data} synced={query} />;
}
