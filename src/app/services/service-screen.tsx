import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { useApi } from '../session/use-api.js';
import { SectionNav } from '../components/section-nav.js';
import { MessageCard, NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { getServiceQueryOptions, replaceService } from './service-api.js';
import { servicePath } from '../routing/paths.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';

export const SERVICE_NOT_FOUND = 'The service was not found';

/**
 * A section of the service screens (spec 2.1): a side menu tab and what it shows. The frame is the services
 * feature's; the sections come from the features that own them (health checks, notices, ...), put together where
 * the app is composed, so no feature reaches into another.
 */
export interface ServiceSection {
  label: string;
  icon: string;
  /** The sub-path under /services/{handle}; '' is the overview. */
  path: string;
  /** Active only on its own path, not on its child paths. */
  exact?: boolean;
  /** Whether the viewer sees it (hidden tabs have no route either). */
  shown(service: Service): boolean;
  /** Whether it has screens below its path (`announcements/:pageId`): it routes them itself. */
  nested?: boolean;
  /** Its crumbs after the service's name for the path below the service (default: its label). */
  crumbs?(section: string): Array<{ label: string; to?: string }>;
  render(props: { service: Service; onUpdated: (service: Service) => void }): ReactNode;
}

/** A side menu tab: hidden when `display` is false; active on its path or below it. */
export interface ServiceTab {
  label: string;
  icon: string;
  path: string;
  display: boolean;
  exact?: boolean;
}

/** The side menu of a service. */
export function tabsOf(
  sections: readonly ServiceSection[],
  service: Service | Pick<Service, 'permissions'>,
): ServiceTab[] {
  return sections.map(({ label, icon, path, exact, shown }) => ({
    label,
    icon,
    path,
    display: shown(service as Service),
    ...(exact ? { exact } : {}),
  }));
}

/** Whether `section` (the path below the service, no leading slash) is the tab's path or one of its children. */
export function isTabActive(tab: ServiceTab, section: string): boolean {
  const current = section.replace(/^\/+|\/+$/g, '');
  if (current === tab.path) return true;
  return !tab.exact && tab.path !== '' && current.startsWith(`${tab.path}/`);
}

/** The crumb after the service's name for the section shown. */
function sectionCrumbs(
  sections: readonly ServiceSection[],
  tabs: ServiceTab[],
  section: string,
  base: string,
): Array<{ label: string; to?: string }> {
  const index = tabs.findIndex(
    (candidate) => candidate.display && candidate.path !== '' && isTabActive(candidate, section),
  );
  if (index < 0) return [];
  const crumbs = sections[index]?.crumbs;
  if (!crumbs) return [{ label: tabs[index]!.label }];
  // A section's crumbs link below the service.
  return crumbs(section.replace(/^\/+|\/+$/g, '')).map((crumb) =>
    crumb.to === undefined ? crumb : { ...crumb, to: `${base}/${crumb.to}` },
  );
}

/**
 * Service screens at /services/:id/* (spec/catalogue.md 2.1): the frame, its side menu (one control on phones)
 * and the sections.
 */
export function ServiceScreen({ sections }: { sections: readonly ServiceSection[] }) {
  const params = useParams();
  const id = params.id ?? '';
  const section = params['*'] ?? '';
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery(getServiceQueryOptions(api, id));
  const service = query.data;
  const state = loadStateOf(query);
  const tabs = service ? tabsOf(sections, service) : [];
  const base = servicePath(id);

  useBreadcrumb(
    service
      ? {
          name: service.name,
          to: base,
          avatarUrl: service.thumbnail_url,
          crumbs: sectionCrumbs(sections, tabs, section, base),
        }
      : null,
  );

  if (state === 'pending') return <Spinner label="Loading service" />;
  if (state === 'offline') return <NotAvailableOffline />;
  // Spec section 4: a failed service load marks it not found (what was seen before is shown instead).
  if (!service) return <MessageCard title={SERVICE_NOT_FOUND} icon="pi-server" />;

  const onUpdated = (updated: Service) => replaceService(queryClient, updated);
  return (
    // Keyed by the service: editors and drafts start afresh on another service.
    <div className="grid" key={id}>
      <div className="col-12 md:col-3">
        <SectionNav
          label="Service sections"
          id="service-sections"
          wide="side"
          links={tabs
            .filter((tab) => tab.display)
            .map((tab) => ({
              label: tab.label,
              icon: tab.icon,
              to: tab.path ? `${base}/${tab.path}` : base,
              active: isTabActive(tab, section),
            }))}
        />
      </div>
      <div className="col-12 md:col-9">
        <LastSynced query={query} />
        <Routes>
          {sections
            .filter((entry) => entry.shown(service))
            .map((entry) =>
              entry.path === '' ? (
                <Route key="" index element={entry.render({ service, onUpdated })} />
              ) : (
                <Route
                  key={entry.path}
                  path={entry.nested ? `${entry.path}/*` : entry.path}
                  element={entry.render({ service, onUpdated })}
                />
              ),
            )}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </div>
    </div>
  );
}
