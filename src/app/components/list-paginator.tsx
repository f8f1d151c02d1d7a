import { Paginator } from 'primereact/paginator';
import type { Page } from '../../domain/pagination.js';

export interface ListPaginatorProps {
  page: Page;
  total: number;
  onPage: (cursor: number) => void;
  /** Show it on a lone first page too (the users directory does); otherwise it appears once there is a second page. */
  showSinglePage?: boolean;
}

/** A list's paging (spec): no page-size selector; the page shown is the offset divided by the limit. */
export function ListPaginator({ page, total, onPage, showSinglePage = false }: ListPaginatorProps) {
  const hidden = showSinglePage ? total <= 0 : total <= page.limit && page.cursor === 0;
  if (hidden) return null;
  return (
    <Paginator
      first={page.cursor}
      rows={page.limit}
      totalRecords={total}
      onPageChange={(event) => onPage(event.first)}
      template="FirstPageLink PrevPageLink PageLinks NextPageLink LastPageLink CurrentPageReport"
      currentPageReportTemplate="Page {currentPage} of {totalPages}"
    />
  );
}
