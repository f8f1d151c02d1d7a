/** Paging as the API speaks it: `cursor` is an offset, `limit` a page size; totals travel in a `total` header. */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Page {
  cursor: number;
  limit: number;
}
