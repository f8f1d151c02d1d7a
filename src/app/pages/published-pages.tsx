import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { useState, type ComponentType } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { PublishedPage, PublishedSummary } from '../../contract/pages.js';
import { DEFAULT_PAGE_SIZE, type Page } from '../../domain/pagination.js';
import { useApi } from '../session/use-api.js';
import { ListPaginator } from '../components/list-paginator.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { servicePath } from '../routing/paths.js';
import { Markdown } from './markdown.js';
import { formatPageDate } from './page-format.js';
import type { PageKind } from './page-kinds.js';
import { getPublishedPageQueryOptions, getPublishedPagesQueryOptions } from './pages-api.js';
import { SpecView } from './spec-view.js';

const FIRST_PAGE: Page = { cursor: 0, limit: DEFAULT_PAGE_SIZE };

/** Other features' cards on a section: above its list, and on one published page (below its header). */
export interface PublishedExtras {
  list?: ReadonlyArray<ComponentType<{ service: Service }>> | undefined;
  page?: ReadonlyArray<ComponentType<{ service: Service; page: PublishedPage }>> | undefined;
}

/** A section's published list (spec 2.1): Name and Updated, its empty text, Manage (to the drafts) for editors. */
export function PublishedList({
  service,
  kind,
  cards = [],
}: {
  service: Service;
  kind: PageKind;
  cards?: PublishedExtras['list'];
}) {
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState<Page>(FIRST_PAGE);
  const query = useQuery(getPublishedPagesQueryOptions(api, service.handle, kind.section, page));
  const state = loadStateOf(query);
  const base = `${servicePath(service.handle)}/${kind.section}`;
  return (
    <div className="flex flex-column gap-3">
      {cards.map((Extra, index) => (
        <Extra key={index} service={service} />
      ))}
      <Card>
        <div className="flex flex-column gap-3">
          <div className="flex align-items-center justify-content-between gap-2 flex-wrap">
            <h1 className="text-2xl font-semibold m-0">{kind.label}</h1>
            {service.permissions.edit && (
              <Button
                type="button"
                label="Manage"
                icon="pi pi-pencil"
                outlined
                onClick={() => navigate(`${servicePath(service.handle)}/${kind.draftsPath}`)}
              />
            )}
          </div>
          {state === 'pending' ? (
            <Spinner label={`Loading ${kind.label}`} />
          ) : state === 'offline' ? (
            <NotAvailableOffline />
          ) : (
            <>
              <DataTable
                value={query.data?.items ?? []}
                dataKey="id"
                emptyMessage={kind.empty}
                pt={{ table: { 'aria-label': kind.label } }}
              >
                <Column
                  header={kind.titleLabel}
                  body={(item: PublishedSummary) => (
                    <Link to={`${base}/${encodeURIComponent(item.id)}`}>{item.title}</Link>
                  )}
                />
                <Column
                  header="Updated"
                  body={(item: PublishedSummary) => (
                    <time dateTime={item.published_at}>{formatPageDate(item.published_at)}</time>
                  )}
                  style={{ width: '10rem' }}
                />
              </DataTable>
              <ListPaginator
                page={page}
                total={query.data?.total ?? 0}
                onPage={(cursor) => setPage((current) => ({ ...current, cursor }))}
              />
            </>
          )}
        </div>
      </Card>
    </div>
  );
}

/** One published page (spec 2.1): its title and content (markdown, or the API view for specs); Edit for editors. */
export function PublishedView({
  service,
  kind,
  cards = [],
}: {
  service: Service;
  kind: PageKind;
  cards?: PublishedExtras['page'];
}) {
  const api = useApi();
  const navigate = useNavigate();
  const pageId = useParams()['pageId'] ?? '';
  const query = useQuery(getPublishedPageQueryOptions(api, service.handle, kind.section, pageId));
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label={`Loading ${kind.one}`} />;
  if (state === 'offline') return <NotAvailableOffline />;
  const page = query.data;
  if (!page) return <NotFound />;
  return (
    <Card>
      <article className="flex flex-column gap-3" aria-label={page.title}>
        <header className="flex align-items-start justify-content-between gap-2 flex-wrap">
          <div style={{ minWidth: 0 }}>
            <h1 className="text-2xl font-semibold m-0" style={{ overflowWrap: 'anywhere' }}>
              {page.title}
            </h1>
            <p className="m-0 mt-1 text-600 text-sm">
              Updated <time dateTime={page.published_at}>{formatPageDate(page.published_at)}</time> by{' '}
              {page.updated_by.name}
            </p>
          </div>
          {service.permissions.edit && (
            <Button
              type="button"
              label="Edit"
              icon="pi pi-pencil"
              outlined
              onClick={() =>
                navigate(`${servicePath(service.handle)}/${kind.draftsPath}/${encodeURIComponent(page.handle)}`)
              }
            />
          )}
        </header>
        {cards.map((Extra, index) => (
          <Extra key={index} service={service} page={page} />
        ))}
        {kind.format === 'yaml' ? <SpecView text={page.content} /> : <Markdown text={page.content} />}
      </article>
    </Card>
  );
}
