import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NavLink, Route, Routes, useParams } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { useAuth } from '../auth/auth-context.js';
import { MessageCard, NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { HealthChecksScreen } from './health-checks-screen.js';
import { NoticesScreen } from './notices-screen.js';
import { getServiceQueryOptions, replaceService } from './service-api.js';
import { ServiceOverview } from './service-overview.js';
import { ServiceSettings } from './service-settings.js';

export const SERVICE_NOT_FOUND = 'The service was not found';

/** A side menu tab (spec 2.1): hidden when `display` is false; active on its path or below it. */
export interface ServiceTab {
  label: string;
  icon: string;
  /** The sub-path under /services/{handle}; '' is the overview. */
  path: string;
  display: boolean;
  /** Active only on its own path, not on its child paths. */
  exact?: boolean;
}

/** The side menu: everyone sees the overview, health checks and notices; editors (spec 6) the settings. */
export function serviceTabs(service: Pick<Service, 'permissions'>): ServiceTab[] {
  return [
    { label: 'Overview', icon: 'pi pi-home', path: '', display: true, exact: true },
    { label: 'Health Checks', icon: 'pi pi-heart', path: 'health-checks', display: true },
    { label: 'Notices', icon: 'pi pi-megaphone', path: 'notices', display: true },
    { label: 'Settings', icon: 'pi pi-cog', path: 'settings', display: service.permissions.edit },
  ];
}

/** Whether `section` (the path below the service, no leading slash) is the tab's path or one of its children. */
export function isTabActive(tab: ServiceTab, section: string): boolean {
  const current = section.replace(/^\/+|\/+$/g, '');
  if (current === tab.path) return true;
  return !tab.exact && tab.path !== '' && current.startsWith(`${tab.path}/`);
}

function SideMenu({ base, tabs }: { base: string; tabs: ServiceTab[] }) {
  const params = useParams();
  const section = params['*'] ?? '';
  return (
    <nav aria-label="Service sections" className="surface-card border-round shadow-1 p-2">
      <ul className="list-none p-0 m-0 flex flex-column gap-1">
        {tabs
          .filter((tab) => tab.display)
          .map((tab) => {
            const active = isTabActive(tab, section);
            return (
              <li key={tab.label}>
                <NavLink
                  to={tab.path ? `${base}/${tab.path}` : base}
                  end={tab.exact}
                  aria-current={active ? 'page' : undefined}
                  className={`flex align-items-center gap-2 p-2 border-round no-underline ${
                    active ? 'bg-primary-50 text-primary-800 font-semibold' : 'text-800 hover:surface-100'
                  }`}
                >
                  <i className={tab.icon} aria-hidden="true" />
                  {tab.label}
                </NavLink>
              </li>
            );
          })}
      </ul>
    </nav>
  );
}

/** The crumb after the service's name for the section shown. */
function sectionCrumbs(tabs: ServiceTab[], section: string): Array<{ label: string }> {
  const tab = tabs.find((candidate) => candidate.display && candidate.path !== '' && isTabActive(candidate, section));
  return tab ? [{ label: tab.label }] : [];
}

/** Service screens at /services/:id/* (spec/catalogue.md 2.1): the frame, Overview and Settings. */
export default function ServiceScreen() {
  const params = useParams();
  const id = params.id ?? '';
  const section = params['*'] ?? '';
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const { data: service, isPending, isError } = useQuery(getServiceQueryOptions(api, id));
  const tabs = service ? serviceTabs(service) : [];
  const base = `/services/${encodeURIComponent(id)}`;

  useBreadcrumb(
    service
      ? { name: service.name, to: base, avatarUrl: service.thumbnail_url, crumbs: sectionCrumbs(tabs, section) }
      : null,
  );

  if (isPending) return <Spinner label="Loading service" />;
  // Spec section 4: a failed service load marks it not found.
  if (isError || !service) return <MessageCard title={SERVICE_NOT_FOUND} icon="pi-server" />;

  const onUpdated = (updated: Service) => replaceService(queryClient, updated);
  return (
    // Keyed by the service: editors and drafts start afresh on another service.
    <div className="grid" key={id}>
      <div className="col-12 md:col-3">
        <SideMenu base={base} tabs={tabs} />
      </div>
      <div className="col-12 md:col-9">
        <Routes>
          <Route index element={<ServiceOverview service={service} />} />
          <Route path="health-checks" element={<HealthChecksScreen service={service} />} />
          <Route path="notices" element={<NoticesScreen service={service} />} />
          {service.permissions.edit && (
            <Route path="settings" element={<ServiceSettings service={service} onUpdated={onUpdated} />} />
          )}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </div>
    </div>
  );
}
