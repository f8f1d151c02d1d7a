import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Scorecard } from '../../contract/scorecards.js';
import { useApi } from '../session/use-api.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { ListPaginator } from '../components/list-paginator.js';
import { Spinner } from '../components/status-screens.js';
import { Link } from 'react-router-dom';
import { servicePath } from '../routing/paths.js';
import { LevelTag, RuleStateIcon } from './rule-state.js';
import { getScorecardResultsQueryOptions, RESULTS_PAGE_SIZE, type ResultsFilter } from './scorecards-api.js';

/**
 * A scorecard's services by its rules: one row per service (its team, level and score), one column per rule, each
 * cell the rule's state with what it saw. Wide scorecards scroll sideways inside their own frame on a phone.
 */
export function ScorecardMatrix({
  scorecard,
  filter,
  onPage,
  hideTeam = false,
}: {
  scorecard: Scorecard;
  filter: ResultsFilter;
  onPage: (cursor: number) => void;
  hideTeam?: boolean;
}) {
  const api = useApi();
  const query = useQuery({
    ...getScorecardResultsQueryOptions(api, scorecard.handle, filter),
    placeholderData: keepPreviousData,
  });
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading results" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const page = query.data ?? { items: [], total: 0 };
  if (page.total === 0) return <p className="m-0 text-600">No services</p>;
  return (
    <div className="flex flex-column gap-2">
      <LastSynced query={query} />
      <div className="beacon-matrix-frame">
        <table className="beacon-matrix w-full" aria-label={`${scorecard.name} results`}>
          <thead>
            <tr>
              <th scope="col">Service</th>
              {!hideTeam && <th scope="col">Team</th>}
              <th scope="col">Level</th>
              <th scope="col">Score</th>
              {scorecard.rules.map((rule) => (
                <th key={rule.key} scope="col" className="text-sm font-normal">
                  {rule.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.items.map((result) => (
              <tr key={result.service.handle}>
                <th scope="row" className="text-left">
                  <Link to={`${servicePath(result.service.handle)}/scorecards`}>{result.service.name}</Link>
                </th>
                {!hideTeam && <td>{result.team.name}</td>}
                <td>
                  <LevelTag levels={scorecard.levels} level={result.level} />
                </td>
                <td>{result.score === null ? '–' : `${result.score} %`}</td>
                {scorecard.rules.map((rule) => {
                  const outcome = result.rules.find((r) => r.key === rule.key);
                  return (
                    <td key={rule.key} className="text-center">
                      {outcome ? <RuleStateIcon state={outcome.state} value={outcome.value} /> : '–'}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListPaginator page={{ cursor: filter.cursor, limit: RESULTS_PAGE_SIZE }} total={page.total} onPage={onPage} />
    </div>
  );
}
