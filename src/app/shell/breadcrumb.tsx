import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ProfileAvatar } from '../components/avatar.js';

/** The breadcrumb bar: an avatar, the name and optional crumbs, set by each screen. */
export interface Crumbs {
  name: string;
  to?: string;
  avatarUrl?: string | null;
  crumbs?: Array<{ label: string; to?: string }>;
}

const BreadcrumbContext = createContext<{ crumbs: Crumbs | null; set(crumbs: Crumbs | null): void } | null>(null);

export function BreadcrumbProvider({ children }: { children: ReactNode }) {
  const [crumbs, set] = useState<Crumbs | null>(null);
  const value = useMemo(() => ({ crumbs, set }), [crumbs]);
  return <BreadcrumbContext.Provider value={value}>{children}</BreadcrumbContext.Provider>;
}

/** Sets the breadcrumb while the calling screen is shown. */
export function useBreadcrumb(crumbs: Crumbs | null): void {
  const context = useContext(BreadcrumbContext);
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    context?.set(crumbs);
    return () => context?.set(null);
    // The serialised value decides when the crumbs changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

export function BreadcrumbBar() {
  const context = useContext(BreadcrumbContext);
  const crumbs = context?.crumbs;
  if (!crumbs) return null;
  return (
    <nav
      aria-label="Breadcrumb"
      className="beacon-breadcrumb flex flex-wrap align-items-center gap-2 px-4 py-2 surface-card border-bottom-1 surface-border"
    >
      <ProfileAvatar name={crumbs.name} url={crumbs.avatarUrl} />
      {crumbs.to ? (
        <Link to={crumbs.to} className="font-semibold text-900 no-underline">
          {crumbs.name}
        </Link>
      ) : (
        <span className="font-semibold">{crumbs.name}</span>
      )}
      {crumbs.crumbs?.map((crumb) => (
        <span key={crumb.label} className="flex align-items-center gap-2">
          <i className="pi pi-angle-right text-500" aria-hidden="true" />
          {crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : <span>{crumb.label}</span>}
        </span>
      ))}
    </nav>
  );
}
