import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Scorecard } from '../../contract/scorecards.js';
import { useApi } from '../session/use-api.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { ScorecardMatrix } from './scorecard-matrix.js';
import { getScorecardsQueryOptions, scorecardPath } from './scorecards-api.js';

function TeamScorecard({ scorecard, team }: { scorecard: Scorecard; team: string }) {
  const [cursor, setCursor] = useState(0);
  const id = `team-scorecard-${scorecard.handle}`;
  return (
    <Card>
      <article className="flex flex-column gap-3" aria-labelledby={id}>
        <h3 id={id} className="text-lg font-semibold m-0">
          <Link to={`${scorecardPath(scorecard.handle)}?team=${encodeURIComponent(team)}`}>{scorecard.name}</Link>
        </h3>
        <ScorecardMatrix scorecard={scorecard} filter={{ cursor, level: '', team }} onPage={setCursor} hideTeam />
      </article>
    </Card>
  );
}

/** The team's Scorecards tab (issue 28): on each scorecard, the levels and rules of the team's own services. */
export function TeamScorecards({ team }: { team: { handle: string } }) {
  const api = useApi();
  const query = useQuery(getScorecardsQueryOptions(api));
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading scorecards" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const cards = query.data ?? [];
  return (
    <section className="flex flex-column gap-3" aria-labelledby="team-scorecards-title">
      <h2 id="team-scorecards-title" className="text-xl font-semibold m-0">
        Scorecards
      </h2>
      {cards.length === 0 ? (
        <Card>
          <p className="m-0 text-600">No scorecards yet.</p>
        </Card>
      ) : (
        cards.map((card) => <TeamScorecard key={card.handle} scorecard={card} team={team.handle} />)
      )}
    </section>
  );
}
