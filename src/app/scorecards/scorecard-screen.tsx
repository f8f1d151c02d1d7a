import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { useParams, useSearchParams } from 'react-router-dom';
import { isAdminRole } from '../../domain/roles.js';
import { NO_LEVEL_FILTER } from '../../domain/scorecards.js';
import { useApi } from '../session/use-api.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { LinkButton } from '../components/link-button.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useAuth } from '../session/auth-context.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { ScorecardMatrix } from './scorecard-matrix.js';
import { ScorecardTrends } from './scorecard-trends.js';
import { TeamRollup } from './team-rollup.js';
import { LevelDistribution } from './scorecards-screen.js';
import { getScorecardQueryOptions, scorecardEditorPath, SCORECARDS_PATH } from './scorecards-api.js';

/** The filters' value for no filter (the Dropdown shows no label for an empty value). */
const ALL = 'all';

/** /scorecards/:handle: the level spread, then the matrix, filtered by level (and by team from `?team=`), paged. */
export default function ScorecardScreen() {
  const { handle = '' } = useParams();
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const query = useQuery(getScorecardQueryOptions(api, handle));
  const { state: session } = useAuth();
  const admin = session.user ? isAdminRole(session.user.role) : false;
  useBreadcrumb({ name: 'Scorecards', to: SCORECARDS_PATH, crumbs: [{ label: query.data?.name ?? handle }] });
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading scorecard" />;
  if (state === 'offline') return <NotAvailableOffline />;
  if (state === 'not-found' || !query.data) return <NotFound />;
  const scorecard = query.data;
  const filter = {
    cursor: Number(params.get('cursor') ?? 0) || 0,
    level: params.get('level') ?? ALL,
    team: params.get('team') ?? '',
  };
  const change = (next: Partial<typeof filter>) => {
    const merged = { ...filter, cursor: 0, ...next };
    const search = new URLSearchParams();
    if (merged.level !== ALL) search.set('level', merged.level);
    if (merged.team) search.set('team', merged.team);
    if (merged.cursor) search.set('cursor', String(merged.cursor));
    setParams(search);
  };
  const levelOptions = [
    { label: 'All levels', value: ALL },
    ...[...scorecard.levels].reverse().map((level) => ({ label: level.name, value: level.key })),
    { label: 'No level', value: NO_LEVEL_FILTER },
  ];
  return (
    <section className="flex flex-column gap-3" aria-labelledby="scorecard-title">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 id="scorecard-title" className="text-2xl font-semibold m-0">
          {scorecard.name}
        </h1>
        {admin && (
          <LinkButton to={scorecardEditorPath(scorecard.handle)} icon="pi pi-pencil" label="Edit scorecard" outlined />
        )}
      </div>
      {scorecard.description && <p className="m-0 text-700">{scorecard.description}</p>}
      <Card>
        <div className="flex flex-column gap-4">
          <LevelDistribution scorecard={scorecard} />
          <TeamRollup scorecard={scorecard} />
          <ScorecardTrends scorecard={scorecard} />
        </div>
      </Card>
      <Card>
        <div className="flex flex-column gap-3">
          <div className="flex flex-wrap align-items-center gap-2">
            <LabelledSelect
              id="scorecard-level"
              label="Level"
              value={filter.level}
              options={levelOptions}
              onChange={(level) => change({ level })}
            />
            {filter.team && <span className="text-600">Team: {filter.team}</span>}
          </div>
          <ScorecardMatrix
            scorecard={scorecard}
            filter={{ ...filter, level: filter.level === ALL ? '' : filter.level }}
            onPage={(cursor) => change({ cursor })}
          />
        </div>
      </Card>
    </section>
  );
}
