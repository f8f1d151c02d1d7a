import type { MenuItem } from 'primereact/menuitem';
import { TabMenu } from 'primereact/tabmenu';
import { useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

/** Below PrimeFlex's `md` breakpoint (768 px): phones, where the sections fold into one control. */
export const NARROW_SCREEN = '(max-width: 767px)';

function narrowQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(NARROW_SCREEN)
    : null;
}

function subscribe(callback: () => void): () => void {
  const query = narrowQuery();
  query?.addEventListener('change', callback);
  return () => query?.removeEventListener('change', callback);
}

/** Whether the window is phone-narrow (below 768 px); false where it cannot be told. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => narrowQuery()?.matches ?? false,
    () => false,
  );
}

/** One section of a screen: a tab on wide screens, an entry of the sections menu on phones. */
export interface SectionLink {
  label: string;
  /** The path it opens. */
  to: string;
  icon?: string;
  /** Whether the current path is this section (or one of its child paths): the screen decides. */
  active: boolean;
}

export interface SectionNavProps {
  /** The navigation's accessible name, e.g. 'Service sections'. */
  label: string;
  /** A fixed id: the tabs' keys stay stable (PrimeReact's TabMenu remounts its tabs without one). */
  id: string;
  links: SectionLink[];
  /** On wide screens: a side menu (the service screens) or a row of tabs (the team and profile screens). */
  wide: 'side' | 'tabs';
}

function linkClass(active: boolean): string {
  return `flex align-items-center gap-2 p-2 border-round no-underline ${
    active ? 'bg-primary-50 text-primary-800 font-semibold' : 'text-800 hover:surface-100'
  }`;
}

/** The side menu of the service screens on wide screens. */
function SideMenu({ label, links }: Pick<SectionNavProps, 'label' | 'links'>) {
  return (
    <nav aria-label={label} className="surface-card border-round shadow-1 p-2">
      <ul className="list-none p-0 m-0 flex flex-column gap-1">
        {links.map((link) => (
          <li key={link.label}>
            <Link to={link.to} aria-current={link.active ? 'page' : undefined} className={linkClass(link.active)}>
              {link.icon && <i className={link.icon} aria-hidden="true" />}
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The row of tabs of the team and profile screens on wide screens. */
function TabRow({ label, id, links }: Pick<SectionNavProps, 'label' | 'id' | 'links'>) {
  const navigate = useNavigate();
  const model: MenuItem[] = links.map((link) => ({ label: link.label }));
  return (
    <TabMenu
      id={id}
      model={model}
      activeIndex={links.findIndex((link) => link.active)}
      onTabChange={(event) => {
        const link = links[event.index];
        if (link) navigate(link.to);
      }}
      pt={{ menu: { 'aria-label': label } }}
    />
  );
}

function linksOf(list: HTMLUListElement | null): HTMLAnchorElement[] {
  return Array.from(list?.querySelectorAll('a') ?? []);
}

/** The list's first stop from the button: the current section (else the first), or the last. */
function focusStart(list: HTMLUListElement | null, target: 'current' | 'last') {
  const all = linksOf(list);
  const active = all.findIndex((link) => link.getAttribute('aria-current') === 'page');
  all[target === 'last' ? all.length - 1 : Math.max(active, 0)]?.focus();
}

/**
 * Phones: one button that shows the current section and opens the list of sections below it (a disclosure of
 * links, so the screen's content starts in the first screenful). Arrow keys move through the list, Escape and
 * leaving it close it, and choosing a section closes it with the focus back on the button.
 */
function SectionMenu({ label, id, links }: Pick<SectionNavProps, 'label' | 'id' | 'links'>) {
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const current = links.find((link) => link.active);
  const listId = `${id}-list`;
  const list = useRef<HTMLUListElement>(null);
  // Opened from the keyboard, the list takes the focus once it shows.
  const focusOnOpen = useRef<'current' | 'last' | null>(null);
  useEffect(() => {
    const target = focusOnOpen.current;
    if (!open || target === null) return;
    focusOnOpen.current = null;
    focusStart(list.current, target);
  }, [open]);

  // A tap or click anywhere else closes the list.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const target = event.key === 'ArrowDown' ? 'current' : 'last';
      if (open) {
        focusStart(list.current, target);
      } else {
        focusOnOpen.current = target;
        setOpen(true);
      }
    }
  };

  const onListKeyDown = (event: KeyboardEvent) => {
    const all = linksOf(list.current);
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      all[(moves[event.key]! + all.length) % all.length]?.focus();
    }
  };

  return (
    <nav
      ref={nav}
      aria-label={label}
      className="beacon-section-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close(true);
        }
      }}
      onBlur={(event) => {
        // The focus moved on elsewhere (Tab). Without a next element (a tap that Safari does not focus) the
        // outside-tap listener decides: closing here would swallow the tap on a section.
        const next = event.relatedTarget as Node | null;
        if (open && next && !nav.current?.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="beacon-section-menu-button p-button p-button-outlined w-full flex align-items-center gap-2"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        onKeyDown={onButtonKeyDown}
      >
        {current?.icon && <i className={current.icon} aria-hidden="true" />}
        <span className="beacon-visually-hidden">{label}: </span>
        <span className="flex-1 text-left font-semibold">{current?.label ?? 'Choose a section'}</span>
        <i className={`pi ${open ? 'pi-chevron-up' : 'pi-chevron-down'}`} aria-hidden="true" />
      </button>
      <ul
        ref={list}
        id={listId}
        hidden={!open}
        className="beacon-section-menu-list list-none p-2 m-0 surface-overlay border-round shadow-3 flex-column gap-1"
        onKeyDown={onListKeyDown}
      >
        {links.map((link) => (
          <li key={link.label}>
            <Link
              to={link.to}
              aria-current={link.active ? 'page' : undefined}
              className={linkClass(link.active)}
              onClick={() => close(true)}
            >
              {link.icon && <i className={link.icon} aria-hidden="true" />}
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A screen's sections (the service, team and profile screens): a side menu or a row of tabs on wide screens,
 * and on phones one compact control showing the current section, so the content starts in the first screenful.
 */
export function SectionNav({ label, id, links, wide }: SectionNavProps) {
  const narrow = useNarrowScreen();
  if (narrow) return <SectionMenu label={label} id={id} links={links} />;
  return wide === 'side' ? <SideMenu label={label} links={links} /> : <TabRow label={label} id={id} links={links} />;
}
