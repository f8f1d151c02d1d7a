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
import { LastSynced } from '../components/load-state.js';
import { fromNow } from '../components/from-now.js';

/** The main links: in the header on larger screens, in the main menu on phones. Guests read no alerts. */
const MAIN_NAV: ReadonlyArray<{ to: string; label: string; members?: true }> = [
  { to: '/services', label: 'Services' },
  { to: '/teams', label: 'Teams' },
  { to: '/alerts', label: 'Alerts', members: true },
  { to: '/scorecards', label: 'Scorecards' },
  { to: '/users', label: 'Users' },
];

/** A count beside a main link (the open alerts), by the link's path; filled in by app-shell.tsx. */
export type NavCounts = Readonly<Partial<Record<string, number>>>;

/** The count as a badge: the number shown, and said in words for assistive technology. */
function NavCount({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <>
      <Badge value={count > 99 ? '99+' : count} severity="danger" className="ml-2" aria-hidden="true" />
      <span className="beacon-visually-hidden"> ({count} open)</span>
    </>
  );
}

/** A notification as the bell lists it; one without `read` counts as unread. */
export type NotificationItem = Pick<Notification, 'id' | 'message' | 'subject'> &
  Partial<Pick<Notification, 'created_at' | 'read'>>;

/** Spec: a notification item goes to '/{subject type}s/{subject handle}'. */
export function notificationPath(item: Pick<Notification, 'subject'>): string {
  return `/${item.subject.type}s/${item.subject.handle}`;
}

/** What the bell shows and does (the notifications feature fills it in; see app-shell.tsx). */
export interface BellProps {
  notifications?: NotificationItem[];
  /** The badge's count (the `unread` header); by default the listed items not read. */
  unread?: number;
  /** A notification was opened: mark it read. */
  onRead?(id: string): void;
  /** 'Mark all as read'. */
  onReadAll?(): void;
  /** The list's query: what was last seen is marked as such while offline. */
  synced?: { data: unknown; isError: boolean; dataUpdatedAt: number };
}

const isUnread = (item: NotificationItem) => item.read !== true;

export function Header({
  suspended,
  navCounts = {},
  notifications = [],
  unread,
  onRead,
  onReadAll,
  synced,
}: BellProps & { suspended: boolean; navCounts?: NavCounts }) {
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
  const unreadCount = unread ?? notifications.filter(isUnread).length;

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

  const mainNav = MAIN_NAV.filter((link) => !link.members || role !== 'guest');
  const navItems: MenuItem[] = mainNav.map(({ to, label }) => {
    const count = navCounts[to];
    return { label: count ? `${label} (${count} open)` : label, command: () => navigate(to) };
  });

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
          {mainNav.map(({ to, label }) => (
            <NavLink key={to} to={to} className={({ isActive }) => `beacon-nav-link${isActive ? ' active' : ''}`}>
              {label}
              <NavCount count={navCounts[to]} />
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
        aria-label={unreadCount > 0 ? `Notifications (${unreadCount} unread)` : 'Notifications'}
        aria-haspopup
        aria-controls="notifications-panel"
        onClick={(event) => bell.current?.toggle(event)}
      >
        <i className="pi pi-bell text-xl" aria-hidden="true" />
        {unreadCount > 0 && (
          <Badge value={unreadCount > 99 ? '99+' : unreadCount} severity="danger" data-testid="notifications-badge" />
        )}
      </Button>
      <OverlayPanel
        ref={bell}
        id="notifications-panel"
        className="beacon-bell-panel"
        // On the root only: props of the panel itself are spread on its content too.
        pt={{ root: { role: 'dialog', 'aria-label': 'Notifications' } }}
      >
        <div className="flex align-items-center gap-2 mb-2">
          <h2 className="text-base font-semibold m-0 flex-1">Notifications</h2>
          <Button
            type="button"
            text
            size="small"
            label="Mark all as read"
            icon="pi pi-check"
            className="py-1 px-2"
            disabled={unreadCount === 0 || !onReadAll}
            onClick={() => onReadAll?.()}
          />
        </div>
        {synced && <LastSynced query={synced} />}
        {notifications.length === 0 ? (
          <p className="m-0 text-600">No notifications</p>
        ) : (
          <ul className="list-none p-0 m-0 beacon-bell-list" aria-label="Latest notifications">
            {notifications.map((item) => {
              const itemUnread = isUnread(item);
              return (
                <li key={item.id} className={`beacon-bell-item${itemUnread ? ' beacon-bell-unread' : ''}`}>
                  <Link
                    to={notificationPath(item)}
                    className="flex gap-2 align-items-start no-underline p-2 border-round"
                    onClick={() => {
                      if (itemUnread) onRead?.(item.id);
                      bell.current?.hide();
                    }}
                  >
                    <span className="beacon-bell-dot" aria-hidden="true" />
                    <span className="flex-1 flex flex-column gap-1" style={{ minWidth: 0 }}>
                      <span className={itemUnread ? 'font-semibold text-900' : 'text-700'}>
                        {item.message}
                        {itemUnread && <span className="beacon-visually-hidden"> (unread)</span>}
                      </span>
                      {item.created_at && (
                        <time dateTime={item.created_at} className="text-sm text-600">
                          {fromNow(item.created_at)}
                        </time>
                      )}
                    </span>
                  </Link>
                </li>
              );
            })}
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
