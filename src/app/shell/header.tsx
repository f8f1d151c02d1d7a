import { Badge } from 'primereact/badge';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { OverlayPanel } from 'primereact/overlaypanel';
import { Tag } from 'primereact/tag';
import { useRef } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { canCreate, isAdminRole } from '../../domain/roles.js';
import { useAuth } from '../auth/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { deleteLocalDb } from '../../local/db.js';
import { useOutboxStatus } from '../../local/use-outbox.js';
import { useLocal } from '../local/local-provider.js';
import { useOnline } from './use-online.js';

/** A notification (spec section 3); the feeds issue fills the list. */
export interface NotificationItem {
  id: string;
  message: string;
  subject: { type: string; handle: string; name: string };
}

/** Spec: a notification item goes to '/{subject type}s/{subject handle}'. */
export function notificationPath(item: NotificationItem): string {
  return `/${item.subject.type}s/${item.subject.handle}`;
}

export function Header({ suspended, notifications = [] }: { suspended: boolean; notifications?: NotificationItem[] }) {
  const { state, logout, domain } = useAuth();
  const navigate = useNavigate();
  const online = useOnline();
  const outbox = useOutboxStatus(useLocal()?.db);
  const createMenu = useRef<Menu>(null);
  const userMenu = useRef<Menu>(null);
  const bell = useRef<OverlayPanel>(null);
  const role = state.user?.role ?? 'guest';
  const handle = state.user?.handle ?? state.username ?? '';

  const createItems: MenuItem[] = [
    ...(canCreate(role)
      ? [
          { label: 'Service', icon: 'pi pi-server', command: () => navigate('/services/new') },
          { label: 'Team', icon: 'pi pi-users', command: () => navigate('/teams/new') },
        ]
      : []),
    ...(isAdminRole(role)
      ? [{ label: 'Invite User', icon: 'pi pi-user-plus', command: () => navigate('/users/invite') }]
      : []),
  ];
  const userItems: MenuItem[] = [
    { label: 'Profile', icon: 'pi pi-user', command: () => navigate(`/users/${handle}`) },
    ...(isAdminRole(role)
      ? [
          { label: 'Admin', icon: 'pi pi-cog', command: () => navigate('/admin') },
          { label: 'Billing', icon: 'pi pi-credit-card', command: () => navigate('/billing') },
        ]
      : []),
    { separator: true },
    {
      label: 'Log Out',
      icon: 'pi pi-sign-out',
      command: () => {
        // What was cached for this user stays on a shared device no longer than the session.
        void logout()
          .then(() => deleteLocalDb(domain, handle))
          .then(() => navigate('/login'));
      },
    },
  ];

  return (
    <header className="beacon-header flex align-items-center gap-3 px-4 py-2">
      <Link to="/" className="beacon-logo flex align-items-center gap-2 no-underline" aria-label="Beacon home">
        <img src="/icons/icon-192.png" alt="" width={32} height={32} />
        <span className="font-bold text-xl">Beacon</span>
      </Link>
      {!suspended && (
        <nav aria-label="Main" className="flex gap-1">
          {[
            ['/services', 'Services'],
            ['/teams', 'Teams'],
            ['/users', 'Users'],
          ].map(([to, label]) => (
            <NavLink key={to} to={to!} className={({ isActive }) => `beacon-nav-link${isActive ? ' active' : ''}`}>
              {label}
            </NavLink>
          ))}
        </nav>
      )}
      <div className="flex-1" />
      {(!online || state.offline) && <Tag value="Offline" severity="warning" icon="pi pi-wifi" />}
      {outbox.pending > 0 && (
        <Tag value={`${outbox.pending} pending`} severity="info" icon="pi pi-sync" title="Changes waiting to be sent" />
      )}
      {outbox.failed > 0 && (
        <Tag
          value={`${outbox.failed} not sent`}
          severity="danger"
          icon="pi pi-exclamation-triangle"
          title="Changes the server refused"
        />
      )}
      {!suspended && createItems.length > 0 && (
        <>
          <Menu model={createItems} popup ref={createMenu} id="create-menu" />
          <Button
            icon="pi pi-plus"
            label="Create"
            size="small"
            aria-haspopup
            aria-controls="create-menu"
            onClick={(event) => createMenu.current?.toggle(event)}
          />
        </>
      )}
      <Button
        type="button"
        text
        rounded
        className="p-overlay-badge beacon-bell"
        aria-label={`Notifications (${notifications.length})`}
        onClick={(event) => bell.current?.toggle(event)}
      >
        <i className="pi pi-bell text-xl" aria-hidden="true" />
        {notifications.length > 0 && <Badge value={notifications.length} severity="danger" />}
      </Button>
      <OverlayPanel ref={bell} aria-label="Notifications">
        {notifications.length === 0 ? (
          <p className="m-0 text-600">No notifications</p>
        ) : (
          <ul className="list-none p-0 m-0">
            {notifications.map((item) => (
              <li key={item.id} className="py-2">
                <Link to={notificationPath(item)} onClick={() => bell.current?.hide()}>
                  {item.message}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </OverlayPanel>
      <Menu model={userItems} popup ref={userMenu} id="user-menu" />
      <Button
        type="button"
        text
        rounded
        aria-label="User menu"
        aria-haspopup
        aria-controls="user-menu"
        onClick={(event) => userMenu.current?.toggle(event)}
      >
        <ProfileAvatar name={state.user?.name ?? handle} url={state.user?.thumbnail_url} />
      </Button>
    </header>
  );
}
