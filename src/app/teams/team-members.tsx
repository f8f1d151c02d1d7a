import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Member, Team } from '../../contract/catalogue.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { TEAM_LIST_PAGE_SIZE, TEAM_ROLES, type TeamRole } from '../../domain/catalogue.js';
import type { Page } from '../../domain/pagination.js';
import { capitalise } from '../../domain/roles.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { ListPaginator } from '../components/list-paginator.js';
import { RowActions } from '../components/row-actions.js';
import { Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';
import { AddMemberDialog } from './add-member-dialog.js';
import { getTeamMembersQueryOptions, invalidateTeam, teamCrumbs } from './teams-api.js';
import { userPath } from '../routing/paths.js';

const ROLE_OPTIONS = TEAM_ROLES.map((role) => ({ label: capitalise(role), value: role }));

/** Admins change a role through an inline select that updates at once; others read it. */
function RoleCell({
  member,
  editable,
  pending,
  onChange,
}: {
  member: Member;
  editable: boolean;
  pending: boolean;
  onChange: (role: TeamRole) => void;
}) {
  if (!editable) return <span>{capitalise(member.role)}</span>;
  return (
    <LabelledSelect
      id={`member-role-${member.user.id}`}
      label={`Role of ${member.user.name}`}
      value={member.role}
      options={ROLE_OPTIONS}
      disabled={pending}
      onChange={onChange}
      hideLabel
      className="w-full md:w-10rem"
    />
  );
}

function MembersTable({ team, page, onPage }: { team: Team; page: Page; onPage: (cursor: number) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const options = getTeamMembersQueryOptions(api, team.handle, page);
  const { data, isPending } = useQuery(options);
  // The team's own record carries the viewer's rights and the member avatars.
  const refreshTeam = () => invalidateTeam(queryClient, team);

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: TeamRole }) =>
      api.call(teamOperations.changeTeamMemberRole, {
        params: { team: team.handle, user: member.user.id },
        body: { role },
      }),
    onSuccess: (updated, { member }) => {
      queryClient.setQueryData(
        options.queryKey,
        (current) =>
          current && {
            ...current,
            items: current.items.map((item) => (item.user.id === member.user.id ? updated : item)),
          },
      );
      enqueue('Team Member Role Update');
      refreshTeam();
    },
    // Spec: a failed role update only sets an error flag; the row keeps its role.
  });

  const remove = useMutation({
    mutationFn: (member: Member) =>
      api.call(teamOperations.removeTeamMember, { params: { team: team.handle, user: member.user.handle } }),
    onSuccess: () => {
      enqueue('Team Member Removed');
      // The last row of a later page gone: show the page before it.
      if (data && data.items.length === 1 && page.cursor > 0) onPage(Math.max(0, page.cursor - page.limit));
      void queryClient.invalidateQueries({ queryKey: keys.teamMembers(team.handle) });
      refreshTeam();
    },
  });

  if (isPending) return <Spinner label="Loading members" />;
  const members = data?.items ?? [];
  return (
    <>
      <DataTable
        value={members}
        dataKey="user.id"
        emptyMessage="No Members"
        pt={{ table: { 'aria-label': 'Members' } }}
      >
        <Column
          header={<span className="p-hidden-accessible">Avatar</span>}
          body={(member: Member) => <ProfileAvatar name={member.user.name} url={member.user.thumbnail_url} />}
          style={{ width: '4rem' }}
        />
        <Column
          header="Name"
          body={(member: Member) => <Link to={userPath(member.user.handle)}>{member.user.name}</Link>}
        />
        <Column
          header="Role"
          body={(member: Member) => (
            <RoleCell
              member={member}
              editable={team.is_admin}
              pending={changeRole.isPending && changeRole.variables?.member.user.id === member.user.id}
              onChange={(role) => changeRole.mutate({ member, role })}
            />
          )}
        />
        <Column header="Description" body={(member: Member) => member.user.description ?? ''} />
        {team.is_admin && (
          <Column
            header={<span className="p-hidden-accessible">Actions</span>}
            body={(member: Member) => (
              <RowActions
                id={`member-actions-${member.user.id}`}
                name={member.user.name}
                items={[{ label: 'Remove Member', icon: 'pi pi-user-minus', command: () => remove.mutate(member) }]}
                disabled={remove.isPending && remove.variables?.user.id === member.user.id}
              />
            )}
            style={{ width: '4rem' }}
          />
        )}
      </DataTable>
      <ListPaginator page={page} total={data?.total ?? 0} onPage={onPage} />
    </>
  );
}

/** The Members tab (spec/catalogue.md section 2.3): the members table; team admins add, re-role and remove. */
export function TeamMembers({ team }: { team: Team }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState<Page>({ cursor: 0, limit: TEAM_LIST_PAGE_SIZE });
  const [adding, setAdding] = useState(false);
  useBreadcrumb(teamCrumbs(team, 'Members'));

  return (
    <div className="flex flex-column gap-3">
      {team.is_admin && (
        <div className="flex justify-content-end">
          <Button type="button" label="Add Member" icon="pi pi-user-plus" onClick={() => setAdding(true)} />
        </div>
      )}
      <MembersTable team={team} page={page} onPage={(cursor) => setPage((current) => ({ ...current, cursor }))} />
      {adding && (
        <AddMemberDialog
          team={team.handle}
          onClose={() => setAdding(false)}
          onAdded={() => {
            void queryClient.invalidateQueries({ queryKey: keys.teamMembers(team.handle) });
            invalidateTeam(queryClient, team);
          }}
        />
      )}
    </div>
  );
}
