import type { Db } from './workspaces.js';

/** Rows of a page that carry a `count(*) over ()` column, and what they mean together. */
export interface Paged<R> {
  rows: R[];
  total: number;
}

/**
 * Splits the window count off a page's rows. Past the last page the window has no row to ride on, so
 * `countAll` (the same query, counted) runs then, and only then.
 */
export async function pageWithTotal<R extends { total: number | string }>(
  rows: R[],
  cursor: number,
  countAll: () => Promise<number | string>,
): Promise<Paged<Omit<R, 'total'>>> {
  if (rows.length > 0) {
    return { rows: rows.map(({ total: _total, ...row }) => row), total: Number(rows[0]!.total) };
  }
  return { rows: [], total: cursor > 0 ? Number(await countAll()) : 0 };
}

/**
 * A page and the total as two queries: the page keeps its joins but can stop after `limit` rows read in index
 * order; the count runs on the bare filter. For long lists this beats a window count, which makes every
 * request join and sort every matching row.
 */
export async function pageAndCount<R>(rows: Promise<R[]>, count: Promise<{ n: number | string }>): Promise<Paged<R>> {
  const [page, counted] = await Promise.all([rows, count]);
  return { rows: page, total: Number(counted.n) };
}

/** A page and its total from two precompiled queries (`precompile`) run with the same values. */
export function precompiledPage<V, R>(
  rows: (db: Db, values: V) => Promise<R[]>,
  count: (db: Db, values: V) => Promise<{ n: number | string }[]>,
): (db: Db, values: V) => Promise<Paged<R>> {
  return (db, values) =>
    pageAndCount(
      rows(db, values),
      count(db, values).then(([row]) => row!),
    );
}
