import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import type { Team, TeamPolicies } from '../../contract/catalogue.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { VISIBILITIES, visibilityLabel, type Visibility } from '../../domain/catalogue.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ActionSelect } from '../components/labelled-select.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';

type Creators = 'admins' | 'members';
const CREATOR_OPTIONS: Array<{ label: string; value: Creators }> = [
  { label: 'Team admins', value: 'admins' },
  { label: 'Team admins and members', value: 'members' },
];

/**
 * The Policies card of a team's Settings (docs/decisions.md#open-decisions): the visibility new services of the team
 * start with, and who may create them. Each choice saves at once, as the service settings' selects do.
 */
export function TeamPoliciesCard({ team }: { team: Team }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const params = { team: team.handle };
  const policies = useQuery({
    queryKey: keys.teamPolicies(team.handle),
    queryFn: () => api.call(teamOperations.getTeamPolicies, { params }),
  });

  const save = async (body: Partial<TeamPolicies>) => {
    try {
      const next = await api.call(teamOperations.updateTeamPolicies, { params, body });
      queryClient.setQueryData(keys.teamPolicies(team.handle), next);
      // The team's `can_create_services` follows the policy.
      void queryClient.invalidateQueries({ queryKey: keys.team(team.handle), exact: true });
      enqueue('Team Policies Updated');
    } catch {
      enqueue('Failed to update team policies', 'error');
    }
  };

  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Policies</h2>}>
      <p className="mt-0 text-700">How new services of this team start, and who may create them.</p>
      {policies.data ? (
        <div className="flex flex-column gap-3">
          <ActionSelect<Visibility>
            id="team-policy-visibility"
            label="Default visibility"
            value={policies.data.default_visibility}
            options={VISIBILITIES.map((value) => ({ label: visibilityLabel(value), value }))}
            onChange={(visibility) => save({ default_visibility: visibility })}
          />
          <ActionSelect<Creators>
            id="team-policy-creators"
            label="Who can create services"
            value={policies.data.members_create_services ? 'members' : 'admins'}
            options={CREATOR_OPTIONS}
            onChange={(creators) => save({ members_create_services: creators === 'members' })}
          />
        </div>
      ) : policies.isError ? (
        <p className="m-0 p-error">The team’s policies could not be loaded.</p>
      ) : (
        <Spinner />
      )}
    </Card>
  );
}
