import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { DraftSummary } from '../../contract/pages.js';
import { DEFAULT_PAGE_SIZE, type Page } from '../../domain/pagination.js';
import { useApi } from '../session/use-api.js';
import { ListPaginator } from '../components/list-paginator.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { RowActions } from '../components/row-actions.js';
import { Spinner } from '../components/status-screens.js';
import { servicePath } from '../routing/paths.js';
import { useSnackbar } from '../components/snackbars.js';
import { formatPageDate } from './page-format.js';
import { noDraftsText, type PageKind } from './page-kinds.js';
import { deleteDraft, getDraftsQueryOptions, refreshPages } from './pages-api.js';

const FIRST_PAGE: Page = { cursor: 0, limit: DEFAULT_PAGE_SIZE };

/** Published when it has a published date (unpublish clears it), else a draft. */
export function draftStatus(draft: Pick<DraftSummary, 'published_at'>): 'Published' | 'Draft' {
  return draft.published_at ? 'Published' : 'Draft';
}

/**
 * A section's drafts (spec 2.1, editors): Title, Status, Updated, Modified By; Create New; each row's menu has
 * Edit Draft and Delete Draft. Empty: the section's text and a 'Create one' link.
 */
export function DraftList({ service, kind }: { service: Service; kind: PageKind }) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [page, setPage] = useState<Page>(FIRST_PAGE);
  const query = useQuery(getDraftsQueryOptions(api, service.handle, kind.section, page));
  const state = loadStateOf(query);
  const base = `${servicePath(service.handle)}/${kind.draftsPath}`;
  const remove = useMutation({
    mutationFn: (draft: DraftSummary) => deleteDraft(api, service.handle, kind.section, draft.id),
    onSuccess: async () => {
      enqueue('Deleted Draft');
      await refreshPages(queryClient, service.handle);
    },
  });
  const drafts = query.data?.items ?? [];
  const empty = (
    <span>
      {noDraftsText(kind)} <Link to={`${base}/new`}>Create one</Link>
    </span>
  );
  return (
    <Card>
      <div className="flex flex-column gap-3">
        <div className="flex align-items-center justify-content-between gap-2 flex-wrap">
          <h1 className="text-2xl font-semibold m-0">{kind.draftsLabel}</h1>
          <Button type="button" label="Create New" icon="pi pi-plus" onClick={() => navigate(`${base}/new`)} />
        </div>
        {state === 'pending' ? (
          <Spinner label="Loading drafts" />
        ) : state === 'offline' ? (
          <NotAvailableOffline />
        ) : (
          <>
            <DataTable
              value={drafts}
              dataKey="id"
              emptyMessage={empty}
              pt={{ table: { 'aria-label': kind.draftsLabel } }}
            >
              <Column
                header="Title"
                body={(draft: DraftSummary) => (
                  <Link to={`${base}/${encodeURIComponent(draft.id)}`}>{draft.title}</Link>
                )}
              />
              <Column header="Status" body={(draft: DraftSummary) => draftStatus(draft)} />
              <Column
                header="Updated"
                body={(draft: DraftSummary) => (
                  <time dateTime={draft.updated_at}>{formatPageDate(draft.updated_at)}</time>
                )}
              />
              <Column header="Modified By" body={(draft: DraftSummary) => draft.updated_by.name} />
              <Column
                header={<span className="p-hidden-accessible">Actions</span>}
                style={{ width: '4rem' }}
                body={(draft: DraftSummary) => (
                  <RowActions
                    id={`draft-actions-${draft.id}`}
                    name={draft.title}
                    disabled={remove.isPending}
                    items={[
                      {
                        label: 'Edit Draft',
                        icon: 'pi pi-pencil',
                        command: () => navigate(`${base}/${encodeURIComponent(draft.id)}`),
                      },
                      { label: 'Delete Draft', icon: 'pi pi-trash', command: () => remove.mutate(draft) },
                    ]}
                  />
                )}
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
  );
}
