import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { InputSwitch } from 'primereact/inputswitch';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Invite, User } from '../../contract/accounts.js';
import type { PageOf } from '../../contract/operation.js';
import { inviteOperations } from '../../contract/operations/invites.js';
import { userOperations } from '../../contract/operations/users.js';
import { capitalise, isAdminRole, ROLES, roleChangeDenial, selectableRoles, type Role } from '../../domain/roles.js';
import { keys, type SearchPage } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { useAuth } from '../session/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { ListPaginator } from '../components/list-paginator.js';
import { RowActions } from '../components/row-actions.js';
import { SearchBox } from '../components/search-box.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';
import { getInvitesQueryOptions, getUsersQueryOptions, USERS_PAGE_SIZE } from './users-api.js';
import { userPath } from '../routing/paths.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { fromNow } from '../components/from-now.js';

/** Replaces the item with the same id in a cached page. */
function replaceItem<T extends { id: string }>(page: PageOf<T> | undefined, item: T): PageOf<T> | undefined {
  return page && { ...page, items: page.items.map((current) => (current.id === item.id ? item : current)) };
}

/** Whether the viewer may change this user's role: an admin or owner, on a row that is not an owner unless an owner views. */
export function canChangeRoleOf(viewer: Role, target: Role): boolean {
  return roleChangeDenial(viewer, target, target) === null;
}

export function formatLastLogin(value: string | null): string {
  return value ? dayjs(value).format('MM/DD/YYYY') : '-';
}

function RoleCell({
  user,
  viewer,
  pending,
  onChange,
}: {
  user: User;
  viewer: Role;
  pending: boolean;
  onChange: (role: Role) => void;
}) {
  if (!canChangeRoleOf(viewer, user.role)) return <span>{capitalise(user.role)}</span>;
  const allowed = selectableRoles(viewer);
  const options = ROLES.map((role) => ({ label: capitalise(role), value: role, disabled: !allowed.includes(role) }));
  return (
    <LabelledSelect
      id={`user-role-${user.id}`}
      label={`Role of ${user.name}`}
      value={user.role}
      options={options}
      disabled={pending}
      onChange={onChange}
      hideLabel
      className="w-full md:w-10rem"
    />
  );
}

function UsersTable({
  params,
  viewer,
  onPage,
}: {
  params: SearchPage;
  viewer: Role;
  onPage: (cursor: number) => void;
}) {
  const { api, state, reloadUser } = useAuth();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const options = getUsersQueryOptions(api, params);
  const query = useQuery(options);
  const { data } = query;
  const loadState = loadStateOf(query);
  const changeRole = useMutation({
    mutationFn: ({ user, role }: { user: User; role: Role }) =>
      api.call(userOperations.changeUserRole, { params: { userId: user.id }, body: { role } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(options.queryKey, (page) => replaceItem(page, updated));
      void queryClient.invalidateQueries({ queryKey: keys.user(updated.handle) });
      enqueue('User Role Update');
      if (updated.id === state.user?.id) void reloadUser();
    },
    // Spec: a failed role update only sets an error flag; the row keeps its role.
  });

  if (loadState === 'pending') return <Spinner />;
  if (loadState === 'offline') return <NotAvailableOffline />;
  const users = data?.items ?? [];
  return (
    <>
      <LastSynced query={query} />
      <DataTable value={users} dataKey="id" emptyMessage="No Users." pt={{ table: { 'aria-label': 'Users' } }}>
        <Column
          header={<span className="p-hidden-accessible">Avatar</span>}
          body={(user: User) => <ProfileAvatar name={user.name} url={user.thumbnail_url} />}
          style={{ width: '4rem' }}
        />
        <Column header="Name" body={(user: User) => <Link to={userPath(user.handle)}>{user.name}</Link>} />
        <Column header="Bio" body={(user: User) => user.bio ?? ''} />
        <Column
          header="Role"
          body={(user: User) => (
            <RoleCell
              user={user}
              viewer={viewer}
              pending={changeRole.isPending && changeRole.variables?.user.id === user.id}
              onChange={(role) => changeRole.mutate({ user, role })}
            />
          )}
        />
        <Column header="Last Login" body={(user: User) => formatLastLogin(user.last_login)} />
      </DataTable>
      <ListPaginator page={params} total={data?.total ?? 0} onPage={onPage} showSinglePage />
    </>
  );
}

function InvitesTable({ params, onPage }: { params: SearchPage; onPage: (cursor: number) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const options = getInvitesQueryOptions(api, params);
  const { data, isPending } = useQuery(options);
  const resend = useMutation({
    mutationFn: (invite: Invite) => api.call(inviteOperations.resendInvite, { params: { inviteId: invite.id } }),
    onSuccess: (invite) => {
      queryClient.setQueryData(options.queryKey, (page) => replaceItem(page, invite));
      enqueue('Invite resent');
    },
    onError: () => enqueue('There was an error sending your invite', 'error'),
  });

  if (isPending) return <Spinner />;
  const invites = data?.items ?? [];
  return (
    <>
      <DataTable
        value={invites}
        dataKey="id"
        emptyMessage="No Invites."
        pt={{ table: { 'aria-label': 'Pending invites' } }}
      >
        <Column header="Email" field="email" />
        <Column header="Last Sent" body={(invite: Invite) => fromNow(invite.last_sent)} />
        <Column
          header={<span className="p-hidden-accessible">Actions</span>}
          body={(invite: Invite) => (
            <RowActions
              id={`invite-actions-${invite.id}`}
              name={invite.email}
              items={[{ label: 'Resend Invite', icon: 'pi pi-send', command: () => resend.mutate(invite) }]}
              disabled={resend.isPending && resend.variables?.id === invite.id}
            />
          )}
          style={{ width: '4rem' }}
        />
      </DataTable>
      <ListPaginator page={params} total={data?.total ?? 0} onPage={onPage} showSinglePage />
    </>
  );
}

/** The users directory (spec/platform.md section 2, "Users directory"). */
export default function UsersScreen() {
  const { state } = useAuth();
  const viewer: Role = state.user?.role ?? 'guest';
  const admin = isAdminRole(viewer);
  const [params, setParams] = useState<SearchPage>({ cursor: 0, limit: USERS_PAGE_SIZE, q: '' });
  const [pendingUsers, setPendingUsers] = useState(false);
  const setCursor = (cursor: number) => setParams((current) => ({ ...current, cursor }));

  function togglePending(value: boolean) {
    setPendingUsers(value);
    setParams((current) => ({ ...current, cursor: 0 }));
  }

  const showInvites = admin && pendingUsers;
  return (
    <section className="flex flex-column gap-3">
      <h1 className="text-3xl font-semibold m-0">Users</h1>
      <div className="flex flex-wrap align-items-center gap-3">
        {/* Spec: changing the search text resets the offset to 0. */}
        <SearchBox
          id="users-search"
          label="Search users"
          onSearch={(q) => setParams((current) => ({ ...current, q, cursor: 0 }))}
          className="flex-1"
          style={{ minWidth: '16rem' }}
        />
        {admin && (
          <div className="flex align-items-center gap-2">
            <InputSwitch
              inputId="users-pending"
              checked={pendingUsers}
              onChange={(event) => togglePending(Boolean(event.value))}
              pt={{ root: { role: 'none', 'aria-checked': undefined } }}
            />
            <label htmlFor="users-pending">Pending Users</label>
          </div>
        )}
      </div>
      {showInvites ? (
        <InvitesTable params={params} onPage={setCursor} />
      ) : (
        <UsersTable params={params} viewer={viewer} onPage={setCursor} />
      )}
    </section>
  );
}
