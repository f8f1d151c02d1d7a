import { Badge } from 'primereact/badge';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { OverlayPanel } from 'primereact/overlaypanel';
import { Tag } from 'primereact/tag';
import { useRef } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { canCreate, isAdminRole } from '../../domain/roles.js';
import type { Notification } from '../../contract/feeds.js';
import { useAuth } from '../session/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { deleteLocalDb } from '../../local/db.js';
import { useOutboxStatus } from '../../local/use-outbox.js';
import { useLocal } from '../local/local-provider.js';
import { useOnline } from '../components/use-online.js';

/** The main links: in the header on larger screens, in the main menu on phones. */
const MAIN_NAV: ReadonlyArray<readonly [string, string]> = [
  ['/services', 'Services'],
  ['/teams', 'Teams'],
  ['/users', 'Users'],
];

/** A notification as the bell lists it (the feeds issue fills the list). */
type NotificationItem = Pick<Notification, 'id' | 'message' | 'subject'>;

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
  const navMenu = useRef<Menu>(null);
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

  const navItems: MenuItem[] = MAIN_NAV.map(([to, label]) => ({ label, command: () => navigate(to) }));

  return (
    <header className="beacon-header flex align-items-center gap-2 md:gap-3 px-2 md:px-4 py-2">
      {!suspended && (
        // Phones: the main links fold into a menu (the header has no room for them at 360-414 px).
        <>
          <Menu model={navItems} popup ref={navMenu} id="main-menu" />
          <Button
            type="button"
            text
            rounded
            icon="pi pi-bars"
            className="md:hidden beacon-header-icon"
            aria-label="Main menu"
            aria-haspopup
            aria-controls="main-menu"
            onClick={(event) => navMenu.current?.toggle(event)}
          />
        </>
      )}
      <Link to="/" className="beacon-logo flex align-items-center gap-2 no-underline" aria-label="Beacon home">
        <img src="/icons/icon-192.png" alt="" width={32} height={32} />
        <span className="font-bold text-xl hidden sm:inline">Beacon</span>
      </Link>
      {!suspended && (
        <nav aria-label="Main" className="hidden md:flex gap-1">
          {MAIN_NAV.map(([to, label]) => (
            <NavLink key={to} to={to} className={({ isActive }) => `beacon-nav-link${isActive ? ' active' : ''}`}>
              {label}
            </NavLink>
          ))}
        </nav>
      )}
      <div className="flex-1" />
      {(!online || state.offline) && (
        <Tag value="Offline" severity="warning" icon="pi pi-wifi" className="beacon-header-tag" />
      )}
      {outbox.pending > 0 && (
        <Tag
          value={`${outbox.pending} pending`}
          severity="info"
          icon="pi pi-sync"
          title="Changes waiting to be sent"
          className="beacon-header-tag"
        />
      )}
      {outbox.failed > 0 && (
        <Tag
          value={`${outbox.failed} not sent`}
          severity="danger"
          icon="pi pi-exclamation-triangle"
          title="Changes the server refused"
          className="beacon-header-tag"
        />
      )}
      {!suspended && createItems.length > 0 && (
        <>
          <Menu model={createItems} popup ref={createMenu} id="create-menu" />
          <Button
            icon="pi pi-plus"
            label="Create"
            size="small"
            className="beacon-create"
            aria-label="Create"
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
        className="p-overlay-badge beacon-header-icon"
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
