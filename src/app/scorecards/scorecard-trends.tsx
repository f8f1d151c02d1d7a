import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { Scorecard, ScorecardHistory } from '../../contract/scorecards.js';
import { levelName } from '../../domain/scorecards.js';
import { useApi } from '../session/use-api.js';
import { servicePath } from '../routing/paths.js';
import { levelColour } from './level-colours.js';
import { getScorecardHistoryQueryOptions } from './scorecards-api.js';

function Movers({
  title,
  movers,
  levels,
}: {
  title: string;
  movers: ScorecardHistory['improved'];
  levels: Scorecard['levels'];
}) {
  return (
    <div className="flex-1" style={{ minWidth: '14rem' }}>
      <h3 className="text-base font-semibold m-0 mb-2">{title}</h3>
      {movers.length === 0 ? (
        <p className="m-0 text-600 text-sm">None</p>
      ) : (
        <ul className="m-0 pl-4 flex flex-column gap-1 text-sm">
          {movers.slice(0, 5).map((mover) => (
            <li key={mover.service.handle}>
              <Link to={`${servicePath(mover.service.handle)}/scorecards`}>{mover.service.name}</Link>:{' '}
              {levelName(levels, mover.from)} → {levelName(levels, mover.to)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The last 30 days of a scorecard: a bar per day with its services stacked by level, then the services that rose
 * and fell most. The bars' numbers are in their label, for screen readers and on hover.
 */
export function ScorecardTrends({ scorecard }: { scorecard: Scorecard }) {
  const api = useApi();
  const { data } = useQuery(getScorecardHistoryQueryOptions(api, scorecard.handle));
  if (!data) return null;
  const most = Math.max(1, ...data.days.map((day) => day.levels.reduce((sum, l) => sum + l.services, 0)));
  return (
    <section className="flex flex-column gap-3" aria-labelledby="scorecard-trends">
      <h2 id="scorecard-trends" className="text-lg font-semibold m-0">
        Last 30 days
      </h2>
      <ol
        className="list-none m-0 p-0 flex align-items-end gap-1"
        style={{ height: '6rem' }}
        aria-label="Services at each level, by day"
      >
        {data.days.map((day) => {
          const label = `${day.date}: ${day.levels.map((l) => `${levelName(scorecard.levels, l.level)} ${l.services}`).join(', ')}`;
          return (
            <li key={day.date} className="flex-1 flex flex-column-reverse h-full" title={label}>
              <span className="beacon-visually-hidden">{label}</span>
              {day.levels.map((l, index) => (
                <span
                  key={l.level ?? 'none'}
                  aria-hidden="true"
                  style={{ height: `${(l.services / most) * 100}%`, background: levelColour(index - 1) }}
                />
              ))}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-4">
        <Movers title="Most improved" movers={data.improved} levels={scorecard.levels} />
        <Movers title="Most regressed" movers={data.regressed} levels={scorecard.levels} />
      </div>
    </section>
  );
}
