import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Team } from '../../contract/catalogue.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { TEAM_NOT_EMPTY } from '../../domain/catalogue.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { useSnackbar } from '../components/snackbars.js';
import { getTeamServiceCountQueryOptions } from './teams-api.js';

export const DELETE_WARNING = 'Deleting a team is permanent and cannot be undone.';
export const DELETE_FAILED = 'There was an error while deleted the team';

/**
 * Delete Team: disabled while the team has services or sub-teams (spec: service count above 0) and until that
 * count is known; a confirm dialog deletes, closes and returns to /teams.
 */
export function DeleteTeamCard({ team }: { team: Team }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const [open, setOpen] = useState(false);
  const count = useQuery(getTeamServiceCountQueryOptions(api, team.handle));
  const notEmpty = (count.data ?? 0) > 0;
  const remove = useMutation({
    mutationFn: () => api.call(teamOperations.deleteTeam, { params: { team: team.handle } }),
    onSuccess: () => {
      setOpen(false);
      enqueue('Team Deleted');
      navigate('/teams');
      // After leaving, so the team screen does not refetch the team it just deleted.
      queryClient.removeQueries({ queryKey: keys.team(team.handle) });
      queryClient.removeQueries({ queryKey: keys.team(team.id) });
      void queryClient.invalidateQueries({ queryKey: keys.teams() });
      if (team.parent) void queryClient.invalidateQueries({ queryKey: keys.team(team.parent.handle) });
    },
    onError: () => {
      setOpen(false);
      enqueue(DELETE_FAILED, 'error');
      void count.refetch();
    },
  });

  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Delete Team</h2>}>
      <div className="flex flex-column gap-3 align-items-start">
        {notEmpty && <p className="m-0">{TEAM_NOT_EMPTY}</p>}
        <p className="m-0 text-700">
          <i className="pi pi-exclamation-triangle mr-2" aria-hidden="true" />
          {DELETE_WARNING}
        </p>
        <ConfirmDelete
          label="Delete Team"
          question={`Are you sure you want to delete the team ${team.name}?`}
          open={open}
          onOpenChange={setOpen}
          pending={remove.isPending}
          onDelete={() => remove.mutate()}
          disabled={count.isPending || notEmpty}
        />
      </div>
    </Card>
  );
}
