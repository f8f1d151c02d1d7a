import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { InputSwitch } from 'primereact/inputswitch';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import type { invite, User } from '../../contract/accounts.js';
import { DEFAULT_PAGE_SIZE } from '../../domain/pagination.js';
import { capitalise, isAdminRole, ROLES, roleChangeDenial, selectableRoles, type Role } from '../../domain/roles.js';
import { getPage, type ApiClient } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { ListPaginator } from '../components/list-paginator.js';
import { RowActions } from '../components/row-actions.js';
import { SearchBox } from '../components/search-box.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../shell/snackbars.js';
import { retryUnlessClientError } from './query-retry.js';

dayjs.extend(relativeTime);

/** Spec: users page size 20 from offset 0. */
export const USERS_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export type Invite = z.infer<typeof invite>;

export interface ListParams {
  cursor: number;
  limit: number;
  q: string;
}

export interface ListPage<T> {
  items: T[];
  total: number;
}

export function getUsersQueryOptions(api: ApiClient, params: ListParams) {
  return queryOptions({
    queryKey: ['users', 'search', params] as const,
    queryFn: () => getPage<User>(api, '/search/users', { cursor: params.cursor, limit: params.limit, q: params.q }),
    retry: retryUnlessClientError,
  });
}

export function getInvitesQueryOptions(api: ApiClient, params: ListParams) {
  return queryOptions({
    queryKey: ['invites', params] as const,
    queryFn: () => getPage<Invite>(api, '/invites', { cursor: params.cursor, limit: params.limit, q: params.q }),
    retry: retryUnlessClientError,
  });
}

/** Replaces the item with the same id in a cached page. */
function replaceItem<T extends { id: string }>(page: ListPage<T> | undefined, item: T): ListPage<T> | undefined {
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
  params: ListParams;
  viewer: Role;
  onPage: (cursor: number) => void;
}) {
  const { api, state, reloadUser } = useAuth();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const options = getUsersQueryOptions(api, params);
  const { data, isPending, isError } = useQuery(options);
  const changeRole = useMutation({
    mutationFn: ({ user, role }: { user: User; role: Role }) =>
      api.send<User>('POST', `/users/${encodeURIComponent(user.id)}/actions/change-role`, { role }),
    onSuccess: (updated) => {
      queryClient.setQueryData(options.queryKey, (page) => replaceItem(page, updated));
      void queryClient.invalidateQueries({ queryKey: ['user', updated.handle] });
      enqueue('User Role Update');
      if (updated.id === state.user?.id) void reloadUser();
    },
    // Spec: a failed role update only sets an error flag; the row keeps its role.
  });

  if (isPending) return <Spinner />;
  const users = isError ? [] : data.items;
  return (
    <>
      <DataTable value={users} dataKey="id" emptyMessage="No Users." pt={{ table: { 'aria-label': 'Users' } }}>
        <Column
          header={<span className="p-hidden-accessible">Avatar</span>}
          body={(user: User) => <ProfileAvatar name={user.name} url={user.thumbnail_url} />}
          style={{ width: '4rem' }}
        />
        <Column
          header="Name"
          body={(user: User) => <Link to={`/users/${encodeURIComponent(user.handle)}`}>{user.name}</Link>}
        />
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
      <ListPaginator page={params} total={isError ? 0 : data.total} onPage={onPage} showSinglePage />
    </>
  );
}

function InvitesTable({ params, onPage }: { params: ListParams; onPage: (cursor: number) => void }) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const options = getInvitesQueryOptions(api, params);
  const { data, isPending, isError } = useQuery(options);
  const resend = useMutation({
    mutationFn: (invite: Invite) =>
      api.send<Invite>('POST', `/invites/${encodeURIComponent(invite.id)}/actions/resend`),
    onSuccess: (invite) => {
      queryClient.setQueryData(options.queryKey, (page) => replaceItem(page, invite));
      enqueue('Invite resent');
    },
    onError: () => enqueue('There was an error sending your invite', 'error'),
  });

  if (isPending) return <Spinner />;
  const invites = isError ? [] : data.items;
  return (
    <>
      <DataTable
        value={invites}
        dataKey="id"
        emptyMessage="No Invites."
        pt={{ table: { 'aria-label': 'Pending invites' } }}
      >
        <Column header="Email" field="email" />
        <Column header="Last Sent" body={(invite: Invite) => dayjs(invite.last_sent).fromNow()} />
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
      <ListPaginator page={params} total={isError ? 0 : data.total} onPage={onPage} showSinglePage />
    </>
  );
}

/** The users directory (spec/platform.md section 2, "Users directory"). */
export default function UsersScreen() {
  const { state } = useAuth();
  const viewer: Role = state.user?.role ?? 'guest';
  const admin = isAdminRole(viewer);
  const [params, setParams] = useState<ListParams>({ cursor: 0, limit: USERS_PAGE_SIZE, q: '' });
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
