import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Link, useParams } from 'react-router-dom';
import type { StatusPage } from '../../contract/status-pages.js';
import { useApi } from '../session/use-api.js';
import { LinkButton } from '../components/link-button.js';
import { DeleteCard } from '../components/delete-card.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { DomainStatusTag, StatusPageDomain } from './status-page-domain.js';
import { StatusPageForm } from './status-page-form.js';
import { StatusPageSubscribers } from './status-page-subscribers.js';
import {
  ACCESS_LABELS,
  deleteStatusPage,
  forgetStatusPage,
  getStatusPageQueryOptions,
  getStatusPagesQueryOptions,
  STATUS_PAGES_PATH,
  statusPagePath,
} from './status-pages-api.js';
import { plural } from '../../domain/words.js';

export const STATUS_PAGE_DELETED = 'Status page was deleted';
export const STATUS_PAGE_DELETE_FAILED = 'There was an error while deleting your status page';
export const STATUS_PAGES_EMPTY =
  'A status page shows your customers how your services are doing: their health over the last 90 days, ' +
  'incidents and planned maintenance, at an address of its own. Add one and choose the services it shows.';

const NEW_PAGE_PATH = `${STATUS_PAGES_PATH}/new`;

const serviceCount = (page: StatusPage) => page.groups.reduce((sum, group) => sum + group.services.length, 0);

/** Where visitors read the page, in a new tab; its name says which page. */
function OpenPageLink({ page }: { page: StatusPage }) {
  return (
    <a href={page.url} target="_blank" rel="noopener noreferrer" className="inline-flex align-items-center gap-2">
      <i className="pi pi-external-link" aria-hidden="true" />
      <span>
        Open page<span className="beacon-visually-hidden">{` ${page.title} (opens in a new tab)`}</span>
      </span>
    </a>
  );
}

/** The admin overview's card: what status pages are, and the way to them. */
export function StatusPagesCard() {
  return (
    <Card className="h-full" title={<h2 className="text-xl font-semibold m-0">Status pages</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">Public pages that show your customers how your services are doing.</p>
        <div>
          <LinkButton to={STATUS_PAGES_PATH} icon="pi pi-globe" label="Manage status pages" />
        </div>
      </div>
    </Card>
  );
}

function StatusPageItem({ page }: { page: StatusPage }) {
  const count = serviceCount(page);
  return (
    <li className="beacon-status-admin-item surface-card border-round shadow-1 p-3 flex flex-column gap-2">
      <h2 className="text-lg font-semibold m-0 beacon-editor-wrap">
        <Link to={statusPagePath(page.handle)}>{page.title}</Link>
      </h2>
      <dl className="beacon-status-admin-facts m-0">
        <div>
          <dt>Handle</dt>
          <dd>{page.handle}</dd>
        </div>
        <div>
          <dt>Access</dt>
          <dd>{ACCESS_LABELS[page.access]}</dd>
        </div>
        <div>
          <dt>Services</dt>
          <dd>{plural(count, 'service', 'services')}</dd>
        </div>
        {page.custom_domain && page.custom_domain_status && (
          <div>
            <dt>Domain</dt>
            <dd className="flex flex-wrap align-items-center gap-2">
              <span className="beacon-editor-wrap">{page.custom_domain}</span>
              <DomainStatusTag status={page.custom_domain_status} />
            </dd>
          </div>
        )}
      </dl>
      <div>
        <OpenPageLink page={page} />
      </div>
    </li>
  );
}

/** /admin/status-pages: the workspace's status pages, and Add status page. */
export function StatusPagesScreen() {
  useBreadcrumb({ name: 'Admin', to: '/admin', crumbs: [{ label: 'Status pages' }] });
  const api = useApi();
  const list = useQuery(getStatusPagesQueryOptions(api));
  const pages = list.data ?? [];
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0">Status pages</h1>
        <LinkButton to={NEW_PAGE_PATH} icon="pi pi-plus" label="Add status page" />
      </div>
      {list.isPending ? (
        <Spinner label="Loading status pages" />
      ) : list.data === undefined ? (
        <p className="m-0 p-error" role="alert">
          Status pages could not be loaded
        </p>
      ) : pages.length === 0 ? (
        <Card>
          <div className="flex flex-column align-items-center gap-3 text-center">
            <i className="pi pi-globe text-4xl text-primary" aria-hidden="true" />
            <p className="m-0 font-semibold">No status pages yet</p>
            <p className="m-0 text-700 beacon-status-admin-measure">{STATUS_PAGES_EMPTY}</p>
          </div>
        </Card>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Status pages">
          {pages.map((page) => (
            <StatusPageItem key={page.handle} page={page} />
          ))}
        </ul>
      )}
    </div>
  );
}

const editorCrumbs = (label: string) => ({
  name: 'Admin',
  to: '/admin',
  crumbs: [{ label: 'Status pages', to: STATUS_PAGES_PATH }, { label }],
});

/** What the form holds of the page (draftOf): a domain check, which changes none of it, keeps the form's edits. */
const FORM_FIELDS = [
  'handle',
  'title',
  'description',
  'logo_url',
  'access',
  'has_password',
  'custom_domain',
  'show_upstream',
  'upstream_depth',
  'groups',
] as const satisfies readonly (keyof StatusPage)[];
const settingsKey = (page: StatusPage | null) =>
  page ? JSON.stringify(FORM_FIELDS.map((field) => page[field])) : 'new';

function StatusPageEditor({ page }: { page: StatusPage | null }) {
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0 beacon-editor-wrap">{page ? page.title : 'New status page'}</h1>
        {page && <OpenPageLink page={page} />}
      </div>
      {/* After a save the page is the server's answer: the form starts afresh from it (not after a domain check). */}
      <StatusPageForm key={settingsKey(page)} page={page} />
      {page && <StatusPageDomain page={page} />}
      {page && <StatusPageSubscribers handle={page.handle} />}
      {page && (
        <DeleteCard
          label="Delete status page"
          note="Visitors, feeds and badges of this page stop working at once, and its address is free again."
          question={`Are you sure you want to delete the status page ${page.title}?`}
          remove={(api) => deleteStatusPage(api, page.handle)}
          deleted={STATUS_PAGE_DELETED}
          failed={STATUS_PAGE_DELETE_FAILED}
          leaveTo={STATUS_PAGES_PATH}
          forget={(queryClient) => forgetStatusPage(queryClient, page.handle)}
        />
      )}
    </div>
  );
}

function NewStatusPage() {
  useBreadcrumb(editorCrumbs('New status page'));
  return <StatusPageEditor page={null} />;
}

function ExistingStatusPage({ handle }: { handle: string }) {
  const api = useApi();
  const query = useQuery(getStatusPageQueryOptions(api, handle));
  useBreadcrumb(editorCrumbs(query.data?.title ?? handle));
  if (query.isPending) return <Spinner label="Loading status page" />;
  if (!query.data) return <NotFound title="Status page not found" text="The status page was not found" />;
  return <StatusPageEditor page={query.data} />;
}

/** /admin/status-pages/new and /admin/status-pages/{handle}: the form, and on a saved page its delete. */
export function StatusPageScreen() {
  const { page } = useParams();
  return page ? <ExistingStatusPage key={page} handle={page} /> : <NewStatusPage />;
}
