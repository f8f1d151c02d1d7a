import { Card } from 'primereact/card';
import type { Team } from '../../contract/catalogue.js';
import type { OperationInput } from '../../contract/operation.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { useApi } from '../session/use-api.js';
import { FieldGroup, type FieldGroupProps } from '../components/field-group.js';
import { ImageSetting } from '../components/image-setting.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import { TeamAlertChannelsCard, TeamAlertPolicyCard } from '../alerts/index.js';
import { TeamClientsCard } from './team-clients.js';
import { DeleteTeamCard } from './team-delete.js';
import { TeamPoliciesCard } from './team-policies.js';
import { TeamRunnersCard } from './team-runners.js';
import { MANAGED_TEAM_FIELDS, ManagedMark } from '../components/managed-mark.js';
import { teamCrumbs } from './teams-api.js';

type TeamPatch = OperationInput<typeof teamOperations.updateTeam>['body'];

/** A field group as a card of its own: the card's title names the field, the description explains it. */
function FieldCard({ title, ...field }: Omit<FieldGroupProps, 'label' | 'hideLabel'> & { title: string }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">{title}</h2>}>
      <FieldGroup {...field} label={title} rows={4} hideLabel />
    </Card>
  );
}

/**
 * The Settings tab (team admins only): Team Logo, Name, Description, Policies, Alert policy, Alert channels, Clients,
 * Runners and Delete Team.
 */
export function TeamSettings({ team, onUpdated }: { team: Team; onUpdated: (team: Team) => void }) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  useBreadcrumb(teamCrumbs(team, 'Setting'));

  const updated = (next: Team) => {
    onUpdated(next);
    enqueue('Team Updated');
  };
  const params = { team: team.handle };
  const patch = async (body: TeamPatch) => updated(await api.call(teamOperations.updateTeam, { params, body }));

  return (
    <div className="flex flex-column gap-3">
      <ImageSetting
        title="Team Logo"
        name={team.name}
        url={team.thumbnail_url}
        description="The logo identifies your team across Beacon. Use an image of 240px square or larger."
        inputId="team-logo-file"
        inputLabel="Team logo image"
        uploadLabel="Upload Logo"
        clearLabel="Clear Logo"
        upload={(icon) => api.upload(teamOperations.uploadTeamIcon, { params }, { field: 'icon', value: icon })}
        clear={() => api.call(teamOperations.clearTeamIcon, { params })}
        onUpdated={updated}
      />
      {team.managed_by ? (
        <Card title={<h2 className="text-xl font-semibold m-0">Name and description</h2>}>
          <p className="m-0 font-semibold">{team.name}</p>
          <p className="m-0 mt-2 text-700">{team.description ?? '—'}</p>
          <ManagedMark managedBy={team.managed_by} what={MANAGED_TEAM_FIELDS} />
        </Card>
      ) : (
        <>
          <FieldCard
            key={`name:${team.name}`}
            id="team-settings-name"
            title="Name"
            description="The name of your team."
            saved={team.name}
            required
            onSave={(value) => patch({ name: value.trim() })}
          />
          <FieldCard
            key={`description:${team.description ?? ''}`}
            id="team-settings-description"
            title="Description"
            description="A quick description of your team."
            saved={team.description}
            multiline
            onSave={(value) => patch({ description: value.trim() || null })}
          />
        </>
      )}
      <TeamPoliciesCard team={team} />
      <TeamAlertPolicyCard team={team} />
      <TeamAlertChannelsCard team={team} />
      <TeamClientsCard team={team} />
      <TeamRunnersCard team={team} />
      {team.managed_by ? (
        <Card title={<h2 className="text-xl font-semibold m-0">Delete Team</h2>}>
          <p className="m-0 text-700">
            This team is managed in {team.managed_by.source}: remove it from <code>{team.managed_by.path}</code> to
            delete it.
          </p>
        </Card>
      ) : (
        <DeleteTeamCard team={team} />
      )}
    </div>
  );
}
