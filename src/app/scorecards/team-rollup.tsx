import { Link } from 'react-router-dom';
import type { Scorecard } from '../../contract/scorecards.js';
import { levelName } from '../../domain/scorecards.js';
import { scorecardPath } from './scorecards-api.js';

/** Each owner team's services by level on the scorecard; a team's name narrows the matrix to it. */
export function TeamRollup({ scorecard }: { scorecard: Scorecard }) {
  const teams = scorecard.teams ?? [];
  if (teams.length === 0) return null;
  return (
    <section className="flex flex-column gap-2" aria-labelledby="scorecard-teams">
      <h2 id="scorecard-teams" className="text-lg font-semibold m-0">
        By team
      </h2>
      <div className="beacon-matrix-frame">
        <table className="beacon-matrix" aria-labelledby="scorecard-teams">
          <thead>
            <tr>
              <th scope="col">Team</th>
              {scorecard.distribution.map((part) => (
                <th key={part.level ?? 'none'} scope="col">
                  {levelName(scorecard.levels, part.level)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {teams.map(({ team, distribution }) => (
              <tr key={team.handle}>
                <th scope="row" className="text-left">
                  <Link to={`${scorecardPath(scorecard.handle)}?team=${encodeURIComponent(team.handle)}`}>
                    {team.name}
                  </Link>
                </th>
                {distribution.map((part) => (
                  <td key={part.level ?? 'none'} className="text-center">
                    {part.services}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
