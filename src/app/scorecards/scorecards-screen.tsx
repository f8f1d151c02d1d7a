import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Link } from 'react-router-dom';
import type { Scorecard } from '../../contract/scorecards.js';
import { isAdminRole } from '../../domain/roles.js';
import { levelName } from '../../domain/scorecards.js';
import { useApi } from '../session/use-api.js';
import { LinkButton } from '../components/link-button.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { useAuth } from '../session/auth-context.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { levelColour } from './level-colours.js';
import { getScorecardsQueryOptions, SCORECARD_EDITOR_PATH, scorecardPath } from './scorecards-api.js';

export const SCORECARDS_EMPTY =
  'A scorecard checks every service it applies to against rules (an SLO met, a runbook linked, no failing check) ' +
  'and ranks it by level. Workspace admins define scorecards.';

/** How many services are at each level, as a bar of shares and a legend with the counts. */
export function LevelDistribution({ scorecard }: { scorecard: Scorecard }) {
  const total = scorecard.distribution.reduce((sum, part) => sum + part.services, 0);
  const parts = scorecard.distribution.map((part, index) => ({ ...part, rank: index - 1 }));
  return (
    <div className="flex flex-column gap-2">
      {total > 0 && (
        <div className="flex border-round overflow-hidden" style={{ height: '0.75rem' }} aria-hidden="true">
          {parts
            .filter((part) => part.services > 0)
            .map((part) => (
              <div
                key={part.level ?? 'none'}
                style={{ width: `${(part.services / total) * 100}%`, background: levelColour(part.rank) }}
              />
            ))}
        </div>
      )}
      <ul className="list-none m-0 p-0 flex flex-wrap gap-3 text-sm">
        {parts.map((part) => (
          <li key={part.level ?? 'none'} className="flex align-items-center gap-1">
            <span
              className="inline-block border-round"
              style={{ width: '0.75rem', height: '0.75rem', background: levelColour(part.rank) }}
            />
            <span>
              {levelName(scorecard.levels, part.level)}: {part.services}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /scorecards: every scorecard of the workspace with how its services are spread over its levels. */
export default function ScorecardsScreen() {
  const api = useApi();
  useBreadcrumb({ name: 'Scorecards' });
  const query = useQuery(getScorecardsQueryOptions(api));
  const { state: session } = useAuth();
  const admin = session.user ? isAdminRole(session.user.role) : false;
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading scorecards" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const cards = query.data ?? [];
  return (
    <section className="flex flex-column gap-3" aria-labelledby="scorecards-title">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 id="scorecards-title" className="text-2xl font-semibold m-0">
          Scorecards
        </h1>
        {admin && <LinkButton to={`${SCORECARD_EDITOR_PATH}/new`} icon="pi pi-plus" label="New scorecard" />}
      </div>
      <LastSynced query={query} />
      {cards.length === 0 ? (
        <Card>
          <p className="m-0 text-700">{SCORECARDS_EMPTY}</p>
        </Card>
      ) : (
        cards.map((card) => {
          const services = card.distribution.reduce((sum, part) => sum + part.services, 0);
          return (
            <Card key={card.handle}>
              <article className="flex flex-column gap-3" aria-labelledby={`scorecard-${card.handle}`}>
                <header className="flex flex-wrap align-items-baseline justify-content-between gap-2">
                  <h2 id={`scorecard-${card.handle}`} className="text-xl font-semibold m-0">
                    <Link to={scorecardPath(card.handle)}>{card.name}</Link>
                  </h2>
                  <span className="text-600 text-sm">
                    {services} {services === 1 ? 'service' : 'services'} · {card.rules.length}{' '}
                    {card.rules.length === 1 ? 'rule' : 'rules'}
                  </span>
                </header>
                {card.description && <p className="m-0 text-700">{card.description}</p>}
                <LevelDistribution scorecard={card} />
              </article>
            </Card>
          );
        })
      )}
    </section>
  );
}
